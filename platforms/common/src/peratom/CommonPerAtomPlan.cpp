#include "peratom/CommonPerAtomPlan.h"
#include <algorithm>

using namespace CoordinationPlugin;
using namespace OpenMM;

CommonPerAtomPlan CommonPerAtomPlan::create(const ResolvedPerAtom& perAtom, const ResolvedEnergy& energy,
                                            const CommonPairPlan& pairs, ComputeContext& cc) {
    CommonPerAtomPlan p;
    p.numA = pairs.numA;
    p.numB = pairs.numB;
    p.numReductions = perAtom.reductions.size();
    p.numParameterDerivatives = energy.parameterDerivatives.size();
    p.numParts = std::max(1, std::min((p.numA + BlockSize - 1) / BlockSize, cc.getNumThreadBlocks()));
    for (const ResolvedReduction& reduction : perAtom.reductions)
        p.centred = p.centred || reduction.centred;
    p.useDouble = pairs.useDouble;
    p.mixedIsDouble = pairs.mixedIsDouble;
    p.fusedFinish = pairs.fusedFinish;
    return p;
}
