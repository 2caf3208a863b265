/**
 * The slots' spatial order (Hilbert-curve sort keys, the sorted slots) and the tiles' bounding boxes, with the
 * tests that cull by them (tilesInteract; atomNearTile in neighborList.cc).
 */

/**
 * Spread the low 10 bits of v so that they occupy every third bit (to interleave three 10-bit numbers).
 */
DEVICE int spreadBits(int v) {
    v &= 0x3ff;
    v = (v | (v << 16)) & 0x030000FF;
    v = (v | (v << 8)) & 0x0300F00F;
    v = (v | (v << 4)) & 0x030C30C3;
    v = (v | (v << 2)) & 0x09249249;
    return v;
}

/**
 * The index along a 3-D Hilbert curve (10 bits per axis, 30 bits) of the cell (x, y, z), each in 0..1023:
 * John Skilling's transform of the axes to the curve's "transpose" (Programming the Hilbert curve, AIP
 * Conf. Proc. 707, 381 (2004)), whose bits, interleaved, are the index. Consecutive indices are adjacent
 * cells, so runs of 32 sorted slots are compact (about cubes), where a Morton order gives slabs.
 */
DEVICE int hilbertIndex(int x, int y, int z) {
    int X[3] = {x, y, z};
    // Undo the excess work of the curve's recursion, from the highest bit down.
    for (int q = 512; q > 1; q >>= 1) {
        const int p = q - 1;
        for (int i = 0; i < 3; i++) {
            if (X[i] & q)
                X[0] ^= p; // invert
            else {
                const int t = (X[0] ^ X[i]) & p; // exchange
                X[0] ^= t;
                X[i] ^= t;
            }
        }
    }
    // Gray encode.
    X[1] ^= X[0];
    X[2] ^= X[1];
    int t = 0;
    for (int q = 512; q > 1; q >>= 1)
        if (X[2] & q)
            t ^= q - 1;
    X[0] ^= t;
    X[1] ^= t;
    X[2] ^= t;
    return (spreadBits(X[0]) << 2) | (spreadBits(X[1]) << 1) | spreadBits(X[2]);
}

/**
 * A cell coordinate in 0..1023 from a real number of cells (clamped before the conversion to int).
 */
DEVICE int cellCoordinate(real cells) {
    return ((int) floor(fmin(fmax(cells, (real) -1e9), (real) 1e9))) & 1023;
}

/**
 * Sort keys for the slots of one group: (Hilbert index of the atom's cell) << 32 | slot. The slot in the
 * low bits makes every key unique, so the sorted order (and every sum that follows it) is deterministic.
 * A periodic force uses 1024 cells along each box vector; a non-periodic one cells of 1/INV_SORT_CELL nm
 * (the code repeats every 1024 cells: only locality is at stake, never correctness).
 */
KERNEL void computeSortKeys(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT atoms, GLOBAL const int* RESTRICT uniques, int numSlots,
        GLOBAL mm_long* RESTRICT keys, BOX_PARAMS CENTER_KERNEL_PARAMS) {
    PREPARE_CENTERS
    for (int slot = GLOBAL_ID; slot < numSlots; slot += GLOBAL_SIZE) {
        real3 pos = atomPosition(posq, cellOffsets, atoms[slot], uniques[slot], periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ
                                 CENTER_POSITION_ARGS);
#ifdef USE_PERIODIC
        real scale3 = floor(pos.z * invPeriodicBoxSize.z);
        pos.x -= scale3 * periodicBoxVecZ.x;
        pos.y -= scale3 * periodicBoxVecZ.y;
        pos.z -= scale3 * periodicBoxVecZ.z;
        real scale2 = floor(pos.y * invPeriodicBoxSize.y);
        pos.x -= scale2 * periodicBoxVecY.x;
        pos.y -= scale2 * periodicBoxVecY.y;
        pos.x -= floor(pos.x * invPeriodicBoxSize.x) * periodicBoxVecX.x;
        const int cx = min(cellCoordinate(pos.x * invPeriodicBoxSize.x * 1024), 1023);
        const int cy = min(cellCoordinate(pos.y * invPeriodicBoxSize.y * 1024), 1023);
        const int cz = min(cellCoordinate(pos.z * invPeriodicBoxSize.z * 1024), 1023);
#else
        const int cx = cellCoordinate(pos.x * (real) INV_SORT_CELL);
        const int cy = cellCoordinate(pos.y * (real) INV_SORT_CELL);
        const int cz = cellCoordinate(pos.z * (real) INV_SORT_CELL);
#endif
        keys[slot] = (((mm_long) hilbertIndex(cx, cy, cz)) << 32) | (mm_long) slot;
    }
}

