#ifndef COMMON_CENTER_LAYOUT_H_
#define COMMON_CENTER_LAYOUT_H_

#include "internal/centres/ResolvedCenters.h"

namespace CoordinationPlugin {

/**
 * How the GPU computes a force's centres (kernels/centres/centers.cc), decided once from the resolved centres: their
 * sizes, whether their particles are read as the user gave them, and whether every block computes them itself.
 * A member id at or beyond numAtoms is centre (id - numAtoms), as ResolvedCenters gives it.
 */
struct CommonCenterLayout {
    /** A block computes a centre as CenterLanes partial sums (a fixed order, whatever the block's size). */
    static constexpr int CenterLanes = 128;
    /** Each lane loads this many member entries at once. */
    static constexpr int CenterBatch = 8;
    /** computeCenterPositions: a block of CenterLanes threads per centre. */
    static constexpr int CenterBlockSize = CenterLanes;
    /**
     * Centres of at most this many member entries in all (one entry per lane), and this many centres, are computed at
     * the start of every block of each kernel that reads positions, with no launch of their own; larger ones by
     * computeCenterPositions, a launch before the others. Computing a large centre in every block costs each block
     * more than its own launch costs the step (docs/DESIGN.md, centres).
     */
    static constexpr int MaxCenterEntriesInBlock = CenterLanes;
    static constexpr int MaxCentersInBlock = 8;

    /**
     * Decide for `centers` (every centre of the force) read by a force with or without periodic boundary conditions;
     * blocksMayCompute: whether the kernels that read the centres can compute small ones themselves (else a launch of
     * computeCenterPositions computes every centre).
     */
    static CommonCenterLayout create(const ResolvedCenters& centers, bool periodic, bool blocksMayCompute = true);

    int numAtoms = 0;         // the System's particles: a member id at or beyond it is a centre
    int numCenters = 0;
    int numEntries = 0;       // the centres' member entries (all centres' particles in order)
    bool unwrapped = false;   // the entries' positions as the user gave them (no PBC, or a centre not made whole)
    bool inBlock = false;     // every block computes the centres itself (rather than computeCenterPositions)
};

} // namespace CoordinationPlugin

#endif /*COMMON_CENTER_LAYOUT_H_*/
