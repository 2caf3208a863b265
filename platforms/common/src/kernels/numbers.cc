/**
 * CoordinationNumberForce (COORDINATION_NUMBERS): the coordination number c_i of each entry of group A,
 * reductions of them, and the forces of an energy of the reductions. An evaluation is:
 *   pass 1  the tile kernel (numbersPass 1) adds each pair's v = sigma(r) r^p to c of its entries (Self: both,
 *           Dual: A's), in 64-bit fixed point (numbersFixed: hi rows, then lo rows, one per sorted slot of A);
 *   finish  computeNumberSums, computeCentredNumberSums (Moment only), computeNumbersEnergy, computeNumberWeights,
 *           addNumbersEnergy (or all of them in the last block of pass 1, FUSED_FINISH): c in A's order, the
 *           reductions, E and dE/dR (code generated on the host), and the weight w_i = dE/dc_i of each entry;
 *   pass 2  the tile kernel (numbersPass 2) adds (w_k + w_l) dv/dx (Self; Dual: w_k) to the gradient rows,
 *           which the force finish applies with dE/ds = 1.
 * Host defines: NUM_REDUCTIONS, NUMBERS_BLOCK_SIZE, NUMBER_PARTS, NUMBERS_MEAN_INDEX, NUMBERS_CENTRED, MIN_DISTANCE_SQUARED,
 * MIN_SWITCH, R_POWER (where p != 0). Host replacements: NUMBERS_ENTRY_*, NUMBERS_CENTRED_*, NUMBERS_COMBINE,
 * NUMBERS_ENERGY, NUMBERS_STORE, NUMBERS_WEIGHT, NUMBERS_ADD_PARAMETER_DERIVATIVES (CommonCoordinationProgram).
 */
#ifdef COORDINATION_NUMBERS

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
    const bool counts = r2 >= (real) MIN_DISTANCE_SQUARED && r2 <= (real) CUTOFF_SQUARED && sigma >= (real) MIN_SWITCH;
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
    const bool counts = sigma >= (real) MIN_SWITCH;
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
        const bool wrap, BOX_PARAMS) {
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
        column.x = __shfl_sync(0xffffffff, column.x, source);
        column.y = __shfl_sync(0xffffffff, column.y, source);
        column.z = __shfl_sync(0xffffffff, column.z, source);
        if (checked)
            column.w = __shfl_sync(0xffffffff, column.w, source);
#ifdef MODE_SELF
        held = __shfl_sync(0xffffffff, held, source);
#endif
    }
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
            const real3 gradient = make_real3(delta.x * factor, delta.y * factor, delta.z * factor);
            gradientSum.x -= gradient.x;
            gradientSum.y -= gradient.y;
            gradientSum.z -= gradient.z;
            held.x += gradient.x;
            held.y += gradient.y;
            held.z += gradient.z;
        }
        column.x = __shfl_sync(0xffffffff, column.x, source);
        column.y = __shfl_sync(0xffffffff, column.y, source);
        column.z = __shfl_sync(0xffffffff, column.z, source);
        if (checked)
            column.w = __shfl_sync(0xffffffff, column.w, source);
#ifdef MODE_SELF
        columnWeight = __shfl_sync(0xffffffff, columnWeight, source);
