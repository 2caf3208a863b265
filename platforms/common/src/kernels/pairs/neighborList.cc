/**
 * The neighbour list (USE_NEIGHBOR_LIST, Self and Dual modes with culling): per row tile of A, the column
 * slots within the cutoff plus a skin of at least one of its atoms, in chunks of 32
 * (computeCoordinationTiles in tiles.cc visits them).
 */

#ifdef USE_NEIGHBOR_LIST
/**
 * Whether an atom can be within the list cutoff (cutoff + skin, padded for rounding as in tilesInteract)
 * of any point of a tile's bounding box. Rectangular boxes only (the list is not used in triclinic ones).
 * A NaN position is near everything (fmax drops the NaN), so that it reaches s.
 */
DEVICE bool atomNearTile(real3 pos, real4 center, real4 halfExtent, BOX_PARAMS) {
    return !(boxGapSquared(center, halfExtent, make_real4(pos.x, pos.y, pos.z, 0), make_real4(0, 0, 0, 0), BOX_ARGS) >
             (real) PADDED_LIST_CUTOFF_SQUARED);
}

/**
 * Whether an atom is within the list cutoff (padded as in atomNearTile) of at least one of the row tile's
 * positions first..last-1: the exact test after atomNearTile's quick one (a column atom near the tile's box but
 * far from all its atoms would cost a lane of every chunk it joins, for nothing). wrap: the minimum image of each
 * difference (with PBC); false where the positions need none (atomNearRowParts). A NaN anywhere counts as near.
 */
DEVICE bool atomNearRowAtoms(real3 pos, LOCAL_ARG const real4* rowPositions, int first, int last, const bool wrap,
        BOX_PARAMS) {
    for (int k = first; k < last; k++) {
        const real4 row = rowPositions[k];
        real3 delta = make_real3(pos.x - row.x, pos.y - row.y, pos.z - row.z);
#ifdef USE_PERIODIC
        if (wrap)
            delta = wrapRectangular(delta, periodicBoxSize, invPeriodicBoxSize);
#endif
        if (!(delta.x * delta.x + delta.y * delta.y + delta.z * delta.z > (real) PADDED_LIST_CUTOFF_SQUARED))
            return true;
    }
    return false;
}

/** The row tile's atoms come in ROW_PARTS parts of ROW_PART_SIZE consecutive (so nearby) sorted slots. */
#define ROW_PART_SIZE 8
#define ROW_PARTS (TILE_SIZE / ROW_PART_SIZE)

/**
 * The bounding boxes of the row tile's parts, from rowPositions (lanes below ROW_PARTS, one part each): low
 * and high corners, low.w = 1 where a part holds a NaN (such a part is near everything). A part past the
 * tile's end is left out by atomNearRowParts.
 */
DEVICE void computeRowParts(LOCAL_ARG const real4* rowPositions, int numRows, int lane, LOCAL_ARG real4* partLows,
        LOCAL_ARG real4* partHighs) {
    if (lane < ROW_PARTS && lane * ROW_PART_SIZE < numRows) {
        const int first = lane * ROW_PART_SIZE, last = min(first + ROW_PART_SIZE, numRows);
        real4 low = rowPositions[first], high = low;
        bool notANumber = isnan(low.x + low.y + low.z);
        for (int k = first + 1; k < last; k++) {
            const real4 pos = rowPositions[k];
            notANumber = notANumber || isnan(pos.x + pos.y + pos.z);
            low = make_real4(fmin(low.x, pos.x), fmin(low.y, pos.y), fmin(low.z, pos.z), 0);
            high = make_real4(fmax(high.x, pos.x), fmax(high.y, pos.y), fmax(high.z, pos.z), 0);
        }
        low.w = (notANumber ? 1 : 0);
        partLows[lane] = low;
        partHighs[lane] = high;
    }
}

/**
 * atomNearRowAtoms without minimum images, for positions that need none (one periodic copy: the row atoms and
 * this one at their images nearest the row tile's centre; or no periodicity): first each part's bounding box,
 * then the atoms of the parts near it. A box's gap is never larger than the distance to any of its atoms in
 * floating point too (min and max are exact, the rounding of each step is monotonic, and the two sums of squares
 * have the same form; the list cutoff's padding covers a compiler contracting them differently), so no atom
 * within the cutoff is missed. A NaN position counts as near: a NaN coordinate makes its gap NaN (the clamp at
 * 0 keeps it), so no part is skipped and its distances are NaN; a part holding a NaN is always searched.
 */
