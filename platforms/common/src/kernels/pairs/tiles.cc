/**
 * The pair kernels, launch 1 of an evaluation: Self and Dual modes by 32x32 tiles of slots
 * (computeCoordinationTiles), Pair mode one pair per thread (computeCoordinationPairs).
 */

#ifndef COORDINATION_NUMBERS
/** The per-atom engine's parameters of the tile kernel (kernels/peratom), absent from a CoordinationForce's program. */
#define NUMBERS_TILE_PARAMS
#define NUMBERS_TILE_ARGS
#define NUMBERS_KERNEL_PARAMS
#endif
#ifndef NUMBER_CLASS_ARGS
/** The classes of the per-atom engine's rows and columns (perAtomPairs.cc), where the local neighbours have partners. */
#define NUMBER_CLASS_ARGS
#endif

#if defined(MODE_SELF) || defined(MODE_DUAL)
/**
 * The slots of both groups in the tile kernel's order: their atoms, unique indices (cell offsets) and, with
 * culling, their positions this evaluation (computeTileBounds writes them); without culling the centres' positions;
 * the evaluation's parity (the centres' gradient rows).
 */
#ifdef USE_CULLING
#define SLOT_CENTER_PARAMS
#define SLOT_CENTER_ARGS
#else
#define SLOT_CENTER_PARAMS CENTER_POSITION_PARAMS
#define SLOT_CENTER_ARGS CENTER_POSITION_ARGS
#endif
#define SLOT_PARAMS GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets, \
        GLOBAL const int* RESTRICT sortedAtomsA, GLOBAL const int* RESTRICT sortedAtomsB, \
        GLOBAL const int* RESTRICT sortedUniqueA, GLOBAL const int* RESTRICT sortedUniqueB, \
        GLOBAL const real4* RESTRICT sortedPositionsA, GLOBAL const real4* RESTRICT sortedPositionsB, int parity \
        SLOT_CENTER_PARAMS
#define SLOT_ARGS posq, cellOffsets, sortedAtomsA, sortedAtomsB, sortedUniqueA, sortedUniqueB, sortedPositionsA, \
        sortedPositionsB, parity SLOT_CENTER_ARGS

/**
 * The position of slot `slot` of group A or B: with culling, read contiguously from the sorted positions;
 * otherwise through the slot's atom.
 */
DEVICE real3 slotPosition(bool groupB, int slot, SLOT_PARAMS, BOX_PARAMS) {
#ifdef USE_CULLING
    const real4 pos = (groupB ? sortedPositionsB : sortedPositionsA)[slot];
    return make_real3(pos.x, pos.y, pos.z);
#else
    if (groupB)
        return atomPosition(posq, cellOffsets, sortedAtomsB[slot], sortedUniqueB[slot], periodicBoxVecX, periodicBoxVecY,
                            periodicBoxVecZ CENTER_POSITION_ARGS);
    return atomPosition(posq, cellOffsets, sortedAtomsA[slot], sortedUniqueA[slot], periodicBoxVecX, periodicBoxVecY,
                        periodicBoxVecZ CENTER_POSITION_ARGS);
#endif
}

/**
 * Tile index -> (row tile, column tile). Self: the upper triangle, column by column,
 * tile = J(J+1)/2 + I with I <= J. Dual: row-major over NUM_TILES_A x NUM_TILES_B.
 */
DEVICE void decodeTile(int tile, int* rowTile, int* columnTile) {
#ifdef MODE_SELF
    int J = (int) ((SQRT(8.0f * (float) tile + 1.0f) - 1.0f) * 0.5f);
    while ((mm_long) J * (J + 1) / 2 > tile)
        J--;
    while ((mm_long) (J + 1) * (J + 2) / 2 <= tile)
        J++;
    *columnTile = J;
    *rowTile = tile - (int) ((mm_long) J * (J + 1) / 2);
#else
    *rowTile = tile / NUM_TILES_B;
    *columnTile = tile - *rowTile * NUM_TILES_B;
#endif
}

/**
 * Whether lane `lane` meets a counted pair at step k of a tile (both tile loops). `checked` is false
 * for a full tile off the diagonal (the common case): no test at all. On the diagonal of Self mode only
 * the pairs with column > row count (k > 0 and lane+k < 32). columnValid is the column's w (0: no atom).
 */
