#ifndef OPENMM_COORDINATION_RESOLVEDCOORDINATIONNUMBERFORCE_H_
#define OPENMM_COORDINATION_RESOLVEDCOORDINATIONNUMBERFORCE_H_

#include "internal/energy/ResolvedEnergy.h"
#include "internal/groups/ResolvedPairGroups.h"
#include "internal/peratom/ResolvedPerAtom.h"

namespace CoordinationPlugin {

/**
 * A validated CoordinationNumberForce, resolved once (CoordinationNumberForceImpl::resolve): its pairs (as a
 * CoordinationForce's), the composition of the per-atom engine and its reductions (ResolvedPerAtom), and the energy
 * of the reductions. Copy it by construction or move it (see ResolvedPairGroups).
 */
struct ResolvedCoordinationNumberForce : ResolvedPairGroups {
    ResolvedPerAtom perAtom;
    /** E of the reductions, in the order of perAtom.reductions (each reduction's name is its variable). */
    ResolvedEnergy energy;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDCOORDINATIONNUMBERFORCE_H_*/
