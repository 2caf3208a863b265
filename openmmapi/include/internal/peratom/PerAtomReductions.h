#ifndef OPENMM_COORDINATION_PERATOMREDUCTIONS_H_
#define OPENMM_COORDINATION_PERATOMREDUCTIONS_H_

#include "internal/energy/EnergyEvaluator.h"
#include "internal/forces/ResolvedPerAtomForce.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include "openmm/internal/ContextImpl.h"
#include <map>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The per-atom engine's reductions and energy on the host (the Reference and CPU kernels): from the per-atom numbers
 * q_i of group A's entries, the reductions' values, the energy E(R, globals), each dE/dq_i (the weight of entry i's
 * pairs in the backward pass) and the requested energy-parameter derivatives. The sums run over the entries in
 * order (ResolvedReduction gives each reduction's definition). VectorMean and VectorSum take the entries' vectors u_i
 * (PerAtomSteps::averageVector(), entry-major) and give one weight dE/du per component, the same for every entry.
 */
class OPENMM_EXPORT_COORDINATION PerAtomReductions {
public:
    PerAtomReductions() = default;
    /** The programs of a resolved force's reductions and energy. */
    explicit PerAtomReductions(const ResolvedPerAtomForce& force);
    /** The size of each entry's vector u_i the reductions take: 0 where none is of the vectors. */
    int getNumVectorComponents() const { return numVectorComponents; }
    /** The reductions' values at q and the vectors u (getNumVectorComponents() per entry, entry-major), in order. */
    void evaluate(const std::vector<double>& q, const std::vector<double>& vectors, std::vector<double>& values) const;
    /**
     * The energy at q and u; weights receives dE/dq_i for every entry, vectorWeights dE/du (getNumVectorComponents()
     * numbers, the same for every entry); dE/dlambda of every requested parameter is added to derivatives (if not
     * null). Where a value, E, a dE/dR or a weight is not finite, the energy and the parameter derivatives are NaN and
     * every weight is 0 (no force), the rule of every platform.
     */
    double evaluateEnergy(OpenMM::ContextImpl& context, const std::vector<double>& q, const std::vector<double>& vectors,
                          std::vector<double>& weights, std::vector<double>& vectorWeights,
                          std::map<std::string, double>* derivatives) const;

private:
    struct Programs {
        Lepton::ExpressionProgram term, termDerivative, outer, outerDerivative;
    };
    /**
     * S (or the extreme value and its entry) of reduction r, and T = sum of term'(v) where centred; logSumExp: q_m,
     * its entry, and S = sum_i exp(d_i) as derivativeSum; vector: S = vectorNorm.
     */
    void sums(int r, const std::vector<double>& q, double mean, double vectorNorm, double& sum, double& derivativeSum,
              int& extremeEntry) const;
    /** V = sum_i u_i into vectorSum, and its norm |V|. */
    double vectorSumOf(const std::vector<double>& vectors, std::vector<double>& vectorSum) const;
    /** Reduction r's value from its sums. */
    double value(int r, double sum, double derivativeSum) const;
    std::vector<ResolvedReduction> reductions; // the descriptions (evaluated through programs)
    std::vector<Programs> programs;
    EnergyEvaluator energy;
    int numVectorComponents = 0;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PERATOMREDUCTIONS_H_*/
