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

/**
 * The positions the member ids index: the particles' own, followed by the centres' (computed into extended) where
 * the force has centres.
 */
const vector<Vec3>& memberPositions(const ResolvedCoordinationForce& force, ReferencePlatform::PlatformData& data,
                                    vector<Vec3>& extended) {
    if (force.centers.size() == 0)
        return *data.positions;
    extended = force.centers.extendPositions(*data.positions, data.periodicBoxVectors);
    return extended;
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
    if (force.numbers.enabled)
        reductions = CoordinationNumberReductions(force);
}

void ReferenceCalcCoordinationForceKernel::computeNumbers(ContextImpl& context, vector<double>& numbers,
                                                          const vector<double>* weights, vector<Vec3>* forces) const {
    ReferencePlatform::PlatformData& data = getPlatformData(context);
    const MinimumImage minimumImage(data.periodicBoxVectors);
    const vector<int>& groupA = resolved.groupA;
    const bool self = (resolved.mode == CoordinationForce::Self);
    const vector<int>& groupB = (self ? resolved.groupA : resolved.groupB);
    numbers.assign(groupA.size(), 0.0);
    if (resolved.hasNonFinitePosition(*data.positions)) {
        numbers.assign(groupA.size(), std::numeric_limits<double>::quiet_NaN());
        return;
    }
    vector<Vec3> extended;
    const vector<Vec3>& positions = memberPositions(resolved, data, extended);
    // Forces on the members (a centre's spread to its particles at the end).
    vector<Vec3> memberForces;
    if (weights != nullptr && resolved.centers.size() > 0)
        memberForces.assign(positions.size(), Vec3());
    vector<Vec3>& pairForces = (memberForces.empty() && forces != nullptr ? *forces : memberForces);
    const SwitchingFunctionEvaluator& sigma = *switchingFunction;
    const double power = resolved.numbers.rPower;
    // Entry k of A with entry l of B (Self: l > k, and the pair counts for both).
    auto addPair = [&](int k, int l) {
        Vec3 delta = positions[groupB[l]] - positions[groupA[k]];
        if (resolved.periodic)
            delta = minimumImage(delta);
        const double r2 = delta.dot(delta);
        if (r2 < ResolvedCoordinationNumbers::minimumDistanceSquared || r2 > resolved.switching.cutoffSquared)
            return;
        const double r = std::sqrt(r2);
        double dSigmaDr;
        const double value = sigma.evaluate(r, dSigmaDr);
        if (value < ResolvedCoordinationNumbers::minimumSwitch)
            return;
        const double rToPower = (power == 0.0 ? 1.0 : std::pow(r, power));
        if (weights == nullptr) {
            numbers[k] += value * rToPower;
            if (self)
                numbers[l] += value * rToPower;
            return;
        }
        const double dValueDr = dSigmaDr * rToPower + (power == 0.0 ? 0.0 : power * value * rToPower / r);
        const double weight = (*weights)[k] + (self ? (*weights)[l] : 0.0);
        const Vec3 force = delta * (weight * dValueDr / r);
        pairForces[groupB[l]] -= force;
        pairForces[groupA[k]] += force;
    };
    for (int k = 0; k < (int) groupA.size(); k++)
        for (int l = (self ? k + 1 : 0); l < (int) groupB.size(); l++)
            addPair(k, l);
    if (!memberForces.empty())
        resolved.centers.spreadForces(memberForces, *forces);
}

void ReferenceCalcCoordinationForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    if (!resolved.numbers.enabled) {
        values = {computeCoordination(context, nullptr)};
        return;
    }
    vector<double> numbers;
    computeNumbers(context, numbers, nullptr, nullptr);
    reductions.evaluate(numbers, values);
}

void ReferenceCalcCoordinationForceKernel::getCoordinationNumbers(ContextImpl& context, vector<double>& values) {
    if (!resolved.numbers.enabled)
        throw OpenMMException("CoordinationForce: a CoordinationForce has no per-atom coordination numbers; use a "
                              "CoordinationNumberForce");
    computeNumbers(context, values, nullptr, nullptr);
}

double ReferenceCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, vector<Vec3>* gradient) const {
    ReferencePlatform::PlatformData& data = getPlatformData(context);
    const MinimumImage minimumImage(data.periodicBoxVectors);
    if (resolved.hasNonFinitePosition(*data.positions))
        return std::numeric_limits<double>::quiet_NaN();
    vector<Vec3> extended;
    const vector<Vec3>& positions = memberPositions(resolved, data, extended);
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
    if (resolved.numbers.enabled) {
        vector<double> numbers, weights;
        computeNumbers(context, numbers, nullptr, nullptr);
        const double energy = reductions.evaluateEnergy(context, numbers, weights,
                                                        getPlatformData(context).energyParameterDerivatives);
        if (includeForces)
            computeNumbers(context, numbers, &weights, getPlatformData(context).forces);
        return energy;
    }
    if (includeForces) // over the members: the particles, then the centres
        gradient.assign(context.getSystem().getNumParticles() + resolved.centers.size(), Vec3());
    double s = computeCoordination(context, includeForces ? &gradient : nullptr);
    double dEnergyDs;
    double energy = energyFunction.evaluate(context, s, dEnergyDs, getPlatformData(context).energyParameterDerivatives);
    if (includeForces && dEnergyDs != 0.0) {
        for (Vec3& memberGradient : gradient)
            memberGradient *= -dEnergyDs;
        resolved.centers.spreadForces(gradient, *getPlatformData(context).forces);
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
