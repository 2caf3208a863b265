#ifndef OPENMM_COORDINATION_RATIONALSWITCHINGFUNCTION_H_
#define OPENMM_COORDINATION_RATIONALSWITCHINGFUNCTION_H_

#include "internal/CutoffAndStretch.h"
#include "internal/SwitchingFunctionConstants.h"
#include <cmath>

namespace CoordinationPlugin {

/**
 * PLUMED's rational switching function of r, inline: the Rational type of SwitchingFunctionEvaluator (which
 * calls evaluateUnstretched) and the CPU kernel's Distance path for it (evaluate). Its constants, the
 * stretch included, come resolved in a SwitchingFunctionConstants. The GPU kernel source
 * (platforms/common/src/kernels/switching.cc) mirrors it.
 *
 *     sigma(r) = (1 - x^n) / (1 - x^m),  x = (r - d0) / r0     (m = 2n: 1 / (1 + x^n))
 *     sigma = 1 for r <= d0, 0 for r > dmax, stretched:  sigma' = sigma * stretch + shift.
 */
class RationalSwitchingFunction {
public:
    /** The automatic cutoff of PLUMED's keyword form: d0 + r0 * (1e-5)^(1/(n - m)). */
    static double automaticDMax(double r0, double d0, int n, int m) {
        return d0 + r0 * std::pow(1e-5, 1.0 / (n - m));
    }
    /** @param sigma  the resolved constants of a Rational switching function */
    explicit RationalSwitchingFunction(const SwitchingFunctionConstants& sigma)
        : invR0(sigma.invLength), d0(sigma.d0), dmax(sigma.dmax), n(sigma.n), m(sigma.m),
          taylorValue(sigma.taylorValue), taylorFirst(sigma.taylorFirst), taylorSecond(sigma.taylorSecond),
          stretchFactor(sigma.stretchFactor), shift(sigma.shift) {}
    /** sigma(r) (stretched if requested); dSigmaDr receives d sigma / dr (1/nm). */
    double evaluate(double r, double& dSigmaDr) const {
        return cutoffAndStretch(*this, r, dmax, stretchFactor, shift, dSigmaDr);
    }
    /** The rational function of r without cutoff or stretch; dSigmaDr receives its r-derivative. */
    double evaluateUnstretched(double r, double& dSigmaDr) const {
        double x = (r - d0) * invR0;
        if (x <= 0.0) {
            dSigmaDr = 0.0;
            return 1.0;
        }
        double value, dSigmaDx;
        if (m == 2 * n) {
            // (1 - x^n)/(1 - x^2n) = 1/(1 + x^n): no singularity at x = 1.
            double xNMinus1 = integerPower(x, n - 1);
            double inverse = 1.0 / (1.0 + xNMinus1 * x);
            value = inverse;
            dSigmaDx = -n * xNMinus1 * inverse * inverse;
        } else if (std::fabs(x - 1.0) < SwitchingFunctionConstants::TaylorBand) {
            // Second-order Taylor expansion about x = 1 of the removable singularity.
            double e = x - 1.0;
            value = taylorValue + e * (taylorFirst + 0.5 * taylorSecond * e);
            dSigmaDx = taylorFirst + taylorSecond * e;
        } else {
            double xNMinus1 = integerPower(x, n - 1);
            double xMMinus1 = integerPower(x, m - 1);
            double xM = xMMinus1 * x;
            if (!std::isfinite(xM)) {
                // x is astronomically large (far beyond any cutoff): the ratio's limit for m > n.
                dSigmaDr = 0.0;
                return 0.0;
            }
            double inverseDenominator = 1.0 / (1.0 - xM);
            value = (1.0 - xNMinus1 * x) * inverseDenominator;
            dSigmaDx = (-n * xNMinus1 + value * m * xMMinus1) * inverseDenominator;
        }
        dSigmaDr = dSigmaDx * invR0;
        return value;
    }
    /** x^k for an integer k >= 0 by repeated squaring (exact for the small k used here). */
    static double integerPower(double x, int k) {
        double result = 1.0;
        while (k > 0) {
            if (k & 1)
                result *= x;
            x *= x;
            k >>= 1;
        }
        return result;
    }

private:
    double invR0, d0, dmax;
    int n, m;
    double taylorValue, taylorFirst, taylorSecond;
    double stretchFactor, shift;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RATIONALSWITCHINGFUNCTION_H_*/
