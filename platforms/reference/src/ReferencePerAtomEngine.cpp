#include "ReferencePerAtomEngine.h"
#include "ReferencePairLoop.h"
#include "openmm/OpenMMException.h"
#include <array>
#include <cmath>
#include <complex>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

ReferencePerAtomEngine::ReferencePerAtomEngine(const ResolvedPerAtomForce& resolved)
    : force(new ResolvedPerAtomForce(resolved)),
      switching(new SwitchingFunctionEvaluator(resolved.switching)) {
    const ResolvedPerAtom& perAtom = resolved.perAtom;
    const bool numbers = (perAtom.pairTerm == ResolvedPerAtom::PairTerm::SwitchTimesPower &&
                          perAtom.atomStep == ResolvedPerAtom::AtomStep::Identity && perAtom.numComponents == 1);
    const bool steinhardt =
        (perAtom.pairTerm == ResolvedPerAtom::PairTerm::SphericalHarmonics &&
         perAtom.atomStep == ResolvedPerAtom::AtomStep::NormOverWeight &&
         perAtom.numComponents == ResolvedPerAtom::sphericalHarmonicsComponents(perAtom.degree));
    if (!numbers && !steinhardt)
        throw OpenMMException("ReferencePerAtomEngine: a per-atom composition this platform does not know");
    if (steinhardt)
        harmonics.reset(new SphericalHarmonics(perAtom.degree));
}

void ReferencePerAtomEngine::pairTerm(const Vec3& d, double r, double sigma, double dSigmaDr, double* term,
                                      Vec3* gradient) const {
    if (force->perAtom.pairTerm == ResolvedPerAtom::PairTerm::SphericalHarmonics) {
        // SphericalHarmonics: sigma, then sigma Y_lm (real and imaginary parts); d(sigma Y)/dd = sigma' Y d/r + sigma dY/dd.
        const int l = harmonics->getDegree();
        std::complex<double> y[SphericalHarmonics::MaxDegree + 1];
        std::array<std::complex<double>, 3> dy[SphericalHarmonics::MaxDegree + 1];
        harmonics->evaluate(d, y, dy);
        const Vec3 radial = d * (dSigmaDr / r);
        term[0] = sigma;
        gradient[0] = radial;
        for (int m = 0, c = 1; m <= l; m++) {
            term[c] = sigma * y[m].real();
            gradient[c++] = radial * y[m].real() + Vec3(dy[m][0].real(), dy[m][1].real(), dy[m][2].real()) * sigma;
            if (m == 0)
                continue; // Im Y_l0 = 0
            term[c] = sigma * y[m].imag();
            gradient[c++] = radial * y[m].imag() + Vec3(dy[m][0].imag(), dy[m][1].imag(), dy[m][2].imag()) * sigma;
        }
        return;
    }
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

namespace {

/**
 * NormOverWeight of one entry's components v = (N, Re q_l0, Re q_l1, Im q_l1, ...): q = sqrt(S) / N with S = |q_l0|^2 +
 * 2 sum_m>0 |q_lm|^2; if gradient is not null, dq/dv into it (0 where N = 0 or S = 0, where q is 0).
 */
double normOverWeight(const double* v, int components, double* gradient) {
    double s = v[1] * v[1];
    for (int c = 2; c < components; c++)
        s += 2 * v[c] * v[c];
    const double norm = std::sqrt(s), n = v[0];
    const bool none = (n == 0.0 || s == 0.0); // no neighbour, or a zero vector: q = 0, gradient 0
    const double q = (none ? 0.0 : norm / n);
    if (gradient != nullptr) {
        gradient[0] = (none ? 0.0 : -q / n);
        for (int c = 1; c < components; c++)
            gradient[c] = (none ? 0.0 : (c == 1 ? 1.0 : 2.0) * v[c] / (norm * n));
    }
    return q;
}

} // namespace

vector<double> ReferencePerAtomEngine::atomStep(const vector<double>& values) const {
    if (force->perAtom.atomStep == ResolvedPerAtom::AtomStep::Identity)
        return values; // q_i = v_i
    const int components = force->perAtom.numComponents;
    vector<double> q(values.size() / components);
    for (size_t i = 0; i < q.size(); i++)
        q[i] = normOverWeight(&values[i * components], components, nullptr);
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
        normOverWeight(&values[i * components], components, &dEdv[i * components]);
        for (int c = 0; c < components; c++)
            dEdv[i * components + c] *= dEdq[i];
    }
    return dEdv;
}
