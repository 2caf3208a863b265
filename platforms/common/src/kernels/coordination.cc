/**
 * CoordinationForce on OpenMM's common compute framework: one source for CUDA and OpenCL.
 *
 * One evaluation is three launches, none of them synchronized with the host:
 *   1. computeCoordinationTiles / computeCoordinationPairs: every pair once; each block writes its
 *      partial sum of s to partialSums (fixed order: deterministic) and, if requested, adds ds/dx
 *      into gradientBuffer (64-bit fixed point: deterministic).
 *   2. finishCoordination: one block sums the partials in a fixed order, evaluates E(s) and dE/ds
 *      (code generated from the Lepton expression) and adds E to the energy buffer.
 *   3. applyCoordinationForces: F -= dE/ds * ds/dx into OpenMM's force buffer; clears the gradient.
 *
 * Host defines: TILE_SIZE (32), WARPS_PER_BLOCK, NUM_A, NUM_B, NUM_UNIQUE, MODE_SELF/MODE_DUAL/MODE_PAIR,
 * NUM_TILES_A, NUM_TILES_B, NUM_TILES, USE_PERIODIC, USE_CUTOFF, CUTOFF_SQUARED, the switching constants
 * (INV_R0, D0, N_EXP, M_EXP, M_IS_2N, STRETCH_FACTOR, SHIFT, TAYLOR_*, NEAR_ONE_BAND), PADDED_NUM_ATOMS,
 * FINISH_BLOCK_SIZE, NUM_GLOBALS.
 */

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

/**
 * The minimum-image displacement. Wrapping along c, b, a gives the minimum image whenever it is shorter
 * than half the smallest box width (halfWidth2 = its square); otherwise, in a triclinic box, the
 * neighbouring images are searched, as in the Reference platform.
 */
DEVICE real3 minimumImage(real3 delta, real4 periodicBoxSize, real4 invPeriodicBoxSize, real4 periodicBoxVecX,
                          real4 periodicBoxVecY, real4 periodicBoxVecZ, int triclinic, real halfWidth2) {
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

DEVICE void addGradient(GLOBAL mm_long* RESTRICT gradientBuffer, int unique, real3 gradient) {
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[unique], (mm_ulong) realToFixedPoint(gradient.x));
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[unique + NUM_UNIQUE], (mm_ulong) realToFixedPoint(gradient.y));
    ATOMIC_ADD((GLOBAL mm_ulong*) &gradientBuffer[unique + 2 * NUM_UNIQUE], (mm_ulong) realToFixedPoint(gradient.z));
}

/**
 * The contribution of one pair: sigma(r) and its gradient with respect to the second atom's position.
 * Returns false if the pair contributes nothing.
 */
DEVICE bool evaluatePair(real3 delta, real* sigma, real3* dSigmaDSecond, real4 periodicBoxSize,
                         real4 invPeriodicBoxSize, real4 periodicBoxVecX, real4 periodicBoxVecY,
                         real4 periodicBoxVecZ, int triclinic, real halfWidth2) {
#ifdef USE_PERIODIC
    delta = minimumImage(delta, periodicBoxSize, invPeriodicBoxSize, periodicBoxVecX, periodicBoxVecY,
                         periodicBoxVecZ, triclinic, halfWidth2);
#endif
    real r2 = delta.x * delta.x + delta.y * delta.y + delta.z * delta.z;
#ifdef USE_CUTOFF
    if (r2 > (real) CUTOFF_SQUARED)
        return false;
#endif
    real r = SQRT(r2);
    real dSigmaDr;
    *sigma = switchingFunction(r, &dSigmaDr);
    real scale = (r > 0 ? dSigmaDr / r : (real) 0);
    *dSigmaDSecond = make_real3(delta.x * scale, delta.y * scale, delta.z * scale);
    return true;
}

#if defined(MODE_SELF) || defined(MODE_DUAL)
/**
 * Self and Dual modes: 32x32 tiles of (A slot, B slot) pairs (Self: upper triangle of A x A).
 * Each 32-thread warp takes one tile at a time; lane t owns row atom i = I*32+t and visits the 32
 * column atoms in rotated order j = (t+k) mod 32, so no two lanes touch the same column at once and
 * the column gradients accumulate in local memory without atomics. Each pair is evaluated once.
 */
