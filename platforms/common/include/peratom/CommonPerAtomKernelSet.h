#ifndef COMMON_PER_ATOM_KERNEL_SET_H_
#define COMMON_PER_ATOM_KERNEL_SET_H_

#include "energy/CommonEnergyArrays.h"
#include "pairs/CommonPairArrays.h"
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
    void create(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPerAtomPlan& plan,
                CommonPerAtomArrays& arrays, CommonPairArrays& pairs, CommonEnergyArrays& energy);
    /** Launch the finish's phases for the evaluation of the given parity. */
    void run(const CommonPerAtomPlan& plan, int parity, bool addEnergy);

    OpenMM::ComputeKernel sumsKernel, secondSumsKernel, energyKernel, weightsKernel, addEnergyKernel;
    int sumsParityArg = -1, energyParityArg = -1, addEnergyArg = -1;
};

} // namespace CoordinationPlugin

#endif /*COMMON_PER_ATOM_KERNEL_SET_H_*/
