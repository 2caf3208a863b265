#include "internal/CoordinationEnergyFunction.h"

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
    dEdS = energyDerivative.evaluate(variables);
    if (derivatives != nullptr)
        for (int i = 0; i < (int) parameterDerivatives.size(); i++)
            (*derivatives)[derivativeNames[i]] += parameterDerivatives[i].evaluate(variables);
    return energy.evaluate(variables);
}
