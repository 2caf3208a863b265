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
 * Whether an atom is within the list cutoff (padded as in atomNearTile) of at least one of the first
 * numRows positions of a row tile: the exact test after atomNearTile's quick one (a column atom near the
 * tile's box but far from all its atoms would cost a lane of every chunk it joins, for nothing). A NaN
 * anywhere counts as near.
 */
DEVICE bool atomNearRowAtoms(real3 pos, LOCAL_ARG const real4* rowPositions, int numRows, BOX_PARAMS) {
    for (int k = 0; k < numRows; k++) {
        const real4 row = rowPositions[k];
        real3 delta = make_real3(pos.x - row.x, pos.y - row.y, pos.z - row.z);
#ifdef USE_PERIODIC
        delta = wrapRectangular(delta, periodicBoxSize, invPeriodicBoxSize);
#endif
        if (!(delta.x * delta.x + delta.y * delta.y + delta.z * delta.z > (real) PADDED_LIST_CUTOFF_SQUARED))
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
    for (int offset = 1; offset < TILE_SIZE; offset *= 2) {
        const int add = (lane >= offset ? scratch[lane - offset] : 0);
        SYNC_THREADS;
        scratch[lane] += add;
        SYNC_THREADS;
    }
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

/**
 * Append one chunk (row tile, the first `count` column slots of buffer; the rest -1) to the list. Its
 * place comes from an atomic counter, so the chunks' order varies, but each chunk's content does not:
 * the tile kernel's fixed-point sum of s is the same in any order. Past the capacity nothing is
 * written, and the count tells the host how much room the list needs.
 */
DEVICE void writeChunk(int rowTile, int count, LOCAL_ARG const int* buffer, int lane, GLOBAL int* RESTRICT listState,
        GLOBAL int* RESTRICT chunkRows, GLOBAL int* RESTRICT chunkSlots, int capacity, LOCAL_ARG int* scratch) {
    int chunk = 0;
    if (lane == 0)
        chunk = ATOMIC_ADD(&listState[LIST_STATE_BUILT], 1);
    chunk = warpBroadcast(chunk, lane, scratch);
    if (chunk < capacity) {
        chunkSlots[chunk * TILE_SIZE + lane] = (lane < count ? buffer[lane] : -1);
        if (lane == 0)
            chunkRows[chunk] = rowTile;
    }
}

/**
 * The neighbour list (only when this evaluation's rebuild flag is up; computeTileBounds raises it): for
 * each row tile of A, one warp visits the column tiles (Self: those after it; Dual: all of B) in order,
 * keeps those whose bounding boxes are within cutoff + skin of the row tile's (32 at a time, a ballot),
 * then the column slots of those within cutoff + skin of the row tile's box and of one of its atoms, and packs them into
 * chunks of 32 in that order. It records every slot's position (listPositions) for the motion test.
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
    LOCAL int buffers[LIST_WARPS_PER_BLOCK * 2 * TILE_SIZE];
    LOCAL int hitLists[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL real4 rowPositionLists[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL int scratches[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    const int warpInBlock = LOCAL_ID / TILE_SIZE, lane = LOCAL_ID % TILE_SIZE;
    LOCAL_ARG int* buffer = buffers + warpInBlock * 2 * TILE_SIZE;
    LOCAL_ARG int* hits = hitLists + warpInBlock * TILE_SIZE;
    LOCAL_ARG real4* rowPositions = rowPositionLists + warpInBlock * TILE_SIZE;
    LOCAL_ARG int* scratch = scratches + warpInBlock * TILE_SIZE;
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
        if (rowSlot < NUM_A) {
            const real4 pos = sortedPositionsA[rowSlot];
            listPositionsA[rowSlot] = pos;
            rowPositions[lane] = pos;
        }
        LIST_SYNC;
        const real4 rowCenter = tileCentersA[row], rowHalf = tileHalfExtentsA[row];
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
                    const real3 position = make_real3(pos.x, pos.y, pos.z);
                    near = atomNearTile(position, rowCenter, rowHalf, BOX_ARGS) &&
                           atomNearRowAtoms(position, rowPositions, numRowSlots, BOX_ARGS);
                }
                int numNear;
                const int offset = warpExclusiveCount(near, lane, &numNear, scratch);
                if (near)
                    buffer[count + offset] = slot;
                count += numNear;
                LIST_SYNC;
                if (count >= TILE_SIZE) {
                    writeChunk(row, TILE_SIZE, buffer, lane, listState, chunkRows, chunkSlots, capacity, scratch);
                    const int carried = (lane + TILE_SIZE < count ? buffer[lane + TILE_SIZE] : -1);
                    LIST_SYNC;
                    buffer[lane] = carried;
                    LIST_SYNC;
                    count -= TILE_SIZE;
                }
            }
            LIST_SYNC; // every lane has read hits before the next batch overwrites it
        }
        if (count > 0)
            writeChunk(row, count, buffer, lane, listState, chunkRows, chunkSlots, capacity, scratch);
        LIST_SYNC;
    }
}
#endif
