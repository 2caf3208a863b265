#include "internal/ContactMapForceImpl.h"
#include "ContactMapKernels.h"
#include "internal/CoordinationForceImpl.h"
#include "internal/ExpressionVariables.h"
#include "internal/ForceInContext.h"
#include "internal/NumberText.h"
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/ContextImpl.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <utility>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

const char* const Prefix = "ContactMapForce: ";

void fail(const string& message) {
    throw OpenMMException(Prefix + message);
}

/** "contact k (particles a, b)", the start of every message about a contact (the user's ids). */
string contactName(int index, const ContactMapForce& force) {
    int particle1, particle2;
    CoordinationForce::SwitchingFunction type;
    double r0, d0, dmax, reference, weight;
    bool stretch;
    vector<double> shape;
    force.getContactParameters(index, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
    return "contact " + std::to_string(index) + " (particles " + std::to_string(particle1) + ", " +
           std::to_string(particle2) + ")";
}

/** An integer exponent held in a shape entry: a whole number from minimum to CoordinationForce::MaxExponent. */
int exponentOf(double value, int minimum, const string& what, const string& where) {
    if (!(value >= minimum && value <= CoordinationForce::MaxExponent && value == std::floor(value)))
        fail(where + ": the exponent " + what + " (shape entry) must be a whole number from " + std::to_string(minimum) +
             " to " + std::to_string(CoordinationForce::MaxExponent) + ", got " + numberText(value));
    return (int) value;
}

/** The shape a type takes, for messages. */
string shapeText(CoordinationForce::SwitchingFunction type) {
    switch (type) {
    case CoordinationForce::Rational:
        return "{n, m} (m = 0 means 2n)";
    case CoordinationForce::Smap:
        return "{a, b}";
    case CoordinationForce::NativeQ:
        return "{beta (1/nm), lambda, reference (nm)}";
    default:
        return "{} (empty)";
    }
}

size_t shapeLength(CoordinationForce::SwitchingFunction type) {
    switch (type) {
    case CoordinationForce::Rational:
    case CoordinationForce::Smap:
        return 2;
    case CoordinationForce::NativeQ:
        return 3;
    default:
        return 0;
    }
}

/** A CoordinationForce message about a switching setting, in the contact map's words (where its setters differ). */
string inContactWords(string message) {
    const string base = "CoordinationForce: ";
    if (message.compare(0, base.size(), base) == 0)
        message = message.substr(base.size());
    const std::pair<const char*, const char*> replacements[] = {
        {"set them with setSmapExponents()", "give them in the contact's shape {a, b}"},
        {"set them with setNativeQParameters()", "give them in the contact's shape {beta, lambda, reference}"},
        {"set it with setDMax()", "give the contact a finite dmax"},
        {"call setStretch(false)", "set the contact's stretch to false"},
        {"setCustomSwitchingFunction()", "ContactMapForce::setCustomSwitchingFunction()"}};
    for (const auto& replacement : replacements) {
        const size_t at = message.find(replacement.first);
        if (at != string::npos)
            message.replace(at, std::strlen(replacement.first), replacement.second);
    }
    return message;
}

/** The bits of a contact's switching settings: equal keys resolve to the same constants (NaN included). */
vector<uint64_t> switchingKey(const ContactMapForce& force, int index) {
    int particle1, particle2;
    CoordinationForce::SwitchingFunction type;
    double r0, d0, dmax, reference, weight;
    bool stretch;
    vector<double> shape;
    force.getContactParameters(index, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
    vector<uint64_t> key = {(uint64_t) type, (uint64_t) stretch, shape.size()};
    for (double value : {r0, d0, dmax}) {
        uint64_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        key.push_back(bits);
    }
    for (double value : shape) {
        uint64_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        key.push_back(bits);
    }
    return key;
}

/**
 * The switching constants of contact index: a CoordinationForce with the contact's settings, checked and resolved by
 * CoordinationForceImpl::resolveSwitching (the one set of rules), its messages starting with the contact.
 */
SwitchingFunctionConstants resolveContactSwitching(const ContactMapForce& force, int index) {
    int particle1, particle2;
    CoordinationForce::SwitchingFunction type;
    double r0, d0, dmax, reference, weight;
    bool stretch;
    vector<double> shape;
    force.getContactParameters(index, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
    const string where = contactName(index, force);
    if (shape.size() != shapeLength(type))
        fail(where + ": its switching function's shape has " + std::to_string(shape.size()) + " entries, but this type "
             "takes " + shapeText(type) + "; pass the type's parameters in that order");
    CoordinationForce settings;
    if (type == CoordinationForce::Custom) {
        if (force.getCustomSwitchingFunction().empty())
            fail(where + " has a Custom switching function, but the map has no Custom expression; set it with "
                 "ContactMapForce::setCustomSwitchingFunction(), e.g. \"1/(1+x^6)\"");
        settings.setCustomSwitchingFunction(force.getCustomSwitchingFunction());
    }
    settings.setSwitchingFunction(type);
    settings.setR0(r0);
    settings.setD0(d0);
    settings.setDMax(dmax);
    settings.setStretch(stretch);
    if (type == CoordinationForce::Rational) {
        settings.setN(exponentOf(shape[0], 1, "n", where));
        settings.setM(exponentOf(shape[1], 0, "m", where));
    }
    if (type == CoordinationForce::Smap)
        settings.setSmapExponents(exponentOf(shape[0], 1, "a", where), exponentOf(shape[1], 1, "b", where));
    if (type == CoordinationForce::NativeQ)
        settings.setNativeQParameters(shape[0], shape[1], shape[2]);
    try {
        return CoordinationForceImpl::resolveSwitching(settings);
    } catch (const OpenMMException& error) {
        fail(where + ": " + inContactWords(error.what()));
    }
    return SwitchingFunctionConstants(); // not reached
}

/**
 * The energy expression, parsed and checked against the variables and the global parameters, with its derivatives
 * (per variable, per requested parameter) into resolved.
 */
void resolveEnergy(const ContactMapForce& force, ResolvedContactMap& resolved) {
    const string& expression = force.getEnergyFunction();
    Lepton::ParsedExpression energy;
    try {
        energy = Lepton::Parser::parse(expression);
    } catch (const std::exception& error) {
        fail("cannot parse the energy expression \"" + expression + "\": " + error.what());
    }
    const std::set<string> variables(resolved.variableNames.begin(), resolved.variableNames.end());
    const std::set<string> globals(resolved.globalParameterNames.begin(), resolved.globalParameterNames.end());
    std::set<string> used;
    collectVariables(energy.getRootNode(), used);
    const bool components = (resolved.reduction == ContactMapForce::Components);
    const string variablesText =
        (components ? "contact_1 to contact_" + std::to_string(resolved.getNumContacts()) : string("s"));
    for (const string& variable : used)
        if (variables.count(variable) == 0 && globals.count(variable) == 0)
            fail("the energy expression \"" + expression + "\" uses \"" + variable + "\", which is neither a variable "
                 "of this map (" + variablesText + ") nor a global parameter; " +
                 (!components && variable.compare(0, 8, "contact_") == 0
                      ? "the contacts are variables of their own only with setReduction(ContactMapForce::Components)"
                      : "add it with addGlobalParameter()"));
    resolved.energy = energy.optimize();
    resolved.energyDerivatives.reserve(resolved.variableNames.size());
    const Lepton::ParsedExpression zero = Lepton::Parser::parse("0");
    for (const string& variable : resolved.variableNames) {
        if (used.count(variable) == 0) {
            resolved.energyDerivatives.push_back(zero);
            continue;
        }
        try {
            resolved.energyDerivatives.push_back(resolved.energy.differentiate(variable).optimize());
        } catch (const std::exception& error) {
            fail("cannot differentiate the energy expression \"" + expression + "\" with respect to " + variable +
                 ": " + error.what());
        }
    }
    std::set<string> requested;
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++) {
        const string& name = force.getEnergyParameterDerivativeName(i);
        if (globals.count(name) == 0)
            fail("an energy derivative is requested for \"" + name + "\", which is not a global parameter of this "
                 "force; add it with addGlobalParameter() first");
        if (!requested.insert(name).second)
            fail("the energy derivative with respect to \"" + name + "\" is requested twice; request it once");
        resolved.energyParameterDerivativeNames.push_back(name);
        try {
            resolved.energyParameterDerivatives.push_back(resolved.energy.differentiate(name).optimize());
        } catch (const std::exception& error) {
            fail("cannot differentiate the energy expression \"" + expression + "\" with respect to " + name + ": " +
                 error.what());
        }
    }
}

} // namespace

ContactMapForceImpl::ContactMapForceImpl(const ContactMapForce& owner) : owner(owner) {}

ResolvedContactMap ContactMapForceImpl::resolve(const ContactMapForce& force, const System& system) {
    const int numContacts = force.getNumContacts();
    if (numContacts == 0)
        fail("the map has no contacts; add them with addContact()");
    ResolvedContactMap resolved;
    resolved.reduction = force.getReduction();
    resolved.periodic = force.usesPeriodicBoundaryConditions();

    // The centres, then each contact's members.
    vector<vector<int>> centerParticles(force.getNumCenters());
    vector<vector<double>> centerWeights(force.getNumCenters());
    vector<int> weighting(force.getNumCenters());
    vector<bool> makeWhole(force.getNumCenters());
    for (int k = 0; k < force.getNumCenters(); k++) {
        CoordinationForce::CenterWeighting centerWeighting;
        bool whole;
        force.getCenterParameters(k, centerParticles[k], centerWeighting, centerWeights[k], whole);
        weighting[k] = centerWeighting;
        makeWhole[k] = whole;
    }
    resolved.centers = ResolvedCenters::resolve(system, centerParticles, weighting, centerWeights, makeWhole,
                                                "ContactMapForce");
    resolved.particle1.resize(numContacts);
    resolved.particle2.resize(numContacts);
    resolved.reference.resize(numContacts);
    resolved.weight.resize(numContacts);
    resolved.switchingIndex.resize(numContacts);
    std::map<vector<uint64_t>, int> switchingOf;
    bool usesCustom = false;
    for (int n = 0; n < numContacts; n++) {
        int particle1, particle2;
        CoordinationForce::SwitchingFunction type;
        double r0, d0, dmax, reference, weight;
        bool stretch;
        vector<double> shape;
        force.getContactParameters(n, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
        const string where = string(Prefix) + "contact " + std::to_string(n);
        resolved.particle1[n] = resolved.centers.memberOf(particle1, where + " particle1");
        resolved.particle2[n] = resolved.centers.memberOf(particle2, where + " particle2");
        if (!std::isfinite(reference))
            fail(contactName(n, force) + ": the reference must be a finite number, got " + numberText(reference));
        if (!std::isfinite(weight))
            fail(contactName(n, force) + ": the weight must be a finite number, got " + numberText(weight));
        resolved.reference[n] = reference;
        resolved.weight[n] = weight;
        usesCustom = usesCustom || type == CoordinationForce::Custom;
        // Identical settings share one resolution: a map of many contacts has few distinct functions.
        auto found = switchingOf.emplace(switchingKey(force, n), (int) resolved.switchings.size());
        if (found.second)
            resolved.switchings.push_back(resolveContactSwitching(force, n));
        resolved.switchingIndex[n] = found.first->second;
    }
    if (usesCustom)
        resolved.customExpression = force.getCustomSwitchingFunction();

    // Every particle a contact or a centre uses, once.
    vector<int> used;
    used.reserve(2 * numContacts);
    for (int n = 0; n < numContacts; n++)
        for (int member : {resolved.particle1[n], resolved.particle2[n]})
            if (!resolved.centers.isCenter(member))
                used.push_back(member);
    for (const vector<int>& members : resolved.centers.particles)
        used.insert(used.end(), members.begin(), members.end());
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    resolved.uniqueParticles = used;

    // The variables, the global parameters and the energy.
    for (int i = 0; i < force.getNumCollectiveVariables(); i++)
        resolved.variableNames.push_back(force.getCollectiveVariableName(i));
    const std::set<string> variables(resolved.variableNames.begin(), resolved.variableNames.end());
    std::set<string> names;
    for (int i = 0; i < force.getNumGlobalParameters(); i++) {
        const string& name = force.getGlobalParameterName(i);
        if (name.empty())
            fail("global parameter " + std::to_string(i) + " has an empty name");
        if (variables.count(name) > 0)
            fail("a global parameter may not be called \"" + name + "\": that is a variable of this map (the energy's " +
                 (resolved.reduction == ContactMapForce::Components ? "contact_n" : string("s")) + "); rename it");
        if (!names.insert(name).second)
            fail("the global parameter \"" + name + "\" is defined twice; give each parameter a unique name");
        resolved.globalParameterNames.push_back(name);
    }
    resolved.energyExpression = force.getEnergyFunction();
    resolveEnergy(force, resolved);
    return resolved;
}

void ContactMapForceImpl::checkUpdatable(const ResolvedContactMap& before, const ResolvedContactMap& after) {
    const string how = "; call Context.reinitialize() or create a new Context";
    if (after.energyExpression != before.energyExpression)
        fail("updateParametersInContext() cannot change the energy expression (from \"" + before.energyExpression +
             "\" to \"" + after.energyExpression + "\")" + how);
    if (after.globalParameterNames != before.globalParameterNames)
        fail("updateParametersInContext() cannot add, remove or rename global parameters" + how);
    if (after.energyParameterDerivativeNames != before.energyParameterDerivativeNames)
        fail("updateParametersInContext() cannot change which energy parameter derivatives are computed" + how);
    if (after.reduction != before.reduction)
        fail("updateParametersInContext() cannot change the reduction (the energy's variables)" + how);
    if (after.customExpression != before.customExpression)
        fail("updateParametersInContext() cannot change the Custom switching function in use (from \"" +
             before.customExpression + "\" to \"" + after.customExpression + "\"; \"\" is none)" + how);
    if (after.reduction == ContactMapForce::Components && after.getNumContacts() != before.getNumContacts())
        fail("updateParametersInContext() cannot change the number of contacts of a map with Components (from " +
             std::to_string(before.getNumContacts()) + " to " + std::to_string(after.getNumContacts()) +
             ": each is a variable of the energy)" + how);
}

void ContactMapForceImpl::initialize(ContextImpl& context) {
    const System& system = context.getSystem();
    resolved = resolve(owner, system);
    kernel = context.getPlatform().createKernel(CalcContactMapForceKernel::Name(), context);
    kernel.getAs<CalcContactMapForceKernel>().initialize(system, resolved);
}

double ContactMapForceImpl::calcForcesAndEnergy(ContextImpl& context, bool includeForces, bool includeEnergy,
                                                int groups) {
    if ((groups & (1 << owner.getForceGroup())) == 0)
        return 0.0;
    return kernel.getAs<CalcContactMapForceKernel>().execute(context, includeForces, includeEnergy);
}

std::map<string, double> ContactMapForceImpl::getDefaultParameters() {
    std::map<string, double> parameters;
    for (int i = 0; i < owner.getNumGlobalParameters(); i++)
        parameters[owner.getGlobalParameterName(i)] = owner.getGlobalParameterDefaultValue(i);
    return parameters;
}

vector<string> ContactMapForceImpl::getKernelNames() {
    return {CalcContactMapForceKernel::Name()};
}

void ContactMapForceImpl::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    kernel.getAs<CalcContactMapForceKernel>().getCollectiveVariableValues(context, values);
}

void ContactMapForceImpl::getContactValues(ContextImpl& context, vector<double>& values) {
    kernel.getAs<CalcContactMapForceKernel>().getContactValues(context, values);
}

void ContactMapForceImpl::updateParametersInContext(ContextImpl& context) {
    ResolvedContactMap next = resolve(owner, context.getSystem());
    checkUpdatable(resolved, next);
    kernel.getAs<CalcContactMapForceKernel>().copyParametersToContext(context, next);
    resolved = std::move(next);
    context.systemChanged();
}

ContactMapForceImpl& ContactMapForceImpl::inContext(Context& context, const ContactMapForce& owner, bool syncState,
                                                    const string& method, ContextImpl*& contextImpl) {
    Context* where;
    ContactMapForce* copy;
    if (!ForceInContext::find(context, owner, syncState, where, copy))
        throw ForceInContext::notFound("ContactMapForce", method);
    const ContactMapForce& force = (copy == nullptr ? owner : *copy);
    contextImpl = &force.getContextImpl(*where);
    return dynamic_cast<ContactMapForceImpl&>(force.getImplInContext(*where));
}
