/*
 * What every platform reports where the coordination number or the energy is not a finite number: s and the
 * energy NaN, the energy-parameter derivatives NaN, and no force at all (a GPU's fixed-point force buffer cannot
 * hold a NaN, so no platform applies one). That happens for a non-finite coordinate of any atom of the groups
 * (whatever the distances), a global parameter of inf or NaN that makes E or dE/ds non-finite, or an expression
 * outside its domain. The next evaluation with finite numbers is right again. (OpenMM's CPU platform refuses NaN
 * coordinates itself, for every System, before any force runs.)
 */

#include "CoordinationTestUtilities.h"
#include "openmm/OpenMMException.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

const double NotANumber = std::numeric_limits<double>::quiet_NaN();

/** Whether OpenMM's platform refuses a NaN coordinate before any force runs (the CPU platform does). */
bool platformRefusesNaN() {
    return testPlatform().platform == "CPU";
}

/** The values of a force whose configuration has no finite energy. */
void expectNotANumberAndNoForce(CoordinationContext& system) {
    const Evaluation result = system.evaluate();
    EXPECT_TRUE(std::isnan(result.energy)) << "energy " << result.energy;
    EXPECT_TRUE(std::isnan(result.s)) << "s " << result.s;
    expectAllForcesZero(result.forces);
}

/** The values of a force at finite positions against their long double brute force (E = s), twice. */
void expectBruteForce(CoordinationContext& system, const BruteForce::Coordination& expected) {
    for (int evaluation = 0; evaluation < 2; evaluation++) { // both parities of the GPU kernel's flags
        expectMatchesBruteForce(system.evaluate(), expected, 1.0, Tolerance::ForceResolution * 8);
    }
}

void expectBruteForce(CoordinationContext& system, const std::vector<Vec3>& positions, const Box& box) {
    expectBruteForce(system, bruteForceOf(system.getForce(), positions, box));
}

struct GroupsCase {
    std::string name;
    CoordinationForce::Mode mode;
    std::vector<int> groupA, groupB;
};

/**
 * A Self, a Dual and a Pair force over `count` atoms (0 and 1 in both Dual groups; Pair with a same-atom pair,
 * which counts 0 but whose atom is still one of the force's). Atom count - 1 is in no group.
 */
std::vector<GroupsCase> groupCases(int count) {
    std::vector<int> all, even, odd;
    for (int i = 0; i < count - 1; i++) {
        all.push_back(i);
        (i % 2 == 0 ? even : odd).push_back(i);
    }
    std::vector<int> firstHalf(all.begin(), all.begin() + all.size() / 2);
    std::vector<int> secondHalf(all.begin() + all.size() / 2, all.begin() + 2 * (all.size() / 2));
    firstHalf.push_back(2);
    secondHalf.push_back(2);
    std::vector<int> dualA = even, dualB = odd;
    dualB.push_back(0);
    return {{"Self", CoordinationForce::Self, all, {}},
            {"Dual", CoordinationForce::Dual, dualA, dualB},
            {"Pair", CoordinationForce::Pair, firstHalf, secondHalf}};
}

/**
 * Each group case and box: a non-finite coordinate of each of `atoms` (values `bad`, along x) gives NaN and no force
 * twice (both parities of the GPU's flags), then the finite positions give the brute force's values again.
 */
