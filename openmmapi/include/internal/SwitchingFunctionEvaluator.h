#ifndef OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_
#define OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_

#include "CoordinationForce.h"
#include "internal/CutoffAndStretch.h"
#include "internal/RationalSwitchingFunction.h"
#include "internal/SwitchingFunctionConstants.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"

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
    /** sigma(r) (stretched if requested; 0 beyond the cutoff); dSigmaDr receives d sigma / dr (1/nm). */
    double evaluate(double r, double& dSigmaDr) const {
        return cutoffAndStretch(*this, r, constants.dmax, constants.stretchFactor, constants.shift, dSigmaDr);
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
    /** sigma as a function of x > 0 for the types of x; dSigmaDx receives its x-derivative. */
    double evaluateOfX(double x, double& dSigmaDx) const;
    const SwitchingFunctionConstants constants;
    const RationalSwitchingFunction rational;
    Lepton::ExpressionProgram customValue, customDerivative;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_*/
