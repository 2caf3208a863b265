#ifndef COMMON_CALC_COORDINATION_NUMBER_FORCE_KERNEL_H_
#define COMMON_CALC_COORDINATION_NUMBER_FORCE_KERNEL_H_

#include "CoordinationKernels.h"
#include "engine/CommonBiasKernelBase.h"
#include "openmm/common/ComputeContext.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The CoordinationNumberForce kernel for OpenMM's GPU platforms: the per-atom engine (CommonPerAtomBody) on the
 * shared pair traversal (CommonPairTraversal). Per evaluation: pass 1 over the pairs into the per-entry values, the
 * finish's phases (sums, reductions, energy, weights; in pass 1's last block for small forces on CUDA), and with
 * forces pass 2 with the weights and the force finish. Nothing is transferred per evaluation.
 */
class CommonCalcCoordinationNumberForceKernel : public CalcCoordinationNumberForceKernel, private CommonBiasKernelBase {
public:
    /** hasWarpShuffles: the platform is CUDA (CommonPairTraversal). */
    CommonCalcCoordinationNumberForceKernel(const std::string& name, const OpenMM::Platform& platform,
                                            OpenMM::ComputeContext& cc, bool hasWarpShuffles = false);
    ~CommonCalcCoordinationNumberForceKernel() override;
    void initialize(const OpenMM::System& system, const ResolvedPerAtomForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getPerAtomValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedPerAtomForce& force) override;
    SwitchingPath getSwitchingPath() const override;
    void followAtomOrder() override;

private:
    /** Everything built for the force's settings; rebuilt by copyParametersToContext. */
    struct Built;
    void build(const ResolvedPerAtomForce& force);
    /** One evaluation: the values, the reductions and E, and the forces if computeForces. */
    void launch(bool computeForces, bool addEnergy);

    const bool hasWarpShuffles;
    std::unique_ptr<Built> built;
};

} // namespace CoordinationPlugin

#endif /*COMMON_CALC_COORDINATION_NUMBER_FORCE_KERNEL_H_*/
