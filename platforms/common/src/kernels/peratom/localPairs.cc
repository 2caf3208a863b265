/**
 * The local step's pair passes (a per-atom force with a local step; compiled only into the program of its second
 * traversal, over the pairs of group A with the local switching function t, which defines COORDINATION_NUMBERS and
 * LOCAL_SUMS), as the body of the tile kernel (kernels/pairs/tiles.cc):
 *   pass 1  each entry adds t x_j over its counted pairs (x: LOCAL_SUMS numbers per entry, localData, component c of
 *           sorted slot k at c * NUM_A + k) to its sums, in 64-bit fixed point (numbersFixed, as the per-atom
 *           engine's; perAtomFixed.cc): with x = [1, u] the local sums [W, P], with x = [1, G's P part] the sums
 *           sum_j t G_j that dE/du takes (perAtomFinish.cc prepares both);
 *   pass 2  the gradient of t, from dE/dt = G_i . [1, u_j] + G_j . [1, u_i] ([1, u, G] per entry, localForceData,
 *           2 LOCAL_SUMS numbers), into the gradient rows, which the force finish applies with dE/ds = 1.
 * Each pair is met once from each side (an owner sweeps the others of its tile, reading their data by slot): the owner
 * sums only its own numbers, and in pass 2 applies its own share G_own . [1, u_other] of dE/dt to both atoms. Self
 * mode (the local pairs are always of group A).
 * Host defines: LOCAL_SUMS, NUMBER_PAIR_LIMIT, and perAtomTerms.cc's numberPair's (CommonLocalStepBody).
 */

/**
 * One owner's sweep of the tile's others (pass 1: its sums of t x_other, in mixed precision in the tile's fixed
 * order, to fixed point once and added to its rows of numbersFixed; pass 2: its share of the gradient, -g to its own
 * and +g to the other's).
 * Shuffles: the others rotate round the warp with their slots and their gradient (heldGradient ends back on its own
 * lane). Local memory: others[lane + k], otherSlots[lane + k] and othersGradient[lane + k], stored twice.
 */
