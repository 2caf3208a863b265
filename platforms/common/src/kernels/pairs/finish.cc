/**
 * The finish: s from the blocks' partial sums, E(s) and dE/ds (COMPUTE_ENERGY, generated on the host from
 * the energy expression), the energy and its parameter derivatives, and F -= dE/ds * ds/dx. A launch of
 * its own (finishCoordination) or, with FUSED_FINISH, the last block of the pair kernel.
 */

/**
 * s from the partial sums (in a fixed order), E(s) and dE/ds from the energy expression (s, E and the parameter
 * derivatives NaN, dE/ds 0, where a position was not finite or s, E or dE/ds is not: no force is applied); if
 * writeResults, results = {s, dE/ds, E} and E is added to the energy buffer. Then, if computeGradient,
 * F_i -= dE/ds * ds/dx_i for the gradient rows (slots) first, first + stride, ..., each added to its slot's
 * atom (slotAtomsA/B: the slots' current atoms, in the tile kernel's order), clearing the rows.
 * The partial sums and the gradient were written by other blocks: they are read through volatile.
 */
DEVICE void finishBlock(GLOBAL const mixed* RESTRICT partialSums, int numPartials, GLOBAL const mixed* RESTRICT globals,
        GLOBAL mixed* RESTRICT results, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL const int* RESTRICT slotAtomsA, GLOBAL const int* RESTRICT slotAtomsB,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, GLOBAL const mm_long* RESTRICT partialFixed,
        int first, int stride, bool writeResults, bool nonFinitePositions, int parity, LOCAL_ARG volatile mixed* reduceTemp,
        LOCAL_ARG volatile mm_long* longTemp, LOCAL_ARG mixed* derivative DERIVATIVE_PARAMS CENTER_FINISH_PARAMS) {
    mixed sum = 0, compensation = 0;
    for (int i = LOCAL_ID; i < numPartials; i += LOCAL_SIZE)
        compensatedAdd(&sum, &compensation, ((GLOBAL volatile const mixed*) partialSums)[i]);
    mixed s = sumOverBlockTree(sum, reduceTemp);
#ifdef USE_NEIGHBOR_LIST
    // The tile kernel's fixed-point partials (hi, lo per block): s += (hi + lo * 2^-32) * 2^-20.
    mm_long hi, lo;
    fixedPartialsOverBlock(partialFixed, numPartials, &hi, &lo, longTemp);
    s += ((mixed) hi + (mixed) lo * (mixed) (1.0 / 4294967296.0)) * (mixed) (1.0 / 1048576.0);
#endif
    if (nonFinitePositions)
        s = NOT_A_NUMBER_MIXED;
    if (LOCAL_ID == 0) {
        mixed energy = 0, dEdS = 0;
        COMPUTE_ENERGY
        const bool finite = MIXED_IS_FINITE(s) && MIXED_IS_FINITE(energy) && MIXED_IS_FINITE(dEdS); // s is NaN above
        STORE_ENERGY_RESULTS(s, writeResults)
        derivative[0] = dEdS;
    }
    SYNC_THREADS;
    if (!computeGradient)
        return;
    const real scale = (real) derivative[0] / (real) 0x100000000;
    GLOBAL volatile mm_long* gradient = gradientBuffer;
    // FINISH_BATCH rows per thread at a time: all their loads are issued before the first is used, so a thread
    // with many rows (the fused finish: one block for every row) waits for memory once per batch, not per row.
    for (int base = first; base < NUM_SLOT_ROWS; base += FINISH_BATCH * stride) {
        mm_long values[FINISH_BATCH][3];
        int atoms[FINISH_BATCH];
        for (int b = 0; b < FINISH_BATCH; b++) {
            const int row = base + b * stride;
            atoms[b] = -1;
            if (row < NUM_SLOT_ROWS) {
                atoms[b] = (row < NUM_A ? slotAtomsA[row] : slotAtomsB[row - NUM_A]);
#ifdef HAS_CENTERS
                if (atoms[b] >= NUM_ATOMS) {
                    atoms[b] = -1; // a centre's slot: its gradient is in the centre's row (below)
                    continue;
                }
#endif
                for (int component = 0; component < 3; component++)
                    values[b][component] = gradient[row + component * NUM_GRADIENT_ROWS];
            }
        }
        for (int b = 0; b < FINISH_BATCH; b++) {
            if (atoms[b] < 0)
                continue;
            const int row = base + b * stride;
            for (int component = 0; component < 3; component++) {
                gradient[row + component * NUM_GRADIENT_ROWS] = 0;
                ATOMIC_ADD(&forceBuffers[atoms[b] + component * PADDED_NUM_ATOMS],
                           (mm_ulong) realToFixedPoint(-scale * (real) values[b][component]));
            }
        }
    }
#ifdef HAS_CENTERS
    // Each centre's gradient row (this evaluation's parity) to its particles, a thread per member entry (the rows are
    // complete: the pair kernel has finished, or with FUSED_FINISH every block has passed its fence). The next
    // evaluation's pair kernel clears them (centerGradientRow).
    spreadCenterForces(first, stride, -scale, gradient, centerGradientRow(0, parity), 1, NUM_GRADIENT_ROWS, centerAtoms,
                       centerOfEntry, centerForceWeights, forceBuffers);
#endif
}

