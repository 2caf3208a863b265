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
 * Translate the groups' particle indices (as the user gave them) into current atom positions.
 */
KERNEL void translateParticles(GLOBAL const int* RESTRICT positionOfParticle,
        GLOBAL const int* RESTRICT particlesA, GLOBAL int* RESTRICT atomsA,
        GLOBAL const int* RESTRICT particlesB, GLOBAL int* RESTRICT atomsB) {
    for (int i = GLOBAL_ID; i < NUM_A; i += GLOBAL_SIZE)
        atomsA[i] = positionOfParticle[particlesA[i]];
    for (int i = GLOBAL_ID; i < NUM_B; i += GLOBAL_SIZE)
        atomsB[i] = positionOfParticle[particlesB[i]];
}
#endif
