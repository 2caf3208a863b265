/**
 * CoordinationForce on OpenMM's common compute framework: one source for CUDA and OpenCL.
 *
 * One evaluation is two launches (one for small groups on CUDA: FUSED_FINISH), none of them synchronized
 * with the host. With a cutoff over many tiles (USE_CULLING) there are also a small launch for the tile
 * bounds (which also tests the atoms' motion for the neighbour list), the list build (USE_NEIGHBOR_LIST;
 * it returns at once unless a rebuild is flagged) and, every SORT_INTERVAL evaluations, a re-sort:
 *   1. computeCoordinationTiles / computeCoordinationPairs: every pair once; each block writes its
 *      partial sum of s to partialSums (fixed order: deterministic; with the list, fixed-point partials
 *      to partialFixed: exact in any order) and, if requested, adds ds/dx into gradientBuffer (64-bit
 *      fixed point: deterministic). With a cutoff, the slots are kept in spatial (Morton) order; the
 *      neighbour list holds, per 32-slot row tile, the column slots within the cutoff plus a skin of its
 *      bounding box, in chunks of 32 (without the list, pairs of tiles whose bounding boxes are farther
 *      apart than the cutoff are skipped).
 *   2. finishCoordination: every block sums the partials in the same fixed order and evaluates E(s)
 *      and dE/ds (code generated from the Lepton expression); block 0 adds E to the energy buffer;
 *      then F -= dE/ds * ds/dx into OpenMM's force buffer, and the gradient is cleared.
 *
 * Host defines: TILE_SIZE (32), WARPS_PER_BLOCK, NUM_A, NUM_B, NUM_UNIQUE, MODE_SELF/MODE_DUAL/MODE_PAIR,
 * NUM_TILES_A, NUM_TILES_B, NUM_TILES, USE_PERIODIC, USE_CUTOFF, CUTOFF_SQUARED, USE_CULLING, CULL_CHUNK,
 * PADDED_CUTOFF_SQUARED, INV_SORT_CELL, CHECK_SAME_ATOM, the switching constants (INV_R0, D0, STRETCH_FACTOR,
 * SHIFT; SWITCH_RATIONAL: N_EXP, M_EXP, M_IS_2N, TAYLOR_*, NEAR_ONE_BAND; R2_PATH, INV_R0_SQUARED, R2_BAND,
 * Y_MAX; the other types: SWITCH_OF_R or SWITCH_OF_X2 and the generated SWITCH_VALUE_AND_DERIVATIVE),
 * PADDED_NUM_ATOMS, FINISH_BLOCK_SIZE, NUM_GLOBALS; with the list USE_NEIGHBOR_LIST,
 * PADDED_LIST_CUTOFF_SQUARED, HALF_SKIN_SQUARED, LIST_WARPS_PER_BLOCK and LIST_STATE_* (indices into the
 * list's state: rebuild flags for even/odd evaluations, chunks of the build under way, chunks of the list).
 */

#if defined(__CUDA_ARCH__)
// CUDA: warp shuffles and ballots. The tile loop moves the column atoms around the warp in registers
// instead of local memory (it halves the traffic through the load/store pipe that bounds the local-memory
// loop), and the neighbour-list build counts with ballots.
#define USE_WARP_SHUFFLE
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

/**
 * x^k for a compile-time k >= 0.
 */
DEVICE real integerPower(real x, int k) {
    real result = 1;
    while (k > 0) {
        if (k & 1)
            result *= x;
        x *= x;
        k >>= 1;
    }
    return result;
}

#ifdef SWITCH_RATIONAL
/**
 * PLUMED's rational switching function of r (r <= dmax), stretched; *dSigmaDr receives its derivative.
 * Mirrors RationalSwitchingFunction::evaluate() in openmmapi/include/internal/RationalSwitchingFunction.h,
 * plus NEAR_ONE_BAND: in single/mixed precision the direct ratio loses digits near x = 1 wider than the
 * Taylor band, so there sigma = (1+x+...+x^(n-1)) / (1+x+...+x^(m-1)), the same function without the
 * cancellation.
 */
DEVICE real switchingFunction(real r, real* dSigmaDr) {
    real x = (r - (real) D0) * (real) INV_R0;
    real value, dSigmaDx;
    if (x <= 0) {
        value = 1;
        dSigmaDx = 0;
    }
    else {
#if M_IS_2N
        real xNMinus1 = integerPower(x, N_EXP - 1);
        real inverse = RECIP(1 + xNMinus1 * x);
        value = inverse;
        dSigmaDx = -N_EXP * xNMinus1 * inverse * inverse;
#else
        real e = x - 1;
        if (fabs(e) < (real) TAYLOR_BAND) {
            value = (real) N_OVER_M + e * ((real) TAYLOR_FIRST + (real) 0.5 * (real) TAYLOR_SECOND * e);
            dSigmaDx = (real) TAYLOR_FIRST + (real) TAYLOR_SECOND * e;
        }
#ifdef NEAR_ONE_BAND
        else if (fabs(e) < (real) NEAR_ONE_BAND) {
            // Horner for G_k(x) = sum_{i<k} x^i and G_k'(x).
            real gN = 0, dgN = 0, gM = 0, dgM = 0;
            for (int i = 0; i < N_EXP; i++) {
                dgN = dgN * x + gN;
                gN = gN * x + 1;
            }
            for (int i = 0; i < M_EXP; i++) {
                dgM = dgM * x + gM;
                gM = gM * x + 1;
            }
            real inverseGM = RECIP(gM);
            value = gN * inverseGM;
            dSigmaDx = (dgN - value * dgM) * inverseGM;
        }
#endif
        else {
            real xNMinus1 = integerPower(x, N_EXP - 1);
            real xMMinus1 = integerPower(x, M_EXP - 1);
            real xM = xMMinus1 * x;
            if (isinf(xM)) {
                // x is astronomically large: the ratio's limit for m > n.
                value = 0;
                dSigmaDx = 0;
            }
            else {
                real inverseDenominator = RECIP(1 - xM);
                value = (1 - xNMinus1 * x) * inverseDenominator;
                dSigmaDx = (-N_EXP * xNMinus1 + value * M_EXP * xMMinus1) * inverseDenominator;
            }
        }
#endif
    }
    *dSigmaDr = dSigmaDx * (real) INV_R0 * (real) STRETCH_FACTOR;
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
}

