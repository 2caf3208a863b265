#ifndef COORDINATION_KERNELS_H_
#define COORDINATION_KERNELS_H_

#include "CoordinationForce.h"
#include "openmm/KernelImpl.h"
#include "openmm/Platform.h"
#include "openmm/System.h"
#include <string>

namespace CoordinationPlugin {

/**
 * The kernel a platform implements to evaluate a CoordinationForce.
 */
class CalcCoordinationForceKernel : public OpenMM::KernelImpl {
public:
    static std::string Name() {
        return "CalcCoordinationForce";
    }
    CalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : OpenMM::KernelImpl(name, platform) {}
    /**
     * Initialize the kernel; the force has already been validated.
     */
    virtual void initialize(const OpenMM::System& system, const CoordinationForce& force) = 0;
    /**
     * Add the force's forces to the context's force buffer (if includeForces) and return its energy
     * (if includeEnergy; otherwise the return value is unspecified).
     */
    virtual double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) = 0;
    /**
     * Return the coordination number s at the context's current positions.
     */
    virtual double getCoordination(OpenMM::ContextImpl& context) = 0;
    /**
     * Copy changed parameters (mode, groups, switching function, periodic flag) into the kernel;
     * the force has already been validated.
     */
    virtual void copyParametersToContext(OpenMM::ContextImpl& context, const CoordinationForce& force) = 0;
};

} // namespace CoordinationPlugin

#endif /*COORDINATION_KERNELS_H_*/