/**
 * The slots in sorted order: sortedAtoms[k] = atoms[slot of key k] (and the same for the gradient rows).
 * Runs after each sort and after each reordering of the atoms.
 */
KERNEL void gatherSortedSlots(GLOBAL const mm_long* RESTRICT keys, GLOBAL const int* RESTRICT atoms,
        GLOBAL const int* RESTRICT uniques, GLOBAL int* RESTRICT sortedAtoms, GLOBAL int* RESTRICT sortedUniques,
        int numSlots
#ifdef COORDINATION_NUMBERS
        , GLOBAL int* RESTRICT rowOfSlot
#endif
#ifdef NEIGHBOR_PARTNERS
        , GLOBAL int* RESTRICT sortedClass, int classBoundary
#endif
        ) {
    for (int index = GLOBAL_ID; index < numSlots; index += GLOBAL_SIZE) {
        const int slot = (int) (keys[index] & 0xFFFFFFFF);
        sortedAtoms[index] = atoms[slot];
        sortedUniques[index] = uniques[slot];
#ifdef COORDINATION_NUMBERS
        rowOfSlot[slot] = index;
#endif
#ifdef NEIGHBOR_PARTNERS
        sortedClass[index] = (slot < classBoundary ? 1 : 2); // the classes of CommonPerAtomArrays
#endif
    }
}

#ifdef USE_NEIGHBOR_LIST
/**
 * Whether a slot moved more than half the skin since the list was built (plain difference: an atom that
 * OpenMM wrapped into the box counts as moved, which only costs a rebuild). NaN counts as moved.
 */
DEVICE bool movedTooFar(real3 pos, real4 listPos) {
    const real dx = pos.x - listPos.x, dy = pos.y - listPos.y, dz = pos.z - listPos.z;
    return !(dx * dx + dy * dy + dz * dz <= (real) HALF_SKIN_SQUARED);
}
#endif

/**
 * The bounding box of each tile of 32 sorted slots (centre and half extents), and every sorted slot's
 * position (sortedPositions: what the list build and the tile kernel read, contiguous in the sorted order
 * instead of through slot -> atom -> posq). Periodic: every atom is taken at its image nearest the tile's
 * first atom, so a tile that straddles the box edge stays compact. One thread per slot, BOUNDS_BLOCK_SIZE / 32
 * tiles per block, each tile's extents reduced over its 32 threads in local memory (min and max are exact,
 * so the boxes do not depend on the order). A slot whose position is not finite raises nonFiniteFlags[parity].
 */
