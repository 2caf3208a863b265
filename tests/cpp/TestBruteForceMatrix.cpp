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

const int NumAtoms = 32;

/**
 * The switching settings of the matrix: exponents x d0 x dmax x stretch, r0 = 0.25 nm (48 settings). With
 * COORDINATION_TEST_QUICK=1 (slow platforms, e.g. OpenCL on the CPU) every fifth setting, which still
 * covers every value of every parameter.
 */
std::vector<SwitchingSettings> switchingMatrix() {
    std::vector<SwitchingSettings> all = settingsMatrix({{6, 12}, {6, 10}, {5, 11}, {8, 16}}), matrix;
    for (size_t index = 0; index < all.size(); index++)
        if (!quickMatrices() || index % 5 == 0)
            matrix.push_back(all[index]);
    return matrix;
}

/**
 * Random positions, with two pairs placed exactly d0 + r0 apart (x = 1, the removable singularity: the
 * first lies on a binary grid, so that with d0 = 0 the distance is exactly r0) and one pair closer than d0.
 */
std::vector<Vec3> positionsFor(const SwitchingSettings& settings, const Box& box, unsigned seed) {
    std::vector<Vec3> positions = randomPositions(NumAtoms, box, seed);
    const double atOne = settings.d0 + settings.r0;
    positions[0] = Vec3(0.5, 0.75, 1.0);
    positions[1] = positions[0] + Vec3(atOne, 0, 0);
    positions[2] = Vec3(1.25, 0.5, 0.625);
    positions[3] = positions[2] + Vec3(0, 0, atOne);
    positions[4] = Vec3(1.0, 1.5, 1.5);
    positions[5] = positions[4] + Vec3(0.03, 0.04, 0); // 0.05 nm: inside d0 = 0.1
    return positions;
}

/** Groups for each mode over the atoms, including the special pairs, a repeated slot and a shared atom. */
void groupsFor(CoordinationForce::Mode mode, std::vector<int>& groupA, std::vector<int>& groupB) {
    groupA.clear();
    groupB.clear();
    if (mode == CoordinationForce::Self) {
        // Every other atom from 6 on, plus the special atoms and atom 9 twice.
        groupA = {0, 1, 2, 3, 4, 5, 9};
        for (int atom = 6; atom < NumAtoms; atom += 2)
            groupA.push_back(atom);
    } else if (mode == CoordinationForce::Dual) {
        // Atoms 10 to 13 are in both groups (their pairs count twice, their self pairs not at all).
        groupA = {0, 2, 4, 10, 11, 12, 13};
        groupB = {1, 3, 5, 10, 11, 12, 13};
        for (int atom = 14; atom < NumAtoms; atom++)
            (atom % 2 == 0 ? groupA : groupB).push_back(atom);
    } else {
        // Slot 3 pairs an atom with itself; atom 7 is in two slots.
        groupA = {0, 2, 4, 8, 7, 7};
        groupB = {1, 3, 5, 8, 9, 10};
        for (int atom = 11; atom + 1 < NumAtoms; atom += 2) {
            groupA.push_back(atom);
            groupB.push_back(atom + 1);
        }
    }
}

std::string modeName(CoordinationForce::Mode mode) {
    return mode == CoordinationForce::Self ? "Self" : (mode == CoordinationForce::Dual ? "Dual" : "Pair");
}

Box boxNamed(const std::string& name) {
    if (name == "Rectangular")
        return Box::rectangular();
    if (name == "Triclinic")
        return Box::triclinic();
    return Box::none();
}

class BruteForceMatrix : public ::testing::TestWithParam<std::tuple<CoordinationForce::Mode, std::string>> {};

} // namespace

TEST_P(BruteForceMatrix, CoordinationEnergyAndForcesMatchTheIndependentSum) {
    const CoordinationForce::Mode mode = std::get<0>(GetParam());
    const Box box = boxNamed(std::get<1>(GetParam()));
    std::vector<int> groupA, groupB;
    groupsFor(mode, groupA, groupB);
    unsigned seed = 1000 * (int)mode + box.name.size();
    for (const SwitchingSettings& settings : switchingMatrix()) {
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
