#ifndef OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_
#define OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_

#include "CoordinationBiasForce.h"
#include "internal/switching/CutoffAndStretch.h"
#include "internal/switching/RationalSwitchingFunction.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include <cmath>
#include <limits>

namespace CoordinationPlugin {

/**
 * The switching function of a CoordinationForce on the host: the one C++ definition of sigma and its
 * derivative for every type (PLUMED's definitions, read from its src/tools/SwitchingFunction.cpp), used
 * by the Reference and CPU kernels. It reads resolved constants (SwitchingFunctionConstants) and derives
 * none; the GPU kernel source (platforms/common/src/kernels/switching.cc) mirrors it.
 *
 * Two forms, one per SwitchingPath: evaluate(r), sigma as defined (the Reference platform's, and the CPU
 * platform's Distance path), and evaluateSquared(r2), the SquaredDistance path of the CPU platform.
 *
 * Common rules (PLUMED's): sigma = 0 for r > dmax; for the types of x = (r - d0) / r0, sigma = 1 for
 * x <= 0; stretched, sigma' = sigma * stretchFactor + shift.
 */
class OPENMM_EXPORT_COORDINATION SwitchingFunctionEvaluator {
public:
    /** @param constants  resolved constants (SwitchingFunctionConstants::resolve()) */
    explicit SwitchingFunctionEvaluator(const SwitchingFunctionConstants& constants);
    /**
     * sigma(r) (stretched if requested; 0 beyond the cutoff); dSigmaDr receives d sigma / dr (1/nm). A Custom
     * function whose value, or whose derivative where it is used (r > 0), is not finite gives NaN (and a
     * derivative of 0): such a pair has no coordination number, and every platform reports s as NaN.
     */
    double evaluate(double r, double& dSigmaDr) const {
        const double value = cutoffAndStretch(*this, r, constants.dmax, constants.stretchFactor, constants.shift, dSigmaDr);
        return (constants.type == CoordinationBiasForce::Custom ? finiteOrNaN(value, dSigmaDr, r > 0.0) : value);
    }
    /**
     * The SquaredDistance path: sigma at squared distance r2 (stretched; 0 beyond the cutoff) without a
     * square root (but near y = 1 for m != 2n); scale receives (d sigma / dr) / r, so that the gradient with
     * respect to the second atom is delta * scale. Only for constants whose path is SquaredDistance.
     */
    double evaluateSquared(double r2, double& scale) const;
    /** The resolved constants. */
    const SwitchingFunctionConstants& getConstants() const { return constants; }
    /** sigma(r) without cutoff or stretch; dSigmaDr receives its r-derivative. */
    double evaluateUnstretched(double r, double& dSigmaDr) const;

private:
    /** value, or NaN (slope 0) if value, or slope where it is used, is not finite. */
    static double finiteOrNaN(double value, double& slope, bool slopeUsed) {
        if (std::isfinite(value) && (!slopeUsed || std::isfinite(slope)))
            return value;
        slope = 0.0;
        return std::numeric_limits<double>::quiet_NaN();
    }
    /** sigma as a function of x > 0 for the types of x; dSigmaDx receives its x-derivative. */
    double evaluateOfX(double x, double& dSigmaDx) const;
    const SwitchingFunctionConstants constants;
    const RationalSwitchingFunction rational;
    Lepton::ExpressionProgram customValue, customDerivative;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_*/
