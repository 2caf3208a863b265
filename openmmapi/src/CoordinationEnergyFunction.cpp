#include "internal/CoordinationEnergyFunction.h"
#include "internal/CoordinationForceImpl.h"

using namespace CoordinationPlugin;
using std::string;

CoordinationEnergyFunction::CoordinationEnergyFunction(const CoordinationForce& force)
    : energyText(force.getEnergyFunction()) {
    Lepton::ParsedExpression derivative;
    energy = CoordinationForceImpl::parseEnergy(force, derivative).createProgram();
    energyDerivative = derivative.createProgram();
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        globalParameterNames.push_back(force.getGlobalParameterName(i));
    for (const Lepton::ParsedExpression& parameterDerivative : CoordinationForceImpl::parseEnergyParameterDerivatives(force))
        parameterDerivatives.push_back(parameterDerivative.createProgram());
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++)
        derivativeNames.push_back(force.getEnergyParameterDerivativeName(i));
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

void CoordinationEnergyFunction::checkUnchanged(const CoordinationForce& force) const {
    CoordinationForceImpl::checkEnergyUnchanged(force, energyText, globalParameterNames, derivativeNames);
}
