#ifndef OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_
#define OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_

#include "CoordinationForce.h"
#include "internal/RationalSwitchingFunction.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include "lepton/ParsedExpression.h"
#include <string>

namespace CoordinationPlugin {

/**
 * The switching function of a CoordinationForce: the one CPU-side definition of sigma(r) and dsigma/dr
 * for every type (PLUMED's definitions, read from its src/tools/SwitchingFunction.cpp), used by the
 * Reference and CPU kernels. resolve() computes every constant any platform needs once (the GPU kernel
 * source, which mirrors these definitions, receives them as defines).
 *
 * Common rules (PLUMED's): sigma = 0 for r > dmax; for the types of x = (r - d0) / r0, sigma = 1 for
 * x <= 0; stretched, sigma' = sigma * stretchFactor + shift with stretchFactor = 1 / (sigma(0) -
 * sigma(dmax)) and shift = -sigma(dmax) * stretchFactor.
 */
class OPENMM_EXPORT_COORDINATION SwitchingFunctionEvaluator {
public:
    /** A Custom expression, parsed: its value and derivative with respect to its variable ("x" or "x2"). */
    struct CustomExpression {
        Lepton::ParsedExpression value, derivative;
        std::string variable;
    };
    /**
     * Parse a Custom switching function, with PLUMED's named constants (pi, e, ln2, sqrt2, ...) replaced
     * by their values; throws an OpenMMException that says what is wrong (a parse error, a variable
     * other than x or x2, or both).
     */
    static CustomExpression parseCustom(const std::string& expression);
    /**
     * Every constant of a force's switching function (a Custom expression parsed once, the stretch
     * computed). The settings must be valid except possibly the stretch, which the caller checks
     * (CoordinationForceImpl::resolve).
     */
    static SwitchingFunctionConstants resolve(const CoordinationForce& force);
    /** Fill in stretchFactor and shift of constants whose other members are resolved (1 and 0 without stretch). */
    static void resolveStretch(SwitchingFunctionConstants& constants);
    /** @param constants  resolved constants (resolve()) */
    explicit SwitchingFunctionEvaluator(const SwitchingFunctionConstants& constants);
    /** The switching function of a force whose switching-function settings are valid. */
    explicit SwitchingFunctionEvaluator(const CoordinationForce& force) : SwitchingFunctionEvaluator(resolve(force)) {}
    /** sigma(r) (stretched if requested; 0 beyond the cutoff); dSigmaDr receives d sigma / dr (1/nm). */
    double evaluate(double r, double& dSigmaDr) const {
        if (r > dmax) {
            dSigmaDr = 0.0;
            return 0.0;
        }
        double value = evaluateUnstretched(r, dSigmaDr);
        dSigmaDr *= stretchFactor;
        return value * stretchFactor + shift;
    }
    /** The cutoff (nm): infinity for none. */
    double getCutoff() const { return dmax; }
    double getStretchFactor() const { return stretchFactor; }
    double getShift() const { return shift; }

private:
    /** sigma(r) without cutoff or stretch; dSigmaDr receives its r-derivative. */
    double evaluateUnstretched(double r, double& dSigmaDr) const;
    /** sigma as a function of x > 0 for the types of x; dSigmaDx receives its x-derivative. */
    double evaluateOfX(double x, double& dSigmaDx) const;
    CoordinationForce::SwitchingFunction type;
    double invR0, d0, dmax;
    RationalSwitchingFunction rational;
    double smapA, smapB, smapC, smapExponent;
    double qBeta, qCentre;
    Lepton::ExpressionProgram customValue, customDerivative;
    bool customOfX2;
    double stretchFactor, shift;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SWITCHINGFUNCTIONEVALUATOR_H_*/
