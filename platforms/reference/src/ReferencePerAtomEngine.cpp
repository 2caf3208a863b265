#include "ReferencePerAtomEngine.h"
#include "ReferencePairLoop.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

ReferencePerAtomEngine::ReferencePerAtomEngine(const ResolvedPerAtomForce& resolved)
    : force(new ResolvedPerAtomForce(resolved)), switching(new SwitchingFunctionEvaluator(resolved.switching)),
      steps(new PerAtomSteps(resolved.perAtom)) {
    if (resolved.perAtom.localStep == ResolvedPerAtom::LocalStep::None)
        return;
    localSwitching.reset(new SwitchingFunctionEvaluator(resolved.localPairs.switching));
    localSteps.reset(new LocalSteps(resolved.perAtom, *steps));
}

namespace {

/**
 * visit(k, l, d, r, sigma, dSigma/dr) for each counted pair of groups' mode: r^2 not below DBL_EPSILON, within the
 * switching function's cutoff, and sigma not below DBL_EPSILON (PLUMED's CONTACT_MATRIX).
 */
template <class Visit>
void forEachCountedPair(const ResolvedPairGroups& groups, const SwitchingFunctionEvaluator& switching,
                        const vector<Vec3>& positions, const Vec3* boxVectors, Visit&& visit) {
    ReferencePairLoop::forEachPair(groups, positions, boxVectors, [&](int k, int l, const Vec3& delta) {
        const double r2 = delta.dot(delta);
        if (r2 < ResolvedPerAtom::minimumDistanceSquared || r2 > groups.switching.cutoffSquared)
            return;
        const double r = std::sqrt(r2);
        double dSigmaDr;
        const double sigma = switching.evaluate(r, dSigmaDr);
        if (sigma < ResolvedPerAtom::minimumSwitch)
            return;
        visit(k, l, delta, r, sigma, dSigmaDr);
    });
}

} // namespace

void ReferencePerAtomEngine::visitPairs(const vector<Vec3>& positions, const Vec3* boxVectors, vector<double>* values,
                                        const vector<double>* dEdValues, vector<Vec3>* memberForces) const {
    const int components = force->perAtom.numComponents;
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
    forEachCountedPair(*force, *switching, positions, boxVectors,
                       [&](int k, int l, const Vec3& delta, double r, double sigma, double dSigmaDr) {
                           if (!force->countsPair(k, l))
                               return; // a central entry with a neighbours' partner, or the reverse
                           addDirection(k, groupA[k], groupB[l], delta, r, sigma, dSigmaDr);
                           if (self)
                               addDirection(l, groupB[l], groupA[k], -delta, r, sigma, dSigmaDr);
                       });
}

void ReferencePerAtomEngine::visitLocalPairs(const vector<Vec3>& positions, const Vec3* boxVectors,
                                             const vector<double>& local, vector<double>* sums,
                                             const vector<double>* dEdSums, vector<double>* dEdLocal,
                                             vector<Vec3>* memberForces) const {
    const int d = localSteps->getNumComponents(), numSums = localSteps->getNumSums();
    const vector<int>& group = force->groupA;
    forEachCountedPair(force->localPairs, *localSwitching, positions, boxVectors,
                       [&](int k, int l, const Vec3& delta, double r, double t, double dtDr) {
                           // Each direction from a central entry to a neighbour (both ways without local neighbours).
                           const bool kl = force->isCentral(k) && force->isLocalNeighbor(l);
                           const bool lk = force->isCentral(l) && force->isLocalNeighbor(k);
                           const double* uk = &local[k * d];
                           const double* ul = &local[l * d];
                           if (dEdSums == nullptr) {
                               // k's sums gain [t, t u_l], l's [t, t u_k].
                               double* sk = &(*sums)[k * numSums];
                               double* sl = &(*sums)[l * numSums];
                               sk[0] += (kl ? t : 0.0);
                               sl[0] += (lk ? t : 0.0);
                               for (int c = 0; c < d; c++) {
                                   sk[1 + c] += (kl ? t * ul[c] : 0.0);
                                   sl[1 + c] += (lk ? t * uk[c] : 0.0);
                               }
                               return;
                           }
                           const double* gk = &(*dEdSums)[k * numSums];
                           const double* gl = &(*dEdSums)[l * numSums];
                           double dEdt = (kl ? gk[0] : 0.0) + (lk ? gl[0] : 0.0);
                           for (int c = 0; c < d; c++) {
                               if (kl) {
                                   dEdt += gk[1 + c] * ul[c];
                                   (*dEdLocal)[l * d + c] += t * gk[1 + c];
                               }
                               if (lk) {
                                   dEdt += gl[1 + c] * uk[c];
                                   (*dEdLocal)[k * d + c] += t * gl[1 + c];
                               }
                           }
                           if (dEdt == 0.0)
                               return;
                           const Vec3 gradient = delta * (dEdt * dtDr / r); // dE/d(x_l - x_k)
                           (*memberForces)[group[l]] -= gradient;
                           (*memberForces)[group[k]] += gradient;
                       });
}