void checkNonFiniteCoordinates(int count, const std::vector<int>& atoms, const std::vector<double>& bad) {
    // 12 atoms/nm^3, exact in float: the GPU's single and mixed precision hold the same positions.
    const double edge = std::cbrt(count / 12.0);
    const std::vector<Vec3> positions = spacedPositions(count, Vec3(edge, edge, edge), 77, true, false);
    const Box periodic = Box::cube(edge);
    const SwitchingSettings settings = rationalSettings(0.25, 6, 0, 0.0, 0.8);
    int share = 0;
    for (const GroupsCase& groups : groupCases(count))
        for (const Box& box : {Box::none(), periodic}) {
            // COORDINATION_TEST_QUICK: each mode and box of the GPU's culled path on one precision.
            if (!onThisPrecision(share++) && count > 1000)
                continue;
            CoordinationForce force =
                makeForce(settings, groups.mode, groups.groupA, groups.groupB, "s", box.periodic());
            CoordinationContext system(force, positions, box);
            const BruteForce::Coordination expected = bruteForceOf(force, positions, box);
            for (int atom : atoms)
                for (double value : bad) {
                    SCOPED_TRACE(groups.name + ", " + box.name + ", atom " + std::to_string(atom) + " at x = " +
                                 std::to_string(value));
                    std::vector<Vec3> broken = positions;
                    broken[atom][0] = value;
                    system.getContext().setPositions(broken);
                    if (std::isnan(value) && platformRefusesNaN())
                        expectOpenMMExceptionMentioning([&]() { system.evaluate(); }, {"NaN"});
                    else
                        for (int evaluation = 0; evaluation < 2; evaluation++)
                            expectNotANumberAndNoForce(system);
                    system.getContext().setPositions(positions);
                    expectBruteForce(system, expected);
                }
            // An atom in no group may be anywhere.
            SCOPED_TRACE(groups.name + ", " + box.name + ", an atom of no group at infinity");
            std::vector<Vec3> outside = positions;
            outside[count - 1] = Vec3(Infinity, 0, 0);
            system.getContext().setPositions(outside);
            expectBruteForce(system, expected);
        }
}

} // namespace

TEST(NonFiniteCoordinates, GiveNaNAndNoForceThenFiniteValuesAgain) {
    // Atom 0 in A (Dual: also in B), 1 in Dual's B and Pair's A, 2 in the same-atom pair, 21 in both B groups.
    checkNonFiniteCoordinates(40, {0, 1, 2, 21}, {Infinity, -Infinity, NotANumber});
}

TEST(NonFiniteCoordinates, GiveNaNAndNoForceWhereTheGpuCullsTiles) {
    // 4000 atoms: more tiles than one pass of an H100's warps (and far more than PoCL's), so the GPU kernels cull
    // tiles, keep a neighbour list and find a non-finite position through the tiles' bounds. (The CPU kernels have
    // no such path: they check every position before any pair.)
    if (testPlatform().platform == "Reference" || testPlatform().platform == "CPU")
        GTEST_SKIP() << "GPU platforms only";
    checkNonFiniteCoordinates(4000, {0, 1, 2001}, {Infinity, NotANumber});
}

TEST(NonFiniteEnergy, GlobalParametersOfInfOrNaNGiveNaNAndNoForce) {
    const std::vector<Vec3> positions = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.35, 0.1)};
    CoordinationForce force("0.5*k*(s-s0)^2");
    force.setGroupA({0, 1, 2});
    force.addGlobalParameter("k", 100.0);
    force.addGlobalParameter("s0", 0.2);
    force.addEnergyParameterDerivative("k");
    CoordinationContext system(force, positions);
    OpenMM::Context& context = system.getContext();
    const Evaluation finite = system.evaluate();
    ASSERT_TRUE(std::isfinite(finite.energy));
    for (const std::string name : {"k", "s0"})
        for (double bad : {Infinity, -Infinity, NotANumber}) {
            SCOPED_TRACE(name + " = " + std::to_string(bad));
            context.setParameter(name, bad);
            const Evaluation result = system.evaluate();
            EXPECT_TRUE(std::isnan(result.energy)) << result.energy;
            EXPECT_NEAR(result.s, finite.s, Tolerance::Exact * std::max(1.0, std::fabs(finite.s))); // s has no parameters
            expectAllForcesZero(result.forces);
            const OpenMM::State state = context.getState(OpenMM::State::ParameterDerivatives);
            EXPECT_TRUE(std::isnan(state.getEnergyParameterDerivatives().at("k")));
            context.setParameter(name, name == "k" ? 100.0 : 0.2);
            const Evaluation again = system.evaluate();
            EXPECT_NEAR(again.energy, finite.energy, Tolerance::Exact * std::max(1.0, std::fabs(finite.energy)));
        }
}

