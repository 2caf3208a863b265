#ifndef OPENMM_COORDINATION_ENERGYEVALUATOR_H_
#define OPENMM_COORDINATION_ENERGYEVALUATOR_H_

#include "internal/energy/ResolvedEnergy.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include "openmm/internal/ContextImpl.h"
#include <map>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A resolved energy evaluated on the host (the Reference and CPU kernels of every force), with the context's current
 * global parameters.
 */
class OPENMM_EXPORT_COORDINATION EnergyEvaluator {
public:
    /** One evaluation: E, dE/dv per variable, dE/dlambda per requested parameter, and whether it is finite. */
    struct Values {
        double energy = 0.0;
        std::vector<double> variableDerivatives, parameterDerivatives;
        bool finite = false;
    };
    EnergyEvaluator() = default;
    /** The programs of a resolved energy. */
    explicit EnergyEvaluator(const ResolvedEnergy& energy);
    /**
     * E and its derivatives at the given variables (in the resolved order). Where a variable, E or a dE/dv is not
     * finite there is no finite answer (the rule of every platform; a GPU's fixed-point force buffer cannot hold a
     * NaN): the result is then markedNonFinite().
     */
    Values evaluate(OpenMM::ContextImpl& context, const std::vector<double>& variables) const;
    /** values with no finite answer: the energy and the parameter derivatives NaN, every dE/dv 0 (no force). */
    void markNonFinite(Values& values) const;
    /** Add the parameter derivatives of values to OpenMM's map of them (nothing if the map is null). */
    void addParameterDerivatives(const Values& values, std::map<std::string, double>* derivatives) const;

private:
    std::vector<std::string> variableNames, globalParameterNames, parameterDerivativeNames;
    Lepton::ExpressionProgram energy;
    std::vector<Lepton::ExpressionProgram> variableDerivatives, parameterDerivatives;
    std::vector<bool> usesVariable; // dE/dv is not the constant 0
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_ENERGYEVALUATOR_H_*/
