#include "internal/CoordinationEnergyFunction.h"
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using std::string;

CoordinationEnergyFunction::CoordinationEnergyFunction(const ResolvedCoordinationForce& force)
    : globalParameterNames(force.globalParameterNames), derivativeNames(force.energyParameterDerivativeNames),
      energy(force.energy.createProgram()), energyDerivative(force.energyDerivative.createProgram()) {
    for (const Lepton::ParsedExpression& parameterDerivative : force.energyParameterDerivatives)
        parameterDerivatives.push_back(parameterDerivative.createProgram());
}

double CoordinationEnergyFunction::evaluate(OpenMM::ContextImpl& context, double s, double& dEdS,
                                            std::map<string, double>* derivatives) const {
    std::map<string, double> variables;
    for (const string& name : globalParameterNames)
        variables[name] = context.getParameter(name);
    variables["s"] = s;
    const double value = energy.evaluate(variables);
    dEdS = energyDerivative.evaluate(variables);
    const bool finite = std::isfinite(s) && std::isfinite(value) && std::isfinite(dEdS);
    const double notANumber = std::numeric_limits<double>::quiet_NaN();
    if (derivatives != nullptr)
        for (int i = 0; i < (int) parameterDerivatives.size(); i++)
            (*derivatives)[derivativeNames[i]] += (finite ? parameterDerivatives[i].evaluate(variables) : notANumber);
    if (!finite) {
        dEdS = 0.0;
        return notANumber;
    }
    return value;
}
