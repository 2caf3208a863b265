/*
 * Centres (PLUMED's COM and CENTER virtual atoms) as group members: s, the energy and the forces against a brute force
 * that computes each centre the PLUMED way (each particle placed at the minimum image of the one before it, made
 * whole, then the weighted mean) and sums the pairs over the explicit positions; the forces also against central
 * finite differences of the energy (double precision). Then the rules that refuse a bad centre, one per test, the
 * XML round trip and updateParametersInContext().
 */

#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"
#include "openmm/NonbondedForce.h"
#include "openmm/serialization/XmlSerializer.h"
#include <algorithm>
#include <cfloat>
#include <memory>
#include <sstream>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;
using std::string;
using std::vector;

namespace {

const int NumParticles = 24;

/** Distinct masses, so that a centre of mass differs from the geometric centre. */
double massOf(int particle) {
    return 1.0 + 2.5 * (particle % 4) + 0.125 * particle;
}

/** A centre as the test gives it to addCenter(). */
struct CenterSpec {
    vector<int> particles;
    CoordinationForce::CenterWeighting weighting = CoordinationForce::GeometricCenter;
    vector<double> weights;
    bool makeWhole = true;
};

/** The weights PLUMED gives the centre's particles: 1 (CENTER), the masses (COM) or the given ones (WEIGHTS). */
vector<long double> weightsOf(const CenterSpec& center) {
    vector<long double> weights;
    for (size_t j = 0; j < center.particles.size(); j++)
        weights.push_back(center.weighting == CoordinationForce::CenterOfMass
                              ? massOf(center.particles[j])
                              : (center.weighting == CoordinationForce::WeightedCenter ? center.weights[j] : 1.0));
    return weights;
}

/**
 * PLUMED's centre: in a periodic System (and unless NOPBC), each particle is first placed at the minimum image of the
 * previous one as already placed (the group made whole); then the weighted mean.
 */
Vec3 plumedCenter(const CenterSpec& center, const vector<Vec3>& positions, const BruteForce::Cell& systemCell) {
    const vector<long double> weights = weightsOf(center);
    vector<Vec3> placed;
    for (size_t j = 0; j < center.particles.size(); j++) {
        const Vec3 position = positions[center.particles[j]];
        if (j == 0 || !(center.makeWhole && systemCell.periodic))
            placed.push_back(position);
        else
            placed.push_back(placed[j - 1] + BruteForce::minimumImage(position - placed[j - 1], systemCell));
    }
    long double total = 0.0L, sum[3] = {0.0L, 0.0L, 0.0L};
    for (size_t j = 0; j < placed.size(); j++) {
        total += weights[j];
        for (int axis = 0; axis < 3; axis++)
            sum[axis] += weights[j] * placed[j][axis];
    }
    return Vec3((double) (sum[0] / total), (double) (sum[1] / total), (double) (sum[2] / total));
}

/** One force with centres, its System's box and the force's own periodic flag. */
struct Scenario {
    string name;
    Box box;
    bool forcePeriodic = true;
    CoordinationForce::Mode mode = CoordinationForce::Dual;
    vector<CenterSpec> centers;
    vector<int> groupA, groupB; // particle indices and centre ids (-1 - k)
    SwitchingSettings settings;
    string energy = "0.25*s^2+s";
    int numParticles = NumParticles;
    /**
     * A NonbondedForce of zero charges with a periodic cutoff beside the force: the System then uses periodic
     * boundary conditions (System::usesPeriodicBoundaryConditions() asks its forces), and the GPU platforms wrap
     * and reorder its atoms.
     */
    bool periodicCompanion = false;
};

/** The force of a scenario (the ids addCenter() returns are -1, -2, ...: the groups use them). */
CoordinationForce makeCenterForce(const Scenario& scenario) {
    CoordinationForce force = makeForce(scenario.settings, scenario.mode, {0}, {}, scenario.energy, scenario.forcePeriodic);
    for (size_t k = 0; k < scenario.centers.size(); k++) {
        const CenterSpec& c = scenario.centers[k];
        EXPECT_EQ(force.addCenter(c.particles, c.weighting, c.weights, c.makeWhole), -1 - (int) k);
    }
    force.setGroupA(scenario.groupA);
    force.setGroupB(scenario.groupB);
    return force;
}

/** A System with the test's masses and the scenario's box, holding a force, and a Context for it. */
class CenterContext {
public:
    CenterContext(const CoordinationForce& prototype, const Scenario& scenario, const PlatformCase& platformCase = testPlatform())
        : integrator(0.001) {
        for (int i = 0; i < scenario.numParticles; i++)
            system.addParticle(massOf(i));
        if (scenario.box.periodic())
            system.setDefaultPeriodicBoxVectors(scenario.box.cell.a, scenario.box.cell.b, scenario.box.cell.c);
        auto* numbers = dynamic_cast<const CoordinationNumberForce*>(&prototype);
        force = (numbers != nullptr ? new CoordinationNumberForce(*numbers) : new CoordinationForce(prototype));
        system.addForce(force);
        if (scenario.periodicCompanion) {
            auto* nonbonded = new OpenMM::NonbondedForce();
            nonbonded->setNonbondedMethod(OpenMM::NonbondedForce::CutoffPeriodic);
            nonbonded->setCutoffDistance(1.0);
            for (int i = 0; i < scenario.numParticles; i++)
                nonbonded->addParticle(0.0, 0.3, 0.0);
            system.addForce(nonbonded);
        }
        context.reset(new OpenMM::Context(system, integrator, OpenMM::Platform::getPlatformByName(platformCase.platform),
                                          platformCase.properties()));
    }
    OpenMM::Context& getContext() { return *context; }
    CoordinationForce& getForce() { return *force; }
    double energyAt(const vector<Vec3>& positions) {
        context->setPositions(positions);
        return context->getState(OpenMM::State::Energy).getPotentialEnergy();
    }

private:
    OpenMM::System system;
    CoordinationForce* force;
    OpenMM::VerletIntegrator integrator;
    std::unique_ptr<OpenMM::Context> context;
};

/** The explicit positions (the particles', then the centres') and the groups over them. */
struct Explicit {
    vector<Vec3> positions;
    vector<int> groupA, groupB;
};

Explicit explicitOf(const Scenario& scenario, const vector<Vec3>& positions) {
    Explicit result;
    result.positions = positions;
    for (const CenterSpec& center : scenario.centers)
        result.positions.push_back(plumedCenter(center, positions, scenario.box.cell));
    auto member = [&](int entry) { return entry >= 0 ? entry : scenario.numParticles + (-1 - entry); };
    for (int entry : scenario.groupA)
        result.groupA.push_back(member(entry));
    for (int entry : scenario.groupB)
        result.groupB.push_back(member(entry));
    return result;
}

/** s and its gradient by the brute force over the explicit positions (the force's own periodicity). */
BruteForce::Coordination bruteForce(const Scenario& scenario, const Explicit& explicitPositions) {
    BruteForce::Cell cell = scenario.box.cell;
    cell.periodic = scenario.box.periodic() && scenario.forcePeriodic;
    return BruteForce::coordination(scenario.settings, scenario.mode, explicitPositions.groupA, explicitPositions.groupB,
                                    explicitPositions.positions, cell);
}

/** E(s) = 0.25 s^2 + s (the scenarios' energy) and dE/ds. */
double energyOf(double s, double& dEnergyDs) {
    dEnergyDs = 0.5 * s + 1.0;
    return 0.25 * s * s + s;
}

/** -dE/dx of the particles: dE/ds times the gradient of s, a centre's share w_j / W to its particle j (chain rule). */
vector<Vec3> expectedForces(const Scenario& scenario, const BruteForce::Coordination& coordination, double dEnergyDs) {
    vector<Vec3> forces(scenario.numParticles);
    for (int i = 0; i < scenario.numParticles; i++)
        forces[i] = coordination.gradient[i] * -dEnergyDs;
    for (size_t k = 0; k < scenario.centers.size(); k++) {
        const vector<long double> weights = weightsOf(scenario.centers[k]);
        long double total = 0.0L;
        for (long double w : weights)
            total += w;
        const Vec3& centerGradient = coordination.gradient[scenario.numParticles + k];
        for (size_t j = 0; j < weights.size(); j++)
            forces[scenario.centers[k].particles[j]] -= centerGradient * (double) (dEnergyDs * weights[j] / total);
    }
    return forces;
}

/**
 * Random positions in the box (in a 2.5 nm cube without one), some of them a box vector outside it, with the
 * particles of centre 0 spread over a cluster that straddles the box's corner (x, y and z near 0 and near the box
 * edge): only a centre made whole is then near the cluster.
 */
vector<Vec3> scenarioPositions(const Scenario& scenario, unsigned seed) {
    vector<Vec3> positions = randomPositions(scenario.numParticles, scenario.box, seed);
    UniformRandom random(seed + 1000);
    if (!scenario.centers.empty() && scenario.box.periodic()) {
        const BruteForce::Cell& cell = scenario.box.cell;
        for (int particle : scenario.centers[0].particles) {
            Vec3 position = Vec3(random(), random(), random()) * 0.3 - Vec3(0.15, 0.15, 0.15);
            for (int axis = 0; axis < 3; axis++)
                if (position[axis] < 0) // the far side of the box along this axis
                    position += (axis == 0 ? cell.a : axis == 1 ? cell.b : cell.c);
            positions[particle] = position;
        }
    }
    return positions;
}

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
    CenterContext system(force, scenario);
    for (unsigned seed = 1; seed <= 3; seed++) {
        SCOPED_TRACE("positions " + std::to_string(seed));
        const vector<Vec3> positions = scenarioPositions(scenario, 17 * seed);
        const BruteForce::Coordination expected = bruteForce(scenario, explicitOf(scenario, positions));
        double dEnergyDs;
        const double expectedEnergy = energyOf(expected.s, dEnergyDs);
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
        vector<Vec3> displaced = positions;
        const double step = Tolerance::FiniteDifferenceStep;
        const double tolerance = Tolerance::FiniteDifferenceRelativeToRms * rootMeanSquare(forces);
        for (int particle : probed)
            for (int axis = 0; axis < 3; axis++) {
                displaced[particle][axis] = positions[particle][axis] + step;
                const double forward = system.energyAt(displaced);
                displaced[particle][axis] = positions[particle][axis] - step;
                const double backward = system.energyAt(displaced);
                displaced[particle][axis] = positions[particle][axis];
                EXPECT_NEAR(forces[particle][axis], -(forward - backward) / (2 * step), tolerance)
                    << "particle " << particle << " axis " << axis;
            }
    }
}