/**
 * The separate finish (launch 2): every block computes s the same way; block 0 stores the results.
 */
KERNEL void finishCoordination(GLOBAL const mixed* RESTRICT partialSums, int numPartials,
        GLOBAL const mixed* RESTRICT globals, GLOBAL mixed* RESTRICT results, GLOBAL mixed* RESTRICT energyBuffer,
        int addEnergy, GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL const int* RESTRICT slotAtomsA, GLOBAL const int* RESTRICT slotAtomsB,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, GLOBAL const mm_long* RESTRICT partialFixed,
        GLOBAL const int* RESTRICT nonFiniteFlags, int parity DERIVATIVE_PARAMS CENTER_FINISH_PARAMS) {
    LOCAL volatile mixed reduceTemp[FINISH_BLOCK_SIZE];
    LOCAL volatile mm_long longTemp[FINISH_BLOCK_SIZE];
    LOCAL mixed derivative[1];
    finishBlock(partialSums, numPartials, globals, results, energyBuffer, addEnergy, gradientBuffer, slotAtomsA, slotAtomsB,
                forceBuffers, computeGradient, partialFixed, GLOBAL_ID, GLOBAL_SIZE, GROUP_ID == 0,
                nonFiniteFlags[parity] != 0, parity, reduceTemp, longTemp, derivative DERIVATIVE_ARGS CENTER_FINISH_ARGS);
}

#ifdef FUSED_FINISH
/**
 * Whether the calling block is the last of the pair kernel's blocks to get here (CUDA): each block makes its writes
 * visible (fence) before it counts itself done, and the last one fences again before it reads everyone's. Every
 * thread of the block calls it (it holds barriers); isLast: one int of local memory.
 */
DEVICE bool lastBlockToArrive(GLOBAL unsigned int* RESTRICT blocksDone, LOCAL_ARG int* isLast) {
    __threadfence();
    SYNC_THREADS;
    if (LOCAL_ID == 0)
        isLast[0] = (atomicAdd(blocksDone, 1u) == (unsigned int) (NUM_GROUPS - 1));
    SYNC_THREADS;
    if (!isLast[0])
        return false;
    __threadfence();
    return true;
}

/**
 * Small groups on CUDA: the last block of the pair kernel to finish does the finish itself, saving a
 * launch. Each block makes its gradient and partial sum visible (fence) before it counts itself done;
 * the last one sums the partials in a fixed order (with its own block size, so the last bits of s may
 * differ from the separate finish's; for a given context the path, and so every bit, is fixed).
 */
DEVICE void finishInLastBlock(GLOBAL const mixed* RESTRICT partialSums, GLOBAL const mixed* RESTRICT globals,
        GLOBAL mixed* RESTRICT results, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy,
        GLOBAL mm_long* RESTRICT gradientBuffer, GLOBAL const int* RESTRICT slotAtomsA, GLOBAL const int* RESTRICT slotAtomsB,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, GLOBAL unsigned int* RESTRICT blocksDone,
        GLOBAL const int* RESTRICT nonFiniteFlags, int parity, LOCAL_ARG volatile mixed* reduceTemp, LOCAL_ARG mixed* derivative, LOCAL_ARG int* isLast DERIVATIVE_PARAMS
        CENTER_FINISH_PARAMS) {
    if (!lastBlockToArrive(blocksDone, isLast))
        return;
    // (Never with the neighbour list: no fixed-point partials.)
    finishBlock(partialSums, NUM_GROUPS, globals, results, energyBuffer, addEnergy, gradientBuffer, slotAtomsA, slotAtomsB,
                forceBuffers, computeGradient, 0, LOCAL_ID, LOCAL_SIZE, true,
                ((GLOBAL volatile const int*) nonFiniteFlags)[parity] != 0, parity, reduceTemp, 0, derivative DERIVATIVE_ARGS
                CENTER_FINISH_ARGS);
    if (LOCAL_ID == 0)
        *blocksDone = 0;
}

#define FUSED_FINISH_PARAMS , GLOBAL const mixed* RESTRICT globals, GLOBAL mixed* RESTRICT results, \
        GLOBAL mixed* RESTRICT energyBuffer, int addEnergy, GLOBAL mm_ulong* RESTRICT forceBuffers, \
        GLOBAL unsigned int* RESTRICT blocksDone DERIVATIVE_PARAMS CENTER_FUSED_FINISH_PARAMS
/* The kernel's arrays of the slots' atoms (the gradient rows' atoms): A's, then B's. */
#define FUSED_FINISH_TAIL(slotAtomsA, slotAtomsB) \
    LOCAL mixed derivative[1]; \
    LOCAL int isLast[1]; \
    finishInLastBlock(partialSums, globals, results, energyBuffer, addEnergy, gradientBuffer, slotAtomsA, slotAtomsB, \
                      forceBuffers, computeGradient, blocksDone, nonFiniteFlags, parity, reduceTemp, derivative, isLast \
                      DERIVATIVE_ARGS CENTER_FINISH_ARGS);
#else
#define FUSED_FINISH_PARAMS
#define FUSED_FINISH_TAIL(slotAtomsA, slotAtomsB)
#endif