ReferencePerAtomEngine::Evaluation ReferencePerAtomEngine::evaluate(ReferencePlatform::PlatformData& data) const {
    Evaluation evaluation;
    const int components = force->perAtom.numComponents;
    const int entries = force->groupA.size();
    vector<Vec3> extended;
    const vector<Vec3>& positions = ReferencePairLoop::memberPositions(*force, data, extended);
    if (force->hasNonFinitePosition(*data.positions))
        evaluation.values.assign(entries * components, std::numeric_limits<double>::quiet_NaN());
    else {
        evaluation.values.assign(entries * components, 0.0);
        visitPairs(positions, data.periodicBoxVectors, &evaluation.values, nullptr, nullptr);
        ResolvedPerAtom::applyNonFiniteRule(evaluation.values);
    }
    evaluation.numbers.resize(entries);
    if (!localSteps) {
        for (int i = 0; i < entries; i++)
            evaluation.numbers[i] = steps->atomStep(&evaluation.values[i * components], nullptr);
        if (force->perAtom.hasVectorReductions()) {
            const int d = force->perAtom.vectorComponents();
            evaluation.vectors.resize(entries * d);
            for (int i = 0; i < entries; i++)
                steps->averageVector(&evaluation.values[i * components], &evaluation.vectors[i * d]);
        }
        return evaluation;
    }
    const int d = localSteps->getNumComponents(), numSums = localSteps->getNumSums();
    evaluation.local.resize(entries * d);
    for (int i = 0; i < entries; i++)
        localSteps->localVector(&evaluation.values[i * components], &evaluation.local[i * d]);
    evaluation.sums.assign(entries * numSums, 0.0);
    if (!force->hasNonFinitePosition(*data.positions))
        visitLocalPairs(positions, data.periodicBoxVectors, evaluation.local, &evaluation.sums, nullptr, nullptr,
                        nullptr);
    ResolvedPerAtom::applyNonFiniteRule(evaluation.sums);
    // s_i of the central entries (the local neighbours after them have none).
    evaluation.numbers.resize(force->numCentral);
    for (int i = 0; i < force->numCentral; i++)
        evaluation.numbers[i] =
            localSteps->localValue(&evaluation.local[i * d], &evaluation.sums[i * numSums], nullptr, nullptr);
    // The rule holds through the step: NaN values are NaN numbers, also where an entry's s would not read its own
    // u (LocalDotProduct without a counted pair is 0).
    if (std::any_of(evaluation.values.begin(), evaluation.values.end(), [](double v) { return !std::isfinite(v); }))
        evaluation.numbers.assign(force->numCentral, std::numeric_limits<double>::quiet_NaN());
    ResolvedPerAtom::applyNonFiniteRule(evaluation.numbers);
    return evaluation;
}

void ReferencePerAtomEngine::applyForces(ReferencePlatform::PlatformData& data, const Evaluation& evaluation,
                                         const vector<double>& dEdNumbers, const vector<double>& dEdVectors) const {
    // No weight, no force: also where the evaluation has no finite energy (a coordinate or a value not finite, whose
    // local vectors the local pass would meet as 0 * NaN), where PerAtomReductions gives every weight 0.
    const auto zero = [](double weight) { return weight == 0.0; };
    if (std::all_of(dEdNumbers.begin(), dEdNumbers.end(), zero) && std::all_of(dEdVectors.begin(), dEdVectors.end(), zero))
        return;
    const int components = force->perAtom.numComponents;
    const int entries = force->groupA.size();
    vector<Vec3> extended;
    const vector<Vec3>& positions = ReferencePairLoop::memberPositions(*force, data, extended);
    vector<Vec3> memberForces(data.positions->size() + force->centers.size());
    vector<double> dEdValues(entries * components, 0.0);
    if (!localSteps) {
        vector<double> gradient(components);
        for (int i = 0; i < entries; i++) {
            if (dEdNumbers[i] == 0.0)
                continue; // no force from this entry (also where its values are not finite)
            steps->atomStep(&evaluation.values[i * components], gradient.data());
            for (int c = 0; c < components; c++)
                dEdValues[i * components + c] = dEdNumbers[i] * gradient[c];
        }
        if (!dEdVectors.empty())
            for (int i = 0; i < entries; i++)
                steps->averageVectorBackward(&evaluation.values[i * components], dEdVectors.data(),
                                             &dEdValues[i * components]);
    }
    else {
        // dE/ds_i through s_i to dE/du_i and dE/d[W_i, P_i], the local pass backward, then u_i to dE/dv_i.
        const int d = localSteps->getNumComponents(), numSums = localSteps->getNumSums();
        vector<double> dEdLocal(entries * d, 0.0), dEdSums(entries * numSums, 0.0);
        vector<double> dsdu(d), dsdSums(numSums);
        for (int i = 0; i < force->numCentral; i++) {
            if (dEdNumbers[i] == 0.0)
                continue;
            localSteps->localValue(&evaluation.local[i * d], &evaluation.sums[i * numSums], dsdu.data(),
                                   dsdSums.data());
            for (int c = 0; c < d; c++)
                dEdLocal[i * d + c] = dEdNumbers[i] * dsdu[c];
            for (int c = 0; c < numSums; c++)
                dEdSums[i * numSums + c] = dEdNumbers[i] * dsdSums[c];
        }
        visitLocalPairs(positions, data.periodicBoxVectors, evaluation.local, nullptr, &dEdSums, &dEdLocal,
                        &memberForces);
        for (int i = 0; i < entries; i++)
            localSteps->localVectorBackward(&evaluation.values[i * components], &dEdLocal[i * d],
                                            &dEdValues[i * components]);
    }
    visitPairs(positions, data.periodicBoxVectors, nullptr, &dEdValues, &memberForces);
    force->centers.spreadForces(memberForces, *data.forces);
}
