#include "peratom/CommonPerAtomPlan.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <string>

using namespace CoordinationPlugin;
using namespace OpenMM;

CommonPerAtomPlan CommonPerAtomPlan::create(const ResolvedPerAtom& perAtom, const ResolvedEnergy& energy,
                                            const CommonPairPlan& pairs, int numCentral, int numOwnB,
                                            ComputeContext& cc,
                                            const std::string& forceClass) {
    CommonPerAtomPlan p;
    p.numA = pairs.numA;
    p.numCentral = numCentral;
    p.numB = pairs.numB;
    p.numOwnB = numOwnB;
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
    // The phases over the entries read each entry's fixed-point rows at its scattered sorted row, which an SM's memory
    // units take one row at a time: the smallest blocks that still give every entry a thread spread them over more
    // SMs. OpenMM runs at most getNumThreadBlocks() blocks of a launch, so numParts never exceeds it (a part beyond
    // would never run, and its partial sums would be stale).
    const int blocks = std::max(1, cc.getNumThreadBlocks());
    p.partBlockSize = BlockSize;
    for (int size : {64, 128})
        if ((p.numA + size - 1) / size <= blocks) {
            p.partBlockSize = size;
            break;
        }
    p.numParts = std::max(1, std::min((p.numA + p.partBlockSize - 1) / p.partBlockSize, blocks));
    for (const ResolvedReduction& reduction : perAtom.reductions)
        p.secondPass = p.secondPass || reduction.centred || reduction.logSumExp;
    p.useDouble = pairs.useDouble;
    p.mixedIsDouble = pairs.mixedIsDouble;
    p.fusedFinish = pairs.fusedFinish;
    return p;
}