DEVICE bool includePair(const bool checked, const bool diagonal, const int lane, const int k, const real columnValid,
        const bool validRow, const int columnAtom, const int rowAtom) {
    bool include = true;
    if (checked) {
        include = validRow && columnValid != 0;
        if (diagonal)
            include = include && k > 0 && lane + k < TILE_SIZE;
    }
#ifdef CHECK_SAME_ATOM
    include = include && columnAtom != rowAtom;
#endif
    return include;
}

/**
 * One pair of a tile (both tile loops): adds sigma to *sum and the pair's gradient to the row's and the
 * column's accumulators.
 */
DEVICE void accumulatePair(const real4 column, const real3 rowPos, real* sum, real3* rowGradient,
        real3* columnGradient, const bool wrap, BOX_PARAMS) {
    const real3 delta = make_real3(column.x - rowPos.x, column.y - rowPos.y, column.z - rowPos.z);
    real sigma;
    real3 gradient;
    if (evaluatePair(delta, &sigma, &gradient, wrap, true, BOX_ARGS)) {
        *sum += sigma;
        addPairGradient(gradient, rowGradient, columnGradient);
    }
}

/**
 * The 32 x 32 pairs of one tile, from one lane's point of view: lane t owns row atom t and at step k
 * meets column (t+k) mod 32. The warp's 32 columns are stored twice in local memory (entries j and j+32),
 * so lane t at step k reads entry t+k: no two lanes touch the same entry at once, and the addresses are
 * a constant offset from one register. Column gradients accumulate in the same doubled layout (the
 * column's total is entry j + entry j+32), so they need no atomics. Which pairs count: includePair.
 */
DEVICE void tilePairs(const bool checked, const bool diagonal, const int lane, LOCAL_ARG const real4* columnPos,
        LOCAL_ARG const int* columnAtom, LOCAL_ARG real3* columnGradient, const real3 rowPos, const int rowAtom,
        const bool validRow, real* tileSum, real3* rowGradient, const bool wrap, BOX_PARAMS) {
    real sum = 0;
    real3 gradientSum = make_real3(0, 0, 0);
    for (int k = 0; k < TILE_SIZE; k++) {
        const int index = lane + k;
        const real4 other = columnPos[index];
#ifdef CHECK_SAME_ATOM
        const int otherAtom = columnAtom[index];
#else
        const int otherAtom = -1;
#endif
        if (includePair(checked, diagonal, lane, k, other.w, validRow, otherAtom, rowAtom)) {
            real3 columnTotal = columnGradient[index];
            accumulatePair(other, rowPos, &sum, &gradientSum, &columnTotal, wrap, BOX_ARGS);
            columnGradient[index] = columnTotal;
        }
        SYNC_WARPS;
    }
    *tileSum = sum;
    *rowGradient = gradientSum;
}

#ifdef USE_WARP_SHUFFLE
/**
 * tilePairs with shuffles: lane t starts with column t (position, atom, a zero gradient) in registers;
 * after each step every lane takes the column of lane t+1, so at step k lane t holds column (t+k) mod 32
 * and its gradient so far. After 32 steps each column is back in its own lane with its total.
 */
DEVICE void tilePairsShuffled(const bool checked, const bool diagonal, const int lane, real4 column, int columnAtomOfLane,
        const real3 rowPos, const int rowAtom, const bool validRow, real* tileSum, real3* rowGradient,
        real3* columnGradient, const bool wrap, BOX_PARAMS) {
    real sum = 0;
    real3 gradientSum = make_real3(0, 0, 0);
    real3 held = make_real3(0, 0, 0);
    const int source = (lane + 1) & (TILE_SIZE - 1);
    for (int k = 0; k < TILE_SIZE; k++) {
        if (includePair(checked, diagonal, lane, k, column.w, validRow, columnAtomOfLane, rowAtom))
            accumulatePair(column, rowPos, &sum, &gradientSum, &held, wrap, BOX_ARGS);
        column = rotateColumn(column, source, checked);
#ifdef CHECK_SAME_ATOM
        columnAtomOfLane = __shfl_sync(0xffffffff, columnAtomOfLane, source);
#endif
        held = rotateReal3(held, source);
    }
    *tileSum = sum;
    *rowGradient = gradientSum;
    *columnGradient = held;
}
#endif

