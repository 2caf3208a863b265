#include "ReferencePerAtomEngine.h"
#include "ReferencePairLoop.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

ReferencePerAtomEngine::ReferencePerAtomEngine(const ResolvedCoordinationNumberForce& resolved)
    : force(new ResolvedCoordinationNumberForce(resolved)),
      switching(new SwitchingFunctionEvaluator(resolved.switching)) {
    if (resolved.perAtom.pairTerm != ResolvedPerAtom::PairTerm::SwitchTimesPower ||
        resolved.perAtom.atomStep != ResolvedPerAtom::AtomStep::Identity)
        throw OpenMMException("ReferencePerAtomEngine: a per-atom composition this platform does not know");
}

void ReferencePerAtomEngine::pairTerm(const Vec3& d, double r, double sigma, double dSigmaDr, double* term,
                                      Vec3* gradient) const {
    // SwitchTimesPower: sigma(r) r^p, whose r-derivative is sigma'(r) r^p + p sigma(r) r^(p-1).
    const double power = force->perAtom.rPower;
    const double rToPower = (power == 0.0 ? 1.0 : std::pow(r, power));
    term[0] = sigma * rToPower;
    const double dTermDr = dSigmaDr * rToPower + (power == 0.0 ? 0.0 : power * sigma * rToPower / r);
    gradient[0] = d * (dTermDr / r);
}

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
        pairTerm(d, r, sigma, dSigmaDr, term.data(), gradient.data());
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
    return values; // Identity: q_i = v_i
}

vector<double> ReferencePerAtomEngine::atomStepBackward(const vector<double>& values,
                                                        const vector<double>& dEdq) const {
    return dEdq; // Identity: dE/dv_i = dE/dq_i
}
