#ifndef COMMON_PAIR_BODY_H_
#define COMMON_PAIR_BODY_H_

#include "engine/CommonKernelArguments.h"
#include "pairs/CommonPairArrays.h"
#include "pairs/CommonPairPlan.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeProgram.h"
#include <map>
#include <string>

namespace CoordinationPlugin {

/**
 * What a force puts into the shared pair traversal (CommonPairTraversal): the body of its pair kernel, chosen at
 * compile time (its defines and kernel source), the arrays the body reads and writes, the body's own kernels, and
 * the code of the force finish's energy (COMPUTE_ENERGY, ADD_PARAMETER_DERIVATIVES). The traversal asks it at each
 * step of its build, in this order: initialize, addToProgram, addPairKernelArgs and addGatherArgs, createKernels.
 * CoordinationForce's body sums sigma (CommonSwitchSumBody); the per-atom engine's runs two passes around its finish
 * (CommonPerAtomBody).
 */
class CommonPairBody {
public:
    virtual ~CommonPairBody() = default;
    /** Whether the body's result is symmetric in the groups (the traversal may then make the larger group A). */
    virtual bool symmetricInGroups() const = 0;
    /**
     * Whether the traversal must skip a pair of slots that hold the same member (CHECK_SAME_ATOM, where the groups can
     * have one); false where the body drops such a pair itself.
     */
    virtual bool needsSameMemberCheck() const = 0;
    /**
     * Whether pass 1's last block may run the body's finish (the traversal's fused finish for small groups on CUDA);
     * false where other launches must come between the passes (a per-atom force's local step).
     */
    virtual bool allowsFusedFinish() const { return true; }
    /** Allocate the body's arrays for the traversal's plan. */
    virtual void initialize(OpenMM::ComputeContext& cc, const CommonPairPlan& plan) = 0;
    /** The body's defines and replacements; returns its kernel source, compiled between finish.cc and tiles.cc. */
    virtual std::string addToProgram(OpenMM::ComputeContext& cc, const CommonPairPlan& plan,
                                     std::map<std::string, std::string>& defines,
                                     std::map<std::string, std::string>& replacements) = 0;
    /** The pair kernel's arguments of the body (after the neighbour list's, before the fused finish's). */
    virtual void addPairKernelArgs(CommonKernelArguments& args) = 0;
    /** gatherSortedSlots' arguments of the body, for group A or group B (after the traversal's). */
    virtual void addGatherArgs(CommonKernelArguments& args, bool groupB) = 0;
    /** Create the body's own kernels (the traversal's arrays: `pairs`). */
    virtual void createKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                               CommonPairArrays& pairs) = 0;
};

} // namespace CoordinationPlugin

#endif /*COMMON_PAIR_BODY_H_*/
