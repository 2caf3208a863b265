#include "internal/CoordinationNumberReductions.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using std::string;
using std::vector;

CoordinationNumberReductions::CoordinationNumberReductions(const ResolvedCoordinationForce& force)
    : globalParameterNames(force.globalParameterNames), derivativeNames(force.energyParameterDerivativeNames),
      energy(force.energy.createProgram()) {
    for (const ResolvedReduction& reduction : force.numbers.reductions) {
        ResolvedReduction copy;
        copy.type = reduction.type;
        copy.name = reduction.name;
        copy.centred = reduction.centred;
        copy.extreme = reduction.extreme;
        copy.highest = reduction.highest;
        numbers.reductions.push_back(copy);
        programs.push_back({reduction.term.createProgram(), reduction.termDerivative.createProgram(),
                            reduction.outer.createProgram(), reduction.outerDerivative.createProgram()});
    }
    for (const Lepton::ParsedExpression& derivative : force.numbers.energyDerivatives)
        energyDerivatives.push_back(derivative.createProgram());
    for (const Lepton::ParsedExpression& derivative : force.energyParameterDerivatives)
        parameterDerivatives.push_back(derivative.createProgram());
}

void CoordinationNumberReductions::sums(int q, const vector<double>& c, double mean, double& sum, double& derivativeSum,
                                        int& extremeEntry) const {
    const ResolvedReduction& reduction = numbers.reductions[q];
    sum = derivativeSum = 0.0;
    extremeEntry = -1;
    if (reduction.extreme) {
        for (int i = 0; i < (int) c.size(); i++)
            if (extremeEntry < 0 || (reduction.highest ? c[i] > c[extremeEntry] : c[i] < c[extremeEntry]))
                extremeEntry = i;
        sum = c[extremeEntry];
        for (double value : c)
            if (std::isnan(value))
                sum = value;
        return;
    }
    std::map<string, double> variables;
    for (double value : c) {
        variables[ResolvedReduction::termVariable()] = (reduction.centred ? value - mean : value);
        sum += programs[q].term.evaluate(variables);
        if (reduction.centred)
            derivativeSum += programs[q].termDerivative.evaluate(variables);
    }
}

namespace {

double meanOf(const vector<double>& c) {
    double sum = 0.0;
    for (double value : c)
        sum += value;
    return sum / c.size();
}

} // namespace

void CoordinationNumberReductions::evaluate(const vector<double>& c, vector<double>& values) const {
    const double mean = meanOf(c);
    values.resize(programs.size());
    for (int q = 0; q < (int) programs.size(); q++) {
        double sum, derivativeSum;
        int extremeEntry;
        sums(q, c, mean, sum, derivativeSum, extremeEntry);
        if (numbers.reductions[q].extreme)
            values[q] = sum;
        else
            values[q] = programs[q].outer.evaluate({{ResolvedReduction::outerVariable(), sum}});
    }
}

double CoordinationNumberReductions::evaluateEnergy(OpenMM::ContextImpl& context, const vector<double>& c,
                                                    vector<double>& weights, std::map<string, double>* derivatives) const {
    const int numEntries = c.size();
    const double mean = meanOf(c);
    std::map<string, double> variables;
    for (const string& name : globalParameterNames)
        variables[name] = context.getParameter(name);
    vector<double> sum(programs.size()), derivativeSum(programs.size());
    vector<int> extremeEntry(programs.size());
    bool finite = std::isfinite(mean);
    for (int q = 0; q < (int) programs.size(); q++) {
        sums(q, c, mean, sum[q], derivativeSum[q], extremeEntry[q]);
        const double value = (numbers.reductions[q].extreme ? sum[q]
                                  : programs[q].outer.evaluate({{ResolvedReduction::outerVariable(), sum[q]}}));
        variables[numbers.reductions[q].name] = value;
        finite = finite && std::isfinite(value);
    }
    const double value = energy.evaluate(variables);
    finite = finite && std::isfinite(value);
    weights.assign(numEntries, 0.0);
    for (int q = 0; q < (int) programs.size() && finite; q++) {
        const double dEdR = energyDerivatives[q].evaluate(variables);
        const ResolvedReduction& reduction = numbers.reductions[q];
        if (reduction.extreme) {
            weights[extremeEntry[q]] += dEdR;
            finite = std::isfinite(dEdR);
            continue;
        }
        if (dEdR == 0.0)
            continue; // E does not depend on this reduction here (a non-finite term' would still be no force)
        const double scale = dEdR * programs[q].outerDerivative.evaluate({{ResolvedReduction::outerVariable(), sum[q]}});
        const double correction = (reduction.centred ? derivativeSum[q] / numEntries : 0.0);
        std::map<string, double> term;
        for (int i = 0; i < numEntries; i++) {
            term[ResolvedReduction::termVariable()] = (reduction.centred ? c[i] - mean : c[i]);
            weights[i] += scale * (programs[q].termDerivative.evaluate(term) - correction);
        }
    }
    for (int i = 0; i < numEntries && finite; i++)
        finite = std::isfinite(weights[i]);
    const double notANumber = std::numeric_limits<double>::quiet_NaN();
    if (derivatives != nullptr)
        for (int i = 0; i < (int) parameterDerivatives.size(); i++)
            (*derivatives)[derivativeNames[i]] += (finite ? parameterDerivatives[i].evaluate(variables) : notANumber);
    if (!finite) {
        weights.assign(numEntries, 0.0);
        return notANumber;
    }
    return value;
}