#ifdef USE_WARP_SHUFFLE
DEVICE void localSweep(const int pass, const bool checked, const int diagonal, const int lane, real4 other,
        int otherSlot, const real3 ownPos, const int ownSlot, const bool validOwn, const bool live,
        GLOBAL const real* RESTRICT data, GLOBAL mm_long* RESTRICT numbersFixed, real3* ownGradient,
        real3* heldGradient, bool* beyondRange, const bool wrap, BOX_PARAMS) {
#else
DEVICE void localSweep(const int pass, const bool checked, const int diagonal, const int lane,
        LOCAL_ARG const real4* others, LOCAL_ARG const mm_long* otherSlots, LOCAL_ARG real3* othersGradient,
        const real3 ownPos, const int ownSlot, const bool validOwn, const bool live, GLOBAL const real* RESTRICT data,
        GLOBAL mm_long* RESTRICT numbersFixed, real3* ownGradient, bool* beyondRange, const bool wrap, BOX_PARAMS) {
#endif
    mixed sum[LOCAL_SUMS];
    real ownShare[LOCAL_SUMS]; // pass 2: G_own (0 where the evaluation has no finite energy: live false)
    for (int c = 0; c < LOCAL_SUMS; c++) {
        sum[c] = 0;
        ownShare[c] = (pass == 2 && validOwn && live ? data[(LOCAL_SUMS + c) * NUM_A + ownSlot] : (real) 0);
    }
    real3 gradientSum = make_real3(0, 0, 0);
#ifdef USE_WARP_SHUFFLE
    real3 held = make_real3(0, 0, 0);
    const int source = (lane + 1) & (TILE_SIZE - 1);
#endif
    for (int k = 0; k < TILE_SIZE; k++) {
#ifndef USE_WARP_SHUFFLE
        const int index = lane + k;
        const real4 other = others[index];
        const int otherSlot = (int) otherSlots[index];
#endif
        if (includeNumberPair(checked, diagonal, lane, k, other.w, validOwn)) {
            real3 delta = make_real3(other.x - ownPos.x, other.y - ownPos.y, other.z - ownPos.z);
            real scale;
            const real t = numberPair(&delta, &scale, wrap, BOX_ARGS);
            if (t != 0) {
                if (pass == 1)
                    for (int c = 0; c < LOCAL_SUMS; c++)
                        sum[c] += (mixed) t * (mixed) data[c * NUM_A + otherSlot];
                else if (live) {
                    // The owner's share of dE/dt: G_own . [1, u_other] (the other's first LOCAL_SUMS numbers); none
                    // where the evaluation has no finite energy, whose u may be NaN (0 * NaN in the gradient rows).
                    real share = 0;
                    for (int c = 0; c < LOCAL_SUMS; c++)
                        share += ownShare[c] * data[c * NUM_A + otherSlot];
                    const real factor = share * scale;
#ifdef USE_WARP_SHUFFLE
                    addPairGradient(make_real3(delta.x * factor, delta.y * factor, delta.z * factor), &gradientSum, &held);
#else
                    real3 total = othersGradient[index];
                    addPairGradient(make_real3(delta.x * factor, delta.y * factor, delta.z * factor), &gradientSum, &total);
                    othersGradient[index] = total;
#endif
                }
            }
        }
#ifdef USE_WARP_SHUFFLE
        other = rotateColumn(other, source, checked);
        otherSlot = __shfl_sync(0xffffffff, otherSlot, source);
        held = rotateReal3(held, source);
#else
        SYNC_WARPS;
#endif
    }
    bool beyond = *beyondRange;
    for (int c = 0; c < LOCAL_SUMS; c++) {
        const bool outside = beyondNumberRange(sum[c]);
        beyond = beyond || outside;
        if (pass == 1 && validOwn)
            addSumToNumber(numbersFixed, c, ownSlot, outside ? (mixed) 0 : sum[c]);
    }
    *beyondRange = beyond;
    *ownGradient = gradientSum;
#ifdef USE_WARP_SHUFFLE
    *heldGradient = held;
#endif
}

/**
 * One 32x32 tile of pass 1 or 2 (tiles.cc's processTile set-up done): the rows sweep the columns, then the columns
 * sweep the rows; pass 1 adds each owner's sums to its fixed-point rows (numbersFixed) as its sweep ends (holding
 * one sweep's sums at a time), pass 2 the gradients to the gradient rows (if computeGradient). numberWeights is the pass's data (localData, or localForceData in pass 2).
 */
DEVICE void numberTile(const bool fast, const bool diagonal, const bool singleCopy, const int lane, const real4 column,
        const real3 rowPos, const bool validRow, const bool validColumn, const int rowSlot, const int columnSlot,
        const int rowGradientRow, const int columnGradientRow, const int pass, GLOBAL mm_long* RESTRICT numbersFixed,
        GLOBAL const real* RESTRICT numberWeights, GLOBAL mm_long* RESTRICT gradientBuffer, const int computeGradient,
        BOX_PARAMS, LOCAL_ARG real4* columnPos, LOCAL_ARG real3* columnGradient, LOCAL_ARG real* columnWeight,
        LOCAL_ARG mm_long* columnFixed, GLOBAL int* RESTRICT numberState) {
#ifdef USE_WARP_SHUFFLE
    // Pass 2 of an evaluation without a finite energy adds nothing (numberState[0], perAtomFinish.cc).
    if (pass == 2 && ((GLOBAL volatile const int*) numberState)[0] == 0)
        return;
#endif
    const bool checked = !fast;
    const bool live = (pass == 1 || ((GLOBAL volatile const int*) numberState)[0] != 0);
    const bool wrap = (fast && singleCopy ? false : (fast ? true : !singleCopy));
    bool beyondRange = false;
    real3 rowGradient, columnTotal, rowHeld, columnHeld;
    const real4 rowAsOther = make_real4(rowPos.x, rowPos.y, rowPos.z, validRow ? (real) 1 : (real) 0);
    const real3 columnPosition = make_real3(column.x, column.y, column.z);
#ifdef USE_WARP_SHUFFLE
    localSweep(pass, checked, diagonal ? 1 : 0, lane, column, validColumn ? columnSlot : 0, rowPos, rowSlot, validRow,
               live, numberWeights, numbersFixed, &rowGradient, &columnHeld, &beyondRange, wrap, BOX_ARGS);
    localSweep(pass, checked, diagonal ? 2 : 0, lane, rowAsOther, validRow ? rowSlot : 0, columnPosition, columnSlot,
               validColumn, live, numberWeights, numbersFixed, &columnTotal, &rowHeld, &beyondRange, wrap, BOX_ARGS);
#else
    const int localBase = (LOCAL_ID / TILE_SIZE) * 2 * TILE_SIZE; // this warp's doubled others
    LOCAL_ARG mm_long* otherSlots = columnFixed + localBase;
    columnPos[localBase + lane] = column;
    columnPos[localBase + lane + TILE_SIZE] = column;
    otherSlots[lane] = (validColumn ? columnSlot : 0);
    otherSlots[lane + TILE_SIZE] = (validColumn ? columnSlot : 0);
    columnGradient[localBase + lane] = make_real3(0, 0, 0);
    columnGradient[localBase + lane + TILE_SIZE] = make_real3(0, 0, 0);
    SYNC_THREADS;
    localSweep(pass, checked, diagonal ? 1 : 0, lane, columnPos + localBase, otherSlots, columnGradient + localBase,
               rowPos, rowSlot, validRow, live, numberWeights, numbersFixed, &rowGradient, &beyondRange, wrap, BOX_ARGS);
    SYNC_THREADS;
    real3 first = columnGradient[localBase + lane], second = columnGradient[localBase + lane + TILE_SIZE];
    columnHeld = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    SYNC_THREADS;
    columnPos[localBase + lane] = rowAsOther;
    columnPos[localBase + lane + TILE_SIZE] = rowAsOther;
    otherSlots[lane] = (validRow ? rowSlot : 0);
    otherSlots[lane + TILE_SIZE] = (validRow ? rowSlot : 0);
    columnGradient[localBase + lane] = make_real3(0, 0, 0);
    columnGradient[localBase + lane + TILE_SIZE] = make_real3(0, 0, 0);
    SYNC_THREADS;
    localSweep(pass, checked, diagonal ? 2 : 0, lane, columnPos + localBase, otherSlots, columnGradient + localBase,
               columnPosition, columnSlot, validColumn, live, numberWeights, numbersFixed, &columnTotal, &beyondRange,
               wrap, BOX_ARGS);
    SYNC_THREADS;
    first = columnGradient[localBase + lane];
    second = columnGradient[localBase + lane + TILE_SIZE];
    rowHeld = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    SYNC_THREADS;
#endif
    if (pass == 1) {
        if (beyondRange)
            numberState[2] = 1;
    }
    else if (computeGradient) {
        if (validRow)
            addGradient(gradientBuffer, rowGradientRow,
                        make_real3(rowGradient.x + rowHeld.x, rowGradient.y + rowHeld.y, rowGradient.z + rowHeld.z));
        if (validColumn)
            addGradient(gradientBuffer, columnGradientRow,
                        make_real3(columnTotal.x + columnHeld.x, columnTotal.y + columnHeld.y,
                                   columnTotal.z + columnHeld.z));
    }
}

#define NUMBERS_TILE_PARAMS , const int numbersPass, GLOBAL mm_long* RESTRICT numbersFixed, \
        GLOBAL const real* RESTRICT numberWeights, LOCAL_ARG real* columnWeight, LOCAL_ARG mm_long* columnFixed, \
        GLOBAL int* RESTRICT numberState
#define NUMBERS_TILE_ARGS , numbersPass, numbersFixed, numberWeights, columnWeight, columnFixed, numberState
/** The tile kernel's arguments of the local step (after the list's). */
#define NUMBERS_KERNEL_PARAMS , int numbersPass, GLOBAL mm_long* RESTRICT numbersFixed, \
        GLOBAL real* RESTRICT numberWeights, GLOBAL int* RESTRICT numberState

/** Restart the tile kernel's work counter before another pass of the same evaluation (the list's books). */
KERNEL void restartLocalPass(GLOBAL int* RESTRICT listState) {
#ifdef USE_NEIGHBOR_LIST
    if (GLOBAL_ID == 0)
        listState[LIST_STATE_NEXT_ITEM] = 0;
#endif
}