#endif

/**
 * The minimum-image displacement. Wrapping along c, b, a gives the minimum image whenever it is shorter
 * than half the smallest box width (halfWidth2 = its square); otherwise, in a triclinic box, the
 * neighbouring images are searched, as in the Reference platform.
 */
DEVICE real3 minimumImage(real3 delta, BOX_PARAMS) {
    if (!triclinic) {
        delta.x -= floor(delta.x * invPeriodicBoxSize.x + (real) 0.5) * periodicBoxSize.x;
        delta.y -= floor(delta.y * invPeriodicBoxSize.y + (real) 0.5) * periodicBoxSize.y;
        delta.z -= floor(delta.z * invPeriodicBoxSize.z + (real) 0.5) * periodicBoxSize.z;
        return delta;
    }
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

/**
 * An atom's position as the user sees it. OpenMM may have wrapped atoms into the periodic box one
 * molecule at a time (cellOffsets counts the box vectors it subtracted); a force that uses periodic
 * boundary conditions does not care, one that does not must undo the wrapping.
 */
DEVICE real3 atomPosition(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets, int atom,
                          int unique, real4 periodicBoxVecX, real4 periodicBoxVecY, real4 periodicBoxVecZ) {
    real4 pos = posq[atom];
#ifdef USE_PERIODIC
    return make_real3(pos.x, pos.y, pos.z);
#else
    int4 offset = cellOffsets[unique];
    return make_real3(pos.x - offset.x * periodicBoxVecX.x - offset.y * periodicBoxVecY.x - offset.z * periodicBoxVecZ.x,
                      pos.y - offset.y * periodicBoxVecY.y - offset.z * periodicBoxVecZ.y,
                      pos.z - offset.z * periodicBoxVecZ.z);
#endif
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

/**
 * Sum a value over the block in a fixed order (deterministic).
 */
DEVICE mixed reduceOverBlock(mixed value, LOCAL_ARG volatile mixed* temp) {
    const int thread = LOCAL_ID;
    SYNC_THREADS;
    temp[thread] = value;
    SYNC_THREADS;
    for (int step = 1; step < LOCAL_SIZE; step *= 2) {
        if (thread + step < LOCAL_SIZE && thread % (2 * step) == 0)
            temp[thread] = temp[thread] + temp[thread + step];
        SYNC_THREADS;
    }
    return temp[0];
}

#ifdef USE_NEIGHBOR_LIST
/**
 * s in 64-bit fixed point, so that it does not depend on the order in which the list's chunks are
 * visited (that order comes from atomics): value * 2^20 = hi + lo * 2^-32, both integers (exact for
 * every finite tile sum; below 2^-52 the rest is dropped, the same way every time). Integer sums are
 * exact in any order. Infinity and NaN go to the floating-point sum instead, so that they reach s.
 */
DEVICE void addFixedPoint(mm_long* hi, mm_long* lo, mixed* sum, mixed* compensation, real value) {
    if (!isfinite(value)) {
        compensatedAdd(sum, compensation, (mixed) value);
        return;
    }
    const real scaled = value * (real) 1048576;
    const real whole = floor(scaled);
    *hi += (mm_long) whole;
    *lo += (mm_long) ((scaled - whole) * (real) 4294967296.0);
}

/** Sum a 64-bit integer over the block (exact, so any order gives the same result). */
DEVICE mm_long reduceLongOverBlock(mm_long value, LOCAL_ARG volatile mm_long* temp) {
    const int thread = LOCAL_ID;
    SYNC_THREADS;
    temp[thread] = value;
    SYNC_THREADS;
    for (int step = 1; step < LOCAL_SIZE; step *= 2) {
        if (thread + step < LOCAL_SIZE && thread % (2 * step) == 0)
            temp[thread] = temp[thread] + temp[thread + step];
        SYNC_THREADS;
    }
    return temp[0];
}
#endif

DEVICE void addGradient(GLOBAL mm_long* RESTRICT gradientBuffer, int unique, real3 gradient) {
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[unique], (mm_ulong) realToFixedPoint(gradient.x));
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[unique + NUM_UNIQUE], (mm_ulong) realToFixedPoint(gradient.y));
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[unique + 2 * NUM_UNIQUE], (mm_ulong) realToFixedPoint(gradient.z));
}

#ifdef SWITCH_RATIONAL
/**
 * sigma(r) (stretched) of a pair at squared distance r2; *scale receives dsigma/dr / r, so the gradient
 * with respect to the second atom is delta * scale.
 * R2_PATH (d0 = 0, n and m even): sigma is a function of y = r^2/r0^2 (x^n = y^(n/2)), so most pairs need
 * no square root. Near x = 1, where the rational form needs its special cases, it falls back to
 * switchingFunction(r).
 */
DEVICE real pairSwitch(real r2, real* scale) {
#ifdef R2_PATH
#if M_IS_2N
#ifdef USE_CUTOFF
    const real y = r2 * (real) INV_R0_SQUARED;
#else
    // Without a cutoff y is unbounded: beyond Y_MAX (y^(n/2) = 1e30, sigma = 1e-30) it is clamped, so
    // that y^(n/2) never overflows (inf * 0 below would be NaN). A NaN stays NaN.
    const real unclamped = r2 * (real) INV_R0_SQUARED;
    const real y = (unclamped > (real) Y_MAX ? (real) Y_MAX : unclamped);
#endif
    const real yHalfNMinus1 = integerPower(y, N_EXP / 2 - 1);
    const real inverse = RECIP(1 + yHalfNMinus1 * y);
    *scale = (real) (-N_EXP * INV_R0_SQUARED * STRETCH_FACTOR) * yHalfNMinus1 * inverse * inverse;
    return inverse * (real) STRETCH_FACTOR + (real) SHIFT;
#else
    const real y = r2 * (real) INV_R0_SQUARED;
    if (fabs(y - 1) >= (real) R2_BAND) {
        const real yHalfNMinus1 = integerPower(y, N_EXP / 2 - 1);
        const real yHalfMMinus1 = integerPower(y, M_EXP / 2 - 1);
        const real yHalfM = yHalfMMinus1 * y;
        if (isinf(yHalfM)) {
            *scale = 0;
            return (real) SHIFT;
        }
        const real inverseDenominator = RECIP(1 - yHalfM);
        const real value = (1 - yHalfNMinus1 * y) * inverseDenominator;
        *scale = (real) (INV_R0_SQUARED * STRETCH_FACTOR) * (-N_EXP * yHalfNMinus1 + value * M_EXP * yHalfMMinus1) *
                 inverseDenominator;
        return value * (real) STRETCH_FACTOR + (real) SHIFT;
    }
#endif
#endif
#if !defined(R2_PATH) || !M_IS_2N
    const real r = SQRT(r2);
    real dSigmaDr;
    const real value = switchingFunction(r, &dSigmaDr);
    *scale = (r > 0 ? dSigmaDr / r : (real) 0);
    return value;
#endif
}
#else
/**
 * The other switching functions (CoordinationForce::SwitchingFunction other than Rational): sigma as a
 * function of its variable v (x = (r - d0)/r0 > 0; r for NativeQ; x2 = r^2/r0^2 for a Custom function of
 * x2), generated on the host per type (SWITCH_VALUE_AND_DERIVATIVE sets value and dValue = dsigma/dv).
 * Mirrors SwitchingFunctionEvaluator (openmmapi/src/SwitchingFunctionEvaluator.cpp).
 */