/**
 * One 32x32 tile, by one 32-thread warp (validTile false: this warp has none, but still takes part in
 * the barriers): lane t owns row slot rowTile*32+t and brings column slot columnSlotOfLane (-1: none) of
 * the column group (Self: A, Dual: B). fullColumns: every lane has a column. diagonal: Self's tile of a
 * row tile with itself (only column > row counts). Returns this lane's sum of sigma over the tile.
 */
DEVICE real processTile(const bool validTile, const int rowTile, const int columnSlotOfLane, const bool fullColumns,
        const bool diagonal, const bool singleCopy, const real4 centre, SLOT_PARAMS,
        GLOBAL mm_long* RESTRICT gradientBuffer, int computeGradient, BOX_PARAMS, LOCAL_ARG real4* columnPos,
        LOCAL_ARG real3* columnGradient, LOCAL_ARG int* columnAtom NUMBERS_TILE_PARAMS) {
    const int lane = LOCAL_ID % TILE_SIZE;
#ifndef USE_WARP_SHUFFLE
    const int localBase = (LOCAL_ID / TILE_SIZE) * 2 * TILE_SIZE; // this warp's doubled columns
#endif
    const int rowSlot = rowTile * TILE_SIZE + lane;
    const bool validColumnOfLane = validTile && columnSlotOfLane >= 0;
    const bool validRow = validTile && rowSlot < NUM_A;
    const bool columnsOfB = !MODE_IS_SELF; // the column group: Self A, Dual B
    const bool fullRows = (rowTile + 1) * TILE_SIZE <= NUM_A;
    real3 rowPos = (validRow ? slotPosition(false, rowSlot, SLOT_ARGS, BOX_ARGS) : make_real3(0, 0, 0));
    real4 pos = make_real4(0, 0, 0, 0); // w = 0: no atom
    if (validColumnOfLane) {
        const real3 p = slotPosition(columnsOfB, columnSlotOfLane, SLOT_ARGS, BOX_ARGS);
        pos = make_real4(p.x, p.y, p.z, 1);
    }
#ifdef USE_PERIODIC
    if (singleCopy) {
        // Every atom at its image nearest the row tile's centre, once, instead of a minimum image per pair.
        rowPos = imageNearest(rowPos, centre, periodicBoxSize, invPeriodicBoxSize);
        const real3 column = imageNearest(make_real3(pos.x, pos.y, pos.z), centre, periodicBoxSize, invPeriodicBoxSize);
        pos = make_real4(column.x, column.y, column.z, pos.w);
    }
#endif
    // The slots' atoms, where the same-atom rule or a centre's gradient row (gradientRowOf) needs them.
#if defined(CHECK_SAME_ATOM) || defined(HAS_CENTERS)
    const int rowAtom = (validRow ? sortedAtomsA[rowSlot] : -1);
    const int atom = (validColumnOfLane ? (columnsOfB ? sortedAtomsB : sortedAtomsA)[columnSlotOfLane] : -1);
#else
    const int rowAtom = -1, atom = -1;
#endif
    const int rowGradientRow = gradientRowOf(rowSlot, rowAtom, parity);
    const int columnGradientRow = gradientRowOf((columnsOfB ? NUM_A : 0) + columnSlotOfLane, atom, parity);
#ifdef COORDINATION_NUMBERS
    numberTile(validTile && fullRows && fullColumns && !diagonal, diagonal, singleCopy, lane, pos, rowPos, validRow,
               validColumnOfLane, rowSlot, columnSlotOfLane, rowGradientRow, columnGradientRow, numbersPass,
               numbersFixed, numberWeights, gradientBuffer, computeGradient, BOX_ARGS, columnPos, columnGradient,
               columnWeight, columnFixed, numberState NUMBER_CLASS_ARGS);
    return 0;
#endif
    real3 rowGradient = make_real3(0, 0, 0), columnTotal;
    real tileSum = 0;
    const bool fast = validTile && fullRows && fullColumns && !diagonal;
#ifdef USE_WARP_SHUFFLE
    if (fast && singleCopy)
        tilePairsShuffled(false, false, lane, pos, atom, rowPos, rowAtom, validRow, &tileSum, &rowGradient, &columnTotal,
                          false, BOX_ARGS);
    else if (fast)
        tilePairsShuffled(false, false, lane, pos, atom, rowPos, rowAtom, validRow, &tileSum, &rowGradient, &columnTotal,
                          true, BOX_ARGS);
    else
        tilePairsShuffled(true, diagonal, lane, pos, atom, rowPos, rowAtom, validRow, &tileSum, &rowGradient,
                          &columnTotal, !singleCopy, BOX_ARGS);
#else
    columnAtom[localBase + lane] = atom;
    columnAtom[localBase + lane + TILE_SIZE] = atom;
    columnPos[localBase + lane] = pos;
    columnPos[localBase + lane + TILE_SIZE] = pos;
    columnGradient[localBase + lane] = make_real3(0, 0, 0);
    columnGradient[localBase + lane + TILE_SIZE] = make_real3(0, 0, 0);
    SYNC_THREADS;
    // One call site: tilePairs holds barriers (SYNC_WARPS), which every thread of the block must reach
    // in the same place where a barrier is block-wide (OpenCL on a CPU).
    tilePairs(!fast, diagonal, lane, columnPos + localBase, columnAtom + localBase, columnGradient + localBase, rowPos,
              rowAtom, validRow, &tileSum, &rowGradient, !singleCopy, BOX_ARGS);
    SYNC_THREADS;
    const real3 first = columnGradient[localBase + lane], second = columnGradient[localBase + lane + TILE_SIZE];
    columnTotal = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    SYNC_THREADS;
#endif
    if (computeGradient) {
        if (validRow)
            addGradient(gradientBuffer, rowGradientRow, rowGradient);
        if (validColumnOfLane)
            addGradient(gradientBuffer, columnGradientRow, columnTotal);
    }
    return tileSum;
}

