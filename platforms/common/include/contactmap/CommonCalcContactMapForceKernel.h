#ifndef COMMON_CALC_CONTACTMAP_FORCE_KERNEL_H_
#define COMMON_CALC_CONTACTMAP_FORCE_KERNEL_H_

#include "CoordinationKernels.h"
#include "engine/CommonBiasKernelBase.h"
#include "openmm/common/ComputeContext.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The ContactMapForce kernel for OpenMM's GPU platforms (CUDA, OpenCL), written once against ComputeContext. Per
 * evaluation it launches one kernel (a small map: one block does everything) or two (the contacts with partial sums,
 * then the finish that sums them, evaluates E and applies the forces; two more with centres), and transfers nothing:
 * the variables are reduced on the device, E and dE/dv are evaluated there (code generated from the expressions),
 * and the forces go straight into OpenMM's force buffer. Global parameters are uploaded only when they change, a
 * non-periodic force's cell offsets only when OpenMM's change.
 */
class CommonCalcContactMapForceKernel : public CalcContactMapForceKernel, private CommonBiasKernelBase {
public:
    CommonCalcContactMapForceKernel(const std::string& name, const OpenMM::Platform& platform, OpenMM::ComputeContext& cc);
    ~CommonCalcContactMapForceKernel() override;
    void initialize(const OpenMM::System& system, const ResolvedContactMap& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedContactMap& force) override;
    void followAtomOrder() override;

private:
    /** Everything built for the map's settings (plan, arrays, program, kernels, per-step state). */
    struct Built;
    void build(const ResolvedContactMap& force);
    void launch(bool computeGradient, bool storeValues, bool addEnergy);

    std::unique_ptr<Built> built;
};

} // namespace CoordinationPlugin

#endif /*COMMON_CALC_CONTACTMAP_FORCE_KERNEL_H_*/
