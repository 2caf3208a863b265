#include "peratom/CommonPerAtomForceKernel.h"
#include "openmm/common/ContextSelector.h"
#include "pairs/CommonPairTraversal.h"
#include "peratom/CommonPerAtomBody.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

template <class Interface> struct CommonPerAtomForceKernel<Interface>::Built {
    Built(ComputeContext& cc, const ResolvedPerAtomForce& force, bool hasWarpShuffles) : body(force, energy) {
        energy.initialize(cc, force.energy, "coordination");
        traversal.reset(new CommonPairTraversal(cc, force, body, energy, hasWarpShuffles));
    }
    CommonEnergyArrays energy;
    CommonPerAtomBody body;
    std::unique_ptr<CommonPairTraversal> traversal;
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
}

template <class Interface> void CommonPerAtomForceKernel<Interface>::launch(bool computeForces, bool addEnergy) {
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
    downloadMixed(built->body.getArrays().numberValues, built->body.getPlan().numA, values);
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
