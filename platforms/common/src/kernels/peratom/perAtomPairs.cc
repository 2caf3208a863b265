/**
 * The per-atom engine's pair passes (the per-atom forces; compiled only into their programs, which define
 * COORDINATION_NUMBERS), as the body of the tile kernel (kernels/pairs/tiles.cc): the NUM_COMPONENTS values v of each
 * entry of group A (perAtomTerms.cc: CoordinationNumberForce's c_i, SteinhardtForce's sigma and sigma Y_lm), and the
 * forces of an energy of their reductions (perAtomFinish.cc). An evaluation is:
 *   pass 1  the tile kernel (numbersPass 1) adds each pair's terms to v of its entries (Self: both, the column's by
 *           COLUMN_SIGN; Dual: A's), in 64-bit fixed point (numbersFixed: per component hi rows, then lo rows, one
 *           per sorted slot of A);
 *   finish  perAtomFinish.cc: the per-atom step q_i of v_i in A's order, the reductions, E and dE/dR, and the
 *           weights dE/dv_i of each entry;
 *   pass 2  the tile kernel (numbersPass 2) adds the gradient of the pair's terms weighted by both entries' weights
 *           (Self; Dual: the row's) to the gradient rows, which the force finish applies with dE/ds = 1.
 * Host defines: NUMBER_PAIR_LIMIT (CommonPerAtomProgram), and perAtomTerms.cc's.
 *
 * The fixed point holds |v| below 2^43 (hi is v * 2^20 in 64 bits). Each value that becomes fixed point (a pair's
 * term in local memory; a tile's sum of terms over a row or a column in mixed precision, which has at least the size
 * of each of its terms where they share a sign) must be below NUMBER_PAIR_LIMIT in magnitude, 2^42 over the entries
 * of the other group: an entry meets at most that many such values, so their sum cannot wrap around. One that is not,
 * or is not finite, sets numberState[2] (beyondNumberRange), and the finish gives that evaluation NaN numbers, a NaN
 * energy and no force.
 *
 * Column sums with several components: with shuffles they rotate with their column as the single sum does (K
 * shuffles a step); in local memory, per-pair fixed-point column sums of K components would need about 10 KB of
 * local memory per component per block, so there vectorSweepLocal sums each direction in its owner's registers
 * instead (Self mode evaluates each pair twice).
 */
/**
 * With the local neighbours' own partners (NEIGHBOR_PARTNERS; ResolvedPerAtomForce::countsPair) each sorted row of A
 * has a class (slotClassA: 1 central, 2 a neighbour) and each of B one (slotClassB: 1 the centrals' partner, 2 the
 * neighbours'). A tile passes the row's class as its `validRow` (0: no row) and puts the column's in its w (0: no
 * column), and includeNumberPair counts a pair where the two agree; no tile takes the unchecked path. Without, both
 * are 1 for every row and column.
 */
#ifdef NEIGHBOR_PARTNERS
#define NUMBER_CLASS_PARAMS , GLOBAL const int* RESTRICT slotClassA, GLOBAL const int* RESTRICT slotClassB
#define NUMBER_CLASS_ARGS , slotClassA, slotClassB
#else
#define NUMBER_CLASS_PARAMS
#define NUMBER_CLASS_ARGS
#endif

#ifdef USE_WARP_SHUFFLE
/**
 * Pass 1 of one tile by shuffles (as tilePairsShuffled): this lane's row sums and its column's sums of the terms
 * (NUM_COMPONENTS each), added to their fixed-point rows. Each sum is accumulated in mixed precision over the tile's
 * 32 steps, in their fixed order, and converted to fixed point once: the same tile gives the same bits, and the
 * tiles' fixed-point sums add up to the same values in any order.
 */
DEVICE void numberValuesShuffled(const bool checked, const bool diagonal, const int lane, real4 column,
        const real3 rowPos, const RowClass validRow, const bool validColumn, const int rowSlot, const int columnSlot,
        GLOBAL mm_long* RESTRICT numbersFixed, bool* beyondRange, const bool wrap, BOX_PARAMS) {
    mixed sum[NUM_COMPONENTS], held[NUM_COMPONENTS];
    for (int c = 0; c < NUM_COMPONENTS; c++) {
        sum[c] = 0;
        held[c] = 0;
    }
    const int source = (lane + 1) & (TILE_SIZE - 1);
    for (int k = 0; k < TILE_SIZE; k++) {
        if (includeNumberPair(checked, diagonal ? 1 : 0, lane, k, column.w, validRow)) {
            real3 delta = make_real3(column.x - rowPos.x, column.y - rowPos.y, column.z - rowPos.z);
            real terms[NUM_COMPONENTS];
            pairTerms(&delta, terms, wrap, BOX_ARGS);
            for (int c = 0; c < NUM_COMPONENTS; c++) {
                sum[c] += terms[c];
                held[c] += (COLUMN_SIGN(c) > 0 ? terms[c] : -terms[c]);
            }
        }
        column = rotateColumn(column, source, checked);
#ifdef MODE_SELF
        for (int c = 0; c < NUM_COMPONENTS; c++)
            held[c] = __shfl_sync(0xffffffff, held[c], source);
#endif
    }
    // The range check once per sum that becomes fixed point (above), not per pair. Each sum is added as soon as it
    // is converted (converting them all first held 4 NUM_COMPONENTS 64-bit numbers at once).
    bool beyond = false;
    for (int c = 0; c < NUM_COMPONENTS; c++) {
        beyond = beyond || beyondNumberRange(sum[c]) || beyondNumberRange(held[c]);
        if (validRow)
            addSumToNumber(numbersFixed, c, rowSlot, sum[c]);
#ifdef MODE_SELF
        if (validColumn)
            addSumToNumber(numbersFixed, c, columnSlot, held[c]);
#endif
    }
    *beyondRange = beyond;
}

/**
 * Pass 2 of one tile by shuffles: the row's and the column's gradient of sum_c (w_row,c + COLUMN_SIGN(c) w_column,c)
 * term_c (the column's weights rotate with it).
 */
DEVICE void numberForcesShuffled(const bool checked, const bool diagonal, const int lane, real4 column,
        const real* weightsOfColumn, const real3 rowPos, const real* rowWeights, const RowClass validRow,
        real3* rowGradient, real3* columnGradient, const bool wrap, BOX_PARAMS) {
    real3 gradientSum = make_real3(0, 0, 0);
    real3 held = make_real3(0, 0, 0);
    real columnWeight[NUM_COMPONENTS];
    for (int c = 0; c < NUM_COMPONENTS; c++)
        columnWeight[c] = weightsOfColumn[c];
    const int source = (lane + 1) & (TILE_SIZE - 1);
    for (int k = 0; k < TILE_SIZE; k++) {
        if (includeNumberPair(checked, diagonal ? 1 : 0, lane, k, column.w, validRow)) {
            real3 delta = make_real3(column.x - rowPos.x, column.y - rowPos.y, column.z - rowPos.z);
            real weights[NUM_COMPONENTS];
            for (int c = 0; c < NUM_COMPONENTS; c++)
                weights[c] = rowWeights[c] + (COLUMN_SIGN(c) > 0 ? columnWeight[c] : -columnWeight[c]);
            addPairGradient(pairGradient(&delta, weights, false, wrap, BOX_ARGS), &gradientSum, &held);
        }
        column = rotateColumn(column, source, checked);
#ifdef MODE_SELF
        for (int c = 0; c < NUM_COMPONENTS; c++)
            columnWeight[c] = __shfl_sync(0xffffffff, columnWeight[c], source);
#endif
        held = rotateReal3(held, source);
    }
    *rowGradient = gradientSum;
    *columnGradient = held;
}
#else
/**
 * Pass 1 or 2 of one tile in local memory (as tilePairs: the columns stored twice). Pass 1: the row's sum of v,
 * the columns' sums in columnTotal[].x. Pass 2: the row's gradient, the columns' in columnTotal. One loop for both
 * passes, so that the tile has one sequence of barriers whatever the pass (OpenCL on a CPU).
 */
DEVICE void numberPairsLocal(const int pass, const bool checked, const bool diagonal, const int lane,
        LOCAL_ARG const real4* columnPos, LOCAL_ARG const real* columnWeight, LOCAL_ARG real3* columnTotal,
        LOCAL_ARG mm_long* columnHi, LOCAL_ARG mm_long* columnLo, const real3 rowPos, const real rowWeight,
        const RowClass validRow, mm_long* rowHi, mm_long* rowLo, real3* rowGradient, bool* beyondRange, const bool wrap,
        BOX_PARAMS) {
    mm_long sumHi = 0, sumLo = 0;
    real3 gradientSum = make_real3(0, 0, 0);
    for (int k = 0; k < TILE_SIZE; k++) {
        const int index = lane + k;
        const real4 other = columnPos[index];
        if (includeNumberPair(checked, diagonal, lane, k, other.w, validRow)) {
            real3 delta = make_real3(other.x - rowPos.x, other.y - rowPos.y, other.z - rowPos.z);
            real scale;
            const real value = numberPair(&delta, &scale, wrap, BOX_ARGS);
            real3 total = columnTotal[index];
            if (pass == 1) {
                *beyondRange = *beyondRange || beyondNumberRange(value);
                mm_long hi = 0, lo = 0;
                addFixedNumber(&hi, &lo, (*beyondRange ? (real) 0 : value));
                sumHi += hi;
                sumLo += lo;
                columnHi[index] += hi;
                columnLo[index] += lo;
            }
            else {
                const real weight = rowWeight + columnWeight[index];
                const real factor = (weight == 0 ? (real) 0 : weight * scale); // (beyond range: weights 0, scale inf)
                addPairGradient(make_real3(delta.x * factor, delta.y * factor, delta.z * factor), &gradientSum, &total);
            }
            columnTotal[index] = total;
        }
        SYNC_WARPS;
    }
    *rowHi = sumHi;
    *rowLo = sumLo;
    *rowGradient = gradientSum;
}

#ifndef NUMBER_TERM
/**
 * One sweep of a tile in local memory for several components, whose column sums would not fit in local memory:
 * the owner (this lane's row, or in Self mode's second sweep its column) meets the others (others[lane + k], stored
 * twice) and sums its own terms in mixed precision in the tile's fixed order, then adds them to its fixed-point rows
 * (pass 1), or adds the gradient of its own weighted terms: -g to its own gradient, +g to the other's (pass 2;
 * othersGradient, doubled as columnGradient).
 * Self mode runs it twice (the rows over the columns, then the columns over the rows), each pair once per
 * direction.
 */
DEVICE void vectorSweepLocal(const int pass, const bool checked, const int diagonal, const int lane,
        LOCAL_ARG const real4* others, LOCAL_ARG real3* othersGradient, const real3 ownPos, const real* ownWeights,
        const RowClass validOwn, const int ownSlot, GLOBAL mm_long* RESTRICT numbersFixed, real3* ownGradient,
        bool* beyondRange, const bool wrap, BOX_PARAMS) {
    mixed sum[NUM_COMPONENTS];
    for (int c = 0; c < NUM_COMPONENTS; c++)
        sum[c] = 0;
    real3 gradientSum = make_real3(0, 0, 0);
    for (int k = 0; k < TILE_SIZE; k++) {
        const int index = lane + k;
        const real4 other = others[index];
        if (includeNumberPair(checked, diagonal, lane, k, other.w, validOwn)) {
            real3 delta = make_real3(other.x - ownPos.x, other.y - ownPos.y, other.z - ownPos.z);
            if (pass == 1) {
                real terms[NUM_COMPONENTS];
                pairTerms(&delta, terms, wrap, BOX_ARGS);
                for (int c = 0; c < NUM_COMPONENTS; c++)
                    sum[c] += terms[c];
            }
            else {
                real3 total = othersGradient[index];
                addPairGradient(pairGradient(&delta, ownWeights, true, wrap, BOX_ARGS), &gradientSum, &total);
                othersGradient[index] = total;
            }
        }
        SYNC_WARPS;
    }
    bool beyond = *beyondRange;
    for (int c = 0; c < NUM_COMPONENTS; c++) {
        const bool outside = beyondNumberRange(sum[c]);
        beyond = beyond || outside;
        if (pass == 1 && validOwn)
            addSumToNumber(numbersFixed, c, ownSlot, outside ? (mixed) 0 : sum[c]);
    }
    *beyondRange = beyond;
    *ownGradient = gradientSum;
}
#endif
#endif

