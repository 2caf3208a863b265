#ifndef OPENMM_COORDINATION_RESOLVEDPERATOMFORCE_H_
#define OPENMM_COORDINATION_RESOLVEDPERATOMFORCE_H_

#include "internal/energy/ResolvedEnergy.h"
#include "internal/groups/ResolvedPairGroups.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include <string>

namespace CoordinationPlugin {

/**
 * A validated per-atom force (a PerAtomForce: CoordinationNumberForce, SteinhardtForce), resolved once (its Impl's
 * resolve(), through PerAtomForceResolution): its pairs (as a
 * CoordinationForce's), the composition of the per-atom engine and its reductions (ResolvedPerAtom), and the energy
 * of the reductions. Copy it by construction or move it (see ResolvedPairGroups).
 */
struct ResolvedPerAtomForce : ResolvedPairGroups {
    /** The force's class name, which starts the messages about it ("SteinhardtForce"). */
    std::string forceClass;
    ResolvedPerAtom perAtom;
    /**
     * The local step's pairs (where perAtom.localStep is not None): Self mode over group A, with the local step's
     * switching function t; its members, centres and periodicity are the force's.
     */
    ResolvedPairGroups localPairs;
    /** E of the reductions, in the order of perAtom.reductions (each reduction's name is its variable). */
    ResolvedEnergy energy;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDPERATOMFORCE_H_*/
