#include "internal/peratom/PerAtomReductions.h"
#include <cmath>

using namespace CoordinationPlugin;
using std::string;
using std::vector;

PerAtomReductions::PerAtomReductions(const ResolvedPerAtomForce& force)
    : energy(force.energy),
      numVectorComponents(force.perAtom.hasVectorReductions() ? force.perAtom.vectorComponents() : 0) {
    for (const ResolvedReduction& reduction : force.perAtom.reductions) {
        reductions.push_back(reduction); // (every field, so none added later is lost)
        programs.push_back({reduction.term.createProgram(), reduction.termDerivative.createProgram(),
                            reduction.outer.createProgram(), reduction.outerDerivative.createProgram()});
    }
}

double PerAtomReductions::vectorSumOf(const vector<double>& vectors, vector<double>& vectorSum) const {
    vectorSum.assign(numVectorComponents, 0.0);
    if (numVectorComponents == 0)
        return 0.0;
    for (size_t i = 0; i < vectors.size(); i++)
        vectorSum[i % numVectorComponents] += vectors[i];
    return ResolvedPerAtom::vectorNorm(vectorSum.data(), numVectorComponents);
}

void PerAtomReductions::sums(int r, const vector<double>& q, double mean, double vectorNorm, double& sum,
                             double& derivativeSum, int& extremeEntry) const {
    const ResolvedReduction& reduction = reductions[r];
    sum = derivativeSum = 0.0;
    extremeEntry = -1;
    if (reduction.vector) {
        sum = vectorNorm;
        return;
    }
    if (reduction.extreme || reduction.logSumExp) {
        const bool highest = (reduction.extreme ? reduction.highest : reduction.lseHighest);
        for (int i = 0; i < (int)q.size(); i++)
            if (extremeEntry < 0 || (highest ? q[i] > q[extremeEntry] : q[i] < q[extremeEntry]))
                extremeEntry = i;
        sum = q[extremeEntry];
        if (reduction.logSumExp) {
            // sum = q_m, derivativeSum = S = sum_i exp(d_i) (ResolvedReduction).
            for (double value : q)
                derivativeSum += std::exp(reduction.lseShift(value, sum));
        }
        for (double value : q)
            if (std::isnan(value))
                sum = value;
        return;
    }
    std::map<string, double> variables;
    for (double value : q) {
        variables[ResolvedReduction::termVariable()] = (reduction.centred ? value - mean : value);
        sum += programs[r].term.evaluate(variables);
        if (reduction.centred)
            derivativeSum += programs[r].termDerivative.evaluate(variables);
    }
}

namespace {

double meanOf(const vector<double>& q) {
    double sum = 0.0;
    for (double value : q)
        sum += value;
    return sum / q.size();
}

} // namespace

void PerAtomReductions::evaluate(const vector<double>& q, const vector<double>& vectors, vector<double>& values) const {
    const double mean = meanOf(q);
    vector<double> vectorSum;
    const double vectorNorm = vectorSumOf(vectors, vectorSum);
    values.resize(programs.size());
    for (int r = 0; r < (int)programs.size(); r++) {
        double sum, derivativeSum;
        int extremeEntry;
        sums(r, q, mean, vectorNorm, sum, derivativeSum, extremeEntry);
        values[r] = value(r, sum, derivativeSum);
    }
}

double PerAtomReductions::value(int r, double sum, double derivativeSum) const {
    const ResolvedReduction& reduction = reductions[r];
    if (reduction.extreme)
        return sum;
    if (reduction.logSumExp)
        return (std::isfinite(sum) ? reduction.lseValue(sum, std::log(derivativeSum)) : NAN);
    return programs[r].outer.evaluate({{ResolvedReduction::outerVariable(), sum}});
}

double PerAtomReductions::evaluateEnergy(OpenMM::ContextImpl& context, const vector<double>& q,
                                         const vector<double>& vectors, vector<double>& weights,
                                         vector<double>& vectorWeights, std::map<string, double>* derivatives) const {
    const int numEntries = q.size();
    const double mean = meanOf(q);
    vector<double> vectorSum;
    const double vectorNorm = vectorSumOf(vectors, vectorSum);
    const int numReductions = programs.size();
    vector<double> sum(numReductions), derivativeSum(numReductions), values(numReductions);
    vector<int> extremeEntry(numReductions);
    for (int r = 0; r < numReductions; r++) {
        sums(r, q, mean, vectorNorm, sum[r], derivativeSum[r], extremeEntry[r]);
        values[r] = value(r, sum[r], derivativeSum[r]);
    }
    EnergyEvaluator::Values result = energy.evaluate(context, values);
    result.finite = result.finite && std::isfinite(mean);
    weights.assign(numEntries, 0.0);
    vectorWeights.assign(numVectorComponents, 0.0);
    for (int r = 0; r < numReductions && result.finite; r++) {
        const double dEdR = result.variableDerivatives[r];
        const ResolvedReduction& reduction = reductions[r];
        if (reduction.extreme) {
            weights[extremeEntry[r]] += dEdR;
            continue;
        }
        if (dEdR == 0.0)
            continue; // E does not depend on this reduction here (a non-finite term' would still be no force)
        if (reduction.vector) {
            // dR/du_c = outer'(S) metric_c V_c / S for every entry; 0 where S = 0.
            if (vectorNorm == 0.0)
                continue;
            const double scale =
                dEdR * programs[r].outerDerivative.evaluate({{ResolvedReduction::outerVariable(), vectorNorm}});
            for (int c = 0; c < numVectorComponents; c++)
                vectorWeights[c] += scale * ResolvedPerAtom::vectorMetric(c) * vectorSum[c] / vectorNorm;
            continue;
        }
        if (reduction.logSumExp) {
            const double qm = sum[r], S = derivativeSum[r];
            for (int i = 0; i < numEntries; i++) {
                const double p = std::exp(reduction.lseShift(q[i], qm));
                if (p != 0.0)
                    weights[i] += dEdR / S * p * reduction.lseFactor(q[i], values[r]);
            }
            continue;
        }
        const double scale =
            dEdR * programs[r].outerDerivative.evaluate({{ResolvedReduction::outerVariable(), sum[r]}});
        const double correction = (reduction.centred ? derivativeSum[r] / numEntries : 0.0);
        std::map<string, double> term;
        for (int i = 0; i < numEntries; i++) {
            term[ResolvedReduction::termVariable()] = (reduction.centred ? q[i] - mean : q[i]);
            weights[i] += scale * (programs[r].termDerivative.evaluate(term) - correction);
        }
    }
    for (int i = 0; i < numEntries && result.finite; i++)
        result.finite = std::isfinite(weights[i]);
    for (int c = 0; c < numVectorComponents && result.finite; c++)
        result.finite = std::isfinite(vectorWeights[c]);
    if (!result.finite) {
        energy.markNonFinite(result);
        weights.assign(numEntries, 0.0);
        vectorWeights.assign(numVectorComponents, 0.0);
    }
    energy.addParameterDerivatives(result, derivatives);
    return result.energy;
}
