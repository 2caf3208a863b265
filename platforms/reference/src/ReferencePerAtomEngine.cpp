#include "ReferencePerAtomEngine.h"
#include "ReferencePairLoop.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

ReferencePerAtomEngine::ReferencePerAtomEngine(const ResolvedPerAtomForce& resolved)
    : force(new ResolvedPerAtomForce(resolved)), switching(new SwitchingFunctionEvaluator(resolved.switching)),
      steps(new PerAtomSteps(resolved.perAtom)) {}

void ReferencePerAtomEngine::visitPairs(ReferencePlatform::PlatformData& data, vector<double>* values,
                                        const vector<double>* dEdValues, vector<Vec3>* memberForces) const {
    const int components = force->perAtom.numComponents;
    vector<Vec3> extended;
    const vector<Vec3>& positions = ReferencePairLoop::memberPositions(*force, data, extended);
    const bool self = (force->mode == PairSwitchingForce::Self);
    const vector<int>& groupA = force->groupA;
    const vector<int>& groupB = (self ? force->groupA : force->groupB);
    vector<double> term(components);
    vector<Vec3> gradient(components);
    // Entry `entry` (of A) and its neighbour: d points from the entry to the neighbour.
    auto addDirection = [&](int entry, int entryMember, int neighbourMember, const Vec3& d, double r, double sigma,
                            double dSigmaDr) {
        steps->pairTerm(d, r, sigma, dSigmaDr, term.data(), gradient.data());
        for (int c = 0; c < components; c++) {
            if (dEdValues == nullptr) {
                (*values)[entry * components + c] += term[c];
                continue;
            }
            const double weight = (*dEdValues)[entry * components + c];
            if (weight == 0.0)
                continue; // no force (also where the gradient is not finite and the evaluation has no weight)
            const Vec3 force = gradient[c] * weight;
            (*memberForces)[neighbourMember] -= force;
            (*memberForces)[entryMember] += force;
        }
    };
    ReferencePairLoop::forEachPair(*force, positions, data.periodicBoxVectors, [&](int k, int l, const Vec3& delta) {
        const double r2 = delta.dot(delta);
        if (r2 < ResolvedPerAtom::minimumDistanceSquared || r2 > force->switching.cutoffSquared)
            return;
        const double r = std::sqrt(r2);
        double dSigmaDr;
        const double sigma = switching->evaluate(r, dSigmaDr);
        if (sigma < ResolvedPerAtom::minimumSwitch)
            return;
        addDirection(k, groupA[k], groupB[l], delta, r, sigma, dSigmaDr);
        if (self)
            addDirection(l, groupB[l], groupA[k], -delta, r, sigma, dSigmaDr);
    });
}

vector<double> ReferencePerAtomEngine::pairPass(ReferencePlatform::PlatformData& data) const {
    const size_t size = force->groupA.size() * force->perAtom.numComponents;
    if (force->hasNonFinitePosition(*data.positions))
        return vector<double>(size, std::numeric_limits<double>::quiet_NaN());
    vector<double> values(size, 0.0);
    visitPairs(data, &values, nullptr, nullptr);
    ResolvedPerAtom::applyNonFiniteRule(values);
    return values;
}

void ReferencePerAtomEngine::applyForces(ReferencePlatform::PlatformData& data, const vector<double>& dEdValues) const {
    if (force->hasNonFinitePosition(*data.positions))
        return; // no finite answer: no force (the energy is NaN)
    vector<Vec3> memberForces(data.positions->size() + force->centers.size());
    visitPairs(data, nullptr, &dEdValues, &memberForces);
    force->centers.spreadForces(memberForces, *data.forces);
}

vector<double> ReferencePerAtomEngine::atomStep(const vector<double>& values) const {
    if (force->perAtom.atomStep == ResolvedPerAtom::AtomStep::Identity)
        return values; // q_i = v_i
    const int components = force->perAtom.numComponents;
    vector<double> q(values.size() / components);
    for (size_t i = 0; i < q.size(); i++)
        q[i] = steps->atomStep(&values[i * components], nullptr);
    return q;
}

vector<double> ReferencePerAtomEngine::atomStepBackward(const vector<double>& values,
                                                        const vector<double>& dEdq) const {
    if (force->perAtom.atomStep == ResolvedPerAtom::AtomStep::Identity)
        return dEdq; // dE/dv_i = dE/dq_i
    const int components = force->perAtom.numComponents;
    vector<double> dEdv(values.size());
    for (size_t i = 0; i < dEdq.size(); i++) {
        if (dEdq[i] == 0.0)
            continue; // no force from this entry (also where its values are not finite)
        steps->atomStep(&values[i * components], &dEdv[i * components]);
        for (int c = 0; c < components; c++)
            dEdv[i * components + c] *= dEdq[i];
    }
    return dEdv;
}
