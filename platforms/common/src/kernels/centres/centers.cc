/**
 * Centres (HAS_CENTERS: PLUMED's COM and CENTER virtual atoms), for every force: a member id at or beyond NUM_ATOMS
 * is centre (id - NUM_ATOMS), as ResolvedCenters gives it. Centre k has the member entries
 * centerFirstEntry[k] .. centerFirstEntry[k + 1] - 1 (its particles in the user's order, repeats kept), and is
 *   made whole (centerWhole):  c = x_0 + sum_{j >= 1} (T_j / W) image(x_j - x_{j-1})   (centerDifferenceWeights)
 *   otherwise:                 c = x_0 + sum_{j >= 1} (w_j / W) (x_j - x_0)            (centerForceWeights)
 * (ResolvedCenters on the host: PLUMED's centre of the group made whole atom by atom, as one weighted sum; the
 * second form is sum_j (w_j / W) x_j, taken relative to x_0 for single precision's sake). A block computes a centre
 * (blockCenterPosition) in an order that does not depend on its size, so every block gets the same bits: small
 * centres (CENTERS_IN_BLOCK: NUM_CENTER_ENTRIES and NUM_CENTERS within the host's limits) by every block that needs
 * them (the pair traversal's kernels at their start, into local memory: PREPARE_CENTERS; the contact map's single
 * block), larger ones by computeCenterPositions, a block per centre, launched first into centerPositions. The force
 * on a centre is spread back to its particles, w_j / W each, a thread per member entry (spreadCenterForces).
 *
 * Precision: positions are read as POSITION_TYPE (OpenMM's posq; real4 unless the program says otherwise) and, with
 * USE_POSQ_CORRECTION, plus posqCorrection (mixed precision), in the program's real: a program whose real is double
 * (the contact map's) computes its centres in double from them.
 * Host defines: NUM_ATOMS, NUM_CENTERS, NUM_CENTER_ENTRIES, CENTER_LANES, CENTER_BATCH, CENTERS_IN_BLOCK;
 * CENTER_OFFSETS where the particles' positions must be unwrapped (a force without periodic boundary conditions, or
 * a centre that is not made whole: its position depends on which periodic copy of each particle is taken), their
 * cell offsets at cellOffsets[CENTER_OFFSET_BASE + entry].
 */
#ifndef POSITION_TYPE
#define POSITION_TYPE real4
#endif
#ifdef USE_POSQ_CORRECTION
#define POSQ_CORRECTION_PARAMS , GLOBAL const POSITION_TYPE* RESTRICT posqCorrection
#define POSQ_CORRECTION_ARGS , posqCorrection
#else
#define POSQ_CORRECTION_PARAMS
#define POSQ_CORRECTION_ARGS
#endif

/**
 * The pair traversal's kernels and the centres: every kernel that reads a slot's position takes CENTER_KERNEL_PARAMS (last) and starts with PREPARE_CENTERS; the functions that
 * read a slot's position take CENTER_POSITION_PARAMS (last). Where the centres are small (CENTERS_IN_BLOCK) each
 * block computes them all at its start into local memory (centers.cc: the kernel's arguments are the centres'
 * member arrays); otherwise computeCenterPositions, launched first, wrote them into the global centerPositions (the
 * kernel's argument). The finish spreads the centres' gradient rows to their particles (CENTER_FINISH_PARAMS, last;
 * in a kernel that also has CENTER_KERNEL_PARAMS, only what those lack: CENTER_FUSED_FINISH_PARAMS). Without
 * centres they are empty: the code is that of a force without them.
 */
#ifdef HAS_CENTERS
/** The centres' member arrays (what blockCenterPosition reads). */
#define CENTER_MEMBER_PARAMS , GLOBAL const int* RESTRICT centerAtoms, GLOBAL const int* RESTRICT centerFirstEntry, \
        GLOBAL const real* RESTRICT centerForceWeights, GLOBAL const real* RESTRICT centerDifferenceWeights, \
        GLOBAL const int* RESTRICT centerWhole
#define CENTER_MEMBER_ARGS , centerAtoms, centerFirstEntry, centerForceWeights, centerDifferenceWeights, centerWhole
#ifdef CENTERS_IN_BLOCK
#define CENTER_KERNEL_PARAMS CENTER_MEMBER_PARAMS
#define CENTER_POSITION_PARAMS , LOCAL_ARG const real4* RESTRICT centerPositions
#define CENTER_FUSED_FINISH_PARAMS , GLOBAL const int* RESTRICT centerOfEntry
#else
#define CENTER_KERNEL_PARAMS , GLOBAL const real4* RESTRICT centerPositions
#define CENTER_POSITION_PARAMS , GLOBAL const real4* RESTRICT centerPositions
#define CENTER_FUSED_FINISH_PARAMS CENTER_FINISH_PARAMS
#endif
#define CENTER_POSITION_ARGS , centerPositions
#define CENTER_FINISH_PARAMS , GLOBAL const int* RESTRICT centerAtoms, GLOBAL const int* RESTRICT centerOfEntry, \
        GLOBAL const real* RESTRICT centerForceWeights
#define CENTER_FINISH_ARGS , centerAtoms, centerOfEntry, centerForceWeights
#else
#define CENTER_MEMBER_PARAMS
#define CENTER_MEMBER_ARGS
#define CENTER_KERNEL_PARAMS
#define CENTER_POSITION_PARAMS
#define CENTER_POSITION_ARGS
#define CENTER_FINISH_PARAMS
#define CENTER_FUSED_FINISH_PARAMS
#define CENTER_FINISH_ARGS
#endif

/**
 * A slot's position: its atom's as the user sees it, or its centre's. OpenMM may have wrapped atoms into the
 * periodic box one molecule at a time (cellOffsets counts the box vectors it subtracted); a force that uses
 * periodic boundary conditions does not care, one that does not must undo the wrapping (a centre's position is
 * computed from its particles' unwrapped positions where that matters).
 */
DEVICE real3 atomPosition(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets, int atom,
                          int unique, real4 periodicBoxVecX, real4 periodicBoxVecY, real4 periodicBoxVecZ
                          CENTER_POSITION_PARAMS) {
#ifdef HAS_CENTERS
    if (atom >= NUM_ATOMS) {
        const real4 center = centerPositions[atom - NUM_ATOMS];
        return make_real3(center.x, center.y, center.z);
    }
#endif
    real4 pos = posq[atom];
#ifdef USE_PERIODIC
    return make_real3(pos.x, pos.y, pos.z);
#else
    return unwrappedPosition(pos, cellOffsets[unique], periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
#endif
}

#ifdef HAS_CENTERS

/** A member entry's particle position (as the user sees it where CENTER_OFFSETS). */
DEVICE real3 centerMemberPosition(GLOBAL const POSITION_TYPE* RESTRICT posq POSQ_CORRECTION_PARAMS,
        GLOBAL const int4* RESTRICT cellOffsets, GLOBAL const int* RESTRICT centerAtoms, int entry,
        real4 periodicBoxVecX, real4 periodicBoxVecY, real4 periodicBoxVecZ) {
    const int atom = centerAtoms[entry];
    const POSITION_TYPE stored = posq[atom];
#ifdef USE_POSQ_CORRECTION
    const POSITION_TYPE correction = posqCorrection[atom];
    const real4 pos = make_real4((real) stored.x + (real) correction.x, (real) stored.y + (real) correction.y,
                                 (real) stored.z + (real) correction.z, 0);
#else
    const real4 pos = make_real4(stored.x, stored.y, stored.z, stored.w);
#endif
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
 * order, CENTER_BATCH at a time with all their loads issued before the first is used (the batch's loops unrolled and
 * free of branches, so that it stays in registers: in local memory each entry waits for its own loads; DESIGN.md);
 * then a fixed tree over the lanes. The order does not depend on the block's size: every block of every kernel gets
 * the same bits. A centre with a particle whose position is not finite is NaN (the slots that read it raise
 * nonFiniteFlags).
 */
DEVICE real4 blockCenterPosition(int center, GLOBAL const POSITION_TYPE* RESTRICT posq POSQ_CORRECTION_PARAMS,
        GLOBAL const int4* RESTRICT cellOffsets CENTER_MEMBER_PARAMS, BOX_PARAMS, LOCAL_ARG real* sums,
        LOCAL_ARG int* invalid) {
    const int first = centerFirstEntry[center], end = centerFirstEntry[center + 1];
    const bool whole = (centerWhole[center] != 0);
    const real3 origin = centerMemberPosition(posq POSQ_CORRECTION_ARGS, cellOffsets, centerAtoms, first, periodicBoxVecX, periodicBoxVecY,
                                              periodicBoxVecZ);
    for (int lane = LOCAL_ID; lane < CENTER_LANES; lane += LOCAL_SIZE) {
        real3 sum = make_real3(0, 0, 0);
        int notFinite = 0;
        for (int base = first + lane; base < end; base += CENTER_BATCH * CENTER_LANES) {
            // Every load of the batch is issued before the first is used (unrolled, no branch: an entry past the end
            // reads the last one, and is left out below), so the lane waits for memory once per batch.
            real3 pos[CENTER_BATCH], previous[CENTER_BATCH];
            real weight[CENTER_BATCH];
#pragma unroll
            for (int b = 0; b < CENTER_BATCH; b++) {
                const int entry = min(base + b * CENTER_LANES, end - 1);
                pos[b] = centerMemberPosition(posq POSQ_CORRECTION_ARGS, cellOffsets, centerAtoms, entry,
                                              periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
                previous[b] = (whole ? centerMemberPosition(posq POSQ_CORRECTION_ARGS, cellOffsets, centerAtoms,
                                                            max(entry - 1, first), periodicBoxVecX, periodicBoxVecY,
                                                            periodicBoxVecZ)
                                     : origin);
                weight[b] = (whole ? centerDifferenceWeights[entry] : centerForceWeights[entry]);
            }
#pragma unroll
            for (int b = 0; b < CENTER_BATCH; b++) {
                const int entry = base + b * CENTER_LANES;
                if (entry < end) {
                    notFinite |= (isFinitePosition(pos[b]) ? 0 : 1);
                    if (entry != first) { // (the origin adds nothing)
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

/**
 * The positions of centres first, first + stride, ... by the calling block into the global centerPositions (every
 * thread of the block calls it: it holds barriers). sums, invalid: local memory of 3 * CENTER_LANES and CENTER_LANES.
 */
DEVICE void computeCentersByBlock(int first, int stride, GLOBAL const POSITION_TYPE* RESTRICT posq POSQ_CORRECTION_PARAMS,
        GLOBAL const int4* RESTRICT cellOffsets CENTER_MEMBER_PARAMS, GLOBAL real4* RESTRICT centerPositions,
        BOX_PARAMS, LOCAL_ARG real* sums, LOCAL_ARG int* invalid) {
    // The same number of iterations in every thread of a block (the function holds barriers).
    for (int center = first; center < NUM_CENTERS; center += stride) {
        const real4 position = blockCenterPosition(center, posq POSQ_CORRECTION_ARGS, cellOffsets CENTER_MEMBER_ARGS,
                                                   BOX_ARGS, sums, invalid);
        if (LOCAL_ID == 0)
            centerPositions[center] = position;
    }
}

/**
 * Every centre's position this evaluation, a block per centre, into centerPositions (launched first in each
 * evaluation, where the centres are too large to compute in every block).
 */
KERNEL void computeCenterPositions(GLOBAL const POSITION_TYPE* RESTRICT posq POSQ_CORRECTION_PARAMS,
        GLOBAL const int4* RESTRICT cellOffsets CENTER_MEMBER_PARAMS, GLOBAL real4* RESTRICT centerPositions,
        BOX_PARAMS) {
    LOCAL real sums[3 * CENTER_LANES];
    LOCAL int invalid[CENTER_LANES];
    computeCentersByBlock(GROUP_ID, NUM_GROUPS, posq POSQ_CORRECTION_ARGS, cellOffsets CENTER_MEMBER_ARGS,
                          centerPositions, BOX_ARGS, sums, invalid);
}

/**
 * The forces on the centres spread to their particles, w_j / W each (dc/dx_j), by member entries first,
 * first + stride, ...: the force on centre k is scale times the 64-bit fixed-point row
 * rows[rowBase + k * centerStride + component * componentStride].
 */
DEVICE void spreadCenterForces(int first, int stride, real scale, GLOBAL volatile const mm_long* rows, int rowBase,
        int centerStride, int componentStride, GLOBAL const int* RESTRICT centerAtoms,
        GLOBAL const int* RESTRICT centerOfEntry, GLOBAL const real* RESTRICT centerForceWeights,
        GLOBAL mm_ulong* RESTRICT forceBuffers) {
    for (int entry = first; entry < NUM_CENTER_ENTRIES; entry += stride) {
        const int row = rowBase + centerOfEntry[entry] * centerStride;
        const int atom = centerAtoms[entry];
        const real entryScale = scale * centerForceWeights[entry];
        for (int component = 0; component < 3; component++)
            ATOMIC_ADD(&forceBuffers[atom + component * PADDED_NUM_ATOMS],
                       (mm_ulong) realToFixedPoint(entryScale * (real) rows[row + component * componentStride]));
    }
}

#ifdef CENTERS_IN_BLOCK
/**
 * The start of a pair traversal's kernel that reads slots' positions: every centre's position into the block's
 * local memory (centerPositions, which atomPosition then reads). Every thread of the block must reach it.
 */
#define PREPARE_CENTERS \
    LOCAL real4 centerPositions[NUM_CENTERS]; \
    LOCAL real centerSums[3 * CENTER_LANES]; \
    LOCAL int centerInvalid[CENTER_LANES]; \
    for (int center = 0; center < NUM_CENTERS; center++) { \
        const real4 centerPosition = blockCenterPosition(center, posq POSQ_CORRECTION_ARGS, cellOffsets \
                CENTER_MEMBER_ARGS, BOX_ARGS, centerSums, centerInvalid); \
        if (LOCAL_ID == 0) \
            centerPositions[center] = centerPosition; \
    } \
    SYNC_THREADS;
#else
#define PREPARE_CENTERS
#endif

#else
#define PREPARE_CENTERS
#endif
