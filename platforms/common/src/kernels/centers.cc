/**
 * Centres (HAS_CENTERS: PLUMED's COM and CENTER virtual atoms in a group). Centre k has the member entries
 * centerFirstEntry[k] .. centerFirstEntry[k + 1] - 1 (its particles in the user's order, repeats kept), and is
 *   made whole (centerWhole):  c = x_0 + sum_{j >= 1} (T_j / W) image(x_j - x_{j-1})   (centerDifferenceWeights)
 *   otherwise:                 c = x_0 + sum_{j >= 1} (w_j / W) (x_j - x_0)            (centerForceWeights)
 * (ResolvedCenters on the host: PLUMED's centre of the group made whole atom by atom, as one weighted sum; the
 * second form is sum_j (w_j / W) x_j, taken relative to x_0 for single precision's sake). A block computes a centre
 * (blockCenterPosition) in an order that does not depend on its size, so every block gets the same bits. Small
 * centres (CENTERS_IN_BLOCK: NUM_CENTER_ENTRIES and NUM_CENTERS within the plan's limits) are computed by every
 * block of every kernel that reads a slot's position, at its start, into local memory (PREPARE_CENTERS): no launch
 * of their own. Larger ones by computeCenterPositions, a block per centre, launched first into centerPositions. The
 * slots of a centre read its position (atomPosition), its pairs' gradients go to its own gradient row
 * (gradientRowOf), and the finish adds w_j / W of that row to particle j's force, a thread per member entry.
 * Host defines: NUM_ATOMS, NUM_CENTERS, NUM_CENTER_ENTRIES, NUM_SLOT_ROWS, CENTERS_IN_BLOCK; CENTER_OFFSETS
 * where the particles' positions must be unwrapped (a force without periodic boundary conditions, or a centre
 * that is not made whole: its position depends on which periodic copy of each particle is taken), their cell
 * offsets at cellOffsets[CENTER_OFFSET_BASE + entry].
 */
#ifdef HAS_CENTERS

/** A member entry's particle position (as the user sees it where CENTER_OFFSETS). */
DEVICE real3 centerMemberPosition(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT centerAtoms, int entry, real4 periodicBoxVecX, real4 periodicBoxVecY,
        real4 periodicBoxVecZ) {
    const real4 pos = posq[centerAtoms[entry]];
#ifdef CENTER_OFFSETS
    return unwrappedPosition(pos, cellOffsets[CENTER_OFFSET_BASE + entry], periodicBoxVecX, periodicBoxVecY,
                             periodicBoxVecZ);
#else
    return make_real3(pos.x, pos.y, pos.z);
#endif
}

/**
 * Centre `center`'s position (w 0), computed by the calling block: every thread of the block must call it (it holds
 * barriers). CENTER_LANES partial sums, lane l summing the entries first + l, first + l + CENTER_LANES, ... in
 * order, CENTER_BATCH at a time with all their loads issued before the first is used; then a fixed tree over the
 * lanes. The order does not depend on the block's size: every block of every kernel gets the same bits. A centre
 * with a particle whose position is not finite is NaN (the slots that read it raise nonFiniteFlags).
 */
