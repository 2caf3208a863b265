/**
 * The GPU kernels of this plugin on OpenMM's common compute framework: one source for CUDA and OpenCL, in the
 * folders of platforms/common/src/kernels, which the host compiles at run time. Every program starts with
 *   base/common.cc          types, the periodic box, finiteness, compensated and fixed-point sums, warp rotations
 *   base/reductions.cc      reductions over a block (tree order, by-warp order), the block scan
 *   energy/energyOutputs.cc the energy's outputs (with the code CommonEnergyCode generates)
 *   centres/centers.cc      centres (HAS_CENTERS): their positions and the spread of their forces
 * The pair traversal (CommonPairProgram: CoordinationForce, CoordinationNumberForce) then has
 *   switching/switching.cc  sigma(r) of every switching function type (SWITCH_*), and one pair's contribution
 *   pairs/sorting.cc        the slots' spatial order (sort keys, gather) and the tiles' bounding boxes
 *   pairs/neighborList.cc   the neighbour list of (row tile, column slots) chunks
 *   pairs/finish.cc         s from the partial sums, E(s), and the forces
 *   the body's source       nothing for CoordinationForce; peratom/perAtomPairs.cc and peratom/perAtomFinish.cc for
 *                           the per-atom engine (COORDINATION_NUMBERS)
 *   pairs/tiles.cc          the tile kernel (Self, Dual) and the pair kernel (Pair)
 *   base/reorder.cc         following OpenMM's reordering of the atoms
 * and the contact map (CommonContactMapProgram) switching.cc once per kind, reorder.cc and contactmap/contactmap.cc.
 *
 * In the pair traversal a non-finite coordinate of any slot's atom raises nonFiniteFlags[parity] (parity: the evaluation's, alternating;
 * the tile kernel clears the other flag for the next evaluation): computeTileBounds raises it where it runs
 * (culling), otherwise the tile or pair kernel. The finish then reports s and E as NaN and applies no force, as
 * it does wherever E or dE/ds is not finite: the rule of every platform (a fixed-point force cannot hold a NaN).
 *
 * One evaluation is two launches (one for small groups on CUDA: FUSED_FINISH), none of them synchronized
 * with the host. With a cutoff over many tiles (USE_CULLING) there are also a small launch for the tile
 * bounds (which also tests the atoms' motion for the neighbour list), the list build (USE_NEIGHBOR_LIST;
 * it returns at once unless a rebuild is flagged) and, every 100 evaluations (the host's SortInterval), a
 * re-sort:
 *   1. computeCoordinationTiles / computeCoordinationPairs: every pair once; each block writes its
 *      partial sum of s to partialSums (fixed order: deterministic; with the list, fixed-point partials
 *      to partialFixed: exact in any order) and, if requested, adds ds/dx into gradientBuffer (64-bit
 *      fixed point: deterministic). With a cutoff, the slots are kept in spatial (Hilbert-curve) order; the
 *      neighbour list holds, per 32-slot row tile, the column slots within the cutoff plus a skin of its
 *      bounding box, in chunks of 32 (without the list, pairs of tiles whose bounding boxes are farther
 *      apart than the cutoff are skipped).
 *   2. finishCoordination: every block sums the partials in the same fixed order and evaluates E(s)
 *      and dE/ds (code generated from the Lepton expression); block 0 adds E to the energy buffer;
 *      then F -= dE/ds * ds/dx into OpenMM's force buffer, and the gradient is cleared.
 *
 * The pair traversal's host defines (CommonPairProgram): TILE_SIZE (32), WARPS_PER_BLOCK, PAIR_BLOCK_SIZE, FINISH_BLOCK_SIZE, NUM_A, NUM_B, NUM_GRADIENT_ROWS,
 * MODE_SELF/MODE_DUAL/MODE_PAIR, NUM_TILES_A, NUM_TILES_B, NUM_TILES, PADDED_NUM_ATOMS, USE_PERIODIC, USE_CUTOFF,
 * CUTOFF_SQUARED, USE_CULLING, CULL_CHUNK, PADDED_CUTOFF, PADDED_CUTOFF_SQUARED, INV_SORT_CELL, CHECK_SAME_ATOM, FUSED_FINISH,
 * HAS_PARAMETER_DERIVATIVES, REAL_IS_DOUBLE, MIXED_IS_DOUBLE, the switching function's (switching.cc); with centres
 * HAS_CENTERS, NUM_ATOMS, NUM_CENTERS, NUM_CENTER_ENTRIES, NUM_SLOT_ROWS, CENTER_LANES, CENTER_BATCH, CENTERS_IN_BLOCK,
 * CENTER_OFFSETS and CENTER_OFFSET_BASE (centers.cc); with the list USE_NEIGHBOR_LIST,
 * PADDED_LIST_CUTOFF, PADDED_LIST_CUTOFF_SQUARED, HALF_SKIN_SQUARED, LIST_WARPS_PER_BLOCK and LIST_STATE_* (indices into the
 * list's state: rebuild flags for even/odd evaluations, chunks of the build under way, chunks of the list).
 * Host replacements: COMPUTE_ENERGY, ADD_PARAMETER_DERIVATIVES (finish.cc), CUSTOM_SWITCHING_FUNCTION
 * (switching.cc).
 */

#if defined(__CUDA_ARCH__)
// CUDA: warp shuffles and ballots. The tile loop moves the column atoms around the warp in registers
// instead of local memory (it halves the traffic through the load/store pipe that bounds the local-memory
// loop), and the neighbour-list build counts with ballots.
#define USE_WARP_SHUFFLE
#endif

#ifdef USE_WARP_SHUFFLE
/**
 * A tile's column rotated one lane round the warp (every lane takes lane `source`'s): its position, and its w (whether
 * there is one) where the tile is checked pair by pair.
 */
DEVICE real4 rotateColumn(real4 column, const int source, const bool checked) {
    column.x = __shfl_sync(0xffffffff, column.x, source);
    column.y = __shfl_sync(0xffffffff, column.y, source);
    column.z = __shfl_sync(0xffffffff, column.z, source);
    if (checked)
        column.w = __shfl_sync(0xffffffff, column.w, source);
    return column;
}

/** A column's accumulator rotated with it (rotateColumn). */
DEVICE real3 rotateReal3(real3 value, const int source) {
    value.x = __shfl_sync(0xffffffff, value.x, source);
    value.y = __shfl_sync(0xffffffff, value.y, source);
    value.z = __shfl_sync(0xffffffff, value.z, source);
    return value;
}
#endif

/** The periodic box, as every kernel that looks at positions receives it. */
#define BOX_PARAMS real4 periodicBoxSize, real4 invPeriodicBoxSize, real4 periodicBoxVecX, real4 periodicBoxVecY, \
                   real4 periodicBoxVecZ, int triclinic, real halfWidth2
#define BOX_ARGS periodicBoxSize, invPeriodicBoxSize, periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ, triclinic, halfWidth2

/** OpenMM's energy-parameter-derivative buffer and where each requested derivative goes in it. */
#ifdef HAS_PARAMETER_DERIVATIVES
#define DERIVATIVE_PARAMS , GLOBAL mixed* RESTRICT energyParamDerivs, GLOBAL const int* RESTRICT parameterDerivativeIndices
#define DERIVATIVE_ARGS , energyParamDerivs, parameterDerivativeIndices
#else
#define DERIVATIVE_PARAMS
#define DERIVATIVE_ARGS
#endif

#ifdef MODE_SELF
#define MODE_IS_SELF true
#else
#define MODE_IS_SELF false
#endif

/**
 * A displacement wrapped along each axis of a rectangular box (the nearest image when the box is
 * rectangular; the first step of minimumImage in a triclinic one).
 */
DEVICE real3 wrapRectangular(real3 delta, real4 periodicBoxSize, real4 invPeriodicBoxSize) {
    delta.x -= floor(delta.x * invPeriodicBoxSize.x + (real) 0.5) * periodicBoxSize.x;
    delta.y -= floor(delta.y * invPeriodicBoxSize.y + (real) 0.5) * periodicBoxSize.y;
    delta.z -= floor(delta.z * invPeriodicBoxSize.z + (real) 0.5) * periodicBoxSize.z;
    return delta;
}

/** The image of pos nearest centre (rectangular box). */
DEVICE real3 imageNearest(real3 pos, real4 centre, real4 periodicBoxSize, real4 invPeriodicBoxSize) {
    const real3 offset = wrapRectangular(make_real3(pos.x - centre.x, pos.y - centre.y, pos.z - centre.z),
                                         periodicBoxSize, invPeriodicBoxSize);
    return make_real3(centre.x + offset.x, centre.y + offset.y, centre.z + offset.z);
}

/**
 * Whether one periodic copy suffices for a tile (rectangular box): half the box exceeds the tile's half extent
 * plus the cutoff on every axis (with a margin of 1e-6 of the box and the coordinate, whose rounding can move
 * the choice of image). Then every atom's image nearest the tile's centre differs from each of the tile's
 * atoms (at theirs) by the minimum image, for every pair within the cutoff; a pair beyond it may get another
 * image, which is still beyond it.
 */
DEVICE bool clearOfHalfBox(real edge, real centre, real halfExtent, real cutoff) {
    return (real) 0.5 * edge - halfExtent > cutoff + (real) 1e-6 * (edge + fabs(centre));
}

