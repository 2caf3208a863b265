#include "ReferenceCoordinationKernels.h"
#include "ReferencePairLoop.h"
#include "openmm/internal/ContextImpl.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

void ReferenceCalcCoordinationForceKernel::initialize(const System& system, const ResolvedCoordinationForce& force) {
    setParameters(force);
}

void ReferenceCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                                   const ResolvedCoordinationForce& force) {
    setParameters(force);
}

void ReferenceCalcCoordinationForceKernel::setParameters(const ResolvedCoordinationForce& force) {
    resolved.reset(new ResolvedCoordinationForce(force));
    switchingFunction.reset(new SwitchingFunctionEvaluator(force.switching));
    energy = EnergyEvaluator(force.energy);
}

double ReferenceCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, vector<Vec3>* gradient) const {
    ReferencePlatform::PlatformData& data = ReferencePairLoop::dataOf(context);
    if (resolved->hasNonFinitePosition(*data.positions))
        return std::numeric_limits<double>::quiet_NaN();
    vector<Vec3> extended;
    const vector<Vec3>& positions = ReferencePairLoop::memberPositions(*resolved, data, extended);
    const SwitchingFunctionEvaluator& sigma = *switchingFunction;
    const double cutoff2 = resolved->switching.cutoffSquared;
    const vector<int>& groupA = resolved->groupA;
    const vector<int>& groupB = (resolved->mode == PairSwitchingForce::Self ? resolved->groupA : resolved->groupB);
    double coordination = 0.0;
    ReferencePairLoop::forEachPair(*resolved, positions, data.periodicBoxVectors, [&](int k, int l, const Vec3& delta) {
        const int first = groupA[k], second = groupB[l];
        const double r2 = delta.dot(delta);
        if (first == second || r2 > cutoff2) // a pair of the same member counts 0
            return;
        const double r = std::sqrt(r2);
        double dSigmaDr;
        coordination += sigma.evaluate(r, dSigmaDr);
        // Coincident atoms (r = 0) count sigma(0) and get no force: the pair has no direction.
        if (gradient != nullptr && dSigmaDr != 0.0 && r > 0.0) {
            const Vec3 dSigmaDSecond = delta * (dSigmaDr / r);
            (*gradient)[second] += dSigmaDSecond;
            (*gradient)[first] -= dSigmaDSecond;
        }
    });
    return coordination;
}

double ReferenceCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ReferencePlatform::PlatformData& data = ReferencePairLoop::dataOf(context);
    if (includeForces) // over the members: the particles, then the centres
        gradient.assign(context.getSystem().getNumParticles() + resolved->centers.size(), Vec3());
    const double s = computeCoordination(context, includeForces ? &gradient : nullptr);
    const EnergyEvaluator::Values values = energy.evaluate(context, {s});
    energy.addParameterDerivatives(values, data.energyParameterDerivatives);
    const double dEdS = values.variableDerivatives[0];
    if (includeForces && dEdS != 0.0) {
        for (Vec3& memberGradient : gradient)
            memberGradient *= -dEdS;
        resolved->centers.spreadForces(gradient, *data.forces);
    }
    return values.energy;
}

void ReferenceCalcCoordinationForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    values = {computeCoordination(context, nullptr)};
}

long long ReferenceCalcCoordinationForceKernel::getNumCandidatePairs(ContextImpl& context) {
    computeCoordination(context, nullptr);
    return resolved->getNumSlotPairs(); // every pair, tested against the cutoff one by one
}
