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

/** What the resolution of every per-atom force shares. */
class OPENMM_EXPORT_COORDINATION PerAtomForceResolution {
public:
    /**
     * Resolve a per-atom force whose engine composition (pair term, components, per-atom step) is perAtom: its
     * groups and centres, its reductions and its energy, with the checks every per-atom force makes (Pair mode is
     * refused: a force has no per-atom `values` there, e.g. "coordination numbers").
     */
    static ResolvedPerAtomForce resolve(const PerAtomForce& force, ResolvedCenters centers, ResolvedPerAtom perAtom,
                                        const std::string& values);
    /** Throw an OpenMMException if what updateParametersInContext() cannot change differs between two resolutions. */
    static void checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after);
};

/**
 * The Impl of a per-atom force of class ForceClass, evaluated by a per-atom kernel of type Kernel (a
 * CalcPerAtomForceKernel). Derived (CRTP) gives what differs between the per-atom forces: `static ResolvedPerAtom
 * composition(const ForceClass&)`, the engine's steps from the force's own settings (checked there), and `static
 * const char* valuesName()`, what its q_i are called in messages; the rest of the resolution is
 * PerAtomForceResolution's.
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
    /**
     * Check every setting of a force against a System (an OpenMMException names the bad value and says what is
     * allowed) and resolve it: the description every kernel is initialized from, each setting derived and each
     * expression parsed once. The System gives the number of particles, the masses of centres of mass and whether
     * centres are made whole.
     */
    static ResolvedPerAtomForce resolve(const ForceClass& force, const OpenMM::System& system) {
        ResolvedPerAtom perAtom = Derived::composition(force);
        return PerAtomForceResolution::resolve(force, ResolvedCenters::resolve(system, force), std::move(perAtom),
                                               Derived::valuesName());
    }
    /** The same check without a System (the PLUMED translator's): numParticles particles of mass 1, no PBC. */
    static ResolvedPerAtomForce resolve(const ForceClass& force, int numParticles) {
        ResolvedPerAtom perAtom = Derived::composition(force);
        return PerAtomForceResolution::resolve(force, ResolvedCenters::resolve(numParticles, force), std::move(perAtom),
                                               Derived::valuesName());
    }
    /** Throw an OpenMMException if what updateParametersInContext() cannot change differs between two resolutions. */
    static void checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after) {
        PerAtomForceResolution::checkUpdatable(before, after);
    }

protected:
    /** A force with a local step has a kernel name of its own (Kernel::LocalName()): not every platform runs it. */
    std::string kernelName() const override {
        return (this->getOwner().getLocalStep() == PerAtomForce::NoLocalStep ? Kernel::Name() : Kernel::LocalName());
    }
};


} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PERATOMFORCEIMPL_H_*/
