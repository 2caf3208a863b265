/**
 * Centres (HAS_CENTERS: PLUMED's COM and CENTER virtual atoms in a group). Centre k has the member entries
 * centerFirstEntry[k] .. centerFirstEntry[k + 1] - 1 (its particles in the user's order, repeats kept), and is
 *   made whole (centerWhole):  c = x_0 + sum_{j >= 1} (T_j / W) image(x_j - x_{j-1})   (centerDifferenceWeights)
 *   otherwise:                 c = x_0 + sum_{j >= 1} (w_j / W) (x_j - x_0)            (centerForceWeights)
 * (ResolvedCenters on the host: PLUMED's centre of the group made whole atom by atom, as one weighted sum; the
 * second form is sum_j (w_j / W) x_j, taken relative to x_0 for single precision's sake). Each evaluation starts
 * with computeCenterPositions, a block per centre; the slots of a centre then read its position (atomPosition),
 * its pairs' gradients go to its own gradient row (gradientRowOf), and the finish adds w_j / W of that row to
 * particle j's force, a thread per member entry.
 * Host defines: NUM_ATOMS, NUM_CENTERS, NUM_CENTER_ENTRIES, NUM_SLOT_ROWS, CENTER_BLOCK_SIZE; CENTER_OFFSETS
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
 * Every centre's position this evaluation, a block per centre: each thread sums the weighted terms of some member
 * entries, the block adds them up in a fixed order (deterministic). A centre with a particle whose position is not
 * finite is NaN and raises nonFiniteFlags[parity]. Also clears the centres' gradient rows, which the previous
 * evaluation's finish has read.
 */
KERNEL void computeCenterPositions(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT centerAtoms, GLOBAL const int* RESTRICT centerFirstEntry,
        GLOBAL const real* RESTRICT centerForceWeights, GLOBAL const real* RESTRICT centerDifferenceWeights,
        GLOBAL const int* RESTRICT centerWhole, GLOBAL real4* RESTRICT centerPositions,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL int* RESTRICT nonFiniteFlags, int parity, BOX_PARAMS) {
    LOCAL real sums[3 * CENTER_BLOCK_SIZE];
    LOCAL int invalid[CENTER_BLOCK_SIZE];
    // The same number of iterations in every thread of a block (the loop holds barriers).
    for (int center = GROUP_ID; center < NUM_CENTERS; center += NUM_GROUPS) {
        const int first = centerFirstEntry[center], end = centerFirstEntry[center + 1];
        const bool whole = (centerWhole[center] != 0);
        const real3 origin = centerMemberPosition(posq, cellOffsets, centerAtoms, first, periodicBoxVecX,
                                                  periodicBoxVecY, periodicBoxVecZ);
        real3 sum = make_real3(0, 0, 0);
        int notFinite = 0;
        for (int entry = first + LOCAL_ID; entry < end; entry += LOCAL_SIZE) {
            const real3 pos = centerMemberPosition(posq, cellOffsets, centerAtoms, entry, periodicBoxVecX,
                                                   periodicBoxVecY, periodicBoxVecZ);
            notFinite |= (isFinitePosition(pos) ? 0 : 1);
            if (entry == first)
                continue; // the origin
            real3 term;
            real weight;
            if (whole) {
                const real3 previous = centerMemberPosition(posq, cellOffsets, centerAtoms, entry - 1, periodicBoxVecX,
                                                            periodicBoxVecY, periodicBoxVecZ);
                term = minimumImage(make_real3(pos.x - previous.x, pos.y - previous.y, pos.z - previous.z), BOX_ARGS);
                weight = centerDifferenceWeights[entry];
            }
            else {
                term = make_real3(pos.x - origin.x, pos.y - origin.y, pos.z - origin.z);
                weight = centerForceWeights[entry];
            }
            sum.x += weight * term.x;
            sum.y += weight * term.y;
            sum.z += weight * term.z;
        }
        sums[LOCAL_ID] = sum.x;
        sums[LOCAL_ID + CENTER_BLOCK_SIZE] = sum.y;
        sums[LOCAL_ID + 2 * CENTER_BLOCK_SIZE] = sum.z;
        invalid[LOCAL_ID] = notFinite;
        SYNC_THREADS;
        for (int step = CENTER_BLOCK_SIZE / 2; step > 0; step /= 2) {
            if (LOCAL_ID < step) {
                for (int axis = 0; axis < 3; axis++)
                    sums[LOCAL_ID + axis * CENTER_BLOCK_SIZE] += sums[LOCAL_ID + step + axis * CENTER_BLOCK_SIZE];
                invalid[LOCAL_ID] |= invalid[LOCAL_ID + step];
            }
            SYNC_THREADS;
        }
        if (LOCAL_ID == 0) {
            if (invalid[0]) {
                centerPositions[center] = make_real4(NOT_A_NUMBER_REAL, NOT_A_NUMBER_REAL, NOT_A_NUMBER_REAL, 0);
                nonFiniteFlags[parity] = 1;
            }
            else
                centerPositions[center] = make_real4(origin.x + sums[0], origin.y + sums[CENTER_BLOCK_SIZE],
                                                     origin.z + sums[2 * CENTER_BLOCK_SIZE], 0);
            for (int component = 0; component < 3; component++)
                gradientBuffer[NUM_SLOT_ROWS + center + component * NUM_GRADIENT_ROWS] = 0;
        }
        SYNC_THREADS; // before the next centre overwrites the sums
    }
}

#endif
