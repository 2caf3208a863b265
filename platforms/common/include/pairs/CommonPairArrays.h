#ifndef COMMON_PAIR_ARRAYS_H_
#define COMMON_PAIR_ARRAYS_H_

#include "centres/CommonCenters.h"
#include "pairs/CommonPairPlan.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeSort.h"
#include <string>

namespace CoordinationPlugin {

/**
 * The pair traversal's device arrays for one plan, allocated and uploaded once (by initialize); only the
 * neighbour list's chunk arrays are resized later (resizeList).
 */
class CommonPairArrays {
public:
    /** The slots of one group in the order the tile kernel visits them, and the tiles' bounding boxes. */
    struct SortedGroup {
        int numSlots = 0, numTiles = 0;
        OpenMM::ComputeArray keys;                 // (Hilbert index << 32) | slot, sorted; identity order without a cutoff
        OpenMM::ComputeArray sortedAtoms, sortedUniques;
        OpenMM::ComputeArray tileCenters, tileHalfExtents;
        OpenMM::ComputeArray positions;            // each sorted slot's position this evaluation (culling: computeTileBounds)
        OpenMM::ComputeArray listPositions;        // each sorted slot's position when the neighbour list was built
        OpenMM::ComputeSort sort;                  // culling only, and only for more than one tile
    };

    /** Allocate every array of `plan` and upload what `groups` fixes. */
    void initialize(OpenMM::ComputeContext& cc, const CommonPairPlan& plan, const ResolvedPairGroups& groups);
    /** Give the neighbour list room for `capacity` chunks (the contents are rebuilt). */
    void resizeList(int capacity);

    OpenMM::ComputeArray particlesA, particlesB; // the groups' member ids, on the device (uploaded once)
    OpenMM::ComputeArray positionOfParticle;   // particle -> current atom position (device-side, after reorders)
    OpenMM::ComputeArray atomsA, atomsB;       // slot -> current atom index (follows reordering)
    OpenMM::ComputeArray uniqueA, uniqueB;     // slot -> index into uniqueParticles (its cell offsets)
    OpenMM::ComputeArray gradientBuffer;       // ds/dx, 64-bit fixed point, 3 x numGradientRows (per sorted slot)
    // unique index -> periodic cells OpenMM wrapped it by (non-periodic forces); then, where the centres' entries are
    // unwrapped, the entries'
    OpenMM::ComputeArray cellOffsets;
    CommonCenters centers;
    OpenMM::ComputeArray partialSums, results; // per block of the pair kernel; {s, dE/ds, E}
    SortedGroup sortedA, sortedB;              // Self and Dual (sortedB: Dual only)
    OpenMM::ComputeArray blocksDone;           // the fused finish's counter of finished blocks
    OpenMM::ComputeArray nonFiniteFlags;       // 2 ints: a slot's position was not finite (per evaluation parity)
    // Neighbour list (every culled force has one): chunks of (row tile, 32 column slots) within dmax + skin.
    OpenMM::ComputeArray listState;            // ListState* entries
    OpenMM::ComputeArray chunkRows, chunkSlots; // capacity chunks: row tile; 32 column slots each (-1: none)
    OpenMM::ComputeArray partialFixed;         // the tile kernel's fixed-point partial sums of s (hi, lo per block)

private:
    void initializeSorted(OpenMM::ComputeContext& cc, const CommonPairPlan& plan, SortedGroup& g, int numSlots,
                          const std::string& name);
};

} // namespace CoordinationPlugin

#endif /*COMMON_PAIR_ARRAYS_H_*/
