#ifndef OPENMM_CONTACTMAPFORCEIMPL_H_
#define OPENMM_CONTACTMAPFORCEIMPL_H_

#include "ContactMapForce.h"
#include "ContactMapKernels.h"
#include "internal/ResolvedContactMap.h"
#include "openmm/Kernel.h"
#include "openmm/internal/ForceImpl.h"
#include <map>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The internal implementation of ContactMapForce: validates the force (resolve()) and drives the platform's kernel.
 */
class OPENMM_EXPORT_COORDINATION ContactMapForceImpl : public OpenMM::ForceImpl {
public:
    ContactMapForceImpl(const ContactMapForce& owner);
    void initialize(OpenMM::ContextImpl& context) override;
    const ContactMapForce& getOwner() const override {
        return owner;
    }
    void updateContextState(OpenMM::ContextImpl& context, bool& forcesInvalid) override {}
    double calcForcesAndEnergy(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy,
                               int groups) override;
    std::map<std::string, double> getDefaultParameters() override;
    std::vector<std::string> getKernelNames() override;
    /** The collective variables' values (ContactMapForce::getCollectiveVariableValues). */
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values);
    /** Every contact's coord_n (ContactMapForce::getContactValues). */
    void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values);
    /**
     * Resolve the force again and copy it into the kernel; an OpenMMException if the energy expression, the global
     * parameters, the requested derivatives, the reduction, the Custom expression in use or (Components) the number of
     * contacts changed.
     */
    void updateParametersInContext(OpenMM::ContextImpl& context);
    /**
     * The Impl that evaluates owner in context: its own, or that of the inner System's copy of owner where it is a
     * collective variable of a CustomCVForce (with syncState, the inner contexts first get the outer state). Throws
     * an OpenMMException naming method if neither holds the force.
     */
    static ContactMapForceImpl& inContext(OpenMM::Context& context, const ContactMapForce& owner, bool syncState,
                                          const std::string& method, OpenMM::ContextImpl*& contextImpl);
    /**
     * Check every setting of a force against a System (an OpenMMException names the bad value and says what is
     * allowed) and resolve it: the description every kernel is initialized from. Contacts with the same switching
     * settings share one resolved switching function.
     */
    static ResolvedContactMap resolve(const ContactMapForce& force, const OpenMM::System& system);

private:
    /** Throw if what updateParametersInContext() cannot change differs between two resolutions. */
    static void checkUpdatable(const ResolvedContactMap& before, const ResolvedContactMap& after);
    const ContactMapForce& owner;
    ResolvedContactMap resolved;
    OpenMM::Kernel kernel;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_CONTACTMAPFORCEIMPL_H_*/
