#ifndef OPENMM_COORDINATIONFORCEIMPL_H_
#define OPENMM_COORDINATIONFORCEIMPL_H_

#include "CoordinationForce.h"
#include "CoordinationKernels.h"
#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/forces/ResolvedCoordinationForce.h"

namespace CoordinationPlugin {

/**
 * The internal implementation of CoordinationForce: its resolution (every check, with a message that names the
 * bad value and what is allowed) and its kernel.
 */
class OPENMM_EXPORT_COORDINATION CoordinationForceImpl
    : public ResolvedForceImpl<CoordinationForceImpl, CoordinationForce, ResolvedCoordinationForce,
                               CalcCoordinationForceKernel> {
public:
    explicit CoordinationForceImpl(const CoordinationForce& owner) : ResolvedForceImpl(owner) {}
    /**
     * Check every setting of a force against a System (an OpenMMException names the bad value and says what is
     * allowed) and resolve it: the description every kernel is initialized from, each setting derived and each
     * expression parsed once. The System gives the number of particles, the masses of centres of mass and whether
     * centres are made whole.
     */
    static ResolvedCoordinationForce resolve(const CoordinationForce& force, const OpenMM::System& system);
    /**
     * The same check without a System (the PLUMED translator's check of its input): numParticles particles, each
     * of mass 1, in a System without periodic boundary conditions.
     */
    static ResolvedCoordinationForce resolve(const CoordinationForce& force, int numParticles);
    /** Throw an OpenMMException if what updateParametersInContext() cannot change differs between two resolutions. */
    static void checkUpdatable(const ResolvedCoordinationForce& before, const ResolvedCoordinationForce& after);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONFORCEIMPL_H_*/
