#include "internal/energy/ResolvedEnergy.h"
#include "internal/energy/ExpressionConstants.h"
#include "internal/energy/ExpressionVariables.h"
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include <set>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

ResolvedEnergy ResolvedEnergy::resolve(const CoordinationBiasForce& force, const Words& words) {
    const string prefix = force.getForceClassName() + ": ";
    auto fail = [&prefix](const string& message) { throw OpenMMException(prefix + message); };
    ResolvedEnergy resolved;
    resolved.expression = force.getEnergyFunction();
    for (int i = 0; i < force.getNumCollectiveVariables(); i++)
        resolved.variableNames.push_back(force.getCollectiveVariableName(i));
    const std::set<string> variables(resolved.variableNames.begin(), resolved.variableNames.end());
    // A name goes into its list once; a second time is refused with the message `twice`.
    auto addOnce = [&](std::set<string>& seen, std::vector<string>& names, const string& name, const string& twice) {
        if (!seen.insert(name).second)
            fail(twice);
        names.push_back(name);
    };
    std::set<string> globals;
    for (int i = 0; i < force.getNumGlobalParameters(); i++) {
        const string& name = force.getGlobalParameterName(i);
        if (name.empty())
            fail("global parameter " + std::to_string(i) + " has an empty name");
        if (variables.count(name) > 0)
            fail("a global parameter may not be called \"" + name +
                 "\": that is a variable of this force (one of the "
                 "energy's collective variables); rename it");
        addOnce(globals, resolved.globalParameterNames, name,
                "the global parameter \"" + name + "\" is defined twice; give each parameter a unique name");
    }
    const string& expression = resolved.expression;
    Lepton::ParsedExpression energy;
    try {
        energy = Lepton::Parser::parse(expression);
    } catch (const std::exception& error) {
        fail("cannot parse the energy expression \"" + expression + "\": " + error.what());
    }
    std::set<string> used;
    collectVariables(energy.getRootNode(), used);
    for (const string& variable : used)
        if (variables.count(variable) == 0 && globals.count(variable) == 0)
            fail("the energy expression \"" + expression + "\" uses \"" + variable + "\", which is neither " +
                 words.variables + " nor a global parameter; " + words.unknownVariableHint(variable));
    try {
        resolved.energy = optimizedExpression(energy);
    } catch (const std::exception& error) {
        fail("the energy expression \"" + expression + "\": " + error.what());
    }
    auto differentiate = [&](const string& variable) {
        try {
            return optimizedExpression(resolved.energy.differentiate(variable));
        } catch (const std::exception& error) {
            fail("cannot differentiate the energy expression \"" + expression + "\" with respect to " + variable +
                 ": " + error.what());
        }
        return Lepton::ParsedExpression(); // not reached
    };
    // A map of many contacts has as many variables, most of them unused by E: their derivative is 0 without work.
    const Lepton::ParsedExpression zero = Lepton::Parser::parse("0");
    resolved.variableDerivatives.reserve(resolved.variableNames.size());
    for (const string& variable : resolved.variableNames)
        resolved.variableDerivatives.push_back(used.count(variable) > 0 ? differentiate(variable) : zero);
    std::set<string> requested;
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++) {
        const string& name = force.getEnergyParameterDerivativeName(i);
        if (globals.count(name) == 0)
            fail("an energy derivative is requested for \"" + name +
                 "\", which is not a global parameter of this "
                 "force; add it with addGlobalParameter() first");
        addOnce(requested, resolved.parameterDerivativeNames, name,
                "the energy derivative with respect to \"" + name + "\" is requested twice; request it once");
        resolved.parameterDerivatives.push_back(differentiate(name));
    }
    return resolved;
}

void ResolvedEnergy::checkUpdatable(const ResolvedEnergy& before, const ResolvedEnergy& after, const string& className,
                                    const string& variablesChange) {
    const string how = "; call Context.reinitialize() or create a new Context";
    auto fail = [&](const string& message) { throw OpenMMException(className + ": " + message + how); };
    if (after.expression != before.expression)
        fail("updateParametersInContext() cannot change the energy expression (from \"" + before.expression +
             "\" to \"" + after.expression + "\")");
    if (after.globalParameterNames != before.globalParameterNames)
        fail("updateParametersInContext() cannot add, remove or rename global parameters");
    if (after.variableNames != before.variableNames)
        fail("updateParametersInContext() " + variablesChange);
    if (after.parameterDerivativeNames != before.parameterDerivativeNames)
        fail("updateParametersInContext() cannot change which energy parameter derivatives are computed");
}
