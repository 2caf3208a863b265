#include "internal/peratom/PerAtomSteps.h"
#include "openmm/OpenMMException.h"
#include <array>
#include <cmath>
#include <complex>

using namespace CoordinationPlugin;
using OpenMM::Vec3;

PerAtomSteps::PerAtomSteps(const ResolvedPerAtom& perAtom)
    : kind(perAtom.pairTerm), step(perAtom.atomStep), numComponents(perAtom.numComponents), rPower(perAtom.rPower) {
    const bool numbers = (kind == ResolvedPerAtom::PairTerm::SwitchTimesPower &&
                          step == ResolvedPerAtom::AtomStep::Identity && numComponents == 1);
    const bool steinhardt =
        (kind == ResolvedPerAtom::PairTerm::SphericalHarmonics && step == ResolvedPerAtom::AtomStep::NormOverWeight &&
         numComponents == ResolvedPerAtom::sphericalHarmonicsComponents(perAtom.degree));
    if (!numbers && !steinhardt)
        throw OpenMM::OpenMMException("PerAtomSteps: a per-atom composition the host platforms do not know");
    if (steinhardt)
        harmonics.reset(new SphericalHarmonics(perAtom.degree));
}

PerAtomSteps::~PerAtomSteps() = default;
PerAtomSteps::PerAtomSteps(PerAtomSteps&&) noexcept = default;
PerAtomSteps& PerAtomSteps::operator=(PerAtomSteps&&) noexcept = default;

void PerAtomSteps::pairTerm(const Vec3& d, double r, double sigma, double dSigmaDr, double* term,
                            Vec3* gradient) const {
    if (kind == ResolvedPerAtom::PairTerm::SphericalHarmonics) {
        // sigma, then sigma Y_lm (real and imaginary parts); d(sigma Y)/dd = sigma' Y d/r + sigma dY/dd.
        const int l = harmonics->getDegree();
        std::complex<double> y[SphericalHarmonics::MaxDegree + 1];
        std::array<std::complex<double>, 3> dy[SphericalHarmonics::MaxDegree + 1];
        harmonics->evaluate(d, y, gradient != nullptr ? dy : nullptr);
        const Vec3 radial = d * (dSigmaDr / r);
        term[0] = sigma;
        if (gradient != nullptr)
            gradient[0] = radial;
        for (int m = 0, c = 1; m <= l; m++) {
            term[c] = sigma * y[m].real();
            if (gradient != nullptr)
                gradient[c] = radial * y[m].real() + Vec3(dy[m][0].real(), dy[m][1].real(), dy[m][2].real()) * sigma;
            c++;
            if (m == 0)
                continue; // Im Y_l0 = 0
            term[c] = sigma * y[m].imag();
            if (gradient != nullptr)
                gradient[c] = radial * y[m].imag() + Vec3(dy[m][0].imag(), dy[m][1].imag(), dy[m][2].imag()) * sigma;
            c++;
        }
        return;
    }
    // SwitchTimesPower: sigma(r) r^p, whose r-derivative is sigma'(r) r^p + p sigma(r) r^(p-1).
    const double rToPower = (rPower == 0.0 ? 1.0 : std::pow(r, rPower));
    term[0] = sigma * rToPower;
    if (gradient != nullptr) {
        const double dTermDr = dSigmaDr * rToPower + (rPower == 0.0 ? 0.0 : rPower * sigma * rToPower / r);
        gradient[0] = d * (dTermDr / r);
    }
}

Vec3 PerAtomSteps::pairGradient(const Vec3& d, double r, double sigma, double dSigmaDr, const double* weights) const {
    if (kind != ResolvedPerAtom::PairTerm::SphericalHarmonics) {
        double term;
        Vec3 gradient;
        pairTerm(d, r, sigma, dSigmaDr, &term, &gradient);
        return (weights[0] == 0.0 ? Vec3() : gradient * weights[0]);
    }
    // sum_c w_c d(sigma Y_c)/dd = (w_0 + sum_m Re(conj(W_m) Y_lm)) sigma' d/r + sigma sum_m Re(conj(W_m) dY_lm/dd).
    const int l = harmonics->getDegree();
    double weightRe[SphericalHarmonics::MaxDegree + 1], weightIm[SphericalHarmonics::MaxDegree + 1];
    weightRe[0] = weights[1];
    weightIm[0] = 0.0;
    for (int m = 1; m <= l; m++) {
        weightRe[m] = weights[2 * m];
        weightIm[m] = weights[2 * m + 1];
    }
    double value;
    const Vec3 angular = harmonics->weightedGradient(d, weightRe, weightIm, value);
    return d * ((weights[0] + value) * dSigmaDr / r) + angular * sigma;
}

double PerAtomSteps::componentParity(int component) const {
    if (kind != ResolvedPerAtom::PairTerm::SphericalHarmonics || component == 0)
        return 1.0;
    return (harmonics->getDegree() % 2 == 0 ? 1.0 : -1.0);
}

double PerAtomSteps::atomStep(const double* v, double* gradient) const {
    if (step == ResolvedPerAtom::AtomStep::Identity) {
        if (gradient != nullptr)
            gradient[0] = 1.0;
        return v[0];
    }
    // NormOverWeight of v = (N, Re q_l0, Re q_l1, Im q_l1, ...): q = sqrt(S) / N with S = |q_l0|^2 + 2 sum_m>0
    // |q_lm|^2.
    double s = v[1] * v[1];
    for (int c = 2; c < numComponents; c++)
        s += 2 * v[c] * v[c];
    const double norm = std::sqrt(s), n = v[0];
    const bool none = (n == 0.0 || s == 0.0); // no neighbour, or a zero vector: q = 0, gradient 0
    const double q = (none ? 0.0 : norm / n);
    if (gradient != nullptr) {
        gradient[0] = (none ? 0.0 : -q / n);
        for (int c = 1; c < numComponents; c++)
            gradient[c] = (none ? 0.0 : (c == 1 ? 1.0 : 2.0) * v[c] / (norm * n));
    }
    return q;
}
