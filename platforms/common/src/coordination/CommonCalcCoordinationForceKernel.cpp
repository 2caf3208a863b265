#include "coordination/CommonCalcCoordinationForceKernel.h"
#include "coordination/CommonSwitchSumBody.h"
#include "pairs/CommonPairTraversal.h"
#include "openmm/common/ContextSelector.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

struct CommonCalcCoordinationForceKernel::Built {
    Built(ComputeContext& cc, const ResolvedCoordinationForce& force, bool hasWarpShuffles) : energyCopy(force.energy),
                                                                                              body(energyCopy) {
        energy.initialize(cc, force.energy, "coordination");
        traversal.reset(new CommonPairTraversal(cc, force, body, energy, hasWarpShuffles));
    }
    const ResolvedEnergy energyCopy;
    CommonEnergyArrays energy;
    CommonSwitchSumBody body;
    std::unique_ptr<CommonPairTraversal> traversal;
};

CommonCalcCoordinationForceKernel::CommonCalcCoordinationForceKernel(const string& name, const Platform& platform,
                                                                     ComputeContext& cc, bool hasWarpShuffles)
    : CalcCoordinationForceKernel(name, platform), CommonBiasKernelBase(cc, "CoordinationForce"),
      hasWarpShuffles(hasWarpShuffles) {}

CommonCalcCoordinationForceKernel::~CommonCalcCoordinationForceKernel() {}

void CommonCalcCoordinationForceKernel::initialize(const System& system, const ResolvedCoordinationForce& force) {
    ContextSelector selector(cc);
    initializeBase(force.energy);
    build(force);
}

void CommonCalcCoordinationForceKernel::build(const ResolvedCoordinationForce& force) {
    // Built afresh and swapped in only when complete: if anything throws, the previous build stays.
    std::unique_ptr<Built> next(new Built(cc, force, hasWarpShuffles));
    built = std::move(next);
    startBuild();
    followAtomOrder();
}

SwitchingPath CommonCalcCoordinationForceKernel::getSwitchingPath() const {
    return built->traversal->getSwitchingPath();
}

void CommonCalcCoordinationForceKernel::followAtomOrder() {
    if (!built)
        return;
    ContextSelector selector(cc);
    built->traversal->followAtomOrder();
}

void CommonCalcCoordinationForceKernel::launch(bool computeGradient, bool addEnergy) {
    CommonPairTraversal& traversal = *built->traversal;
    const int parity = traversal.prepare(computeGradient, addEnergy);
    traversal.runPairKernel();
    traversal.endEvaluation();
    traversal.finish(addEnergy, computeGradient, parity);
}

double CommonCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ContextSelector selector(cc);
    beginEvaluation(context, built->energy, true);
    launch(includeForces, true);
    return 0.0; // the energy was added to the context's energy buffer on the device
}

void CommonCalcCoordinationForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    ContextSelector selector(cc);
    beginEvaluation(context, built->energy, false);
    launch(false, false);
    downloadMixed(built->traversal->getArrays().results, 1, values);
}

long long CommonCalcCoordinationForceKernel::getNumCandidatePairs(ContextImpl& context) {
    ContextSelector selector(cc);
    beginEvaluation(context, built->energy, false);
    return built->traversal->countCandidatePairs([&]() { launch(false, false); });
}

void CommonCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                                const ResolvedCoordinationForce& force) {
    ContextSelector selector(cc);
    build(force);
}
