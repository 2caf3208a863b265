#ifndef OPENMM_COORDINATION_SHELLFUNCTIONFORCEIMPL_H_
#define OPENMM_COORDINATION_SHELLFUNCTIONFORCEIMPL_H_

#include "ShellFunctionForce.h"
#include "internal/forces/PerAtomForceImpl.h"

namespace CoordinationPlugin {

/**
 * The internal implementation of ShellFunctionForce: its resolution (the per-atom engine's composition: the function
 * of the bond vector as one part, or in Self mode an even and an odd part where its parity is not known, after the
 * weight sigma where normalised; then PerAtomForceResolution) and its kernel.
 */
class OPENMM_EXPORT_COORDINATION ShellFunctionForceImpl
    : public PerAtomForceImpl<ShellFunctionForceImpl, ShellFunctionForce, CalcShellFunctionForceKernel> {
public:
    explicit ShellFunctionForceImpl(const ShellFunctionForce& owner) : PerAtomForceImpl(owner) {}
    /** The per-atom engine's composition of the force's settings (an OpenMMException names a bad one). */
    static ResolvedPerAtom composition(const ShellFunctionForce& force);
    /** What the q_i are called in messages. */
    static const char* valuesName() { return "shell function values"; }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SHELLFUNCTIONFORCEIMPL_H_*/
