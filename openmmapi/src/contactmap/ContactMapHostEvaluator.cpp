#include "internal/contactmap/ContactMapHostEvaluator.h"
#include "internal/geometry/MinimumImage.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

bool isFinite(const Vec3& v) {
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

} // namespace

ContactMapHostEvaluator::ContactMapHostEvaluator(const ResolvedContactMap& force)
    : resolved(force), energyFunction(force.energy),
      memberForceBuffer(force.centers.numParticles + force.centers.size()) {
    for (const SwitchingFunctionConstants& constants : force.switchings)
        switchings.emplace_back(new SwitchingFunctionEvaluator(constants));
}

bool ContactMapHostEvaluator::hasNonFinitePosition(const vector<Vec3>& positions) const {
    for (int particle : resolved.uniqueParticles)
        for (int axis = 0; axis < 3; axis++)
            if (!std::isfinite(positions[particle][axis]))
                return true;
    return false;
}

const vector<Vec3>& ContactMapHostEvaluator::memberPositions(const vector<Vec3>& positions, const Vec3* boxVectors,
                                                             vector<Vec3>& storage) const {
    if (resolved.centers.size() == 0)
        return positions;
    storage = resolved.centers.extendPositions(positions, boxVectors);
    return storage;
}

void ContactMapHostEvaluator::computeContacts(const vector<Vec3>& members, const Vec3* boxVectors, int first, int last,
                                              double* values, Vec3* gradients) const {
    const MinimumImage minimumImage(boxVectors);
    const bool periodic = resolved.periodic;
    for (int n = first; n < last; n++) {
        Vec3 delta = members[resolved.particle2[n]] - members[resolved.particle1[n]];
        if (periodic)
            delta = minimumImage(delta);
        const double r2 = delta.dot(delta);
        const SwitchingFunctionEvaluator& sigma = *switchings[resolved.switchingIndex[n]];
        const double weight = resolved.weight[n];
        double dSigmaDr;
        if (r2 < ResolvedContactMap::zeroDistanceSquared) {
            // r = 0 (PLUMED evaluates sigma at the distance): sigma(0), and no force, since d has no direction.
            values[n] = weight * (sigma.evaluate(0.0, dSigmaDr) - resolved.reference[n]);
            if (gradients != nullptr)
                gradients[n] = Vec3();
            continue;
        }
        const double r = std::sqrt(r2);
        values[n] = weight * (sigma.evaluate(r, dSigmaDr) - resolved.reference[n]);
        if (gradients != nullptr)
            gradients[n] = delta * (weight * dSigmaDr / r);
    }
}

void ContactMapHostEvaluator::computeVariables(const vector<double>& values, vector<double>& variables) const {
    if (resolved.reduction == ContactMapForce::Components) {
        variables = values;
        return;
    }
    double sum = 0.0;
    if (resolved.reduction == ContactMapForce::Sum)
        for (double value : values)
            sum += value;
    else
        for (double value : values)
            sum += value * value;
    variables.assign(1, sum);
}

void ContactMapHostEvaluator::clearMemberForces() const {
    for (int n = 0; n < getNumContacts(); n++) {
        memberForceBuffer[resolved.particle1[n]] = Vec3();
        memberForceBuffer[resolved.particle2[n]] = Vec3();
    }
}

double ContactMapHostEvaluator::nonFiniteEnergy(std::map<string, double>* derivatives) const {
    EnergyEvaluator::Values values;
    energyFunction.markNonFinite(values);
    energyFunction.addParameterDerivatives(values, derivatives);
    return values.energy;
}

double ContactMapHostEvaluator::computeEnergy(ContextImpl& context, const vector<double>& values,
                                              const vector<Vec3>& gradients, vector<Vec3>* forces,
                                              std::map<string, double>* derivatives) const {
    vector<double> variables;
    computeVariables(values, variables);
    const EnergyEvaluator::Values energy = energyFunction.evaluate(context, variables);
    if (!energy.finite)
        return nonFiniteEnergy(derivatives);
    const vector<double>& dEdv = energy.variableDerivatives;
    // Every member's force: -sum_n dE/dcoord_n dcoord_n/dx, the contacts' in order.
    const int numContacts = getNumContacts();
    vector<Vec3>& memberForces = memberForceBuffer;
    bool finite = true;
    for (int n = 0; n < numContacts; n++) {
        double dEdCoord = dEdv[0];
        if (resolved.reduction == ContactMapForce::Distance)
            dEdCoord *= 2.0 * values[n];
        else if (resolved.reduction == ContactMapForce::Components)
            dEdCoord = dEdv[n];
        const Vec3 force = gradients[n] * dEdCoord;
        memberForces[resolved.particle2[n]] -= force;
        memberForces[resolved.particle1[n]] += force;
    }
    for (int n = 0; n < numContacts; n++)
        finite = finite && isFinite(memberForces[resolved.particle1[n]]) && isFinite(memberForces[resolved.particle2[n]]);
    if (!finite) {
        clearMemberForces();
        return nonFiniteEnergy(derivatives);
    }
    energyFunction.addParameterDerivatives(energy, derivatives);
    if (forces != nullptr) {
        if (resolved.centers.size() == 0)
            for (int particle : resolved.uniqueParticles)
                (*forces)[particle] += memberForces[particle];
        else
            resolved.centers.spreadForces(memberForces, *forces);
    }
    clearMemberForces();
    return energy.energy;
}
