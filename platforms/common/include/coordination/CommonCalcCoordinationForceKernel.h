#ifndef COMMON_CALC_COORDINATION_FORCE_KERNEL_H_
#define COMMON_CALC_COORDINATION_FORCE_KERNEL_H_

#include "CoordinationKernels.h"
#include "engine/CommonBiasKernelBase.h"
#include "openmm/common/ComputeContext.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The CoordinationForce kernel for OpenMM's GPU platforms (CUDA, OpenCL), written once against ComputeContext: the
 * shared pair traversal (CommonPairTraversal) with the sum of sigma as its body (CommonSwitchSumBody). Per evaluation
 * it launches one to four kernels (more at a re-sort) and transfers nothing: s is reduced on the device, E(s) and
 * dE/ds are evaluated on the device (code generated from the expression), and the forces go straight into OpenMM's
 * force buffer. Global parameters are uploaded only when they change; a force with a neighbour list reads the list's
 * size once after each re-sort.
 */
class CommonCalcCoordinationForceKernel : public CalcCoordinationForceKernel, private CommonBiasKernelBase {
public:
    /** hasWarpShuffles: the platform is CUDA (CommonPairTraversal). */
    CommonCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform,
                                      OpenMM::ComputeContext& cc, bool hasWarpShuffles = false);
    ~CommonCalcCoordinationForceKernel() override;
    void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    long long getNumCandidatePairs(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) override;
    SwitchingPath getSwitchingPath() const override;
    void followAtomOrder() override;

private:
    /** Everything built for the force's settings; rebuilt by copyParametersToContext. */
    struct Built;
    void build(const ResolvedCoordinationForce& force);
    /** One evaluation: s, E, and the forces if computeGradient. */
    void launch(bool computeGradient, bool addEnergy);

    const bool hasWarpShuffles;
    std::unique_ptr<Built> built;
};

} // namespace CoordinationPlugin

#endif /*COMMON_CALC_COORDINATION_FORCE_KERNEL_H_*/
