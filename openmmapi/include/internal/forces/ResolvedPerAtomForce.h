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
     * The entries with a number (q_i, or s_i of the local step) that the reductions and the per-atom values take:
     * the first numCentral of groupA, the force's group A. With local neighbours (PerAtomForce::setLocalNeighbors)
     * groupA goes on with them (the pairs in Dual mode: a Self force's group A is then also group B), and they have
     * values v and local vectors u but no number of their own.
     */
    int numCentral = 0;
    /** Whether groupA holds local neighbours after the force's own entries. */
    bool hasLocalNeighbors() const { return numCentral < (int)groupA.size(); }
    /** Whether an entry of groupA has a number (is one of the force's group A). */
    bool isCentral(int entry) const { return entry < numCentral; }
    /** Whether an entry of groupA is a neighbour of the local step (all of them without local neighbours). */
    bool isLocalNeighbor(int entry) const { return !hasLocalNeighbors() || entry >= numCentral; }
    /**
     * The entries of groupB that pair with the central entries: all of them, unless the local neighbours have partners
     * of their own (PerAtomForce::setLocalNeighborPartners), which groupB then goes on with; a pair (entry a of groupA,
     * entry b of groupB) counts where both are the centrals' (a < numCentral, b < numOwnB) or both the neighbours'.
     */
    int numOwnB = 0;
    /** Whether groupB holds the local neighbours' partners after the force's own. */
    bool hasNeighborPartners() const { return numOwnB < (int)groupB.size(); }
    /** Whether the pair (entry a of groupA, entry b of groupB) counts (Dual mode). */
    bool countsPair(int a, int b) const { return !hasNeighborPartners() || (a < numCentral) == (b < numOwnB); }
    /** numOwnB where the neighbours have partners of their own, else -1 (every pair counts): the engines' form. */
    int partnerBoundary() const { return hasNeighborPartners() ? numOwnB : -1; }
    /**
     * The local step's pairs (where perAtom.localStep is not None): Self mode over groupA (with local neighbours a
     * pair counts only from a central entry to a neighbour: isCentral, isLocalNeighbor), with the local step's
     * switching function t; its members, centres and periodicity are the force's.
     */
    ResolvedPairGroups localPairs;
    /** E of the reductions, in the order of perAtom.reductions (each reduction's name is its variable). */
    ResolvedEnergy energy;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDPERATOMFORCE_H_*/
