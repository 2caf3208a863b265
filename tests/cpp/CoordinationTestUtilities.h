#ifndef COORDINATION_TEST_UTILITIES_H_
#define COORDINATION_TEST_UTILITIES_H_

/*
 * Shared fixtures of the pair-switching tests: the switching settings the suite sweeps, forces made of them with
 * their brute-force values, and the setting matrices (their positions, groups, modes and boxes). The platform, the
 * tolerances, the geometry, the assertions and the Contexts come with it.
 */

#include "BruteForceCoordination.h"
#include "CoordinationForce.h"
#include "CoordinationNumberForce.h"
#include "TestContext.h"
#include "TestExpectations.h"
#include "TestGeometry.h"
#include "TestPlatform.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace CoordinationTest {

/**
 * The switching settings the suite sweeps: the given (n, m) pairs x d0 in {0, 0.1} x dmax in {automatic,
 * 1 nm, none} x stretch on/off, r0 = 0.25 nm (12 settings per exponent pair).
 */
inline std::vector<SwitchingSettings> settingsMatrix(const std::vector<std::pair<int, int>>& exponentPairs) {
    std::vector<SwitchingSettings> matrix;
    for (auto exponents : exponentPairs)
        for (double d0 : {0.0, 0.1})
            for (double dmax : {0.0, 1.0, Infinity})
                for (bool stretch : {true, false}) {
                    SwitchingSettings settings =
                        SwitchingSettings::rational(0.25, exponents.first, exponents.second, d0, dmax);
                    settings.setStretch(stretch);
                    matrix.push_back(settings);
                }
    return matrix;
}

/** Switching settings of a type (its own parameters at their defaults: Smap's a and b unset, NativeQ's reference 0). */
inline SwitchingSettings typedSettings(CoordinationPlugin::CoordinationForce::SwitchingFunction type, double r0,
                                       double d0 = 0.0, double dmax = 0.0, bool stretch = true) {
    return SwitchingSettings(type, r0, d0, dmax, stretch);
}

/** Rational switching settings (m = 0 means 2n; dmax = 0 automatic, Infinity none), stretched unless stretch is false.
 */
inline SwitchingSettings rationalSettings(double r0, int n, int m, double d0, double dmax, bool stretch = true) {
    SwitchingSettings settings = SwitchingSettings::rational(r0, n, m, d0, dmax);
    settings.setStretch(stretch);
    return settings;
}

/** The settings without stretch (PLUMED's NOSTRETCH). */
inline SwitchingSettings withoutStretch(SwitchingSettings settings) {
    settings.setStretch(false);
    return settings;
}

/**
 * The settings with their cutoff set to the brute force's effective one: the plugin and the brute force then cut at
 * the same double, so that r = dmax is inside for both.
 */
inline SwitchingSettings withBruteForceCutoff(SwitchingSettings settings) {
    settings.setDMax((double)BruteForce::effectiveDMax(settings));
    return settings;
}

/** The constants a CoordinationForce with these switching settings resolves them to. */
inline CoordinationPlugin::SwitchingFunctionConstants resolvedSwitching(const SwitchingSettings& settings) {
    return CoordinationPlugin::SwitchingFunctionConstants::resolve(settings, "CoordinationForce: ");
}

/**
 * sigma(r) and its slope at every finite r >= 0 of the grid against the brute force: the value within
 * valueTolerance, the slope within slopeTolerance(r) relative to max(|expected slope|, 1); the first five misses are
 * reported. evaluate(r, slope) returns sigma(r) and sets its slope.
 */
template <class Evaluate>
void expectSigmaOnGrid(const SwitchingSettings& settings, const std::vector<double>& grid, double valueTolerance,
                       const std::function<double(double)>& slopeTolerance, Evaluate evaluate) {
    int failures = 0;
    for (double r : grid) {
        if (!std::isfinite(r) || r < 0)
            continue;
        const SigmaAndSlope expected = BruteForce::sigma(settings, r);
        double slope;
        const double value = evaluate(r, slope);
        const bool ok = std::fabs(value - (double)expected.value) <= valueTolerance &&
                        std::fabs(slope - (double)expected.slope) <=
                            slopeTolerance(r) * std::max(1.0, std::fabs((double)expected.slope));
        if (!ok && failures++ < 5)
            ADD_FAILURE() << "r = " << r << ": sigma " << value << " expected " << (double)expected.value << ", slope "
                          << slope << " expected " << (double)expected.slope;
    }
}

