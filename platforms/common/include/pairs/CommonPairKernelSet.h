#ifndef COMMON_PAIR_KERNEL_SET_H_
#define COMMON_PAIR_KERNEL_SET_H_

#include "energy/CommonEnergyArrays.h"
#include "pairs/CommonPairArrays.h"
#include "pairs/CommonPairBody.h"
#include "pairs/CommonPairPlan.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"
#include "openmm/common/ComputeProgram.h"

namespace CoordinationPlugin {

/**
 * Every kernel of the pair traversal, with its arguments. Each argument's index is recorded as it is added (the
 * *Arg members); those that change at run time are set through them. An index is -1 where the kernel does not have
 * that argument.
 */
class CommonPairKernelSet {
public:
    /** The kernels that sort one group's slots spatially and bound its tiles (Self and Dual). */
    struct GroupKernels {
        CommonPairArrays::SortedGroup* sorted = nullptr; // the group's arrays
        OpenMM::ComputeKernel keyKernel, gatherKernel, boundsKernel;
        int keyBoxArg = -1;
        int boundsBoxArg = -1, boundsListCapacityArg = -1, boundsParityArg = -1, boundsForceRebuildArg = -1;
    };

    /** Create every kernel the plan launches from `program`, their arguments pointing at the arrays. */
    void create(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                CommonPairArrays& arrays, CommonEnergyArrays& energy, CommonPairBody& body);
    /** Point the kernels at the neighbour list's arrays after they were resized to `capacity` chunks. */
    void setListArgs(CommonPairArrays& arrays, int capacity);

    OpenMM::ComputeKernel pairKernel, finishKernel, invertKernel, translateKernel;
    int pairComputeGradientArg = -1, pairBoxArg = -1;
    int pairChunkRowsArg = -1, pairChunkSlotsArg = -1, pairUseListArg = -1, pairParityArg = -1, pairListCapacityArg = -1;
    int pairAddEnergyArg = -1;             // the fused finish's addEnergy
    int finishAddEnergyArg = -1, finishComputeGradientArg = -1, finishParityArg = -1;
    GroupKernels groupA, groupB;           // Self and Dual (groupB: Dual only)
    OpenMM::ComputeKernel buildKernel;     // the neighbour list's (culling only)
    int buildChunkRowsArg = -1, buildChunkSlotsArg = -1, buildListCapacityArg = -1, buildParityArg = -1, buildBoxArg = -1;

private:
    void createPairKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                          CommonPairArrays& arrays, CommonEnergyArrays& energy, CommonPairBody& body);
    void createGroupKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                            CommonPairArrays& arrays, CommonPairBody& body, GroupKernels& g, bool groupB);
    void createBuildKernel(OpenMM::ComputeProgram& program, const CommonPairPlan& plan, CommonPairArrays& arrays);
    void createFinishKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                            CommonPairArrays& arrays, CommonEnergyArrays& energy);
    void createReorderKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, CommonPairArrays& arrays);
};

} // namespace CoordinationPlugin

#endif /*COMMON_PAIR_KERNEL_SET_H_*/
