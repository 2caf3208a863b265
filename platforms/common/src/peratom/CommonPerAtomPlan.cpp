#include "peratom/CommonPerAtomPlan.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <string>

using namespace CoordinationPlugin;
using namespace OpenMM;

CommonPerAtomPlan CommonPerAtomPlan::create(const ResolvedPerAtom& perAtom, const ResolvedEnergy& energy,
                                            const CommonPairPlan& pairs, int numCentral, ComputeContext& cc,
                                            const std::string& forceClass) {
    CommonPerAtomPlan p;
    p.numA = pairs.numA;
    p.numCentral = numCentral;
    p.numB = pairs.numB;
    p.numComponents = perAtom.numComponents;
    p.numReductions = perAtom.reductions.size();
    if (p.numReductions > MaxReductions)
        throw OpenMMException(forceClass + ": " + std::to_string(p.numReductions) +
                              " reductions; the CUDA and "
                              "OpenCL platforms compile each into their kernels and take at most " +
                              std::to_string(MaxReductions) +
                              " per force: spread them over several forces, or use "
                              "the Reference or CPU platform");
    p.numVectorComponents = (perAtom.hasVectorReductions() ? perAtom.vectorComponents() : 0);
    p.numParameterDerivatives = energy.parameterDerivatives.size();
    p.numParts = std::max(1, std::min((p.numA + BlockSize - 1) / BlockSize, cc.getNumThreadBlocks()));
    for (const ResolvedReduction& reduction : perAtom.reductions)
        p.secondPass = p.secondPass || reduction.centred || reduction.logSumExp;
    p.useDouble = pairs.useDouble;
    p.mixedIsDouble = pairs.mixedIsDouble;
    p.fusedFinish = pairs.fusedFinish;
    return p;
}