DEVICE bool atomNearRowParts(real3 pos, LOCAL_ARG const real4* rowPositions, int numRows,
        LOCAL_ARG const real4* partLows, LOCAL_ARG const real4* partHighs, BOX_PARAMS) {
    for (int part = 0; part < ROW_PARTS && part * ROW_PART_SIZE < numRows; part++) {
        const real4 low = partLows[part], high = partHighs[part];
        // Per axis, how far pos lies outside the box (0 inside; NaN stays NaN, so the test below keeps the part).
        real gx = fmax(low.x - pos.x, pos.x - high.x), gy = fmax(low.y - pos.y, pos.y - high.y),
             gz = fmax(low.z - pos.z, pos.z - high.z);
        gx = (gx < 0 ? (real) 0 : gx);
        gy = (gy < 0 ? (real) 0 : gy);
        gz = (gz < 0 ? (real) 0 : gz);
        if (low.w == 0 && gx * gx + gy * gy + gz * gz > (real) PADDED_LIST_CUTOFF_SQUARED)
            continue;
        if (atomNearRowAtoms(pos, rowPositions, part * ROW_PART_SIZE, min((part + 1) * ROW_PART_SIZE, numRows), false,
                             BOX_ARGS))
            return true;
    }
    return false;
}

#ifdef USE_WARP_SHUFFLE
#define LIST_SYNC __syncwarp()
/** Among the warp's lanes with flag set: this lane's rank (if set) and, in *total, how many. */
DEVICE int warpExclusiveCount(bool flag, int lane, int* total, LOCAL_ARG int* scratch) {
    const unsigned int mask = __ballot_sync(0xffffffff, flag);
    *total = __popc(mask);
    return __popc(mask & ((1u << lane) - 1u));
}

/** Lane 0's value, in every lane. */
DEVICE int warpBroadcast(int value, int lane, LOCAL_ARG int* scratch) {
    return __shfl_sync(0xffffffff, value, 0);
}
#else
// Without warp primitives (OpenCL) the build kernel runs blocks of one warp, so a block barrier is a warp
// barrier and local memory does the counting.
#if LIST_WARPS_PER_BLOCK != 1
#error "buildNeighborList without warp shuffles needs blocks of one warp"
#endif
#define LIST_SYNC SYNC_THREADS
DEVICE int warpExclusiveCount(bool flag, int lane, int* total, LOCAL_ARG int* scratch) {
    scratch[lane] = (flag ? 1 : 0);
    SYNC_THREADS;
    inclusiveScan(scratch, lane, TILE_SIZE);
    *total = scratch[TILE_SIZE - 1];
    const int rank = scratch[lane] - (flag ? 1 : 0);
    SYNC_THREADS;
    return rank;
}

DEVICE int warpBroadcast(int value, int lane, LOCAL_ARG int* scratch) {
    if (lane == 0)
        scratch[0] = value;
    SYNC_THREADS;
    const int result = scratch[0];
    SYNC_THREADS;
    return result;
}
#endif

/** Full chunks a warp holds back before it writes them, with one atomic for all (see writeChunks). */
#define LIST_HELD_CHUNKS 8

/**
 * Append the slots waiting in buffer (count of them) to the list as ceil(count / 32) chunks of the row tile,
 * the last one padded with -1. Their places come from one atomic counter (one addition for all of them: a
 * single counter shared by every warp is what the build waits on), so the chunks' order varies, but each
 * chunk's content does not: the tile kernel's fixed-point sum of s is the same in any order. Past the
 * capacity nothing is written, and the count tells the host how much room the list needs.
 */
