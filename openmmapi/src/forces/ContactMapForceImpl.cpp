#include "internal/forces/ContactMapForceImpl.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include "openmm/System.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <utility>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

const char* const Prefix = "ContactMapForce: ";

void fail(const string& message) { throw OpenMMException(Prefix + message); }


/** The bits of a switching function's settings: equal keys resolve to the same constants (NaN included). */
vector<uint64_t> switchingKey(const SwitchingSettings& s) {
    vector<uint64_t> key = {(uint64_t)s.getType(), (uint64_t)s.getStretch(), (uint64_t)s.getN(),
                            (uint64_t)s.getM(),    (uint64_t)s.getSmapA(),   (uint64_t)s.getSmapB()};
    for (double value :
         {s.getR0(), s.getD0(), s.getDMax(), s.getNativeQBeta(), s.getNativeQLambda(), s.getNativeQReference()}) {
        uint64_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        key.push_back(bits);
    }
    for (char c : s.getCustomExpression())
        key.push_back((unsigned char)c);
    return key;
}

} // namespace

ResolvedContactMap ContactMapForceImpl::resolve(const ContactMapForce& force, const System& system) {
    const int numContacts = force.getNumContacts();
    if (numContacts == 0)
        fail("the map has no contacts; add them with addContact()");
    ResolvedContactMap resolved;
    resolved.reduction = force.getReduction();
    resolved.periodic = force.usesPeriodicBoundaryConditions();
    resolved.centers = ResolvedCenters::resolve(system, force);
    resolved.particle1.resize(numContacts);
    resolved.particle2.resize(numContacts);
    resolved.reference.resize(numContacts);
    resolved.weight.resize(numContacts);
    resolved.switchingIndex.resize(numContacts);
    std::map<vector<uint64_t>, int> switchingOf;
    int firstCustom = -1;
    for (int n = 0; n < numContacts; n++) {
        int particle1, particle2;
        SwitchingSettings switching;
        double reference, weight;
        force.getContactParameters(n, particle1, particle2, switching, reference, weight);
        const string where = string(Prefix) + "contact " + std::to_string(n);
        resolved.particle1[n] = resolved.centers.memberOf(particle1, where + " particle1");
        resolved.particle2[n] = resolved.centers.memberOf(particle2, where + " particle2");
        const string name = ResolvedContactMap::contactName(n, particle1, particle2);
        if (!std::isfinite(reference))
            fail(name + ": the reference must be a finite number, got " + numberText(reference));
        if (!std::isfinite(weight))
            fail(name + ": the weight must be a finite number, got " + numberText(weight));
        resolved.reference[n] = reference;
        resolved.weight[n] = weight;
        if (switching.getType() == CoordinationBiasForce::Custom) {
            // A contact without an expression of its own takes the map's; every Custom contact shares one.
            if (switching.getCustomExpression().empty()) {
                if (force.getCustomSwitchingFunction().empty())
                    fail(name + " has a Custom switching function, but neither it nor the map has an expression; set "
                                "the map's with ContactMapForce::setCustomSwitchingFunction(), e.g. \"1/(1+x^6)\"");
                switching.setCustomExpression(force.getCustomSwitchingFunction());
            }
            if (firstCustom < 0) {
                firstCustom = n;
                resolved.customExpression = switching.getCustomExpression();
            } else if (switching.getCustomExpression() != resolved.customExpression)
                fail(name + " has the Custom expression \"" + switching.getCustomExpression() + "\", but contact " +
                     std::to_string(firstCustom) + " has \"" + resolved.customExpression +
                     "\"; the Custom contacts "
                     "of a map share one expression (give them the same one, or "
                     "ContactMapForce::setCustomSwitchingFunction())");
        }
        // Identical settings share one resolution: a map of many contacts has few distinct functions.
        auto found = switchingOf.emplace(switchingKey(switching), (int)resolved.switchings.size());
        if (found.second)
            resolved.switchings.push_back(SwitchingFunctionConstants::resolve(switching, string(Prefix) + name + ": "));
        resolved.switchingIndex[n] = found.first->second;
    }

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
    const bool components = (resolved.reduction == ContactMapForce::Components);
    const ResolvedEnergy::Words words(
        "a variable of this map (" +
            (components ? "contact_1 to contact_" + std::to_string(numContacts) : string("s")) + ")",
        std::function<string(const string&)>([components](const string& variable) {
            return (
                !components && variable.compare(0, 8, "contact_") == 0
                    ? string(
                          "the contacts are variables of their own only with setReduction(ContactMapForce::Components)")
                    : string("add it with addGlobalParameter()"));
        }));
    resolved.energy = ResolvedEnergy::resolve(force, words);
    return resolved;
}

void ContactMapForceImpl::checkUpdatable(const ResolvedContactMap& before, const ResolvedContactMap& after) {
    const string how = "; call Context.reinitialize() or create a new Context";
    if (after.reduction != before.reduction)
        fail("updateParametersInContext() cannot change the reduction (the energy's variables)" + how);
    if (after.reduction == ContactMapForce::Components && after.getNumContacts() != before.getNumContacts())
        fail("updateParametersInContext() cannot change the number of contacts of a map with Components (from " +
             std::to_string(before.getNumContacts()) + " to " + std::to_string(after.getNumContacts()) +
             ": each is a variable of the energy)" + how);
    ResolvedEnergy::checkUpdatable(before.energy, after.energy, "ContactMapForce",
                                   "cannot change the energy's variables");
    if (after.customExpression != before.customExpression)
        fail("updateParametersInContext() cannot change the Custom switching function in use (from \"" +
             before.customExpression + "\" to \"" + after.customExpression + "\"; \"\" is none)" + how);
}