/**
 * Tile `tile` of the full enumeration (decodeTile); tile < 0: none (the warp still takes part in barriers).
 */
DEVICE real processIndexedTile(int tile, SLOT_PARAMS, GLOBAL mm_long* RESTRICT gradientBuffer, int computeGradient,
        BOX_PARAMS, LOCAL_ARG real4* columnPos, LOCAL_ARG real3* columnGradient, LOCAL_ARG int* columnAtom
        NUMBERS_TILE_PARAMS) {
    int rowTile = 0, columnTile = 0;
    if (tile >= 0)
        decodeTile(tile, &rowTile, &columnTile);
#ifdef MODE_SELF
    const int numColumns = NUM_A;
#else
    const int numColumns = NUM_B;
#endif
    const int columnSlot = columnTile * TILE_SIZE + LOCAL_ID % TILE_SIZE;
    return processTile(tile >= 0, rowTile, columnSlot < numColumns ? columnSlot : -1,
                       (columnTile + 1) * TILE_SIZE <= numColumns, MODE_IS_SELF && rowTile == columnTile, false,
                       make_real4(0, 0, 0, 0), SLOT_ARGS,
                       gradientBuffer, computeGradient, BOX_ARGS, columnPos, columnGradient, columnAtom NUMBERS_TILE_ARGS);
}


/**
 * Self and Dual modes: 32x32 tiles of (A slot, B slot) pairs (Self: upper triangle of A x A), in the
 * slots' sorted order, one tile per warp at a time. Every thread of a block runs the same number of
 * iterations, since the loops contain barriers.
 * - No cutoff (or few tiles): every tile.
 * - USE_CULLING: each block takes a chunk of candidate tiles (one per thread), keeps those whose
 *   bounding boxes are within the cutoff (a block-wide prefix sum: fixed order, deterministic) and
 *   processes them, a warp per tile.
 * - USE_NEIGHBOR_LIST (with USE_CULLING, rectangular or no box: useList): the work items are Self's
 *   diagonal tiles, then the list's chunks (buildNeighborList): a row tile with 32 column slots that were
 *   within the cutoff plus the skin of its bounding box. While the list is incomplete (more chunks than
 *   its capacity) the culling loop runs instead. s is summed in fixed point here (addFixedPoint).
 */
