#ifndef REFERENCE_CALC_CONTACTMAP_FORCE_KERNEL_H_
#define REFERENCE_CALC_CONTACTMAP_FORCE_KERNEL_H_

#include "ContactMapKernels.h"
#include "internal/ContactMapHostEvaluator.h"
#include "openmm/Vec3.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The Reference platform's ContactMapForce kernel: one double-precision loop over the contacts
 * (ContactMapHostEvaluator), the oracle the other platforms are tested against.
 */
class ReferenceCalcContactMapForceKernel : public CalcContactMapForceKernel {
public:
    ReferenceCalcContactMapForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcContactMapForceKernel(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedContactMap& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedContactMap& force) override;

private:
    /**
     * Every contact's value, and with gradients its dcoord/dx of the second member, at the context's positions; false
     * (values all NaN) where a used coordinate is not finite.
     */
    bool computeContacts(OpenMM::ContextImpl& context, std::vector<double>& values, std::vector<OpenMM::Vec3>* gradients);
    std::unique_ptr<ContactMapHostEvaluator> evaluator;
    std::vector<OpenMM::Vec3> memberStorage;
};

} // namespace CoordinationPlugin

#endif /*REFERENCE_CALC_CONTACTMAP_FORCE_KERNEL_H_*/