DEVICE real switchOfVariable(real v, real* dValue) {
    real value;
    SWITCH_VALUE_AND_DERIVATIVE
    return value;
}

/**
 * sigma(r) (stretched) of a pair at squared distance r2; *scale receives dsigma/dr / r. PLUMED's rules:
 * sigma = 1 for r <= d0 (not for x2), stretched sigma' = sigma * STRETCH_FACTOR + SHIFT.
 */
DEVICE real pairSwitch(real r2, real* scale) {
#ifdef SWITCH_OF_X2
    real dValue;
    const real value = switchOfVariable(r2 * (real) INV_R0_SQUARED, &dValue);
    *scale = (real) (2 * INV_R0_SQUARED * STRETCH_FACTOR) * dValue;
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
#else
    const real r = SQRT(r2);
    real value, dSigmaDr = 0;
#ifdef SWITCH_OF_R
    if (r <= (real) D0)
        value = 1;
    else
        value = switchOfVariable(r, &dSigmaDr);
#else
    const real x = (r - (real) D0) * (real) INV_R0;
    if (x <= 0)
        value = 1;
    else {
        value = switchOfVariable(x, &dSigmaDr);
        dSigmaDr *= (real) INV_R0;
    }
#endif
    *scale = (r > 0 ? dSigmaDr * (real) STRETCH_FACTOR / r : (real) 0);
    return value * (real) STRETCH_FACTOR + (real) SHIFT;
#endif
}
#endif

/**
 * The contribution of one pair: sigma(r) and its gradient with respect to the second atom's position.
 * Returns false if the pair contributes nothing.
 */
DEVICE bool evaluatePair(real3 delta, real* sigma, real3* dSigmaDSecond, BOX_PARAMS) {
#ifdef USE_PERIODIC
    delta = minimumImage(delta, BOX_ARGS);
#endif
    real r2 = delta.x * delta.x + delta.y * delta.y + delta.z * delta.z;
#ifdef USE_CUTOFF
    if (r2 > (real) CUTOFF_SQUARED)
        return false;
#endif
    real scale;
    *sigma = pairSwitch(r2, &scale);
    *dSigmaDSecond = make_real3(delta.x * scale, delta.y * scale, delta.z * scale);
    return true;
}

/**
 * Spread the low 10 bits of v so that they occupy every third bit (for a 30-bit Morton code).
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
 * A cell coordinate in 0..1023 from a real number of cells (clamped before the conversion to int).
 */
DEVICE int cellCoordinate(real cells) {
    return ((int) floor(fmin(fmax(cells, (real) -1e9), (real) 1e9))) & 1023;
}

/**
 * Sort keys for the slots of one group: (Morton code of the atom's cell) << 32 | slot. The slot in the
 * low bits makes every key unique, so the sorted order (and every sum that follows it) is deterministic.
 * A periodic force uses 1024 cells along each box vector; a non-periodic one cells of 1/INV_SORT_CELL nm
 * (the code repeats every 1024 cells: only locality is at stake, never correctness).
 */