DEVICE bool oneImageSuffices(real4 centre, real4 halfExtent, real cutoff, real4 periodicBoxSize) {
    return clearOfHalfBox(periodicBoxSize.x, centre.x, halfExtent.x, cutoff) &&
           clearOfHalfBox(periodicBoxSize.y, centre.y, halfExtent.y, cutoff) &&
           clearOfHalfBox(periodicBoxSize.z, centre.z, halfExtent.z, cutoff);
}

/**
 * The minimum-image displacement. Wrapping along c, b, a gives the minimum image whenever it is shorter
 * than half the smallest box width (halfWidth2 = its square); otherwise, in a triclinic box, the
 * neighbouring images are searched, as in the Reference platform.
 */
DEVICE real3 minimumImage(real3 delta, BOX_PARAMS) {
    if (!triclinic)
        return wrapRectangular(delta, periodicBoxSize, invPeriodicBoxSize);
    real scale3 = floor(delta.z * invPeriodicBoxSize.z + (real) 0.5);
    delta.x -= scale3 * periodicBoxVecZ.x;
    delta.y -= scale3 * periodicBoxVecZ.y;
    delta.z -= scale3 * periodicBoxVecZ.z;
    real scale2 = floor(delta.y * invPeriodicBoxSize.y + (real) 0.5);
    delta.x -= scale2 * periodicBoxVecY.x;
    delta.y -= scale2 * periodicBoxVecY.y;
    real scale1 = floor(delta.x * invPeriodicBoxSize.x + (real) 0.5);
    delta.x -= scale1 * periodicBoxVecX.x;
    real best2 = delta.x * delta.x + delta.y * delta.y + delta.z * delta.z;
    if (best2 <= halfWidth2)
        return delta;
    real3 best = delta;
    for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++)
            for (int k = -1; k <= 1; k++) {
                real3 image = make_real3(delta.x + i * periodicBoxVecX.x + j * periodicBoxVecY.x + k * periodicBoxVecZ.x,
                                         delta.y + j * periodicBoxVecY.y + k * periodicBoxVecZ.y,
                                         delta.z + k * periodicBoxVecZ.z);
                real length2 = image.x * image.x + image.y * image.y + image.z * image.z;
                if (length2 < best2) {
                    best2 = length2;
                    best = image;
                }
            }
    return best;
}

/** The position of an atom in OpenMM's buffer as the user sees it (the wrapping of cellOffsets `offset` undone). */
DEVICE real3 unwrappedPosition(real4 pos, int4 offset, real4 periodicBoxVecX, real4 periodicBoxVecY,
                               real4 periodicBoxVecZ) {
    return make_real3(pos.x - offset.x * periodicBoxVecX.x - offset.y * periodicBoxVecY.x - offset.z * periodicBoxVecZ.x,
                      pos.y - offset.y * periodicBoxVecY.y - offset.z * periodicBoxVecZ.y,
                      pos.z - offset.z * periodicBoxVecZ.z);
}

/**
 * Finiteness from the bits (an exponent of all ones is infinity or NaN): OpenMM compiles OpenCL with fast,
 * finite-only math, under which isfinite and isnan may be folded to constants. NOT_A_NUMBER_REAL and
 * NOT_A_NUMBER_MIXED are quiet NaNs of type real and mixed, made from their bits for the same reason.
 */
#ifdef __CUDA_ARCH__
DEVICE bool floatIsFinite(float x) { return (__float_as_uint(x) & 0x7f800000u) != 0x7f800000u; }
#else
DEVICE bool floatIsFinite(float x) { return (as_uint(x) & 0x7f800000u) != 0x7f800000u; }
#endif
#if defined(REAL_IS_DOUBLE) || defined(MIXED_IS_DOUBLE)
#ifdef __CUDA_ARCH__
DEVICE bool doubleIsFinite(double x) {
    return (((mm_ulong) __double_as_longlong(x)) & 0x7ff0000000000000ul) != 0x7ff0000000000000ul;
}
#else
DEVICE bool doubleIsFinite(double x) { return (as_ulong(x) & 0x7ff0000000000000ul) != 0x7ff0000000000000ul; }
#endif
#endif
#ifdef __CUDA_ARCH__
#define FLOAT_NAN __uint_as_float(0x7fc00000u)
#define DOUBLE_NAN __longlong_as_double(0x7ff8000000000000ll)
#else
#define FLOAT_NAN as_float(0x7fc00000u)
#define DOUBLE_NAN as_double(0x7ff8000000000000ul)
#endif
#ifdef REAL_IS_DOUBLE
#define REAL_IS_FINITE(x) doubleIsFinite(x)
#define NOT_A_NUMBER_REAL DOUBLE_NAN
#else
#define REAL_IS_FINITE(x) floatIsFinite(x)
#define NOT_A_NUMBER_REAL FLOAT_NAN
#endif
#ifdef MIXED_IS_DOUBLE
#define MIXED_IS_FINITE(x) doubleIsFinite(x)
#define NOT_A_NUMBER_MIXED DOUBLE_NAN
#else
#define MIXED_IS_FINITE(x) floatIsFinite(x)
#define NOT_A_NUMBER_MIXED FLOAT_NAN
#endif

