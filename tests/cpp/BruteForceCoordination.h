#ifndef COORDINATION_TEST_BRUTEFORCECOORDINATION_H_
#define COORDINATION_TEST_BRUTEFORCECOORDINATION_H_

/*
 * An independent oracle for the tests: PLUMED's COORDINATION written out again from its definition,
 * in plain long double loops. Nothing here uses the plugin's code (not RationalSwitchingFunction, not
 * the kernels); only CoordinationForce::Mode names the three ways of pairing the groups.
 */

#include "CoordinationForce.h"
#include "openmm/Vec3.h"
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace CoordinationTest {

/** The switching settings exactly as a user passes them to CoordinationForce (m = 0 and dmax = 0 unresolved). */
struct SwitchingSettings {
    double r0 = 0.3;
    int n = 6;
    int m = 0;
    double d0 = 0.0;
    double dmax = 0.0;
    bool stretch = true;

    std::string describe() const {
        std::string dmaxText = (dmax == 0.0 ? "auto" : (std::isinf(dmax) ? "inf" : std::to_string(dmax)));
        return "r0=" + std::to_string(r0) + " n=" + std::to_string(n) + " m=" + std::to_string(m) +
               " d0=" + std::to_string(d0) + " dmax=" + dmaxText + (stretch ? " stretch" : " nostretch");
    }
};

/** A switching function value and its derivative with respect to r (1/nm). */
struct SigmaAndSlope {
    long double value;
    long double slope;
};

namespace BruteForce {

inline int effectiveM(const SwitchingSettings& settings) { return settings.m == 0 ? 2 * settings.n : settings.m; }

/** PLUMED's keyword-form cutoff: d0 + r0 * (1e-5)^(1/(n - m)); infinity stays infinity. */
inline long double effectiveDMax(const SwitchingSettings& settings) {
    if (settings.dmax != 0.0)
        return settings.dmax;
    return settings.d0 + settings.r0 * std::pow(1e-5L, 1.0L / (settings.n - effectiveM(settings)));
}

/** (1 - x^n) / (1 - x^m) and its x-derivative. */
inline SigmaAndSlope rational(long double x, int n, int m) {
    if (std::fabs(x - 1.0L) > 1e-3L) {
        long double numerator = 1.0L - std::pow(x, n);
        long double denominator = 1.0L - std::pow(x, m);
        long double dNumerator = -n * std::pow(x, n - 1);
        long double dDenominator = -m * std::pow(x, m - 1);
        return {numerator / denominator,
                (dNumerator * denominator - numerator * dDenominator) / (denominator * denominator)};
    }
    // Near x = 1 the closed form cancels catastrophically. The same ratio written with the finite
    // geometric sums (1 - x^k) / (1 - x) = x^0 + ... + x^(k-1) has no cancellation and is n/m at x = 1.
    long double numerator = 0, dNumerator = 0, denominator = 0, dDenominator = 0;
    for (int k = 0; k < n; k++) {
        numerator += std::pow(x, k);
        if (k > 0)
            dNumerator += k * std::pow(x, k - 1);
    }
    for (int k = 0; k < m; k++) {
        denominator += std::pow(x, k);
        if (k > 0)
            dDenominator += k * std::pow(x, k - 1);
    }
    return {numerator / denominator,
            (dNumerator * denominator - numerator * dDenominator) / (denominator * denominator)};
}

/** sigma(r) without cutoff or stretch: 1 for r <= d0, else the rational function of x = (r - d0) / r0. */
inline SigmaAndSlope unstretchedSigma(const SwitchingSettings& settings, long double r) {
    if (r <= settings.d0)
        return {1.0L, 0.0L};
    long double x = (r - settings.d0) / settings.r0;
    SigmaAndSlope inX = rational(x, settings.n, effectiveM(settings));
    return {inX.value, inX.slope / settings.r0};
}

/** sigma(r) as PLUMED defines it: zero beyond dmax and, if stretched, (sigma - sigma(dmax)) / (1 - sigma(dmax)). */
inline SigmaAndSlope sigma(const SwitchingSettings& settings, long double r) {
    long double dmax = effectiveDMax(settings);
    if (r > dmax)
        return {0.0L, 0.0L};
    SigmaAndSlope result = unstretchedSigma(settings, r);
    if (settings.stretch && std::isfinite(dmax)) {
        long double atDMax = unstretchedSigma(settings, dmax).value;
        result.value = (result.value - atDMax) / (1.0L - atDMax);
        result.slope = result.slope / (1.0L - atDMax);
    }
    return result;
}

/** A periodic cell given by three box vectors, or none. */
struct Cell {
    bool periodic = false;
    OpenMM::Vec3 a, b, c;
};

/**
 * The shortest of all images of a displacement, found by trying every lattice shift i a + j b + k c with
 * |i|, |j|, |k| <= 3 (positions are kept within about one cell of the box, so this is the true minimum).
 */
inline OpenMM::Vec3 minimumImage(const OpenMM::Vec3& delta, const Cell& cell) {
    if (!cell.periodic)
        return delta;
    OpenMM::Vec3 best = delta;
    long double bestLength2 = std::numeric_limits<long double>::infinity();
    for (int i = -3; i <= 3; i++)
        for (int j = -3; j <= 3; j++)
            for (int k = -3; k <= 3; k++) {
                OpenMM::Vec3 image = delta + cell.a * i + cell.b * j + cell.c * k;
                long double length2 = (long double)image[0] * image[0] + (long double)image[1] * image[1] +
                                      (long double)image[2] * image[2];
                if (length2 < bestLength2) {
                    bestLength2 = length2;
                    best = image;
                }
            }
    return best;
}

/** The coordination number and its gradient with respect to every particle's position. */
struct Coordination {
    double s = 0.0;
    std::vector<OpenMM::Vec3> gradient;
};

inline Coordination coordination(const SwitchingSettings& settings, CoordinationPlugin::CoordinationForce::Mode mode,
                                 const std::vector<int>& groupA, const std::vector<int>& groupB,
                                 const std::vector<OpenMM::Vec3>& positions, const Cell& cell) {
    long double s = 0.0L;
    std::vector<long double> gradient(3 * positions.size(), 0.0L);
    auto addPair = [&](int first, int second) {
        if (first == second)
            return;
        OpenMM::Vec3 delta = minimumImage(positions[second] - positions[first], cell);
        long double r = std::sqrt((long double)delta[0] * delta[0] + (long double)delta[1] * delta[1] +
                                  (long double)delta[2] * delta[2]);
        SigmaAndSlope term = sigma(settings, r);
        s += term.value;
        if (term.slope != 0.0L)
            for (int axis = 0; axis < 3; axis++) {
                long double component = term.slope * delta[axis] / r;
                gradient[3 * second + axis] += component;
                gradient[3 * first + axis] -= component;
            }
    };
    using CoordinationPlugin::CoordinationForce;
    if (mode == CoordinationForce::Self) {
        for (size_t i = 0; i < groupA.size(); i++)
            for (size_t j = i + 1; j < groupA.size(); j++)
                addPair(groupA[i], groupA[j]);
    } else if (mode == CoordinationForce::Dual) {
        for (int a : groupA)
            for (int b : groupB)
                addPair(a, b);
    } else {
        for (size_t k = 0; k < groupA.size() && k < groupB.size(); k++)
            addPair(groupA[k], groupB[k]);
    }
    Coordination result;
    result.s = (double)s;
    for (size_t i = 0; i < positions.size(); i++)
        result.gradient.push_back(
            OpenMM::Vec3((double)gradient[3 * i], (double)gradient[3 * i + 1], (double)gradient[3 * i + 2]));
    return result;
}

} // namespace BruteForce
} // namespace CoordinationTest

#endif /*COORDINATION_TEST_BRUTEFORCECOORDINATION_H_*/
