/*
 * Centres (PLUMED's COM and CENTER virtual atoms) as group members: s, the energy and the forces against a brute force
 * that computes each centre the PLUMED way (each particle placed at the minimum image of the one before it, made
 * whole, then the weighted mean) and sums the pairs over the explicit positions (CenterScenario.h); the forces also
 * against central finite differences of the energy (double precision). TestCenterRules.cpp has the rules that refuse
 * a bad centre, the XML round trip and updateParametersInContext().
 */

#include "CenterScenario.h"
#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"
#include <algorithm>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;
using std::string;
using std::vector;

namespace {

/**
 * The forces against the expected ones, every particle within the force tolerance of the RMS of the forces the pairs
 * exert: the forces on the particles outside the centres and each centre's total force. A centre's force is shared
 * among its particles, so a centre of thousands of entries gives thousands of tiny forces, and an RMS over all
 * particles would stand for none of the forces the pairs exert.
 */
void expectCenterForcesNear(const Scenario& scenario, const vector<Vec3>& actual, const vector<Vec3>& expected) {
    vector<bool> member(actual.size(), false);
    double sumSquares = 0.0;
    int count = 0;
    for (const CenterSpec& center : scenario.centers) {
        vector<int> distinct(center.particles);
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        Vec3 total;
        for (int particle : distinct) {
            member[particle] = true;
            total += expected[particle];
        }
        sumSquares += total.dot(total);
        count++;
    }
    for (size_t i = 0; i < expected.size(); i++)
        if (!member[i]) {
            sumSquares += expected[i].dot(expected[i]);
            count++;
        }
    const double tolerance = std::max(Tolerance::ForceRelativeToRms * std::sqrt(sumSquares / count),
                                      Tolerance::ForceResolution);
    expectForcesNear(actual, expected, 0.0, tolerance);
}

/** s, the energy and the forces of every position set against the brute force; the forces also by finite differences. */
void expectScenarioMatchesBruteForce(const Scenario& scenario) {
    SCOPED_TRACE(scenario.name);
    const CoordinationForce force = makeCenterForce(scenario);
    CoordinationContext system = centerContext(force, scenario);
    for (unsigned seed = 1; seed <= 3; seed++) {
        SCOPED_TRACE("positions " + std::to_string(seed));
        const vector<Vec3> positions = scenarioPositions(scenario, 17 * seed);
        const BruteForce::Coordination expected = scenarioBruteForce(scenario, explicitOf(scenario, positions));
        double dEnergyDs;
        const double expectedEnergy = scenarioEnergy(expected.s, dEnergyDs);
        system.getContext().setPositions(positions);
        const OpenMM::State state = system.getContext().getState(OpenMM::State::Energy | OpenMM::State::Forces);
        expectRelativelyNear(system.getForce().getCoordination(system.getContext()), expected.s, Tolerance::Coordination, "s");
        expectRelativelyNear(state.getPotentialEnergy(), expectedEnergy, Tolerance::Coordination, "energy");
        EXPECT_GT(expected.s, 0.5) << "the scenario should have pairs within the cutoff";
        expectCenterForcesNear(scenario, state.getForces(), expectedForces(scenario, expected, dEnergyDs));
        if (!Tolerance::Double || seed != 1)
            continue;
        // -dE/dx by central differences, on the centres' particles (the first and last four of a larger centre; each
        // particle once) and a particle of each group outside them.
        const vector<Vec3> forces = state.getForces();
        vector<int> probed;
        for (const CenterSpec& center : scenario.centers)
            for (size_t j = 0; j < center.particles.size(); j++)
                if ((j < 4 || j + 4 >= center.particles.size()) &&
                    std::find(probed.begin(), probed.end(), center.particles[j]) == probed.end())
                    probed.push_back(center.particles[j]);
        for (const vector<int>* group : {&scenario.groupA, &scenario.groupB})
            for (int entry : *group)
                if (entry >= 0) {
                    probed.push_back(entry);
                    break;
                }
        const vector<Vec3> differences = centralDifferences(
            positions, Tolerance::FiniteDifferenceStep, [&](const vector<Vec3>& at) { return system.energyAt(at); },
            probed);
        const double tolerance = Tolerance::FiniteDifferenceRelativeToRms * rootMeanSquare(forces);
        for (int particle : probed)
            for (int axis = 0; axis < 3; axis++)
                EXPECT_NEAR(forces[particle][axis], differences[particle][axis], tolerance)
                    << "particle " << particle << " axis " << axis;
    }
}

/** A Dual scenario in the rectangular box: a COM of particles 0 to 3 and a geometric centre of 4 to 6. */
Scenario twoCentresScenario(const string& name, bool secondMadeWhole, const vector<int>& groupA,
                            const vector<int>& groupB, double dmax) {
    return scenarioOf(name, Box::rectangular(), CoordinationForce::Dual,
                      {center({0, 1, 2, 3}, CoordinationForce::CenterOfMass),
                       center({4, 5, 6}, CoordinationForce::GeometricCenter, secondMadeWhole)},
                      groupA, groupB, centerSettings(dmax));
}

/** Ten centres of three particles each and ten atoms, in Self mode (more centres than a GPU block computes). */
Scenario tenCentresScenario() {
    vector<CenterSpec> centers;
    vector<int> group;
    for (int k = 0; k < 10; k++) {
        centers.push_back(center({3 * k, 3 * k + 1, 3 * k + 2},
                                 k % 2 ? CoordinationForce::CenterOfMass : CoordinationForce::GeometricCenter,
                                 k % 3 != 0));
        group.push_back(-1 - k);
    }
    Scenario scenario = scenarioOf("Self, rectangular box: ten centres", Box::rectangular(), CoordinationForce::Self,
                                   centers, joined(group, indices(10, 30)), {}, centerSettings(1.2));
    scenario.numParticles = 40;
    return scenario;
}

} // namespace