/**
 * One 32x32 tile of pass 1 or 2 (processTile's set-up done: row and column positions, images): lane t owns
 * row slot rowSlot (of A) and brings column slot columnSlot (Self: of A, Dual: of B; -1 none). fast: a full
 * tile off the diagonal (no per-pair test). Pass 1 adds v to the rows' (Self: and the columns') numbers, pass 2
 * the weighted gradient to the gradient rows (if computeGradient).
 */
DEVICE void numberTile(const bool fastTile, const bool diagonal, const bool singleCopy, const int lane, real4 column,
        const real3 rowPos, const bool validRowSlot, const bool validColumn, const int rowSlot, const int columnSlot,
        const int rowGradientRow, const int columnGradientRow, const int pass, GLOBAL mm_long* RESTRICT numbersFixed, GLOBAL const real* RESTRICT numberWeights,
        GLOBAL mm_long* RESTRICT gradientBuffer, const int computeGradient, BOX_PARAMS, LOCAL_ARG real4* columnPos,
        LOCAL_ARG real3* columnGradient, LOCAL_ARG real* columnWeight, LOCAL_ARG mm_long* columnFixed,
        GLOBAL int* RESTRICT numberState NUMBER_CLASS_PARAMS) {
#ifdef NEIGHBOR_PARTNERS
    // The row's and the column's classes (see NUMBER_CLASS_PARAMS): every tile checks each pair.
    const RowClass validRow = (validRowSlot ? slotClassA[rowSlot] : 0);
    column.w = (validColumn ? (real) slotClassB[columnSlot] : (real) 0);
    const bool fast = false;
#else
    const RowClass validRow = validRowSlot;
    const bool fast = fastTile;
#endif
#ifdef USE_WARP_SHUFFLE
    // Pass 2 of an evaluation without a finite energy adds nothing (numberState[0], numbersAddEnergy): it applies
    // no force, and a term beyond the fixed point's range may have no finite gradient. The same in every thread.
    // (The local-memory loop has barriers, which PoCL does not take after a return: it tests the weights instead.)
    if (pass == 2 && ((GLOBAL volatile const int*) numberState)[0] == 0)
        return;
#endif
    // The weights of the row's and (Self) the column's components, component c at row c * NUM_A + slot.
    real rowWeights[NUM_COMPONENTS], weightsOfColumn[NUM_COMPONENTS];
    for (int c = 0; c < NUM_COMPONENTS; c++) {
        rowWeights[c] = (pass == 2 && validRow ? numberWeights[c * NUM_A + rowSlot] : (real) 0);
#ifdef MODE_SELF
        weightsOfColumn[c] = (pass == 2 && validColumn ? numberWeights[c * NUM_A + columnSlot] : (real) 0);
#else
        weightsOfColumn[c] = 0;
#endif
    }
    bool beyondRange = false;
    real3 rowGradient = make_real3(0, 0, 0), columnTotal = make_real3(0, 0, 0);
#ifdef USE_WARP_SHUFFLE
    if (pass == 1) {
        if (fast && singleCopy)
            numberValuesShuffled(false, false, lane, column, rowPos, validRow, validColumn, rowSlot, columnSlot,
                                 numbersFixed, &beyondRange, false, BOX_ARGS);
        else if (fast)
            numberValuesShuffled(false, false, lane, column, rowPos, validRow, validColumn, rowSlot, columnSlot,
                                 numbersFixed, &beyondRange, true, BOX_ARGS);
        else
            numberValuesShuffled(true, diagonal, lane, column, rowPos, validRow, validColumn, rowSlot, columnSlot,
                                 numbersFixed, &beyondRange, !singleCopy, BOX_ARGS);
    }
    else {
        if (fast && singleCopy)
            numberForcesShuffled(false, false, lane, column, weightsOfColumn, rowPos, rowWeights, validRow, &rowGradient,
                                 &columnTotal, false, BOX_ARGS);
        else if (fast)
            numberForcesShuffled(false, false, lane, column, weightsOfColumn, rowPos, rowWeights, validRow, &rowGradient,
                                 &columnTotal, true, BOX_ARGS);
        else
            numberForcesShuffled(true, diagonal, lane, column, weightsOfColumn, rowPos, rowWeights, validRow, &rowGradient,
                                 &columnTotal, !singleCopy, BOX_ARGS);
    }
#elif defined(NUMBER_TERM)
    mm_long rowHi = 0, rowLo = 0;
    const int localBase = (LOCAL_ID / TILE_SIZE) * 2 * TILE_SIZE; // this warp's doubled columns
    columnPos[localBase + lane] = column;
    columnPos[localBase + lane + TILE_SIZE] = column;
    columnGradient[localBase + lane] = make_real3(0, 0, 0);
    columnGradient[localBase + lane + TILE_SIZE] = make_real3(0, 0, 0);
    columnWeight[localBase + lane] = weightsOfColumn[0];
    columnWeight[localBase + lane + TILE_SIZE] = weightsOfColumn[0];
    // Pass 1's column sums: hi in columnFixed[0, 2 * LOCAL_SIZE), lo after them.
    LOCAL_ARG mm_long* columnHiSums = columnFixed + localBase;
    LOCAL_ARG mm_long* columnLoSums = columnFixed + 2 * WARPS_PER_BLOCK * TILE_SIZE + localBase;
    columnHiSums[lane] = 0;
    columnHiSums[lane + TILE_SIZE] = 0;
    columnLoSums[lane] = 0;
    columnLoSums[lane + TILE_SIZE] = 0;
    SYNC_THREADS;
    numberPairsLocal(pass, !fast, diagonal, lane, columnPos + localBase, columnWeight + localBase,
                     columnGradient + localBase, columnHiSums, columnLoSums, rowPos, rowWeights[0], validRow, &rowHi,
                     &rowLo, &rowGradient, &beyondRange, !singleCopy, BOX_ARGS);
    SYNC_THREADS;
    const real3 first = columnGradient[localBase + lane], second = columnGradient[localBase + lane + TILE_SIZE];
    columnTotal = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    const mm_long columnHi = columnHiSums[lane] + columnHiSums[lane + TILE_SIZE];
    const mm_long columnLo = columnLoSums[lane] + columnLoSums[lane + TILE_SIZE];
    SYNC_THREADS;
    if (pass == 1) {
        if (validRow)
            addNumber(numbersFixed, rowSlot, rowHi, rowLo);
#ifdef MODE_SELF
        if (validColumn)
            addNumber(numbersFixed, columnSlot, columnHi, columnLo);
#endif
    }
#else
    // Several components: the rows sweep the columns, then (Self) the columns sweep the rows (vectorSweepLocal).
    const int localBase = (LOCAL_ID / TILE_SIZE) * 2 * TILE_SIZE; // this warp's doubled columns
    columnPos[localBase + lane] = column;
    columnPos[localBase + lane + TILE_SIZE] = column;
    columnGradient[localBase + lane] = make_real3(0, 0, 0);
    columnGradient[localBase + lane + TILE_SIZE] = make_real3(0, 0, 0);
    SYNC_THREADS;
    vectorSweepLocal(pass, !fast, diagonal ? 1 : 0, lane, columnPos + localBase, columnGradient + localBase, rowPos,
                     rowWeights, validRow, rowSlot, numbersFixed, &rowGradient, &beyondRange, !singleCopy, BOX_ARGS);
    SYNC_THREADS;
    real3 first = columnGradient[localBase + lane], second = columnGradient[localBase + lane + TILE_SIZE];
    columnTotal = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    SYNC_THREADS;
#ifdef MODE_SELF
    const real4 rowAsOther = make_real4(rowPos.x, rowPos.y, rowPos.z, validRow ? (real) 1 : (real) 0);
    columnPos[localBase + lane] = rowAsOther;
    columnPos[localBase + lane + TILE_SIZE] = rowAsOther;
    columnGradient[localBase + lane] = make_real3(0, 0, 0);
    columnGradient[localBase + lane + TILE_SIZE] = make_real3(0, 0, 0);
    SYNC_THREADS;
    real3 ownColumnGradient;
    vectorSweepLocal(pass, !fast, diagonal ? 2 : 0, lane, columnPos + localBase, columnGradient + localBase,
                     make_real3(column.x, column.y, column.z), weightsOfColumn, validColumn, columnSlot, numbersFixed,
                     &ownColumnGradient, &beyondRange, !singleCopy, BOX_ARGS);
    SYNC_THREADS;
    first = columnGradient[localBase + lane];
    second = columnGradient[localBase + lane + TILE_SIZE];
    rowGradient = make_real3(rowGradient.x + first.x + second.x, rowGradient.y + first.y + second.y,
                             rowGradient.z + first.z + second.z);
    columnTotal = make_real3(columnTotal.x + ownColumnGradient.x, columnTotal.y + ownColumnGradient.y,
                             columnTotal.z + ownColumnGradient.z);
    SYNC_THREADS;
#endif
#endif
    // (Pass 1's sums are in their fixed-point rows already.)
    if (pass == 1) {
        if (beyondRange)
            numberState[2] = 1;
    }
    else if (computeGradient) {
        if (validRow)
            addGradient(gradientBuffer, rowGradientRow, rowGradient);
        if (validColumn)
            addGradient(gradientBuffer, columnGradientRow, columnTotal);
    }
}

