#ifndef COMMON_PER_ATOM_KERNEL_SET_H_
#define COMMON_PER_ATOM_KERNEL_SET_H_

#include "energy/CommonEnergyArrays.h"
#include "pairs/CommonPairArrays.h"
#include "peratom/CommonLocalStepArrays.h"
#include "peratom/CommonPerAtomArrays.h"
#include "peratom/CommonPerAtomPlan.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"
#include "openmm/common/ComputeProgram.h"

namespace CoordinationPlugin {

/**
 * The kernels of the per-atom engine's finish between its two passes (kernels/peratom: the sums, the second pass's sums,
 * the energy, the weights, the energy's addition), with their arguments; none where pass 1's last block runs them.
 */
struct CommonPerAtomKernelSet {
    /** local: the local step's arrays (its kernels and the finish's arguments of them), or null. */
    void create(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPerAtomPlan& plan,
                CommonPerAtomArrays& arrays, CommonPairArrays& pairs, CommonEnergyArrays& energy,
                CommonLocalStepArrays* local);
    /** Launch the finish's phases for the evaluation of the given parity. */
    void run(const CommonPerAtomPlan& plan, int parity, bool addEnergy);
    /** The phases up to the weights (the numbers, the reductions, E and the weights). */
    void runValues(const CommonPerAtomPlan& plan, int parity);
    /** The last phase: E into the energy buffer (if addEnergy), and whether pass 2 runs. */
    void runAddEnergy(bool addEnergy);
    /** The local step's kernels: u before the local pass; dE/dv after the local pass of G. */
    void runLocalVectors(const CommonPerAtomPlan& plan, int parity);
    void runLocalBackward(const CommonPerAtomPlan& plan);

    OpenMM::ComputeKernel sumsKernel, secondSumsKernel, energyKernel, weightsKernel, addEnergyKernel;
    OpenMM::ComputeKernel localVectorsKernel, localBackwardKernel;
    int sumsParityArg = -1, energyParityArg = -1, addEnergyArg = -1, localVectorsParityArg = -1;
};

} // namespace CoordinationPlugin

#endif /*COMMON_PER_ATOM_KERNEL_SET_H_*/
