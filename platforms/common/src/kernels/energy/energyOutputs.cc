/**
 * The energy's outputs, for every program (CommonEnergyCode generates COMPUTE_ENERGY, which sets energy, the
 * variables' derivatives and parameterDerivative<i>, and ADD_PARAMETER_DERIVATIVES, one line, which adds each
 * parameter derivative to OpenMM's buffer: DERIVATIVE_PARAMS).
 *
 * STORE_ENERGY_RESULTS(s, writeResults), after COMPUTE_ENERGY and the kernel's `finite`: where the answer is not
 * finite, E is NaN and dE/ds 0 (no force is applied: a fixed-point force cannot hold a NaN); if writeResults,
 * results = {s, dE/ds, E} and, with addEnergy, E and its parameter derivatives go into OpenMM's buffers.
 */
#define STORE_ENERGY_RESULTS(s, writeResults) \
    if (!finite) { \
        energy = NOT_A_NUMBER_MIXED; \
        dEdS = 0; \
    } \
    if (writeResults) { \
        results[0] = s; \
        results[1] = dEdS; \
        results[2] = energy; \
        if (addEnergy) { \
            energyBuffer[0] += energy; \
            ADD_PARAMETER_DERIVATIVES \
        } \
    }
