#include "CpuCoordinationKernels.h"
#include "CpuSwitchSumTerm.h"
#include "openmm/cpu/CpuPlatform.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/reference/ReferencePlatform.h"
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

void CpuCalcCoordinationForceKernel::initialize(const System& system, const ResolvedCoordinationForce& force) {
    energy = EnergyEvaluator(force.energy);
    engine.setGroups(force);
}

void CpuCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                             const ResolvedCoordinationForce& force) {
    engine.setGroups(force);
}

double CpuCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, bool computeGradient) {
    if (!engine.prepare(context))
        return std::numeric_limits<double>::quiet_NaN();
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    // Oriented pairs matter where the minimum image can meet a half-box tie: Self in a periodic box.
    const ResolvedPairGroups& groups = engine.getGroups();
    const bool oriented = (groups.mode == PairSwitchingForce::Self && groups.periodic);
    withForms(engine, context, [&](const auto& sigma, const auto& image) {
        withFlags(
            [&](auto withGradient, auto orientedPairs) {
                using Term = CpuSwitchSumTerm<decltype(withGradient)::value, decltype(orientedPairs)::value>;
                runPass(engine, threads, Term(), sigma, image);
            },
            computeGradient, oriented);
    });
    return engine.sumItems();
}

double CpuCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ReferencePlatform::PlatformData& data = *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
    const double s = computeCoordination(context, includeForces);
    const EnergyEvaluator::Values values = energy.evaluate(context, {s});
    energy.addParameterDerivatives(values, data.energyParameterDerivatives);
    const double dEnergyDs = values.variableDerivatives[0];
    if (includeForces && dEnergyDs != 0.0)
        engine.applyGradient(*data.forces, dEnergyDs);
    return values.energy;
}

long long CpuCalcCoordinationForceKernel::getNumCandidatePairs(ContextImpl& context) {
    computeCoordination(context, false);
    return engine.getNumCandidatePairs();
}

void CpuCalcCoordinationForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    values = {computeCoordination(context, false)};
}