/** Whether a position's three coordinates are finite. */
DEVICE bool isFinitePosition(real3 pos) {
    return REAL_IS_FINITE(pos.x) && REAL_IS_FINITE(pos.y) && REAL_IS_FINITE(pos.z);
}

/**
 * A pair's gradient with respect to its second atom (the tile's column) into the sums of the row (the first atom:
 * minus it) and of the column (plus it).
 */
DEVICE void addPairGradient(const real3 gradient, real3* rowGradient, real3* columnGradient) {
    rowGradient->x -= gradient.x;
    rowGradient->y -= gradient.y;
    rowGradient->z -= gradient.z;
    columnGradient->x += gradient.x;
    columnGradient->y += gradient.y;
    columnGradient->z += gradient.z;
}

/**
 * Kahan-compensated accumulation, so that s stays accurate over billions of terms in single precision.
 */
DEVICE void compensatedAdd(mixed* sum, mixed* compensation, mixed value) {
    mixed corrected = value - *compensation;
    mixed total = *sum + corrected;
    *compensation = (total - *sum) - corrected;
    *sum = total;
}


#ifdef USE_NEIGHBOR_LIST
/**
 * s in 64-bit fixed point, so that it does not depend on the order in which the list's chunks are
 * visited (that order comes from atomics): value * 2^20 = hi + lo * 2^-32, both integers (exact for
 * every finite tile sum; below 2^-52 the rest is dropped, the same way every time). Integer sums are
 * exact in any order. Infinity and NaN go to the floating-point sum instead, so that they reach s.
 */
DEVICE void addFixedPoint(mm_long* hi, mm_long* lo, mixed* sum, mixed* compensation, real value) {
    if (!REAL_IS_FINITE(value)) {
        compensatedAdd(sum, compensation, (mixed) value);
        return;
    }
    const real scaled = value * (real) 1048576;
    const real whole = floor(scaled);
    *hi += (mm_long) whole;
    *lo += (mm_long) ((scaled - whole) * (real) 4294967296.0);
}
#endif

#ifdef NUM_GRADIENT_ROWS
#ifdef HAS_CENTERS
/**
 * Centre k's gradient row in an evaluation of parity `parity`: the centres' rows are kept twice, by parity. The
 * evaluation's pair kernel adds to its parity's rows and clears the other parity's (the previous evaluation's, which
 * its finish has spread; nothing touches them in this evaluation); the finish spreads this parity's rows.
 */
DEVICE int centerGradientRow(int center, int parity) {
    return NUM_SLOT_ROWS + parity * NUM_CENTERS + center;
}

/** Clear the centres' gradient rows of the other parity (the pair kernel, every evaluation). */
DEVICE void clearOtherCenterRows(GLOBAL mm_long* RESTRICT gradientBuffer, int parity) {
    for (int center = GLOBAL_ID; center < NUM_CENTERS; center += GLOBAL_SIZE)
        for (int component = 0; component < 3; component++)
            gradientBuffer[centerGradientRow(center, 1 - parity) + component * NUM_GRADIENT_ROWS] = 0;
}
#endif

/**
 * The gradient row of a slot: its row (below), or, for a slot whose atom is centre k, centerGradientRow(k, parity),
 * which collects the centre's gradient from all its slots.
 */
DEVICE int gradientRowOf(int row, int atom, int parity) {
#ifdef HAS_CENTERS
    if (atom >= NUM_ATOMS)
        return centerGradientRow(atom - NUM_ATOMS, parity);
#endif
    return row;
}

/**
 * Add a gradient (64-bit fixed point) to one row of gradientBuffer. The rows are slots, not atoms: row k is
 * A's slot k, row NUM_A + k B's slot k (Dual, Pair), in the tile kernel's (sorted) order, so the 32 rows of a
 * tile are 32 consecutive entries (then, with centres, a row per centre: gradientRowOf). The finish adds each
 * row to its slot's atom.
 */
DEVICE void addGradient(GLOBAL mm_long* RESTRICT gradientBuffer, int row, real3 gradient) {
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[row], (mm_ulong) realToFixedPoint(gradient.x));
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[row + NUM_GRADIENT_ROWS], (mm_ulong) realToFixedPoint(gradient.y));
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[row + 2 * NUM_GRADIENT_ROWS], (mm_ulong) realToFixedPoint(gradient.z));
}
#endif
