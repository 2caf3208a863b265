#ifndef COMMON_COORDINATION_ARRAYS_H_
#define COMMON_COORDINATION_ARRAYS_H_

#include "CommonCoordinationPlan.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeSort.h"

namespace CoordinationPlugin {

/**
 * The GPU kernel's device arrays for one plan, allocated and uploaded once (by initialize); only the
 * neighbour list's chunk arrays are resized later (growList).
 */
class CommonCoordinationArrays {
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

    /** Allocate every array of `plan` and upload what `force` fixes. */
    void initialize(OpenMM::ComputeContext& cc, const CommonCoordinationPlan& plan, const ResolvedCoordinationForce& force);
    /** Give the neighbour list room for `capacity` chunks (the contents are rebuilt). */
    void resizeList(int capacity);

    OpenMM::ComputeArray particlesA, particlesB; // the groups' particles, on the device (uploaded once)
    OpenMM::ComputeArray positionOfParticle;   // particle -> current atom position (device-side, after reorders)
    OpenMM::ComputeArray atomsA, atomsB;       // slot -> current atom index (follows reordering)
    OpenMM::ComputeArray uniqueA, uniqueB;     // slot -> index into uniqueParticles (its cell offsets)
    OpenMM::ComputeArray gradientBuffer;       // ds/dx, 64-bit fixed point, 3 x numGradientRows (per sorted slot)
    // unique index -> periodic cells OpenMM wrapped it by (non-periodic forces); then, with plan.centerOffsets, the
    // centres' member entries'
    OpenMM::ComputeArray cellOffsets;
    // Centres: per member entry its particle, current atom, centre, w_j / W and T_j / W; per centre its first entry
    // (and the end), whether it is made whole, and its position this evaluation.
    OpenMM::ComputeArray centerParticles, centerAtoms, centerOfEntry, centerForceWeights, centerDifferenceWeights;
    OpenMM::ComputeArray centerFirstEntry, centerWhole, centerPositions;
    OpenMM::ComputeArray partialSums, globals, results;
    SortedGroup sortedA, sortedB;              // Self and Dual (sortedB: Dual only)
    OpenMM::ComputeArray blocksDone;           // the fused finish's counter of finished blocks
    OpenMM::ComputeArray nonFiniteFlags;       // 2 ints: a slot's position was not finite (per evaluation parity)
    // Neighbour list (every culled force has one): chunks of (row tile, 32 column slots) within dmax + skin.
    OpenMM::ComputeArray listState;            // ListState* entries
    OpenMM::ComputeArray chunkRows, chunkSlots; // capacity chunks: row tile; 32 column slots each (-1: none)
    OpenMM::ComputeArray partialFixed;         // the tile kernel's fixed-point partial sums of s (hi, lo per block)
    // Energy-parameter derivatives: the indices of ours in OpenMM's buffer (uploaded at the first evaluation)
    // and a placeholder for that buffer until it exists.
    OpenMM::ComputeArray parameterDerivativeIndices, parameterDerivativePlaceholder;
    // CoordinationNumberForce: c per sorted row of A (64-bit fixed point: hi rows, then lo rows), c in A's order,
    // the weights dE/dc per sorted row, each slot's sorted row (A, B), and {R_0, ..., E}.
    OpenMM::ComputeArray numbersFixed, numberValues, numberWeights, rowOfSlotA, rowOfSlotB, numberResults;
    // The finish's phases: per part the exact sum of c, the reductions' sums and the extremes' entries; the
    // coefficients of the weights (3 per reduction, the parameter derivatives, the mean), the extremes' entries,
    // and {energy finite, a weight not finite}.
    OpenMM::ComputeArray numberPartialFixed, numberPartialSums, numberPartialIndices, numberCoefficients, numberIndices,
        numberState;

private:
    void initializeCenters(OpenMM::ComputeContext& cc, const CommonCoordinationPlan& plan, const ResolvedCenters& centers);
    void initializeSorted(OpenMM::ComputeContext& cc, const CommonCoordinationPlan& plan, SortedGroup& g, int numSlots,
                          const std::string& name);
};

} // namespace CoordinationPlugin

#endif /*COMMON_COORDINATION_ARRAYS_H_*/
