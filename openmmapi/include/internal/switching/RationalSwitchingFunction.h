#ifndef OPENMM_COORDINATION_RATIONALSWITCHINGFUNCTION_H_
#define OPENMM_COORDINATION_RATIONALSWITCHINGFUNCTION_H_

#include "internal/switching/CutoffAndStretch.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include <algorithm>
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
    /**
     * The largest power of x the closed form uses as it is; beyond, it takes powers of 1/x instead. Small enough
     * that n x^(n-1) holds in a float (n up to 1e8), and sigma there (about 1/DirectPowerLimit) is a normal
     * number in every precision.
     */
    static constexpr double DirectPowerLimit = 1e30;
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
        double dSigmaDx;
        const double value = ofX(x, n, m, taylorValue, taylorFirst, taylorSecond, dSigmaDx);
        dSigmaDr = dSigmaDx * invR0;
        return value;
    }
    /**
     * (1 - x^n) / (1 - x^m) of x > 0 and its x-derivative: the Taylor expansion about x = 1 (m != 2n) within
     * TaylorBand of it, elsewhere the closed form (closedForm).
     */
    static double ofX(double x, int n, int m, double taylorValue, double taylorFirst, double taylorSecond,
                      double& dSigmaDx) {
        if (m != 2 * n && std::fabs(x - 1.0) < SwitchingFunctionConstants::TaylorBand) {
            const double e = x - 1.0;
            dSigmaDx = taylorFirst + taylorSecond * e;
            return taylorValue + e * (taylorFirst + 0.5 * taylorSecond * e);
        }
        return closedForm(x, n, m, dSigmaDx);
    }
    /**
     * (1 - x^n) / (1 - x^m) of x > 0 and its x-derivative in forms that cannot overflow: powers of x while
     * they are at most DirectPowerLimit, of y = 1/x beyond (ofInverse). Near x = 1 (m != 2n) it loses digits
     * to cancellation: ofX and the squared path (SwitchingFunctionEvaluator::evaluateSquared, with
     * y = r^2/r0^2 and the halved exponents) take it outside their bands around 1 only.
     */
    static double closedForm(double x, int n, int m, double& dSigmaDx) {
        const double xNMinus1 = integerPower(x, n - 1), xN = xNMinus1 * x;
        if (m == 2 * n) {
            if (!(xN <= DirectPowerLimit))
                return ofInverse(x, n, m, dSigmaDx);
            // (1 - x^n)/(1 - x^2n) = 1/(1 + x^n): no singularity at x = 1.
            const double inverse = 1.0 / (1.0 + xN);
            dSigmaDx = -n * xNMinus1 * inverse * inverse;
            return inverse;
        }
        const double xMMinus1 = integerPower(x, m - 1), xM = xMMinus1 * x;
        if (!(std::max(xN, xM) <= DirectPowerLimit))
            return ofInverse(x, n, m, dSigmaDx);
        const double inverseDenominator = 1.0 / (1.0 - xM);
        const double value = (1.0 - xN) * inverseDenominator;
        dSigmaDx = (-n * xNMinus1 + value * m * xMMinus1) * inverseDenominator;
        return value;
    }
    /**
     * (1 - x^n) / (1 - x^m) of x > 1 as a function of y = 1/x < 1, whose powers cannot overflow:
     *
     *     sigma = y^(m-n) (1 - y^n) / (1 - y^m)                         (m = 2n: y^n / (1 + y^n))
     *     dsigma/dx = -((m-n) y^(m-n+1) - m (1 - sigma) y^(m+1)) / (1 - y^m)   (m = 2n: -n y^(n+1) / (1 + y^n)^2)
     *
     * For m < n, y^(m-n) = x^(n-m) is taken as that power of x (sigma grows like it), and y^(m-n+1) as x^(n-m-1);
     * products are grouped so that none overflows before the value it is part of.
     */
    static double ofInverse(double x, int n, int m, double& dSigmaDx) {
        const double y = 1.0 / x, yN = integerPower(y, n);
        if (m == 2 * n) {
            const double inverse = 1.0 / (1.0 + yN);
            dSigmaDx = -n * (yN * y) * inverse * inverse;
            return yN * inverse;
        }
        const double yM = integerPower(y, m);
        // outer = y^(m-n) and outerTimesY = y^(m-n+1): powers of y (m > n) or of x (m < n).
        double outer, outerTimesY;
        if (m > n) {
            outer = integerPower(y, m - n);
            outerTimesY = outer * y;
        } else {
            outerTimesY = integerPower(x, n - m - 1);
            outer = outerTimesY * x;
        }
        const double inverseDenominator = 1.0 / (1.0 - yM);
        const double value = outer * (1.0 - yN) * inverseDenominator;
        dSigmaDx = -((m - n) * outerTimesY - m * ((1.0 - value) * (yM * y))) * inverseDenominator;
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
