#include "peratom/CommonPerAtomBody.h"
#include "CoordinationKernelSources.h"
#include "peratom/CommonPerAtomProgram.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;

CommonPerAtomBody::CommonPerAtomBody(const ResolvedPerAtomForce& force, CommonEnergyArrays& energy,
                                     CommonLocalStepArrays* local)
    : perAtom(force.perAtom), energyOfReductions(force.energy), forceClass(force.forceClass),
      numCentral(force.numCentral), numOwnB(force.partnerBoundary()), energy(energy),
      local(local) {}

void CommonPerAtomBody::initialize(ComputeContext& cc, const CommonPairPlan& pairs) {
    plan = CommonPerAtomPlan::create(perAtom, energyOfReductions, pairs, numCentral, numOwnB, cc, forceClass);
    arrays.initialize(cc, plan, local != nullptr);
}

string CommonPerAtomBody::addToProgram(ComputeContext& cc, const CommonPairPlan& pairs, map<string, string>& defines,
                                       map<string, string>& replacements) {
    CommonPerAtomProgram::addToProgram(cc, plan, perAtom, energyOfReductions, defines, replacements);
    return CoordinationKernelSources::perAtomTerms + CoordinationKernelSources::perAtomFixed +
           CoordinationKernelSources::perAtomPairs + CoordinationKernelSources::perAtomFinish;
}

void CommonPerAtomBody::addPairKernelArgs(CommonKernelArguments& args) {
    passArg = args.add(1);
    args.add(arrays.numbersFixed, arrays.numberWeights, arrays.rowOfSlotA, arrays.numberValues, arrays.numberComponents,
             arrays.numberResults,
             arrays.numberPartialFixed, arrays.numberPartialSums, arrays.numberPartialIndices,
             arrays.numberCoefficients, arrays.numberIndices, arrays.numberState);
    if (plan.hasNeighborPartners())
        args.add(arrays.slotClassA, arrays.slotClassB);
}

void CommonPerAtomBody::addGatherArgs(CommonKernelArguments& args, bool groupB) {
    args.add(groupB ? arrays.rowOfSlotB : arrays.rowOfSlotA);
    if (plan.hasNeighborPartners()) {
        args.add(groupB ? arrays.slotClassB : arrays.slotClassA);
        args.add(groupB ? plan.numOwnB : plan.numCentral);
    }
}

void CommonPerAtomBody::createKernels(ComputeContext& cc, ComputeProgram& program, const CommonPairPlan& pairs,
                                      CommonPairArrays& pairArrays) {
    kernels.create(cc, program, plan, arrays, pairArrays, energy, local);
}

void CommonPerAtomBody::setPass(ComputeKernel& pairKernel, int pass) {
    pairKernel->setArg(passArg, pass);
}

void CommonPerAtomBody::finish(int parity, bool addEnergy) {
    if (!plan.fusedFinish)
        kernels.run(plan, parity, addEnergy);
}

void CommonPerAtomBody::computeLocalVectors(int parity) {
    kernels.runLocalVectors(plan, parity);
}

void CommonPerAtomBody::finishLocalValues(int parity) {
    kernels.runValues(plan, parity);
}

void CommonPerAtomBody::finishLocalWeights(bool addEnergy) {
    kernels.runLocalBackward(plan);
    kernels.runAddEnergy(addEnergy);
}
