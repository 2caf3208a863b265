#include "peratom/CommonPerAtomKernelSet.h"
#include "engine/CommonKernelArguments.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

/** The finish's arguments of the local step's arrays (perAtomFinish.cc's LOCAL_STEP_PARAMS). */
void addLocalArgs(CommonKernelArguments& args, CommonLocalStepArrays* local) {
    if (local != nullptr)
        args.add(local->fixed, local->rowOfSlot, local->vectors, local->sums, local->data, local->forceData,
                 local->dEdLocal);
}

} // namespace

void CommonPerAtomKernelSet::create(ComputeContext& cc, ComputeProgram& program, const CommonPerAtomPlan& plan,
                                    CommonPerAtomArrays& a, CommonPairArrays& pairs, CommonEnergyArrays& energy,
                                    CommonLocalStepArrays* local) {
    sumsKernel = program->createKernel("computeNumberSums");
    CommonKernelArguments sums(sumsKernel);
    sums.add(a.numbersFixed, a.rowOfSlotA, a.numberValues, a.numberComponents, a.numberPartialFixed, a.numberPartialSums,
             a.numberPartialIndices, pairs.nonFiniteFlags);
    sumsParityArg = sums.add(0);
    sums.add(pairs.listState, a.numberState);
    addLocalArgs(sums, local);
    if (plan.secondPass) {
        secondSumsKernel = program->createKernel("computeSecondNumberSums");
        CommonKernelArguments second(secondSumsKernel);
        second.add(a.numberValues, a.numberPartialFixed, a.numberPartialSums, a.numberPartialIndices);
    }
    energyKernel = program->createKernel("computeNumbersEnergy");
    CommonKernelArguments energyArgs(energyKernel);
    energyArgs.add(a.numberPartialFixed, a.numberPartialSums, a.numberPartialIndices, energy.globals, a.numberResults,
                   a.numberCoefficients, a.numberIndices, a.numberState, pairs.nonFiniteFlags);
    energyParityArg = energyArgs.add(0);
    weightsKernel = program->createKernel("computeNumberWeights");
    CommonKernelArguments weights(weightsKernel);
    weights.add(a.numberValues, a.numberComponents, a.rowOfSlotA, a.numberWeights, a.numberCoefficients, a.numberIndices, a.numberState);
    addLocalArgs(weights, local);
    if (local != nullptr) {
        localVectorsKernel = program->createKernel("computeLocalVectors");
        CommonKernelArguments vectors(localVectorsKernel);
        vectors.add(a.numbersFixed, a.rowOfSlotA, a.numberComponents, pairs.nonFiniteFlags);
        localVectorsParityArg = vectors.add(0);
        vectors.add(a.numberState);
        addLocalArgs(vectors, local);
        localBackwardKernel = program->createKernel("computeLocalBackward");
        CommonKernelArguments backward(localBackwardKernel);
        backward.add(a.numberComponents, a.rowOfSlotA, a.numberWeights, a.numberState);
        addLocalArgs(backward, local);
    }
    addEnergyKernel = program->createKernel("addNumbersEnergy");
    CommonKernelArguments add(addEnergyKernel);
    add.add(a.rowOfSlotA, a.numberWeights, a.numberResults, a.numberCoefficients, a.numberState, cc.getEnergyBuffer());
    addEnergyArg = add.add(1);
    add.addParameterDerivatives(energy);
}

void CommonPerAtomKernelSet::run(const CommonPerAtomPlan& plan, int parity, bool addEnergy) {
    runValues(plan, parity);
    runAddEnergy(addEnergy);
}

void CommonPerAtomKernelSet::runValues(const CommonPerAtomPlan& plan, int parity) {
    const int blockSize = CommonPerAtomPlan::BlockSize, partThreads = plan.numParts * plan.partBlockSize;
    sumsKernel->setArg(sumsParityArg, parity);
    sumsKernel->execute(partThreads, plan.partBlockSize);
    if (plan.secondPass)
        secondSumsKernel->execute(partThreads, plan.partBlockSize);
    energyKernel->setArg(energyParityArg, parity);
    energyKernel->execute(blockSize, blockSize);
    weightsKernel->execute(partThreads, plan.partBlockSize);
}

void CommonPerAtomKernelSet::runAddEnergy(bool addEnergy) {
    const int blockSize = CommonPerAtomPlan::BlockSize;
    addEnergyKernel->setArg(addEnergyArg, addEnergy ? 1 : 0);
    addEnergyKernel->execute(blockSize, blockSize);
}

void CommonPerAtomKernelSet::runLocalVectors(const CommonPerAtomPlan& plan, int parity) {
    localVectorsKernel->setArg(localVectorsParityArg, parity);
    localVectorsKernel->execute(plan.numParts * plan.partBlockSize, plan.partBlockSize);
}

void CommonPerAtomKernelSet::runLocalBackward(const CommonPerAtomPlan& plan) {
    localBackwardKernel->execute(plan.numParts * plan.partBlockSize, plan.partBlockSize);
}
