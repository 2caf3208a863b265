#ifndef COMMON_LOCAL_STEP_ARRAYS_H_
#define COMMON_LOCAL_STEP_ARRAYS_H_

#include "internal/peratom/ResolvedPerAtom.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"

namespace CoordinationPlugin {

/**
 * The device arrays of a per-atom force's local step on a GPU, shared by the force's own pair traversal's finish
 * (CommonPerAtomBody: kernels/peratom/perAtomFinish.cc) and the local step's traversal (CommonLocalStepBody:
 * kernels/peratom/localPairs.cc), which is why neither owns them. n = 1 + D numbers per entry (LOCAL_SUMS; D the
 * local vector's size, ResolvedPerAtom::localComponents()); component c of an entry at c numA + its index.
 */
struct CommonLocalStepArrays {
    /** Allocate them for numA entries of perAtom's local step in the context's precision. */
    void initialize(OpenMM::ComputeContext& cc, const ResolvedPerAtom& perAtom, int numA);
    int numA = 0, numSums = 1, numComponents = 1;
    // By the local traversal's sorted row: the local pass's sums (64-bit fixed point: hi rows, then lo rows, from
    // row 2 c numA), its data x (n numbers) and the force pass's [1, u, G] (2n numbers); each slot's sorted row.
    OpenMM::ComputeArray fixed, data, forceData, rowOfSlot;
    // In A's order: u (D numbers), the local sums [W, P] (n numbers) and dE/du from s (D numbers).
    OpenMM::ComputeArray vectors, sums, dEdLocal;
};

} // namespace CoordinationPlugin

#endif /*COMMON_LOCAL_STEP_ARRAYS_H_*/