DEVICE void writeChunks(int rowTile, int count, LOCAL_ARG const int* buffer, int lane, GLOBAL int* RESTRICT listState,
        GLOBAL int* RESTRICT chunkRows, GLOBAL int* RESTRICT chunkSlots, int capacity, LOCAL_ARG int* scratch) {
    const int numChunks = (count + TILE_SIZE - 1) / TILE_SIZE;
    int first = 0;
    if (lane == 0)
        first = ATOMIC_ADD(&listState[LIST_STATE_BUILT], numChunks);
    first = warpBroadcast(first, lane, scratch);
    for (int k = 0; k < numChunks && first + k < capacity; k++) {
        const int index = k * TILE_SIZE + lane;
        chunkSlots[(first + k) * TILE_SIZE + lane] = (index < count ? buffer[index] : -1);
        if (lane == 0)
            chunkRows[first + k] = rowTile;
    }
}

/**
 * The neighbour list (only when this evaluation's rebuild flag is up; computeTileBounds raises it): for
 * each row tile of A, one warp visits the column tiles (Self: those after it; Dual: all of B) in order,
 * keeps those whose bounding boxes are within cutoff + skin of the row tile's (32 at a time, a ballot),
 * then the column slots of those within cutoff + skin of the row tile's box and of one of its atoms (its parts'
 * boxes first, and without minimum images where one periodic copy suffices), and packs them into chunks of 32
 * in that order, written LIST_HELD_CHUNKS at a time. It records every slot's position (listPositions) for the
 * motion test.
 * A pair within the cutoff now is in the list as long as no atom has moved half the skin since. Positions
 * come from sortedPositions (computeTileBounds wrote them this evaluation).
 */