SwitchingSettings centerSettings(double dmax) {
    SwitchingSettings settings;
    settings.r0 = 0.6;
    settings.dmax = dmax;
    return settings;
}

CenterSpec center(const vector<int>& particles, CoordinationForce::CenterWeighting weighting, bool makeWhole = true,
                  const vector<double>& weights = {}) {
    CenterSpec spec;
    spec.particles = particles;
    spec.weighting = weighting;
    spec.weights = weights;
    spec.makeWhole = makeWhole;
    return spec;
}

} // namespace

TEST(Centers, CenterOfMassStraddlingTheBoxEdgeIsMadeWholeInDualMode) {
    Scenario scenario;
    scenario.name = "Dual, rectangular box: a whole COM and a geometric centre not made whole";
    scenario.box = Box::rectangular();
    scenario.centers = {center({0, 1, 2, 3}, CoordinationForce::CenterOfMass),
                        center({4, 5, 6}, CoordinationForce::GeometricCenter, false)};
    scenario.groupA = {-1, 7, 8};
    scenario.groupB = {9, 10, 11, 12, 13, 14, 15, 16, 17, -2};
    scenario.settings = centerSettings(1.1);
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, WeightedCentersCountInSelfModeInATriclinicBox) {
    Scenario scenario;
    scenario.name = "Self, triclinic box: weights with a negative and a zero one, a COM not made whole";
    scenario.box = Box::triclinic();
    scenario.mode = CoordinationForce::Self;
    scenario.centers = {center({0, 1, 2, 3, 4}, CoordinationForce::WeightedCenter, true, {0.5, 2.0, 0.0, -0.25, 1.0}),
                        center({5, 6}, CoordinationForce::CenterOfMass, false)};
    scenario.groupA = {-1, -2, 7, 8, 9, 10, 11, 12, 13, 14};
    scenario.settings = centerSettings(0.0);
    scenario.settings.dmax = Infinity;
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, CentersPairWithAtomsAndEachOtherInPairMode) {
    Scenario scenario;
    scenario.name = "Pair, no box: a centre paired with an atom, with another centre and with itself";
    scenario.box = Box::none();
    scenario.forcePeriodic = false;
    scenario.mode = CoordinationForce::Pair;
    scenario.centers = {center({0, 1, 2}, CoordinationForce::CenterOfMass),
                        center({3, 4, 5, 6}, CoordinationForce::GeometricCenter)};
    scenario.groupA = {-1, 7, -2, -1, 9, 10};
    scenario.groupB = {8, -2, -1, -1, 11, 12};
    scenario.settings = centerSettings(Infinity);
    scenario.settings.r0 = 1.0;
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, ACentreInBothGroupsCountsItsCrossPairsTwiceAndItselfNot) {
    Scenario scenario;
    scenario.name = "Dual, rectangular box: one centre in both groups, another in B";
    scenario.box = Box::rectangular();
    scenario.centers = {center({0, 1, 2, 3}, CoordinationForce::GeometricCenter),
                        center({4, 5, 6}, CoordinationForce::CenterOfMass)};
    scenario.groupA = {-1, 7, 8, 9, 10, 11};
    scenario.groupB = {-1, -2, 12, 13, 14, 15, 7};
    scenario.settings = centerSettings(1.0);
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, ANonPeriodicForceInAPeriodicSystemStillMakesItsCentresWhole) {
    // The System is periodic (OpenMM may wrap the particles), the force is not: its distances are plain, its centres
    // are made whole by the System's box, and a centre not made whole takes the positions as the Context holds them.
    Scenario scenario;
    scenario.name = "Dual, force without PBC in a periodic System";
    scenario.box = Box::rectangular();
    scenario.forcePeriodic = false;
    scenario.periodicCompanion = true;
    scenario.centers = {center({0, 1, 2}, CoordinationForce::CenterOfMass),
                        center({3, 4, 5, 6, 7}, CoordinationForce::GeometricCenter, false)};
    scenario.groupA = {-1, -2, 8, 9};
    scenario.groupB = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    scenario.settings = centerSettings(Infinity);
    scenario.settings.r0 = 1.5;
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, ACentreAmongManyAtomsWithACutoff) {
    // Large enough for the GPU platforms' culled tiles and neighbour list, with the centre in the sorted slots.
    Scenario scenario;
    scenario.name = "Self, rectangular box, 2,000 atoms and a centre";
    scenario.box = Box::rectangular();
    scenario.mode = CoordinationForce::Self;
    scenario.numParticles = 2000;
    scenario.centers = {center({0, 1, 2, 3, 4, 5}, CoordinationForce::CenterOfMass)};
    scenario.groupA = {-1};
    for (int i = 6; i < scenario.numParticles; i++)
        scenario.groupA.push_back(i);
    scenario.settings = centerSettings(0.5);
    scenario.settings.r0 = 0.15;
    expectScenarioMatchesBruteForce(scenario);
    if (testPlatform().platform == "Reference")
        return; // it tests every pair
    // The CPU's cell grid and the GPU's neighbour list pruned the pairs, the centre's among them. A GPU prunes only
    // where the tiles exceed one pass of its warps (an H100 runs these in one pass): the same force with particle 0
    // in the centre's place says whether this platform and device prune this geometry.
    const vector<Vec3> positions = scenarioPositions(scenario, 17);
    const CoordinationForce force = makeCenterForce(scenario);
    CenterContext system(force, scenario);
    system.getContext().setPositions(positions);
    Scenario atomsOnly = scenario;
    atomsOnly.centers.clear();
    atomsOnly.groupA[0] = 0;
    const CoordinationForce atomsOnlyForce = makeCenterForce(atomsOnly);
    CenterContext atomsOnlySystem(atomsOnlyForce, atomsOnly);
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
    // 4,500 member entries: more than a GPU block computes for itself (computeCenterPositions does).
    Scenario scenario;
    scenario.name = "Dual, rectangular box: a COM of 3,000 particles across the box's corner, 1,500 repeated entries";
    scenario.box = Box::rectangular();
    scenario.numParticles = 3100;
    // Made whole in double precision only: in float each of the thousands of minimum-image steps of the straddling
    // cluster rounds by about ulp(box) * T_j / W, a centre error of a few 1e-6 nm, above the force tolerance (the
    // same sum as with a few particles; not made whole, the weights w_j / W ~ 1/N keep the float error small).
    CenterSpec large = center({}, CoordinationForce::CenterOfMass, Tolerance::Double);
    for (int i = 0; i < 3000; i++)
        large.particles.push_back(i);
    CenterSpec repeated = center({}, CoordinationForce::GeometricCenter, false);
    for (int i = 0; i < 1500; i++)
        repeated.particles.push_back(3000 + (i * 7) % 10);
    scenario.centers = {large, repeated};
    scenario.groupA = {-1, -2, 3010, 3011};
    for (int i = 3012; i < 3040; i++)
        scenario.groupB.push_back(i);
    scenario.groupB.push_back(-2);
    scenario.settings = centerSettings(1.1);
    expectScenarioMatchesBruteForce(scenario);
}

