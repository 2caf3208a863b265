/*
 * ContactMapForce's rules: the settings it refuses (one test per rule, each message naming the bad value),
 * contacts of equal settings sharing one resolved function, updateParametersInContext, and XML.
 */

#include "ContactMapTestSupport.h"
#include "SameSettings.h"
#include "internal/forces/ContactMapForceImpl.h"
#include <chrono>

using namespace CoordinationTest;
using CoordinationPlugin::ContactMapForce;
using CoordinationPlugin::ContactMapForceImpl;
using CoordinationPlugin::CoordinationForce;
using OpenMM::Vec3;
using std::string;
using std::vector;

namespace {

const vector<Vec3> FourParticles = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.4, 0), Vec3(0.2, 0.2, 0.3)};

/** A valid map of two contacts on FourParticles. */
ContactMapForce validMap(const string& energy = "s", ContactMapForce::Reduction reduction = ContactMapForce::Sum) {
    ContactMapForce force(energy, reduction);
    force.addContact(0, 1, 0.3);
    force.addContact(2, 3, CoordinationForce::Smap, 0.35, 0.05, 1.2, true, {4, 2}, 0.1, 2.0);
    return force;
}

/** Creating a Context for the map throws an OpenMMException mentioning every word. */
void expectMapRefused(const ContactMapForce& force, const vector<string>& words) {
    expectOpenMMExceptionMentioning([&]() { ContactMapContext tested(force, FourParticles); }, words);
}

/** Adds a third contact with the given switching settings (particles 1 and 3). */
ContactMapForce withContact(CoordinationForce::SwitchingFunction type, double r0, double d0, double dmax,
                            const vector<double>& shape, double reference = 0.0, double weight = 1.0) {
    ContactMapForce force = validMap();
    force.addContact(1, 3, type, r0, d0, dmax, true, shape, reference, weight);
    return force;
}

} // namespace

TEST(ContactMapRules, AMapWithoutContactsIsRefused) {
    expectMapRefused(ContactMapForce(), {"no contacts", "addContact"});
}

TEST(ContactMapRules, AParticleIndexOutsideTheSystemIsRefused) {
    ContactMapForce force = validMap();
    force.addContact(1, 4, 0.3);
    expectMapRefused(force, {"contact 2 particle2", "4", "indices 0 to 3"});
}

TEST(ContactMapRules, ANegativeIdThatIsNoCentreIsRefused) {
    ContactMapForce force = validMap();
    force.addCenter({0, 1});
    force.addContact(-2, 3, 0.3);
    expectMapRefused(force, {"contact 2 particle1", "-2", "centre"});
}

TEST(ContactMapRules, ACentreWithoutParticlesIsRefused) {
    ContactMapForce force = validMap();
    force.addContact(force.addCenter({}), 3, 0.3);
    expectMapRefused(force, {"ContactMapForce", "centre 0", "no particles"});
}

TEST(ContactMapRules, AShapeOfTheWrongLengthForItsTypeIsRefusedByAddContact) {
    auto refused = [](CoordinationForce::SwitchingFunction type, const vector<double>& shape,
                      const vector<string>& words) {
        expectOpenMMExceptionMentioning([&]() { withContact(type, 0.3, 0.0, 1.0, shape); }, words);
    };
    refused(CoordinationForce::Rational, {6}, {"addContact", "1 entries", "{n, m}"});
    refused(CoordinationForce::NativeQ, {50, 1.8}, {"addContact", "{beta"});
    refused(CoordinationForce::Gaussian, {2}, {"addContact", "empty"});
}