KERNEL void computeTileBounds(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT sortedAtoms, GLOBAL const int* RESTRICT sortedUniques, int numSlots, int numTiles,
        GLOBAL real4* RESTRICT centers, GLOBAL real4* RESTRICT halfExtents, GLOBAL real4* RESTRICT sortedPositions,
        BOX_PARAMS, GLOBAL int* RESTRICT nonFiniteFlags, int parity
#ifdef USE_NEIGHBOR_LIST
        , GLOBAL const real4* RESTRICT listPositions, GLOBAL int* RESTRICT listState, int capacity, int forceRebuild,
        int keepsBooks
#endif
        CENTER_KERNEL_PARAMS) {
    PREPARE_CENTERS
    LOCAL real4 origins[BOUNDS_BLOCK_SIZE / TILE_SIZE];
    LOCAL real lows[3 * BOUNDS_BLOCK_SIZE];
    LOCAL real highs[3 * BOUNDS_BLOCK_SIZE];
    LOCAL int invalid[BOUNDS_BLOCK_SIZE];
#ifdef USE_NEIGHBOR_LIST
    // The list's books (one thread of group A's launch). The previous evaluation's flag (1 - parity) says
    // whether it built a list: that list is now the current one. This evaluation's flag is raised by the
    // host (forceRebuild: new order, new box, first use), by an incomplete list and, below, by any slot
    // that moved more than half the skin since the list was built. The tile kernel's work counter restarts.
    if (keepsBooks && GLOBAL_ID == 0) {
        if (listState[LIST_STATE_REBUILD + 1 - parity]) {
            listState[LIST_STATE_CHUNKS] = listState[LIST_STATE_BUILT];
            listState[LIST_STATE_REBUILD + 1 - parity] = 0;
        }
        listState[LIST_STATE_BUILT] = 0;
        listState[LIST_STATE_NEXT_ITEM] = 0;
        if (forceRebuild || listState[LIST_STATE_CHUNKS] > capacity)
            listState[LIST_STATE_REBUILD + parity] = 1;
    }
    bool moved = false;
#endif
    const int lane = LOCAL_ID % TILE_SIZE, tileInBlock = LOCAL_ID / TILE_SIZE;
    // The same number of iterations in every thread of a block (the loop holds barriers).
    for (int base = GROUP_ID * BOUNDS_BLOCK_SIZE; base < numTiles * TILE_SIZE; base += NUM_GROUPS * BOUNDS_BLOCK_SIZE) {
        const int slot = base + LOCAL_ID;
        const int tile = slot / TILE_SIZE;
        const bool valid = slot < numSlots;
        real3 pos = make_real3(0, 0, 0);
        if (valid) {
            pos = atomPosition(posq, cellOffsets, sortedAtoms[slot], sortedUniques[slot], periodicBoxVecX,
                               periodicBoxVecY, periodicBoxVecZ CENTER_POSITION_ARGS);
            sortedPositions[slot] = make_real4(pos.x, pos.y, pos.z, 1);
            if (!isFinitePosition(pos))
                nonFiniteFlags[parity] = 1;
#ifdef USE_NEIGHBOR_LIST
            moved = moved || movedTooFar(pos, listPositions[slot]);
#endif
        }
        if (lane == 0)
            origins[tileInBlock] = make_real4(pos.x, pos.y, pos.z, 0);
        SYNC_THREADS;
        const real4 origin = origins[tileInBlock];
        // The first slot is the origin (delta 0, not computed: a NaN origin makes the centre NaN, never culled);
        // slots past the group's end add 0, which the first slot has already put in the box.
        real3 delta = make_real3(0, 0, 0);
        bool notANumber = false;
        if (valid && lane > 0) {
            delta = make_real3(pos.x - origin.x, pos.y - origin.y, pos.z - origin.z);
#ifdef USE_PERIODIC
            if (!triclinic)
                delta = wrapRectangular(delta, periodicBoxSize, invPeriodicBoxSize);
#endif
            notANumber = isnan(delta.x + delta.y + delta.z);
        }
        lows[LOCAL_ID] = delta.x;
        lows[LOCAL_ID + BOUNDS_BLOCK_SIZE] = delta.y;
        lows[LOCAL_ID + 2 * BOUNDS_BLOCK_SIZE] = delta.z;
        highs[LOCAL_ID] = delta.x;
        highs[LOCAL_ID + BOUNDS_BLOCK_SIZE] = delta.y;
        highs[LOCAL_ID + 2 * BOUNDS_BLOCK_SIZE] = delta.z;
        invalid[LOCAL_ID] = (notANumber ? 1 : 0);
        SYNC_THREADS;
        for (int offset = TILE_SIZE / 2; offset > 0; offset /= 2) {
            if (lane < offset) {
                // fmin/fmax drop a NaN (the flag keeps it).
                for (int axis = 0; axis < 3; axis++) {
                    const int index = LOCAL_ID + axis * BOUNDS_BLOCK_SIZE;
                    lows[index] = fmin(lows[index], lows[index + offset]);
                    highs[index] = fmax(highs[index], highs[index + offset]);
                }
                invalid[LOCAL_ID] |= invalid[LOCAL_ID + offset];
            }
            SYNC_THREADS;
        }
        if (lane == 0 && tile < numTiles) {
            const real3 low = make_real3(lows[LOCAL_ID], lows[LOCAL_ID + BOUNDS_BLOCK_SIZE],
                                         lows[LOCAL_ID + 2 * BOUNDS_BLOCK_SIZE]);
            real3 high = make_real3(highs[LOCAL_ID], highs[LOCAL_ID + BOUNDS_BLOCK_SIZE],
                                    highs[LOCAL_ID + 2 * BOUNDS_BLOCK_SIZE]);
            // A NaN: enormous extents, so that the tile is never culled and the NaN reaches s as it would
            // without culling.
            if (invalid[LOCAL_ID])
                high = make_real3((real) 1e30, (real) 1e30, (real) 1e30);
            centers[tile] = make_real4(origin.x + (real) 0.5 * (low.x + high.x), origin.y + (real) 0.5 * (low.y + high.y),
                                       origin.z + (real) 0.5 * (low.z + high.z), 0);
            halfExtents[tile] = make_real4((real) 0.5 * (high.x - low.x), (real) 0.5 * (high.y - low.y),
                                           (real) 0.5 * (high.z - low.z), 0);
        }
        SYNC_THREADS; // before the next iteration overwrites origins and the reductions
    }
#ifdef USE_NEIGHBOR_LIST
    if (moved)
        listState[LIST_STATE_REBUILD + parity] = 1;
#endif
}

