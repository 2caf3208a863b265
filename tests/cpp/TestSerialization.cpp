/*
 * XML serialization: a round trip keeps every setting and the energy; malformed XML is rejected.
 */

#include "CoordinationTestUtilities.h"
#include "SameSettings.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

/** A force with every setting away from its default; dmax is the one setting varied by the tests. */
CoordinationForce unusualForce(double dmax) {
    CoordinationForce force("0.5*k*(s-s0)^2 + lambda*s");
    force.setMode(CoordinationForce::Dual);
    force.setGroupA({0, 3, 3, 5});
    force.setGroupB({1, 2, 3, 4, 6});
    force.setR0(0.37);
    force.setN(5);
    force.setM(11);
    force.setD0(0.05);
    force.setDMax(dmax);
    force.setStretch(false);
    force.setUsesPeriodicBoundaryConditions(true);
    force.addGlobalParameter("k", 12.5);
    force.addGlobalParameter("s0", 1.0 / 3.0);
    force.addGlobalParameter("lambda", -2e-7);
    force.setForceGroup(7);
    force.setName("coordination restraint");
    return force;
}

/** The same settings: the energy's, the pair-switching ones, the force group and the name. */
void expectSameSettings(const CoordinationForce& copy, const CoordinationForce& original) {
    expectSameEnergySettings(copy, original);
    expectSameCoordinationSettings(copy, original);
}

} // namespace

TEST(Serialization, RoundTripPreservesEverySetting) {
    for (double dmax : {0.0, 1.25, Infinity}) {
        SCOPED_TRACE("dmax = " + std::to_string(dmax));
        CoordinationForce original = unusualForce(dmax);
        std::unique_ptr<CoordinationForce> copy = throughXml(original);
        ASSERT_NE(copy, nullptr);
        expectSameSettings(*copy, original);
    }
    // The defaults, Self and Pair modes, and no global parameters.
    CoordinationForce defaults;
    defaults.setGroupA({2, 2});
    CoordinationForce pair = defaults;
    pair.setMode(CoordinationForce::Pair);
    pair.setGroupB({0, 1});
    for (const CoordinationForce& original : {defaults, pair}) {
        std::unique_ptr<CoordinationForce> copy = throughXml(original);
        ASSERT_NE(copy, nullptr);
        expectSameSettings(*copy, original);
    }
}

TEST(Serialization, DeserializedSystemGivesTheSameEnergy) {
    const Box box = Box::triclinic();
    const std::vector<Vec3> positions = randomPositions(8, box, 21);
    for (double dmax : {0.0, 1.25, Infinity}) {
        SCOPED_TRACE("dmax = " + std::to_string(dmax));
        CoordinationForce original = unusualForce(dmax);
        CoordinationContext system(original, positions, box);
        ReloadedContext reloaded(system, positions);
        ASSERT_EQ(reloaded.getSystem().getNumForces(), 1);
        OpenMM::State state =
            reloaded.getContext().getState(OpenMM::State::Energy | OpenMM::State::Forces, false, 1 << 7);
        Evaluation expected = system.evaluate(1 << 7);
        EXPECT_NE(expected.energy, 0.0);
        EXPECT_EQ(state.getPotentialEnergy(), expected.energy);
        expectForcesNear(state.getForces(), expected.forces, Tolerance::Exact);
    }
}

TEST(Serialization, TruncatedXmlIsRejected) {
    // Cut at a tag boundary: OpenMM's XML reader (irrXML) reads past the end of a document that ends
    // inside a tag, for any force (a crash or not depending on the memory after it), so only documents
    // cut between tags have a defined answer. Each cut below loses content the proxy needs.
    const std::string xml = xmlOf(unusualForce(1.25));
    for (size_t length : {xml.size() / 2, xml.size() / 4, (size_t)10, (size_t)0}) {
        const size_t lastTagEnd = (length == 0 ? std::string::npos : xml.rfind('>', length - 1));
        const size_t cut = (lastTagEnd == std::string::npos ? 0 : lastTagEnd + 1);
        EXPECT_ANY_THROW(forceFromXml(xml.substr(0, cut))) << "cut at " << cut;
    }
}

TEST(Serialization, MissingRequiredAttributeIsRejected) {
    const std::string xml = xmlOf(unusualForce(1.25));
    for (std::string attribute : {"r0", "mode", "energy", "stretch", "noCutoff"}) {
        SCOPED_TRACE(attribute);
        const std::string text = " " + attribute + "=\"";
        size_t start = xml.find(text);
        ASSERT_NE(start, std::string::npos);
        size_t end = xml.find('"', start + text.size());
        std::string withoutIt = xml.substr(0, start) + xml.substr(end + 1);
        EXPECT_THROW(forceFromXml(withoutIt), OpenMM::OpenMMException);
    }
}

TEST(Serialization, UnknownVersionIsRejected) {
    const std::string xml = edited(xmlOf(unusualForce(1.25)), "version=\"3\"", "version=\"99\"");
    expectOpenMMExceptionMentioning([&]() { forceFromXml(xml); }, {"version", "99"});
}

TEST(Serialization, UnknownModeIsRejected) {
    const std::string xml = edited(xmlOf(unusualForce(1.25)), "mode=\"1\"", "mode=\"7\"");
    expectOpenMMExceptionMentioning([&]() { forceFromXml(xml); }, {"mode", "7"});
}

TEST(Serialization, RejectingXmlLeavesTheSerializerWorking) {
    EXPECT_ANY_THROW(forceFromXml("<Force type=\"CoordinationForce\" version=\"1\""));
    CoordinationForce original = unusualForce(0.0);
    std::unique_ptr<CoordinationForce> copy = throughXml(original);
    ASSERT_NE(copy, nullptr);
    expectSameSettings(*copy, original);
}
