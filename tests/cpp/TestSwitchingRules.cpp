/*
 * The documented rules of CoordinationForce, one test each, with numbers that can be checked by hand.
 */

#include "CoordinationTestUtilities.h"
#include "internal/switching/RationalSwitchingFunction.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

/** A switching function without cutoff: sigma(r) = 1/(1 + (r/r0)^n) for m = 2n. */
SwitchingSettings noCutoff(double r0, int n = 6, int m = 0) {
    return rationalSettings(r0, n, m, 0.0, Infinity);
}

/** s for two atoms at distance r apart along x. */
double coordinationAtDistance(const SwitchingSettings& settings, double r) {
    CoordinationContext system(makeForce(settings, CoordinationForce::Self, {0, 1}), {Vec3(), Vec3(r, 0, 0)});
    return system.evaluate().s;
}

/** Three atoms on an equilateral triangle of side r0: every pair has sigma = 1/2 when m = 2n. */
std::vector<Vec3> triangleOfSide(double side) {
    return {Vec3(0, 0, 0), Vec3(side, 0, 0), Vec3(0.5 * side, 0.5 * std::sqrt(3.0) * side, 0)};
}

} // namespace

// ---------------------------------------------------------------------------------------------------
// The switching function

TEST(SwitchingFunction, TwoAtomsAtR0WithMEqualTwoNGiveOneHalf) {
    // sigma(r0) = 1/(1 + 1^6) = 1/2; dsigma/dr = -n x^(n-1)/(1 + x^n)^2 / r0 = -6/4/0.3 = -5 per nm.
    CoordinationContext system(makeForce(noCutoff(0.3), CoordinationForce::Self, {0, 1}),
                               {Vec3(0, 0, 0), Vec3(0.3, 0, 0)});
    Evaluation result = system.evaluate();
    EXPECT_NEAR(result.s, 0.5, Tolerance::Exact);
    EXPECT_NEAR(result.energy, 0.5, Tolerance::Exact);
    // E = s grows as the atoms approach, so the force pushes them apart with 5 kJ/mol/nm.
    expectForcesNear(result.forces, {Vec3(-5, 0, 0), Vec3(5, 0, 0)}, 1e-12);
}

TEST(SwitchingFunction, InsideD0SigmaIsOneWithZeroForce) {
    SwitchingSettings settings;
    settings.setR0(0.3);
    settings.setD0(0.2);
    for (double r : {0.0, 0.15, 0.2}) {
        SCOPED_TRACE("r = " + std::to_string(r));
        CoordinationContext system(makeForce(settings, CoordinationForce::Self, {0, 1}, {}, "3*s^2"),
                                   {Vec3(0.5, 0.5, 0.5), Vec3(0.5 + r, 0.5, 0.5)});
        Evaluation result = system.evaluate();
        EXPECT_NEAR(result.s, 1.0, Tolerance::Exact);
        EXPECT_NEAR(result.energy, 3.0, Tolerance::Exact);
        expectAllForcesZero(result.forces);
    }
}

TEST(SwitchingFunction, CoincidentAtomsCountOneWithoutNaNForces) {
    CoordinationContext system(makeForce(SwitchingSettings(), CoordinationForce::Self, {0, 1}),
                               {Vec3(0.2, 0.3, 0.4), Vec3(0.2, 0.3, 0.4)});
    Evaluation result = system.evaluate();
    EXPECT_NEAR(result.s, 1.0, Tolerance::Exact);
    expectAllForcesZero(result.forces);
}

TEST(SwitchingFunction, StretchMakesSigmaZeroAtDMaxAndContinuous) {
    // r0 = 1, n = 6, m = 12, dmax = 2: the raw function is 1/65 at dmax, so stretching maps
    // sigma(1) = 1/2 to (1/2 - 1/65) / (1 - 1/65) = 31.5/64 = 0.4921875.
    // Just past dmax: 1e-9 nm in double precision; in single precision positions near 2 nm are only
    // resolved to ~2.4e-7 nm, so there the step is 1e-6 nm.
    const double pastDMax = (Tolerance::Double ? 1e-9 : 1e-6);
    SwitchingSettings stretched;
    stretched.setR0(1.0);
    stretched.setDMax(2.0);
    EXPECT_NEAR(coordinationAtDistance(stretched, 1.0), 0.4921875, Tolerance::Exact);
    EXPECT_NEAR(coordinationAtDistance(stretched, 2.0 - pastDMax), 0.0, 1e-8 + 0.05 * pastDMax); // |slope| < 0.05/nm
    EXPECT_EQ(coordinationAtDistance(stretched, 2.0 + pastDMax), 0.0);

    // NOSTRETCH keeps the raw function, which jumps from 1/65 to 0 at dmax.
    SwitchingSettings unstretched = stretched;
    unstretched.setStretch(false);
    EXPECT_NEAR(coordinationAtDistance(unstretched, 1.0), 0.5, Tolerance::Exact);
    EXPECT_NEAR(coordinationAtDistance(unstretched, 2.0 - pastDMax), 1.0 / 65.0, 1e-8 + 0.05 * pastDMax); // |slope| < 0.05/nm
    EXPECT_EQ(coordinationAtDistance(unstretched, 2.0 + pastDMax), 0.0);
}

