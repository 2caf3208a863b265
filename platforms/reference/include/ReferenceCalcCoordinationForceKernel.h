#ifndef REFERENCE_COORDINATION_KERNELS_H_
#define REFERENCE_COORDINATION_KERNELS_H_

#include "CoordinationKernels.h"
#include "internal/SwitchingFunctionEvaluator.h"
#include "internal/CoordinationEnergyFunction.h"
#include "internal/CoordinationNumberReductions.h"
#include "openmm/Vec3.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The Reference platform's CoordinationForce kernel: plain double-precision loops over the pairs.
 * It is the oracle the other platforms are tested against, so it stays simple.
 */
class ReferenceCalcCoordinationForceKernel : public CalcCoordinationForceKernel {
public:
    ReferenceCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcCoordinationForceKernel(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    double getCoordination(OpenMM::ContextImpl& context) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getCoordinationNumbers(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    long long getNumCandidatePairs(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) override;
    /** Always Distance: the oracle evaluates sigma(r) as defined, whatever the resolved path. */
    SwitchingPath getSwitchingPath() const override { return SwitchingPath::Distance; }

private:
    void setParameters(const ResolvedCoordinationForce& force);
    /** s at the positions; if gradient is not null, ds/dx of every member (particles, then centres) is added to it. */
    double computeCoordination(OpenMM::ContextImpl& context, std::vector<OpenMM::Vec3>* gradient) const;

    /**
     * A CoordinationNumberForce: the c_i of group A's entries at the positions (all NaN if a coordinate is not
     * finite); if weights is not null, -sum_i weights[i] dc_i/dx is added to forces.
     */
    void computeNumbers(OpenMM::ContextImpl& context, std::vector<double>& numbers, const std::vector<double>* weights,
                        std::vector<OpenMM::Vec3>* forces) const;
    ResolvedCoordinationForce resolved;
    CoordinationNumberReductions reductions;
    std::unique_ptr<SwitchingFunctionEvaluator> switchingFunction;
    CoordinationEnergyFunction energyFunction;
    std::vector<OpenMM::Vec3> gradient;
};

} // namespace CoordinationPlugin

#endif /*REFERENCE_COORDINATION_KERNELS_H_*/
