#ifndef OPENMM_CONTACTMAPFORCEIMPL_H_
#define OPENMM_CONTACTMAPFORCEIMPL_H_

#include "ContactMapForce.h"
#include "CoordinationKernels.h"
#include "internal/contactmap/ResolvedContactMap.h"
#include "internal/forces/CoordinationBiasForceImpl.h"

namespace CoordinationPlugin {

/**
 * The internal implementation of ContactMapForce: its resolution (every check) and its kernel.
 */
class OPENMM_EXPORT_COORDINATION ContactMapForceImpl
    : public ResolvedForceImpl<ContactMapForceImpl, ContactMapForce, ResolvedContactMap, CalcContactMapForceKernel> {
public:
    explicit ContactMapForceImpl(const ContactMapForce& owner) : ResolvedForceImpl(owner) {}
    /**
     * Check every setting of a force against a System (an OpenMMException names the bad value and says what is
     * allowed) and resolve it: the description every kernel is initialized from, each setting derived and each
     * expression parsed once. The System gives the number of particles, the masses of centres of mass and whether
     * centres are made whole.
     */
    static ResolvedContactMap resolve(const ContactMapForce& force, const OpenMM::System& system);
    /** Throw an OpenMMException if what updateParametersInContext() cannot change differs between two resolutions. */
    static void checkUpdatable(const ResolvedContactMap& before, const ResolvedContactMap& after);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_CONTACTMAPFORCEIMPL_H_*/
