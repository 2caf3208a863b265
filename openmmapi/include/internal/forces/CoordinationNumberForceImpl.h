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
    /** The per-atom engine's composition of the force's settings (an OpenMMException names a bad one). */
    static ResolvedPerAtom composition(const CoordinationNumberForce& force);
    /** What the q_i are called in messages. */
    static const char* valuesName() { return "coordination numbers"; }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONNUMBERFORCEIMPL_H_*/
