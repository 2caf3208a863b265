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
    /** The per-atom engine's composition of the force's settings (an OpenMMException names a bad one). */
    static ResolvedPerAtom composition(const SteinhardtForce& force);
    /** What the q_i are called in messages. */
    static const char* valuesName() { return "order parameters"; }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_STEINHARDTFORCEIMPL_H_*/