KERNEL void computeCoordinationTiles(GLOBAL const real4* RESTRICT posq, GLOBAL const int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT atomsB, GLOBAL const int* RESTRICT uniqueA, GLOBAL const int* RESTRICT uniqueB,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL mixed* RESTRICT partialSums, int computeGradient,
        real4 periodicBoxSize, real4 invPeriodicBoxSize, real4 periodicBoxVecX, real4 periodicBoxVecY,
        real4 periodicBoxVecZ, int triclinic, real halfWidth2, GLOBAL const int4* RESTRICT cellOffsets) {
    LOCAL real3 columnPos[WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL real3 columnGradient[WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL int columnAtom[WARPS_PER_BLOCK * TILE_SIZE];
    LOCAL volatile mixed reduceTemp[WARPS_PER_BLOCK * TILE_SIZE];
    const int lane = LOCAL_ID % TILE_SIZE;
    const int warp = LOCAL_ID / TILE_SIZE;
    const int localBase = warp * TILE_SIZE;
    mixed sum = 0, compensation = 0;
    // Every thread of a block runs the same number of iterations (barriers must be uniform).
    for (int firstTile = GROUP_ID * WARPS_PER_BLOCK; firstTile < NUM_TILES; firstTile += NUM_GROUPS * WARPS_PER_BLOCK) {
        const int tile = firstTile + warp;
        const bool validTile = (tile < NUM_TILES);
        int rowTile = 0, columnTile = 0;
        if (validTile) {
#ifdef MODE_SELF
            // Upper triangle, column by column: tile = J(J+1)/2 + I with I <= J.
            int J = (int) ((SQRT(8.0f * (float) tile + 1.0f) - 1.0f) * 0.5f);
            while ((mm_long) J * (J + 1) / 2 > tile)
                J--;
            while ((mm_long) (J + 1) * (J + 2) / 2 <= tile)
                J++;
            columnTile = J;
            rowTile = tile - (int) ((mm_long) J * (J + 1) / 2);
#else
            rowTile = tile / NUM_TILES_B;
            columnTile = tile - rowTile * NUM_TILES_B;
#endif
        }
        const int rowSlot = rowTile * TILE_SIZE + lane;
        const int columnSlotOfLane = columnTile * TILE_SIZE + lane;
#ifdef MODE_SELF
        const bool validRow = validTile && rowSlot < NUM_A;
        const bool validColumnOfLane = validTile && columnSlotOfLane < NUM_A;
        const int columnAtomOfLane = (validColumnOfLane ? atomsA[columnSlotOfLane] : -1);
#else
        const bool validRow = validTile && rowSlot < NUM_A;
        const bool validColumnOfLane = validTile && columnSlotOfLane < NUM_B;
        const int columnAtomOfLane = (validColumnOfLane ? atomsB[columnSlotOfLane] : -1);
#endif
#ifdef MODE_SELF
        const int columnUniqueOfLane = (validColumnOfLane ? uniqueA[columnSlotOfLane] : 0);
#else
        const int columnUniqueOfLane = (validColumnOfLane ? uniqueB[columnSlotOfLane] : 0);
#endif
        const int rowAtom = (validRow ? atomsA[rowSlot] : -1);
        const real3 rowPos = (validRow ? atomPosition(posq, cellOffsets, rowAtom, uniqueA[rowSlot], periodicBoxVecX,
                                                      periodicBoxVecY, periodicBoxVecZ) : make_real3(0, 0, 0));
        columnAtom[localBase + lane] = columnAtomOfLane;
        columnPos[localBase + lane] = (validColumnOfLane ? atomPosition(posq, cellOffsets, columnAtomOfLane,
                                           columnUniqueOfLane, periodicBoxVecX, periodicBoxVecY, periodicBoxVecZ)
                                                         : make_real3(0, 0, 0));
        columnGradient[localBase + lane] = make_real3(0, 0, 0);
        SYNC_THREADS;
        real3 rowGradient = make_real3(0, 0, 0);
        for (int k = 0; k < TILE_SIZE; k++) {
            const int column = (lane + k) % TILE_SIZE;
            const int otherAtom = columnAtom[localBase + column];
            bool include = validRow && otherAtom >= 0 && otherAtom != rowAtom;
#ifdef MODE_SELF
            include = include && (rowTile != columnTile || column > lane);
#endif
            if (include) {
                real3 otherPos = columnPos[localBase + column];
                real3 delta = make_real3(otherPos.x - rowPos.x, otherPos.y - rowPos.y, otherPos.z - rowPos.z);
                real sigma;
                real3 gradient;
                if (evaluatePair(delta, &sigma, &gradient, periodicBoxSize, invPeriodicBoxSize, periodicBoxVecX,
                                 periodicBoxVecY, periodicBoxVecZ, triclinic, halfWidth2)) {
                    compensatedAdd(&sum, &compensation, (mixed) sigma);
                    rowGradient.x -= gradient.x;
                    rowGradient.y -= gradient.y;
                    rowGradient.z -= gradient.z;
                    real3 columnTotal = columnGradient[localBase + column];
                    columnTotal.x += gradient.x;
                    columnTotal.y += gradient.y;
                    columnTotal.z += gradient.z;
                    columnGradient[localBase + column] = columnTotal;
                }
            }
            SYNC_WARPS;
        }
        SYNC_THREADS;
        if (computeGradient) {
            if (validRow)
                addGradient(gradientBuffer, uniqueA[rowSlot], rowGradient);
#ifdef MODE_SELF
            if (validColumnOfLane)
                addGradient(gradientBuffer, uniqueA[columnSlotOfLane], columnGradient[localBase + lane]);
#else
            if (validColumnOfLane)
                addGradient(gradientBuffer, uniqueB[columnSlotOfLane], columnGradient[localBase + lane]);
#endif
        }
        SYNC_THREADS;
    }
    mixed blockSum = reduceOverBlock(sum, reduceTemp);
    if (LOCAL_ID == 0)
        partialSums[GROUP_ID] = blockSum;
}
#endif

#ifdef MODE_PAIR
/**
 * Pair mode: A[k] with B[k], one pair per thread.
 */
KERNEL void computeCoordinationPairs(GLOBAL const real4* RESTRICT posq, GLOBAL const int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT atomsB, GLOBAL const int* RESTRICT uniqueA, GLOBAL const int* RESTRICT uniqueB,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL mixed* RESTRICT partialSums, int computeGradient,
        real4 periodicBoxSize, real4 invPeriodicBoxSize, real4 periodicBoxVecX, real4 periodicBoxVecY,
        real4 periodicBoxVecZ, int triclinic, real halfWidth2, GLOBAL const int4* RESTRICT cellOffsets) {
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
        if (evaluatePair(delta, &sigma, &gradient, periodicBoxSize, invPeriodicBoxSize, periodicBoxVecX,
                         periodicBoxVecY, periodicBoxVecZ, triclinic, halfWidth2)) {
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
}
#endif

/**
 * One block: s from the partial sums (fixed order), then E(s) and dE/ds from the energy expression.
 * results = {s, dE/ds, E}.
 */
KERNEL void finishCoordination(GLOBAL const mixed* RESTRICT partialSums, int numPartials,
        GLOBAL const mixed* RESTRICT globals, GLOBAL mixed* RESTRICT results, GLOBAL mixed* RESTRICT energyBuffer,
        int addEnergy) {
    LOCAL volatile mixed reduceTemp[FINISH_BLOCK_SIZE];
    mixed sum = 0, compensation = 0;
    for (int i = LOCAL_ID; i < numPartials; i += LOCAL_SIZE)
        compensatedAdd(&sum, &compensation, partialSums[i]);
    mixed s = reduceOverBlock(sum, reduceTemp);
    if (LOCAL_ID == 0) {
        mixed energy = 0, dEdS = 0;
        COMPUTE_ENERGY
        results[0] = s;
        results[1] = dEdS;
        results[2] = energy;
        if (addEnergy)
            energyBuffer[0] += energy;
    }
}

/**
 * F_i -= dE/ds * ds/dx_i for every atom in the groups; clears the gradient for the next evaluation.
 */
KERNEL void applyCoordinationForces(GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL const int* RESTRICT uniqueAtoms,
        GLOBAL const mixed* RESTRICT results, GLOBAL mm_ulong* RESTRICT forceBuffers) {
    const real dEdS = (real) results[1];
    const real scale = dEdS / (real) 0x100000000;
    for (int unique = GLOBAL_ID; unique < NUM_UNIQUE; unique += GLOBAL_SIZE) {
        const int atom = uniqueAtoms[unique];
        for (int component = 0; component < 3; component++) {
            mm_long gradient = gradientBuffer[unique + component * NUM_UNIQUE];
            gradientBuffer[unique + component * NUM_UNIQUE] = 0;
            ATOMIC_ADD(&forceBuffers[atom + component * PADDED_NUM_ATOMS],
                       (mm_ulong) realToFixedPoint(-scale * (real) gradient));
        }
    }
}

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
