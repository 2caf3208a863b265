#ifndef COMMON_LOCAL_STEP_BODY_H_
#define COMMON_LOCAL_STEP_BODY_H_

#include "internal/energy/ResolvedEnergy.h"
#include "pairs/CommonPairBody.h"
#include "peratom/CommonLocalStepArrays.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeKernel.h"

namespace CoordinationPlugin {

/**
 * The body of a per-atom force's second pair traversal on a GPU, over the pairs of group A with the local step's
 * switching function t (ResolvedPerAtomForce::localPairs; kernels/peratom/localPairs.cc): pass 1 adds t x_j to each
 * entry's sums, pass 2 the gradient of t from dE/dt. Its arrays are CommonLocalStepArrays (shared with the force's
 * finish); its state is the force's numberState (a pass 1 beyond the fixed point's range raises numberState[2], and
 * pass 2 adds nothing where numberState[0] says there is no finite energy). No fused finish: the force's finish runs
 * between its passes.
 */
class CommonLocalStepBody : public CommonPairBody {
public:
    /** energy: the force's (the traversal's finish takes its parameter derivatives' arguments). */
    CommonLocalStepBody(CommonLocalStepArrays& arrays, OpenMM::ComputeArray& numberState, const ResolvedEnergy& energy)
        : arrays(arrays), numberState(numberState), energy(energy) {}
    bool symmetricInGroups() const override { return false; }
    bool needsSameMemberCheck() const override { return false; }
    bool allowsFusedFinish() const override { return false; }
    void initialize(OpenMM::ComputeContext& cc, const CommonPairPlan& plan) override {}
    std::string addToProgram(OpenMM::ComputeContext& cc, const CommonPairPlan& plan,
                             std::map<std::string, std::string>& defines,
                             std::map<std::string, std::string>& replacements) override;
    void addPairKernelArgs(CommonKernelArguments& args) override;
    void addGatherArgs(CommonKernelArguments& args, bool groupB) override;
    void createKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                       CommonPairArrays& pairs) override;
    /** Set the pair kernel's next pass: 1 with the sums' data x (arrays.data), 2 with [1, u, G] (arrays.forceData). */
    void setPass(OpenMM::ComputeKernel& pairKernel, int pass);
    /** Restart the pair kernel's work counter before a second pass of one evaluation. */
    void restartPass();

private:
    CommonLocalStepArrays& arrays;
    OpenMM::ComputeArray& numberState;
    const ResolvedEnergy energy;
    OpenMM::ComputeKernel restartKernel;
    int passArg = -1, dataArg = -1;
};

} // namespace CoordinationPlugin

#endif /*COMMON_LOCAL_STEP_BODY_H_*/
