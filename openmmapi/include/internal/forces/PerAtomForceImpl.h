#ifndef OPENMM_COORDINATION_PERATOMFORCEIMPL_H_
#define OPENMM_COORDINATION_PERATOMFORCEIMPL_H_

#include "CoordinationKernels.h"
#include "PerAtomForce.h"
#include "internal/centres/ResolvedCenters.h"
#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/forces/ResolvedPerAtomForce.h"
#include "internal/windowsExportCoordination.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/** What the Impl of every per-atom force gives PerAtomForce::getPerAtomValues(): its kernel's q_i. */
class OPENMM_EXPORT_COORDINATION PerAtomValuesSource {
public:
    virtual ~PerAtomValuesSource() = default;
    /** The q_i at the context's current positions, one per entry of group A. */
    virtual void getPerAtomValues(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
};

/**
 * The Impl of a per-atom force of class ForceClass, evaluated by a per-atom kernel of type Kernel (a
 * CalcPerAtomForceKernel); Derived defines resolve() and checkUpdatable() (ResolvedForceImpl), the first through
 * PerAtomForceResolution.
 */
template <class Derived, class ForceClass, class Kernel>
class PerAtomForceImpl : public ResolvedForceImpl<Derived, ForceClass, ResolvedPerAtomForce, Kernel>,
                         public PerAtomValuesSource {
public:
    explicit PerAtomForceImpl(const ForceClass& owner)
        : ResolvedForceImpl<Derived, ForceClass, ResolvedPerAtomForce, Kernel>(owner) {}
    void getPerAtomValues(OpenMM::ContextImpl& context, std::vector<double>& values) override {
        this->getKernel().getPerAtomValues(context, values);
    }
};

/** What the resolution of every per-atom force shares. */
class OPENMM_EXPORT_COORDINATION PerAtomForceResolution {
public:
    /**
     * Resolve a per-atom force whose engine composition (pair term, components, per-atom step) the caller has set in
     * perAtom: its groups and centres, its reductions and its energy, with the checks every per-atom force makes
     * (Pair mode is refused: a force has no per-atom `values` there, e.g. "coordination numbers").
     */
    static ResolvedPerAtomForce resolve(const PerAtomForce& force, ResolvedCenters centers, ResolvedPerAtom perAtom,
                                        const std::string& values);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PERATOMFORCEIMPL_H_*/