#endif
        held.x = __shfl_sync(0xffffffff, held.x, source);
        held.y = __shfl_sync(0xffffffff, held.y, source);
        held.z = __shfl_sync(0xffffffff, held.z, source);
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
        const bool validRow, mm_long* rowHi, mm_long* rowLo, real3* rowGradient, const bool wrap, BOX_PARAMS) {
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
                mm_long hi = 0, lo = 0;
                addFixedNumber(&hi, &lo, value);
                sumHi += hi;
                sumLo += lo;
                columnHi[index] += hi;
                columnLo[index] += lo;
            }
            else {
                const real factor = (rowWeight + columnWeight[index]) * scale;
                const real3 gradient = make_real3(delta.x * factor, delta.y * factor, delta.z * factor);
                gradientSum.x -= gradient.x;
                gradientSum.y -= gradient.y;
                gradientSum.z -= gradient.z;
                total.x += gradient.x;
                total.y += gradient.y;
                total.z += gradient.z;
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
        LOCAL_ARG real3* columnGradient, LOCAL_ARG real* columnWeight, LOCAL_ARG mm_long* columnFixed) {
    const real rowWeight = (pass == 2 && validRow ? numberWeights[rowSlot] : (real) 0);
#ifdef MODE_SELF
    const real weightOfColumn = (pass == 2 && validColumn ? numberWeights[columnSlot] : (real) 0);
#else
    const real weightOfColumn = 0;
#endif
    mm_long rowHi = 0, rowLo = 0, columnHi = 0, columnLo = 0;
    real3 rowGradient = make_real3(0, 0, 0), columnTotal = make_real3(0, 0, 0);
#ifdef USE_WARP_SHUFFLE
    if (pass == 1) {
        if (fast && singleCopy)
            numberValuesShuffled(false, false, lane, column, rowPos, validRow, &rowHi, &rowLo, &columnHi, &columnLo,
                                 false, BOX_ARGS);
        else if (fast)
            numberValuesShuffled(false, false, lane, column, rowPos, validRow, &rowHi, &rowLo, &columnHi, &columnLo,
                                 true, BOX_ARGS);
        else
            numberValuesShuffled(true, diagonal, lane, column, rowPos, validRow, &rowHi, &rowLo, &columnHi, &columnLo,
                                 !singleCopy, BOX_ARGS);
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
                     &rowLo, &rowGradient, !singleCopy, BOX_ARGS);
    SYNC_THREADS;
    const real3 first = columnGradient[localBase + lane], second = columnGradient[localBase + lane + TILE_SIZE];
    columnTotal = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    columnHi = columnHiSums[lane] + columnHiSums[lane + TILE_SIZE];
    columnLo = columnLoSums[lane] + columnLoSums[lane + TILE_SIZE];
    SYNC_THREADS;
#endif
    if (pass == 1) {
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

/**
 * Sums, highest, lowest and first over the block, in a fixed order (every thread gets the result). CUDA: shuffles
 * within each warp, then the warps' results in order; otherwise a tree in local memory (as reduceOverBlock).
 */
#ifdef USE_WARP_SHUFFLE
#define DEFINE_COMBINE_OVER_BLOCK(NAME, TYPE, COMBINE) \
DEVICE TYPE NAME(TYPE value, LOCAL_ARG volatile TYPE* temp) { \
    for (int offset = TILE_SIZE / 2; offset > 0; offset /= 2) { \
        const TYPE first = value, second = __shfl_down_sync(0xffffffff, value, offset); \
        value = (COMBINE); \
    } \
    SYNC_THREADS; \
    if (LOCAL_ID % TILE_SIZE == 0) \
        temp[LOCAL_ID / TILE_SIZE] = value; \
    SYNC_THREADS; \
    value = temp[0]; \
    for (int warp = 1; warp < LOCAL_SIZE / TILE_SIZE; warp++) { \
        const TYPE first = value, second = temp[warp]; \
        value = (COMBINE); \
    } \
    return value; \
}
#else
#define DEFINE_COMBINE_OVER_BLOCK(NAME, TYPE, COMBINE) \
DEVICE TYPE NAME(TYPE value, LOCAL_ARG volatile TYPE* temp) { \
    const int thread = LOCAL_ID; \
    SYNC_THREADS; \
    temp[thread] = value; \
    SYNC_THREADS; \
    for (int step = 1; step < LOCAL_SIZE; step *= 2) { \
        if (thread + step < LOCAL_SIZE && thread % (2 * step) == 0) { \
            const TYPE first = temp[thread], second = temp[thread + step]; \
            temp[thread] = (COMBINE); \
        } \
        SYNC_THREADS; \
    } \
    return temp[0]; \
}
#endif
DEFINE_COMBINE_OVER_BLOCK(sumOverBlock, mixed, first + second)
DEFINE_COMBINE_OVER_BLOCK(longSumOverBlock, mm_long, first + second)
DEFINE_COMBINE_OVER_BLOCK(maxOverBlock, mixed, first >= second ? first : second)
DEFINE_COMBINE_OVER_BLOCK(minOverBlock, mixed, first <= second ? first : second)
DEFINE_COMBINE_OVER_BLOCK(minIndexOverBlock, int, first <= second ? first : second)

#ifdef MIXED_IS_DOUBLE
#define LARGEST_MIXED 1.0e308
#else
#define LARGEST_MIXED 3.0e38f
#endif
#define NO_ENTRY 0x7fffffff

/**
 * The first entry holding the highest (lowest) value over the block, from each thread's best and its entry
 * (NO_ENTRY: none); its value in *extreme.
 */
DEVICE int extremeOverBlock(mixed best, int bestIndex, const bool highest, mixed* extreme,
        LOCAL_ARG volatile mixed* valueTemp, LOCAL_ARG volatile int* indexTemp) {
    if (bestIndex == NO_ENTRY)
        best = (highest ? (mixed) -LARGEST_MIXED : (mixed) LARGEST_MIXED);
    const mixed value = (highest ? maxOverBlock(best, valueTemp) : minOverBlock(best, valueTemp));
    *extreme = value;
    return minIndexOverBlock(best == value ? bestIndex : NO_ENTRY, indexTemp);
}

/** Keep (value, index) if it beats (*best, *bestIndex): higher (lower), or as good at a lower entry. */
DEVICE void keepExtreme(mixed value, int index, const bool highest, mixed* best, int* bestIndex) {
    if (index == NO_ENTRY)
        return;
    if (*bestIndex == NO_ENTRY || (highest ? value > *best : value < *best) || (value == *best && index < *bestIndex)) {
        *best = value;
        *bestIndex = index;
    }
}

/** The mean of c, from the parts' exact fixed-point sums (every thread gets it). */
DEVICE mixed numbersMean(GLOBAL const mm_long* RESTRICT partialFixed, int numParts, LOCAL_ARG volatile mm_long* longTemp) {
    GLOBAL volatile const mm_long* partial = partialFixed;
    mm_long hi = 0, lo = 0;
    for (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE) {
        hi += partial[2 * p];
        lo += partial[2 * p + 1];
    }
    hi = longSumOverBlock(hi, longTemp);
    lo = longSumOverBlock(lo, longTemp);
    return fixedToNumber(hi, lo) / (mixed) NUM_A;
}

/**
 * The finish of pass 1 runs in phases over the entries of A (in A's order): each of the entry phases by one block
 * on part `part` of numParts (entries index, index + stride, ...: a thread always handles the same entries), the
 * others by one block.
 * 1. numbersEntrySums: c_i from the fixed-point rows (cleared for the next evaluation; NaN where a position was
 *    not finite) into numberValues; per part, the exact sum of c (partialFixed), each reduction's sum of term(c_i)
 *    and each extreme's best entry (partialSums, partialIndices).
 * 2. numbersCentredSums (Moment only): per part, term(c_i - mean) and term'(c_i - mean).
 * 3. numbersEnergy: the parts in a fixed order, the reductions (numberResults), E, dE/dR and the parameter
 *    derivatives; what the weights need in numberCoefficients, numberIndices and numberState[0] (finite).
 * 4. numbersWeights: w_i per sorted row; numberState[1] = 1 where one is not finite.
 * 5. numbersAddEnergy: E (NaN, and every weight 0, where there is no finite answer) into the energy buffer.
 * Every sum has a fixed order, so the results do not depend on the slots' sorted order.
 */
#define NUMBERS_TEMPS LOCAL_ARG volatile mixed* reduceTemp, LOCAL_ARG volatile mm_long* longTemp, \
        LOCAL_ARG volatile int* indexTemp
#define NUMBERS_TEMP_ARGS reduceTemp, longTemp, indexTemp

DEVICE void numbersEntrySums(int index, int stride, int part, int numParts, GLOBAL mm_long* RESTRICT numbersFixed,
        GLOBAL const int* RESTRICT rowOfSlotA, GLOBAL mixed* RESTRICT numberValues, GLOBAL mm_long* RESTRICT partialFixed,
        GLOBAL mixed* RESTRICT partialSums, GLOBAL int* RESTRICT partialIndices, bool nonFinitePositions, NUMBERS_TEMPS) {
    GLOBAL volatile mm_long* fixed = numbersFixed;
    mm_long hiSum = 0, loSum = 0;
    NUMBERS_ENTRY_DECLARE
    for (int i = index; i < NUM_A; i += stride) {
        const int row = rowOfSlotA[i];
        const mm_long hi = fixed[row], lo = fixed[row + NUM_A];
        fixed[row] = 0;
        fixed[row + NUM_A] = 0;
        hiSum += hi;
        loSum += lo;
        const mixed c = (nonFinitePositions ? NOT_A_NUMBER_MIXED : fixedToNumber(hi, lo));
        numberValues[i] = c;
        NUMBERS_ENTRY_ACCUMULATE
    }
    hiSum = longSumOverBlock(hiSum, longTemp);
    loSum = longSumOverBlock(loSum, longTemp);
    if (LOCAL_ID == 0) {
        partialFixed[2 * part] = hiSum;
        partialFixed[2 * part + 1] = loSum;
    }
    NUMBERS_ENTRY_REDUCE
}

#ifdef NUMBERS_CENTRED
DEVICE void numbersCentredSums(int index, int stride, int part, int numParts, GLOBAL const mixed* RESTRICT numberValues,
        GLOBAL const mm_long* RESTRICT partialFixed, GLOBAL mixed* RESTRICT partialSums, NUMBERS_TEMPS) {
    const mixed mean = numbersMean(partialFixed, numParts, longTemp);
    NUMBERS_CENTRED_DECLARE
    for (int i = index; i < NUM_A; i += stride) {
        const mixed v = numberValues[i] - mean;
        NUMBERS_CENTRED_ACCUMULATE
    }
    NUMBERS_CENTRED_REDUCE
}
#endif

DEVICE void numbersEnergy(int numParts, GLOBAL const mm_long* RESTRICT partialFixed,
        GLOBAL const mixed* RESTRICT partialSums, GLOBAL const int* RESTRICT partialIndices,
        GLOBAL const mixed* RESTRICT globals, GLOBAL mixed* RESTRICT numberResults,
        GLOBAL mixed* RESTRICT numberCoefficients, GLOBAL int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState,
        bool nonFinitePositions, NUMBERS_TEMPS) {
    GLOBAL volatile const mixed* partial = partialSums;
    GLOBAL volatile const int* partialIndex = partialIndices;
    const mixed mean = numbersMean(partialFixed, numParts, longTemp);
    // The reductions' sums (numberSum<q>, numberDerivativeSum<q>; extreme: numberExtreme<q>, the entry).
    NUMBERS_COMBINE
    // The reductions (numberReduction<q>), E, dE/dR (numberEnergyDerivative<q>), the parameter derivatives, and
    // finite, the same in every thread.
    NUMBERS_ENERGY
    if (LOCAL_ID == 0) {
        numberResults[NUM_REDUCTIONS] = energy;
        numberCoefficients[NUMBERS_MEAN_INDEX] = mean;
        numberState[0] = (finite ? 1 : 0);
        NUMBERS_STORE
    }
}

DEVICE void numbersWeights(int index, int stride, GLOBAL const mixed* RESTRICT numberValues,
        GLOBAL const int* RESTRICT rowOfSlotA, GLOBAL real* RESTRICT numberWeights,
        GLOBAL const mixed* RESTRICT numberCoefficients, GLOBAL const int* RESTRICT numberIndices,
        GLOBAL int* RESTRICT numberState) {
    GLOBAL volatile const mixed* coefficients = numberCoefficients;
    const bool finite = ((GLOBAL volatile const int*) numberState)[0] != 0;
    const mixed mean = coefficients[NUMBERS_MEAN_INDEX];
    bool notFinite = false;
    for (int i = index; i < NUM_A; i += stride) {
        const mixed c = numberValues[i];
        mixed w = 0;
        if (finite) {
            NUMBERS_WEIGHT
        }
        const real weight = (real) w;
        notFinite = notFinite || !REAL_IS_FINITE(weight);
        numberWeights[rowOfSlotA[i]] = weight;
    }
    if (notFinite)
        numberState[1] = 1;
}

DEVICE void numbersAddEnergy(GLOBAL const int* RESTRICT rowOfSlotA, GLOBAL real* RESTRICT numberWeights,
        GLOBAL mixed* RESTRICT numberResults, GLOBAL const mixed* RESTRICT numberCoefficients,
        GLOBAL int* RESTRICT numberState, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy DERIVATIVE_PARAMS) {
    GLOBAL volatile int* state = numberState;
    const bool energyFinite = state[0] != 0;
    const bool finite = energyFinite && state[1] == 0;
    if (energyFinite && !finite)
        for (int i = LOCAL_ID; i < NUM_A; i += LOCAL_SIZE)
            numberWeights[rowOfSlotA[i]] = 0;
    SYNC_THREADS;
    if (LOCAL_ID == 0) {
        GLOBAL volatile const mixed* coefficients = numberCoefficients;
        const mixed energy = (finite ? ((GLOBAL volatile mixed*) numberResults)[NUM_REDUCTIONS] : NOT_A_NUMBER_MIXED);
        numberResults[NUM_REDUCTIONS] = energy;
        if (addEnergy) {
            energyBuffer[0] += energy;
            NUMBERS_ADD_PARAMETER_DERIVATIVES
        }
        state[1] = 0;
    }
}

/** Phases 1 and 2 (numberParts blocks). With the neighbour list the first also restarts pass 2's work counter. */
KERNEL void computeNumberSums(GLOBAL mm_long* RESTRICT numbersFixed, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL mixed* RESTRICT numberValues, GLOBAL mm_long* RESTRICT partialFixed, GLOBAL mixed* RESTRICT partialSums,
        GLOBAL int* RESTRICT partialIndices, GLOBAL const int* RESTRICT nonFiniteFlags, int parity,
        GLOBAL int* RESTRICT listState) {
    LOCAL volatile mixed reduceTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile mm_long longTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile int indexTemp[NUMBERS_BLOCK_SIZE];
#ifdef USE_NEIGHBOR_LIST
    if (GLOBAL_ID == 0)
        listState[LIST_STATE_NEXT_ITEM] = 0;
#endif
    numbersEntrySums(GLOBAL_ID, GLOBAL_SIZE, GROUP_ID, NUM_GROUPS, numbersFixed, rowOfSlotA, numberValues, partialFixed,
                     partialSums, partialIndices, nonFiniteFlags[parity] != 0, NUMBERS_TEMP_ARGS);
}

#ifdef NUMBERS_CENTRED
KERNEL void computeCentredNumberSums(GLOBAL const mixed* RESTRICT numberValues, GLOBAL const mm_long* RESTRICT partialFixed,
        GLOBAL mixed* RESTRICT partialSums) {
    LOCAL volatile mixed reduceTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile mm_long longTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile int indexTemp[NUMBERS_BLOCK_SIZE];
    numbersCentredSums(GLOBAL_ID, GLOBAL_SIZE, GROUP_ID, NUM_GROUPS, numberValues, partialFixed, partialSums,
                       NUMBERS_TEMP_ARGS);
}
#endif

/** Phase 3 (one block). */
KERNEL void computeNumbersEnergy(GLOBAL const mm_long* RESTRICT partialFixed, GLOBAL const mixed* RESTRICT partialSums,
        GLOBAL const int* RESTRICT partialIndices, GLOBAL const mixed* RESTRICT globals,
        GLOBAL mixed* RESTRICT numberResults, GLOBAL mixed* RESTRICT numberCoefficients,
        GLOBAL int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState, GLOBAL const int* RESTRICT nonFiniteFlags,
        int parity) {
    LOCAL volatile mixed reduceTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile mm_long longTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile int indexTemp[NUMBERS_BLOCK_SIZE];
    numbersEnergy(NUMBER_PARTS, partialFixed, partialSums, partialIndices, globals, numberResults, numberCoefficients,
                  numberIndices, numberState, nonFiniteFlags[parity] != 0, NUMBERS_TEMP_ARGS);
}

/** Phase 4 (numberParts blocks). */
KERNEL void computeNumberWeights(GLOBAL const mixed* RESTRICT numberValues, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL real* RESTRICT numberWeights, GLOBAL const mixed* RESTRICT numberCoefficients,
        GLOBAL const int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState) {
    numbersWeights(GLOBAL_ID, GLOBAL_SIZE, numberValues, rowOfSlotA, numberWeights, numberCoefficients, numberIndices,
                   numberState);
}

/** Phase 5 (one block). */
KERNEL void addNumbersEnergy(GLOBAL const int* RESTRICT rowOfSlotA, GLOBAL real* RESTRICT numberWeights,
        GLOBAL mixed* RESTRICT numberResults, GLOBAL const mixed* RESTRICT numberCoefficients,
        GLOBAL int* RESTRICT numberState, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy DERIVATIVE_PARAMS) {
    numbersAddEnergy(rowOfSlotA, numberWeights, numberResults, numberCoefficients, numberState, energyBuffer, addEnergy
                     DERIVATIVE_ARGS);
}

#ifdef FUSED_FINISH
/** Pass 1's last block does every phase (small forces on CUDA; see finishInLastBlock). */
DEVICE void finishNumbersInLastBlock(GLOBAL mm_long* RESTRICT numbersFixed, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL mixed* RESTRICT numberValues, GLOBAL real* RESTRICT numberWeights, GLOBAL const mixed* RESTRICT globals,
        GLOBAL mixed* RESTRICT numberResults, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy,
        GLOBAL mm_long* RESTRICT partialFixed, GLOBAL mixed* RESTRICT partialSums, GLOBAL int* RESTRICT partialIndices,
        GLOBAL mixed* RESTRICT numberCoefficients, GLOBAL int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState,
        GLOBAL unsigned int* RESTRICT blocksDone, GLOBAL const int* RESTRICT nonFiniteFlags, int parity, NUMBERS_TEMPS,
        LOCAL_ARG int* isLast DERIVATIVE_PARAMS) {
    __threadfence();
    SYNC_THREADS;
    if (LOCAL_ID == 0)
        isLast[0] = (atomicAdd(blocksDone, 1u) == (unsigned int) (NUM_GROUPS - 1));
    SYNC_THREADS;
    if (!isLast[0])
        return;
    __threadfence();
    const bool nonFinitePositions = ((GLOBAL volatile const int*) nonFiniteFlags)[parity] != 0;
    numbersEntrySums(LOCAL_ID, LOCAL_SIZE, 0, 1, numbersFixed, rowOfSlotA, numberValues, partialFixed, partialSums,
                     partialIndices, nonFinitePositions, NUMBERS_TEMP_ARGS);
    SYNC_THREADS;
#ifdef NUMBERS_CENTRED
    numbersCentredSums(LOCAL_ID, LOCAL_SIZE, 0, 1, numberValues, partialFixed, partialSums, NUMBERS_TEMP_ARGS);
    SYNC_THREADS;
#endif
    numbersEnergy(1, partialFixed, partialSums, partialIndices, globals, numberResults, numberCoefficients, numberIndices,
                  numberState, nonFinitePositions, NUMBERS_TEMP_ARGS);
    SYNC_THREADS;
    numbersWeights(LOCAL_ID, LOCAL_SIZE, numberValues, rowOfSlotA, numberWeights, numberCoefficients, numberIndices,
                   numberState);
    SYNC_THREADS;
    numbersAddEnergy(rowOfSlotA, numberWeights, numberResults, numberCoefficients, numberState, energyBuffer, addEnergy
                     DERIVATIVE_ARGS);
    if (LOCAL_ID == 0)
        *blocksDone = 0;
}
#endif

#define NUMBERS_TILE_PARAMS , const int numbersPass, GLOBAL mm_long* RESTRICT numbersFixed, \
        GLOBAL const real* RESTRICT numberWeights, LOCAL_ARG real* columnWeight, LOCAL_ARG mm_long* columnFixed
#define NUMBERS_TILE_ARGS , numbersPass, numbersFixed, numberWeights, columnWeight, columnFixed
/** The tile kernel's arguments of the per-entry numbers (after the list's, before the fused finish's). */
#define NUMBERS_KERNEL_PARAMS , int numbersPass, GLOBAL mm_long* RESTRICT numbersFixed, \
        GLOBAL real* RESTRICT numberWeights, GLOBAL const int* RESTRICT rowOfSlotA, \
        GLOBAL mixed* RESTRICT numberValues, GLOBAL mixed* RESTRICT numberResults, \
        GLOBAL mm_long* RESTRICT numberPartialFixed, GLOBAL mixed* RESTRICT numberPartialSums, \
        GLOBAL int* RESTRICT numberPartialIndices, GLOBAL mixed* RESTRICT numberCoefficients, \
        GLOBAL int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState
#else
#define NUMBERS_TILE_PARAMS
#define NUMBERS_TILE_ARGS
#define NUMBERS_KERNEL_PARAMS
#endif