TEST(ContactMapRules, AnExponentThatIsNotAWholeNumberInRangeIsRefusedByAddContact) {
    auto refused = [](CoordinationForce::SwitchingFunction type, const vector<double>& shape,
                      const vector<string>& words) {
        expectOpenMMExceptionMentioning([&]() { withContact(type, 0.3, 0.0, 1.0, shape); }, words);
    };
    refused(CoordinationForce::Rational, {6.5, 12}, {"addContact", "exponent n", "6.5"});
    refused(CoordinationForce::Rational, {6, -2}, {"addContact", "exponent m", "-2"});
    refused(CoordinationForce::Smap, {0, 2}, {"addContact", "exponent a", "0"});
}

TEST(ContactMapRules, RationalExponentsThatAreEqualAreRefused) {
    expectMapRefused(withContact(CoordinationForce::Rational, 0.3, 0.0, 1.0, {6, 6}),
                     {"ContactMapForce: contact 2 (particles 1, 3): ", "n and m must differ"});
}

TEST(ContactMapRules, ANonPositiveR0IsRefusedWithItsContact) {
    expectMapRefused(withContact(CoordinationForce::Exponential, 0.0, 0.0, 1.0, {}),
                     {"contact 2 (particles 1, 3)", "r0", "0"});
}

TEST(ContactMapRules, ADMaxNotAboveD0IsRefused) {
    expectMapRefused(withContact(CoordinationForce::Tanh, 0.3, 0.5, 0.4, {}), {"contact 2", "dmax", "0.4", "d0"});
}

TEST(ContactMapRules, ACubicContactWithoutAFiniteCutoffIsRefused) {
    expectMapRefused(withContact(CoordinationForce::Cubic, 0.3, 0.0, Infinity, {}),
                     {"contact 2", "Cubic", "finite dmax"});
}

TEST(ContactMapRules, NativeQParametersThatAreNotPositiveAreRefused) {
    expectMapRefused(withContact(CoordinationForce::NativeQ, 0.3, 0.0, Infinity, {-1, 1.8, 0.4}),
                     {"contact 2", "beta = -1", "setNativeQParameters"});
}

TEST(ContactMapRules, ACustomContactWithoutTheMapsExpressionIsRefused) {
    expectMapRefused(withContact(CoordinationForce::Custom, 0.3, 0.0, 1.0, {}),
                     {"contact 2", "neither it nor the map has an expression", "setCustomSwitchingFunction"});
}

TEST(ContactMapRules, ACustomExpressionOfAnotherVariableIsRefused) {
    ContactMapForce force = withContact(CoordinationForce::Custom, 0.3, 0.0, 1.0, {});
    force.setCustomSwitchingFunction("exp(-y)");
    expectMapRefused(force, {"contact 2", "exp(-y)", "\"y\""});
}

TEST(ContactMapRules, AReferenceOrWeightThatIsNotFiniteIsRefused) {
    expectMapRefused(withContact(CoordinationForce::Gaussian, 0.3, 0.0, 1.0, {}, Infinity, 1.0),
                     {"contact 2", "reference", "inf"});
    expectMapRefused(withContact(CoordinationForce::Gaussian, 0.3, 0.0, 1.0, {}, 0.0, std::nan("")),
                     {"contact 2", "weight", "nan"});
}

TEST(ContactMapRules, AGlobalParameterNamedAsAVariableIsRefused) {
    ContactMapForce sum = validMap();
    sum.addGlobalParameter("s", 1.0);
    expectMapRefused(sum, {"\"s\"", "variable", "rename"});
    ContactMapForce components = validMap("contact_1", ContactMapForce::Components);
    components.addGlobalParameter("contact_2", 1.0);
    expectMapRefused(components, {"\"contact_2\"", "variable"});
}

TEST(ContactMapRules, AGlobalParameterDefinedTwiceIsRefused) {
    ContactMapForce force = validMap("k*s");
    force.addGlobalParameter("k", 1.0);
    force.addGlobalParameter("k", 2.0);
    expectMapRefused(force, {"\"k\"", "twice"});
}

TEST(ContactMapRules, AnEnergyThatCannotBeParsedIsRefused) {
    expectMapRefused(validMap("s*("), {"cannot parse", "s*("});
}

