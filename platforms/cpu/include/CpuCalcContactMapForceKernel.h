#ifndef CPU_CALC_CONTACTMAP_FORCE_KERNEL_H_
#define CPU_CALC_CONTACTMAP_FORCE_KERNEL_H_

#include "ContactMapKernels.h"
#include "internal/ContactMapHostEvaluator.h"
#include "openmm/Vec3.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The CPU platform's ContactMapForce kernel: the Reference platform's evaluation (ContactMapHostEvaluator) with the
 * contacts split into fixed ranges run on OpenMM's thread pool. Each contact's value and gradient are written to its
 * own slot, and the sums and forces are then taken in contact order, so the results are bitwise the Reference
 * platform's, for any number of threads.
 */
class CpuCalcContactMapForceKernel : public CalcContactMapForceKernel {
public:
    CpuCalcContactMapForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcContactMapForceKernel(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedContactMap& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedContactMap& force) override;

private:
    /** As ReferenceCalcContactMapForceKernel::computeContacts, on the thread pool. */
    bool computeContacts(OpenMM::ContextImpl& context, std::vector<double>& values, std::vector<OpenMM::Vec3>* gradients);
    std::unique_ptr<ContactMapHostEvaluator> evaluator;
    std::vector<OpenMM::Vec3> memberStorage, gradientStorage;
    std::vector<double> valueStorage;
};

} // namespace CoordinationPlugin

#endif /*CPU_CALC_CONTACTMAP_FORCE_KERNEL_H_*/
