#ifndef COORDINATION_TEST_BRUTEFORCECOORDINATION_H_
#define COORDINATION_TEST_BRUTEFORCECOORDINATION_H_

/*
 * An independent oracle for the tests: PLUMED's COORDINATION written out again from its definition,
 * in plain long double loops. Nothing here uses the plugin's code (not RationalSwitchingFunction, not
 * the kernels); only CoordinationForce::Mode names the three ways of pairing the groups, and the settings are
 * read through SwitchingSettings' getters (never getEffectiveM() or getEffectiveDMax(): this file resolves them).
 */

#include "CoordinationForce.h"
#include "SwitchingSettings.h"
#include "openmm/Vec3.h"
#include <cfloat>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace CoordinationTest {

/**
 * The switching settings exactly as a user passes them to a force (m = 0 and dmax = 0 unresolved): the plugin's
 * value type, read here through its getters only. A Custom function is named by its expression; the brute force
 * knows the expressions the tests use (BruteForce::customFunction).
 */
using SwitchingSettings = CoordinationPlugin::SwitchingSettings;

/** The settings in words, for test messages. */
inline std::string describe(const SwitchingSettings& settings) {
    using CoordinationPlugin::CoordinationBiasForce;
    static const char* names[] = {"Rational", "Exponential", "Gaussian", "Smap",  "Cubic",
                                  "Tanh",     "Cosinus",     "NativeQ",  "Custom"};
    const double dmax = settings.getDMax();
    std::string dmaxText = (dmax == 0.0 ? "auto" : (std::isinf(dmax) ? "inf" : std::to_string(dmax)));
    std::string typeText = names[(int)settings.getType()];
    if (settings.getType() == CoordinationBiasForce::Rational)
        typeText += " n=" + std::to_string(settings.getN()) + " m=" + std::to_string(settings.getM());
    else if (settings.getType() == CoordinationBiasForce::Smap)
        typeText += " a=" + std::to_string(settings.getSmapA()) + " b=" + std::to_string(settings.getSmapB());
    else if (settings.getType() == CoordinationBiasForce::NativeQ)
        typeText += " beta=" + std::to_string(settings.getNativeQBeta()) +
                    " lambda=" + std::to_string(settings.getNativeQLambda()) +
                    " ref=" + std::to_string(settings.getNativeQReference());
    else if (settings.getType() == CoordinationBiasForce::Custom)
        typeText += " " + settings.getCustomExpression();
    return typeText + " r0=" + std::to_string(settings.getR0()) + " d0=" + std::to_string(settings.getD0()) +
           " dmax=" + dmaxText + (settings.getStretch() ? " stretch" : " nostretch");
}

} // namespace CoordinationTest

namespace CoordinationPlugin {
/** How GoogleTest prints SwitchingSettings in a failure message. */
inline void PrintTo(const SwitchingSettings& settings, std::ostream* stream) {
    *stream << CoordinationTest::describe(settings);
}
} // namespace CoordinationPlugin

