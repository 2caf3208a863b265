#ifndef COMMON_COORDINATION_KERNEL_SET_H_
#define COMMON_COORDINATION_KERNEL_SET_H_

#include "CommonCoordinationArrays.h"
#include "CommonCoordinationPlan.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"
#include "openmm/common/ComputeProgram.h"

namespace CoordinationPlugin {

/**
 * Every kernel of one program, with its arguments. Each argument's index is recorded as it is added (the
 * *Arg members); those that change at run time are set through them. An index is -1 where the kernel does
 * not have that argument.
 */
class CommonCoordinationKernelSet {
public:
    /** The kernels that sort one group's slots spatially and bound its tiles (Self and Dual). */
    struct GroupKernels {
        CommonCoordinationArrays::SortedGroup* sorted = nullptr; // the group's arrays
        OpenMM::ComputeKernel keyKernel, gatherKernel, boundsKernel;
        int keyBoxArg = -1;
        int boundsBoxArg = -1, boundsListCapacityArg = -1, boundsParityArg = -1, boundsForceRebuildArg = -1;
    };

    /** Create every kernel the plan launches from `program`, its arguments pointing at `arrays`. */
    void create(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                CommonCoordinationArrays& arrays);
    /** Point the kernels at the neighbour list's arrays after they were resized to `capacity` chunks. */
    void setListArgs(CommonCoordinationArrays& arrays, int capacity);

    OpenMM::ComputeKernel pairKernel, finishKernel, invertKernel, translateKernel;
    int pairComputeGradientArg = -1, pairBoxArg = -1;
    int pairChunkRowsArg = -1, pairChunkSlotsArg = -1, pairUseListArg = -1, pairParityArg = -1, pairListCapacityArg = -1;
    int pairAddEnergyArg = -1;             // the fused finish's addEnergy
    int pairParameterDerivativesArg = -1;  // the fused finish's OpenMM buffer of parameter derivatives
    int finishAddEnergyArg = -1, finishComputeGradientArg = -1, finishParityArg = -1, finishParameterDerivativesArg = -1;
    GroupKernels groupA, groupB;           // Self and Dual (groupB: Dual only)
    // CoordinationNumberForce: the tile kernel's pass (1: numbers, 2: forces) and the numbers' finish.
    int pairNumbersPassArg = -1;
    OpenMM::ComputeKernel numberSumsKernel, centredSumsKernel, numbersEnergyKernel, numberWeightsKernel,
        addNumbersEnergyKernel;
    int numberSumsParityArg = -1, numbersEnergyParityArg = -1, addNumbersEnergyArg = -1,
        numbersParameterDerivativesArg = -1;
    OpenMM::ComputeKernel centerKernel;    // the centres' positions (forces with centres not computed in every block)
    int centerBoxArg = -1;
    OpenMM::ComputeKernel buildKernel;     // the neighbour list's (culling only)
    int buildChunkRowsArg = -1, buildChunkSlotsArg = -1, buildListCapacityArg = -1, buildParityArg = -1, buildBoxArg = -1;

private:
    void createPairKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                          CommonCoordinationArrays& arrays);
    void createGroupKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                            CommonCoordinationArrays& arrays, GroupKernels& g, CommonCoordinationArrays::SortedGroup& sorted,
                            OpenMM::ComputeArray& atoms, OpenMM::ComputeArray& uniques, bool keepsBooks);
    void createCenterKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                            CommonCoordinationArrays& arrays);
    void createBuildKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                           CommonCoordinationArrays& arrays);
    void createFinishKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                            CommonCoordinationArrays& arrays);
    void createNumbersKernel(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                             CommonCoordinationArrays& arrays);
    void createReorderKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonCoordinationPlan& plan,
                              CommonCoordinationArrays& arrays);
};

} // namespace CoordinationPlugin

#endif /*COMMON_COORDINATION_KERNEL_SET_H_*/