TEST(Centers, CenterOfMassStraddlingTheBoxEdgeIsMadeWholeInDualMode) {
    expectScenarioMatchesBruteForce(
        twoCentresScenario("Dual, rectangular box: a whole COM and a geometric centre not made whole", false,
                           {-1, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16, 17, -2}, 1.1));
}

TEST(Centers, WeightedCentersCountInSelfModeInATriclinicBox) {
    expectScenarioMatchesBruteForce(
        scenarioOf("Self, triclinic box: weights with a negative and a zero one, a COM not made whole",
                   Box::triclinic(), CoordinationForce::Self,
                   {center({0, 1, 2, 3, 4}, CoordinationForce::WeightedCenter, true, {0.5, 2.0, 0.0, -0.25, 1.0}),
                    center({5, 6}, CoordinationForce::CenterOfMass, false)},
                   {-1, -2, 7, 8, 9, 10, 11, 12, 13, 14}, {}, centerSettings(Infinity)));
}

TEST(Centers, CentersPairWithAtomsAndEachOtherInPairMode) {
    Scenario scenario = scenarioOf(
        "Pair, no box: a centre paired with an atom, with another centre and with itself", Box::none(),
        CoordinationForce::Pair,
        {center({0, 1, 2}, CoordinationForce::CenterOfMass), center({3, 4, 5, 6}, CoordinationForce::GeometricCenter)},
        {-1, 7, -2, -1, 9, 10}, {8, -2, -1, -1, 11, 12}, centerSettings(Infinity, 1.0));
    scenario.forcePeriodic = false;
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, ACentreInBothGroupsCountsItsCrossPairsTwiceAndItselfNot) {
    expectScenarioMatchesBruteForce(scenarioOf(
        "Dual, rectangular box: one centre in both groups, another in B", Box::rectangular(), CoordinationForce::Dual,
        {center({0, 1, 2, 3}, CoordinationForce::GeometricCenter), center({4, 5, 6}, CoordinationForce::CenterOfMass)},
        {-1, 7, 8, 9, 10, 11}, {-1, -2, 12, 13, 14, 15, 7}, centerSettings(1.0)));
}

