/**
 * The per-atom engine's finish between its two pair passes (perAtomPairs.cc): computeNumberSums,
 * computeSecondNumberSums (Moment, Min, Max and AltMin only), computeNumbersEnergy, computeNumberWeights, addNumbersEnergy (or all of them
 * in the last block of pass 1, FUSED_FINISH): c in A's order, the reductions, E and dE/dR (code generated on the host),
 * and the weight w_i = dE/dc_i of each entry.
 * Host defines: NUM_REDUCTIONS, NUMBERS_BLOCK_SIZE, NUMBER_PARTS, NUMBERS_MEAN_INDEX, NUMBERS_SECOND_PASS, REDUCTION_MIN,
 * REDUCTION_MAX, VECTOR_REDUCTIONS. Host replacements: NUMBERS_ENTRY_*, NUMBERS_SECOND_*, NUMBERS_COMBINE,
 * NUMBERS_ENERGY, NUMBERS_STORE, NUMBERS_WEIGHT, NUMBERS_VECTOR_SCALE, NUMBERS_ADD_PARAMETER_DERIVATIVES
 * (CommonPerAtomProgram).
 *
 * VECTOR_REDUCTIONS (VectorMean, VectorSum of a SteinhardtForce without a local step): the entry phase also sums each
 * entry's vector u_i = averageVector(v_i) per component and part (partialSums from row 2 NUM_REDUCTIONS on); the
 * energy's phase adds the parts to V, whose norm is such a reduction's S, and stores G = dE/du = (sum over the
 * vector reductions of dE/dR outer'(S)) metric V / S among the coefficients (from NUMBERS_VECTOR_INDEX); the weights'
 * phase adds G du_i/dv_i to every entry's weights.
 */
#ifdef VECTOR_REDUCTIONS
#define NUMBERS_VECTOR_INDEX (NUMBERS_MEAN_INDEX + 1)
#endif

/**
 * A log-sum-exp reduction of type `type` (REDUCTION_MIN, REDUCTION_MAX, else AltMin) with its beta, shifted by its
 * entry m (ResolvedReduction, whose host functions these are): d = u(a) - u(b) without u itself; R from q_m and
 * l = log S; h of entry q for the value R.
 */
DEVICE mixed lseShift(int type, mixed beta, mixed a, mixed b) {
    if (a == b)
        return 0;
    if (type == REDUCTION_MAX)
        return (a - b) / beta;
    if (type == REDUCTION_MIN)
        return beta * ((b - a) / b) / a;
    return beta * (b - a);
}

DEVICE mixed lseValue(int type, mixed beta, mixed qm, mixed l) {
    if (type == REDUCTION_MAX)
        return qm + beta * l;
    if (type == REDUCTION_MIN) {
        const mixed t = qm * l / beta;
        return (MIXED_IS_FINITE(t) ? qm / (1 + t) : beta / (l + beta / qm));
    }
    return qm - l / beta;
}

DEVICE mixed lseFactor(int type, mixed q, mixed R) {
    if (type != REDUCTION_MIN)
        return 1;
    const mixed ratio = (q == 0 ? (mixed) 1 : R / q);
    return ratio * ratio;
}

/** The mean of c, from the parts' exact fixed-point sums (every thread gets it). */
DEVICE mixed numbersMean(GLOBAL const mm_long* RESTRICT partialFixed, int numParts, LOCAL_ARG volatile mm_long* longTemp) {
    mm_long hi, lo;
    fixedPartialsOverBlock(partialFixed, numParts, &hi, &lo, longTemp);
    return fixedToNumber(hi, lo) / (mixed) NUM_CENTRAL;
}

/**
 * The finish of pass 1 runs in phases over the entries of A (in A's order): each of the entry phases by one block
 * on part `part` of numParts (entries index, index + stride, ...: a thread always handles the same entries), the
 * others by one block.
 * 1. numbersEntrySums: c_i from the fixed-point rows (cleared for the next evaluation; NaN where a position was
 *    not finite) into numberValues; per part, the exact sum of c (partialFixed), each reduction's sum of term(c_i)
 *    and each extreme's best entry (partialSums, partialIndices).
 * 2. numbersSecondSums (Moment, Min, Max, AltMin): per part, term(c_i - mean) and term'(c_i - mean) of a Moment, and
 *    S = sum of exp(d_i) of a log-sum-exp (from the entry m that pass 1's extremes give; ResolvedReduction).
 * 3. numbersEnergy: the parts in a fixed order, the reductions (numberResults), E, dE/dR and the parameter
 *    derivatives; what the weights need in numberCoefficients, numberIndices and numberState[0] (finite).
 * 4. numbersWeights: w_i per sorted row; numberState[1] = 1 where one is not finite.
 * 5. numbersAddEnergy: E (NaN, and every weight 0, where there is no finite answer) into the energy buffer;
 *    numberState[0] then says whether pass 2 runs (perAtomPairs.cc).
 * Every sum has a fixed order, so the results do not depend on the slots' sorted order.
 */
#define NUMBERS_TEMPS LOCAL_ARG volatile mixed* reduceTemp, LOCAL_ARG volatile mm_long* longTemp, \
        LOCAL_ARG volatile int* indexTemp
#define NUMBERS_TEMP_ARGS reduceTemp, longTemp, indexTemp
/**
 * Whether entry i (A's order) has a number (IS_CENTRAL: s_i, a weight, a place in the reductions), and whether it is
 * a neighbour of the local step (IS_LOCAL_NEIGHBOR: its x = [1, u] enters the local sums; the others' x is 0). With
 * local neighbours (LOCAL_NEIGHBORS) the entries before NUM_CENTRAL are central and those from it on neighbours;
 * without, NUM_CENTRAL is NUM_A and every entry is both. The local passes also sum, and check against the fixed
 * point's range, the sums no one reads (a neighbour's in the pass of x, a central entry's in the pass of G).
 */
#define IS_CENTRAL(i) ((i) < NUM_CENTRAL)
#ifdef LOCAL_NEIGHBORS
#define IS_LOCAL_NEIGHBOR(i) ((i) >= NUM_CENTRAL)
#else
#define IS_LOCAL_NEIGHBOR(i) true
#endif
#ifdef LOCAL_STEP
/**
 * With a local step, the numbers the reductions take are its s_i: the local pass's sums (localFixed, by the local
 * traversal's sorted row localRowOfSlot) with each entry's u (localVectors, A's order; computeLocalVectors), and the
 * weights are its: G = dE/d[W, P] for the local passes (localData, localForceData) and dE/du (dEdLocal), which
 * computeLocalBackward turns into dE/dv (numberWeights).
 */
#define LOCAL_STEP_PARAMS , GLOBAL mm_long* RESTRICT localFixed, GLOBAL const int* RESTRICT localRowOfSlot, \
        GLOBAL mixed* RESTRICT localVectors, GLOBAL mixed* RESTRICT localSums, GLOBAL real* RESTRICT localData, \
        GLOBAL real* RESTRICT localForceData, GLOBAL mixed* RESTRICT dEdLocal
#define LOCAL_STEP_ARGS , localFixed, localRowOfSlot, localVectors, localSums, localData, localForceData, dEdLocal
#else
#define LOCAL_STEP_PARAMS
#define LOCAL_STEP_ARGS
#endif

DEVICE void numbersEntrySums(int index, int stride, int part, int numParts, GLOBAL mm_long* RESTRICT numbersFixed,
        GLOBAL const int* RESTRICT rowOfSlotA, GLOBAL mixed* RESTRICT numberValues,
        GLOBAL mixed* RESTRICT numberComponents, GLOBAL mm_long* RESTRICT partialFixed,
        GLOBAL mixed* RESTRICT partialSums, GLOBAL int* RESTRICT partialIndices, bool nonFinitePositions, NUMBERS_TEMPS
        LOCAL_STEP_PARAMS) {
    FIXED_ROWS fixed = numbersFixed;
    mm_long hiSum = 0, loSum = 0;
#ifdef VECTOR_REDUCTIONS
    mixed vectorSum[VECTOR_COMPONENTS], vectorCompensation[VECTOR_COMPONENTS];
    for (int component = 0; component < VECTOR_COMPONENTS; component++)
        vectorSum[component] = vectorCompensation[component] = 0;
#endif
    NUMBERS_ENTRY_DECLARE
    for (int i = index; i < NUM_A; i += stride) {
        const int row = rowOfSlotA[i];
#ifdef LOCAL_STEP
        // s_i of the local step, from the local sums and u_i (the values were taken by computeLocalVectors).
        const int localRow = localRowOfSlot[i];
        mixed sums[LOCAL_SUMS], u[LOCAL_COMPONENTS];
        takeFixedNumbers(localFixed, localRow, LOCAL_SUMS, sums);
        if (!IS_CENTRAL(i))
            continue; // a neighbour of the local step: its rows cleared, no s of its own
        for (int component = 0; component < LOCAL_SUMS; component++)
            localSums[component * NUM_A + i] = sums[component];
        for (int component = 0; component < LOCAL_COMPONENTS; component++)
            u[component] = localVectors[component * NUM_A + i];
        const mixed c = (nonFinitePositions ? NOT_A_NUMBER_MIXED : localValue(u, sums, 0, 0));
        if (!nonFinitePositions) {
            mm_long hi, lo;
            sumToFixed(c, &hi, &lo);
            hiSum += hi;
            loSum += lo;
        }
#elif NUM_COMPONENTS == 1
        const mm_long hi = fixed[row], lo = fixed[row + NUM_A];
        fixed[row] = 0;
        fixed[row + NUM_A] = 0;
        hiSum += hi;
        loSum += lo;
        const mixed c = (nonFinitePositions ? NOT_A_NUMBER_MIXED : fixedToNumber(hi, lo));
#else
        // The entry's components (kept in A's order for the weights), then its number by the per-atom step, whose
        // exact sum (for the mean) is taken in fixed point as c's is above.
        mixed v[NUM_COMPONENTS];
        takeFixedNumbers(fixed, row, NUM_COMPONENTS, v);
        for (int component = 0; component < NUM_COMPONENTS; component++)
            numberComponents[component * NUM_A + i] = v[component];
        const mixed c = (nonFinitePositions ? NOT_A_NUMBER_MIXED : atomStep(v, 0));
        if (!nonFinitePositions) {
            mm_long hi, lo;
            sumToFixed(c, &hi, &lo);
            hiSum += hi;
            loSum += lo;
        }
#ifdef VECTOR_REDUCTIONS
        {
            mixed u[VECTOR_COMPONENTS];
            averageVector(v, u);
            for (int component = 0; component < VECTOR_COMPONENTS; component++)
                compensatedAdd(&vectorSum[component], &vectorCompensation[component],
                               (nonFinitePositions ? NOT_A_NUMBER_MIXED : u[component]));
        }
#endif
#endif
        numberValues[i] = c;
        NUMBERS_ENTRY_ACCUMULATE
    }
    hiSum = longSumOverBlock(hiSum, longTemp);
    loSum = longSumOverBlock(loSum, longTemp);
    if (LOCAL_ID == 0) {
        partialFixed[2 * part] = hiSum;
        partialFixed[2 * part + 1] = loSum;
    }
#ifdef VECTOR_REDUCTIONS
    for (int component = 0; component < VECTOR_COMPONENTS; component++) {
        const mixed total = sumOverBlock(vectorSum[component], reduceTemp);
        if (LOCAL_ID == 0)
            partialSums[(2 * NUM_REDUCTIONS + component) * numParts + part] = total;
    }
#endif
    NUMBERS_ENTRY_REDUCE
}

#ifdef NUMBERS_SECOND_PASS
DEVICE void numbersSecondSums(int index, int stride, int part, int numParts, GLOBAL const mixed* RESTRICT numberValues,
        GLOBAL const mm_long* RESTRICT partialFixed, GLOBAL mixed* RESTRICT partialSums,
        GLOBAL const int* RESTRICT partialIndices, NUMBERS_TEMPS) {
    GLOBAL volatile const mixed* partial = partialSums;
    GLOBAL volatile const int* partialIndex = partialIndices;
    const mixed mean = numbersMean(partialFixed, numParts, longTemp);
    // Each log-sum-exp's entry m (numberSum<q>), from pass 1's extremes.
    NUMBERS_SECOND_REFERENCES
    NUMBERS_SECOND_DECLARE
    for (int i = index; i < NUM_CENTRAL; i += stride) {
        const mixed c = numberValues[i];
        NUMBERS_SECOND_ACCUMULATE
    }
    NUMBERS_SECOND_REDUCE
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
#ifdef VECTOR_REDUCTIONS
    // V = sum of the entries' vectors (the parts in a fixed order) and its norm, the S of VectorMean and VectorSum.
    mixed vectorSum[VECTOR_COMPONENTS];
    mixed vectorNorm = 0;
    for (int component = 0; component < VECTOR_COMPONENTS; component++) {
        mixed sum = 0, compensation = 0;
        for (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)
            compensatedAdd(&sum, &compensation, partial[(2 * NUM_REDUCTIONS + component) * numParts + p]);
        vectorSum[component] = sumOverBlock(sum, reduceTemp);
        vectorNorm += vectorMetric(component) * vectorSum[component] * vectorSum[component];
    }
    vectorNorm = sqrt(vectorNorm);
#endif
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
#ifdef VECTOR_REDUCTIONS
        // G = dE/du of every entry; 0 where V = 0 (the norm has no gradient there) or there is no finite energy.
        const mixed scale = (finite && vectorNorm != 0 ? (NUMBERS_VECTOR_SCALE) / vectorNorm : (mixed) 0);
        for (int component = 0; component < VECTOR_COMPONENTS; component++)
            numberCoefficients[NUMBERS_VECTOR_INDEX + component] = scale * vectorMetric(component) * vectorSum[component];
#endif
    }
}

DEVICE void numbersWeights(int index, int stride, GLOBAL const mixed* RESTRICT numberValues,
        GLOBAL const mixed* RESTRICT numberComponents, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL real* RESTRICT numberWeights,
        GLOBAL const mixed* RESTRICT numberCoefficients, GLOBAL const int* RESTRICT numberIndices,
        GLOBAL int* RESTRICT numberState LOCAL_STEP_PARAMS) {
    GLOBAL volatile const mixed* coefficients = numberCoefficients;
    const bool finite = ((GLOBAL volatile const int*) numberState)[0] != 0;
    const mixed mean = coefficients[NUMBERS_MEAN_INDEX];
    bool notFinite = false;
#ifdef VECTOR_REDUCTIONS
    // G = dE/du, the same for every entry (numbersEnergy).
    mixed vectorWeights[VECTOR_COMPONENTS];
    bool vectorActive = false;
    for (int component = 0; component < VECTOR_COMPONENTS; component++) {
        vectorWeights[component] = (finite ? coefficients[NUMBERS_VECTOR_INDEX + component] : (mixed) 0);
        vectorActive = vectorActive || vectorWeights[component] != 0;
    }
#endif
    for (int i = index; i < NUM_A; i += stride) {
        const mixed c = numberValues[i];
        mixed w = 0;
        if (finite && IS_CENTRAL(i)) {
            NUMBERS_WEIGHT
        }
#ifdef LOCAL_STEP
        // dE/ds through s: G = w ds/d[W, P], by local row ([1, u, G] for pass 2; G's P part for the sums of t G_j),
        // and dE/du (A's order).
        const int localRow = localRowOfSlot[i];
        mixed u[LOCAL_COMPONENTS], sums[LOCAL_SUMS], dsdu[LOCAL_COMPONENTS], dsdSums[LOCAL_SUMS];
        for (int component = 0; component < LOCAL_SUMS; component++) {
            sums[component] = localSums[component * NUM_A + i];
            dsdSums[component] = 0;
        }
        for (int component = 0; component < LOCAL_COMPONENTS; component++) {
            u[component] = localVectors[component * NUM_A + i];
            dsdu[component] = 0;
        }
        if (w != 0)
            localValue(u, sums, dsdu, dsdSums);
        for (int component = 0; component < LOCAL_COMPONENTS; component++) {
            const mixed dEdu = (w == 0 ? (mixed) 0 : w * dsdu[component]);
            notFinite = notFinite || !MIXED_IS_FINITE(dEdu);
            dEdLocal[component * NUM_A + i] = dEdu;
            localForceData[(1 + component) * NUM_A + localRow] = (IS_LOCAL_NEIGHBOR(i) ? (real) u[component] : (real) 0);
        }
        localForceData[localRow] = (IS_LOCAL_NEIGHBOR(i) ? (real) 1 : (real) 0);
        for (int component = 0; component < LOCAL_SUMS; component++) {
            const real g = (w == 0 ? (real) 0 : (real) (w * dsdSums[component]));
            notFinite = notFinite || !REAL_IS_FINITE(g);
            localForceData[(LOCAL_SUMS + component) * NUM_A + localRow] = g;
            localData[component * NUM_A + localRow] = (component == 0 ? (real) 0 : g);
        }
#elif NUM_COMPONENTS == 1
        const real weight = (real) w;
        notFinite = notFinite || !REAL_IS_FINITE(weight);
        numberWeights[rowOfSlotA[i]] = weight;
#else
        // dE/dv = w dq/dv per component (none where w is 0, also where v is not finite), plus G du/dv of the vector
        // reductions.
        const int row = rowOfSlotA[i];
#ifdef VECTOR_REDUCTIONS
        const bool active = (w != 0 || vectorActive);
#else
        const bool active = (w != 0);
#endif
        mixed v[NUM_COMPONENTS], dEdv[NUM_COMPONENTS];
        for (int component = 0; component < NUM_COMPONENTS; component++) {
            v[component] = (active ? numberComponents[component * NUM_A + i] : (mixed) 0);
            dEdv[component] = 0;
        }
        if (w != 0) {
            atomStep(v, dEdv);
            for (int component = 0; component < NUM_COMPONENTS; component++)
                dEdv[component] *= w;
        }
#ifdef VECTOR_REDUCTIONS
        if (vectorActive)
            averageVectorBackward(v, vectorWeights, dEdv);
#endif
        for (int component = 0; component < NUM_COMPONENTS; component++) {
            const real weight = (real) dEdv[component];
            notFinite = notFinite || !REAL_IS_FINITE(weight);
            numberWeights[component * NUM_A + row] = weight;
        }
#endif
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
            for (int component = 0; component < NUM_COMPONENTS; component++)
                numberWeights[component * NUM_A + rowOfSlotA[i]] = 0;
    SYNC_THREADS;
    if (LOCAL_ID == 0) {
        GLOBAL volatile const mixed* coefficients = numberCoefficients;
        const mixed energy = (finite ? ((GLOBAL volatile mixed*) numberResults)[NUM_REDUCTIONS] : NOT_A_NUMBER_MIXED);
        numberResults[NUM_REDUCTIONS] = energy;
        if (addEnergy) {
            energyBuffer[0] += energy;
            NUMBERS_ADD_PARAMETER_DERIVATIVES
        }
        state[0] = (finite ? 1 : 0); // pass 2 adds no gradient where there is no finite energy
        state[1] = 0;
        state[2] = 0;
    }
}

/**
 * Whether this evaluation has no finite numbers: a position not finite, or a pass-1 pair term beyond the fixed
 * point's range (numberState[2], perAtomPairs.cc).
 */
DEVICE bool numbersNotFinite(GLOBAL const int* RESTRICT nonFiniteFlags, int parity, GLOBAL int* RESTRICT numberState) {
    return ((GLOBAL volatile const int*) nonFiniteFlags)[parity] != 0 || ((GLOBAL volatile int*) numberState)[2] != 0;
}

/** Phase 1 (numberParts blocks). With the neighbour list the first also restarts pass 2's work counter. */
KERNEL void computeNumberSums(GLOBAL mm_long* RESTRICT numbersFixed, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL mixed* RESTRICT numberValues, GLOBAL mixed* RESTRICT numberComponents, GLOBAL mm_long* RESTRICT partialFixed, GLOBAL mixed* RESTRICT partialSums,
        GLOBAL int* RESTRICT partialIndices, GLOBAL const int* RESTRICT nonFiniteFlags, int parity,
        GLOBAL int* RESTRICT listState, GLOBAL int* RESTRICT numberState LOCAL_STEP_PARAMS) {
    LOCAL volatile mixed reduceTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile mm_long longTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile int indexTemp[NUMBERS_BLOCK_SIZE];
#ifdef USE_NEIGHBOR_LIST
    if (GLOBAL_ID == 0)
        listState[LIST_STATE_NEXT_ITEM] = 0;
#endif
    numbersEntrySums(GLOBAL_ID, GLOBAL_SIZE, GROUP_ID, NUM_GROUPS, numbersFixed, rowOfSlotA, numberValues,
                     numberComponents, partialFixed,
                     partialSums, partialIndices, numbersNotFinite(nonFiniteFlags, parity, numberState), NUMBERS_TEMP_ARGS
                     LOCAL_STEP_ARGS);
}

#ifdef NUMBERS_SECOND_PASS
KERNEL void computeSecondNumberSums(GLOBAL const mixed* RESTRICT numberValues, GLOBAL const mm_long* RESTRICT partialFixed,
        GLOBAL mixed* RESTRICT partialSums, GLOBAL const int* RESTRICT partialIndices) {
    LOCAL volatile mixed reduceTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile mm_long longTemp[NUMBERS_BLOCK_SIZE];
    LOCAL volatile int indexTemp[NUMBERS_BLOCK_SIZE];
    numbersSecondSums(GLOBAL_ID, GLOBAL_SIZE, GROUP_ID, NUM_GROUPS, numberValues, partialFixed, partialSums,
                      partialIndices, NUMBERS_TEMP_ARGS);
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
                  numberIndices, numberState, numbersNotFinite(nonFiniteFlags, parity, numberState), NUMBERS_TEMP_ARGS);
}

/** Phase 4 (numberParts blocks). */
KERNEL void computeNumberWeights(GLOBAL const mixed* RESTRICT numberValues,
        GLOBAL const mixed* RESTRICT numberComponents, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL real* RESTRICT numberWeights, GLOBAL const mixed* RESTRICT numberCoefficients,
        GLOBAL const int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState LOCAL_STEP_PARAMS) {
    numbersWeights(GLOBAL_ID, GLOBAL_SIZE, numberValues, numberComponents, rowOfSlotA, numberWeights, numberCoefficients,
                   numberIndices, numberState LOCAL_STEP_ARGS);
}

#ifdef LOCAL_STEP
/**
 * Before the local pass (numberParts blocks): each entry's values from pass 1's fixed-point rows (cleared; kept in A's
 * order for the backward step), its u (localVectors, NaN where this evaluation has no finite numbers) and the local
 * pass's data x = [1, u] by local row.
 */
KERNEL void computeLocalVectors(GLOBAL mm_long* RESTRICT numbersFixed, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL mixed* RESTRICT numberComponents, GLOBAL const int* RESTRICT nonFiniteFlags, int parity,
        GLOBAL int* RESTRICT numberState LOCAL_STEP_PARAMS) {
    const bool nonFinite = numbersNotFinite(nonFiniteFlags, parity, numberState);
    for (int i = GLOBAL_ID; i < NUM_A; i += GLOBAL_SIZE) {
        const int row = rowOfSlotA[i];
        mixed v[NUM_COMPONENTS], u[LOCAL_COMPONENTS];
        takeFixedNumbers(numbersFixed, row, NUM_COMPONENTS, v);
        for (int component = 0; component < NUM_COMPONENTS; component++)
            numberComponents[component * NUM_A + i] = v[component];
        localVector(v, u);
        const int localRow = localRowOfSlot[i];
        const bool neighbor = IS_LOCAL_NEIGHBOR(i);
        localData[localRow] = (neighbor ? (real) 1 : (real) 0);
        for (int component = 0; component < LOCAL_COMPONENTS; component++) {
            const mixed value = (nonFinite ? NOT_A_NUMBER_MIXED : u[component]);
            localVectors[component * NUM_A + i] = value;
            localData[(1 + component) * NUM_A + localRow] = (neighbor ? (real) value : (real) 0);
        }
    }
}

/**
 * After the local pass of G (numberParts blocks): dE/du = dEdLocal + sum_j t_ij G_j (the local pass's fixed rows,
 * cleared), through u to dE/dv, the weights of the force's pass 2 by its sorted row (0 where the energy is not
 * finite); numberState[1] = 1 where one is not finite, or where that local pass went beyond the fixed point's range.
 */
KERNEL void computeLocalBackward(GLOBAL const mixed* RESTRICT numberComponents, GLOBAL const int* RESTRICT rowOfSlotA,
        GLOBAL real* RESTRICT numberWeights, GLOBAL int* RESTRICT numberState LOCAL_STEP_PARAMS) {
    GLOBAL volatile int* state = numberState;
    const bool finite = state[0] != 0;
    bool notFinite = (state[2] != 0);
    for (int i = GLOBAL_ID; i < NUM_A; i += GLOBAL_SIZE) {
        const int localRow = localRowOfSlot[i];
        mixed dEdu[LOCAL_COMPONENTS], v[NUM_COMPONENTS], dEdv[NUM_COMPONENTS], sums[LOCAL_SUMS];
        takeFixedNumbers(localFixed, localRow, LOCAL_SUMS, sums);
        // The sums of t G_j over the entry's pairs are its own only where it is a neighbour.
        for (int component = 1; component < LOCAL_SUMS; component++)
            dEdu[component - 1] = dEdLocal[(component - 1) * NUM_A + i] + (IS_LOCAL_NEIGHBOR(i) ? sums[component] : (mixed) 0);
        for (int component = 0; component < NUM_COMPONENTS; component++)
            v[component] = numberComponents[component * NUM_A + i];
        localVectorBackward(v, dEdu, dEdv);
        const int row = rowOfSlotA[i];
        for (int component = 0; component < NUM_COMPONENTS; component++) {
            const real weight = (finite ? (real) dEdv[component] : (real) 0);
            notFinite = notFinite || !REAL_IS_FINITE(weight);
            numberWeights[component * NUM_A + row] = weight;
        }
    }
    if (notFinite && finite)
        numberState[1] = 1;
}
#endif

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
        GLOBAL mixed* RESTRICT numberValues, GLOBAL mixed* RESTRICT numberComponents, GLOBAL real* RESTRICT numberWeights, GLOBAL const mixed* RESTRICT globals,
        GLOBAL mixed* RESTRICT numberResults, GLOBAL mixed* RESTRICT energyBuffer, int addEnergy,
        GLOBAL mm_long* RESTRICT partialFixed, GLOBAL mixed* RESTRICT partialSums, GLOBAL int* RESTRICT partialIndices,
        GLOBAL mixed* RESTRICT numberCoefficients, GLOBAL int* RESTRICT numberIndices, GLOBAL int* RESTRICT numberState,
        GLOBAL unsigned int* RESTRICT blocksDone, GLOBAL const int* RESTRICT nonFiniteFlags, int parity, NUMBERS_TEMPS,
        LOCAL_ARG int* isLast DERIVATIVE_PARAMS) {
    if (!lastBlockToArrive(blocksDone, isLast))
        return;
    const bool nonFinitePositions = numbersNotFinite(nonFiniteFlags, parity, numberState);
    numbersEntrySums(LOCAL_ID, LOCAL_SIZE, 0, 1, numbersFixed, rowOfSlotA, numberValues, numberComponents, partialFixed,
                     partialSums, partialIndices, nonFinitePositions, NUMBERS_TEMP_ARGS);
    SYNC_THREADS;
#ifdef NUMBERS_SECOND_PASS
    numbersSecondSums(LOCAL_ID, LOCAL_SIZE, 0, 1, numberValues, partialFixed, partialSums, partialIndices,
                      NUMBERS_TEMP_ARGS);
    SYNC_THREADS;
#endif
    numbersEnergy(1, partialFixed, partialSums, partialIndices, globals, numberResults, numberCoefficients, numberIndices,
                  numberState, nonFinitePositions, NUMBERS_TEMP_ARGS);
    SYNC_THREADS;
    numbersWeights(LOCAL_ID, LOCAL_SIZE, numberValues, numberComponents, rowOfSlotA, numberWeights, numberCoefficients,
                   numberIndices, numberState);
    SYNC_THREADS;
    numbersAddEnergy(rowOfSlotA, numberWeights, numberResults, numberCoefficients, numberState, energyBuffer, addEnergy
                     DERIVATIVE_ARGS);
    if (LOCAL_ID == 0)
        *blocksDone = 0;
}
#endif
