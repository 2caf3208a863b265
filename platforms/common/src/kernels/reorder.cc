/**
 * Following OpenMM's reordering of the atoms: the groups' slots point at current atom positions.
 */

/**
 * After OpenMM reorders atoms (atomIndex[position] = original index), find each particle's position.
 * Runs on the device at reorder time, so following the reordering needs no host transfer.
 */
KERNEL void invertAtomOrder(GLOBAL const int* RESTRICT atomIndex, GLOBAL int* RESTRICT positionOfParticle, int numAtoms) {
    for (int position = GLOBAL_ID; position < numAtoms; position += GLOBAL_SIZE)
        positionOfParticle[atomIndex[position]] = position;
}

#ifdef NUM_A
/**
 * The current atom position of a group entry's member id: a particle's position, or a centre's id (NUM_ATOMS + k)
 * unchanged.
 */
DEVICE int memberAtom(GLOBAL const int* RESTRICT positionOfParticle, int member) {
#ifdef HAS_CENTERS
    if (member >= NUM_ATOMS)
        return member;
#endif
    return positionOfParticle[member];
}

/**
 * Translate the groups' particle indices (as the user gave them) into current atom positions, and the centres'
 * particles.
 */
KERNEL void translateParticles(GLOBAL const int* RESTRICT positionOfParticle,
        GLOBAL const int* RESTRICT particlesA, GLOBAL int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT particlesB, GLOBAL int* RESTRICT atomsB
#ifdef HAS_CENTERS
        , GLOBAL const int* RESTRICT centerParticles, GLOBAL int* RESTRICT centerAtoms
#endif
        ) {
    for (int i = GLOBAL_ID; i < NUM_A; i += GLOBAL_SIZE)
        atomsA[i] = memberAtom(positionOfParticle, particlesA[i]);
    for (int i = GLOBAL_ID; i < NUM_B; i += GLOBAL_SIZE)
        atomsB[i] = memberAtom(positionOfParticle, particlesB[i]);
#ifdef HAS_CENTERS
    for (int i = GLOBAL_ID; i < NUM_CENTER_ENTRIES; i += GLOBAL_SIZE)
        centerAtoms[i] = positionOfParticle[centerParticles[i]];
#endif
}
#endif