TEST(Centers, ANonPeriodicForceInAPeriodicSystemStillMakesItsCentresWhole) {
    // The System is periodic (OpenMM may wrap the particles), the force is not: its distances are plain, its centres
    // are made whole by the System's box, and a centre not made whole takes the positions as the Context holds them.
    Scenario scenario =
        scenarioOf("Dual, force without PBC in a periodic System", Box::rectangular(), CoordinationForce::Dual,
                   {center({0, 1, 2}, CoordinationForce::CenterOfMass),
                    center({3, 4, 5, 6, 7}, CoordinationForce::GeometricCenter, false)},
                   {-1, -2, 8, 9}, indices(10, 10), centerSettings(Infinity, 1.5));
    scenario.forcePeriodic = false;
    scenario.periodicCompanion = true;
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, ACentreAmongManyAtomsWithACutoff) {
    // Large enough for the GPU platforms' culled tiles and neighbour list, with the centre in the sorted slots.
    Scenario scenario = scenarioOf("Self, rectangular box, 2,000 atoms and a centre", Box::rectangular(),
                                   CoordinationForce::Self, {center(indices(6), CoordinationForce::CenterOfMass)},
                                   joined({-1}, indices(1994, 6)), {}, centerSettings(0.5, 0.15));
    scenario.numParticles = 2000;
    expectScenarioMatchesBruteForce(scenario);
    if (testPlatform().platform == "Reference")
        return; // it tests every pair
    // The CPU's cell grid and the GPU's neighbour list pruned the pairs, the centre's among them. A GPU prunes only
    // where the tiles exceed one pass of its warps (an H100 runs these in one pass): the same force with particle 0
    // in the centre's place says whether this platform and device prune this geometry.
    const vector<Vec3> positions = scenarioPositions(scenario, 17);
    CoordinationContext system = centerContext(makeCenterForce(scenario), scenario);
    system.getContext().setPositions(positions);
    Scenario atomsOnly = scenario;
    atomsOnly.centers.clear();
    atomsOnly.groupA[0] = 0;
    CoordinationContext atomsOnlySystem = centerContext(makeCenterForce(atomsOnly), atomsOnly);
    atomsOnlySystem.getContext().setPositions(positions);
    const long long slots = scenario.groupA.size(), allPairs = slots * (slots - 1) / 2;
    const long long candidates = system.getForce().getNumCandidatePairsInContext(system.getContext());
    const long long atomsOnlyCandidates =
        atomsOnlySystem.getForce().getNumCandidatePairsInContext(atomsOnlySystem.getContext());
    if (testPlatform().platform == "CPU")
        EXPECT_LT(atomsOnlyCandidates, allPairs / 2) << "the CPU's cell grid prunes";
    if (atomsOnlyCandidates < allPairs)
        EXPECT_LT(candidates, allPairs / 2) << "pruned without the centre (" << atomsOnlyCandidates << " of "
                                            << allPairs << "), so with it";
    else
        EXPECT_EQ(candidates, allPairs) << "not pruned without the centre, nor with it";
}

TEST(Centers, CentresOfThousandsOfEntriesMatchTheBruteForce) {
    // 4,500 member entries: more than a GPU block computes for itself (computeCenterPositions does). The large centre
    // is made whole in double precision only: in float each of the thousands of minimum-image steps of the straddling
    // cluster rounds by about ulp(box) * T_j / W, a centre error of a few 1e-6 nm, above the force tolerance (the
    // same sum as with a few particles; not made whole, the weights w_j / W ~ 1/N keep the float error small).
    vector<int> repeated;
    for (int i = 0; i < 1500; i++)
        repeated.push_back(3000 + (i * 7) % 10);
    Scenario scenario =
        scenarioOf("Dual, rectangular box: a COM of 3,000 particles across the box's corner, 1,500 repeated entries",
                   Box::rectangular(), CoordinationForce::Dual,
                   {center(indices(3000), CoordinationForce::CenterOfMass, Tolerance::Double),
                    center(repeated, CoordinationForce::GeometricCenter, false)},
                   {-1, -2, 3010, 3011}, joined(indices(28, 3012), {-2}), centerSettings(1.1));
    scenario.numParticles = 3100;
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, ACentreOfElevenHundredParticlesMatchesTheBruteForce) {
    // A centre larger than what a GPU block computes for itself: computeCenterPositions, with more than one batch of
    // loads per lane (made whole in double precision only, as above). A hundred atoms in group B and a short cutoff:
    // the force tolerance is relative to the forces' root mean square, which the centre's particles, each with a share
    // of about 1/1,100 of the centre's force, would otherwise pull far below the atoms' forces; and few pairs per atom
    // keep float's cancellation in the atoms' sums small.
    Scenario scenario =
        scenarioOf("Dual, rectangular box: a COM of 1,100 particles across the box's corner", Box::rectangular(),
                   CoordinationForce::Dual, {center(indices(1100), CoordinationForce::CenterOfMass, Tolerance::Double)},
                   {-1, 1100, 1101}, indices(100, 1102), centerSettings(0.8));
    scenario.numParticles = 1400;
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, TenCentresMatchTheBruteForce) {
    expectScenarioMatchesBruteForce(tenCentresScenario());
}

namespace {

/** Force and energy-only evaluations in any sequence give bitwise the same forces at the same positions. */
template <class ForceType> void expectForcesRepeatBitwise(const ForceType& force, const Scenario& scenario) {
    TestContext<ForceType> system = centerContext(force, scenario);
    system.getContext().setPositions(scenarioPositions(scenario, 5));
    const vector<Vec3> first = system.getContext().getState(OpenMM::State::Forces).getForces();
    EXPECT_GT(rootMeanSquare(first), 0.0);
    for (const char* sequence : {"EF", "F", "EEF", "EEEF", "FF"})
        for (const char* step = sequence; *step != 0; step++) {
            if (*step == 'E') {
                system.getContext().getState(OpenMM::State::Energy);
                continue;
            }
            const vector<Vec3> again = system.getContext().getState(OpenMM::State::Forces).getForces();
            for (int i = 0; i < scenario.numParticles; i++)
                for (int axis = 0; axis < 3; axis++)
                    ASSERT_EQ(again[i][axis], first[i][axis])
                        << "after " << sequence << ": particle " << i << " axis " << axis;
        }
}

/** A CoordinationNumberForce of the scenario's pair settings, the energy and a Sum reduction named total. */
CoordinationNumberForce numbersForceOf(const Scenario& scenario, const string& energy) {
    CoordinationNumberForce force(energy);
    static_cast<PairSwitchingForce&>(force) = makeCenterForce(scenario);
    force.setEnergyFunction(energy);
    force.addReduction(CoordinationNumberForce::Sum, "", "total");
    return force;
}

} // namespace

TEST(Centers, ForcesStayTheSameWhateverEvaluationsCameBetween) {
    // The GPU keeps the centres' gradient rows per evaluation parity and clears the other parity's in the pair
    // kernel: force and energy-only evaluations in any sequence must give bitwise the same forces at the same
    // positions (a row left uncleared would add an earlier evaluation's gradient). For a few centres and for ten,
    // the plain force and a CoordinationNumberForce (whose energy-only evaluation runs no finish).
    const Scenario few = twoCentresScenario("", false, {-1, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16, 17, -2}, 1.1);
    for (const Scenario& scenario : {few, tenCentresScenario()}) {
        SCOPED_TRACE(scenario.name);
        expectForcesRepeatBitwise(makeCenterForce(scenario), scenario);
        SCOPED_TRACE("numbers");
        expectForcesRepeatBitwise(numbersForceOf(scenario, "0.5*total^2"), scenario);
    }
}