#define NUMBERS_TILE_PARAMS , const int numbersPass, GLOBAL mm_long* RESTRICT numbersFixed, \
        GLOBAL const real* RESTRICT numberWeights, LOCAL_ARG real* columnWeight, LOCAL_ARG mm_long* columnFixed, \
        GLOBAL int* RESTRICT numberState NUMBER_CLASS_PARAMS
#define NUMBERS_TILE_ARGS , numbersPass, numbersFixed, numberWeights, columnWeight, columnFixed, numberState \
        NUMBER_CLASS_ARGS
/** The tile kernel's arguments of the per-entry numbers (after the list's, before the fused finish's). */
#define NUMBERS_KERNEL_PARAMS , int numbersPass, GLOBAL mm_long* RESTRICT numbersFixed, \
        GLOBAL real* RESTRICT numberWeights, GLOBAL const int* RESTRICT rowOfSlotA, \
        GLOBAL mixed* RESTRICT numberValues, GLOBAL mixed* RESTRICT numberComponents, \
        GLOBAL mixed* RESTRICT numberResults, \
        GLOBAL mm_long* RESTRICT numberPartialFixed, GLOBAL mixed* RESTRICT numberPartialSums, \
        GLOBAL int* RESTRICT numberPartialIndices, GLOBAL mixed* RESTRICT numberCoefficients, \
        GLOBAL int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState NUMBER_CLASS_PARAMS
