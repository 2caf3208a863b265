#ifndef OPENMM_COORDINATION_COORDINATIONENERGYFUNCTION_H_
#define OPENMM_COORDINATION_COORDINATIONENERGYFUNCTION_H_

#include "internal/ResolvedCoordinationForce.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include "openmm/internal/ContextImpl.h"
#include <map>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The energy E(s) of a CoordinationForce on the CPU side (Reference and CPU kernels): the expression,
 * its derivative dE/ds and the requested energy-parameter derivatives dE/dlambda, evaluated with the
 * context's current global parameter values.
 */
class OPENMM_EXPORT_COORDINATION CoordinationEnergyFunction {
public:
    CoordinationEnergyFunction() = default;
    /** The programs of a resolved force's energy expression and its derivatives. */
    explicit CoordinationEnergyFunction(const ResolvedCoordinationForce& force);
    /**
     * E(s); dEdS receives dE/ds. If derivatives is not null, dE/dlambda of every requested parameter is
     * added to it (s does not depend on the parameters). Where s, E or dE/ds is not finite (a non-finite
     * coordinate, a global parameter of inf or NaN, an expression outside its domain) the energy and the
     * parameter derivatives are NaN and dEdS is 0, so that the force applies no forces: the rule every
     * platform follows (the GPU's fixed-point force buffers cannot hold a NaN).
     */
    double evaluate(OpenMM::ContextImpl& context, double s, double& dEdS, std::map<std::string, double>* derivatives) const;

private:
    std::vector<std::string> globalParameterNames, derivativeNames;
    Lepton::ExpressionProgram energy, energyDerivative;
    std::vector<Lepton::ExpressionProgram> parameterDerivatives;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_COORDINATIONENERGYFUNCTION_H_*/
