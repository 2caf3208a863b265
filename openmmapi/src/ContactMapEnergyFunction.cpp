#include "internal/ContactMapEnergyFunction.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using std::string;
using std::vector;

ContactMapEnergyFunction::ContactMapEnergyFunction(const ResolvedContactMap& force)
    : variableNames(force.variableNames), globalParameterNames(force.globalParameterNames),
      derivativeNames(force.energyParameterDerivativeNames), energy(force.energy.createProgram()) {
    for (const Lepton::ParsedExpression& derivative : force.energyDerivatives)
        variableDerivatives.push_back(derivative.createProgram());
    for (const Lepton::ParsedExpression& derivative : force.energyParameterDerivatives)
        parameterDerivatives.push_back(derivative.createProgram());
}

double ContactMapEnergyFunction::evaluate(OpenMM::ContextImpl& context, const vector<double>& variables,
                                          vector<double>& dEdv, vector<double>& derivatives) const {
    std::map<string, double> values;
    for (const string& name : globalParameterNames)
        values[name] = context.getParameter(name);
    bool finite = true;
    for (size_t i = 0; i < variables.size(); i++) {
        values[variableNames[i]] = variables[i];
        finite = finite && std::isfinite(variables[i]);
    }
    const double notANumber = std::numeric_limits<double>::quiet_NaN();
    double value = notANumber;
    dEdv.assign(variables.size(), 0.0);
    if (finite) {
        value = energy.evaluate(values);
        finite = std::isfinite(value);
        for (size_t i = 0; i < variables.size() && finite; i++) {
            dEdv[i] = variableDerivatives[i].evaluate(values);
            finite = std::isfinite(dEdv[i]);
        }
    }
    derivatives.assign(parameterDerivatives.size(), notANumber);
    if (!finite) {
        dEdv.assign(variables.size(), 0.0);
        return notANumber;
    }
    for (size_t i = 0; i < parameterDerivatives.size(); i++)
        derivatives[i] = parameterDerivatives[i].evaluate(values);
    return value;
}
