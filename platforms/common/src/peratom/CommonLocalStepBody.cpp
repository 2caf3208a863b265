#include "peratom/CommonLocalStepBody.h"
#include "CoordinationKernelSources.h"
#include "energy/CommonEnergyCode.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include <algorithm>
#include <cmath>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;

string CommonLocalStepBody::addToProgram(ComputeContext& cc, const CommonPairPlan& plan, map<string, string>& defines,
                                         map<string, string>& replacements) {
    // perAtomTerms.cc's numberPair (NUM_COMPONENTS 1: t(r) and its derivative, with the per-atom engine's rules).
    defines["COORDINATION_NUMBERS"] = "1";
    defines["NUM_COMPONENTS"] = "1";
    defines["LOCAL_SUMS"] = cc.intToString(arrays.numSums);
    defines["MIN_DISTANCE_SQUARED"] = cc.doubleToString(ResolvedPerAtom::minimumDistanceSquared);
    defines["MIN_SWITCH"] = cc.doubleToString(ResolvedPerAtom::minimumSwitch);
    // 2^42 over the entries a sum runs over, as the per-atom engine's (perAtomPairs.cc).
    defines["NUMBER_PAIR_LIMIT"] = cc.doubleToString(std::ldexp(1.0, 42) / std::max(plan.numA, 1));
    // The force finish applies the gradient rows with dE/ds = 1 and adds no energy (the force's finish does); its
    // kernel still takes the parameter derivatives' buffers where the energy has them.
    CommonEnergyCode::addDefines(energy, defines);
    replacements["COMPUTE_ENERGY"] = "dEdS = 1;";
    replacements["ADD_PARAMETER_DERIVATIVES"] = "";
    return CoordinationKernelSources::perAtomTerms + CoordinationKernelSources::perAtomFixed +
           CoordinationKernelSources::localPairs;
}

void CommonLocalStepBody::addPairKernelArgs(CommonKernelArguments& args) {
    passArg = args.add(1);
    args.add(arrays.fixed);
    dataArg = args.add(arrays.data);
    args.add(numberState);
}

void CommonLocalStepBody::addGatherArgs(CommonKernelArguments& args, bool groupB) {
    args.add(arrays.rowOfSlot); // Self mode: group A's only
}

void CommonLocalStepBody::createKernels(ComputeContext& cc, ComputeProgram& program, const CommonPairPlan& plan,
                                        CommonPairArrays& pairs) {
    restartKernel = program->createKernel("restartLocalPass");
    restartKernel->addArg(pairs.listState);
}

void CommonLocalStepBody::setPass(ComputeKernel& pairKernel, int pass) {
    pairKernel->setArg(passArg, pass);
    pairKernel->setArg(dataArg, pass == 1 ? arrays.data : arrays.forceData);
}

void CommonLocalStepBody::restartPass() {
    restartKernel->execute(1, 1);
}
