#ifndef OPENMM_COORDINATION_STEINHARDTFORCEIMPL_H_
#define OPENMM_COORDINATION_STEINHARDTFORCEIMPL_H_

#include "SteinhardtForce.h"
#include "internal/forces/PerAtomForceImpl.h"

namespace CoordinationPlugin {

/**
 * The internal implementation of SteinhardtForce: its resolution (the per-atom engine's composition: the spherical
 * harmonics of degree l and the weight as 2l + 2 components, q_i = the norm over the weight; then
 * PerAtomForceResolution) and its kernel.
 */
class OPENMM_EXPORT_COORDINATION SteinhardtForceImpl
    : public PerAtomForceImpl<SteinhardtForceImpl, SteinhardtForce, CalcSteinhardtForceKernel> {
public:
    explicit SteinhardtForceImpl(const SteinhardtForce& owner) : PerAtomForceImpl(owner) {}
    /** Check every setting of a force against a System and resolve it (CoordinationNumberForceImpl::resolve()). */
    static ResolvedPerAtomForce resolve(const SteinhardtForce& force, const OpenMM::System& system);
    /** The same check without a System (the PLUMED translator's): numParticles particles of mass 1, no PBC. */
    static ResolvedPerAtomForce resolve(const SteinhardtForce& force, int numParticles);
    /** Throw an OpenMMException if what updateParametersInContext() cannot change differs between two resolutions. */
    static void checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_STEINHARDTFORCEIMPL_H_*/
