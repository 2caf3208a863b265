#ifndef COMMON_CALC_CONTACTMAP_FORCE_KERNEL_H_
#define COMMON_CALC_CONTACTMAP_FORCE_KERNEL_H_

#include "ContactMapKernels.h"
#include "openmm/common/ComputeArray.h"
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
class CommonCalcContactMapForceKernel : public CalcContactMapForceKernel {
public:
    CommonCalcContactMapForceKernel(const std::string& name, const OpenMM::Platform& platform, OpenMM::ComputeContext& cc);
    ~CommonCalcContactMapForceKernel() override;
    void initialize(const OpenMM::System& system, const ResolvedContactMap& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedContactMap& force) override;
    /** Translate the members' particle indices into the context's current atom order, on the device. */
    void followAtomOrder();

private:
    class ReorderListener;
    /** Everything built for the map's settings (plan, arrays, program, kernels, per-step state). */
    struct Built;
    void build(const ResolvedContactMap& force);
    void updateGlobalParameters(OpenMM::ContextImpl& context);
    void updateCellOffsets();
    /** Point the kernels at OpenMM's energy-parameter-derivative buffer (once, at the first evaluation). */
    void connectParameterDerivatives();
    void launch(bool computeGradient, bool storeValues, bool addEnergy);
    /** Download an array of the kernel's "mixed" type as doubles (count values). */
    void downloadMixed(OpenMM::ComputeArray& array, int count, std::vector<double>& values);

    OpenMM::ComputeContext& cc;
    std::unique_ptr<Built> built;
    std::vector<std::string> globalParameterNames;
    std::vector<std::string> energyParameterDerivativeNames;
    std::vector<double> globalParameterValues;
};

} // namespace CoordinationPlugin

#endif /*COMMON_CALC_CONTACTMAP_FORCE_KERNEL_H_*/
