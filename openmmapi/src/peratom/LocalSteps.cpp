#include "internal/peratom/LocalSteps.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <vector>

using namespace CoordinationPlugin;

LocalSteps::LocalSteps(const ResolvedPerAtom& perAtom, const PerAtomSteps& steps)
    : steps(steps), step(perAtom.localStep),
      vectors(perAtom.pairTerm == ResolvedPerAtom::PairTerm::SphericalHarmonics),
      numComponents(perAtom.localComponents()) {
    if (step == ResolvedPerAtom::LocalStep::None || (step == ResolvedPerAtom::LocalStep::DotProduct && !vectors))
        throw OpenMM::OpenMMException("LocalSteps: a local step the host platforms do not know");
}

void LocalSteps::localVector(const double* v, double* u) const {
    if (!vectors) {
        u[0] = steps.atomStep(v, nullptr);
        return;
    }
    if (step == ResolvedPerAtom::LocalStep::Average) {
        steps.averageVector(v, u);
        return;
    }
    // v = (N, q_lm): DotProduct takes q / |q|; 0 where that is 0/0.
    const double* q = v + 1;
    const double scale = ResolvedPerAtom::vectorNorm(q, numComponents);
    for (int c = 0; c < numComponents; c++)
        u[c] = (scale == 0.0 ? 0.0 : q[c] / scale);
}

void LocalSteps::localVectorBackward(const double* v, const double* dEdu, double* dEdv) const {
    if (!vectors) {
        std::vector<double> gradient(steps.getNumComponents());
        steps.atomStep(v, gradient.data());
        for (int c = 0; c < steps.getNumComponents(); c++)
            dEdv[c] += dEdu[0] * gradient[c];
        return;
    }
    if (step == ResolvedPerAtom::LocalStep::Average) {
        steps.averageVectorBackward(v, dEdu, dEdv);
        return;
    }
    const double* q = v + 1;
    // u_c = q_c / |q|, |q|^2 = sum_c metric_c q_c^2: dE/dq_k = (dE/du_k - metric_k u_k sum_c dE/du_c u_c) / |q|.
    const double norm = ResolvedPerAtom::vectorNorm(q, numComponents);
    if (norm == 0.0)
        return;
    double dot = 0.0;
    for (int c = 0; c < numComponents; c++)
        dot += dEdu[c] * q[c] / norm;
    for (int k = 0; k < numComponents; k++)
        dEdv[1 + k] += (dEdu[k] - ResolvedPerAtom::vectorMetric(k) * (q[k] / norm) * dot) / norm;
}

double LocalSteps::localValue(const double* u, const double* sums, double* dsdu, double* dsdSums) const {
    const double w = sums[0];
    const double* p = sums + 1;
    if (dsdu != nullptr)
        for (int c = 0; c <= numComponents; c++) {
            dsdSums[c] = 0.0;
            if (c < numComponents)
                dsdu[c] = 0.0;
        }
    if (step == ResolvedPerAtom::LocalStep::DotProduct) {
        // s = u . P / W (the metric's dot product); 0 where no pair counts.
        if (w == 0.0)
            return 0.0;
        double dot = 0.0;
        for (int c = 0; c < numComponents; c++)
            dot += ResolvedPerAtom::vectorMetric(c) * u[c] * p[c];
        const double s = dot / w;
        if (dsdu != nullptr) {
            for (int c = 0; c < numComponents; c++) {
                dsdu[c] = ResolvedPerAtom::vectorMetric(c) * p[c] / w;
                dsdSums[1 + c] = ResolvedPerAtom::vectorMetric(c) * u[c] / w;
            }
            dsdSums[0] = -s / w;
        }
        return s;
    }
    // Average: a = u + P over 1 + W; s = a itself (one number) or its norm (vectors).
    const double denominator = 1.0 + w;
    if (!vectors) {
        const double s = (u[0] + p[0]) / denominator;
        if (dsdu != nullptr) {
            dsdu[0] = dsdSums[1] = 1.0 / denominator;
            dsdSums[0] = -s / denominator;
        }
        return s;
    }
    std::vector<double> a(numComponents);
    for (int c = 0; c < numComponents; c++)
        a[c] = u[c] + p[c];
    const double norm = ResolvedPerAtom::vectorNorm(a.data(), numComponents);
    const double s = norm / denominator;
    if (dsdu != nullptr && norm != 0.0) {
        for (int c = 0; c < numComponents; c++)
            dsdu[c] = dsdSums[1 + c] = ResolvedPerAtom::vectorMetric(c) * a[c] / (norm * denominator);
        dsdSums[0] = -s / denominator;
    }
    return s;
}
