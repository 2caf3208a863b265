#ifndef OPENMM_COORDINATION_CONTACTMAPENERGYFUNCTION_H_
#define OPENMM_COORDINATION_CONTACTMAPENERGYFUNCTION_H_

#include "internal/ResolvedContactMap.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include "openmm/internal/ContextImpl.h"
#include <map>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The energy of a ContactMapForce on the host (Reference and CPU kernels): E of the variables and the global
 * parameters, dE/dv per variable and the requested dE/dlambda, evaluated with the context's parameter values.
 */
class OPENMM_EXPORT_COORDINATION ContactMapEnergyFunction {
public:
    ContactMapEnergyFunction() = default;
    /** The programs of a resolved map's energy and its derivatives. */
    explicit ContactMapEnergyFunction(const ResolvedContactMap& force);
    /**
     * E(variables) (in the order of the resolved variableNames); dEdv receives dE/dv per variable and
     * parameterDerivatives dE/dlambda per requested parameter. Where a variable, E or a dE/dv is not finite, the
     * energy and the parameter derivatives are NaN and dEdv is all 0 (the rule every platform follows).
     */
    double evaluate(OpenMM::ContextImpl& context, const std::vector<double>& variables, std::vector<double>& dEdv,
                    std::vector<double>& parameterDerivatives) const;
    /** The names of the requested parameter derivatives, in the order evaluate() gives them. */
    const std::vector<std::string>& getParameterDerivativeNames() const { return derivativeNames; }

private:
    std::vector<std::string> variableNames, globalParameterNames, derivativeNames;
    Lepton::ExpressionProgram energy;
    std::vector<Lepton::ExpressionProgram> variableDerivatives, parameterDerivatives;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_CONTACTMAPENERGYFUNCTION_H_*/
