#include "peratom/CommonPerAtomForceKernel.h"
#include "openmm/common/ContextSelector.h"
#include "pairs/CommonPairTraversal.h"
#include "peratom/CommonLocalStepBody.h"
#include "peratom/CommonPerAtomBody.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

template <class Interface> struct CommonPerAtomForceKernel<Interface>::Built {
    Built(ComputeContext& cc, const ResolvedPerAtomForce& force, bool hasWarpShuffles)
        : hasLocalStep(force.perAtom.localStep != ResolvedPerAtom::LocalStep::None),
          body(force, energy, hasLocalStep ? &localArrays : nullptr) {
        energy.initialize(cc, force.energy, "coordination");
        // The local step's arrays first: the force's finish and the local traversal both take them.
        if (hasLocalStep)
            localArrays.initialize(cc, force.perAtom, force.groupA.size());
        traversal.reset(new CommonPairTraversal(cc, force, body, energy, hasWarpShuffles));
        if (hasLocalStep) {
            localBody.reset(new CommonLocalStepBody(localArrays, body.getArrays().numberState, force.energy));
            localTraversal.reset(new CommonPairTraversal(cc, force.localPairs, *localBody, energy, hasWarpShuffles));
        }
    }
    const bool hasLocalStep;
    CommonEnergyArrays energy;
    CommonLocalStepArrays localArrays;
    CommonPerAtomBody body;
    std::unique_ptr<CommonPairTraversal> traversal;
    std::unique_ptr<CommonLocalStepBody> localBody;
    std::unique_ptr<CommonPairTraversal> localTraversal;
};

template <class Interface>
CommonPerAtomForceKernel<Interface>::CommonPerAtomForceKernel(const string& name, const Platform& platform,
                                                              ComputeContext& cc, const string& forceClass,
                                                              bool hasWarpShuffles)
    : Interface(name, platform), CommonBiasKernelBase(cc, forceClass), hasWarpShuffles(hasWarpShuffles) {}

template <class Interface> CommonPerAtomForceKernel<Interface>::~CommonPerAtomForceKernel() {}

template <class Interface>
void CommonPerAtomForceKernel<Interface>::initialize(const System& system, const ResolvedPerAtomForce& force) {
    ContextSelector selector(cc);
    initializeBase(force.energy);
    build(force);
}

template <class Interface> void CommonPerAtomForceKernel<Interface>::build(const ResolvedPerAtomForce& force) {
    // Built afresh and swapped in only when complete: if anything throws, the previous build stays.
    std::unique_ptr<Built> next(new Built(cc, force, hasWarpShuffles));
    built = std::move(next);
    startBuild();
    followAtomOrder();
}

template <class Interface> SwitchingPath CommonPerAtomForceKernel<Interface>::getSwitchingPath() const {
    return built->traversal->getSwitchingPath();
}

template <class Interface> void CommonPerAtomForceKernel<Interface>::followAtomOrder() {
    if (!built)
        return;
    ContextSelector selector(cc);
    built->traversal->followAtomOrder();
    if (built->localTraversal)
        built->localTraversal->followAtomOrder();
}

template <class Interface> void CommonPerAtomForceKernel<Interface>::launch(bool computeForces, bool addEnergy) {
    if (built->hasLocalStep) {
        launchWithLocalStep(computeForces, addEnergy);
        return;
    }
    CommonPairTraversal& traversal = *built->traversal;
    CommonPerAtomBody& body = built->body;
    ComputeKernel& pairKernel = traversal.getKernels().pairKernel;
    const int parity = traversal.prepare(false, addEnergy);
    body.setPass(pairKernel, 1);
    traversal.runPairKernel();
    body.finish(parity, addEnergy);
    if (computeForces) {
        body.setPass(pairKernel, 2);
        traversal.setPairArguments(true, false);
        traversal.runPairKernel();
        traversal.finish(false, true, parity);
    }
    traversal.endEvaluation();
}

template <class Interface>
void CommonPerAtomForceKernel<Interface>::launchWithLocalStep(bool computeForces, bool addEnergy) {
    // The force's pass 1 (v), u, the local pass of x = [1, u] ([W, P]), s with its reductions, E and G; with forces
    // the local pass of G's P part (sum_j t G_j), dE/dv, E, the local pass 2 (the gradient of t) and the force's.
    CommonPairTraversal& traversal = *built->traversal;
    CommonPairTraversal& local = *built->localTraversal;
    CommonPerAtomBody& body = built->body;
    CommonLocalStepBody& localBody = *built->localBody;
    ComputeKernel& pairKernel = traversal.getKernels().pairKernel;
    ComputeKernel& localKernel = local.getKernels().pairKernel;
    // Both traversals prepared first: the local one's sort (its rowOfSlot) decides where the local vectors go.
    const int parity = traversal.prepare(false, addEnergy);
    const int localParity = local.prepare(false, addEnergy);
    body.setPass(pairKernel, 1);
    traversal.runPairKernel();
    body.computeLocalVectors(parity);
    localBody.setPass(localKernel, 1);
    local.runPairKernel();
    body.finishLocalValues(parity);
    if (computeForces) {
        localBody.restartPass();
        local.runPairKernel(); // pass 1 over G's P part (localData, written by the weights)
    }
    body.finishLocalWeights(addEnergy);
    if (computeForces) {
        localBody.restartPass();
        localBody.setPass(localKernel, 2);
        local.setPairArguments(true, false);
        local.runPairKernel();
        local.finish(false, true, localParity);
        body.setPass(pairKernel, 2);
        traversal.setPairArguments(true, false);
        traversal.runPairKernel();
        traversal.finish(false, true, parity);
    }
    local.endEvaluation();
    traversal.endEvaluation();
}

template <class Interface>
double CommonPerAtomForceKernel<Interface>::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ContextSelector selector(cc);
    beginEvaluation(context, built->energy, true);
    launch(includeForces, true);
    return 0.0; // the energy was added to the context's energy buffer on the device
}

template <class Interface>
void CommonPerAtomForceKernel<Interface>::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    ContextSelector selector(cc);
    beginEvaluation(context, built->energy, false);
    launch(false, false);
    downloadMixed(built->body.getArrays().numberResults, built->body.getPlan().numReductions, values);
}

template <class Interface>
void CommonPerAtomForceKernel<Interface>::getPerAtomValues(ContextImpl& context, vector<double>& values) {
    ContextSelector selector(cc);
    beginEvaluation(context, built->energy, false);
    launch(false, false);
    downloadMixed(built->body.getArrays().numberValues, built->body.getPlan().numCentral, values);
}

template <class Interface>
void CommonPerAtomForceKernel<Interface>::copyParametersToContext(ContextImpl& context,
                                                                  const ResolvedPerAtomForce& force) {
    ContextSelector selector(cc);
    build(force);
}

template class CoordinationPlugin::CommonPerAtomForceKernel<CalcCoordinationNumberForceKernel>;
template class CoordinationPlugin::CommonPerAtomForceKernel<CalcSteinhardtForceKernel>;
template class CoordinationPlugin::CommonPerAtomForceKernel<CalcShellFunctionForceKernel>;
