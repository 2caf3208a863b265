#include "internal/peratom/PerAtomSteps.h"
#include "lepton/Operation.h"
#include "openmm/OpenMMException.h"
#include <array>
#include <cmath>
#include <complex>
#include <map>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using OpenMM::Vec3;

PerAtomSteps::PerAtomSteps(const ResolvedPerAtom& perAtom)
    : kind(perAtom.pairTerm), step(perAtom.atomStep), numComponents(perAtom.numComponents), rPower(perAtom.rPower) {
    if (!perAtom.isKnownComposition())
        throw OpenMM::OpenMMException("PerAtomSteps: a per-atom composition the host platforms do not know");
    if (kind == ResolvedPerAtom::PairTerm::SphericalHarmonics)
        harmonics.reset(new SphericalHarmonics(perAtom.degree));
    if (kind == ResolvedPerAtom::PairTerm::ShellFunction) {
        firstPart = (perAtom.shellNormalised ? 1 : 0);
        for (const ResolvedPerAtom::ShellPart& part : perAtom.shellParts)
            shellParts.push_back({ShellExpression(part.value), ShellExpression(part.dx), ShellExpression(part.dy),
                                  ShellExpression(part.dz), ShellExpression(part.dr), (double) part.parity});
    }
}

PerAtomSteps::ShellExpression::ShellExpression(const Lepton::ParsedExpression& expression)
    : program(expression.createProgram()) {
    for (int i = 0; i < program.getNumOperations(); i++) {
        const Lepton::Operation& operation = program.getOperation(i);
        int variable = -1;
        if (operation.getId() == Lepton::Operation::VARIABLE)
            for (int k = 0; k < 4; k++)
                if (operation.getName() == ResolvedPerAtom::shellVariables()[k])
                    variable = k;
        variableOf.push_back(variable);
    }
}

double PerAtomSteps::ShellExpression::evaluate(const double* variables) const {
    // Lepton's stack machine (ExpressionProgram::evaluate), with the variables read from the array.
    const int stackSize = program.getStackSize();
    double small[32];
    std::vector<double> large(stackSize + 1 > 32 ? stackSize + 1 : 0);
    double* stack = (large.empty() ? small : large.data());
    static const std::map<std::string, double> none;
    int pointer = stackSize;
    for (int i = 0; i < program.getNumOperations(); i++) {
        const Lepton::Operation& operation = program.getOperation(i);
        const double result = (variableOf[i] >= 0 ? variables[variableOf[i]] : operation.evaluate(stack + pointer, none));
        pointer += operation.getNumArguments() - 1;
        stack[pointer] = result;
    }
    return stack[stackSize - 1];
}

void PerAtomSteps::shellValues(const Vec3& d, double r, double* values, Vec3* gradients) const {
    const double variables[4] = {d[0], d[1], d[2], r};
    for (int p = 0; p < (int) shellParts.size(); p++) {
        const ShellProgram& part = shellParts[p];
        values[p] = part.value.evaluate(variables);
        if (gradients != nullptr)
            gradients[p] = Vec3(part.dx.evaluate(variables), part.dy.evaluate(variables), part.dz.evaluate(variables)) +
                           d * (part.dr.evaluate(variables) / r);
    }
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
    if (kind == ResolvedPerAtom::PairTerm::ShellFunction) {
        // sigma (if normalised), then sigma g_p; d(sigma g)/dd = sigma' g d/r + sigma grad g.
        const int numParts = shellParts.size();
        double values[ResolvedPerAtom::MaxShellParts];
        Vec3 gradients[ResolvedPerAtom::MaxShellParts];
        shellValues(d, r, values, gradient != nullptr ? gradients : nullptr);
        const Vec3 radial = d * (dSigmaDr / r);
        if (firstPart == 1) {
            term[0] = sigma;
            if (gradient != nullptr)
                gradient[0] = radial;
        }
        for (int p = 0; p < numParts; p++) {
            term[firstPart + p] = sigma * values[p];
            if (gradient != nullptr)
                gradient[firstPart + p] = radial * values[p] + gradients[p] * sigma;
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
    if (kind == ResolvedPerAtom::PairTerm::ShellFunction) {
        // sum_c w_c d(term_c)/dd = (w_0 + sum_p w_p g_p) sigma' d/r + sigma sum_p w_p grad g_p.
        const int numParts = shellParts.size();
        double values[ResolvedPerAtom::MaxShellParts];
        Vec3 gradients[ResolvedPerAtom::MaxShellParts];
        shellValues(d, r, values, gradients);
        double total = (firstPart == 1 ? weights[0] : 0.0);
        Vec3 angular;
        for (int p = 0; p < numParts; p++) {
            const double weight = weights[firstPart + p];
            if (weight == 0.0)
                continue;
            total += weight * values[p];
            angular += gradients[p] * weight;
        }
        return d * (total * dSigmaDr / r) + angular * sigma;
    }
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
    if (kind == ResolvedPerAtom::PairTerm::ShellFunction)
        return (component < firstPart ? 1.0 : shellParts[component - firstPart].parity);
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
    if (step == ResolvedPerAtom::AtomStep::Sum || step == ResolvedPerAtom::AtomStep::SumOverWeight) {
        // Sum: q = sum_c v_c; SumOverWeight: q = sum_c>0 v_c / v_0, 0 (gradient 0) where v_0 = 0.
        const int first = (step == ResolvedPerAtom::AtomStep::Sum ? 0 : 1);
        double sum = 0.0;
        for (int c = first; c < numComponents; c++)
            sum += v[c];
        if (first == 0) {
            if (gradient != nullptr)
                for (int c = 0; c < numComponents; c++)
                    gradient[c] = 1.0;
            return sum;
        }
        const double n = v[0];
        const double q = (n == 0.0 ? 0.0 : sum / n);
        if (gradient != nullptr) {
            gradient[0] = (n == 0.0 ? 0.0 : -q / n);
            for (int c = 1; c < numComponents; c++)
                gradient[c] = (n == 0.0 ? 0.0 : 1.0 / n);
        }
        return q;
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

void PerAtomSteps::averageVector(const double* v, double* u) const {
    // v = (N, q_lm): u = q / N, 0 where N = 0 (no neighbour).
    const double n = v[0];
    for (int c = 1; c < numComponents; c++)
        u[c - 1] = (n == 0.0 ? 0.0 : v[c] / n);
}

void PerAtomSteps::averageVectorBackward(const double* v, const double* dEdu, double* dEdv) const {
    // u_c = q_c / N: dE/dq_c = dE/du_c / N, dE/dN = -sum_c dE/du_c q_c / N^2.
    const double n = v[0];
    if (n == 0.0)
        return;
    for (int c = 1; c < numComponents; c++) {
        dEdv[c] += dEdu[c - 1] / n;
        dEdv[0] -= dEdu[c - 1] * v[c] / (n * n);
    }
}
