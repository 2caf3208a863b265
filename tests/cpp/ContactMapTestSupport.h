#ifndef COORDINATION_TEST_CONTACTMAPTESTSUPPORT_H_
#define COORDINATION_TEST_CONTACTMAPTESTSUPPORT_H_

/*
 * Fixtures of the ContactMapForce tests: the maps of every switching type the matrices use, and their energies with
 * the oracle's C++ version of each (ContactMapContext, the Context holding a copy of a map, is TestContext's).
 */

#include "BruteForceContactMap.h"
#include "ContactMapForce.h"
#include "CoordinationTestUtilities.h"
#include "openmm/Context.h"
#include "openmm/State.h"
#include "openmm/System.h"
#include "openmm/VerletIntegrator.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationTest {

/** Settings of a switching type with its own parameters given (shape) as the contact map tests use them. */
inline SwitchingSettings contactSettings(CoordinationPlugin::CoordinationForce::SwitchingFunction type, double r0,
                                         double d0, double dmax, bool stretch) {
    SwitchingSettings settings = typedSettings(type, r0, d0, dmax, stretch);
    settings.setM(0);
    return settings;
}

/**
 * Contacts of every switching type, each with its own r0, d0, dmax (automatic, finite, none) and stretch, among the
 * first `particles` particles (at least 12), plus a contact of a particle with itself and one with centre 0 if
 * withCenter. customExpression is the map's Custom function (one the brute force knows).
 */
inline std::vector<OracleContact> everyTypeContacts(const std::string& customExpression, bool withCenter) {
    using CF = CoordinationPlugin::CoordinationForce;
    std::vector<SwitchingSettings> settings;
    SwitchingSettings rational = rationalSettings(0.25, 6, 0, 0.0, 0.0);
    settings.push_back(rational);
    rational = rationalSettings(0.3, 5, 11, 0.1, 1.0);
    rational.setStretch(false);
    settings.push_back(rational);
    settings.push_back(rationalSettings(0.35, 8, 14, 0.0, Infinity));
    settings.push_back(contactSettings(CF::Exponential, 0.2, 0.05, 1.2, true));
    settings.push_back(contactSettings(CF::Gaussian, 0.3, 0.0, Infinity, true));
    SwitchingSettings smap = contactSettings(CF::Smap, 0.4, 0.1, 1.1, true);
    smap.setSmapExponents(3, 2);
    settings.push_back(smap);
    settings.push_back(contactSettings(CF::Cubic, 0.3, 0.1, 0.9, true));
    settings.push_back(contactSettings(CF::Tanh, 0.35, 0.0, 1.3, false));
    settings.push_back(contactSettings(CF::Cosinus, 0.8, 0.1, 0.0, true));
    SwitchingSettings nativeQ = contactSettings(CF::NativeQ, 0.3, 0.0, Infinity, true);
    nativeQ.setNativeQParameters(20.0, 1.5, 0.4);
    settings.push_back(nativeQ);
    nativeQ.setD0(0.05);
    nativeQ.setDMax(1.4);
    settings.push_back(nativeQ);
    SwitchingSettings custom = contactSettings(CF::Custom, 0.3, 0.05, 1.0, true);
    custom.setCustomExpression(customExpression);
    settings.push_back(custom);
    custom.setD0(0.0);
    custom.setDMax(Infinity);
    settings.push_back(custom);
    std::vector<OracleContact> contacts;
    for (size_t k = 0; k < settings.size(); k++) {
        // Two contacts per setting, of different particles; references and weights vary (a negative weight too).
        const int first = (int) k % 12;
        contacts.push_back({first, (first + 1 + (int) k % 5) % 12, settings[k], 0.1 * (k % 4), 1.0 + 0.25 * (k % 3)});
        contacts.push_back({(first + 3) % 12, (first + 7) % 12, settings[k], 0.0, (k % 2 == 0 ? -0.5 : 2.0)});
    }
    contacts.push_back({5, 5, settings[3], 0.2, 1.5}); // the same particle twice: r = 0
    if (withCenter)
        contacts.push_back({-1, 2, settings[0], 0.0, 1.0});
    return contacts;
}

/** A centre of three particles with unequal weights, the third listed twice. */
inline std::vector<OracleCenter> oneCenter() {
    return {{{8, 10, 11, 11}, {1.0, 2.0, 0.5, 0.5}, true}};
}

