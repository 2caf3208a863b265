#ifndef OPENMM_COORDINATION_COORDINATIONNUMBERREDUCTIONS_H_
#define OPENMM_COORDINATION_COORDINATIONNUMBERREDUCTIONS_H_

#include "internal/ResolvedCoordinationForce.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include "openmm/internal/ContextImpl.h"
#include <map>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The reductions and the energy of a CoordinationNumberForce on the CPU side (Reference and CPU kernels): from
 * the coordination numbers c_i of group A's entries, the reductions' values, the energy E(R, globals), each
 * dE/dc_i (the weight of entry i's pairs in the forces) and the requested energy-parameter derivatives.
 * The sums run over the entries in order (ResolvedReduction gives each reduction's definition).
 */
class OPENMM_EXPORT_COORDINATION CoordinationNumberReductions {
public:
    CoordinationNumberReductions() = default;
    /** The programs of a resolved CoordinationNumberForce (numbers.enabled). */
    explicit CoordinationNumberReductions(const ResolvedCoordinationForce& force);
    /** The reductions' values at c, in order. */
    void evaluate(const std::vector<double>& c, std::vector<double>& values) const;
    /**
     * The energy at c; weights receives dE/dc_i for every entry; if derivatives is not null, dE/dlambda of every
     * requested parameter is added to it. Where a value, E or a weight is not finite, the energy and the
     * parameter derivatives are NaN and every weight is 0 (no force), the rule of every platform.
     */
    double evaluateEnergy(OpenMM::ContextImpl& context, const std::vector<double>& c, std::vector<double>& weights,
                          std::map<std::string, double>* derivatives) const;
private:
    struct Programs {
        Lepton::ExpressionProgram term, termDerivative, outer, outerDerivative;
    };
    /** S (or the extreme value and its entry) of reduction q, and T = sum of term'(v) where centred. */
    void sums(int q, const std::vector<double>& c, double mean, double& sum, double& derivativeSum, int& extremeEntry) const;
    ResolvedCoordinationNumbers numbers;
    std::vector<Programs> programs;
    std::vector<std::string> globalParameterNames, derivativeNames;
    Lepton::ExpressionProgram energy;
    std::vector<Lepton::ExpressionProgram> energyDerivatives, parameterDerivatives;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_COORDINATIONNUMBERREDUCTIONS_H_*/