TEST(SwitchingFunction, InfiniteDMaxMeansNoCutoffAndNoStretch) {
    SwitchingSettings settings = noCutoff(0.3);
    settings.setStretch(true); // has no effect without a cutoff
    EXPECT_NEAR(coordinationAtDistance(settings, 0.3), 0.5, Tolerance::Exact);
    // 30 nm is 100 r0: sigma = 1/(1 + 1e12), far beyond any automatic cutoff.
    const double expected = 1.0 / (1.0 + 1e12);
    EXPECT_NEAR(coordinationAtDistance(settings, 30.0), expected, expected * Tolerance::Coordination);
}

TEST(SwitchingFunction, AutomaticDMaxIsPlumedsKeywordCutoff) {
    // d0 + r0 * (1e-5)^(1/(n - m)): 10^(5/6) = 6.8129... for r0 = 1, n = 6, m = 12.
    CoordinationForce force;
    force.setR0(1.0);
    force.setN(6);
    force.setM(12);
    EXPECT_EQ(force.getDMax(), 0.0);
    EXPECT_NEAR(force.getEffectiveDMax(), 6.81, 0.005);
    EXPECT_NEAR(force.getEffectiveDMax(), std::pow(10.0, 5.0 / 6.0), Tolerance::Exact);

    force.setR0(0.3);
    force.setD0(0.1);
    force.setN(8);
    force.setM(0);
    const double expected = 0.1 + 0.3 * std::pow(1e-5, 1.0 / (8 - 16));
    EXPECT_NEAR(force.getEffectiveDMax(), expected, Tolerance::Exact);

    // The context cuts there: a pair just inside still counts (a little, stretched), one just outside not.
    SwitchingSettings settings = force.getSwitchingSettings();
    EXPECT_GT(coordinationAtDistance(settings, expected - 1e-6), 0.0);
    EXPECT_LT(coordinationAtDistance(settings, expected - 1e-6), 1e-9);
    EXPECT_EQ(coordinationAtDistance(settings, expected + 1e-6), 0.0);

    force.setDMax(Infinity);
    EXPECT_EQ(force.getEffectiveDMax(), Infinity);
    force.setDMax(1.5);
    EXPECT_EQ(force.getEffectiveDMax(), 1.5);
}

TEST(SwitchingFunction, MZeroMeansTwoN) {
    SwitchingSettings zero = noCutoff(0.3, 5, 0);
    SwitchingSettings twoN = noCutoff(0.3, 5, 10);
    CoordinationForce force = makeForce(zero, CoordinationForce::Self, {0, 1});
    EXPECT_EQ(force.getM(), 0);
    EXPECT_EQ(force.getEffectiveM(), 10);
    for (double r : {0.1, 0.3, 0.45, 1.0})
        EXPECT_EQ(coordinationAtDistance(zero, r), coordinationAtDistance(twoN, r)) << "r = " << r;
}

TEST(SwitchingFunction, TaylorBranchAtXEqualOneIsNOverMAndContinuous) {
    // For m != 2n the ratio is 0/0 at x = 1; its limit is n/m and the force switches to a Taylor
    // expansion for |x - 1| < 1.1e-5. Values on both sides of that band edge must match the exact function.
    const double band = 1.1e-5;
    for (auto exponents : {std::make_pair(6, 10), std::make_pair(5, 11), std::make_pair(8, 12)}) {
        SwitchingSettings settings = noCutoff(0.25, exponents.first, exponents.second);
        SCOPED_TRACE(describe(settings));
        const double nOverM = double(settings.getN()) / settings.getM();
        // One Context, the two atoms moved to each distance.
        CoordinationContext system(makeForce(settings, CoordinationForce::Self, {0, 1}), {Vec3(), Vec3(0.25, 0, 0)});
        auto at = [&](double r) {
            system.getContext().setPositions({Vec3(), Vec3(r, 0, 0)});
            return system.evaluate();
        };
        EXPECT_NEAR(at(0.25).s, nOverM, Tolerance::Exact);
        for (double offset : {0.0, 1e-12, 1e-9, 5e-6, band - 1e-9, band + 1e-9, 2 * band, 1e-3}) {
            for (double sign : {1.0, -1.0}) {
                double r = 0.25 * (1.0 + sign * offset);
                SCOPED_TRACE("x - 1 = " + std::to_string(sign * offset));
                expectMatchesBruteForce(at(r), bruteForceOf(system.getForce(), {Vec3(), Vec3(r, 0, 0)}, Box::none()),
                                        1.0);
            }
        }
        // Continuity across the band edge: the two sides differ by no more than the slope times the gap.
        double inside = at(0.25 * (1 + band - 1e-9)).s;
        double outside = at(0.25 * (1 + band + 1e-9)).s;
        double slope = std::fabs(BruteForce::rational(1.0L, settings.getN(), settings.getM()).slope);
        EXPECT_NEAR(inside, outside, slope * 2e-9 * 1.01 + Tolerance::Coordination);
    }
}

TEST(SwitchingFunction, HeaderMatchesBruteForceOnADenseGrid) {
    // The one C++ definition of the math (RationalSwitchingFunction), on a grid that includes r = 0,
    // d0, d0 + r0 (x = 1) and dmax, against the independent long double formula.
    const std::vector<SwitchingSettings> cases = settingsMatrix({{6, 12}, {6, 10}, {5, 11}, {8, 0}});
    for (const SwitchingSettings& settings : cases) {
        SCOPED_TRACE(describe(settings));
        const SwitchingSettings resolved = withBruteForceCutoff(settings);
        const RationalSwitchingFunction sigma(resolvedSwitching(resolved));
        const double dmax = resolved.getDMax(), top = (std::isfinite(dmax) ? 1.1 * dmax : 5.0);
        std::vector<double> grid = {0.0, settings.getD0(), settings.getD0() + settings.getR0(), dmax};
        for (int i = 0; i <= 2000; i++)
            grid.push_back(top * i / 2000.0);
        expectSigmaOnGrid(
            resolved, grid, Tolerance::Coordination, [](double) { return Tolerance::Coordination; },
            [&](double r, double& slope) { return sigma.evaluate(r, slope); });
    }
}

// ---------------------------------------------------------------------------------------------------
// Which pairs are summed

TEST(Pairing, PairOfTheSameAtomContributesNothing) {
    const std::vector<Vec3> triangle = triangleOfSide(0.3);
    const SwitchingSettings settings = noCutoff(0.3);
    {
        SCOPED_TRACE("Self with the same atom in both slots");
        Evaluation result =
            CoordinationContext(makeForce(settings, CoordinationForce::Self, {1, 1}), triangle).evaluate();
        EXPECT_EQ(result.s, 0.0);
        expectAllForcesZero(result.forces);
    }
    {
        SCOPED_TRACE("Pair with A[0] == B[0]: only (1, 2) counts");
        Evaluation result =
            CoordinationContext(makeForce(settings, CoordinationForce::Pair, {0, 1}, {0, 2}), triangle).evaluate();
        EXPECT_NEAR(result.s, 0.5, Tolerance::Exact);
        EXPECT_EQ(result.forces[0], Vec3(0, 0, 0));
    }
    {
        SCOPED_TRACE("Dual with one atom in both groups");
        Evaluation result =
            CoordinationContext(makeForce(settings, CoordinationForce::Dual, {2}, {2}), triangle).evaluate();
        EXPECT_EQ(result.s, 0.0);
        expectAllForcesZero(result.forces);
    }
}

TEST(Pairing, AtomListedTwiceCountsOncePerEntry) {
    // Slots {0, 1, 1}: pairs (0,1), (0,1) and (1,1), the last of which is the same atom: 2 * 1/2.
    Evaluation twice = CoordinationContext(makeForce(noCutoff(0.3), CoordinationForce::Self, {0, 1, 1}),
                                           {Vec3(0, 0, 0), Vec3(0.3, 0, 0)})
                           .evaluate();
    EXPECT_NEAR(twice.s, 1.0, Tolerance::Exact);
    expectForcesNear(twice.forces, {Vec3(-10, 0, 0), Vec3(10, 0, 0)}, 1e-12);
}

TEST(Pairing, SelfSumsEachPairOfSlotsOnce) {
    // Three pairs of the triangle, each 1/2.
    Evaluation result =
        CoordinationContext(makeForce(noCutoff(0.3), CoordinationForce::Self, {0, 1, 2}), triangleOfSide(0.3))
            .evaluate();
    EXPECT_NEAR(result.s, 1.5, Tolerance::Exact);
}