TEST(NonFiniteEnergy, AnInfiniteParameterThatLeavesTheEnergyFiniteIsUsed) {
    // min(s, cap) with cap = inf is s: finite energy and forces.
    const std::vector<Vec3> positions = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.35, 0.1)};
    CoordinationForce force("min(s, cap)");
    force.setGroupA({0, 1, 2});
    force.addGlobalParameter("cap", Infinity);
    CoordinationContext system(force, positions);
    expectBruteForce(system, positions, Box::none());
}

TEST(NonFiniteEnergy, AnExpressionOutsideItsDomainGivesNaNAndNoForce) {
    // log(s - 10) with s < 3: NaN; sqrt(s) at s = 0 (atoms beyond the cutoff): E = 0 but dE/ds = inf.
    const std::vector<Vec3> positions = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.35, 0.1)};
    for (const std::string expression : {"log(s-10)", "sqrt(s)"}) {
        SCOPED_TRACE(expression);
        CoordinationForce force(expression);
        force.setGroupA({0, 1, 2});
        force.setDMax(0.2);
        if (expression == "log(s-10)")
            force.setDMax(0.0);
        CoordinationContext system(force, positions);
        const Evaluation result = system.evaluate();
        EXPECT_TRUE(std::isnan(result.energy)) << "energy " << result.energy;
        EXPECT_TRUE(std::isfinite(result.s)) << "s " << result.s;
        expectAllForcesZero(result.forces);
    }
}

TEST(NonFiniteEnergy, AParameterBeyondSinglePrecisionIsRefused) {
    if (testPlatform().precision != "single")
        GTEST_SKIP() << "single precision only";
    const std::vector<Vec3> positions = {Vec3(0, 0, 0), Vec3(0.3, 0, 0)};
    CoordinationForce force("k*s");
    force.setGroupA({0, 1});
    force.addGlobalParameter("k", 1.0);
    CoordinationContext system(force, positions);
    system.getContext().setParameter("k", 1e39);
    expectOpenMMExceptionMentioning([&]() { system.evaluate(); }, {"'k'", "1e+39", "single precision", "mixed"});
    system.getContext().setParameter("k", 2.0);
    EXPECT_TRUE(std::isfinite(system.evaluate().energy));
}

TEST(NonFiniteEnergy, ACustomFunctionWithoutAFiniteValueOrSlopeAtAPairGivesNaNAndNoForce) {
    // A pair exactly r0 apart (x = 1, binary-exact on every platform): 1/(x-1) is infinite there, and
    // 1/(1+sqrt(x-1)) is 1 with an infinite slope. At x = 1.5 both are finite again.
    for (const std::string function : {"1/(x-1)", "1/(1+sqrt(x-1))"}) {
        SCOPED_TRACE(function);
        CoordinationForce force("s");
        force.setGroupA({0, 1, 2});
        force.setSwitchingFunction(CoordinationForce::Custom);
        force.setCustomSwitchingFunction(function);
        force.setR0(0.25);
        force.setDMax(0.5);
        force.setStretch(false);
        const std::vector<Vec3> atOne = {Vec3(0.5, 0.5, 0.5), Vec3(0.75, 0.5, 0.5), Vec3(2.0, 0.5, 0.5)};
        CoordinationContext system(force, atOne);
        for (int evaluation = 0; evaluation < 2; evaluation++)
            expectNotANumberAndNoForce(system);
        const std::vector<Vec3> beyond = {Vec3(0.5, 0.5, 0.5), Vec3(0.875, 0.5, 0.5), Vec3(2.0, 0.5, 0.5)};
        system.getContext().setPositions(beyond);
        const double expected = (function == "1/(x-1)" ? 2.0 : 1.0 / (1.0 + std::sqrt(0.5))); // x = 1.5
        for (int evaluation = 0; evaluation < 2; evaluation++) {
            const Evaluation result = system.evaluate();
            expectRelativelyNear(result.s, expected, Tolerance::Coordination, "s");
            expectRelativelyNear(result.energy, expected, Tolerance::Coordination, "energy");
            EXPECT_GT(std::fabs(result.forces[0][0]), 0.1);
            EXPECT_EQ(result.forces[0][0], -result.forces[1][0]);
        }
    }
}
