#include "peratom/CommonPerAtomKernelSet.h"
#include "engine/CommonKernelArguments.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

void CommonPerAtomKernelSet::create(ComputeContext& cc, ComputeProgram& program, const CommonPerAtomPlan& plan,
                                    CommonPerAtomArrays& a, CommonPairArrays& pairs, CommonEnergyArrays& energy) {
    sumsKernel = program->createKernel("computeNumberSums");
    CommonKernelArguments sums(sumsKernel);
    sums.add(a.numbersFixed, a.rowOfSlotA, a.numberValues, a.numberComponents, a.numberPartialFixed, a.numberPartialSums,
             a.numberPartialIndices, pairs.nonFiniteFlags);
    sumsParityArg = sums.add(0);
    sums.add(pairs.listState, a.numberState);
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
    addEnergyKernel = program->createKernel("addNumbersEnergy");
    CommonKernelArguments add(addEnergyKernel);
    add.add(a.rowOfSlotA, a.numberWeights, a.numberResults, a.numberCoefficients, a.numberState, cc.getEnergyBuffer());
    addEnergyArg = add.add(1);
    add.addParameterDerivatives(energy);
}

void CommonPerAtomKernelSet::run(const CommonPerAtomPlan& plan, int parity, bool addEnergy) {
    const int blockSize = CommonPerAtomPlan::BlockSize, partThreads = plan.numParts * blockSize;
    sumsKernel->setArg(sumsParityArg, parity);
    sumsKernel->execute(partThreads, blockSize);
    if (plan.secondPass)
        secondSumsKernel->execute(partThreads, blockSize);
    energyKernel->setArg(energyParityArg, parity);
    energyKernel->execute(blockSize, blockSize);
    weightsKernel->execute(partThreads, blockSize);
    addEnergyKernel->setArg(addEnergyArg, addEnergy ? 1 : 0);
    addEnergyKernel->execute(blockSize, blockSize);
}
