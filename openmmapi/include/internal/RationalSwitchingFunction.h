#ifndef OPENMM_COORDINATION_RATIONALSWITCHINGFUNCTION_H_
#define OPENMM_COORDINATION_RATIONALSWITCHINGFUNCTION_H_

#include "internal/ResolvedCoordinationForce.h"
#include "internal/windowsExportCoordination.h"
#include <cmath>
#include <limits>

namespace CoordinationPlugin {

/**
 * PLUMED's rational switching function, inline: the Rational type of SwitchingFunctionEvaluator (which
 * calls evaluateUnstretched) and the CPU kernel's inlined path for it (evaluate). Its constants, the
 * stretch included, come resolved in a SwitchingFunctionConstants. The GPU kernel source
 * (platforms/common/src/kernels) mirrors it.
 *
 *     sigma(r) = (1 - x^n) / (1 - x^m),  x = (r - d0) / r0     (m = 2n: 1 / (1 + x^n))
 *     sigma = 1 for r <= d0, 0 for r > dmax, stretched:  sigma' = sigma * stretch + shift.
 */
class RationalSwitchingFunction {
public:
    /** Half-width of the band around x = 1 where the Taylor expansion replaces the ratio (PLUMED's). */
    static constexpr double TaylorBand = 1.1e-5;
    /** The automatic cutoff of PLUMED's keyword form: d0 + r0 * (1e-5)^(1/(n - m)). */
    static double automaticDMax(double r0, double d0, int n, int m) {
        return d0 + r0 * std::pow(1e-5, 1.0 / (n - m));
    }
    /** The constants of a Rational function, the Taylor terms and (if stretch and dmax is finite) the stretch resolved. */
    static OPENMM_EXPORT_COORDINATION SwitchingFunctionConstants resolve(double r0, double d0, int n, int m, double dmax,
                                                                         bool stretch);
    /** @param sigma  the resolved constants of a Rational switching function */
    explicit RationalSwitchingFunction(const SwitchingFunctionConstants& sigma)
        : invR0(sigma.invLength), d0(sigma.d0), dmax(sigma.dmax), n(sigma.n), m(sigma.m),
          taylorValue(sigma.taylorValue), taylorFirst(sigma.taylorFirst), taylorSecond(sigma.taylorSecond),
          stretchFactor(sigma.stretchFactor), shift(sigma.shift) {}
    /**
     * @param r0       length scale (nm), > 0
     * @param d0       shift (nm), >= 0
     * @param n, m     exponents, n >= 1, m >= 1, n != m (m already resolved from 0 to 2n)
     * @param dmax     cutoff (nm), > d0; infinity for none
     * @param stretch  whether to shift and scale so that sigma(dmax) = 0
     */
    RationalSwitchingFunction(double r0, double d0, int n, int m, double dmax, bool stretch)
        : RationalSwitchingFunction(resolve(r0, d0, n, m, dmax, stretch)) {}
    /** sigma(r) (stretched if requested); dSigmaDr receives d sigma / dr (1/nm). */
    double evaluate(double r, double& dSigmaDr) const {
        if (r > dmax) {
            dSigmaDr = 0.0;
            return 0.0;
        }
        double value = evaluateUnstretched(r, dSigmaDr);
        dSigmaDr *= stretchFactor;
        return value * stretchFactor + shift;
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
        } else if (std::fabs(x - 1.0) < TaylorBand) {
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