/** The indices first, first + 1, ..., count of them (a group of consecutive atoms). */
inline std::vector<int> indices(int count, int first = 0) {
    std::vector<int> result;
    for (int i = first; i < first + count; i++)
        result.push_back(i);
    return result;
}

/** The entries of first, then those of second. */
inline std::vector<int> joined(std::vector<int> first, const std::vector<int>& second) {
    first.insert(first.end(), second.begin(), second.end());
    return first;
}

/** A CoordinationForce with the given switching settings, mode and groups. */
inline CoordinationPlugin::CoordinationForce makeForce(const SwitchingSettings& settings,
                                                       CoordinationPlugin::CoordinationForce::Mode mode,
                                                       const std::vector<int>& groupA,
                                                       const std::vector<int>& groupB = {},
                                                       const std::string& energy = "s", bool periodic = false) {
    CoordinationPlugin::CoordinationForce force(energy);
    force.setSwitchingSettings(settings);
    force.setMode(mode);
    force.setGroupA(groupA);
    force.setGroupB(groupB);
    force.setUsesPeriodicBoundaryConditions(periodic);
    return force;
}

/** The brute-force coordination of a force's own settings and groups. */
inline BruteForce::Coordination bruteForceOf(const CoordinationPlugin::PairSwitchingForce& force,
                                             const std::vector<OpenMM::Vec3>& positions, const Box& box) {
    BruteForce::Cell cell = box.cell;
    cell.periodic = box.periodic() && force.usesPeriodicBoundaryConditions();
    return BruteForce::coordination(force.getSwitchingSettings(), force.getMode(), force.getGroupA(), force.getGroupB(),
                                    positions, cell);
}

/**
 * s, the energy (a linear one, dEnergyDs s) and the forces of a Context against the brute force's s and gradient:
 * s and the energy relative to max(|expected|, 1), the forces relative to their RMS with a floor.
 */
inline void expectMatchesBruteForce(const Evaluation& result, const BruteForce::Coordination& expected,
                                    double dEnergyDs, double forceFloor = 1e-12) {
    expectRelativelyNear(result.s, expected.s, Tolerance::Coordination, "getCoordination()");
    expectRelativelyNear(result.energy, dEnergyDs * expected.s, Tolerance::Coordination, "energy");
    expectForcesNear(result.forces, scaled(expected.gradient, -dEnergyDs), Tolerance::ForceRelativeToRms, forceFloor);
}

/** The size of the random systems of the setting matrices. */
const int MatrixAtoms = 32;

/**
 * Random positions, with two pairs placed exactly d0 + r0 apart (x = 1, the removable singularity: the
 * first lies on a binary grid, so that with d0 = 0 the distance is exactly r0) and one pair closer than d0.
 */
inline std::vector<OpenMM::Vec3> positionsFor(const SwitchingSettings& settings, const Box& box, unsigned seed) {
    std::vector<OpenMM::Vec3> positions = randomPositions(MatrixAtoms, box, seed);
    const double atOne = settings.getD0() + settings.getR0();
    positions[0] = OpenMM::Vec3(0.5, 0.75, 1.0);
    positions[1] = positions[0] + OpenMM::Vec3(atOne, 0, 0);
    positions[2] = OpenMM::Vec3(1.25, 0.5, 0.625);
    positions[3] = positions[2] + OpenMM::Vec3(0, 0, atOne);
    positions[4] = OpenMM::Vec3(1.0, 1.5, 1.5);
    positions[5] = positions[4] + OpenMM::Vec3(0.03, 0.04, 0); // 0.05 nm: inside d0 = 0.1
    return positions;
}

