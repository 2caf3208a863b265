#ifndef OPENMM_COORDINATIONNUMBERFORCEIMPL_H_
#define OPENMM_COORDINATIONNUMBERFORCEIMPL_H_

#include "CoordinationNumberForce.h"
#include "internal/forces/PerAtomForceImpl.h"

namespace CoordinationPlugin {

/**
 * The internal implementation of CoordinationNumberForce: its resolution (the per-atom engine's composition: one
 * component, sigma(r) r^p, q_i = c_i; then PerAtomForceResolution) and its kernel.
 */
class OPENMM_EXPORT_COORDINATION CoordinationNumberForceImpl
    : public PerAtomForceImpl<CoordinationNumberForceImpl, CoordinationNumberForce, CalcCoordinationNumberForceKernel> {
public:
    explicit CoordinationNumberForceImpl(const CoordinationNumberForce& owner) : PerAtomForceImpl(owner) {}
    /**
     * Check every setting of a force against a System (an OpenMMException names the bad value and says what is
     * allowed) and resolve it: the description every kernel is initialized from, each setting derived and each
     * expression parsed once. The System gives the number of particles, the masses of centres of mass and whether
     * centres are made whole.
     */
    static ResolvedPerAtomForce resolve(const CoordinationNumberForce& force, const OpenMM::System& system);
    /** The same check without a System (the PLUMED translator's): numParticles particles of mass 1, no PBC. */
    static ResolvedPerAtomForce resolve(const CoordinationNumberForce& force, int numParticles);
    /** Throw an OpenMMException if what updateParametersInContext() cannot change differs between two resolutions. */
    static void checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONNUMBERFORCEIMPL_H_*/
