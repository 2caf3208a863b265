#ifndef COMMON_SWITCH_SUM_BODY_H_
#define COMMON_SWITCH_SUM_BODY_H_

#include "internal/energy/ResolvedEnergy.h"
#include "pairs/CommonPairBody.h"

namespace CoordinationPlugin {

/**
 * CoordinationForce's body of the pair traversal: the tile kernel's own pair loop, s = sum of sigma(r) and ds/dx into
 * the gradient rows (kernels/pairs/tiles.cc as it stands, no source of its own), and the finish's E(s), dE/ds and
 * dE/dlambda (CommonEnergyCode, the variable s).
 */
class CommonSwitchSumBody : public CommonPairBody {
public:
    explicit CommonSwitchSumBody(const ResolvedEnergy& energy) : energy(energy) {}
    bool symmetricInGroups() const override { return true; }
    bool needsSameMemberCheck() const override { return true; }
    void initialize(OpenMM::ComputeContext& cc, const CommonPairPlan& plan) override {}
    std::string addToProgram(OpenMM::ComputeContext& cc, const CommonPairPlan& plan,
                             std::map<std::string, std::string>& defines,
                             std::map<std::string, std::string>& replacements) override;
    void addPairKernelArgs(CommonKernelArguments& args) override {}
    void addGatherArgs(CommonKernelArguments& args, bool groupB) override {}
    void createKernels(OpenMM::ComputeContext& cc, OpenMM::ComputeProgram& program, const CommonPairPlan& plan,
                       CommonPairArrays& pairs) override {}

private:
    const ResolvedEnergy& energy;
};

} // namespace CoordinationPlugin

#endif /*COMMON_SWITCH_SUM_BODY_H_*/