TEST(ContactMapRules, AnEnergyOfAnUnknownVariableIsRefused) {
    expectMapRefused(validMap("s+q"), {"\"q\"", "addGlobalParameter"});
    // A contact's variable needs Components; Components has no s, and no contact beyond the last.
    expectMapRefused(validMap("contact_1"), {"\"contact_1\"", "Components"});
    expectMapRefused(validMap("s", ContactMapForce::Components), {"\"s\"", "contact_1 to contact_2"});
    expectMapRefused(validMap("contact_3", ContactMapForce::Components), {"\"contact_3\""});
}

TEST(ContactMapRules, ADerivativeOfAnUnknownOrRepeatedParameterIsRefused) {
    ContactMapForce unknown = validMap("k*s");
    unknown.addGlobalParameter("k", 1.0);
    unknown.addEnergyParameterDerivative("q");
    expectMapRefused(unknown, {"\"q\"", "not a global parameter"});
    ContactMapForce twice = validMap("k*s");
    twice.addGlobalParameter("k", 1.0);
    twice.addEnergyParameterDerivative("k");
    twice.addEnergyParameterDerivative("k");
    expectMapRefused(twice, {"\"k\"", "twice"});
}

TEST(ContactMapRules, ContactsOfEqualSettingsShareOneResolvedSwitchingFunction) {
    // 100,000 contacts of three distinct settings (the short form, a Smap, a Custom) resolve to three functions.
    OpenMM::System system;
    for (int i = 0; i < 1000; i++)
        system.addParticle(1.0);
    ContactMapForce force;
    force.setCustomSwitchingFunction("exp(-x)");
    for (int n = 0; n < 100000; n++) {
        if (n % 3 == 0)
            force.addContact(n % 1000, (7 * n + 1) % 1000, 0.3, 0.5, 2.0);
        else if (n % 3 == 1)
            force.addContact(n % 1000, (3 * n) % 1000, CoordinationForce::Smap, 0.4, 0.0, 1.0, true, {6, 2}, 0.0, 1.0);
        else
            force.addContact(n % 1000, (5 * n) % 1000, CoordinationForce::Custom, 0.3, 0.1, 1.0, false, {}, 0.0, 1.0);
    }
    const auto start = std::chrono::steady_clock::now();
    const CoordinationPlugin::ResolvedContactMap resolved = ContactMapForceImpl::resolve(force, system);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("resolving 100,000 contacts took %.1f ms\n", 1e3 * seconds);
    ASSERT_EQ(resolved.switchings.size(), 3u);
    EXPECT_EQ(resolved.switchingIndex[0], 0);
    EXPECT_EQ(resolved.switchingIndex[4], 1);
    EXPECT_EQ(resolved.switchingIndex[99998], 2);
    EXPECT_EQ(resolved.customExpression, "exp(-x)");
    EXPECT_EQ(resolved.switchings[2].type, CoordinationForce::Custom);
}

