#ifndef CONTACTMAP_KERNELS_H_
#define CONTACTMAP_KERNELS_H_

#include "ContactMapForce.h"
#include "internal/ResolvedContactMap.h"
#include "openmm/KernelImpl.h"
#include "openmm/Platform.h"
#include "openmm/System.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The kernel of a ContactMapForce, implemented by each platform from a ResolvedContactMap.
 */
class CalcContactMapForceKernel : public OpenMM::KernelImpl {
public:
    static std::string Name() {
        return "CalcContactMapForce";
    }
    CalcContactMapForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : OpenMM::KernelImpl(name, platform) {}
    /**
     * Initialize the kernel (upload the contacts, compile the energy).
     * @param system   the System
     * @param force    the resolved force
     */
    virtual void initialize(const OpenMM::System& system, const ResolvedContactMap& force) = 0;
    /**
     * Compute the energy and add the forces.
     * @param context          the context
     * @param includeForces    whether to add forces
     * @param includeEnergy    whether the energy is wanted
     * @return the energy (kJ/mol)
     */
    virtual double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) = 0;
    /**
     * The collective variables' values at the context's positions (ContactMapForce::getCollectiveVariableValues).
     */
    virtual void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
    /**
     * Every contact's value coord_n at the context's positions (ContactMapForce::getContactValues).
     */
    virtual void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
    /**
     * Copy new settings into the context (the energy, variables and parameters are unchanged; checked by the Impl).
     */
    virtual void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedContactMap& force) = 0;
};

} // namespace CoordinationPlugin

#endif /*CONTACTMAP_KERNELS_H_*/
