/**
 * Following OpenMM's reordering of the atoms: the members a force reads (groups' slots, contacts, centres' entries)
 * point at current atom positions.
 */

/**
 * After OpenMM reorders atoms (atomIndex[position] = original index), find each particle's position.
 * Runs on the device at reorder time, so following the reordering needs no host transfer.
 */
KERNEL void invertAtomOrder(GLOBAL const int* RESTRICT atomIndex, GLOBAL int* RESTRICT positionOfParticle, int numAtoms) {
    for (int position = GLOBAL_ID; position < numAtoms; position += GLOBAL_SIZE)
        positionOfParticle[atomIndex[position]] = position;
}

/**
 * The current atom position of a member id: a particle's position, or a centre's id (NUM_ATOMS + k) unchanged.
 */
DEVICE int memberAtom(GLOBAL const int* RESTRICT positionOfParticle, int member) {
#ifdef HAS_CENTERS
    if (member >= NUM_ATOMS)
        return member;
#endif
    return positionOfParticle[member];
}

#ifdef HAS_CENTERS
/** The centres' member entries' particles (as the user gave them) and current atoms (CommonCenters). */
#define CENTER_TRANSLATE_PARAMS , GLOBAL const int* RESTRICT centerParticles, GLOBAL int* RESTRICT centerAtoms
/** Translate the centres' member entries into current atom positions (a thread per entry). */
DEVICE void translateCenterEntries(GLOBAL const int* RESTRICT positionOfParticle CENTER_TRANSLATE_PARAMS) {
    for (int i = GLOBAL_ID; i < NUM_CENTER_ENTRIES; i += GLOBAL_SIZE)
        centerAtoms[i] = positionOfParticle[centerParticles[i]];
}
#define TRANSLATE_CENTER_ENTRIES translateCenterEntries(positionOfParticle, centerParticles, centerAtoms);
#else
#define CENTER_TRANSLATE_PARAMS
#define TRANSLATE_CENTER_ENTRIES
#endif

#ifdef NUM_A
/**
 * Translate the groups' member ids (as the user gave them) into current atom positions, and the centres' entries.
 */
KERNEL void translateParticles(GLOBAL const int* RESTRICT positionOfParticle,
        GLOBAL const int* RESTRICT particlesA, GLOBAL int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT particlesB, GLOBAL int* RESTRICT atomsB CENTER_TRANSLATE_PARAMS) {
    for (int i = GLOBAL_ID; i < NUM_A; i += GLOBAL_SIZE)
        atomsA[i] = memberAtom(positionOfParticle, particlesA[i]);
    for (int i = GLOBAL_ID; i < NUM_B; i += GLOBAL_SIZE)
        atomsB[i] = memberAtom(positionOfParticle, particlesB[i]);
    TRANSLATE_CENTER_ENTRIES
}
#endif
