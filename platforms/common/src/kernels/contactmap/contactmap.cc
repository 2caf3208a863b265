/**
 * ContactMapForce (PLUMED's CONTACTMAP) on OpenMM's common compute framework: one source for CUDA and OpenCL,
 * compiled by CommonContactMapProgram after common.cc, one copy of switching.cc per kind of switching function
 * in the map (its functions renamed pairSwitchKind0, pairSwitchKind1, ...), and reorder.cc.
 *
 * Contact n (device slot c) is a pair of members, each a particle (its current atom) or a centre k (NUM_ATOMS + k, as
 * ResolvedCenters gives it: kernels/centres/centers.cc computes the centres and spreads their forces), with the value coord = w (sigma(r) - ref), sigma of the contact's kind with the contact's own
 * constants (switchParams0 = (d0, 1/r0 (Cubic: 1/(dmax - d0); NativeQ: beta), dmax^2 (-1: no cutoff), stretch
 * factor), switchParams1 = (shift, 1/r0^2 (NativeQ: its centre), w, ref)). The slots are sorted by kind, so that
 * a kind's contacts are contiguous (CONTACT_SWITCH selects the kind by slot, from the host's bounds), and
 * contactOrder gives each slot's user index (CONTACTS_IN_USER_ORDER: the identity, not read).
 *
 * One evaluation, with no transfer to or from the host:
 *   SMALL_MAP (a few thousand contacts, or Components): computeContactMap, one block, does everything: the
 *     centres' positions (small centres; larger ones by computeCenterPositions before it), every contact (value and gradient), the variables' sum in a fixed order, E and dE/dv
 *     (COMPUTE_ENERGY, generated on the host from the energy expression), the forces, the centres' forces
 *     spread to their particles.
 *   Otherwise: computeCenterPositions (only with centres), computeContacts (every contact, one partial sum per
 *     block), finishContacts (every block sums the partials in the same fixed order and evaluates E; block 0
 *     stores the results and adds the energy; then the forces), spreadContactCenterForces (only with centres).
 * Forces go into OpenMM's 64-bit fixed-point force buffer (a centre's into centerForces first), so the result
 * does not depend on the order of the atomic additions.
 *
 * Non-finite numbers: a member whose position has an infinite or NaN coordinate (tested on the bits: OpenCL is
 * compiled with finite-only math), or a particle of a centre, makes the whole evaluation non-finite: every
 * contact's value, s, E and the parameter derivatives NaN, and no force is applied, as wherever E, dE/dv or a
 * variable is not finite.
 *
 * Precision: "real" is double wherever the device has it, in every precision (CommonContactMapProgram's doubleMath),
 * the centres' positions included (centers.cc reads posq plus posqCorrection); the contacts' numbers and gradients
 * are stored in OpenMM's precision.
 *
 * Host defines: NUM_CONTACTS, the centres' (centers.cc), PADDED_NUM_ATOMS, CONTACT_BLOCK_SIZE, REDUCTION_SUM,
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
#ifdef HAS_CENTERS
/**
 * The centres (CommonCenters' arrays): their members, each entry's centre, their positions this evaluation and the
 * force on each (64-bit fixed point, 3 per centre), which is spread to their particles after the contacts' forces.
 */
#define MAP_CENTER_PARAMS CENTER_MEMBER_PARAMS, GLOBAL const int* RESTRICT centerOfEntry, \
        GLOBAL real4* RESTRICT centerPositions, GLOBAL mm_long* RESTRICT centerForces
#define MAP_CENTER_ARGS CENTER_MEMBER_ARGS, centerOfEntry, centerPositions, centerForces
/** What a contact's members read of the centres, and where their forces go. */
#define MEMBER_CENTER_PARAMS , GLOBAL const real4* RESTRICT centerPositions
#define MEMBER_CENTER_ARGS , centerPositions
#define CENTER_FORCE_PARAMS , GLOBAL mm_long* RESTRICT centerForces
#define CENTER_FORCE_ARGS , centerForces
#else
#define MAP_CENTER_PARAMS
#define MAP_CENTER_ARGS
#define MEMBER_CENTER_PARAMS
#define MEMBER_CENTER_ARGS
#define CENTER_FORCE_PARAMS
#define CENTER_FORCE_ARGS
#endif
/**
 * The contacts' numbers and gradients are stored in OpenMM's precision (STORAGE4: float4 but in double precision) and
 * evaluated in the program's real (double wherever the device has it): half the memory traffic in single and mixed
 * precision, at float's relative rounding of each number.
 */