#ifdef USE_CULLING
/**
 * The squared gap between two axis-aligned boxes (centres a and b, half extents halfA and halfB), per axis
 * (minimum image of the centres in a rectangular box). Far from the origin the centres carry rounding
 * errors of a few ulps of the coordinates (a force without PBC sees unwrapped positions): each axis's gap is
 * narrowed by 1e-6 of their magnitude (single precision: ~8 ulps). fmax drops a NaN: that axis's gap is 0.
 */
DEVICE real boxGapSquared(real4 a, real4 halfA, real4 b, real4 halfB, BOX_PARAMS) {
    real3 delta = make_real3(b.x - a.x, b.y - a.y, b.z - a.z);
#ifdef USE_PERIODIC
    delta = wrapRectangular(delta, periodicBoxSize, invPeriodicBoxSize);
#endif
    const real dx = fmax((real) 0, fabs(delta.x) - halfA.x - halfB.x - (real) 1e-6 * (fabs(a.x) + fabs(b.x)));
    const real dy = fmax((real) 0, fabs(delta.y) - halfA.y - halfB.y - (real) 1e-6 * (fabs(a.y) + fabs(b.y)));
    const real dz = fmax((real) 0, fabs(delta.z) - halfA.z - halfB.z - (real) 1e-6 * (fabs(a.z) + fabs(b.z)));
    return dx * dx + dy * dy + dz * dz;
}

/**
 * Whether any pair of a row tile and a column tile can be within the cutoff: the gap between their
 * bounding boxes, per axis (minimum image of the centres in a rectangular box), against the cutoff
 * padded for rounding. A triclinic box is not culled.
 */
DEVICE bool tilesInteract(int rowTile, int columnTile, GLOBAL const real4* RESTRICT rowCenters,
        GLOBAL const real4* RESTRICT rowHalfExtents, GLOBAL const real4* RESTRICT columnCenters,
        GLOBAL const real4* RESTRICT columnHalfExtents, const real paddedCutoffSquared, BOX_PARAMS) {
#ifdef USE_PERIODIC
    if (triclinic)
        return true;
#endif
    return boxGapSquared(rowCenters[rowTile], rowHalfExtents[rowTile], columnCenters[columnTile],
                         columnHalfExtents[columnTile], BOX_ARGS) <= paddedCutoffSquared;
}
#endif