TEST(Centers, CoordinationNumbersCountACentreInEitherGroup) {
    // c_i of group A's entries (a centre among them) with a centre among the neighbours of group B; the energy is a
    // function of two reductions, its forces checked against central differences of the brute-force energy.
    const Scenario scenario =
        twoCentresScenario("", true, {-2, 7, 8, 9, 10}, {-1, 11, 12, 13, 14, 15, 16, 17, 18}, 1.1);
    CoordinationNumberForce force = numbersForceOf(scenario, "0.5*(total-2)^2+0.75*average");
    force.addReduction(CoordinationNumberForce::Mean, "", "average");
    CoordinationNumberContext system = centerContext(force, scenario);
    // c_i from the definition over the explicit positions.
    auto numbersAt = [&](const vector<Vec3>& positions) {
        const Explicit e = explicitOf(scenario, positions);
        return BruteForce::coordinationNumbers(scenario.settings, scenario.mode, e.groupA, e.groupB, 0.0, e.positions,
                                               scenario.box.cell);
    };
    auto energyAt = [&](const vector<Vec3>& positions) {
        long double total = 0.0L;
        for (long double c : numbersAt(positions))
            total += c;
        return 0.5L * (total - 2) * (total - 2) + 0.75L * total / scenario.groupA.size();
    };
    for (unsigned seed = 1; seed <= 2; seed++) {
        const vector<Vec3> positions = scenarioPositions(scenario, 31 * seed);
        system.getContext().setPositions(positions);
        vector<double> numbers;
        system.getForce().getCoordinationNumbers(system.getContext(), numbers);
        const vector<long double> expected = numbersAt(positions);
        ASSERT_EQ(numbers.size(), expected.size());
        for (size_t k = 0; k < numbers.size(); k++)
            expectRelativelyNear(numbers[k], (double) expected[k], Tolerance::Coordination, "c of entry " + std::to_string(k));
        EXPECT_GT(expected[0], 0.1) << "the centre in group A should have neighbours";
        const OpenMM::State state = system.getContext().getState(OpenMM::State::Energy | OpenMM::State::Forces);
        expectRelativelyNear(state.getPotentialEnergy(), (double) energyAt(positions), Tolerance::Coordination, "energy");
        // -dE/dx of the brute-force energy by central differences in long double. (As TestCoordinationNumbers:
        // single precision's numbers pass sums v in fixed point, its weights in float.)
        expectForcesNear(state.getForces(), centralDifferences(positions, 1e-6, energyAt),
                         Tolerance::Double ? 1e-7 : 1e-4, Tolerance::ForceResolution * 8);
    }
}

TEST(Centers, ACentreWithAnInfiniteParticleGivesNaNAndNoForce) {
    const Scenario scenario =
        scenarioOf("", Box::rectangular(), CoordinationForce::Dual,
                   {center({0, 1, 2}, CoordinationForce::CenterOfMass)}, {-1, 3}, {4, 5, 6, 7}, centerSettings(1.1));
    CoordinationContext system = centerContext(makeCenterForce(scenario), scenario);
    vector<Vec3> positions = scenarioPositions(scenario, 5);
    // In the centre only, not in a group (infinity: OpenMM's CPU platform refuses a NaN coordinate itself).
    positions[1][1] = Infinity;
    system.getContext().setPositions(positions);
    const OpenMM::State state = system.getContext().getState(OpenMM::State::Energy | OpenMM::State::Forces);
    EXPECT_TRUE(std::isnan(state.getPotentialEnergy()));
    EXPECT_TRUE(std::isnan(system.getForce().getCoordination(system.getContext())));
    expectAllForcesZero(state.getForces());
}