DEVICE real4 realOfStorage(STORAGE4 value) {
    return make_real4((real) value.x, (real) value.y, (real) value.z, (real) value.w);
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
 * A member's parts: a particle's (particleParts), or a centre's position (centers.cc: already as the user sees it where
 * positions are unwrapped) as hi; *nonFinite is raised if it is not finite.
 */
DEVICE void memberParts(int atom, int unique, PARTICLE_PARAMS MEMBER_CENTER_PARAMS, real3* hi, real3* lo, real3* cell,
        bool* nonFinite) {
#ifdef HAS_CENTERS
    if (atom >= NUM_ATOMS) {
        const real4 center = centerPositions[atom - NUM_ATOMS];
        *hi = make_real3(center.x, center.y, center.z);
        *lo = make_real3(0, 0, 0);
        *cell = make_real3(0, 0, 0);
        if (!isFinitePosition(*hi))
            *nonFinite = true;
        return;
    }
#endif
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
DEVICE mixed evaluateContact(int c, CONTACT_PARAMS MEMBER_CENTER_PARAMS, real3* gradient, bool* nonFinite,
        GEOMETRY_PARAMS) {
    const int4 atoms = contactAtoms[c];
    bool memberNonFinite = false;
    real3 hi1, lo1, cell1, hi2, lo2, cell2;
    memberParts(atoms.x, atoms.z, PARTICLE_ARGS MEMBER_CENTER_ARGS, &hi1, &lo1, &cell1, &memberNonFinite);
    memberParts(atoms.y, atoms.w, PARTICLE_ARGS MEMBER_CENTER_ARGS, &hi2, &lo2, &cell2, &memberNonFinite);
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
 * *slopeNonFinite is raised where a gradient is not finite (a weight near the largest double): no force can be
 * applied, the rule the host platforms apply to a force that is not finite.
 */
DEVICE mixed contactPass(int first, int stride, CONTACT_PARAMS MEMBER_CENTER_PARAMS, int computeGradient,
        int storeValues, bool* nonFinite, bool* slopeNonFinite, GEOMETRY_PARAMS) {
    mixed sum = 0;
    for (int c = first; c < NUM_CONTACTS; c += stride) {
        real3 gradient;
        const mixed value = evaluateContact(c, CONTACT_ARGS MEMBER_CENTER_ARGS, &gradient, nonFinite, GEOMETRY_ARGS);
#if defined(REDUCTION_DISTANCE)
        sum += value * value;
        const real twice = (real) (2 * value);
        gradient = make_real3(gradient.x * twice, gradient.y * twice, gradient.z * twice);
#elif defined(REDUCTION_SUM)
        sum += value;
#endif
        if (!(REAL_IS_FINITE(gradient.x) && REAL_IS_FINITE(gradient.y) && REAL_IS_FINITE(gradient.z)))
            *slopeNonFinite = true;
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
DEVICE bool contactMapEnergy(mixed s, bool nonFinitePositions, bool slopeNonFinite, bool writeResults, ENERGY_PARAMS,
        GLOBAL const mixed* RESTRICT contactValues, mixed* dEdSOut DERIVATIVE_PARAMS) {
    if (nonFinitePositions)
        s = NOT_A_NUMBER_MIXED;
    mixed energy = 0, dEdS = 0;
    COMPUTE_ENERGY
    bool finite = !nonFinitePositions && !slopeNonFinite && MIXED_IS_FINITE(s) && MIXED_IS_FINITE(energy) &&
                  MIXED_IS_FINITE(dEdS);
#ifdef REDUCTION_COMPONENTS
    for (int n = 0; n < NUM_CONTACTS; n++)
        finite = finite && MIXED_IS_FINITE(contactValues[n]) && MIXED_IS_FINITE(variableDerivatives[n]);
    if (!finite)
        for (int n = 0; n < NUM_CONTACTS; n++)
            variableDerivatives[n] = 0;
#endif
    STORE_ENERGY_RESULTS(s, writeResults)
    *dEdSOut = dEdS;
    return finite;
}

/** Where a position the map uses is not finite, every contact's value is NaN (contacts first, first + stride, ...). */
DEVICE void markValuesNonFinite(int first, int stride, GLOBAL mixed* RESTRICT contactValues) {
    for (int n = first; n < NUM_CONTACTS; n += stride)
        contactValues[n] = NOT_A_NUMBER_MIXED;
}

/** Add a force to a member: a particle's atom in OpenMM's buffer, or a centre's entry of centerForces. */
DEVICE void addMemberForce(int atom, real3 force, GLOBAL mm_ulong* RESTRICT forceBuffers CENTER_FORCE_PARAMS) {
#ifdef HAS_CENTERS
    if (atom >= NUM_ATOMS) {
        GLOBAL mm_ulong* center = (GLOBAL mm_ulong*) &centerForces[3 * (atom - NUM_ATOMS)];
        ATOMIC_ADD(&center[0], (mm_ulong) realToFixedPoint(force.x));
        ATOMIC_ADD(&center[1], (mm_ulong) realToFixedPoint(force.y));
        ATOMIC_ADD(&center[2], (mm_ulong) realToFixedPoint(force.z));
        return;
    }
#endif
    ATOMIC_ADD(&forceBuffers[atom], (mm_ulong) realToFixedPoint(force.x));
    ATOMIC_ADD(&forceBuffers[atom + PADDED_NUM_ATOMS], (mm_ulong) realToFixedPoint(force.y));
    ATOMIC_ADD(&forceBuffers[atom + 2 * PADDED_NUM_ATOMS], (mm_ulong) realToFixedPoint(force.z));
}

/** The forces of contacts first, first + stride, ...: F2 = -dE/dv gradient, F1 = -F2. */
DEVICE void applyContactForces(int first, int stride, mixed dEdS, GLOBAL const int4* RESTRICT contactAtoms,
        GLOBAL const int* RESTRICT contactOrder, GLOBAL const STORAGE4* RESTRICT contactGradients,
        GLOBAL const mixed* RESTRICT variableDerivatives, GLOBAL mm_ulong* RESTRICT forceBuffers CENTER_FORCE_PARAMS) {
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
        addMemberForce(atoms.y, force, forceBuffers CENTER_FORCE_ARGS);
        addMemberForce(atoms.x, make_real3(-force.x, -force.y, -force.z), forceBuffers CENTER_FORCE_ARGS);
    }
}

/**
 * The end of an evaluation in a block, from each thread's sum of the terms and whether it met a member that is not
 * finite (or a slope that is not): s over the block, E by its thread 0 (results and the energy where writeResults),
 * then the values' NaN (where storeValues and a member is not finite) and the forces (where computeGradient and E is
 * finite) of contacts first, first + stride, .... Returns whether the forces were applied. Every thread of the block
 * calls it (it holds barriers); blockFlags[0] (a member not finite) and blockFlags[2] (a slope not finite) were
 * cleared before a barrier.
 */
DEVICE bool finishInBlock(mixed sum, bool nonFinite, bool slopeNonFinite, bool writeResults, int first, int stride, int computeGradient,
        int storeValues, ENERGY_PARAMS, GLOBAL const int4* RESTRICT contactAtoms, GLOBAL const int* RESTRICT contactOrder,
        GLOBAL const STORAGE4* RESTRICT contactGradients, GLOBAL mixed* RESTRICT contactValues,
        GLOBAL mm_ulong* RESTRICT forceBuffers CENTER_FORCE_PARAMS, LOCAL_ARG volatile mixed* reduceTemp,
        LOCAL_ARG int* blockFlags, LOCAL_ARG mixed* blockDerivative DERIVATIVE_PARAMS) {
    if (nonFinite)
        blockFlags[0] = 1;
    if (slopeNonFinite)
        blockFlags[2] = 1;
    const mixed s = sumOverBlock(sum, reduceTemp); // (its barriers also publish the flags and the values)
    if (LOCAL_ID == 0) {
        mixed dEdS;
        blockFlags[1] = contactMapEnergy(s, blockFlags[0] != 0, blockFlags[2] != 0, writeResults, ENERGY_ARGS,
                                         contactValues, &dEdS DERIVATIVE_ARGS);
        blockDerivative[0] = dEdS;
    }
    SYNC_THREADS;
    if (storeValues && blockFlags[0])
        markValuesNonFinite(first, stride, contactValues);
    if (computeGradient && blockFlags[1])
        applyContactForces(first, stride, blockDerivative[0], contactAtoms, contactOrder, contactGradients,
                           variableDerivatives, forceBuffers CENTER_FORCE_ARGS);
    return blockFlags[1] != 0;
}

#ifdef HAS_CENTERS
/** Clear the centres' forces for this evaluation (entries first, first + stride, ...). */
DEVICE void clearCenterForces(int first, int stride, GLOBAL mm_long* RESTRICT centerForces) {
    for (int i = first; i < 3 * NUM_CENTERS; i += stride)
        centerForces[i] = 0;
}

/** Whether one of centres first, first + stride, ... is not finite (a particle of it is not). */
DEVICE bool centersNonFinite(int first, int stride, GLOBAL const real4* RESTRICT centerPositions) {
    bool nonFinite = false;
    for (int k = first; k < NUM_CENTERS; k += stride) {
        const real4 center = centerPositions[k];
        nonFinite = nonFinite || !isFinitePosition(make_real3(center.x, center.y, center.z));
    }
    return nonFinite;
}

/** The centres' forces (centerForces) spread to their particles, by member entries first, first + stride, .... */
#define SPREAD_CENTER_FORCES(first, stride) \
    spreadCenterForces(first, stride, (real) (1.0 / 4294967296.0), centerForces, 0, 3, 1, centerAtoms, centerOfEntry, \
                       centerForceWeights, forceBuffers)
#endif

#ifdef SMALL_MAP
#ifdef __CUDA_ARCH__
/** Compiled for its block of CONTACT_BLOCK_SIZE threads: the compiler keeps the registers within what they can have. */
#define SMALL_MAP_BOUNDS __launch_bounds__(CONTACT_BLOCK_SIZE)
#else
#define SMALL_MAP_BOUNDS
#endif
/**
 * A small map in one launch of one block: centres (small ones: computeCenterPositions computed larger ones before),
 * contacts, the block's sum, E, the forces, the centres' forces. Every barrier is outside any branch (PoCL
 * miscompiled barriers inside branches); without centres, four on CUDA.
 */
KERNEL void SMALL_MAP_BOUNDS computeContactMap(CONTACT_PARAMS MAP_CENTER_PARAMS, ENERGY_PARAMS,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, int storeValues, GEOMETRY_PARAMS
        DERIVATIVE_PARAMS) {
    LOCAL volatile mixed reduceTemp[CONTACT_BLOCK_SIZE];
    LOCAL mixed blockDerivative[1];
    LOCAL int blockFlags[3]; // a member not finite; E and its derivatives finite (forces applied); a slope not finite
    if (LOCAL_ID == 0)
        blockFlags[0] = blockFlags[2] = 0;
    bool nonFinite = false, slopeNonFinite = false;
#ifdef HAS_CENTERS
    clearCenterForces(LOCAL_ID, LOCAL_SIZE, centerForces);
#ifdef CENTERS_IN_BLOCK
    LOCAL real centerSums[3 * CENTER_LANES];
    LOCAL int centerInvalid[CENTER_LANES];
    computeCentersByBlock(0, 1, posq POSQ_CORRECTION_ARGS, cellOffsets CENTER_MEMBER_ARGS, centerPositions, BOX_ARGS,
                          centerSums, centerInvalid);
#endif
    SYNC_THREADS; // (the centres written)
    nonFinite = centersNonFinite(LOCAL_ID, LOCAL_SIZE, centerPositions);
#endif
    SYNC_THREADS; // (the flag cleared)
#ifdef REDUCTION_COMPONENTS
    storeValues = 1;
#endif
    const mixed sum = contactPass(LOCAL_ID, LOCAL_SIZE, CONTACT_ARGS MEMBER_CENTER_ARGS, computeGradient, storeValues,
                                  &nonFinite, &slopeNonFinite, GEOMETRY_ARGS);
    const bool forcesApplied = finishInBlock(sum, nonFinite, slopeNonFinite, true, LOCAL_ID, LOCAL_SIZE, computeGradient, storeValues,
            ENERGY_ARGS, contactAtoms, contactOrder, contactGradients, contactValues, forceBuffers CENTER_FORCE_ARGS,
            reduceTemp, blockFlags, blockDerivative DERIVATIVE_ARGS);
#ifdef HAS_CENTERS
    SYNC_THREADS;
    if (computeGradient && forcesApplied)
        SPREAD_CENTER_FORCES(LOCAL_ID, LOCAL_SIZE);
#endif
}
#else
/**
 * Every contact, a partial sum and non-finite flags per block (1: a member, 2: a slope); the centres' forces cleared
 * for the finish.
 */
KERNEL void computeContacts(CONTACT_PARAMS MAP_CENTER_PARAMS, GLOBAL mixed* RESTRICT partialSums,
        GLOBAL int* RESTRICT partialFlags, int computeGradient, int storeValues, GEOMETRY_PARAMS) {
    LOCAL volatile mixed reduceTemp[CONTACT_BLOCK_SIZE];
    LOCAL int blockNonFinite[2];
    if (LOCAL_ID == 0)
        blockNonFinite[0] = blockNonFinite[1] = 0;
    SYNC_THREADS;
#ifdef HAS_CENTERS
    clearCenterForces(GLOBAL_ID, GLOBAL_SIZE, centerForces);
#endif
    bool nonFinite = false, slopeNonFinite = false;
    const mixed sum = contactPass(GLOBAL_ID, GLOBAL_SIZE, CONTACT_ARGS MEMBER_CENTER_ARGS, computeGradient, storeValues,
                                  &nonFinite, &slopeNonFinite, GEOMETRY_ARGS);
    if (nonFinite)
        blockNonFinite[0] = 1;
    if (slopeNonFinite)
        blockNonFinite[1] = 2;
    const mixed s = sumOverBlock(sum, reduceTemp);
    if (LOCAL_ID == 0) {
        partialSums[GROUP_ID] = s;
        partialFlags[GROUP_ID] = blockNonFinite[0] | blockNonFinite[1];
    }
}

/**
 * The finish: every block sums the partials in the same fixed order, reads the centres' flags and evaluates E;
 * block 0 stores the results and adds the energy; then, if computeGradient, the forces of the contacts (a thread
 * each).
 */
KERNEL void finishContacts(GLOBAL const mixed* RESTRICT partialSums, GLOBAL const int* RESTRICT partialFlags,
        int numPartials, ENERGY_PARAMS, GLOBAL const int4* RESTRICT contactAtoms, GLOBAL const int* RESTRICT contactOrder,
        GLOBAL const STORAGE4* RESTRICT contactGradients, GLOBAL mixed* RESTRICT contactValues,
        GLOBAL mm_ulong* RESTRICT forceBuffers, int computeGradient, int storeValues MAP_CENTER_PARAMS DERIVATIVE_PARAMS) {
    LOCAL volatile mixed reduceTemp[CONTACT_BLOCK_SIZE];
    LOCAL mixed blockDerivative[1];
    LOCAL int blockFlags[3];
    if (LOCAL_ID == 0)
        blockFlags[0] = blockFlags[2] = 0;
    SYNC_THREADS;
    mixed sum = 0;
    bool nonFinite = false, slopeNonFinite = false;
    for (int i = LOCAL_ID; i < numPartials; i += LOCAL_SIZE) {
        sum += partialSums[i];
        nonFinite = nonFinite || (partialFlags[i] & 1) != 0;
        slopeNonFinite = slopeNonFinite || (partialFlags[i] & 2) != 0;
    }
#ifdef HAS_CENTERS
    nonFinite = nonFinite || centersNonFinite(LOCAL_ID, LOCAL_SIZE, centerPositions);
#endif
    finishInBlock(sum, nonFinite, slopeNonFinite, GROUP_ID == 0, GLOBAL_ID, GLOBAL_SIZE, computeGradient, storeValues, ENERGY_ARGS,
                  contactAtoms, contactOrder, contactGradients, contactValues, forceBuffers CENTER_FORCE_ARGS, reduceTemp,
                  blockFlags, blockDerivative DERIVATIVE_ARGS);
}

#ifdef HAS_CENTERS
/** The centres' forces spread to their particles (a thread per centre entry), after finishContacts. */
KERNEL void spreadContactCenterForces(GLOBAL mm_ulong* RESTRICT forceBuffers MAP_CENTER_PARAMS) {
    // (Where the finish applied no force, the centres' forces are still 0.)
    SPREAD_CENTER_FORCES(GLOBAL_ID, GLOBAL_SIZE);
}
#endif
#endif

/**
 * After OpenMM reorders the atoms (positionOfParticle from invertAtomOrder): the contacts' members and the centres'
 * entries as current atoms (a centre stays NUM_ATOMS + k).
 */
KERNEL void translateContactMembers(GLOBAL const int* RESTRICT positionOfParticle,
        GLOBAL const int4* RESTRICT contactParticles, GLOBAL int4* RESTRICT contactAtoms CENTER_TRANSLATE_PARAMS) {
    for (int c = GLOBAL_ID; c < NUM_CONTACTS; c += GLOBAL_SIZE) {
        const int4 particles = contactParticles[c];
        contactAtoms[c] = make_int4(memberAtom(positionOfParticle, particles.x), memberAtom(positionOfParticle, particles.y),
                                    particles.z, particles.w);
    }
    TRANSLATE_CENTER_ENTRIES
}