DEVICE real4 blockCenterPosition(int center, GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT centerAtoms, GLOBAL const int* RESTRICT centerFirstEntry,
        GLOBAL const real* RESTRICT centerForceWeights, GLOBAL const real* RESTRICT centerDifferenceWeights,
        GLOBAL const int* RESTRICT centerWhole, BOX_PARAMS, LOCAL_ARG real* sums, LOCAL_ARG int* invalid) {
    const int first = centerFirstEntry[center], end = centerFirstEntry[center + 1];
    const bool whole = (centerWhole[center] != 0);
    const real3 origin = centerMemberPosition(posq, cellOffsets, centerAtoms, first, periodicBoxVecX, periodicBoxVecY,
                                              periodicBoxVecZ);
    for (int lane = LOCAL_ID; lane < CENTER_LANES; lane += LOCAL_SIZE) {
        real3 sum = make_real3(0, 0, 0);
        int notFinite = 0;
        for (int base = first + lane; base < end; base += CENTER_BATCH * CENTER_LANES) {
            real3 pos[CENTER_BATCH], previous[CENTER_BATCH];
            real weight[CENTER_BATCH];
            for (int b = 0; b < CENTER_BATCH; b++) {
                const int entry = base + b * CENTER_LANES;
                pos[b] = origin;
                previous[b] = origin;
                weight[b] = 0;
                if (entry < end) {
                    pos[b] = centerMemberPosition(posq, cellOffsets, centerAtoms, entry, periodicBoxVecX,
                                                  periodicBoxVecY, periodicBoxVecZ);
                    if (whole && entry > first)
                        previous[b] = centerMemberPosition(posq, cellOffsets, centerAtoms, entry - 1, periodicBoxVecX,
                                                           periodicBoxVecY, periodicBoxVecZ);
                    weight[b] = (whole ? centerDifferenceWeights[entry] : centerForceWeights[entry]);
                }
            }
            for (int b = 0; b < CENTER_BATCH; b++) {
                const int entry = base + b * CENTER_LANES;
                if (entry >= end)
                    break;
                notFinite |= (isFinitePosition(pos[b]) ? 0 : 1);
                if (entry == first)
                    continue; // the origin
                real3 term;
                if (whole)
                    term = minimumImage(make_real3(pos[b].x - previous[b].x, pos[b].y - previous[b].y,
                                                   pos[b].z - previous[b].z), BOX_ARGS);
                else
                    term = make_real3(pos[b].x - origin.x, pos[b].y - origin.y, pos[b].z - origin.z);
                sum.x += weight[b] * term.x;
                sum.y += weight[b] * term.y;
                sum.z += weight[b] * term.z;
            }
        }
        sums[lane] = sum.x;
        sums[lane + CENTER_LANES] = sum.y;
        sums[lane + 2 * CENTER_LANES] = sum.z;
        invalid[lane] = notFinite;
    }
    SYNC_THREADS;
    for (int step = CENTER_LANES / 2; step > 0; step /= 2) {
        for (int lane = LOCAL_ID; lane < step; lane += LOCAL_SIZE) {
            for (int axis = 0; axis < 3; axis++)
                sums[lane + axis * CENTER_LANES] += sums[lane + step + axis * CENTER_LANES];
            invalid[lane] |= invalid[lane + step];
        }
        SYNC_THREADS;
    }
    const real4 result = (invalid[0] ? make_real4(NOT_A_NUMBER_REAL, NOT_A_NUMBER_REAL, NOT_A_NUMBER_REAL, 0)
                                     : make_real4(origin.x + sums[0], origin.y + sums[CENTER_LANES],
                                                  origin.z + sums[2 * CENTER_LANES], 0));
    SYNC_THREADS; // every thread has read the sums before they are used again
    return result;
}

#ifdef CENTERS_IN_BLOCK
/**
 * The start of a kernel that reads slots' positions: every centre's position into the block's local memory
 * (centerPositions, which atomPosition then reads). Every thread of the block must reach it.
 */
#define PREPARE_CENTERS \
    LOCAL real4 centerPositions[NUM_CENTERS]; \
    LOCAL real centerSums[3 * CENTER_LANES]; \
    LOCAL int centerInvalid[CENTER_LANES]; \
    for (int center = 0; center < NUM_CENTERS; center++) { \
        const real4 centerPosition = blockCenterPosition(center, posq, cellOffsets, centerAtoms, centerFirstEntry, \
                centerForceWeights, centerDifferenceWeights, centerWhole, BOX_ARGS, centerSums, centerInvalid); \
        if (LOCAL_ID == 0) \
            centerPositions[center] = centerPosition; \
    } \
    SYNC_THREADS;
#else
#define PREPARE_CENTERS
/**
 * Every centre's position this evaluation, a block per centre, into centerPositions (launched first in each
 * evaluation, where the centres are too large to compute in every block).
 */
KERNEL void computeCenterPositions(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT centerAtoms, GLOBAL const int* RESTRICT centerFirstEntry,
        GLOBAL const real* RESTRICT centerForceWeights, GLOBAL const real* RESTRICT centerDifferenceWeights,
        GLOBAL const int* RESTRICT centerWhole, GLOBAL real4* RESTRICT centerPositions, BOX_PARAMS) {
    LOCAL real sums[3 * CENTER_LANES];
    LOCAL int invalid[CENTER_LANES];
    // The same number of iterations in every thread of a block (the function holds barriers).
    for (int center = GROUP_ID; center < NUM_CENTERS; center += NUM_GROUPS) {
        const real4 position = blockCenterPosition(center, posq, cellOffsets, centerAtoms, centerFirstEntry,
                centerForceWeights, centerDifferenceWeights, centerWhole, BOX_ARGS, sums, invalid);
        if (LOCAL_ID == 0)
            centerPositions[center] = position;
    }
}
#endif

#else
#define PREPARE_CENTERS
#endif