TEST(Pairing, OverlappingDualGroupsCountSharedPairsTwice) {
    const std::vector<Vec3> triangle = triangleOfSide(0.3);
    const SwitchingSettings settings = noCutoff(0.3);
    // A = B: six ordered pairs of distinct atoms, 3.0 = twice the Self value 1.5.
    Evaluation same =
        CoordinationContext(makeForce(settings, CoordinationForce::Dual, {0, 1, 2}, {0, 1, 2}), triangle).evaluate();
    Evaluation self = CoordinationContext(makeForce(settings, CoordinationForce::Self, {0, 1, 2}), triangle).evaluate();
    EXPECT_NEAR(same.s, 3.0, Tolerance::Exact);
    // By symmetry the net force on each atom of the equilateral triangle is zero: compare with a floor
    // at the precision's rounding of the ~5 kJ/mol/nm pair forces, not relative to their tiny RMS.
    expectForcesNear(same.forces, scaled(self.forces, 2.0), 1e-12, 10 * Tolerance::Exact);
    // A = {0, 1, 2}, B = {1, 2}: (0,1), (0,2), (1,2), (2,1) count; (1,1) and (2,2) do not: 4 * 1/2.
    Evaluation partial =
        CoordinationContext(makeForce(settings, CoordinationForce::Dual, {0, 1, 2}, {1, 2}), triangle).evaluate();
    EXPECT_NEAR(partial.s, 2.0, Tolerance::Exact);
}

TEST(Pairing, PairModeSumsOnlyMatchingSlots) {
    // Atoms on a line 0.3 nm apart: A[k] with B[k] gives (0,1) and (2,3); (1,2) is not a pair.
    std::vector<Vec3> line = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0.6, 0, 0), Vec3(0.9, 0, 0)};
    Evaluation result =
        CoordinationContext(makeForce(noCutoff(0.3), CoordinationForce::Pair, {0, 2}, {1, 3}), line).evaluate();
    EXPECT_NEAR(result.s, 1.0, Tolerance::Exact);
}

// ---------------------------------------------------------------------------------------------------
// Periodic boundary conditions

TEST(Periodicity, PeriodicDistancesUseTheMinimumImage) {
    // In a 2 nm box, atoms at x = 0.1 and x = 1.9 are 0.2 nm apart through the boundary.
    Box box = {"Cubic", {true, Vec3(2, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 2)}};
    std::vector<Vec3> positions = {Vec3(0.1, 1, 1), Vec3(1.9, 1, 1)};
    CoordinationForce force = makeForce(noCutoff(0.2), CoordinationForce::Self, {0, 1});
    force.setUsesPeriodicBoundaryConditions(true);
    EXPECT_NEAR(CoordinationContext(force, positions, box).evaluate().s, 0.5, Tolerance::Exact);
    // Without the flag the box is ignored: 1.8 nm = 9 r0.
    force.setUsesPeriodicBoundaryConditions(false);
    const double expected = 1.0 / (1.0 + std::pow(9.0, 6));
    EXPECT_NEAR(CoordinationContext(force, positions, box).evaluate().s, expected, expected * Tolerance::Coordination);
}

// ---------------------------------------------------------------------------------------------------
// The energy expression and force groups

TEST(EnergyExpression, ConstantEnergyGivesThatEnergyAndNoForce) {
    CoordinationContext system(makeForce(SwitchingSettings(), CoordinationForce::Self, {0, 1, 2}, {}, "5"),
                               triangleOfSide(0.3));
    Evaluation result = system.evaluate();
    EXPECT_EQ(result.energy, 5.0);
    expectAllForcesZero(result.forces);
}

TEST(EnergyExpression, ForceGroupSelectsTheForce) {
    CoordinationForce force = makeForce(noCutoff(0.3), CoordinationForce::Self, {0, 1, 2}, {}, "2*s");
    force.setForceGroup(3);
    CoordinationContext system(force, triangleOfSide(0.3));
    Evaluation inGroup = system.evaluate(1 << 3);
    EXPECT_NEAR(inGroup.energy, 3.0, Tolerance::Exact);
    EXPECT_GT(rootMeanSquare(inGroup.forces), 1.0);
    Evaluation otherGroups = system.evaluate(~(1 << 3));
    EXPECT_EQ(otherGroups.energy, 0.0);
    expectAllForcesZero(otherGroups.forces);
    // getCoordination() does not depend on the groups.
    EXPECT_NEAR(otherGroups.s, 1.5, Tolerance::Exact);
}

TEST(EnergyExpression, DefaultsArePlumedsKeywordForm) {
    CoordinationForce force;
    EXPECT_EQ(force.getEnergyFunction(), "s");
    EXPECT_EQ(force.getMode(), CoordinationForce::Self);
    EXPECT_EQ(force.getR0(), 0.3);
    EXPECT_EQ(force.getN(), 6);
    EXPECT_EQ(force.getM(), 0);
    EXPECT_EQ(force.getEffectiveM(), 12);
    EXPECT_EQ(force.getD0(), 0.0);
    EXPECT_EQ(force.getDMax(), 0.0);
    EXPECT_TRUE(force.getStretch());
    EXPECT_FALSE(force.usesPeriodicBoundaryConditions());
    EXPECT_EQ(force.getNumGlobalParameters(), 0);
    EXPECT_TRUE(force.getGroupA().empty());
    EXPECT_TRUE(force.getGroupB().empty());
}
