#ifndef COORDINATION_CONTACT_MAP_HOST_KERNEL_H_
#define COORDINATION_CONTACT_MAP_HOST_KERNEL_H_

#include "CoordinationKernels.h"
#include "internal/contactmap/ContactMapHostEvaluator.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Vec3.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The ContactMapForce kernel of the host platforms (Reference and CPU, whose Contexts hold the Reference platform's
 * data): every contact through ContactMapHostEvaluator, in double precision. Each contact's value and gradient go to
 * its own slot, and the sums and forces are then taken in contact order, so a platform that evaluates the ranges of
 * contacts in parallel (computeRange) gives bitwise the same numbers for any number of threads.
 */
class OPENMM_EXPORT_COORDINATION ContactMapHostKernel : public CalcContactMapForceKernel {
public:
    ContactMapHostKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcContactMapForceKernel(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedContactMap& force) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedContactMap& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;

protected:
    /**
     * The values (and, where gradients is not null, the gradients) of contacts 0 to numContacts - 1 at the members'
     * positions, each written to its own slot. Here one range in one thread.
     */
    virtual void computeRange(OpenMM::ContextImpl& context, const std::vector<OpenMM::Vec3>& members,
                              const OpenMM::Vec3* box, int numContacts, double* values, OpenMM::Vec3* gradients);
    const ContactMapHostEvaluator& getEvaluator() const { return *evaluator; }

private:
    /**
     * Every contact's value, and with gradients its dcoord/dx of the second member, at the context's positions; false
     * (values all NaN) where a used coordinate is not finite.
     */
    bool computeContacts(OpenMM::ContextImpl& context, std::vector<double>& values, std::vector<OpenMM::Vec3>* gradients);
    std::unique_ptr<ContactMapHostEvaluator> evaluator;
    std::vector<OpenMM::Vec3> memberStorage, gradientStorage;
    std::vector<double> valueStorage;
};

} // namespace CoordinationPlugin

#endif /*COORDINATION_CONTACT_MAP_HOST_KERNEL_H_*/
