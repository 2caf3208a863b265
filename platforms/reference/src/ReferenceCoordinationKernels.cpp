#include "ReferenceCoordinationKernels.h"
#include "internal/MinimumImage.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/reference/ReferencePlatform.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

ReferencePlatform::PlatformData& getPlatformData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

} // namespace

void ReferenceCalcCoordinationForceKernel::initialize(const System& system, const ResolvedCoordinationForce& force) {
    energyFunction = CoordinationEnergyFunction(force);
    setParameters(force);
}

void ReferenceCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                                   const ResolvedCoordinationForce& force) {
    setParameters(force);
}

void ReferenceCalcCoordinationForceKernel::setParameters(const ResolvedCoordinationForce& force) {
    resolved = ResolvedCoordinationForce(force); // copied, then moved in (see ResolvedCoordinationForce)
    switchingFunction.reset(new SwitchingFunctionEvaluator(force.switching));
}

double ReferenceCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, vector<Vec3>* gradient) const {
    ReferencePlatform::PlatformData& data = getPlatformData(context);
    const vector<Vec3>& positions = *data.positions;
    const MinimumImage minimumImage(data.periodicBoxVectors);
    if (resolved.hasNonFinitePosition(positions))
        return std::numeric_limits<double>::quiet_NaN();
    const SwitchingFunctionEvaluator& sigma = *switchingFunction;
    const double cutoff2 = resolved.switching.cutoffSquared;
    double coordination = 0.0;
    // One term of the sum; first and second are particle indices (a pair of the same atom counts 0).
    auto addPair = [&](int first, int second) {
        if (first == second)
            return;
        Vec3 delta = positions[second] - positions[first];
        if (resolved.periodic)
            delta = minimumImage(delta);
        double r2 = delta.dot(delta);
        if (r2 > cutoff2)
            return;
        double r = std::sqrt(r2);
        double dSigmaDr;
        coordination += sigma.evaluate(r, dSigmaDr);
        // Coincident atoms (r = 0) count sigma(0) and get no force: the pair has no direction.
        if (gradient != nullptr && dSigmaDr != 0.0 && r > 0.0) {
            Vec3 dSigmaDSecond = delta * (dSigmaDr / r);
            (*gradient)[second] += dSigmaDSecond;
            (*gradient)[first] -= dSigmaDSecond;
        }
    };
    const vector<int>& groupA = resolved.groupA;
    const vector<int>& groupB = resolved.groupB;
    const int sizeA = groupA.size(), sizeB = groupB.size();
    if (resolved.mode == CoordinationForce::Self) {
        for (int i = 0; i < sizeA; i++)
            for (int j = i + 1; j < sizeA; j++)
                addPair(groupA[i], groupA[j]);
    } else if (resolved.mode == CoordinationForce::Dual) {
        for (int i = 0; i < sizeA; i++)
            for (int j = 0; j < sizeB; j++)
                addPair(groupA[i], groupB[j]);
    } else {
        for (int k = 0; k < sizeA; k++)
            addPair(groupA[k], groupB[k]);
    }
    return coordination;
}

double ReferenceCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    if (includeForces)
        gradient.assign(context.getSystem().getNumParticles(), Vec3());
    double s = computeCoordination(context, includeForces ? &gradient : nullptr);
    double dEnergyDs;
    double energy = energyFunction.evaluate(context, s, dEnergyDs, getPlatformData(context).energyParameterDerivatives);
    if (includeForces && dEnergyDs != 0.0) {
        vector<Vec3>& forces = *getPlatformData(context).forces;
        for (int i = 0; i < (int) forces.size(); i++)
            forces[i] -= gradient[i] * dEnergyDs;
    }
    return energy;
}

double ReferenceCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    return computeCoordination(context, nullptr);
}

long long ReferenceCalcCoordinationForceKernel::getNumCandidatePairs(ContextImpl& context) {
    computeCoordination(context, nullptr);
    return resolved.getNumSlotPairs(); // every pair, tested against the cutoff one by one
}
