/**
 * The per-atom engine's pair passes (CoordinationNumberForce; compiled only into its program, which defines
 * COORDINATION_NUMBERS), as the body of the tile kernel (kernels/pairs/tiles.cc): the coordination number c_i of each
 * entry of group A, and the forces of an energy of their reductions (perAtomFinish.cc). An evaluation is:
 *   pass 1  the tile kernel (numbersPass 1) adds each pair's v = sigma(r) r^p to c of its entries (Self: both,
 *           Dual: A's), in 64-bit fixed point (numbersFixed: hi rows, then lo rows, one per sorted slot of A);
 *   finish  perAtomFinish.cc: c in A's order, the reductions, E and dE/dR, and the weight w_i = dE/dc_i of each entry;
 *   pass 2  the tile kernel (numbersPass 2) adds (w_k + w_l) dv/dx (Self; Dual: w_k) to the gradient rows,
 *           which the force finish applies with dE/ds = 1.
 * Host defines: MIN_DISTANCE_SQUARED, MIN_SWITCH, R_POWER (where p != 0), NUMBER_PAIR_LIMIT (CommonPerAtomProgram).
 *
 * The fixed point holds |c| below 2^43 (hi is c * 2^20 in 64 bits). Each value that becomes fixed point (a pair's
 * term v in local memory; a tile's sum of v over a row or a column with shuffles, which has at least the size of each
 * of its terms where they share a sign) must be below NUMBER_PAIR_LIMIT in magnitude, 2^42 over the entries of the
 * other group: an entry meets at most that many such values, so their sum cannot wrap around. One that is not, or is
 * not finite, sets numberState[2] (beyondNumberRange), and the finish gives that evaluation NaN numbers, a NaN energy
 * and no force.
 */
/**
 * One pair's v = sigma(r) r^p, and (dv/dr)/r in *dValueOverR; both 0 where the pair does not count (r^2 below
 * MIN_DISTANCE_SQUARED, r beyond the cutoff, sigma below MIN_SWITCH). *delta (second - first) is wrapped to its
 * minimum image if wrap.
 */