namespace CoordinationTest {

/** A switching function value and its derivative with respect to r (1/nm). */
struct SigmaAndSlope {
    long double value;
    long double slope;
};

namespace BruteForce {

using Type = CoordinationPlugin::CoordinationForce::SwitchingFunction;
using CoordinationPlugin::CoordinationForce;

inline int effectiveM(const SwitchingSettings& settings) {
    return settings.getM() == 0 ? 2 * settings.getN() : settings.getM();
}

/**
 * The cutoff: as set, or the automatic one of the type: PLUMED's keyword-form cutoff d0 + r0 * (1e-5)^(1/(n - m))
 * for Rational, d0 + r0 (where it reaches 0) for Cosinus, none for the others. Infinity stays infinity.
 */
inline long double effectiveDMax(const SwitchingSettings& settings) {
    if (settings.getDMax() != 0.0)
        return settings.getDMax();
    if (settings.getType() == CoordinationForce::Cosinus)
        return (long double)settings.getD0() + settings.getR0();
    if (settings.getType() != CoordinationForce::Rational)
        return std::numeric_limits<long double>::infinity();
    return settings.getD0() + settings.getR0() * std::pow(1e-5L, 1.0L / (settings.getN() - effectiveM(settings)));
}

/**
 * The Custom expressions the tests use, written out by hand: f and df/dv of the expression's variable v
 * (x or x2). usesX2 says which variable it is.
 */
inline SigmaAndSlope customFunction(const std::string& expression, long double v, bool& usesX2) {
    usesX2 = (expression.find("x2") != std::string::npos);
    if (expression == "1/(1+x^6)")
        return {1.0L / (1.0L + std::pow(v, 6)), -6.0L * std::pow(v, 5) / std::pow(1.0L + std::pow(v, 6), 2)};
    if (expression == "1/(1+x^7)")
        return {1.0L / (1.0L + std::pow(v, 7)), -7.0L * std::pow(v, 6) / std::pow(1.0L + std::pow(v, 7), 2)};
    if (expression == "exp(-x)")
        return {std::exp(-v), -std::exp(-v)};
    if (expression == "(1+x)*exp(-2*x)")
        return {(1.0L + v) * std::exp(-2.0L * v), std::exp(-2.0L * v) * (1.0L - 2.0L * (1.0L + v))};
    if (expression == "1/(1+x2^3)")
        return {1.0L / (1.0L + v * v * v), -3.0L * v * v / ((1.0L + v * v * v) * (1.0L + v * v * v))};
    if (expression == "1/(1+sqrt(x2))") // no derivative at x2 = 0
        return {1.0L / (1.0L + std::sqrt(v)), -0.5L / (std::sqrt(v) * (1.0L + std::sqrt(v)) * (1.0L + std::sqrt(v)))};
    if (expression == "exp(-0.5*x2)")
        return {std::exp(-0.5L * v), -0.5L * std::exp(-0.5L * v)};
    if (expression == "0.5")
        return {0.5L, 0.0L};
    throw std::runtime_error("the brute force does not know the custom switching function " + expression);
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

/** sigma as a function of x = (r - d0) / r0 > 0 for the types that are functions of x, and its x-derivative. */
inline SigmaAndSlope sigmaOfX(const SwitchingSettings& settings, long double x) {
    const long double pi = 3.141592653589793238462643383279502884L;
    switch (settings.getType()) {
    case CoordinationForce::Rational:
        return rational(x, settings.getN(), effectiveM(settings));
    case CoordinationForce::Exponential:
        return {std::exp(-x), -std::exp(-x)};
    case CoordinationForce::Gaussian:
        return {std::exp(-x * x / 2), -x * std::exp(-x * x / 2)};
    case CoordinationForce::Smap: {
        // (1 + c x^a)^(-b/a), c = 2^(a/b) - 1: its derivative by the chain rule.
        long double a = settings.getSmapA(), b = settings.getSmapB(), c = std::pow(2.0L, a / b) - 1.0L;
        long double inner = 1.0L + c * std::pow(x, a);
        return {std::pow(inner, -b / a), (-b / a) * std::pow(inner, -b / a - 1.0L) * c * a * std::pow(x, a - 1.0L)};
    }
    case CoordinationForce::Cubic:
        return {(x - 1) * (x - 1) * (1 + 2 * x), 6 * x * (x - 1)};
    case CoordinationForce::Tanh:
        return {1.0L - std::tanh(x), -1.0L / (std::cosh(x) * std::cosh(x))};
    case CoordinationForce::Cosinus:
        if (x > 1.0L)
            return {0.0L, 0.0L};
        return {(std::cos(pi * x) + 1.0L) / 2.0L, -pi / 2.0L * std::sin(pi * x)};
    case CoordinationForce::Custom: {
        bool usesX2;
        return customFunction(settings.getCustomExpression(), x, usesX2);
    }
    default:
        throw std::runtime_error("not a function of x");
    }
}

/**
 * sigma(r) without cutoff or stretch: 1 for r <= d0, else the function of x = (r - d0) / r0 (Cubic:
 * x = (r - d0) / (dmax - d0)). NativeQ is a function of r; a Custom function of x2 = r^2 / r0^2 has no d0.
 */
inline SigmaAndSlope unstretchedSigma(const SwitchingSettings& settings, long double r) {
    if (settings.getType() == CoordinationForce::Custom) {
        bool usesX2;
        customFunction(settings.getCustomExpression(), 0.0L, usesX2);
        if (usesX2) {
            long double r0 = settings.getR0();
            SigmaAndSlope inX2 = customFunction(settings.getCustomExpression(), r * r / (r0 * r0), usesX2);
            return {inX2.value, inX2.slope * 2.0L * r / (r0 * r0)};
        }
    }
    if (r <= settings.getD0())
        return {1.0L, 0.0L};
    if (settings.getType() == CoordinationForce::NativeQ) {
        long double e = std::exp((long double)settings.getNativeQBeta() *
                                 (r - (long double)settings.getNativeQLambda() * settings.getNativeQReference()));
        if (std::isinf(e))
            return {0.0L, 0.0L};
        return {1.0L / (1.0L + e), -settings.getNativeQBeta() * e / ((1.0L + e) * (1.0L + e))};
    }
    long double length = (settings.getType() == CoordinationForce::Cubic ? effectiveDMax(settings) - settings.getD0()
                                                                         : settings.getR0());
    long double x = (r - settings.getD0()) / length;
    SigmaAndSlope inX = sigmaOfX(settings, x);
    return {inX.value, inX.slope / length};
}

/**
 * sigma(r) as PLUMED defines it: zero beyond dmax and, if stretched, (sigma - sigma(dmax)) / (sigma(0) -
 * sigma(dmax)) (sigma(0) is 1 except for a Custom function of x2, where it is f(0)).
 */
inline SigmaAndSlope sigma(const SwitchingSettings& settings, long double r) {
    long double dmax = effectiveDMax(settings);
    if (r > dmax)
        return {0.0L, 0.0L};
    SigmaAndSlope result = unstretchedSigma(settings, r);
    if (settings.getStretch() && std::isfinite(dmax)) {
        long double atDMax = unstretchedSigma(settings, dmax).value;
        long double atZero = unstretchedSigma(settings, 0.0L).value;
        result.value = (result.value - atDMax) / (atZero - atDMax);
        result.slope = result.slope / (atZero - atDMax);
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

/** A 3-vector in long double. */
struct LongVec {
    long double x[3] = {0.0L, 0.0L, 0.0L};
    long double& operator[](int i) { return x[i]; }
    long double operator[](int i) const { return x[i]; }
};

/**
 * PLUMED's centre of particles (its COM and CENTER virtual atoms, src/vatom/Center.cpp), in long double: in a
 * periodic cell and if makeWhole, each particle is first placed at the minimum image of the one before it (the group
 * made whole); then the weighted mean.
 */
inline LongVec centerOf(const std::vector<int>& particles, const std::vector<long double>& weights, bool makeWhole,
                        const std::vector<OpenMM::Vec3>& positions, const Cell& cell) {
    long double total = 0.0L;
    LongVec previous, sum, center;
    for (size_t j = 0; j < particles.size(); j++) {
        LongVec here;
        const OpenMM::Vec3& x = positions[particles[j]];
        if (j == 0 || !(makeWhole && cell.periodic))
            for (int axis = 0; axis < 3; axis++)
                here[axis] = x[axis];
        else {
            const OpenMM::Vec3 step = minimumImage(x - positions[particles[j - 1]], cell);
            for (int axis = 0; axis < 3; axis++)
                here[axis] = previous[axis] + step[axis];
        }
        for (int axis = 0; axis < 3; axis++)
            sum[axis] += weights[j] * here[axis];
        total += weights[j];
        previous = here;
    }
    for (int axis = 0; axis < 3; axis++)
        center[axis] = sum[axis] / total;
    return center;
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
        if (term.slope != 0.0L && r > 0.0L) // coincident atoms count sigma(0) and get no force: no direction
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

/**
 * PLUMED's coordination numbers (COORDINATIONNUMBER, COORDINATION_MOMENTS): for each entry k of group A, the sum of
 * sigma(r) r^power over the entries of group B (Self mode: over the other entries of group A); a pair with
 * r^2 < DBL_EPSILON or sigma < DBL_EPSILON counts nothing (PLUMED's CONTACT_MATRIX).
 */
inline std::vector<long double> coordinationNumbers(const SwitchingSettings& settings,
                                                    CoordinationPlugin::CoordinationForce::Mode mode,
                                                    const std::vector<int>& groupA, const std::vector<int>& groupB,
                                                    double power, const std::vector<OpenMM::Vec3>& positions,
                                                    const Cell& cell) {
    const bool self = (mode == CoordinationPlugin::CoordinationForce::Self);
    const std::vector<int>& neighbours = (self ? groupA : groupB);
    std::vector<long double> c(groupA.size(), 0.0L);
    for (size_t k = 0; k < groupA.size(); k++)
        for (size_t l = 0; l < neighbours.size(); l++) {
            if (self && l == k)
                continue;
            const OpenMM::Vec3 delta = minimumImage(positions[neighbours[l]] - positions[groupA[k]], cell);
            const long double r2 =
                (long double)delta[0] * delta[0] + (long double)delta[1] * delta[1] + (long double)delta[2] * delta[2];
            if (r2 < DBL_EPSILON)
                continue;
            const long double r = std::sqrt(r2);
            const long double value = sigma(settings, r).value;
            if (value < DBL_EPSILON)
                continue;
            c[k] += value * std::pow(r, (long double)power);
        }
    return c;
}

} // namespace BruteForce
} // namespace CoordinationTest

#endif /*COORDINATION_TEST_BRUTEFORCECOORDINATION_H_*/
