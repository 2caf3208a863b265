#include "internal/energy/EnergyEvaluator.h"
#include "lepton/Operation.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using std::string;
using std::vector;

EnergyEvaluator::EnergyEvaluator(const ResolvedEnergy& resolved)
    : variableNames(resolved.variableNames), globalParameterNames(resolved.globalParameterNames),
      parameterDerivativeNames(resolved.parameterDerivativeNames), energy(resolved.energy.createProgram()) {
    for (const Lepton::ParsedExpression& derivative : resolved.variableDerivatives) {
        variableDerivatives.push_back(derivative.createProgram());
        const Lepton::Operation& root = derivative.getRootNode().getOperation();
        usesVariable.push_back(!(root.getId() == Lepton::Operation::CONSTANT &&
                                 dynamic_cast<const Lepton::Operation::Constant&>(root).getValue() == 0.0));
    }
    for (const Lepton::ParsedExpression& derivative : resolved.parameterDerivatives)
        parameterDerivatives.push_back(derivative.createProgram());
}

EnergyEvaluator::Values EnergyEvaluator::evaluate(OpenMM::ContextImpl& context, const vector<double>& variables) const {
    Values result;
    std::map<string, double> values;
    for (const string& name : globalParameterNames)
        values[name] = context.getParameter(name);
    result.finite = true;
    for (size_t i = 0; i < variables.size(); i++) {
        values[variableNames[i]] = variables[i];
        result.finite = result.finite && std::isfinite(variables[i]);
    }
    result.variableDerivatives.assign(variables.size(), 0.0);
    if (result.finite) {
        result.energy = energy.evaluate(values);
        result.finite = std::isfinite(result.energy);
        for (size_t i = 0; i < variables.size() && result.finite; i++) {
            if (!usesVariable[i])
                continue;
            result.variableDerivatives[i] = variableDerivatives[i].evaluate(values);
            result.finite = std::isfinite(result.variableDerivatives[i]);
        }
    }
    if (!result.finite) {
        markNonFinite(result);
        return result;
    }
    for (const Lepton::ExpressionProgram& derivative : parameterDerivatives)
        result.parameterDerivatives.push_back(derivative.evaluate(values));
    return result;
}

void EnergyEvaluator::markNonFinite(Values& values) const {
    const double notANumber = std::numeric_limits<double>::quiet_NaN();
    values.finite = false;
    values.energy = notANumber;
    values.variableDerivatives.assign(values.variableDerivatives.size(), 0.0);
    values.parameterDerivatives.assign(parameterDerivatives.size(), notANumber);
}

void EnergyEvaluator::addParameterDerivatives(const Values& values, std::map<string, double>* derivatives) const {
    if (derivatives == nullptr)
        return;
    for (size_t i = 0; i < parameterDerivativeNames.size(); i++)
        (*derivatives)[parameterDerivativeNames[i]] += values.parameterDerivatives[i];
}
