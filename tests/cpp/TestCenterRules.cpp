/*
 * Centres' rules: each setting a centre may not have refused once, at Context creation (or where it is set), with a
 * message that names the centre and the fix; the XML round trip of the centres; updateParametersInContext() of a
 * centre.
 */

#include "CenterScenario.h"
#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"
#include "SameSettings.h"
#include <memory>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

void expectCentreRefused(const std::function<void(CoordinationForce&)>& change, const std::vector<std::string>& words) {
    const Scenario scenario =
        scenarioOf("", Box::rectangular(), CoordinationForce::Dual, {}, {0, 1}, {2, 3}, centerSettings(1.0));
    CoordinationForce force = makeCenterForce(scenario);
    change(force);
    expectOpenMMExceptionMentioning([&]() { centerContext(force, scenario); }, words);
}

} // namespace

TEST(Centers, ACentreWithoutParticlesIsRefused) {
    expectCentreRefused([](CoordinationForce& f) { f.setGroupA({f.addCenter({})}); },
                        {"centre 0 (id -1)", "no particles"});
}

TEST(Centers, ACentreWithAParticleOutsideTheSystemIsRefused) {
    expectCentreRefused(
        [](CoordinationForce& f) {
            f.setGroupA({f.addCenter({0, 24})});
        },
        {"centre 0", "particle entry 1 is 24", "use indices 0 to 23"});
}

TEST(Centers, ANegativeEntryThatIsNoCentreIsRefused) {
    expectCentreRefused(
        [](CoordinationForce& f) {
            f.addCenter({0, 1});
            f.setGroupB({2, -2});
        },
        {"group B entry 1", "-2", "not the id of a centre", "ids -1 to -1"});
}

TEST(Centers, WeightsOfAnotherCountThanTheParticlesAreRefused) {
    expectCentreRefused(
        [](CoordinationForce& f) {
            f.setGroupA({f.addCenter({0, 1}, CoordinationForce::WeightedCenter, {1.0, 2.0, 3.0})});
        },
        {"centre 0", "2 particles but 3 weights"});
}

TEST(Centers, WeightsThatSumToZeroAreRefused) {
    expectCentreRefused(
        [](CoordinationForce& f) {
            f.setGroupA({f.addCenter({0, 1}, CoordinationForce::WeightedCenter, {1.5, -1.5})});
        },
        {"centre 0", "weights sum to 0"});
}

TEST(Centers, ACentreOfMasslessParticlesIsRefused) {
    const CoordinationForce force = makeCenterForce(scenarioOf("", Box::none(), CoordinationForce::Dual,
                                                               {center({0, 1}, CoordinationForce::CenterOfMass)},
                                                               {-1, 2}, {}, centerSettings(1.0)));
    expectOpenMMExceptionMentioning(
        [&]() {
            SystemContext({0.0, 0.0, 1.0}, Box::none(), {new CoordinationForce(force)}, ReferenceCase);
        },
        {"centre 0", "masses sum to 0"});
}

TEST(Centers, WeightsOnACentreThatIsNotWeightedAreRefused) {
    expectCentreRefused(
        [](CoordinationForce& f) {
            f.setGroupA({f.addCenter({0, 1}, CoordinationForce::CenterOfMass, {1.0, 2.0})});
        },
        {"centre 0", "has weights but is not a WeightedCenter"});
}

TEST(Centers, AnUnknownWeightingIsRefusedWhereItIsSet) {
    CoordinationForce force;
    expectOpenMMExceptionMentioning([&]() { force.addCenter({0}, (CoordinationForce::CenterWeighting)3); },
                                    {"unknown centre weighting 3"});
    EXPECT_EQ(force.getNumCenters(), 0);
}

TEST(Centers, XmlRoundTripKeepsEveryCentre) {
    CoordinationForce force;
    force.setMode(CoordinationForce::Dual);
    force.addCenter({3, 1, 4}, CoordinationForce::WeightedCenter, {0.25, 1.0 / 3.0, -2e-7}, false);
    force.addCenter({5, 9}, CoordinationForce::CenterOfMass);
    force.addCenter({2}, CoordinationForce::GeometricCenter, {}, false);
    force.setGroupA({-1, 0, -3});
    force.setGroupB({-2, 6});
    EXPECT_NE(xmlOf(force).find("version=\"3\""), std::string::npos);
    std::unique_ptr<CoordinationForce> copy = throughXml(force);
    ASSERT_NE(copy, nullptr);
    expectSameCoordinationSettings(*copy, force);
    ASSERT_EQ(copy->getNumCenters(), 3);
    expectSameCenters(*copy, force);
    // A CoordinationNumberForce's centres (its proxy's version 2; 3 adds the local step, 4 its neighbours).
    CoordinationNumberForce numbers("total");
    numbers.addReduction(CoordinationNumberForce::Sum, "", "total");
    numbers.addCenter({7, 8}, CoordinationForce::CenterOfMass);
    numbers.setMode(CoordinationForce::Dual);
    numbers.setGroupA({0, 1});
    numbers.setGroupB({-1, 2});
    EXPECT_NE(xmlOf(numbers).find("version=\"5\""), std::string::npos);
    std::unique_ptr<CoordinationNumberForce> numbersCopy = throughXml(numbers);
    ASSERT_NE(numbersCopy, nullptr);
    ASSERT_EQ(numbersCopy->getNumCenters(), 1);
    EXPECT_EQ(numbersCopy->getGroupB(), numbers.getGroupB());
}

