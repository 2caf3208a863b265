#include "ReferenceCoordinationKernels.h"
#include "ReferencePairLoop.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

void ReferenceCalcCoordinationNumberForceKernel::initialize(const System& system,
                                                            const ResolvedCoordinationNumberForce& force) {
    engine.reset(new ReferencePerAtomEngine(force));
    reductions = PerAtomReductions(force);
}

void ReferenceCalcCoordinationNumberForceKernel::copyParametersToContext(ContextImpl& context,
                                                                         const ResolvedCoordinationNumberForce& force) {
    initialize(context.getSystem(), force);
}

double ReferenceCalcCoordinationNumberForceKernel::execute(ContextImpl& context, bool includeForces,
                                                           bool includeEnergy) {
    ReferencePlatform::PlatformData& data = ReferencePairLoop::dataOf(context);
    const vector<double> values = engine->pairPass(data);
    vector<double> weights;
    const double energy =
        reductions.evaluateEnergy(context, engine->atomStep(values), weights, data.energyParameterDerivatives);
    if (includeForces)
        engine->applyForces(data, engine->atomStepBackward(values, weights));
    return energy;
}

void ReferenceCalcCoordinationNumberForceKernel::getCollectiveVariableValues(ContextImpl& context,
                                                                             vector<double>& values) {
    vector<double> numbers;
    getPerAtomValues(context, numbers);
    reductions.evaluate(numbers, values);
}

void ReferenceCalcCoordinationNumberForceKernel::getPerAtomValues(ContextImpl& context, vector<double>& values) {
    values = engine->atomStep(engine->pairPass(ReferencePairLoop::dataOf(context)));
}