/** An energy of the variables of a reduction with its oracle: a restraint with globals k and s0 (or a linear form). */
struct EnergyCase {
    std::string expression;
    OracleEnergy oracle;
};

/** k = 3.5, s0 = 0.7 (the globals' defaults) in every energy. */
inline EnergyCase energyFor(CoordinationPlugin::ContactMapForce::Reduction reduction, int numContacts) {
    const long double k = 3.5L, s0 = 0.7L;
    if (reduction == CoordinationPlugin::ContactMapForce::Sum)
        return {"0.5*k*(s-s0)^2", [=](const std::vector<long double>& v, std::vector<long double>& g) {
                    g[0] = k * (v[0] - s0);
                    return 0.5L * k * (v[0] - s0) * (v[0] - s0);
                }};
    if (reduction == CoordinationPlugin::ContactMapForce::Distance)
        return {"k*sqrt(s+s0)", [=](const std::vector<long double>& v, std::vector<long double>& g) {
                    g[0] = k / (2.0L * std::sqrt(v[0] + s0));
                    return k * std::sqrt(v[0] + s0);
                }};
    // Components: k*contact_1*contact_2 + sum_n c_n contact_n, c_n = s0 * (n mod 3 + 1) - 1.
    std::string expression = "k*contact_1*contact_2";
    for (int n = 1; n <= numContacts; n++)
        expression += "+" + std::to_string(n % 3 + 1) + "*s0*contact_" + std::to_string(n) + "-contact_" + std::to_string(n);
    return {expression, [=](const std::vector<long double>& v, std::vector<long double>& g) {
                long double energy = k * v[0] * v[1];
                g.assign(v.size(), 0.0L);
                g[0] = k * v[1];
                g[1] = k * v[0];
                for (size_t n = 0; n < v.size(); n++) {
                    const long double c = s0 * ((n + 1) % 3 + 1) - 1.0L;
                    energy += c * v[n];
                    g[n] += c;
                }
                return energy;
            }};
}

/** A ContactMapForce of the contacts and centres, with the energy and its globals k = 3.5, s0 = 0.7. */
inline CoordinationPlugin::ContactMapForce makeContactMap(CoordinationPlugin::ContactMapForce::Reduction reduction,
                                                          const std::vector<OracleContact>& contacts,
                                                          const std::vector<OracleCenter>& centers,
                                                          const std::string& customExpression, bool periodic) {
    CoordinationPlugin::ContactMapForce force(energyFor(reduction, contacts.size()).expression, reduction);
    force.addGlobalParameter("k", 3.5);
    force.addGlobalParameter("s0", 0.7);
    force.setCustomSwitchingFunction(customExpression);
    force.setUsesPeriodicBoundaryConditions(periodic);
    BruteForce::addTo(force, contacts, centers);
    return force;
}

/** The oracle's numbers for makeContactMap()'s map of the same reduction, contacts and centres. */
inline OracleContactMap mapOracle(CoordinationPlugin::ContactMapForce::Reduction reduction,
                                  const std::vector<OracleContact>& contacts, const std::vector<OracleCenter>& centers,
                                  const std::vector<OpenMM::Vec3>& positions, const BruteForce::Cell& cell) {
    return BruteForce::contactMap(contacts, centers, reduction, energyFor(reduction, contacts.size()).oracle, positions,
                                  cell);
}

/** Every number a Context gives against the oracle: contact values, variables, energy, forces. */
inline void expectMatchesOracle(const ContactMapEvaluation& actual, const OracleContactMap& expected) {
    expectValuesNear(actual.contactValues, expected.contactValues, Tolerance::Coordination, "contact");
    expectValuesNear(actual.variables, expected.variables, Tolerance::Coordination, "variable");
    expectRelativelyNear(actual.energy, expected.energy, Tolerance::Coordination, "energy");
    expectForcesNear(actual.forces, expected.forces, Tolerance::ForceRelativeToRms,
                     std::max(1e-12, Tolerance::ForceResolution * 4));
}

inline std::string reductionName(CoordinationPlugin::ContactMapForce::Reduction reduction) {
    return reduction == CoordinationPlugin::ContactMapForce::Sum
               ? "Sum"
               : (reduction == CoordinationPlugin::ContactMapForce::Distance ? "Distance" : "Components");
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_CONTACTMAPTESTSUPPORT_H_*/