KERNEL void buildNeighborList(GLOBAL const real4* RESTRICT sortedPositionsA, GLOBAL const real4* RESTRICT sortedPositionsB,
        GLOBAL const real4* RESTRICT tileCentersA, GLOBAL const real4* RESTRICT tileHalfExtentsA,
        GLOBAL const real4* RESTRICT tileCentersB, GLOBAL const real4* RESTRICT tileHalfExtentsB,
        GLOBAL real4* RESTRICT listPositionsA, GLOBAL real4* RESTRICT listPositionsB, GLOBAL int* RESTRICT listState,
        GLOBAL int* RESTRICT chunkRows, GLOBAL int* RESTRICT chunkSlots, int capacity, int parity, BOX_PARAMS) {
    if (!listState[LIST_STATE_REBUILD + parity])
        return;
    LOCAL int buffers[LIST_WARPS_PER_BLOCK * (LIST_HELD_CHUNKS + 1) * TILE_SIZE];
    LOCAL int hitLists[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL real4 rowPositionLists[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL int scratches[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL real4 partLowLists[LIST_WARPS_PER_BLOCK * ROW_PARTS];
    LOCAL real4 partHighLists[LIST_WARPS_PER_BLOCK * ROW_PARTS];
    const int warpInBlock = LOCAL_ID / TILE_SIZE, lane = LOCAL_ID % TILE_SIZE;
    LOCAL_ARG int* buffer = buffers + warpInBlock * (LIST_HELD_CHUNKS + 1) * TILE_SIZE;
    LOCAL_ARG int* hits = hitLists + warpInBlock * TILE_SIZE;
    LOCAL_ARG real4* rowPositions = rowPositionLists + warpInBlock * TILE_SIZE;
    LOCAL_ARG int* scratch = scratches + warpInBlock * TILE_SIZE;
    LOCAL_ARG real4* partLows = partLowLists + warpInBlock * ROW_PARTS;
    LOCAL_ARG real4* partHighs = partHighLists + warpInBlock * ROW_PARTS;
#ifdef MODE_SELF
    const int numColumnTiles = NUM_TILES_A, numColumns = NUM_A, numRows = NUM_TILES_A;
    GLOBAL const real4* RESTRICT columnPositions = sortedPositionsA;
    GLOBAL const real4* RESTRICT columnCenters = tileCentersA;
    GLOBAL const real4* RESTRICT columnHalfExtents = tileHalfExtentsA;
#else
    // Rows past A's tiles only record B's positions.
    const int numColumnTiles = NUM_TILES_B, numColumns = NUM_B, numRows = NUM_TILES_A + NUM_TILES_B;
    GLOBAL const real4* RESTRICT columnPositions = sortedPositionsB;
    GLOBAL const real4* RESTRICT columnCenters = tileCentersB;
    GLOBAL const real4* RESTRICT columnHalfExtents = tileHalfExtentsB;
#endif
    for (int row = GLOBAL_ID / TILE_SIZE; row < numRows; row += GLOBAL_SIZE / TILE_SIZE) {
        if (row >= NUM_TILES_A) {
            const int slot = (row - NUM_TILES_A) * TILE_SIZE + lane;
            if (slot < numColumns)
                listPositionsB[slot] = columnPositions[slot];
            continue;
        }
        const int rowSlot = row * TILE_SIZE + lane;
        const int numRowSlots = min(TILE_SIZE, NUM_A - row * TILE_SIZE);
        const real4 rowCenter = tileCentersA[row], rowHalf = tileHalfExtentsA[row];
        // Without minimum images where one periodic copy suffices (or there is no periodicity): the row atoms
        // (here) and each column atom (below) at their images nearest the row tile's centre, tested against
        // the row tile's parts first.
#ifdef USE_PERIODIC
        const bool direct = oneImageSuffices(rowCenter, rowHalf, (real) PADDED_LIST_CUTOFF, periodicBoxSize);
#else
        const bool direct = true;
#endif
        if (rowSlot < NUM_A) {
            real4 pos = sortedPositionsA[rowSlot];
            listPositionsA[rowSlot] = pos;
#ifdef USE_PERIODIC
            if (direct) {
                const real3 image = imageNearest(make_real3(pos.x, pos.y, pos.z), rowCenter, periodicBoxSize,
                                                 invPeriodicBoxSize);
                pos = make_real4(image.x, image.y, image.z, pos.w);
            }
#endif
            rowPositions[lane] = pos;
        }
        LIST_SYNC;
        if (direct)
            computeRowParts(rowPositions, numRowSlots, lane, partLows, partHighs);
        LIST_SYNC;
        int count = 0; // slots waiting in buffer (the same in every lane)
        for (int columnBase = (MODE_IS_SELF ? row + 1 : 0); columnBase < numColumnTiles; columnBase += TILE_SIZE) {
            const int columnTile = columnBase + lane;
            const bool hit = columnTile < numColumnTiles &&
                             tilesInteract(row, columnTile, tileCentersA, tileHalfExtentsA, columnCenters,
                                           columnHalfExtents, (real) PADDED_LIST_CUTOFF_SQUARED, BOX_ARGS);
            int numHits;
            const int rank = warpExclusiveCount(hit, lane, &numHits, scratch);
            if (hit)
                hits[rank] = columnTile;
            LIST_SYNC;
            for (int h = 0; h < numHits; h++) {
                const int slot = hits[h] * TILE_SIZE + lane;
                bool near = false;
                if (slot < numColumns) {
                    const real4 pos = columnPositions[slot];
                    real3 position = make_real3(pos.x, pos.y, pos.z);
                    if (atomNearTile(position, rowCenter, rowHalf, BOX_ARGS)) {
                        if (direct) {
#ifdef USE_PERIODIC
                            position = imageNearest(position, rowCenter, periodicBoxSize, invPeriodicBoxSize);
#endif
                            near = atomNearRowParts(position, rowPositions, numRowSlots, partLows, partHighs,
                                                    BOX_ARGS);
                        }
                        else
                            near = atomNearRowAtoms(position, rowPositions, 0, numRowSlots, true, BOX_ARGS);
                    }
                }
                int numNear;
                const int offset = warpExclusiveCount(near, lane, &numNear, scratch);
                if (near)
                    buffer[count + offset] = slot;
                count += numNear;
                LIST_SYNC;
                if (count >= LIST_HELD_CHUNKS * TILE_SIZE) {
                    writeChunks(row, LIST_HELD_CHUNKS * TILE_SIZE, buffer, lane, listState, chunkRows, chunkSlots,
                                capacity, scratch);
                    const int carried = (LIST_HELD_CHUNKS * TILE_SIZE + lane < count ?
                                         buffer[LIST_HELD_CHUNKS * TILE_SIZE + lane] : -1);
                    LIST_SYNC;
                    buffer[lane] = carried;
                    LIST_SYNC;
                    count -= LIST_HELD_CHUNKS * TILE_SIZE;
                }
            }
            LIST_SYNC; // every lane has read hits before the next batch overwrites it
        }
        if (count > 0)
            writeChunks(row, count, buffer, lane, listState, chunkRows, chunkSlots, capacity, scratch);
        LIST_SYNC;
    }
}
#endif