TEST(Centers, ACentreOfElevenHundredParticlesMatchesTheBruteForce) {
    // A centre larger than what a GPU block computes for itself: computeCenterPositions, with more than one batch of
    // loads per lane. (A hundred atoms in
    // group B and a short cutoff: the force tolerance is relative to the forces' root mean square, which the centre's
    // particles, each with a share of about 1/1,100 of the centre's force, would otherwise pull far below the atoms'
    // forces; and few pairs per atom keep float's cancellation in the atoms' sums small.)
    Scenario scenario;
    scenario.name = "Dual, rectangular box: a COM of 1,100 particles across the box's corner";
    scenario.box = Box::rectangular();
    scenario.numParticles = 1400;
    CenterSpec large = center({}, CoordinationForce::CenterOfMass, Tolerance::Double); // (as above)
    for (int i = 0; i < 1100; i++)
        large.particles.push_back(i);
    scenario.centers = {large};
    scenario.groupA = {-1, 1100, 1101};
    for (int i = 1102; i < 1202; i++)
        scenario.groupB.push_back(i);
    scenario.settings = centerSettings(0.8);
    expectScenarioMatchesBruteForce(scenario);
}

/** Ten centres of three particles each and ten atoms, in Self mode (more centres than a GPU block computes). */
Scenario tenCentresScenario() {
    Scenario scenario;
    scenario.name = "Self, rectangular box: ten centres";
    scenario.box = Box::rectangular();
    scenario.mode = CoordinationForce::Self;
    scenario.numParticles = 40;
    for (int k = 0; k < 10; k++) {
        scenario.centers.push_back(center({3 * k, 3 * k + 1, 3 * k + 2},
                                          k % 2 ? CoordinationForce::CenterOfMass : CoordinationForce::GeometricCenter,
                                          k % 3 != 0));
        scenario.groupA.push_back(-1 - k);
    }
    for (int i = 30; i < 40; i++)
        scenario.groupA.push_back(i);
    scenario.settings = centerSettings(1.2);
    return scenario;
}