KERNEL void computeCoordinationTiles(GLOBAL const real4* RESTRICT posq, GLOBAL const int* RESTRICT sortedAtomsA,
        GLOBAL const int* RESTRICT sortedAtomsB, GLOBAL const int* RESTRICT sortedUniqueA,
        GLOBAL const int* RESTRICT sortedUniqueB, GLOBAL mm_long* RESTRICT gradientBuffer,
        GLOBAL mixed* RESTRICT partialSums, int computeGradient, BOX_PARAMS, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const real4* RESTRICT sortedPositionsA, GLOBAL const real4* RESTRICT sortedPositionsB,
        GLOBAL const real4* RESTRICT tileCentersA, GLOBAL const real4* RESTRICT tileHalfExtentsA,
        GLOBAL const real4* RESTRICT tileCentersB, GLOBAL const real4* RESTRICT tileHalfExtentsB,
        GLOBAL int* RESTRICT nonFiniteFlags, int parity
#ifdef USE_NEIGHBOR_LIST
        , GLOBAL mm_long* RESTRICT partialFixed, GLOBAL int* RESTRICT listState,
        GLOBAL const int* RESTRICT chunkRows, GLOBAL const int* RESTRICT chunkSlots, int useList, int capacity
#endif
        NUMBERS_KERNEL_PARAMS FUSED_FINISH_PARAMS CENTER_KERNEL_PARAMS) {
#ifdef USE_WARP_SHUFFLE
    LOCAL_ARG real4* columnPos = 0; // the columns live in registers
    LOCAL_ARG real3* columnGradient = 0;
    LOCAL_ARG int* columnAtom = 0;
#else
    LOCAL real4 columnPos[WARPS_PER_BLOCK * 2 * TILE_SIZE];
    LOCAL real3 columnGradient[WARPS_PER_BLOCK * 2 * TILE_SIZE];
    LOCAL int columnAtom[WARPS_PER_BLOCK * 2 * TILE_SIZE];
#endif
#ifdef COORDINATION_NUMBERS
#ifdef USE_WARP_SHUFFLE
    LOCAL_ARG real* columnWeight = 0;
    LOCAL_ARG mm_long* columnFixed = 0;
#else
    LOCAL real columnWeight[WARPS_PER_BLOCK * 2 * TILE_SIZE];
    LOCAL mm_long columnFixed[2 * WARPS_PER_BLOCK * 2 * TILE_SIZE];
#endif
#endif
    LOCAL volatile mixed reduceTemp[WARPS_PER_BLOCK * TILE_SIZE];
#ifdef USE_CULLING
    LOCAL int scan[WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL int tileList[WARPS_PER_BLOCK * TILE_SIZE];
#endif
#ifdef USE_NEIGHBOR_LIST
    LOCAL volatile mm_long longTemp[WARPS_PER_BLOCK * TILE_SIZE];
#ifdef USE_WARP_SHUFFLE
    LOCAL int nextItem[1]; // the block's next items from the list's counter
#endif
#endif
    const int warp = LOCAL_ID / TILE_SIZE;
    if (GLOBAL_ID == 0)
        nonFiniteFlags[1 - parity] = 0; // for the next evaluation
#ifdef HAS_CENTERS
    clearOtherCenterRows(gradientBuffer, parity);
#endif
#ifndef USE_CULLING
    PREPARE_CENTERS // (with culling computeTileBounds read the centres)
    // Every slot's position, for the finiteness flag (with culling, computeTileBounds reads them all).
    for (int slot = GLOBAL_ID; slot < NUM_A + (MODE_IS_SELF ? 0 : NUM_B); slot += GLOBAL_SIZE)
        if (!isFinitePosition(slotPosition(slot >= NUM_A, slot >= NUM_A ? slot - NUM_A : slot, SLOT_ARGS, BOX_ARGS)))
            nonFiniteFlags[parity] = 1;
#endif
    mixed sum = 0, compensation = 0;
#ifdef USE_NEIGHBOR_LIST
    mm_long fixedHi = 0, fixedLo = 0;
#define ADD_TILE_SUM(value) addFixedPoint(&fixedHi, &fixedLo, &sum, &compensation, value)
#else
#define ADD_TILE_SUM(value) compensatedAdd(&sum, &compensation, (mixed) (value))
#endif
#ifdef USE_CULLING
    bool culled = true;
#ifdef USE_NEIGHBOR_LIST
    const int listChunks = listState[LIST_STATE_REBUILD + parity] ? listState[LIST_STATE_BUILT] : listState[LIST_STATE_CHUNKS];
    if (useList && listChunks <= capacity) {
        culled = false;
#ifdef MODE_SELF
        const int numDiagonal = NUM_TILES_A;
#else
        const int numDiagonal = 0;
#endif
        const int numItems = numDiagonal + listChunks;
        const int lane = LOCAL_ID % TILE_SIZE;
#ifdef USE_WARP_SHUFFLE
        // CUDA: each block takes its next WARPS_PER_BLOCK items from a counter (computeTileBounds reset it), so
        // that the blocks finish together whatever their number per multiprocessor (a fixed share per block left
        // the blocks of a second wave running alone). Any order gives the same s (fixed point) and gradient.
        // OpenCL takes fixed shares instead: OpenMM compiles OpenCL with finite math only, and in the counter's loop
        // PoCL's compiler drops a NaN position's NaN before it reaches s.
        while (true) {
            if (LOCAL_ID == 0)
                nextItem[0] = ATOMIC_ADD(&listState[LIST_STATE_NEXT_ITEM], WARPS_PER_BLOCK);
            SYNC_THREADS;
            const int first = nextItem[0];
            SYNC_THREADS; // every thread has read it before thread 0 takes the next
            if (first >= numItems)
                break;
#else
        for (int first = GROUP_ID * WARPS_PER_BLOCK; first < numItems; first += NUM_GROUPS * WARPS_PER_BLOCK) {
#endif
            const int item = first + warp;
            int rowTile = 0, columnSlot = -1;
            bool fullColumns = false;
            if (item < numDiagonal) {
                rowTile = item;
                columnSlot = item * TILE_SIZE + lane;
                fullColumns = (item + 1) * TILE_SIZE <= NUM_A;
                if (columnSlot >= NUM_A)
                    columnSlot = -1;
            }
            else if (item < numItems) {
                const int chunk = item - numDiagonal;
                rowTile = chunkRows[chunk];
                columnSlot = chunkSlots[chunk * TILE_SIZE + lane];
                fullColumns = (chunkSlots[chunk * TILE_SIZE + TILE_SIZE - 1] >= 0);
            }
            // One periodic copy (every atom at its image nearest the row tile's centre) where it suffices.
            const real4 centre = tileCentersA[rowTile];
#ifdef USE_PERIODIC
            const real4 halfExtent = tileHalfExtentsA[rowTile];
            const bool singleCopy = oneImageSuffices(centre, halfExtent, (real) PADDED_CUTOFF, periodicBoxSize);
#else
            const bool singleCopy = false;
#endif
            ADD_TILE_SUM(processTile(item < numItems, rowTile, columnSlot, fullColumns, item < numDiagonal, singleCopy,
                                     centre, SLOT_ARGS, gradientBuffer, computeGradient, BOX_ARGS, columnPos,
                                     columnGradient, columnAtom NUMBERS_TILE_ARGS));
        }
    }
#endif
    if (culled) {
        const int blockSize = WARPS_PER_BLOCK * TILE_SIZE;
#ifdef MODE_SELF
        GLOBAL const real4* RESTRICT columnCenters = tileCentersA;
        GLOBAL const real4* RESTRICT columnHalfExtents = tileHalfExtentsA;
#else
        GLOBAL const real4* RESTRICT columnCenters = tileCentersB;
        GLOBAL const real4* RESTRICT columnHalfExtents = tileHalfExtentsB;
#endif
        for (int chunk = GROUP_ID * CULL_CHUNK; chunk < NUM_TILES; chunk += NUM_GROUPS * CULL_CHUNK) {
            const int candidate = chunk + LOCAL_ID;
            int interacts = 0;
            if (LOCAL_ID < CULL_CHUNK && candidate < NUM_TILES) {
                int rowTile, columnTile;
                decodeTile(candidate, &rowTile, &columnTile);
                interacts = tilesInteract(rowTile, columnTile, tileCentersA, tileHalfExtentsA, columnCenters,
                                          columnHalfExtents, (real) PADDED_CUTOFF_SQUARED, BOX_ARGS) ? 1 : 0;
            }
            scan[LOCAL_ID] = interacts;
            SYNC_THREADS;
            inclusiveScan(scan, LOCAL_ID, blockSize);
            if (interacts)
                tileList[scan[LOCAL_ID] - 1] = candidate;
            const int count = scan[blockSize - 1];
            SYNC_THREADS;
            for (int first = 0; first < count; first += WARPS_PER_BLOCK)
                ADD_TILE_SUM(processIndexedTile(first + warp < count ? tileList[first + warp] : -1, SLOT_ARGS,
                                                gradientBuffer, computeGradient, BOX_ARGS, columnPos, columnGradient,
                                                columnAtom NUMBERS_TILE_ARGS));
        }
    }
#else
    for (int firstTile = GROUP_ID * WARPS_PER_BLOCK; firstTile < NUM_TILES; firstTile += NUM_GROUPS * WARPS_PER_BLOCK) {
        const int tile = firstTile + warp;
        ADD_TILE_SUM(processIndexedTile(tile < NUM_TILES ? tile : -1, SLOT_ARGS, gradientBuffer, computeGradient,
                                        BOX_ARGS, columnPos, columnGradient, columnAtom NUMBERS_TILE_ARGS));
    }
#endif
#undef ADD_TILE_SUM
    mixed blockSum = sumOverBlockTree(sum, reduceTemp);
    if (LOCAL_ID == 0)
        partialSums[GROUP_ID] = blockSum;
#ifdef USE_NEIGHBOR_LIST
    const mm_long blockHi = longSumOverBlockTree(fixedHi, longTemp);
    const mm_long blockLo = longSumOverBlockTree(fixedLo, longTemp);
    if (LOCAL_ID == 0) {
        partialFixed[2 * GROUP_ID] = blockHi;
        partialFixed[2 * GROUP_ID + 1] = blockLo;
    }
#endif
#if defined(COORDINATION_NUMBERS) && defined(FUSED_FINISH)
    if (numbersPass == 1) {
        LOCAL volatile mm_long numberLongTemp[WARPS_PER_BLOCK * TILE_SIZE];
        LOCAL volatile int numberIndexTemp[WARPS_PER_BLOCK * TILE_SIZE];
        LOCAL int numberIsLast[1];
        finishNumbersInLastBlock(numbersFixed, rowOfSlotA, numberValues, numberComponents, numberWeights, globals, numberResults,
                                 energyBuffer, addEnergy, numberPartialFixed, numberPartialSums, numberPartialIndices,
                                 numberCoefficients, numberIndices, numberState, blocksDone, nonFiniteFlags, parity,
                                 reduceTemp, numberLongTemp, numberIndexTemp, numberIsLast DERIVATIVE_ARGS);
        return;
    }
#endif
    FUSED_FINISH_TAIL(sortedAtomsA, sortedAtomsB)
}
#endif

#ifdef MODE_PAIR
/**
 * Pair mode: A[k] with B[k], one pair per thread.
 */
KERNEL void computeCoordinationPairs(GLOBAL const real4* RESTRICT posq, GLOBAL const int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT atomsB, GLOBAL const int* RESTRICT uniqueA, GLOBAL const int* RESTRICT uniqueB,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL mixed* RESTRICT partialSums, int computeGradient,
        BOX_PARAMS, GLOBAL const int4* RESTRICT cellOffsets, GLOBAL int* RESTRICT nonFiniteFlags, int parity
        FUSED_FINISH_PARAMS CENTER_KERNEL_PARAMS) {
    LOCAL volatile mixed reduceTemp[PAIR_BLOCK_SIZE];
    if (GLOBAL_ID == 0)
        nonFiniteFlags[1 - parity] = 0; // for the next evaluation
#ifdef HAS_CENTERS
    clearOtherCenterRows(gradientBuffer, parity);
#endif
    PREPARE_CENTERS
    mixed sum = 0, compensation = 0;
    for (int index = GLOBAL_ID; index < NUM_A; index += GLOBAL_SIZE) {
        const int first = atomsA[index], second = atomsB[index];
        real3 firstPos = atomPosition(posq, cellOffsets, first, uniqueA[index], periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ
                                      CENTER_POSITION_ARGS);
        real3 secondPos = atomPosition(posq, cellOffsets, second, uniqueB[index], periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ
                                       CENTER_POSITION_ARGS);
        if (!isFinitePosition(firstPos) || !isFinitePosition(secondPos))
            nonFiniteFlags[parity] = 1;
        if (first == second)
            continue;
        real3 delta = make_real3(secondPos.x - firstPos.x, secondPos.y - firstPos.y, secondPos.z - firstPos.z);
        real sigma;
        real3 gradient;
        if (evaluatePair(delta, &sigma, &gradient, true, false, BOX_ARGS)) {
            compensatedAdd(&sum, &compensation, (mixed) sigma);
            if (computeGradient) {
                addGradient(gradientBuffer, gradientRowOf(NUM_A + index, second, parity), gradient);
                addGradient(gradientBuffer, gradientRowOf(index, first, parity), make_real3(-gradient.x, -gradient.y, -gradient.z));
            }
        }
    }
    mixed blockSum = sumOverBlockTree(sum, reduceTemp);
    if (LOCAL_ID == 0)
        partialSums[GROUP_ID] = blockSum;
    FUSED_FINISH_TAIL(atomsA, atomsB)
}
#endif
