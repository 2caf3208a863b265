/*
 * s, the energy and the forces of random systems against the independent brute force sum, for every
 * mode and kind of box, over a matrix of switching settings.
 */

#include "CoordinationTestUtilities.h"
#include <tuple>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

/**
 * The switching settings of the matrix: exponents x d0 x dmax x stretch, r0 = 0.25 nm (48 settings). Covering
 * design (quickMatrices()): setting k runs in instance k mod 9 only, so every setting runs once, and every
 * exponent pair (twelve consecutive settings) meets every mode and box.
 */
std::vector<SwitchingSettings> switchingMatrix(int instance) {
    std::vector<SwitchingSettings> all = settingsMatrix({{6, 12}, {6, 10}, {5, 11}, {8, 16}}), matrix;
    for (size_t index = 0; index < all.size(); index++)
        if (!quickMatrices() || (int) index % 9 == instance)
            matrix.push_back(all[index]);
    return matrix;
}

class BruteForceMatrix : public ::testing::TestWithParam<std::tuple<CoordinationForce::Mode, std::string>> {};

} // namespace

TEST_P(BruteForceMatrix, CoordinationEnergyAndForcesMatchTheIndependentSum) {
    const CoordinationForce::Mode mode = std::get<0>(GetParam());
    const Box box = boxNamed(std::get<1>(GetParam()));
    std::vector<int> groupA, groupB;
    groupsFor(mode, groupA, groupB);
    unsigned seed = 1000 * (int)mode + box.name.size();
    for (const SwitchingSettings& settings : switchingMatrix(matrixInstance(mode, box.name))) {
        SCOPED_TRACE(modeName(mode) + " " + box.name + " " + settings.describe());
        std::vector<Vec3> positions = positionsFor(settings, box, seed++);
        CoordinationForce force = makeForce(settings, mode, groupA, groupB, "s", box.periodic());
        CoordinationContext system(force, positions, box);
        Evaluation result = system.evaluate();
        BruteForce::Coordination expected = bruteForceOf(force, positions, box);
        // Enough pairs inside the cutoff that the comparison means something.
        ASSERT_GT(expected.s, 0.5);
        expectRelativelyNear(result.s, expected.s, Tolerance::Coordination, "getCoordination()");
        expectRelativelyNear(result.energy, expected.s, Tolerance::Coordination, "energy of \"s\"");
        expectForcesNear(result.forces, scaled(expected.gradient, -1.0), Tolerance::ForceRelativeToRms);
    }
}

INSTANTIATE_TEST_SUITE_P(AllModesAndBoxes, BruteForceMatrix,
                         ::testing::Combine(::testing::Values(CoordinationForce::Self, CoordinationForce::Dual,
                                                              CoordinationForce::Pair),
                                            ::testing::Values("NoPBC", "Rectangular", "Triclinic")),
                         [](const ::testing::TestParamInfo<BruteForceMatrix::ParamType>& info) {
                             return modeName(std::get<0>(info.param)) + std::get<1>(info.param);
                         });

TEST(Periodicity, MinimumImageIsTheShortestInStronglySkewedBoxes) {
    // Reduced boxes at the limits OpenMM allows (|bx| = ax/2, |cx| = ax/2, |cy| = by/2), where wrapping
    // along c, b, a alone can miss the nearest image. Every pair counts (no cutoff), so picking any
    // image but the nearest changes s.
    const std::vector<Box> boxes = {
        {"SkewedPositive", {true, Vec3(2.0, 0, 0), Vec3(1.0, 1.8, 0), Vec3(1.0, 0.9, 1.6)}},
        {"SkewedNegative", {true, Vec3(2.0, 0, 0), Vec3(-1.0, 1.8, 0), Vec3(-1.0, -0.9, 1.6)}},
        {"SkewedMixed", {true, Vec3(1.7, 0, 0), Vec3(0.85, 2.2, 0), Vec3(-0.85, 1.1, 1.5)}},
    };
    SwitchingSettings settings;
    settings.r0 = 0.4;
    settings.dmax = Infinity;
    std::vector<int> group;
    for (int atom = 0; atom < 60; atom++)
        group.push_back(atom);
    for (const Box& box : boxes) {
        SCOPED_TRACE(box.name);
        std::vector<Vec3> positions = randomPositions(60, box, 77);
        CoordinationForce force = makeForce(settings, CoordinationForce::Self, group, {}, "s", true);
        Evaluation result = CoordinationContext(force, positions, box).evaluate();
        BruteForce::Coordination expected = bruteForceOf(force, positions, box);
        expectRelativelyNear(result.s, expected.s, Tolerance::Coordination);
        expectForcesNear(result.forces, scaled(expected.gradient, -1.0), Tolerance::ForceRelativeToRms);
    }
}