/** Groups for each mode over the atoms, including the special pairs, a repeated slot and a shared atom. */
inline void groupsFor(CoordinationPlugin::CoordinationForce::Mode mode, std::vector<int>& groupA, std::vector<int>& groupB) {
    groupA.clear();
    groupB.clear();
    if (mode == CoordinationPlugin::CoordinationForce::Self) {
        // Every other atom from 6 on, plus the special atoms and atom 9 twice.
        groupA = {0, 1, 2, 3, 4, 5, 9};
        for (int atom = 6; atom < MatrixAtoms; atom += 2)
            groupA.push_back(atom);
    } else if (mode == CoordinationPlugin::CoordinationForce::Dual) {
        // Atoms 10 to 13 are in both groups (their pairs count twice, their self pairs not at all).
        groupA = {0, 2, 4, 10, 11, 12, 13};
        groupB = {1, 3, 5, 10, 11, 12, 13};
        for (int atom = 14; atom < MatrixAtoms; atom++)
            (atom % 2 == 0 ? groupA : groupB).push_back(atom);
    } else {
        // Slot 3 pairs an atom with itself; atom 7 is in two slots.
        groupA = {0, 2, 4, 8, 7, 7};
        groupB = {1, 3, 5, 8, 9, 10};
        for (int atom = 11; atom + 1 < MatrixAtoms; atom += 2) {
            groupA.push_back(atom);
            groupB.push_back(atom + 1);
        }
    }
}

inline std::string modeName(CoordinationPlugin::CoordinationForce::Mode mode) {
    return mode == CoordinationPlugin::CoordinationForce::Self ? "Self" : (mode == CoordinationPlugin::CoordinationForce::Dual ? "Dual" : "Pair");
}

/** The index of a setting matrix's box: 0 "NoPBC", 1 "Rectangular", 2 "Triclinic". */
inline int matrixBoxIndex(const std::string& boxName) {
    return (boxName == "NoPBC" ? 0 : (boxName == "Rectangular" ? 1 : 2));
}

/** The index of a (mode, box) instance of a setting matrix, 0 to 8. */
inline int matrixInstance(CoordinationPlugin::CoordinationForce::Mode mode, const std::string& boxName) {
    return 3 * (int)mode + matrixBoxIndex(boxName);
}

/** The parameter of a test run once per mode and box (a box by its name: see boxNamed()). */
using ModeAndBox = std::tuple<CoordinationPlugin::CoordinationForce::Mode, std::string>;

/**
 * A test run once per mode and box: INSTANTIATE_TEST_SUITE_P(..., modesAndBoxes(), modeAndBoxName). Its groups are
 * the setting matrices' for the mode (groupsFor()).
 */
class ModeAndBoxTest : public ::testing::TestWithParam<ModeAndBox> {
protected:
    void SetUp() override { groupsFor(mode(), groupA, groupB); }
    CoordinationPlugin::CoordinationForce::Mode mode() const { return std::get<0>(GetParam()); }
    const std::string& boxName() const { return std::get<1>(GetParam()); }
    Box box() const { return boxNamed(boxName()); }
    /** This run's instance of a setting matrix (its covering design's share). */
    int instance() const { return matrixInstance(mode(), boxName()); }
    /**
     * Whether this instance runs on this platform case's precision (onThisPrecision of mode + box), so that each
     * precision meets every mode and every box.
     */
    bool instanceOnThisPrecision() const { return onThisPrecision((int) mode() + matrixBoxIndex(boxName())); }
    /** A setting's trace: the mode, the box and the settings. */
    std::string traceOf(const SwitchingSettings& settings) const {
        return modeName(mode()) + " " + boxName() + " " + describe(settings);
    }
    /** The force of a setting: this mode, its groups, the energy, periodic in a periodic box. */
    CoordinationPlugin::CoordinationForce matrixForce(const SwitchingSettings& settings,
                                                      const std::string& energy) const {
        return makeForce(settings, mode(), groupA, groupB, energy, box().periodic());
    }
    std::vector<int> groupA, groupB;
};

/** The modes and boxes a ModeAndBoxTest runs in: by default every mode in every box of the matrices. */
inline auto modesAndBoxes(const std::vector<CoordinationPlugin::CoordinationForce::Mode>& modes =
                              {CoordinationPlugin::CoordinationForce::Self, CoordinationPlugin::CoordinationForce::Dual,
                               CoordinationPlugin::CoordinationForce::Pair},
                          const std::vector<std::string>& boxes = {"NoPBC", "Rectangular", "Triclinic"}) {
    return ::testing::Combine(::testing::ValuesIn(modes), ::testing::ValuesIn(boxes));
}

/** A run's name: the mode's and the box's ("SelfTriclinic"). */
inline std::string modeAndBoxName(const ::testing::TestParamInfo<ModeAndBox>& info) {
    return modeName(std::get<0>(info.param)) + std::get<1>(info.param);
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_UTILITIES_H_*/
