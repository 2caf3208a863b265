#include "energy/CommonEnergyCode.h"
#include "openmm/common/ExpressionUtilities.h"
#include <utility>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;
using std::vector;

string CommonEnergyCode::parameterDerivativeName(ComputeContext& cc, int i) {
    return "parameterDerivative" + cc.intToString(i);
}

CommonEnergyCode CommonEnergyCode::create(ComputeContext& cc, const ResolvedEnergy& energy, const vector<string>& variables,
                                          const vector<string>& derivativeTargets, const string& tempPrefix,
                                          const vector<string>& parameterDerivativeSources) {
    CommonEnergyCode code;
    map<string, Lepton::ParsedExpression> expressions;
    map<string, string> variableCode;
    expressions["energy = "] = energy.energy;
    for (int v = 0; v < (int) energy.variableNames.size(); v++) {
        variableCode[energy.variableNames[v]] = variables[v];
        if (!derivativeTargets[v].empty())
            expressions[derivativeTargets[v] + " = "] = energy.variableDerivatives[v];
    }
    for (int i = 0; i < (int) energy.globalParameterNames.size(); i++)
        variableCode[energy.globalParameterNames[i]] = "globals[" + cc.intToString(i) + "]";
    // dE/dlambda of each requested global parameter (at fixed variables), added to OpenMM's buffer with the energy.
    for (int i = 0; i < (int) energy.parameterDerivatives.size(); i++) {
        const string name = parameterDerivativeName(cc, i);
        const string source = (parameterDerivativeSources.empty() ? name : parameterDerivativeSources[i]);
        expressions[name + " = "] = energy.parameterDerivatives[i];
        code.declarations += "mixed " + name + " = 0;\n";
        code.addParameterDerivatives += "energyParamDerivs[parameterDerivativeIndices[" + cc.intToString(i) +
                                        "]] += (finite ? " + source + " : NOT_A_NUMBER_MIXED); ";
    }
    code.evaluation = cc.getExpressionUtilities().createExpressions(expressions, variableCode,
                                                                    vector<const TabulatedFunction*>(),
                                                                    vector<std::pair<string, string>>(), tempPrefix, "mixed");
    return code;
}

void CommonEnergyCode::addDefines(const ResolvedEnergy& energy, map<string, string>& defines) {
    if (!energy.parameterDerivatives.empty())
        defines["HAS_PARAMETER_DERIVATIVES"] = "1";
}

void CommonEnergyCode::addReplacements(map<string, string>& replacements) const {
    replacements["COMPUTE_ENERGY"] = declarations + evaluation;
    replacements["ADD_PARAMETER_DERIVATIVES"] = addParameterDerivatives;
}