TEST(Centers, TenCentresMatchTheBruteForce) {
    expectScenarioMatchesBruteForce(tenCentresScenario());
}

TEST(Centers, ForcesStayTheSameWhateverEvaluationsCameBetween) {
    // The GPU keeps the centres' gradient rows per evaluation parity and clears the other parity's in the pair
    // kernel: force and energy-only evaluations in any sequence must give bitwise the same forces at the same
    // positions (a row left uncleared would add an earlier evaluation's gradient). For a few centres and for ten,
    // the plain force and a CoordinationNumberForce (whose energy-only evaluation runs no finish).
    Scenario few;
    few.box = Box::rectangular();
    few.centers = {center({0, 1, 2, 3}, CoordinationForce::CenterOfMass),
                   center({4, 5, 6}, CoordinationForce::GeometricCenter, false)};
    few.groupA = {-1, 7, 8};
    few.groupB = {9, 10, 11, 12, 13, 14, 15, 16, 17, -2};
    few.settings = centerSettings(1.1);
    for (const Scenario& scenario : {few, tenCentresScenario()})
        for (bool numbers : {false, true}) {
            SCOPED_TRACE(string(numbers ? "numbers, " : "") + scenario.name);
            std::unique_ptr<CoordinationForce> force;
            if (numbers) {
                auto* numbersForce = new CoordinationNumberForce("0.5*total^2");
                static_cast<CoordinationForce&>(*numbersForce) = makeCenterForce(scenario);
                numbersForce->setEnergyFunction("0.5*total^2");
                numbersForce->addReduction(CoordinationNumberForce::Sum, "", "total");
                force.reset(numbersForce);
            }
            else
                force.reset(new CoordinationForce(makeCenterForce(scenario)));
            CenterContext system(*force, scenario);
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
}

TEST(Centers, CoordinationNumbersCountACentreInEitherGroup) {
    // c_i of group A's entries (a centre among them) with a centre among the neighbours of group B; the energy is a
    // function of two reductions, its forces checked against central differences of the brute-force energy.
    Scenario scenario;
    scenario.box = Box::rectangular();
    scenario.centers = {center({0, 1, 2, 3}, CoordinationForce::CenterOfMass),
                        center({4, 5, 6}, CoordinationForce::GeometricCenter)};
    scenario.groupA = {-2, 7, 8, 9, 10};
    scenario.groupB = {-1, 11, 12, 13, 14, 15, 16, 17, 18};
    scenario.settings = centerSettings(1.1);
    CoordinationNumberForce force("0.5*(total-2)^2+0.75*average");
    static_cast<CoordinationForce&>(force) = makeCenterForce(scenario);
    force.setEnergyFunction("0.5*(total-2)^2+0.75*average");
    force.addReduction(CoordinationNumberForce::Sum, "", "total");
    force.addReduction(CoordinationNumberForce::Mean, "", "average");
    CenterContext system(force, scenario);
    BruteForce::Cell cell = scenario.box.cell;
    // c_i from the definition over the explicit positions (no pair nearer than DBL_EPSILON in r^2 or sigma counts).
    auto numbersAt = [&](const vector<Vec3>& positions) {
        const Explicit e = explicitOf(scenario, positions);
        vector<long double> c(e.groupA.size(), 0.0L);
        for (size_t k = 0; k < e.groupA.size(); k++)
            for (int b : e.groupB) {
                const Vec3 delta = BruteForce::minimumImage(e.positions[b] - e.positions[e.groupA[k]], cell);
                const long double r2 = (long double) delta.dot(delta);
                if (r2 < DBL_EPSILON)
                    continue;
                const long double value = BruteForce::sigma(scenario.settings, std::sqrt(r2)).value;
                if (value >= DBL_EPSILON)
                    c[k] += value;
            }
        return c;
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
        static_cast<CoordinationNumberForce&>(system.getForce()).getCoordinationNumbers(system.getContext(), numbers);
        const vector<long double> expected = numbersAt(positions);
        ASSERT_EQ(numbers.size(), expected.size());
        for (size_t k = 0; k < numbers.size(); k++)
            expectRelativelyNear(numbers[k], (double) expected[k], Tolerance::Coordination, "c of entry " + std::to_string(k));
        EXPECT_GT(expected[0], 0.1) << "the centre in group A should have neighbours";
        const OpenMM::State state = system.getContext().getState(OpenMM::State::Energy | OpenMM::State::Forces);
        expectRelativelyNear(state.getPotentialEnergy(), (double) energyAt(positions), Tolerance::Coordination, "energy");
        // -dE/dx of the brute-force energy by central differences in long double.
        const double step = 1e-6;
        vector<Vec3> expectedForces(positions.size()), displaced = positions;
        for (size_t i = 0; i < positions.size(); i++)
            for (int axis = 0; axis < 3; axis++) {
                displaced[i][axis] = positions[i][axis] + step;
                const long double forward = energyAt(displaced);
                displaced[i][axis] = positions[i][axis] - step;
                const long double backward = energyAt(displaced);
                displaced[i][axis] = positions[i][axis];
                expectedForces[i][axis] = (double) (-(forward - backward) / (2 * (long double) step));
            }
        // (As TestCoordinationNumbers: single precision's numbers pass sums v in fixed point, its weights in float.)
        expectForcesNear(state.getForces(), expectedForces, Tolerance::Double ? 1e-7 : 1e-4,
                         Tolerance::ForceResolution * 8);
    }
}

TEST(Centers, ACentreWithAnInfiniteParticleGivesNaNAndNoForce) {
    Scenario scenario;
    scenario.box = Box::rectangular();
    scenario.centers = {center({0, 1, 2}, CoordinationForce::CenterOfMass)};
    scenario.groupA = {-1, 3};
    scenario.groupB = {4, 5, 6, 7};
    scenario.settings = centerSettings(1.1);
    CenterContext system(makeCenterForce(scenario), scenario);
    vector<Vec3> positions = scenarioPositions(scenario, 5);
    // In the centre only, not in a group (infinity: OpenMM's CPU platform refuses a NaN coordinate itself).
    positions[1][1] = Infinity;
    system.getContext().setPositions(positions);
    const OpenMM::State state = system.getContext().getState(OpenMM::State::Energy | OpenMM::State::Forces);
    EXPECT_TRUE(std::isnan(state.getPotentialEnergy()));
    EXPECT_TRUE(std::isnan(system.getForce().getCoordination(system.getContext())));
    expectAllForcesZero(state.getForces());
}

// Refusals: each rule once, at Context creation, with a message that names the centre and the fix.

namespace {

void expectRefused(const std::function<void(CoordinationForce&)>& change, const vector<string>& words) {
    Scenario scenario;
    scenario.box = Box::rectangular();
    scenario.settings = centerSettings(1.0);
    scenario.groupA = {0, 1};
    scenario.groupB = {2, 3};
    CoordinationForce force = makeCenterForce(scenario);
    change(force);
    expectOpenMMExceptionMentioning([&]() { CenterContext system(force, scenario); }, words);
}

} // namespace

TEST(Centers, ACentreWithoutParticlesIsRefused) {
    expectRefused([](CoordinationForce& f) { f.setGroupA({f.addCenter({})}); }, {"centre 0 (id -1)", "no particles"});
}

TEST(Centers, ACentreWithAParticleOutsideTheSystemIsRefused) {
    expectRefused([](CoordinationForce& f) { f.setGroupA({f.addCenter({0, 24})}); },
                  {"centre 0", "particle entry 1 is 24", "use indices 0 to 23"});
}

TEST(Centers, ANegativeEntryThatIsNoCentreIsRefused) {
    expectRefused([](CoordinationForce& f) {
        f.addCenter({0, 1});
        f.setGroupB({2, -2});
    }, {"group B entry 1", "-2", "not the id of a centre", "ids -1 to -1"});
}

TEST(Centers, WeightsOfAnotherCountThanTheParticlesAreRefused) {
    expectRefused([](CoordinationForce& f) {
        f.setGroupA({f.addCenter({0, 1}, CoordinationForce::WeightedCenter, {1.0, 2.0, 3.0})});
    }, {"centre 0", "2 particles but 3 weights"});
}

TEST(Centers, WeightsThatSumToZeroAreRefused) {
    expectRefused([](CoordinationForce& f) {
        f.setGroupA({f.addCenter({0, 1}, CoordinationForce::WeightedCenter, {1.5, -1.5})});
    }, {"centre 0", "weights sum to 0"});
}

TEST(Centers, ACentreOfMasslessParticlesIsRefused) {
    Scenario scenario;
    scenario.settings = centerSettings(1.0);
    scenario.centers = {center({0, 1}, CoordinationForce::CenterOfMass)};
    scenario.groupA = {-1, 2};
    CoordinationForce force = makeCenterForce(scenario);
    OpenMM::System system;
    system.addParticle(0.0);
    system.addParticle(0.0);
    system.addParticle(1.0);
    system.addForce(new CoordinationForce(force));
    OpenMM::VerletIntegrator integrator(0.001);
    expectOpenMMExceptionMentioning(
        [&]() { OpenMM::Context context(system, integrator, OpenMM::Platform::getPlatformByName("Reference")); },
        {"centre 0", "masses sum to 0"});
}

TEST(Centers, WeightsOnACentreThatIsNotWeightedAreRefused) {
    expectRefused([](CoordinationForce& f) {
        f.setGroupA({f.addCenter({0, 1}, CoordinationForce::CenterOfMass, {1.0, 2.0})});
    }, {"centre 0", "has weights but is not a WeightedCenter"});
}

TEST(Centers, AnUnknownWeightingIsRefusedWhereItIsSet) {
    CoordinationForce force;
    expectOpenMMExceptionMentioning([&]() { force.addCenter({0}, (CoordinationForce::CenterWeighting) 3); },
                                    {"unknown centre weighting 3"});
    EXPECT_EQ(force.getNumCenters(), 0);
}

TEST(Centers, XmlRoundTripKeepsEveryCentre) {
    CoordinationForce force;
    force.setMode(CoordinationForce::Dual);
    force.addCenter({3, 1, 4}, CoordinationForce::WeightedCenter, {0.25, 1.0 / 3.0, -2e-7}, false);
    force.addCenter({5, 9}, CoordinationForce::CenterOfMass);
    force.addCenter({2}, CoordinationForce::GeometricCenter, {}, false);
    force.setGroupA({-1, 0, -3});
    force.setGroupB({-2, 6});
    std::stringstream stream;
    OpenMM::XmlSerializer::serialize<OpenMM::Force>(&force, "Force", stream);
    EXPECT_NE(stream.str().find("version=\"3\""), string::npos);
    std::unique_ptr<OpenMM::Force> read(OpenMM::XmlSerializer::deserialize<OpenMM::Force>(stream));
    auto* copy = dynamic_cast<CoordinationForce*>(read.get());
    ASSERT_NE(copy, nullptr);
    expectSameCoordinationSettings(*copy, force);
    ASSERT_EQ(copy->getNumCenters(), 3);
    for (int k = 0; k < 3; k++) {
        vector<int> particles, copyParticles;
        CoordinationForce::CenterWeighting weighting, copyWeighting;
        vector<double> weights, copyWeights;
        bool whole, copyWhole;
        force.getCenterParameters(k, particles, weighting, weights, whole);
        copy->getCenterParameters(k, copyParticles, copyWeighting, copyWeights, copyWhole);
        EXPECT_EQ(copyParticles, particles) << "centre " << k;
        EXPECT_EQ(copyWeighting, weighting) << "centre " << k;
        EXPECT_EQ(copyWeights, weights) << "centre " << k;
        EXPECT_EQ(copyWhole, whole) << "centre " << k;
    }
    // A CoordinationNumberForce's centres (its proxy's version 2).
    CoordinationNumberForce numbers("total");
    numbers.addReduction(CoordinationNumberForce::Sum, "", "total");
    numbers.addCenter({7, 8}, CoordinationForce::CenterOfMass);
    numbers.setMode(CoordinationForce::Dual);
    numbers.setGroupA({0, 1});
    numbers.setGroupB({-1, 2});
    std::stringstream numbersStream;
    OpenMM::XmlSerializer::serialize<OpenMM::Force>(&numbers, "Force", numbersStream);
    EXPECT_NE(numbersStream.str().find("version=\"2\""), string::npos);
    std::unique_ptr<OpenMM::Force> numbersRead(OpenMM::XmlSerializer::deserialize<OpenMM::Force>(numbersStream));
    auto* numbersCopy = dynamic_cast<CoordinationNumberForce*>(numbersRead.get());
    ASSERT_NE(numbersCopy, nullptr);
    ASSERT_EQ(numbersCopy->getNumCenters(), 1);
    EXPECT_EQ(numbersCopy->getGroupB(), numbers.getGroupB());
}

TEST(Centers, XmlOfTheVersionsBeforeCentresIsStillRead) {
    // CoordinationForceProxy's version 2 and CoordinationNumberForceProxy's version 1 have no Centers node.
    auto older = [](const OpenMM::Force& force, const string& version, const string& olderVersion) {
        std::stringstream stream;
        OpenMM::XmlSerializer::serialize<OpenMM::Force>(&force, "Force", stream);
        string xml = stream.str();
        const size_t at = xml.find("version=\"" + version + "\"");
        EXPECT_NE(at, string::npos);
        xml.replace(at, version.size() + 10, "version=\"" + olderVersion + "\"");
        const size_t centers = xml.find("<Centers/>");
        EXPECT_NE(centers, string::npos);
        xml.erase(centers, string("<Centers/>").size());
        std::stringstream input(xml);
        return std::unique_ptr<OpenMM::Force>(OpenMM::XmlSerializer::deserialize<OpenMM::Force>(input));
    };
    CoordinationForce force;
    force.setGroupA({0, 2, 5});
    force.setR0(0.41);
    std::unique_ptr<OpenMM::Force> read = older(force, "3", "2");
    ASSERT_NE(dynamic_cast<CoordinationForce*>(read.get()), nullptr);
    expectSameCoordinationSettings(dynamic_cast<CoordinationForce&>(*read), force);
    EXPECT_EQ(dynamic_cast<CoordinationForce&>(*read).getNumCenters(), 0);
    CoordinationNumberForce numbers("total");
    numbers.addReduction(CoordinationNumberForce::Sum, "", "total");
    numbers.setGroupA({1, 3});
    std::unique_ptr<OpenMM::Force> numbersRead = older(numbers, "2", "1");
    ASSERT_NE(dynamic_cast<CoordinationNumberForce*>(numbersRead.get()), nullptr);
    EXPECT_EQ(dynamic_cast<CoordinationNumberForce&>(*numbersRead).getGroupA(), numbers.getGroupA());
    EXPECT_EQ(dynamic_cast<CoordinationNumberForce&>(*numbersRead).getNumReductions(), 1);
}

TEST(Centers, UpdateParametersInContextChangesACentre) {
    Scenario scenario;
    scenario.name = "before";
    scenario.box = Box::rectangular();
    scenario.centers = {center({0, 1, 2, 3}, CoordinationForce::CenterOfMass)};
    scenario.groupA = {-1, 8};
    scenario.groupB = {9, 10, 11, 12, 13, 14, 15};
    scenario.settings = centerSettings(1.1);
    CenterContext system(makeCenterForce(scenario), scenario);
    const vector<Vec3> positions = scenarioPositions(scenario, 11);
    system.getContext().setPositions(positions);
    const double before = system.getForce().getCoordination(system.getContext());
    expectRelativelyNear(before, bruteForce(scenario, explicitOf(scenario, positions)).s, Tolerance::Coordination, "before");
    // Other particles, weights and no whole-making: the same Context gives the new centre's s and forces.
    scenario.centers[0] = center({0, 1, 2, 4, 5}, CoordinationForce::WeightedCenter, false, {1.0, 0.5, 2.0, 1.0, 0.25});
    const CenterSpec& changed = scenario.centers[0];
    system.getForce().setCenterParameters(0, changed.particles, changed.weighting, changed.weights, changed.makeWhole);
    system.getForce().updateParametersInContext(system.getContext());
    const BruteForce::Coordination expected = bruteForce(scenario, explicitOf(scenario, positions));
    expectRelativelyNear(system.getForce().getCoordination(system.getContext()), expected.s, Tolerance::Coordination, "after");
    EXPECT_GT(std::fabs(expected.s - before), 1e-3) << "the change should move s";
    double dEnergyDs;
    energyOf(expected.s, dEnergyDs);
    const OpenMM::State state = system.getContext().getState(OpenMM::State::Forces);
    expectForcesNear(state.getForces(), expectedForces(scenario, expected, dEnergyDs), Tolerance::ForceRelativeToRms,
                     Tolerance::ForceResolution);
}