DEVICE real numberPair(real3* delta, real* dValueOverR, const bool wrap, BOX_PARAMS) {
#ifdef USE_PERIODIC
    if (wrap)
        *delta = minimumImage(*delta, BOX_ARGS);
#endif
    const real r2 = delta->x * delta->x + delta->y * delta->y + delta->z * delta->z;
    real scale;
#ifdef BRANCHLESS_CUTOFF
    const real sigma = pairSwitch(r2, &scale);
    const bool counts = r2 >= (real) MIN_DISTANCE_SQUARED && r2 <= (real) CUTOFF_SQUARED && !(sigma < (real) MIN_SWITCH);
#else
#ifdef USE_CUTOFF
    if (r2 > (real) CUTOFF_SQUARED || r2 < (real) MIN_DISTANCE_SQUARED) {
#else
    if (r2 < (real) MIN_DISTANCE_SQUARED) {
#endif
        *dValueOverR = 0;
        return 0;
    }
    const real sigma = pairSwitch(r2, &scale);
    const bool counts = !(sigma < (real) MIN_SWITCH); // (a NaN sigma, a Custom function's, counts: c is NaN)
#endif
#ifdef R_POWER
    const real rToPower = pow(r2, (real) (0.5 * R_POWER));
    const real value = sigma * rToPower;
    scale = scale * rToPower + (real) R_POWER * value / r2;
#else
    const real value = sigma;
#endif
    *dValueOverR = (counts ? scale : (real) 0);
    return (counts ? value : (real) 0);
}

/** Whether lane `lane` meets a pair at step k of a tile (see includePair; no same-atom rule: r^2 decides). */
DEVICE bool includeNumberPair(const bool checked, const bool diagonal, const int lane, const int k,
        const real columnValid, const bool validRow) {
    bool include = true;
    if (checked) {
        include = validRow && columnValid != 0;
        if (diagonal)
            include = include && k > 0 && lane + k < TILE_SIZE;
    }
    return include;
}

/**
 * Add v to a fixed-point number: v * 2^20 = hi + lo * 2^-32, both integers (as addFixedPoint): c is then the same sum
 * in any order of the tiles.
 */
DEVICE void addFixedNumber(mm_long* hi, mm_long* lo, real value) {
    const real scaled = value * (real) 1048576;
    const real whole = floor(scaled);
    *hi += (mm_long) whole;
    *lo += (mm_long) ((scaled - whole) * (real) 4294967296.0);
}

/**
 * Whether a value that becomes fixed point (a pair's v, or a tile's sum of them) is NaN or not below NUMBER_PAIR_LIMIT
 * in magnitude.
 */
DEVICE bool beyondNumberRange(mixed value) {
    return !(fabs(value) < (mixed) NUMBER_PAIR_LIMIT);
}

/** Add a fixed-point sum to row `row` of the numbers (hi rows, then lo rows). */
DEVICE void addNumber(GLOBAL mm_long* RESTRICT numbersFixed, int row, mm_long hi, mm_long lo) {
    ATOMIC_ADD((GLOBAL mm_ulong*) &numbersFixed[row], (mm_ulong) hi);
    ATOMIC_ADD((GLOBAL mm_ulong*) &numbersFixed[row + NUM_A], (mm_ulong) lo);
}

DEVICE mixed fixedToNumber(mm_long hi, mm_long lo) {
    return (mixed) hi * (mixed) (1.0 / 1048576.0) + (mixed) lo * (mixed) (1.0 / 4503599627370496.0);
}

#ifdef USE_WARP_SHUFFLE
/**
 * Pass 1 of one tile by shuffles (as tilePairsShuffled): this lane's row sum and its column's sum of v. Each sum is
 * accumulated in mixed precision over the tile's 32 steps, in their fixed order, and converted to fixed point once:
 * the same tile gives the same bits, and the tiles' fixed-point sums add up to the same c in any order.
 */
DEVICE void numberValuesShuffled(const bool checked, const bool diagonal, const int lane, real4 column,
        const real3 rowPos, const bool validRow, mm_long* rowHi, mm_long* rowLo, mm_long* columnHi, mm_long* columnLo,
        bool* beyondRange, const bool wrap, BOX_PARAMS) {
    mixed sum = 0, held = 0;
    const int source = (lane + 1) & (TILE_SIZE - 1);
    for (int k = 0; k < TILE_SIZE; k++) {
        if (includeNumberPair(checked, diagonal, lane, k, column.w, validRow)) {
            real3 delta = make_real3(column.x - rowPos.x, column.y - rowPos.y, column.z - rowPos.z);
            real scale;
            const real value = numberPair(&delta, &scale, wrap, BOX_ARGS);
            sum += value;
            held += value;
        }
        column = rotateColumn(column, source, checked);
#ifdef MODE_SELF
        held = __shfl_sync(0xffffffff, held, source);
#endif
    }
    // The range check once per sum that becomes fixed point (above), not per pair.
    *beyondRange = beyondNumberRange(sum) || beyondNumberRange(held);
    const mixed scaledRow = sum * (mixed) 1048576, scaledColumn = held * (mixed) 1048576; // as addFixedNumber
    const mixed wholeRow = floor(scaledRow), wholeColumn = floor(scaledColumn);
    *rowHi = (mm_long) wholeRow;
    *rowLo = (mm_long) ((scaledRow - wholeRow) * (mixed) 4294967296.0);
    *columnHi = (mm_long) wholeColumn;
    *columnLo = (mm_long) ((scaledColumn - wholeColumn) * (mixed) 4294967296.0);
}

/** Pass 2 of one tile by shuffles: the row's and the column's gradient of sum (w_row + w_column) v. */
DEVICE void numberForcesShuffled(const bool checked, const bool diagonal, const int lane, real4 column,
        real columnWeight, const real3 rowPos, const real rowWeight, const bool validRow, real3* rowGradient,
        real3* columnGradient, const bool wrap, BOX_PARAMS) {
    real3 gradientSum = make_real3(0, 0, 0);
    real3 held = make_real3(0, 0, 0);
    const int source = (lane + 1) & (TILE_SIZE - 1);
    for (int k = 0; k < TILE_SIZE; k++) {
        if (includeNumberPair(checked, diagonal, lane, k, column.w, validRow)) {
            real3 delta = make_real3(column.x - rowPos.x, column.y - rowPos.y, column.z - rowPos.z);
            real scale;
            numberPair(&delta, &scale, wrap, BOX_ARGS);
            const real factor = (rowWeight + columnWeight) * scale;
            addPairGradient(make_real3(delta.x * factor, delta.y * factor, delta.z * factor), &gradientSum, &held);
        }
        column = rotateColumn(column, source, checked);
#ifdef MODE_SELF
        columnWeight = __shfl_sync(0xffffffff, columnWeight, source);
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
        const bool validRow, mm_long* rowHi, mm_long* rowLo, real3* rowGradient, bool* beyondRange, const bool wrap,
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
#endif

/**
 * One 32x32 tile of pass 1 or 2 (processTile's set-up done: row and column positions, images): lane t owns
 * row slot rowSlot (of A) and brings column slot columnSlot (Self: of A, Dual: of B; -1 none). fast: a full
 * tile off the diagonal (no per-pair test). Pass 1 adds v to the rows' (Self: and the columns') numbers, pass 2
 * the weighted gradient to the gradient rows (if computeGradient).
 */
DEVICE void numberTile(const bool fast, const bool diagonal, const bool singleCopy, const int lane, const real4 column,
        const real3 rowPos, const bool validRow, const bool validColumn, const int rowSlot, const int columnSlot,
        const int rowGradientRow, const int columnGradientRow, const int pass, GLOBAL mm_long* RESTRICT numbersFixed, GLOBAL const real* RESTRICT numberWeights,
        GLOBAL mm_long* RESTRICT gradientBuffer, const int computeGradient, BOX_PARAMS, LOCAL_ARG real4* columnPos,
        LOCAL_ARG real3* columnGradient, LOCAL_ARG real* columnWeight, LOCAL_ARG mm_long* columnFixed,
        GLOBAL int* RESTRICT numberState) {
#ifdef USE_WARP_SHUFFLE
    // Pass 2 of an evaluation without a finite energy adds nothing (numberState[0], numbersAddEnergy): it applies
    // no force, and a term beyond the fixed point's range may have no finite gradient. The same in every thread.
    // (The local-memory loop has barriers, which PoCL does not take after a return: it tests the weights instead.)
    if (pass == 2 && ((GLOBAL volatile const int*) numberState)[0] == 0)
        return;
#endif
    const real rowWeight = (pass == 2 && validRow ? numberWeights[rowSlot] : (real) 0);
#ifdef MODE_SELF
    const real weightOfColumn = (pass == 2 && validColumn ? numberWeights[columnSlot] : (real) 0);
#else
    const real weightOfColumn = 0;
#endif
    mm_long rowHi = 0, rowLo = 0, columnHi = 0, columnLo = 0;
    bool beyondRange = false;
    real3 rowGradient = make_real3(0, 0, 0), columnTotal = make_real3(0, 0, 0);
#ifdef USE_WARP_SHUFFLE
    if (pass == 1) {
        if (fast && singleCopy)
            numberValuesShuffled(false, false, lane, column, rowPos, validRow, &rowHi, &rowLo, &columnHi, &columnLo,
                                 &beyondRange, false, BOX_ARGS);
        else if (fast)
            numberValuesShuffled(false, false, lane, column, rowPos, validRow, &rowHi, &rowLo, &columnHi, &columnLo,
                                 &beyondRange, true, BOX_ARGS);
        else
            numberValuesShuffled(true, diagonal, lane, column, rowPos, validRow, &rowHi, &rowLo, &columnHi, &columnLo,
                                 &beyondRange, !singleCopy, BOX_ARGS);
    }
    else {
        if (fast && singleCopy)
            numberForcesShuffled(false, false, lane, column, weightOfColumn, rowPos, rowWeight, validRow, &rowGradient,
                                 &columnTotal, false, BOX_ARGS);
        else if (fast)
            numberForcesShuffled(false, false, lane, column, weightOfColumn, rowPos, rowWeight, validRow, &rowGradient,
                                 &columnTotal, true, BOX_ARGS);
        else
            numberForcesShuffled(true, diagonal, lane, column, weightOfColumn, rowPos, rowWeight, validRow, &rowGradient,
                                 &columnTotal, !singleCopy, BOX_ARGS);
    }
#else
    const int localBase = (LOCAL_ID / TILE_SIZE) * 2 * TILE_SIZE; // this warp's doubled columns
    columnPos[localBase + lane] = column;
    columnPos[localBase + lane + TILE_SIZE] = column;
    columnGradient[localBase + lane] = make_real3(0, 0, 0);
    columnGradient[localBase + lane + TILE_SIZE] = make_real3(0, 0, 0);
    columnWeight[localBase + lane] = weightOfColumn;
    columnWeight[localBase + lane + TILE_SIZE] = weightOfColumn;
    // Pass 1's column sums: hi in columnFixed[0, 2 * LOCAL_SIZE), lo after them.
    LOCAL_ARG mm_long* columnHiSums = columnFixed + localBase;
    LOCAL_ARG mm_long* columnLoSums = columnFixed + 2 * WARPS_PER_BLOCK * TILE_SIZE + localBase;
    columnHiSums[lane] = 0;
    columnHiSums[lane + TILE_SIZE] = 0;
    columnLoSums[lane] = 0;
    columnLoSums[lane + TILE_SIZE] = 0;
    SYNC_THREADS;
    numberPairsLocal(pass, !fast, diagonal, lane, columnPos + localBase, columnWeight + localBase,
                     columnGradient + localBase, columnHiSums, columnLoSums, rowPos, rowWeight, validRow, &rowHi,
                     &rowLo, &rowGradient, &beyondRange, !singleCopy, BOX_ARGS);
    SYNC_THREADS;
    const real3 first = columnGradient[localBase + lane], second = columnGradient[localBase + lane + TILE_SIZE];
    columnTotal = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    columnHi = columnHiSums[lane] + columnHiSums[lane + TILE_SIZE];
    columnLo = columnLoSums[lane] + columnLoSums[lane + TILE_SIZE];
    SYNC_THREADS;
#endif
    if (pass == 1) {
        if (beyondRange)
            numberState[2] = 1;
        if (validRow)
            addNumber(numbersFixed, rowSlot, rowHi, rowLo);
#ifdef MODE_SELF
        if (validColumn)
            addNumber(numbersFixed, columnSlot, columnHi, columnLo);
#endif
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
        GLOBAL int* RESTRICT numberState
#define NUMBERS_TILE_ARGS , numbersPass, numbersFixed, numberWeights, columnWeight, columnFixed, numberState
/** The tile kernel's arguments of the per-entry numbers (after the list's, before the fused finish's). */
#define NUMBERS_KERNEL_PARAMS , int numbersPass, GLOBAL mm_long* RESTRICT numbersFixed, \
        GLOBAL real* RESTRICT numberWeights, GLOBAL const int* RESTRICT rowOfSlotA, \
        GLOBAL mixed* RESTRICT numberValues, GLOBAL mixed* RESTRICT numberResults, \
        GLOBAL mm_long* RESTRICT numberPartialFixed, GLOBAL mixed* RESTRICT numberPartialSums, \
        GLOBAL int* RESTRICT numberPartialIndices, GLOBAL mixed* RESTRICT numberCoefficients, \
        GLOBAL int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState
