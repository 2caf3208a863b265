/**
 * ContactMapForce (PLUMED's CONTACTMAP) on OpenMM's common compute framework: one source for CUDA and OpenCL,
 * compiled by CommonContactMapProgram after common.cc, one copy of switching.cc per kind of switching function
 * in the map (its functions renamed pairSwitchKind0, pairSwitchKind1, ...), and reorder.cc.
 *
 * Contact n (device slot c) is a pair of members, each a particle (its current atom, >= 0) or a centre k
 * (-1 - k), with the value coord = w (sigma(r) - ref), sigma of the contact's kind with the contact's own
 * constants (switchParams0 = (d0, 1/r0 (Cubic: 1/(dmax - d0); NativeQ: beta), dmax^2 (-1: no cutoff), stretch
 * factor), switchParams1 = (shift, 1/r0^2 (NativeQ: its centre), w, ref)). The slots are sorted by kind, so that
 * a kind's contacts are contiguous (CONTACT_SWITCH selects the kind by slot, from the host's bounds), and
 * contactOrder gives each slot's user index (CONTACTS_IN_USER_ORDER: the identity, not read).
 *
 * One evaluation, with no transfer to or from the host:
 *   SMALL_MAP (a few thousand contacts, or Components): computeContactMap, one block, does everything: the
 *     centres' positions, every contact (value and gradient), the variables' sum in a fixed order, E and dE/dv
 *     (COMPUTE_ENERGY, generated on the host from the energy expression), the forces, the centres' forces
 *     spread to their particles.
 *   Otherwise: computeCenterPositions (only with centres), computeContacts (every contact, one partial sum per
 *     block), finishContacts (every block sums the partials in the same fixed order and evaluates E; block 0
 *     stores the results and adds the energy; then the forces), spreadCenterForces (only with centres).
 * Forces go into OpenMM's 64-bit fixed-point force buffer (a centre's into centerForces first), so the result
 * does not depend on the order of the atomic additions.
 *
 * Non-finite numbers: a member whose position has an infinite or NaN coordinate (tested on the bits: OpenCL is
 * compiled with finite-only math), or a particle of a centre, makes the whole evaluation non-finite: every
 * contact's value, s, E and the parameter derivatives NaN, and no force is applied, as wherever E, dE/dv or a
 * variable is not finite.
 *
 * Precision: "real" is double wherever the device has it, in every precision (CommonContactMapProgram's doubleMath);
 * the contacts' numbers and gradients are stored in OpenMM's precision.
 *
 * Host defines: NUM_CONTACTS, NUM_CENTERS, NUM_CENTER_ENTRIES, PADDED_NUM_ATOMS, CONTACT_BLOCK_SIZE, REDUCTION_SUM,
 * REDUCTION_DISTANCE or REDUCTION_COMPONENTS, POSITION_TYPE (OpenMM's posq), STORAGE4, STORAGE_REAL and MAKE_STORAGE4
 * (OpenMM's real4), USE_PERIODIC (the contacts' distances are minimum images), UNWRAP_POSITIONS (positions as the
 * user gave them: OpenMM's cell offsets undone), USE_POSQ_CORRECTION (mixed precision), SMALL_MAP,
 * CONTACTS_IN_USER_ORDER, COINCIDENT_DISTANCE_SQUARED, REAL_IS_DOUBLE, MIXED_IS_DOUBLE, HAS_PARAMETER_DERIVATIVES,
 * and the per-contact constants' names for switching.cc (D0, INV_LENGTH, ...). Host replacements: CONTACT_SWITCH,
 * COMPUTE_ENERGY, ADD_PARAMETER_DERIVATIVES.
 */

/** Every contact's arrays, as the kernels that evaluate contacts receive them. */
#define CONTACT_PARAMS GLOBAL const POSITION_TYPE* RESTRICT posq, GLOBAL const POSITION_TYPE* RESTRICT posqCorrection, \
        GLOBAL const int4* RESTRICT cellOffsets, GLOBAL const int4* RESTRICT contactAtoms, \
        GLOBAL const STORAGE4* RESTRICT contactParams0, GLOBAL const STORAGE4* RESTRICT contactParams1, \
        GLOBAL const int* RESTRICT contactOrder, GLOBAL STORAGE4* RESTRICT contactGradients, GLOBAL mixed* RESTRICT contactValues
#define CONTACT_ARGS posq, posqCorrection, cellOffsets, contactAtoms, contactParams0, contactParams1, contactOrder, \
        contactGradients, contactValues
/** The particles' positions (the centres' kernels). */
#define PARTICLE_PARAMS GLOBAL const POSITION_TYPE* RESTRICT posq, GLOBAL const POSITION_TYPE* RESTRICT posqCorrection, \
        GLOBAL const int4* RESTRICT cellOffsets
#define PARTICLE_ARGS posq, posqCorrection, cellOffsets
/**
 * The centres' arrays: per centre (first entry, end, made whole), per entry (particle, unique, centre), its current
 * atom and (w_j / W, T_j / W), per centre its force (fixed point, 3 entries).
 */
#define CENTER_PARAMS GLOBAL const int4* RESTRICT centerRanges, GLOBAL const int4* RESTRICT centerEntries, \
        GLOBAL const int* RESTRICT centerEntryAtoms, GLOBAL const real2* RESTRICT centerWeights, \
        GLOBAL mm_long* RESTRICT centerForces
#define CENTER_ARGS centerRanges, centerEntries, centerEntryAtoms, centerWeights, centerForces
/**
 * The centres' positions, in the parts of memberDifference: its anchor particle's hi (w: 1 if a particle of the
 * centre is not finite), its lo plus the centre's offset from the anchor, the anchor's cell.
 */
#define CENTER_GEOMETRY_PARAMS GLOBAL real4* RESTRICT centerPositions, GLOBAL real4* RESTRICT centerOffsets, \
        GLOBAL real4* RESTRICT centerCells
#define CENTER_GEOMETRY_ARGS centerPositions, centerOffsets, centerCells
/**
 * The contacts' numbers and gradients are stored in OpenMM's precision (STORAGE4: float4 but in double precision) and
 * evaluated in the program's real (double wherever the device has it): half the memory traffic in single and mixed
 * precision, at float's relative rounding of each number.
 */
DEVICE real4 realOfStorage(STORAGE4 value) {
    return make_real4((real) value.x, (real) value.y, (real) value.z, (real) value.w);
}

/**
 * A sum over the block in a fixed order, which every thread gets: on CUDA by shuffles within each warp, then the warps'
 * sums in order (two barriers); otherwise common.cc's tree in local memory.
 */
DEVICE mixed contactSumOverBlock(mixed value, LOCAL_ARG volatile mixed* temp) {
#ifdef __CUDA_ARCH__
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffff, value, offset);
    SYNC_THREADS;
    if (LOCAL_ID % 32 == 0)
        temp[LOCAL_ID / 32] = value;
    SYNC_THREADS;
    value = temp[0];
    for (int warp = 1; warp < LOCAL_SIZE / 32; warp++)
        value += temp[warp];
    return value;
#else
    return reduceOverBlock(value, temp);
#endif
}

/** The periodic box, and what rounding its vectors to real left out (0 in double precision). */
#define GEOMETRY_PARAMS BOX_PARAMS, real4 periodicBoxVecXLow, real4 periodicBoxVecYLow, real4 periodicBoxVecZLow
#define GEOMETRY_ARGS BOX_ARGS, periodicBoxVecXLow, periodicBoxVecYLow, periodicBoxVecZLow
/** E and its outputs. */
#define ENERGY_PARAMS GLOBAL const mixed* RESTRICT globals, GLOBAL mixed* RESTRICT results, \
        GLOBAL mixed* RESTRICT energyBuffer, int addEnergy, GLOBAL mixed* RESTRICT variableDerivatives
#define ENERGY_ARGS globals, results, energyBuffer, addEnergy, variableDerivatives

/**
 * A member's position is hi + lo - cell (in box vectors): hi as OpenMM holds it (posq), lo its correction in mixed
 * precision (USE_POSQ_CORRECTION; for a centre, also the centre's offset from its anchor particle), cell OpenMM's cell
 * offset where positions are used as the user gave them (UNWRAP_POSITIONS). Kept apart so that a difference of two
 * members (memberDifference) does not round at the size of the box.
 */
DEVICE void particleParts(int atom, int unique, PARTICLE_PARAMS, real3* hi, real3* lo, real3* cell) {
    const POSITION_TYPE pos = posq[atom];
    *hi = make_real3(pos.x, pos.y, pos.z);
#ifdef USE_POSQ_CORRECTION
    const POSITION_TYPE correction = posqCorrection[atom];
    *lo = make_real3(correction.x, correction.y, correction.z);
#else
    *lo = make_real3(0, 0, 0);
#endif
#ifdef UNWRAP_POSITIONS
    const int4 offset = cellOffsets[unique];
    *cell = make_real3((real) offset.x, (real) offset.y, (real) offset.z);
#else
    *cell = make_real3(0, 0, 0);
#endif
}

/**
 * The whole box vectors (n.x a, n.y b, n.z c) whose subtraction from a displacement gives its minimum image (common.cc's
 * minimumImage: wrapped along c, b, a, and in a triclinic box the neighbouring images searched beyond half the
 * smallest width).
 */
DEVICE real3 imageShift(real3 delta, BOX_PARAMS) {
    if (!triclinic)
        return make_real3(floor(delta.x * invPeriodicBoxSize.x + (real) 0.5), floor(delta.y * invPeriodicBoxSize.y + (real) 0.5),
                          floor(delta.z * invPeriodicBoxSize.z + (real) 0.5));
    const real scale3 = floor(delta.z * invPeriodicBoxSize.z + (real) 0.5);
    delta.x -= scale3 * periodicBoxVecZ.x;
    delta.y -= scale3 * periodicBoxVecZ.y;
    delta.z -= scale3 * periodicBoxVecZ.z;
    const real scale2 = floor(delta.y * invPeriodicBoxSize.y + (real) 0.5);
    delta.x -= scale2 * periodicBoxVecY.x;
    delta.y -= scale2 * periodicBoxVecY.y;
    const real scale1 = floor(delta.x * invPeriodicBoxSize.x + (real) 0.5);
    delta.x -= scale1 * periodicBoxVecX.x;
    real best2 = delta.x * delta.x + delta.y * delta.y + delta.z * delta.z;
    real3 shift = make_real3(scale1, scale2, scale3);
    if (best2 <= halfWidth2)
        return shift;
    const real3 wrapped = shift;
    for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++)
            for (int k = -1; k <= 1; k++) {
                const real3 image = make_real3(delta.x + i * periodicBoxVecX.x + j * periodicBoxVecY.x + k * periodicBoxVecZ.x,
                                               delta.y + j * periodicBoxVecY.y + k * periodicBoxVecZ.y,
                                               delta.z + k * periodicBoxVecZ.z);
                const real length2 = image.x * image.x + image.y * image.y + image.z * image.z;
                if (length2 < best2) {
                    best2 = length2;
                    shift = make_real3(wrapped.x - i, wrapped.y - j, wrapped.z - k);
                }
            }
    return shift;
}

/**
 * x2 - x1 of two members given in parts (particleParts), its minimum image if periodic. The whole box vectors it
 * holds (the cells' difference, and the image's shift) are taken from hi2 before hi1 is subtracted: at a wrap both
 * subtractions are then of numbers within a factor 2 of each other, which is exact, so the difference is not rounded
 * at the size of the box; the rounding of the box vectors (the Low arguments) is taken off with the small parts.
 */
DEVICE real3 memberDifference(real3 hi1, real3 lo1, real3 cell1, real3 hi2, real3 lo2, real3 cell2, bool periodic,
        GEOMETRY_PARAMS) {
    real3 n = make_real3(cell2.x - cell1.x, cell2.y - cell1.y, cell2.z - cell1.z);
    const real3 small = make_real3(lo2.x - lo1.x, lo2.y - lo1.y, lo2.z - lo1.z);
    if (periodic) {
        const real3 approximate = make_real3(
            hi2.x - hi1.x - n.x * periodicBoxVecX.x - n.y * periodicBoxVecY.x - n.z * periodicBoxVecZ.x + small.x,
            hi2.y - hi1.y - n.y * periodicBoxVecY.y - n.z * periodicBoxVecZ.y + small.y,
            hi2.z - hi1.z - n.z * periodicBoxVecZ.z + small.z);
        const real3 shift = imageShift(approximate, BOX_ARGS);
        n = make_real3(n.x + shift.x, n.y + shift.y, n.z + shift.z);
    }
    real3 shifted = hi2;
    shifted.x -= n.z * periodicBoxVecZ.x;
    shifted.y -= n.z * periodicBoxVecZ.y;
    shifted.z -= n.z * periodicBoxVecZ.z;
    shifted.x -= n.y * periodicBoxVecY.x;
    shifted.y -= n.y * periodicBoxVecY.y;
    shifted.x -= n.x * periodicBoxVecX.x;
    return make_real3(
        (shifted.x - hi1.x) + (small.x - n.x * periodicBoxVecXLow.x - n.y * periodicBoxVecYLow.x - n.z * periodicBoxVecZLow.x),
        (shifted.y - hi1.y) + (small.y - n.y * periodicBoxVecYLow.y - n.z * periodicBoxVecZLow.y),
        (shifted.z - hi1.z) + (small.z - n.z * periodicBoxVecZLow.z));
}

/**
 * The positions of the centres first, first + stride, ... (ResolvedCenters::computePositions), as their first
 * particle (the anchor) plus an offset: made whole, the weighted minimum images of the differences of successive
 * particles; otherwise the weighted differences from the anchor (the weights sum to 1). Returns whether a particle of
 * one of them is not finite. Each centre's force is cleared for the evaluation.
 */
DEVICE bool computeCenters(int first, int stride, PARTICLE_PARAMS, CENTER_PARAMS, CENTER_GEOMETRY_PARAMS, GEOMETRY_PARAMS) {
    bool anyNonFinite = false;
    for (int k = first; k < NUM_CENTERS; k += stride) {
        const int4 range = centerRanges[k];
        real3 anchorHi, anchorLo, anchorCell;
        particleParts(centerEntryAtoms[range.x], centerEntries[range.x].y, PARTICLE_ARGS, &anchorHi, &anchorLo, &anchorCell);
        bool nonFinite = !isFinitePosition(anchorHi);
        real3 offset = make_real3(0, 0, 0);
        real3 previousHi = anchorHi, previousLo = anchorLo, previousCell = anchorCell;
        for (int e = range.x + 1; e < range.y; e++) {
            real3 hi, lo, cell;
            particleParts(centerEntryAtoms[e], centerEntries[e].y, PARTICLE_ARGS, &hi, &lo, &cell);
            nonFinite = nonFinite || !isFinitePosition(hi);
            real3 step;
            real weight;
            if (range.z) {
                step = memberDifference(previousHi, previousLo, previousCell, hi, lo, cell, true, GEOMETRY_ARGS);
                weight = centerWeights[e].y;
                previousHi = hi;
                previousLo = lo;
                previousCell = cell;
            }
            else {
                step = memberDifference(anchorHi, anchorLo, anchorCell, hi, lo, cell, false, GEOMETRY_ARGS);
                weight = centerWeights[e].x;
            }
            offset = make_real3(offset.x + step.x * weight, offset.y + step.y * weight, offset.z + step.z * weight);
        }
        centerPositions[k] = make_real4(anchorHi.x, anchorHi.y, anchorHi.z, nonFinite ? (real) 1 : (real) 0);
        centerOffsets[k] = make_real4(anchorLo.x + offset.x, anchorLo.y + offset.y, anchorLo.z + offset.z, 0);
        centerCells[k] = make_real4(anchorCell.x, anchorCell.y, anchorCell.z, 0);
        centerForces[3 * k] = 0;
        centerForces[3 * k + 1] = 0;
        centerForces[3 * k + 2] = 0;
        anyNonFinite = anyNonFinite || nonFinite;
    }
    return anyNonFinite;
}

/** A member's parts (a particle, or centre -1 - atom); *nonFinite is raised if it is not finite. */
DEVICE void memberParts(int atom, int unique, PARTICLE_PARAMS, CENTER_GEOMETRY_PARAMS, real3* hi, real3* lo, real3* cell,
        bool* nonFinite) {
    if (atom < 0) {
        const real4 anchor = centerPositions[-1 - atom], offset = centerOffsets[-1 - atom], anchorCell = centerCells[-1 - atom];
        if (anchor.w != 0)
            *nonFinite = true;
        *hi = make_real3(anchor.x, anchor.y, anchor.z);
        *lo = make_real3(offset.x, offset.y, offset.z);
        *cell = make_real3(anchorCell.x, anchorCell.y, anchorCell.z);
        return;
    }
    particleParts(atom, unique, PARTICLE_ARGS, hi, lo, cell);
    if (!isFinitePosition(*hi))
        *nonFinite = true;
}

#ifdef USE_PERIODIC
#define CONTACTS_PERIODIC true
#else
#define CONTACTS_PERIODIC false
#endif

/**
 * Contact slot c: its value coord = w (sigma(r) - ref) (NaN, with *nonFinite raised, if a member is not finite)
 * and *gradient = d coord / d x2 (the second member's position; the first's is its negative). Two members closer
 * than the coincidence distance are at r = 0 (no force), as on every platform.
 */
DEVICE mixed evaluateContact(int c, CONTACT_PARAMS, CENTER_GEOMETRY_PARAMS, real3* gradient, bool* nonFinite,
        GEOMETRY_PARAMS) {
    const int4 atoms = contactAtoms[c];
    bool memberNonFinite = false;
    real3 hi1, lo1, cell1, hi2, lo2, cell2;
    memberParts(atoms.x, atoms.z, PARTICLE_ARGS, CENTER_GEOMETRY_ARGS, &hi1, &lo1, &cell1, &memberNonFinite);
    memberParts(atoms.y, atoms.w, PARTICLE_ARGS, CENTER_GEOMETRY_ARGS, &hi2, &lo2, &cell2, &memberNonFinite);
    real3 delta = memberDifference(hi1, lo1, cell1, hi2, lo2, cell2, CONTACTS_PERIODIC, GEOMETRY_ARGS);
    real r2 = delta.x * delta.x + delta.y * delta.y + delta.z * delta.z;
    if (r2 < (real) COINCIDENT_DISTANCE_SQUARED) {
        r2 = 0;
        delta = make_real3(0, 0, 0);
    }
    const real4 switchParams0 = realOfStorage(contactParams0[c]), switchParams1 = realOfStorage(contactParams1[c]);
    real sigma = 0, scale = 0;
    // (A NaN distance is not beyond the cutoff: it reaches the value.)
    if (!(switchParams0.z >= 0 && r2 > switchParams0.z)) {
        CONTACT_SWITCH
    }
    if (memberNonFinite) {
        *nonFinite = true;
        *gradient = make_real3(0, 0, 0);
        return NOT_A_NUMBER_MIXED;
    }
    const real factor = switchParams1.z * scale;
    *gradient = make_real3(delta.x * factor, delta.y * factor, delta.z * factor);
    return (mixed) (switchParams1.z * (sigma - switchParams1.w));
}

/** The user's index of contact slot c. */
DEVICE int userIndexOf(int c, GLOBAL const int* RESTRICT contactOrder) {
#ifdef CONTACTS_IN_USER_ORDER
    return c;
#else
    return contactOrder[c];
#endif
}

/**
 * Contacts first, first + stride, ...: each value (into contactValues, by user index, if storeValues) and, if
 * computeGradient, the gradient of its variable term into contactGradients (Sum: d coord/d x2; Distance: of
 * coord^2; Components: d coord/d x2). Returns this thread's sum of the terms (Sum: coord; Distance: coord^2).
 */
DEVICE mixed contactPass(int first, int stride, CONTACT_PARAMS, CENTER_GEOMETRY_PARAMS, int computeGradient,
        int storeValues, bool* nonFinite, GEOMETRY_PARAMS) {
    mixed sum = 0;
    for (int c = first; c < NUM_CONTACTS; c += stride) {
        real3 gradient;
        const mixed value = evaluateContact(c, CONTACT_ARGS, CENTER_GEOMETRY_ARGS, &gradient, nonFinite, GEOMETRY_ARGS);
#if defined(REDUCTION_DISTANCE)
        sum += value * value;
        const real twice = (real) (2 * value);
        gradient = make_real3(gradient.x * twice, gradient.y * twice, gradient.z * twice);
#elif defined(REDUCTION_SUM)
        sum += value;
#endif
        if (computeGradient)
            contactGradients[c] = MAKE_STORAGE4((STORAGE_REAL) gradient.x, (STORAGE_REAL) gradient.y, (STORAGE_REAL) gradient.z, 0);
        if (storeValues)
            contactValues[userIndexOf(c, contactOrder)] = value;
    }
    return sum;
}

/**
 * E and dE/dv (COMPUTE_ENERGY) from s (Sum, Distance) or the values in contactValues (Components, which gets its
 * dE/dv in variableDerivatives by user index), by one thread. Where a position or a result is not finite: E and the
 * parameter derivatives NaN and every dE/dv 0 (returns false: no force). If writeResults, results = {s, dE/ds, E}
 * and, if addEnergy, E and the parameter derivatives go to OpenMM's buffers.
 */
DEVICE bool contactMapEnergy(mixed s, bool nonFinitePositions, bool writeResults, ENERGY_PARAMS, GLOBAL const mixed* RESTRICT contactValues,
        mixed* dEdSOut DERIVATIVE_PARAMS) {
    if (nonFinitePositions)
        s = NOT_A_NUMBER_MIXED;
    mixed energy = 0, dEdS = 0;
    COMPUTE_ENERGY
    bool finite = !nonFinitePositions && MIXED_IS_FINITE(s) && MIXED_IS_FINITE(energy) && MIXED_IS_FINITE(dEdS);
#ifdef REDUCTION_COMPONENTS
    for (int n = 0; n < NUM_CONTACTS; n++)
        finite = finite && MIXED_IS_FINITE(contactValues[n]) && MIXED_IS_FINITE(variableDerivatives[n]);
    if (!finite)
        for (int n = 0; n < NUM_CONTACTS; n++)
            variableDerivatives[n] = 0;
#endif
    if (!finite) {
        energy = NOT_A_NUMBER_MIXED;
        dEdS = 0;
    }
    *dEdSOut = dEdS;
    if (writeResults) {
        results[0] = s;
        results[1] = dEdS;
        results[2] = energy;
        if (addEnergy) {
            energyBuffer[0] += energy;
            ADD_PARAMETER_DERIVATIVES
        }
    }
    return finite;
}

/** Where a position the map uses is not finite, every contact's value is NaN (contacts first, first + stride, ...). */
DEVICE void markValuesNonFinite(int first, int stride, GLOBAL mixed* RESTRICT contactValues) {
    for (int n = first; n < NUM_CONTACTS; n += stride)
        contactValues[n] = NOT_A_NUMBER_MIXED;
}

/** Add a force to a member: a particle's atom in OpenMM's buffer, or a centre's entry of centerForces. */
DEVICE void addMemberForce(int atom, real3 force, GLOBAL mm_ulong* RESTRICT forceBuffers, GLOBAL mm_long* RESTRICT centerForces) {
    if (atom >= 0) {
        ATOMIC_ADD(&forceBuffers[atom], (mm_ulong) realToFixedPoint(force.x));
        ATOMIC_ADD(&forceBuffers[atom + PADDED_NUM_ATOMS], (mm_ulong) realToFixedPoint(force.y));
        ATOMIC_ADD(&forceBuffers[atom + 2 * PADDED_NUM_ATOMS], (mm_ulong) realToFixedPoint(force.z));
    }
    else {
        GLOBAL mm_ulong* center = (GLOBAL mm_ulong*) &centerForces[3 * (-1 - atom)];
        ATOMIC_ADD(&center[0], (mm_ulong) realToFixedPoint(force.x));
        ATOMIC_ADD(&center[1], (mm_ulong) realToFixedPoint(force.y));
        ATOMIC_ADD(&center[2], (mm_ulong) realToFixedPoint(force.z));
    }
}

/** The forces of contacts first, first + stride, ...: F2 = -dE/dv gradient, F1 = -F2. */
DEVICE void applyContactForces(int first, int stride, mixed dEdS, GLOBAL const int4* RESTRICT contactAtoms,
        GLOBAL const int* RESTRICT contactOrder, GLOBAL const STORAGE4* RESTRICT contactGradients,
        GLOBAL const mixed* RESTRICT variableDerivatives, GLOBAL mm_ulong* RESTRICT forceBuffers,
        GLOBAL mm_long* RESTRICT centerForces) {
    for (int c = first; c < NUM_CONTACTS; c += stride) {
#ifdef REDUCTION_COMPONENTS
        const real scale = -(real) variableDerivatives[userIndexOf(c, contactOrder)];
        if (scale == 0)
            continue;
#else
        const real scale = -(real) dEdS;
#endif
        const int4 atoms = contactAtoms[c];
        const real4 gradient = realOfStorage(contactGradients[c]);
        const real3 force = make_real3(scale * gradient.x, scale * gradient.y, scale * gradient.z);
        addMemberForce(atoms.y, force, forceBuffers, centerForces);
        addMemberForce(atoms.x, make_real3(-force.x, -force.y, -force.z), forceBuffers, centerForces);
    }
}

/** The centres' forces spread to their particles by weight (centre entries first, first + stride, ...). */
DEVICE void spreadCenters(int first, int stride, GLOBAL const int4* RESTRICT centerEntries,
        GLOBAL const int* RESTRICT centerEntryAtoms, GLOBAL const real2* RESTRICT centerWeights,
        GLOBAL const mm_long* RESTRICT centerForces, GLOBAL mm_ulong* RESTRICT forceBuffers) {
    for (int e = first; e < NUM_CENTER_ENTRIES; e += stride) {
        const int k = centerEntries[e].z;
        const real scale = centerWeights[e].x / (real) 0x100000000;
        GLOBAL volatile const mm_long* force = centerForces + 3 * k;
        addMemberForce(centerEntryAtoms[e], make_real3(scale * (real) force[0], scale * (real) force[1], scale * (real) force[2]),
                       forceBuffers, 0);
    }
}

#ifdef SMALL_MAP
/**
 * A small map in one launch of one block: centres, contacts, the block's sum, E, the forces, the centres' forces.
 * Every barrier is outside any branch (PoCL miscompiled barriers inside branches); without centres, four on CUDA.
 */
KERNEL void computeContactMap(CONTACT_PARAMS, CENTER_PARAMS, CENTER_GEOMETRY_PARAMS, ENERGY_PARAMS,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, int storeValues, GEOMETRY_PARAMS DERIVATIVE_PARAMS) {
    LOCAL volatile mixed reduceTemp[CONTACT_BLOCK_SIZE];
    LOCAL mixed blockDerivative[1];
    LOCAL int blockFlags[2]; // a member not finite; E and its derivatives finite (forces applied)
    if (LOCAL_ID == 0)
        blockFlags[0] = 0;
#if NUM_CENTERS > 0
    bool nonFinite = computeCenters(LOCAL_ID, LOCAL_SIZE, PARTICLE_ARGS, CENTER_ARGS, CENTER_GEOMETRY_ARGS, GEOMETRY_ARGS);
#else
    bool nonFinite = false;
#endif
    SYNC_THREADS; // (the centres written, the flag cleared)
#ifdef REDUCTION_COMPONENTS
    storeValues = 1;
#endif
    const mixed sum = contactPass(LOCAL_ID, LOCAL_SIZE, CONTACT_ARGS, CENTER_GEOMETRY_ARGS, computeGradient, storeValues,
                                  &nonFinite, GEOMETRY_ARGS);
    if (nonFinite)
        blockFlags[0] = 1;
    const mixed s = contactSumOverBlock(sum, reduceTemp); // (its barriers also publish the flag and the values)
    if (LOCAL_ID == 0) {
        mixed dEdS;
        blockFlags[1] = contactMapEnergy(s, blockFlags[0] != 0, true, ENERGY_ARGS, contactValues, &dEdS DERIVATIVE_ARGS);
        blockDerivative[0] = dEdS;
    }
    SYNC_THREADS;
    if (storeValues && blockFlags[0])
        markValuesNonFinite(LOCAL_ID, LOCAL_SIZE, contactValues);
    if (computeGradient && blockFlags[1])
        applyContactForces(LOCAL_ID, LOCAL_SIZE, blockDerivative[0], contactAtoms, contactOrder, contactGradients,
                           variableDerivatives, forceBuffers, centerForces);
#if NUM_CENTERS > 0
    SYNC_THREADS;
    if (computeGradient && blockFlags[1])
        spreadCenters(LOCAL_ID, LOCAL_SIZE, centerEntries, centerEntryAtoms, centerWeights, centerForces, forceBuffers);
#endif
}
#else
/** The centres' positions (a thread per centre), before computeContacts. */
KERNEL void computeCenterPositions(PARTICLE_PARAMS, CENTER_PARAMS, CENTER_GEOMETRY_PARAMS, GEOMETRY_PARAMS) {
    computeCenters(GLOBAL_ID, GLOBAL_SIZE, PARTICLE_ARGS, CENTER_ARGS, CENTER_GEOMETRY_ARGS, GEOMETRY_ARGS);
}

/** Every contact, a partial sum and a non-finite flag per block. */
KERNEL void computeContacts(CONTACT_PARAMS, CENTER_GEOMETRY_PARAMS, GLOBAL mixed* RESTRICT partialSums,
        GLOBAL int* RESTRICT partialFlags, int computeGradient, int storeValues, GEOMETRY_PARAMS) {
    LOCAL volatile mixed reduceTemp[CONTACT_BLOCK_SIZE];
    LOCAL int blockNonFinite[1];
    if (LOCAL_ID == 0)
        blockNonFinite[0] = 0;
    SYNC_THREADS;
    bool nonFinite = false;
    const mixed sum = contactPass(GLOBAL_ID, GLOBAL_SIZE, CONTACT_ARGS, CENTER_GEOMETRY_ARGS, computeGradient, storeValues,
                                  &nonFinite, GEOMETRY_ARGS);
    if (nonFinite)
        blockNonFinite[0] = 1;
    const mixed s = contactSumOverBlock(sum, reduceTemp);
    if (LOCAL_ID == 0) {
        partialSums[GROUP_ID] = s;
        partialFlags[GROUP_ID] = blockNonFinite[0];
    }
}

/**
 * The finish: every block sums the partials in the same fixed order, reads the centres' flags and evaluates E;
 * block 0 stores the results and adds the energy; then, if computeGradient, the forces of the contacts (a thread
 * each).
 */
KERNEL void finishContacts(GLOBAL const mixed* RESTRICT partialSums, GLOBAL const int* RESTRICT partialFlags, int numPartials,
        GLOBAL const real4* RESTRICT centerPositions, ENERGY_PARAMS, GLOBAL const int4* RESTRICT contactAtoms,
        GLOBAL const int* RESTRICT contactOrder, GLOBAL const STORAGE4* RESTRICT contactGradients,
        GLOBAL mixed* RESTRICT contactValues, GLOBAL mm_ulong* RESTRICT forceBuffers, GLOBAL mm_long* RESTRICT centerForces,
        int computeGradient, int storeValues DERIVATIVE_PARAMS) {
    LOCAL volatile mixed reduceTemp[CONTACT_BLOCK_SIZE];
    LOCAL mixed blockDerivative[1];
    LOCAL int blockFlags[2];
    if (LOCAL_ID == 0)
        blockFlags[0] = 0;
    SYNC_THREADS;
    mixed sum = 0;
    bool nonFinite = false;
    for (int i = LOCAL_ID; i < numPartials; i += LOCAL_SIZE) {
        sum += partialSums[i];
        nonFinite = nonFinite || (partialFlags[i] != 0);
    }
    for (int k = LOCAL_ID; k < NUM_CENTERS; k += LOCAL_SIZE)
        nonFinite = nonFinite || (centerPositions[k].w != 0);
    if (nonFinite)
        blockFlags[0] = 1;
    const mixed s = contactSumOverBlock(sum, reduceTemp);
    if (LOCAL_ID == 0) {
        mixed dEdS;
        blockFlags[1] = contactMapEnergy(s, blockFlags[0] != 0, GROUP_ID == 0, ENERGY_ARGS, contactValues, &dEdS DERIVATIVE_ARGS);
        blockDerivative[0] = dEdS;
    }
    SYNC_THREADS;
    if (storeValues && blockFlags[0])
        markValuesNonFinite(GLOBAL_ID, GLOBAL_SIZE, contactValues);
    if (computeGradient && blockFlags[1])
        applyContactForces(GLOBAL_ID, GLOBAL_SIZE, blockDerivative[0], contactAtoms, contactOrder, contactGradients,
                           variableDerivatives, forceBuffers, centerForces);
}

/** The centres' forces spread to their particles (a thread per centre entry), after finishContacts. */
KERNEL void spreadCenterForces(GLOBAL const int4* RESTRICT centerEntries, GLOBAL const int* RESTRICT centerEntryAtoms,
        GLOBAL const real2* RESTRICT centerWeights, GLOBAL const mm_long* RESTRICT centerForces,
        GLOBAL mm_ulong* RESTRICT forceBuffers) {
    // (Where the finish applied no force, the centres' forces are still 0.)
    spreadCenters(GLOBAL_ID, GLOBAL_SIZE, centerEntries, centerEntryAtoms, centerWeights, centerForces, forceBuffers);
}
#endif

/**
 * After OpenMM reorders the atoms (positionOfParticle from invertAtomOrder): the contacts' particles and the centres'
 * entries as current atoms (a centre stays -1 - k).
 */
KERNEL void translateContactMembers(GLOBAL const int* RESTRICT positionOfParticle, GLOBAL const int4* RESTRICT contactParticles,
        GLOBAL int4* RESTRICT contactAtoms, GLOBAL const int4* RESTRICT centerEntries, GLOBAL int* RESTRICT centerEntryAtoms) {
    for (int c = GLOBAL_ID; c < NUM_CONTACTS; c += GLOBAL_SIZE) {
        const int4 particles = contactParticles[c];
        contactAtoms[c] = make_int4(particles.x >= 0 ? positionOfParticle[particles.x] : particles.x,
                                    particles.y >= 0 ? positionOfParticle[particles.y] : particles.y, particles.z, particles.w);
    }
    for (int e = GLOBAL_ID; e < NUM_CENTER_ENTRIES; e += GLOBAL_SIZE)
        centerEntryAtoms[e] = positionOfParticle[centerEntries[e].x];
}
