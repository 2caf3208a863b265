#ifndef CPU_SWITCHING_FORMS_H_
#define CPU_SWITCHING_FORMS_H_

/*
 * The forms of sigma that the CPU platform's pair loops (src/CpuPairLoops.h) are instantiated with. Internal linkage
 * and always-inlined members, for the reason src/CpuInstructionSets.h gives.
 */

#include "CpuInstructionSets.h"
#include "internal/switching/RationalSwitchingFunction.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"
#include <cmath>
#include <limits>

namespace CoordinationPlugin {
namespace {

/** The largest n of the vectorized default rational function (EvenRationalOfSquare<n / 2>). */
const int MaxVectorizedN = 12;

/*
 * The forms of sigma, as the pair loops call them, of r^2: value(r2) = sigma and scale(r2) = (dsigma/dr)/r,
 * so that dsigma/d(x_second - x_first) = delta * scale. Path is the SwitchingPath the form takes; Simd says
 * whether value() and scale() are plain arithmetic that `omp simd` can evaluate for every candidate of a
 * range, masked; operator() is the scalar form.
 */

/**
 * The SquaredDistance path of the default rational function (m = 2n, n = 2 HalfN <= 12, d0 = 0), vectorized:
 * sigma = 1/(1 + y^HalfN), y = r^2/r0^2. Where y^HalfN is not finite (r^2 overflowing it, or NaN) sigma is
 * its limit 0, stretched, and the scale 0, by selects rather than branches. That is exact here, unlike for
 * RationalSwitchingFunction's general forms (which take powers of 1/y instead): this path has 1/r0^2 < 1e30 and
 * n <= 12, so y^HalfN overflows only beyond r = r0 (1.8e308)^(1/n) > 3e10 nm, where sigma < 6e-309 and the force
 * n sigma / r are both below the smallest normal double; and the slope's product, formed from its largest
 * factor down, cannot underflow before its value does.
 */
template <int HalfN>
class EvenRationalOfSquare {
public:
    static constexpr SwitchingPath Path = SwitchingPath::SquaredDistance;
    static constexpr bool Simd = true;
    explicit EvenRationalOfSquare(const SwitchingFunctionConstants& c)
        : inverseR0Squared(c.inverseR0Squared), stretchFactor(c.stretchFactor), shift(c.shift),
          slopeFactor(-2.0 * HalfN * c.stretchFactor * c.inverseR0Squared) {}
    // value() and scale() are plain functions of r2 (no address taken, which is what omp simd
    // vectorizes); inlined side by side, the compiler shares their common work. Every member is read
    // unconditionally and only the results are selected: a member read in one arm of a select is a
    // conditional load, which GCC will not if-convert, and the loop would stay scalar.
    COORDINATION_ALWAYS_INLINE double value(double r2) const {
        const double yHalfN = power(r2 * inverseR0Squared) * (r2 * inverseR0Squared);
        // stretchFactor * (1 / (1 + y^HalfN)): the same division as scale()'s, shared when both are inlined.
        const double offset = shift, sigma = stretchFactor * (1.0 / (1.0 + yHalfN)) + offset;
        return (yHalfN < Infinity ? sigma : offset);
    }
    /** dsigma/dr / r = -n y^(HalfN - 1) sigma^2 / r0^2 */
    COORDINATION_ALWAYS_INLINE double scale(double r2) const {
        const double y = r2 * inverseR0Squared, yPower = power(y), yHalfN = yPower * y;
        const double inverse = 1.0 / (1.0 + yHalfN);
        const double slope = slopeFactor * yPower * inverse * inverse;
        return (yHalfN < Infinity ? slope : 0.0);
    }
    inline double operator()(double r2, double& dSigmaDrOverR) const {
        dSigmaDrOverR = scale(r2);
        return value(r2);
    }

private:
    static constexpr double Infinity = std::numeric_limits<double>::infinity();
    /** y^(HalfN - 1) */
    static COORDINATION_ALWAYS_INLINE double power(double y) {
        double result = 1.0;
        for (int k = 1; k < HalfN; k++)
            result *= y;
        return result;
    }
    double inverseR0Squared, stretchFactor, shift, slopeFactor;
};

/** The SquaredDistance path of any other setting (SwitchingFunctionEvaluator::evaluateSquared), scalar. */
class OfSquare {
public:
    static constexpr SwitchingPath Path = SwitchingPath::SquaredDistance;
    static constexpr bool Simd = false;
    explicit OfSquare(const SwitchingFunctionEvaluator& sigma) : sigma(sigma) {}
    inline double operator()(double r2, double& scale) const { return sigma.evaluateSquared(r2, scale); }

private:
    const SwitchingFunctionEvaluator& sigma;
};

/** The Distance path: sigma(r) of a form with an evaluate(r, dSigmaDr) method, from r = sqrt(r^2), scalar. */
template <class Sigma>
class OfDistance {
public:
    static constexpr SwitchingPath Path = SwitchingPath::Distance;
    static constexpr bool Simd = false;
    explicit OfDistance(const Sigma& sigma) : sigma(sigma) {}
    inline double operator()(double r2, double& scale) const {
        const double r = std::sqrt(r2);
        double dSigmaDr;
        const double value = sigma.evaluate(r, dSigmaDr);
        scale = (r > 0.0 ? dSigmaDr / r : 0.0);
        return value;
    }

private:
    const Sigma& sigma;
};

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_SWITCHING_FORMS_H_*/
