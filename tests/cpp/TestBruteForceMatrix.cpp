/*
 * s, the energy and the forces of random systems against the independent brute force sum, for every
 * mode and kind of box, over a matrix of switching settings.
 */

#include "CoordinationTestUtilities.h"

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

class BruteForceMatrix : public ModeAndBoxTest {};

} // namespace

TEST_P(BruteForceMatrix, CoordinationEnergyAndForcesMatchTheIndependentSum) {
    if (!instanceOnThisPrecision())
        GTEST_SKIP() << "COORDINATION_TEST_QUICK: this instance runs on another precision (onThisPrecision)";
    const Box box = this->box();
    unsigned seed = 1000 * (int)mode() + box.name.size();
    for (const SwitchingSettings& settings : switchingMatrix(instance())) {
        SCOPED_TRACE(traceOf(settings));
        std::vector<Vec3> positions = positionsFor(settings, box, seed++);
        CoordinationForce force = matrixForce(settings, "s");
        CoordinationContext system(force, positions, box);
        BruteForce::Coordination expected = bruteForceOf(force, positions, box);
        // Enough pairs inside the cutoff that the comparison means something.
        ASSERT_GT(expected.s, 0.5);
        expectMatchesBruteForce(system.evaluate(), expected, 1.0);
    }
}

INSTANTIATE_TEST_SUITE_P(AllModesAndBoxes, BruteForceMatrix, modesAndBoxes(), modeAndBoxName);

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
    settings.setR0(0.4);
    settings.setDMax(Infinity);
    for (const Box& box : boxes) {
        SCOPED_TRACE(box.name);
        std::vector<Vec3> positions = randomPositions(60, box, 77);
        CoordinationForce force = makeForce(settings, CoordinationForce::Self, indices(60), {}, "s", true);
        expectMatchesBruteForce(CoordinationContext(force, positions, box).evaluate(),
                                bruteForceOf(force, positions, box), 1.0);
    }
}