TEST(ContactMapUpdate, NewContactSettingsReachTheContext) {
    const vector<OracleContact> contacts = everyTypeContacts("exp(-x)", true);
    const vector<Vec3> positions = randomPositions(12, Box::none(), 41);
    for (ContactMapForce::Reduction reduction : {ContactMapForce::Sum, ContactMapForce::Components}) {
        SCOPED_TRACE(reductionName(reduction));
        ContactMapContext tested(makeContactMap(reduction, contacts, oneCenter(), "exp(-x)", false), positions);
        // Other particles, switching settings, references and weights (the same contact count), another centre.
        vector<OracleContact> changed = contacts;
        for (size_t n = 0; n < changed.size(); n++) {
            std::swap(changed[n].settings, changed[(n + 5) % changed.size()].settings);
            changed[n].reference += 0.05;
            changed[n].weight *= -1.5;
            if (changed[n].particle1 >= 0 && changed[n].particle1 != changed[n].particle2)
                changed[n].particle1 = (changed[n].particle1 + 1) % 12;
        }
        vector<OracleCenter> centers = oneCenter();
        centers[0].particles = {0, 3};
        centers[0].weights = {2.0, 1.0};
        ContactMapForce& force = tested.getForce();
        force = makeContactMap(reduction, changed, centers, "exp(-x)", false);
        force.updateParametersInContext(tested.getContext());
        const ContactMapEvaluation actual = tested.evaluate();
        const OracleContactMap expected = mapOracle(reduction, changed, centers, positions, Box::none().cell);
        for (size_t n = 0; n < changed.size(); n++)
            expectRelativelyNear(actual.contactValues[n], expected.contactValues[n], Tolerance::Coordination);
        expectRelativelyNear(actual.energy, expected.energy, Tolerance::Coordination, "energy");
        expectForcesNear(actual.forces, expected.forces, Tolerance::ForceRelativeToRms);
    }
}

TEST(ContactMapUpdate, ASumMayGainContacts) {
    ContactMapContext tested(validMap(), FourParticles);
    tested.getForce().addContact(0, 3, 0.4);
    tested.getForce().updateParametersInContext(tested.getContext());
    vector<double> values;
    tested.getForce().getContactValues(tested.getContext(), values);
    EXPECT_EQ(values.size(), 3u);
}

TEST(ContactMapUpdate, WhatTheEnergyIsCompiledFromCannotChange) {
    auto refusedAfter = [](const std::function<void(ContactMapForce&)>& change, const string& word,
                           const ContactMapForce& start) {
        ContactMapContext tested(start, FourParticles);
        change(tested.getForce());
        expectOpenMMExceptionMentioning([&]() { tested.getForce().updateParametersInContext(tested.getContext()); },
                                        {"updateParametersInContext", word});
    };
    ContactMapForce map = validMap("k*s");
    map.addGlobalParameter("k", 2.0);
    refusedAfter([](ContactMapForce& f) { f.setEnergyFunction("2*k*s"); }, "energy expression", map);
    refusedAfter([](ContactMapForce& f) { f.addGlobalParameter("q", 1.0); }, "global parameters", map);
    refusedAfter([](ContactMapForce& f) { f.addEnergyParameterDerivative("k"); }, "derivatives", map);
    refusedAfter([](ContactMapForce& f) {
        f.setReduction(ContactMapForce::Distance);
    }, "reduction", map);
    ContactMapForce custom = withContact(CoordinationForce::Custom, 0.3, 0.0, 1.0, {});
    custom.setCustomSwitchingFunction("exp(-x)");
    refusedAfter([](ContactMapForce& f) { f.setCustomSwitchingFunction("exp(-2*x)"); }, "Custom switching function",
                 custom);
    refusedAfter([](ContactMapForce& f) { f.addContact(0, 2, CoordinationForce::Custom, 0.3, 0.0, 1.0, true, {}, 0.0, 1.0); },
                 "Custom switching function", [] {
                     ContactMapForce f = validMap();
                     f.setCustomSwitchingFunction("exp(-x)");
                     return f;
                 }());
    refusedAfter([](ContactMapForce& f) { f.addContact(0, 3, 0.4); }, "number of contacts",
                 validMap("contact_1+contact_2", ContactMapForce::Components));
}

