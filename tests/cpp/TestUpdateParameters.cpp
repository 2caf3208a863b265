/*
 * updateParametersInContext(): a Context updated in place computes what a new Context would; what it
 * cannot change (the energy expression, the global parameters) it refuses.
 */

#include "CoordinationTestUtilities.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

const int NumAtoms = 20;

CoordinationForce initialForce() {
    CoordinationForce force = makeForce(rationalSettings(0.35, 6, 0, 0.0, 0.0), CoordinationForce::Self, indices(8), {},
                                        "0.5*k*(s-s0)^2", true);
    force.addGlobalParameter("k", 4.0);
    force.addGlobalParameter("s0", 1.5);
    return force;
}

/** One change made to the force in the Context's System before calling updateParametersInContext(). */
struct Change {
    std::string name;
    std::function<void(CoordinationForce&)> apply;
};

std::vector<Change> changes() {
    return {
        {"LargerGroupA",
         [](CoordinationForce& f) {
             f.setGroupA({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
         }},
        {"SmallerGroupAWithARepeat",
         [](CoordinationForce& f) {
             f.setGroupA({3, 3, 9, 19});
         }},
        {"SelfToDual",
         [](CoordinationForce& f) {
             f.setMode(CoordinationForce::Dual);
             f.setGroupB({8, 9, 10, 11, 12, 13, 14, 15, 16});
         }},
        {"SelfToPair",
         [](CoordinationForce& f) {
             f.setMode(CoordinationForce::Pair);
             f.setGroupA({0, 2, 4, 6});
             f.setGroupB({1, 3, 5, 6});
         }},
        {"R0", [](CoordinationForce& f) { f.setR0(0.5); }},
        {"N", [](CoordinationForce& f) { f.setN(8); }},
        {"M", [](CoordinationForce& f) { f.setM(10); }},
        {"D0", [](CoordinationForce& f) { f.setD0(0.1); }},
        {"AutomaticToFiniteDMax", [](CoordinationForce& f) { f.setDMax(0.9); }},
        {"AutomaticToInfiniteDMax", [](CoordinationForce& f) { f.setDMax(Infinity); }},
        {"StretchOff", [](CoordinationForce& f) { f.setStretch(false); }},
        {"PeriodicOff", [](CoordinationForce& f) { f.setUsesPeriodicBoundaryConditions(false); }},
        {"EverythingAtOnce",
         [](CoordinationForce& f) {
             f.setMode(CoordinationForce::Dual);
             f.setGroupA({0, 1, 2});
             f.setGroupB({2, 3, 4, 5, 6, 7, 8});
             f.setR0(0.28);
             f.setN(5);
             f.setM(11);
             f.setD0(0.05);
             f.setDMax(1.1);
             f.setStretch(false);
             f.setUsesPeriodicBoundaryConditions(false);
         }},
    };
}

/** The same s and energy, bit for bit, and the same forces within Tolerance::Exact. */
void expectIdentical(const Evaluation& actual, const Evaluation& expected) {
    EXPECT_EQ(actual.s, expected.s);
    EXPECT_EQ(actual.energy, expected.energy);
    expectForcesNear(actual.forces, expected.forces, Tolerance::Exact);
}

/** A change of a setting in a Context of the initial force, in a periodic box. */
class UpdateParametersInContext : public ::testing::TestWithParam<Change> {
protected:
    /** Makes the change to the force in the Context's System and updates the Context. */
    void changeAndUpdate(CoordinationContext& system) {
        GetParam().apply(system.getForce());
        system.getForce().updateParametersInContext(system.getContext());
    }
    const Box box = Box::rectangular();
    const std::vector<Vec3> positions = randomPositions(NumAtoms, box, 17);
};

} // namespace

TEST_P(UpdateParametersInContext, GivesWhatANewContextGives) {
    CoordinationContext updated(initialForce(), positions, box);
    const Evaluation before = updated.evaluate();
    changeAndUpdate(updated);
    const Evaluation after = updated.evaluate();
    EXPECT_NE(after.s, before.s) << "the change should matter for this system";
    expectIdentical(after, CoordinationContext(updated.getForce(), positions, box).evaluate());
}

TEST_P(UpdateParametersInContext, CanBeUndone) {
    CoordinationContext system(initialForce(), positions, box);
    const Evaluation original = system.evaluate();
    changeAndUpdate(system);
    system.getForce() = initialForce();
    system.getForce().updateParametersInContext(system.getContext());
    expectIdentical(system.evaluate(), original);
}

INSTANTIATE_TEST_SUITE_P(EachSetting, UpdateParametersInContext, ::testing::ValuesIn(changes()),
                         [](const ::testing::TestParamInfo<Change>& info) { return info.param.name; });

TEST(UpdateParameters, ChangingTheEnergyExpressionThrows) {
    CoordinationContext system(initialForce(), randomPositions(NumAtoms, Box::rectangular(), 17), Box::rectangular());
    system.getForce().setEnergyFunction("k*(s-s0)^2");
    expectOpenMMExceptionMentioning([&]() { system.getForce().updateParametersInContext(system.getContext()); },
                                    {"energy expression"});
}

TEST(UpdateParameters, RenamingAGlobalParameterThrows) {
    CoordinationContext system(initialForce(), randomPositions(NumAtoms, Box::rectangular(), 17), Box::rectangular());
    system.getForce().setEnergyFunction("0.5*kappa*(s-s0)^2");
    system.getForce().setGlobalParameterName(0, "kappa");
    expectOpenMMExceptionMentioning([&]() { system.getForce().updateParametersInContext(system.getContext()); },
                                    {"updateParametersInContext"});
}

TEST(UpdateParameters, AddingAGlobalParameterThrows) {
    CoordinationContext system(initialForce(), randomPositions(NumAtoms, Box::rectangular(), 17), Box::rectangular());
    system.getForce().addGlobalParameter("unused", 1.0);
    expectOpenMMExceptionMentioning([&]() { system.getForce().updateParametersInContext(system.getContext()); },
                                    {"global parameters"});
}

TEST(UpdateParameters, InvalidSettingsThrowAndKeepThePreviousOnes) {
    const std::vector<Vec3> positions = randomPositions(NumAtoms, Box::rectangular(), 17);
    CoordinationContext system(initialForce(), positions, Box::rectangular());
    Evaluation before = system.evaluate();
    system.getForce().setGroupA({0, 1, NumAtoms});
    expectOpenMMExceptionMentioning([&]() { system.getForce().updateParametersInContext(system.getContext()); },
                                    {"group A", std::to_string(NumAtoms)});
    system.getForce().setGroupA({0, 1, 2});
    system.getForce().setR0(-1.0);
    expectOpenMMExceptionMentioning([&]() { system.getForce().updateParametersInContext(system.getContext()); },
                                    {"r0"});
    Evaluation after = system.evaluate();
    EXPECT_EQ(after.s, before.s);
    EXPECT_EQ(after.energy, before.energy);
}

TEST(UpdateParameters, TurningPeriodicBoundaryConditionsOn) {
    const Box box = Box::triclinic();
    const std::vector<Vec3> positions = randomPositions(NumAtoms, box, 17);
    CoordinationForce nonPeriodic = initialForce();
    nonPeriodic.setUsesPeriodicBoundaryConditions(false);
    CoordinationContext updated(nonPeriodic, positions, box);
    Evaluation before = updated.evaluate();
    updated.getForce().setUsesPeriodicBoundaryConditions(true);
    updated.getForce().updateParametersInContext(updated.getContext());
    Evaluation after = updated.evaluate();
    Evaluation fresh = CoordinationContext(updated.getForce(), positions, box).evaluate();
    EXPECT_NE(after.s, before.s);
    expectIdentical(after, fresh);
}

TEST(UpdateParameters, ReinitializeAppliesANewEnergyExpression) {
    // The exception's advice works: Context::reinitialize() picks up the new expression and parameters.
    const std::vector<Vec3> positions = randomPositions(NumAtoms, Box::rectangular(), 17);
    CoordinationContext system(initialForce(), positions, Box::rectangular());
    const double s = system.evaluate().s;
    system.getForce().setEnergyFunction("c*s^2");
    system.getForce().addGlobalParameter("c", 0.5);
    EXPECT_THROW(system.getForce().updateParametersInContext(system.getContext()), OpenMM::OpenMMException);
    system.getContext().reinitialize(true);
    Evaluation result = system.evaluate();
    EXPECT_NEAR(result.energy, 0.5 * s * s, Tolerance::Exact * std::max(1.0, s * s));
    EXPECT_EQ(result.s, s);
}