KERNEL void computeSortKeys(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT atoms, GLOBAL const int* RESTRICT uniques, int numSlots,
        GLOBAL mm_long* RESTRICT keys, BOX_PARAMS) {
    for (int slot = GLOBAL_ID; slot < numSlots; slot += GLOBAL_SIZE) {
        real3 pos = atomPosition(posq, cellOffsets, atoms[slot], uniques[slot], periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
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
        const int morton = spreadBits(cx) | (spreadBits(cy) << 1) | (spreadBits(cz) << 2);
        keys[slot] = (((mm_long) morton) << 32) | (mm_long) slot;
    }
}

/**
 * The slots in sorted order: sortedAtoms[k] = atoms[slot of key k] (and the same for the gradient rows).
 * Runs after each sort and after each reordering of the atoms.
 */
KERNEL void gatherSortedSlots(GLOBAL const mm_long* RESTRICT keys, GLOBAL const int* RESTRICT atoms,
        GLOBAL const int* RESTRICT uniques, GLOBAL int* RESTRICT sortedAtoms, GLOBAL int* RESTRICT sortedUniques,
        int numSlots) {
    for (int index = GLOBAL_ID; index < numSlots; index += GLOBAL_SIZE) {
        const int slot = (int) (keys[index] & 0xFFFFFFFF);
        sortedAtoms[index] = atoms[slot];
        sortedUniques[index] = uniques[slot];
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
 * The bounding box of each tile of 32 sorted slots (centre and half extents). Periodic: every atom is
 * taken at its image nearest the tile's first atom, so a tile that straddles the box edge stays compact.
 */
KERNEL void computeTileBounds(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT sortedAtoms, GLOBAL const int* RESTRICT sortedUniques, int numSlots, int numTiles,
        GLOBAL real4* RESTRICT centers, GLOBAL real4* RESTRICT halfExtents, BOX_PARAMS
#ifdef USE_NEIGHBOR_LIST
        , GLOBAL const real4* RESTRICT listPositions, GLOBAL int* RESTRICT listState, int capacity, int parity,
        int forceRebuild, int keepsBooks
#endif
        ) {
#ifdef USE_NEIGHBOR_LIST
    // The list's books (one thread of group A's launch). The previous evaluation's flag (1 - parity) says
    // whether it built a list: that list is now the current one. This evaluation's flag is raised by the
    // host (forceRebuild: new order, new box, first use), by an incomplete list and, below, by any slot
    // that moved more than half the skin since the list was built.
    if (keepsBooks && GLOBAL_ID == 0) {
        if (listState[LIST_STATE_REBUILD + 1 - parity]) {
            listState[LIST_STATE_CHUNKS] = listState[LIST_STATE_BUILT];
            listState[LIST_STATE_REBUILD + 1 - parity] = 0;
        }
        listState[LIST_STATE_BUILT] = 0;
        if (forceRebuild || listState[LIST_STATE_CHUNKS] > capacity)
            listState[LIST_STATE_REBUILD + parity] = 1;
    }
    bool moved = false;
#endif
    for (int tile = GLOBAL_ID; tile < numTiles; tile += GLOBAL_SIZE) {
        const int first = tile * TILE_SIZE;
        const int last = min(first + TILE_SIZE, numSlots);
        const real3 origin = atomPosition(posq, cellOffsets, sortedAtoms[first], sortedUniques[first], periodicBoxVecX,
                                          periodicBoxVecY, periodicBoxVecZ);
        real3 low = make_real3(0, 0, 0), high = make_real3(0, 0, 0);
        bool notANumber = false;
#ifdef USE_NEIGHBOR_LIST
        moved = moved || movedTooFar(origin, listPositions[first]);
#endif
        for (int index = first + 1; index < last; index++) {
            const real3 pos = atomPosition(posq, cellOffsets, sortedAtoms[index], sortedUniques[index], periodicBoxVecX,
                                           periodicBoxVecY, periodicBoxVecZ);
#ifdef USE_NEIGHBOR_LIST
            moved = moved || movedTooFar(pos, listPositions[index]);
#endif
            real3 delta = make_real3(pos.x - origin.x, pos.y - origin.y, pos.z - origin.z);
#ifdef USE_PERIODIC
            if (!triclinic) {
                delta.x -= floor(delta.x * invPeriodicBoxSize.x + (real) 0.5) * periodicBoxSize.x;
                delta.y -= floor(delta.y * invPeriodicBoxSize.y + (real) 0.5) * periodicBoxSize.y;
                delta.z -= floor(delta.z * invPeriodicBoxSize.z + (real) 0.5) * periodicBoxSize.z;
            }
#endif
            low = make_real3(fmin(low.x, delta.x), fmin(low.y, delta.y), fmin(low.z, delta.z));
            high = make_real3(fmax(high.x, delta.x), fmax(high.y, delta.y), fmax(high.z, delta.z));
            notANumber = notANumber || isnan(delta.x + delta.y + delta.z);
        }
        // fmin/fmax drop a NaN: give such a tile enormous extents, so that it is never culled and the NaN
        // reaches s as it would without culling. (A NaN first atom makes the centre NaN: never culled either.)
        if (notANumber)
            high = make_real3((real) 1e30, (real) 1e30, (real) 1e30);
        centers[tile] = make_real4(origin.x + (real) 0.5 * (low.x + high.x), origin.y + (real) 0.5 * (low.y + high.y),
                                   origin.z + (real) 0.5 * (low.z + high.z), 0);
        halfExtents[tile] = make_real4((real) 0.5 * (high.x - low.x), (real) 0.5 * (high.y - low.y),
                                       (real) 0.5 * (high.z - low.z), 0);
    }
#ifdef USE_NEIGHBOR_LIST
    if (moved)
        listState[LIST_STATE_REBUILD + parity] = 1;
#endif
}

/**
 * s from the partial sums (in a fixed order), E(s) and dE/ds from the energy expression; if
 * writeResults, results = {s, dE/ds, E} and E is added to the energy buffer. Then, if computeGradient,
 * F_i -= dE/ds * ds/dx_i for the unique atoms first, first + stride, ..., clearing their gradient.
 * The partial sums and the gradient were written by other blocks: they are read through volatile.
 */
DEVICE void finishBlock(GLOBAL const mixed* RESTRICT partialSums, int numPartials, GLOBAL const mixed* RESTRICT globals,
        GLOBAL mixed* RESTRICT results, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL const int* RESTRICT uniqueAtoms,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, GLOBAL const mm_long* RESTRICT partialFixed,
        int first, int stride, bool writeResults, LOCAL_ARG volatile mixed* reduceTemp,
        LOCAL_ARG volatile mm_long* longTemp, LOCAL_ARG mixed* derivative DERIVATIVE_PARAMS) {
    mixed sum = 0, compensation = 0;
    for (int i = LOCAL_ID; i < numPartials; i += LOCAL_SIZE)
        compensatedAdd(&sum, &compensation, ((GLOBAL volatile const mixed*) partialSums)[i]);
    mixed s = reduceOverBlock(sum, reduceTemp);
#ifdef USE_NEIGHBOR_LIST
    // The tile kernel's fixed-point partials (hi, lo per block): s += (hi + lo * 2^-32) * 2^-20.
    mm_long hi = 0, lo = 0;
    for (int i = LOCAL_ID; i < numPartials; i += LOCAL_SIZE) {
        hi += partialFixed[2 * i];
        lo += partialFixed[2 * i + 1];
    }
    hi = reduceLongOverBlock(hi, longTemp);
    lo = reduceLongOverBlock(lo, longTemp);
    s += ((mixed) hi + (mixed) lo * (mixed) (1.0 / 4294967296.0)) * (mixed) (1.0 / 1048576.0);
#endif
    if (LOCAL_ID == 0) {
        mixed energy = 0, dEdS = 0;
        COMPUTE_ENERGY
        derivative[0] = dEdS;
        if (writeResults) {
            results[0] = s;
            results[1] = dEdS;
            results[2] = energy;
            if (addEnergy) {
                energyBuffer[0] += energy;
                ADD_PARAMETER_DERIVATIVES
            }
        }
    }
    SYNC_THREADS;
    if (!computeGradient)
        return;
    const real scale = (real) derivative[0] / (real) 0x100000000;
    GLOBAL volatile mm_long* gradient = gradientBuffer;
    for (int unique = first; unique < NUM_UNIQUE; unique += stride) {
        const int atom = uniqueAtoms[unique];
        for (int component = 0; component < 3; component++) {
            const mm_long value = gradient[unique + component * NUM_UNIQUE];
            gradient[unique + component * NUM_UNIQUE] = 0;
            ATOMIC_ADD(&forceBuffers[atom + component * PADDED_NUM_ATOMS],
                       (mm_ulong) realToFixedPoint(-scale * (real) value));
        }
    }
}

/**
 * The separate finish (launch 2): every block computes s the same way; block 0 stores the results.
 */
KERNEL void finishCoordination(GLOBAL const mixed* RESTRICT partialSums, int numPartials,
        GLOBAL const mixed* RESTRICT globals, GLOBAL mixed* RESTRICT results, GLOBAL mixed* RESTRICT energyBuffer,
        int addEnergy, GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL const int* RESTRICT uniqueAtoms,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, GLOBAL const mm_long* RESTRICT partialFixed
        DERIVATIVE_PARAMS) {
    LOCAL volatile mixed reduceTemp[FINISH_BLOCK_SIZE];
    LOCAL volatile mm_long longTemp[FINISH_BLOCK_SIZE];
    LOCAL mixed derivative[1];
    finishBlock(partialSums, numPartials, globals, results, energyBuffer, addEnergy, gradientBuffer, uniqueAtoms,
                forceBuffers, computeGradient, partialFixed, GLOBAL_ID, GLOBAL_SIZE, GROUP_ID == 0, reduceTemp,
                longTemp, derivative DERIVATIVE_ARGS);
}

#ifdef FUSED_FINISH
/**
 * Small groups on CUDA: the last block of the pair kernel to finish does the finish itself, saving a
 * launch. Each block makes its gradient and partial sum visible (fence) before it counts itself done;
 * the last one sums the partials in a fixed order (with its own block size, so the last bits of s may
 * differ from the separate finish's; for a given context the path, and so every bit, is fixed).
 */
DEVICE void finishInLastBlock(GLOBAL const mixed* RESTRICT partialSums, GLOBAL const mixed* RESTRICT globals,
        GLOBAL mixed* RESTRICT results, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL const int* RESTRICT uniqueAtoms,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, GLOBAL unsigned int* RESTRICT blocksDone,
        LOCAL_ARG volatile mixed* reduceTemp, LOCAL_ARG mixed* derivative, LOCAL_ARG int* isLast DERIVATIVE_PARAMS) {
    __threadfence();
    SYNC_THREADS;
    if (LOCAL_ID == 0)
        isLast[0] = (atomicAdd(blocksDone, 1u) == (unsigned int) (NUM_GROUPS - 1));
    SYNC_THREADS;
    if (!isLast[0])
        return;
    __threadfence();
    // (Never with the neighbour list: no fixed-point partials.)
    finishBlock(partialSums, NUM_GROUPS, globals, results, energyBuffer, addEnergy, gradientBuffer, uniqueAtoms,
                forceBuffers, computeGradient, 0, LOCAL_ID, LOCAL_SIZE, true, reduceTemp, 0, derivative DERIVATIVE_ARGS);
    if (LOCAL_ID == 0)
        *blocksDone = 0;
}

#define FUSED_FINISH_PARAMS , GLOBAL const mixed* RESTRICT globals, GLOBAL mixed* RESTRICT results, \
        GLOBAL mixed* RESTRICT energyBuffer, int addEnergy, GLOBAL const int* RESTRICT uniqueAtoms, \
        GLOBAL mm_ulong* RESTRICT forceBuffers, GLOBAL unsigned int* RESTRICT blocksDone DERIVATIVE_PARAMS
#define FUSED_FINISH_TAIL \
    LOCAL mixed derivative[1]; \
    LOCAL int isLast[1]; \
    finishInLastBlock(partialSums, globals, results, energyBuffer, addEnergy, gradientBuffer, uniqueAtoms, forceBuffers, \
                      computeGradient, blocksDone, reduceTemp, derivative, isLast DERIVATIVE_ARGS);
#else
#define FUSED_FINISH_PARAMS
#define FUSED_FINISH_TAIL
#endif

#if defined(MODE_SELF) || defined(MODE_DUAL)
#ifdef MODE_SELF
#define MODE_IS_SELF true
#else
#define MODE_IS_SELF false
#endif

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

#ifdef USE_CULLING
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
    const real4 rowCenter = rowCenters[rowTile], rowHalf = rowHalfExtents[rowTile];
    const real4 columnCenter = columnCenters[columnTile], columnHalf = columnHalfExtents[columnTile];
    real dx = columnCenter.x - rowCenter.x, dy = columnCenter.y - rowCenter.y, dz = columnCenter.z - rowCenter.z;
#ifdef USE_PERIODIC
    dx -= floor(dx * invPeriodicBoxSize.x + (real) 0.5) * periodicBoxSize.x;
    dy -= floor(dy * invPeriodicBoxSize.y + (real) 0.5) * periodicBoxSize.y;
    dz -= floor(dz * invPeriodicBoxSize.z + (real) 0.5) * periodicBoxSize.z;
#endif
    // Far from the origin the centres carry rounding errors of a few ulps of the coordinates (a force without
    // PBC sees unwrapped positions): widen the gap test by 1e-6 of their magnitude (single precision: ~8 ulps).
    dx = fmax((real) 0, fabs(dx) - rowHalf.x - columnHalf.x - (real) 1e-6 * (fabs(rowCenter.x) + fabs(columnCenter.x)));
    dy = fmax((real) 0, fabs(dy) - rowHalf.y - columnHalf.y - (real) 1e-6 * (fabs(rowCenter.y) + fabs(columnCenter.y)));
    dz = fmax((real) 0, fabs(dz) - rowHalf.z - columnHalf.z - (real) 1e-6 * (fabs(rowCenter.z) + fabs(columnCenter.z)));
    return dx * dx + dy * dy + dz * dz <= paddedCutoffSquared;
}
#endif

#ifdef USE_NEIGHBOR_LIST
/**
 * Whether an atom can be within the list cutoff (cutoff + skin, padded for rounding as in tilesInteract)
 * of any point of a tile's bounding box. Rectangular boxes only (the list is not used in triclinic ones).
 * A NaN position is near everything (fmax drops the NaN), so that it reaches s.
 */
DEVICE bool atomNearTile(real3 pos, real4 center, real4 halfExtent, BOX_PARAMS) {
    real dx = pos.x - center.x, dy = pos.y - center.y, dz = pos.z - center.z;
#ifdef USE_PERIODIC
    dx -= floor(dx * invPeriodicBoxSize.x + (real) 0.5) * periodicBoxSize.x;
    dy -= floor(dy * invPeriodicBoxSize.y + (real) 0.5) * periodicBoxSize.y;
    dz -= floor(dz * invPeriodicBoxSize.z + (real) 0.5) * periodicBoxSize.z;
#endif
    dx = fmax((real) 0, fabs(dx) - halfExtent.x - (real) 1e-6 * (fabs(pos.x) + fabs(center.x)));
    dy = fmax((real) 0, fabs(dy) - halfExtent.y - (real) 1e-6 * (fabs(pos.y) + fabs(center.y)));
    dz = fmax((real) 0, fabs(dz) - halfExtent.z - (real) 1e-6 * (fabs(pos.z) + fabs(center.z)));
    return !(dx * dx + dy * dy + dz * dz > (real) PADDED_LIST_CUTOFF_SQUARED);
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
 * then the column slots of those within cutoff + skin of the row tile's box, and packs them into
 * chunks of 32 in that order. It records every slot's position (listPositions) for the motion test.
 * A pair within the cutoff now is in the list as long as no atom has moved half the skin since.
 */
KERNEL void buildNeighborList(GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT sortedAtomsA, GLOBAL const int* RESTRICT sortedUniqueA,
        GLOBAL const int* RESTRICT sortedAtomsB, GLOBAL const int* RESTRICT sortedUniqueB,
        GLOBAL const real4* RESTRICT tileCentersA, GLOBAL const real4* RESTRICT tileHalfExtentsA,
        GLOBAL const real4* RESTRICT tileCentersB, GLOBAL const real4* RESTRICT tileHalfExtentsB,
        GLOBAL real4* RESTRICT listPositionsA, GLOBAL real4* RESTRICT listPositionsB, GLOBAL int* RESTRICT listState,
        GLOBAL int* RESTRICT chunkRows, GLOBAL int* RESTRICT chunkSlots, int capacity, int parity, BOX_PARAMS) {
    if (!listState[LIST_STATE_REBUILD + parity])
        return;
    LOCAL int buffers[LIST_WARPS_PER_BLOCK * 2 * TILE_SIZE];
    LOCAL int hitLists[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL int scratches[LIST_WARPS_PER_BLOCK * TILE_SIZE];
    const int warpInBlock = LOCAL_ID / TILE_SIZE, lane = LOCAL_ID % TILE_SIZE;
    LOCAL_ARG int* buffer = buffers + warpInBlock * 2 * TILE_SIZE;
    LOCAL_ARG int* hits = hitLists + warpInBlock * TILE_SIZE;
    LOCAL_ARG int* scratch = scratches + warpInBlock * TILE_SIZE;
#ifdef MODE_SELF
    const int numColumnTiles = NUM_TILES_A, numColumns = NUM_A, numRows = NUM_TILES_A;
    GLOBAL const int* RESTRICT columnAtoms = sortedAtomsA;
    GLOBAL const int* RESTRICT columnUniques = sortedUniqueA;
    GLOBAL const real4* RESTRICT columnCenters = tileCentersA;
    GLOBAL const real4* RESTRICT columnHalfExtents = tileHalfExtentsA;
#else
    // Rows past A's tiles only record B's positions.
    const int numColumnTiles = NUM_TILES_B, numColumns = NUM_B, numRows = NUM_TILES_A + NUM_TILES_B;
    GLOBAL const int* RESTRICT columnAtoms = sortedAtomsB;
    GLOBAL const int* RESTRICT columnUniques = sortedUniqueB;
    GLOBAL const real4* RESTRICT columnCenters = tileCentersB;
    GLOBAL const real4* RESTRICT columnHalfExtents = tileHalfExtentsB;
#endif
    for (int row = GLOBAL_ID / TILE_SIZE; row < numRows; row += GLOBAL_SIZE / TILE_SIZE) {
        if (row >= NUM_TILES_A) {
            const int slot = (row - NUM_TILES_A) * TILE_SIZE + lane;
            if (slot < numColumns) {
                const real3 pos = atomPosition(posq, cellOffsets, columnAtoms[slot], columnUniques[slot],
                                               periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
                listPositionsB[slot] = make_real4(pos.x, pos.y, pos.z, 0);
            }
            continue;
        }
        const int rowSlot = row * TILE_SIZE + lane;
        if (rowSlot < NUM_A) {
            const real3 pos = atomPosition(posq, cellOffsets, sortedAtomsA[rowSlot], sortedUniqueA[rowSlot],
                                           periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
            listPositionsA[rowSlot] = make_real4(pos.x, pos.y, pos.z, 0);
        }
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
                    const real3 pos = atomPosition(posq, cellOffsets, columnAtoms[slot], columnUniques[slot],
                                                   periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
                    near = atomNearTile(pos, rowCenter, rowHalf, BOX_ARGS);
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
        real3* columnGradient, BOX_PARAMS) {
    const real3 delta = make_real3(column.x - rowPos.x, column.y - rowPos.y, column.z - rowPos.z);
    real sigma;
    real3 gradient;
    if (evaluatePair(delta, &sigma, &gradient, BOX_ARGS)) {
        *sum += sigma;
        rowGradient->x -= gradient.x;
        rowGradient->y -= gradient.y;
        rowGradient->z -= gradient.z;
        columnGradient->x += gradient.x;
        columnGradient->y += gradient.y;
        columnGradient->z += gradient.z;
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
        const bool validRow, real* tileSum, real3* rowGradient, BOX_PARAMS) {
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
            accumulatePair(other, rowPos, &sum, &gradientSum, &columnTotal, BOX_ARGS);
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
        real3* columnGradient, BOX_PARAMS) {
    real sum = 0;
    real3 gradientSum = make_real3(0, 0, 0);
    real3 held = make_real3(0, 0, 0);
    const int source = (lane + 1) & (TILE_SIZE - 1);
    for (int k = 0; k < TILE_SIZE; k++) {
        if (includePair(checked, diagonal, lane, k, column.w, validRow, columnAtomOfLane, rowAtom))
            accumulatePair(column, rowPos, &sum, &gradientSum, &held, BOX_ARGS);
        column.x = __shfl_sync(0xffffffff, column.x, source);
        column.y = __shfl_sync(0xffffffff, column.y, source);
        column.z = __shfl_sync(0xffffffff, column.z, source);
        if (checked)
            column.w = __shfl_sync(0xffffffff, column.w, source);
#ifdef CHECK_SAME_ATOM
        columnAtomOfLane = __shfl_sync(0xffffffff, columnAtomOfLane, source);
#endif
        held.x = __shfl_sync(0xffffffff, held.x, source);
        held.y = __shfl_sync(0xffffffff, held.y, source);
        held.z = __shfl_sync(0xffffffff, held.z, source);
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
        const bool diagonal, GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT sortedAtomsA, GLOBAL const int* RESTRICT sortedAtomsB,
        GLOBAL const int* RESTRICT sortedUniqueA, GLOBAL const int* RESTRICT sortedUniqueB,
        GLOBAL mm_long* RESTRICT gradientBuffer, int computeGradient, BOX_PARAMS, LOCAL_ARG real4* columnPos,
        LOCAL_ARG real3* columnGradient, LOCAL_ARG int* columnAtom) {
    const int lane = LOCAL_ID % TILE_SIZE;
#ifndef USE_WARP_SHUFFLE
    const int localBase = (LOCAL_ID / TILE_SIZE) * 2 * TILE_SIZE; // this warp's doubled columns
#endif
    const int rowSlot = rowTile * TILE_SIZE + lane;
    const bool validColumnOfLane = validTile && columnSlotOfLane >= 0;
    const bool validRow = validTile && rowSlot < NUM_A;
#ifdef MODE_SELF
    GLOBAL const int* RESTRICT columnAtoms = sortedAtomsA;
    GLOBAL const int* RESTRICT columnUniques = sortedUniqueA;
#else
    GLOBAL const int* RESTRICT columnAtoms = sortedAtomsB;
    GLOBAL const int* RESTRICT columnUniques = sortedUniqueB;
#endif
    const bool fullRows = (rowTile + 1) * TILE_SIZE <= NUM_A;
    const int rowAtom = (validRow ? sortedAtomsA[rowSlot] : -1);
    const real3 rowPos = (validRow ? atomPosition(posq, cellOffsets, rowAtom, sortedUniqueA[rowSlot], periodicBoxVecX,
                                                  periodicBoxVecY, periodicBoxVecZ) : make_real3(0, 0, 0));
    int atom = -1;
    real4 pos = make_real4(0, 0, 0, 0); // w = 0: no atom
    if (validColumnOfLane) {
        atom = columnAtoms[columnSlotOfLane];
        const real3 p = atomPosition(posq, cellOffsets, atom, columnUniques[columnSlotOfLane], periodicBoxVecX,
                                     periodicBoxVecY, periodicBoxVecZ);
        pos = make_real4(p.x, p.y, p.z, 1);
    }
    real3 rowGradient = make_real3(0, 0, 0), columnTotal;
    real tileSum = 0;
    const bool fast = validTile && fullRows && fullColumns && !diagonal;
#ifdef USE_WARP_SHUFFLE
    if (fast)
        tilePairsShuffled(false, false, lane, pos, atom, rowPos, rowAtom, validRow, &tileSum, &rowGradient, &columnTotal,
                          BOX_ARGS);
    else
        tilePairsShuffled(true, diagonal, lane, pos, atom, rowPos, rowAtom, validRow, &tileSum, &rowGradient,
                          &columnTotal, BOX_ARGS);
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
              rowAtom, validRow, &tileSum, &rowGradient, BOX_ARGS);
    SYNC_THREADS;
    const real3 first = columnGradient[localBase + lane], second = columnGradient[localBase + lane + TILE_SIZE];
    columnTotal = make_real3(first.x + second.x, first.y + second.y, first.z + second.z);
    SYNC_THREADS;
#endif
    if (computeGradient) {
        if (validRow)
            addGradient(gradientBuffer, sortedUniqueA[rowSlot], rowGradient);
        if (validColumnOfLane)
            addGradient(gradientBuffer, columnUniques[columnSlotOfLane], columnTotal);
    }
    return tileSum;
}

/**
 * Tile `tile` of the full enumeration (decodeTile); tile < 0: none (the warp still takes part in barriers).
 */
DEVICE real processIndexedTile(int tile, GLOBAL const real4* RESTRICT posq, GLOBAL const int4* RESTRICT cellOffsets,
        GLOBAL const int* RESTRICT sortedAtomsA, GLOBAL const int* RESTRICT sortedAtomsB,
        GLOBAL const int* RESTRICT sortedUniqueA, GLOBAL const int* RESTRICT sortedUniqueB,
        GLOBAL mm_long* RESTRICT gradientBuffer, int computeGradient, BOX_PARAMS, LOCAL_ARG real4* columnPos,
        LOCAL_ARG real3* columnGradient, LOCAL_ARG int* columnAtom) {
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
                       (columnTile + 1) * TILE_SIZE <= numColumns, MODE_IS_SELF && rowTile == columnTile, posq,
                       cellOffsets, sortedAtomsA, sortedAtomsB, sortedUniqueA, sortedUniqueB, gradientBuffer,
                       computeGradient, BOX_ARGS, columnPos, columnGradient, columnAtom);
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
        GLOBAL const real4* RESTRICT tileCentersA, GLOBAL const real4* RESTRICT tileHalfExtentsA,
        GLOBAL const real4* RESTRICT tileCentersB, GLOBAL const real4* RESTRICT tileHalfExtentsB
#ifdef USE_NEIGHBOR_LIST
        , GLOBAL mm_long* RESTRICT partialFixed, GLOBAL const int* RESTRICT listState,
        GLOBAL const int* RESTRICT chunkRows, GLOBAL const int* RESTRICT chunkSlots, int useList, int parity,
        int capacity
#endif
        FUSED_FINISH_PARAMS) {
#ifdef USE_WARP_SHUFFLE
    LOCAL_ARG real4* columnPos = 0; // the columns live in registers
    LOCAL_ARG real3* columnGradient = 0;
    LOCAL_ARG int* columnAtom = 0;
#else
    LOCAL real4 columnPos[WARPS_PER_BLOCK * 2 * TILE_SIZE];
    LOCAL real3 columnGradient[WARPS_PER_BLOCK * 2 * TILE_SIZE];
    LOCAL int columnAtom[WARPS_PER_BLOCK * 2 * TILE_SIZE];
#endif
    LOCAL volatile mixed reduceTemp[WARPS_PER_BLOCK * TILE_SIZE];
#ifdef USE_CULLING
    LOCAL int scan[WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL int tileList[WARPS_PER_BLOCK * TILE_SIZE];
#endif
#ifdef USE_NEIGHBOR_LIST
    LOCAL volatile mm_long longTemp[WARPS_PER_BLOCK * TILE_SIZE];
#endif
    const int warp = LOCAL_ID / TILE_SIZE;
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
        for (int first = GROUP_ID * WARPS_PER_BLOCK; first < numItems; first += NUM_GROUPS * WARPS_PER_BLOCK) {
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
            ADD_TILE_SUM(processTile(item < numItems, rowTile, columnSlot, fullColumns, item < numDiagonal, posq,
                                     cellOffsets, sortedAtomsA, sortedAtomsB, sortedUniqueA, sortedUniqueB,
                                     gradientBuffer, computeGradient, BOX_ARGS, columnPos, columnGradient, columnAtom));
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
            for (int offset = 1; offset < blockSize; offset *= 2) {
                const int add = (LOCAL_ID >= offset ? scan[LOCAL_ID - offset] : 0);
                SYNC_THREADS;
                scan[LOCAL_ID] += add;
                SYNC_THREADS;
            }
            if (interacts)
                tileList[scan[LOCAL_ID] - 1] = candidate;
            const int count = scan[blockSize - 1];
            SYNC_THREADS;
            for (int first = 0; first < count; first += WARPS_PER_BLOCK)
                ADD_TILE_SUM(processIndexedTile(first + warp < count ? tileList[first + warp] : -1, posq, cellOffsets,
                                                sortedAtomsA, sortedAtomsB, sortedUniqueA, sortedUniqueB,
                                                gradientBuffer, computeGradient, BOX_ARGS, columnPos, columnGradient,
                                                columnAtom));
        }
    }
#else
    for (int firstTile = GROUP_ID * WARPS_PER_BLOCK; firstTile < NUM_TILES; firstTile += NUM_GROUPS * WARPS_PER_BLOCK) {
        const int tile = firstTile + warp;
        ADD_TILE_SUM(processIndexedTile(tile < NUM_TILES ? tile : -1, posq, cellOffsets, sortedAtomsA, sortedAtomsB,
                                        sortedUniqueA, sortedUniqueB, gradientBuffer, computeGradient, BOX_ARGS,
                                        columnPos, columnGradient, columnAtom));
    }
#endif
#undef ADD_TILE_SUM
    mixed blockSum = reduceOverBlock(sum, reduceTemp);
    if (LOCAL_ID == 0)
        partialSums[GROUP_ID] = blockSum;
#ifdef USE_NEIGHBOR_LIST
    const mm_long blockHi = reduceLongOverBlock(fixedHi, longTemp);
    const mm_long blockLo = reduceLongOverBlock(fixedLo, longTemp);
    if (LOCAL_ID == 0) {
        partialFixed[2 * GROUP_ID] = blockHi;
        partialFixed[2 * GROUP_ID + 1] = blockLo;
    }
#endif
    FUSED_FINISH_TAIL
}
#endif

#ifdef MODE_PAIR
/**
 * Pair mode: A[k] with B[k], one pair per thread.
 */
KERNEL void computeCoordinationPairs(GLOBAL const real4* RESTRICT posq, GLOBAL const int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT atomsB, GLOBAL const int* RESTRICT uniqueA, GLOBAL const int* RESTRICT uniqueB,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL mixed* RESTRICT partialSums, int computeGradient,
        BOX_PARAMS, GLOBAL const int4* RESTRICT cellOffsets FUSED_FINISH_PARAMS) {
    LOCAL volatile mixed reduceTemp[PAIR_BLOCK_SIZE];
    mixed sum = 0, compensation = 0;
    for (int index = GLOBAL_ID; index < NUM_A; index += GLOBAL_SIZE) {
        const int first = atomsA[index], second = atomsB[index];
        if (first == second)
            continue;
        real3 firstPos = atomPosition(posq, cellOffsets, first, uniqueA[index], periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
        real3 secondPos = atomPosition(posq, cellOffsets, second, uniqueB[index], periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ);
        real3 delta = make_real3(secondPos.x - firstPos.x, secondPos.y - firstPos.y, secondPos.z - firstPos.z);
        real sigma;
        real3 gradient;
        if (evaluatePair(delta, &sigma, &gradient, BOX_ARGS)) {
            compensatedAdd(&sum, &compensation, (mixed) sigma);
            if (computeGradient) {
                addGradient(gradientBuffer, uniqueB[index], gradient);
                addGradient(gradientBuffer, uniqueA[index], make_real3(-gradient.x, -gradient.y, -gradient.z));
            }
        }
    }
    mixed blockSum = reduceOverBlock(sum, reduceTemp);
    if (LOCAL_ID == 0)
        partialSums[GROUP_ID] = blockSum;
    FUSED_FINISH_TAIL
}
#endif

/**
 * After OpenMM reorders atoms (atomIndex[position] = original index), find each particle's position.
 * Runs on the device at reorder time, so following the reordering needs no host transfer.
 */
KERNEL void invertAtomOrder(GLOBAL const int* RESTRICT atomIndex, GLOBAL int* RESTRICT positionOfParticle, int numAtoms) {
    for (int position = GLOBAL_ID; position < numAtoms; position += GLOBAL_SIZE)
        positionOfParticle[atomIndex[position]] = position;
}

/**
 * Translate the groups' particle indices (as the user gave them) into current atom positions.
 */
KERNEL void translateParticles(GLOBAL const int* RESTRICT positionOfParticle,
        GLOBAL const int* RESTRICT particlesA, GLOBAL int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT particlesB, GLOBAL int* RESTRICT atomsB,
        GLOBAL const int* RESTRICT uniqueParticles, GLOBAL int* RESTRICT uniqueAtoms) {
    for (int i = GLOBAL_ID; i < NUM_A; i += GLOBAL_SIZE)
        atomsA[i] = positionOfParticle[particlesA[i]];
    for (int i = GLOBAL_ID; i < NUM_B; i += GLOBAL_SIZE)
        atomsB[i] = positionOfParticle[particlesB[i]];
    for (int i = GLOBAL_ID; i < NUM_UNIQUE; i += GLOBAL_SIZE)
        uniqueAtoms[i] = positionOfParticle[uniqueParticles[i]];
}