namespace {

/** A map with every setting away from its default. */
ContactMapForce unusualMap() {
    ContactMapForce force("k*contact_1+contact_3^2-s0*contact_2", ContactMapForce::Components);
    force.setName("native contacts");
    force.setForceGroup(5);
    force.setUsesPeriodicBoundaryConditions(true);
    force.setCustomSwitchingFunction("1/(1+x2^3)");
    const int centre = force.addCenter({0, 2, 2}, CoordinationForce::WeightedCenter, {1.0, 0.5, 0.25}, false);
    force.addCenter({1, 3}, CoordinationForce::CenterOfMass);
    force.addContact(0, 1, 0.3, 0.25, 1.5);
    force.addContact(centre, 3, CoordinationForce::NativeQ, 0.2, 0.05, 1.3, false, {40, 1.6, 0.35}, -0.5, 0.75);
    force.addContact(2, -2, CoordinationForce::Custom, 0.25, 0.0, 0.0, true, {}, 0.0, -1.0);
    force.addContact(1, 2, CoordinationForce::Rational, 0.3, 0.1, 1.25, true, {5, 9}, 0.125, 2.0);
    force.addGlobalParameter("k", 2.5);
    force.addGlobalParameter("s0", -1.0);
    force.addEnergyParameterDerivative("s0");
    return force;
}

/** Every setting of a map: its energy's, its contacts and its centres. */
void expectSameMap(const ContactMapForce& copy, const ContactMapForce& original) {
    expectSameEnergySettings(copy, original);
    expectSameContacts(copy, original);
    expectSameCenters(copy, original);
}

} // namespace

TEST(ContactMapSerialization, RoundTripPreservesEverySetting) {
    const ContactMapForce original = unusualMap();
    std::unique_ptr<ContactMapForce> copy = throughXml(original);
    ASSERT_NE(copy, nullptr);
    expectSameMap(*copy, original);
    ContactMapForce defaults;
    defaults.addContact(0, 1, 0.3);
    copy = throughXml(defaults);
    ASSERT_NE(copy, nullptr);
    expectSameMap(*copy, defaults);
}

TEST(ContactMapSerialization, ALoadedSystemGivesTheSameNumbers) {
    const Box box = Box::triclinic();
    const vector<Vec3> positions = randomPositions(4, box, 3);
    ContactMapContext original(unusualMap(), positions, box);
    ReloadedContext reloaded(original, positions);
    const int flags = OpenMM::State::Energy | OpenMM::State::Forces | OpenMM::State::ParameterDerivatives;
    const OpenMM::State loaded = reloaded.getContext().getState(flags, false, 1 << 5);
    const OpenMM::State expected = original.getContext().getState(flags, false, 1 << 5);
    EXPECT_NE(expected.getPotentialEnergy(), 0.0);
    EXPECT_EQ(loaded.getPotentialEnergy(), expected.getPotentialEnergy());
    EXPECT_EQ(loaded.getEnergyParameterDerivatives().at("s0"), expected.getEnergyParameterDerivatives().at("s0"));
    expectForcesNear(loaded.getForces(), expected.getForces(), Tolerance::Exact);
}

TEST(ContactMapSerialization, MalformedXmlIsRefusedWithAnOpenMMException) {
    const string xml = xmlOf(unusualMap());
    const vector<std::pair<string, string>> edits = {
        {"version=\"1\"", "version=\"2\""},          // a version this plugin does not read
        {"version=\"1\"", "version=\"x\""},          // not a number
        {"reduction=\"2\"", "reduction=\"7\""},      // no such reduction
        {"particle1=\"0\"", "particle1=\"9999999999\""}, // beyond an int
        {"type=\"7\"", "type=\"12\""},               // no such switching function
        {"weighting=\"2\"", "weighting=\"5\""},      // no such weighting
        {" r0=\"", " radius=\""},                     // a missing attribute
        {"<Shape>", "<Form>"},                        // a missing element
        {"<Value ", "<Number "}};                     // a foreign element in a list
    for (size_t i = 0; i < edits.size(); i++) {
        SCOPED_TRACE(edits[i].first + " -> " + edits[i].second);
        EXPECT_THROW(forceFromXml(edited(xml, edits[i].first, edits[i].second)), OpenMM::OpenMMException);
    }
    const size_t cut = xml.rfind('>', xml.size() / 2);
    EXPECT_ANY_THROW(forceFromXml(xml.substr(0, cut + 1)));
}
