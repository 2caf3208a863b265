#ifndef COORDINATION_KERNELS_H_
#define COORDINATION_KERNELS_H_

#include "CoordinationForce.h"
#include "internal/ResolvedCoordinationForce.h"
#include "openmm/KernelImpl.h"
#include "openmm/Platform.h"
#include "openmm/System.h"
#include <string>
#include <vector>

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
     * Initialize the kernel from the force's resolved description (validated, every setting derived once
     * by CoordinationForceImpl::resolve).
     */
    virtual void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) = 0;
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
     * The collective variables' values at the context's current positions: {s} for a CoordinationForce, the
     * reductions (in order) for a CoordinationNumberForce (ResolvedCoordinationForce::numbers.enabled); NaN
     * where a coordinate is not finite.
     */
    virtual void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
    /**
     * A CoordinationNumberForce's coordination numbers c_i at the context's current positions, one per entry of
     * group A in its order (all NaN where a coordinate is not finite). A CoordinationForce's kernel throws.
     */
    virtual void getCoordinationNumbers(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
    /**
     * Evaluate s once at the context's current positions and return how many pairs of group entries that
     * evaluation tested against the cutoff (CoordinationForce::getNumCandidatePairsInContext).
     */
    virtual long long getNumCandidatePairs(OpenMM::ContextImpl& context) = 0;
    /**
     * Copy changed parameters (mode, groups, switching function, periodic flag) into the kernel, from the
     * force's new resolved description (its energy expression, global parameters and requested derivatives
     * are unchanged: CoordinationForceImpl checks that).
     */
    virtual void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) = 0;
    /**
     * How the kernel's pair loop evaluates sigma: the SwitchingPath it compiled (GPU) or took in its last
     * evaluation (CPU), which must be the resolved description's; the Reference platform, the oracle, always
     * evaluates sigma(r) as defined (Distance). For tests and diagnostics.
     */
    virtual SwitchingPath getSwitchingPath() const = 0;
};

} // namespace CoordinationPlugin

#endif /*COORDINATION_KERNELS_H_*/
