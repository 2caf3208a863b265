#ifndef COMMON_PER_ATOM_ARRAYS_H_
#define COMMON_PER_ATOM_ARRAYS_H_

#include "peratom/CommonPerAtomPlan.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"

namespace CoordinationPlugin {

/** The per-atom engine's device arrays (kernels/peratom), allocated and initialized once per build. */
struct CommonPerAtomArrays {
    /** local: the force has a local step (which keeps v in A's order whatever the number of components). */
    void initialize(OpenMM::ComputeContext& cc, const CommonPerAtomPlan& plan, bool local = false);

    // Per component c (plan.numComponents), the values v per sorted row of A (64-bit fixed point: hi rows, then lo
    // rows, from row 2 c numA); q in A's order; with several components, v in A's order (component c from c numA);
    // the weights dE/dv per sorted row (component c from c numA); each slot's sorted row (A, B); {R_0, ..., E}.
    OpenMM::ComputeArray numbersFixed, numberValues, numberComponents, numberWeights, rowOfSlotA, rowOfSlotB,
        numberResults;
    // With the local neighbours' own partners, each sorted row's class: of A 1 (central) or 2 (a neighbour), of B 1
    // (the centrals' partner) or 2 (the neighbours'); a pair counts where the classes agree (gatherSortedSlots keeps
    // them in the sorted order).
    OpenMM::ComputeArray slotClassA, slotClassB;
    // The finish's phases: per part the exact sum of c, the reductions' sums and the extremes' entries; the
    // coefficients of the weights (3 per reduction, the parameter derivatives, the mean), the extremes' entries,
    // and {energy finite, a weight not finite}.
    OpenMM::ComputeArray numberPartialFixed, numberPartialSums, numberPartialIndices, numberCoefficients, numberIndices,
        numberState;
};

} // namespace CoordinationPlugin

#endif /*COMMON_PER_ATOM_ARRAYS_H_*/