TEST(Centers, XmlOfTheVersionsBeforeCentresIsStillRead) {
    // CoordinationForceProxy's version 2 and CoordinationNumberForceProxy's version 1 have no Centers node.
    auto older = [](const OpenMM::Force& force, const std::string& version, const std::string& olderVersion) {
        const std::string xml = edited(xmlOf(force), "version=\"" + version + "\"", "version=\"" + olderVersion + "\"");
        return forceFromXml(edited(xml, "<Centers/>", ""));
    };
    CoordinationForce force;
    force.setGroupA({0, 2, 5});
    force.setR0(0.41);
    std::unique_ptr<OpenMM::Force> read = older(force, "3", "2");
    ASSERT_NE(dynamic_cast<CoordinationForce*>(read.get()), nullptr);
    expectSameCoordinationSettings(dynamic_cast<CoordinationForce&>(*read), force);
    EXPECT_EQ(dynamic_cast<CoordinationForce&>(*read).getNumCenters(), 0);
    CoordinationNumberForce numbers("total");
    numbers.addReduction(CoordinationNumberForce::Sum, "", "total");
    numbers.setGroupA({1, 3});
    // Version 1 has no Centers node, nor version 3's local step (the localStep attribute, the LocalSwitching node),
    // nor version 4's local neighbours (the LocalNeighbors node), nor version 5's partners (LocalNeighborPartners).
    std::string numbersXml = edited(edited(xmlOf(numbers), "<LocalNeighbors/>", ""), "<LocalNeighborPartners/>", "");
    const size_t localSwitching = numbersXml.find("<LocalSwitching");
    ASSERT_NE(localSwitching, std::string::npos);
    numbersXml.erase(localSwitching, numbersXml.find("/>", localSwitching) + 2 - localSwitching);
    numbersXml = edited(edited(numbersXml, " localStep=\"0\"", ""), "version=\"5\"", "version=\"1\"");
    std::unique_ptr<OpenMM::Force> numbersRead = forceFromXml(edited(numbersXml, "<Centers/>", ""));
    ASSERT_NE(dynamic_cast<CoordinationNumberForce*>(numbersRead.get()), nullptr);
    EXPECT_EQ(dynamic_cast<CoordinationNumberForce&>(*numbersRead).getGroupA(), numbers.getGroupA());
    EXPECT_EQ(dynamic_cast<CoordinationNumberForce&>(*numbersRead).getNumReductions(), 1);
}

TEST(Centers, UpdateParametersInContextChangesACentre) {
    Scenario scenario = scenarioOf("before", Box::rectangular(), CoordinationForce::Dual,
                                   {center({0, 1, 2, 3}, CoordinationForce::CenterOfMass)}, {-1, 8}, indices(7, 9),
                                   centerSettings(1.1));
    CoordinationContext system = centerContext(makeCenterForce(scenario), scenario);
    const std::vector<Vec3> positions = scenarioPositions(scenario, 11);
    system.getContext().setPositions(positions);
    const double before = system.getForce().getCoordination(system.getContext());
    expectRelativelyNear(before, scenarioBruteForce(scenario, explicitOf(scenario, positions)).s,
                         Tolerance::Coordination, "before");
    // Other particles, weights and no whole-making: the same Context gives the new centre's s and forces.
    scenario.centers[0] = center({0, 1, 2, 4, 5}, CoordinationForce::WeightedCenter, false, {1.0, 0.5, 2.0, 1.0, 0.25});
    const CenterSpec& changed = scenario.centers[0];
    system.getForce().setCenterParameters(0, changed.particles, changed.weighting, changed.weights, changed.makeWhole);
    system.getForce().updateParametersInContext(system.getContext());
    const BruteForce::Coordination expected = scenarioBruteForce(scenario, explicitOf(scenario, positions));
    expectRelativelyNear(system.getForce().getCoordination(system.getContext()), expected.s, Tolerance::Coordination,
                         "after");
    EXPECT_GT(std::fabs(expected.s - before), 1e-3) << "the change should move s";
    double dEnergyDs;
    scenarioEnergy(expected.s, dEnergyDs);
    const OpenMM::State state = system.getContext().getState(OpenMM::State::Forces);
    expectForcesNear(state.getForces(), expectedForces(scenario, expected, dEnergyDs), Tolerance::ForceRelativeToRms,
                     Tolerance::ForceResolution);
}
