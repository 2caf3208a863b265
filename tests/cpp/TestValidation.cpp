/*
 * Invalid settings are rejected with an OpenMMException when the Context is created (or by the setter),
 * with a message that names the problem; nothing is left broken afterwards.
 */

#include "CoordinationTestUtilities.h"
#include <cmath>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

const double NaN = std::numeric_limits<double>::quiet_NaN();

/** Four particles; a force over them that is valid until a case breaks one setting. */
const std::vector<Vec3> FourAtoms = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.3, 0), Vec3(0, 0, 0.3)};

CoordinationForce validForce() {
    CoordinationForce force("0.5*k*(s-s0)^2");
    force.setGroupA({0, 1, 2, 3});
    force.addGlobalParameter("k", 1.0);
    force.addGlobalParameter("s0", 1.0);
    return force;
}

void dual(CoordinationForce& force, const std::vector<int>& groupA, const std::vector<int>& groupB) {
    force.setMode(CoordinationForce::Dual);
    force.setGroupA(groupA);
    force.setGroupB(groupB);
}

/** One invalid setting: what it is (the test's name), how to make it, and words its message must contain. */
struct InvalidSetting {
    std::string rule;
    std::function<void(CoordinationForce&)> breakForce;
    std::vector<std::string> expectedWords;
};

std::vector<InvalidSetting> invalidSettings() {
    // A table: one line per rule.
    // clang-format off
    return {
        {"NegativeAtomIndexInGroupA", [](CoordinationForce& f) { f.setGroupA({0, -1, 2}); }, {"group A", "-1"}},
        {"AtomIndexPastTheEndInGroupA",
         [](CoordinationForce& f) { f.setGroupA({0, 4}); }, {"group A", "4", "particles"}},
        {"NegativeAtomIndexInGroupB", [](CoordinationForce& f) { dual(f, {0}, {1, -3}); }, {"group B", "-3"}},
        {"AtomIndexPastTheEndInGroupB", [](CoordinationForce& f) { dual(f, {0}, {1, 100}); }, {"group B", "100"}},
        {"EmptyGroupA", [](CoordinationForce& f) { f.setGroupA({}); }, {"group A", "empty"}},
        {"DualModeWithEmptyGroupB", [](CoordinationForce& f) { dual(f, {0, 1}, {}); }, {"Dual", "group B"}},
        {"SelfModeWithNonEmptyGroupB", [](CoordinationForce& f) { f.setGroupB({1}); }, {"Self", "group B"}},
        {"PairModeWithGroupsOfDifferentLengths",
         [](CoordinationForce& f) {
             f.setMode(CoordinationForce::Pair);
             f.setGroupA({0, 1, 2});
             f.setGroupB({3, 2});
         },
         {"Pair", "same length"}},
        {"ZeroR0", [](CoordinationForce& f) { f.setR0(0.0); }, {"r0", "> 0"}},
        {"NegativeR0", [](CoordinationForce& f) { f.setR0(-0.3); }, {"r0", "-0.3"}},
        {"NaNR0", [](CoordinationForce& f) { f.setR0(NaN); }, {"r0", "nan"}},
        {"InfiniteR0", [](CoordinationForce& f) { f.setR0(Infinity); }, {"r0", "finite"}},
        {"EqualExponents", [](CoordinationForce& f) { f.setN(6); f.setM(6); }, {"differ", "6"}},
        {"NegativeD0", [](CoordinationForce& f) { f.setD0(-0.1); }, {"d0", ">= 0"}},
        {"NaND0", [](CoordinationForce& f) { f.setD0(NaN); }, {"d0"}},
        {"DMaxEqualToD0", [](CoordinationForce& f) { f.setD0(0.2); f.setDMax(0.2); }, {"dmax", "d0"}},
        {"DMaxBelowD0", [](CoordinationForce& f) { f.setD0(0.2); f.setDMax(0.1); }, {"dmax", "larger than d0"}},
        {"NegativeDMax", [](CoordinationForce& f) { f.setDMax(-1.0); }, {"dmax", "-1"}},
        {"StretchWithDMaxSoCloseToD0ThatSigmaIsOneThere",
         [](CoordinationForce& f) { f.setD0(0.2); f.setDMax(0.2000001); }, {"stretch", "dmax", "setStretch(false)"}},
        // Constants that would overflow a double (the GPU platforms print them into kernel source).
        {"R0BelowItsBound", [](CoordinationForce& f) { f.setR0(1e-301); }, {"r0", "1e-301", "1e-300"}},
        {"SmapExponentsWhose2PowerOverflows",
         [](CoordinationForce& f) {
             f.setSwitchingFunction(CoordinationForce::Smap);
             f.setSmapExponents(1000000, 1);
         },
         {"Smap", "a = 1000000", "b = 1", "at most 1000"}},
        {"CustomOfX2WhoseInverseR0SquaredOverflows",
         [](CoordinationForce& f) {
             f.setCustomSwitchingFunction("1/(1+x2^3)");
             f.setR0(1e-200);
         },
         {"r0", "1e-200", "x2", "1e-150"}},
        {"CubicWithDMaxMinusD0Underflowing",
         [](CoordinationForce& f) {
             f.setSwitchingFunction(CoordinationForce::Cubic);
             f.setD0(1e-310);
             f.setDMax(2e-310);
         },
         {"Cubic", "dmax - d0", "1e-300"}},
        {"NativeQCentreOverflowing",
         [](CoordinationForce& f) {
             f.setSwitchingFunction(CoordinationForce::NativeQ);
             f.setNativeQParameters(50.0, 1e200, 1e200);
         },
         {"NativeQ", "lambda", "reference"}},
        {"NegativeInfiniteDMax", [](CoordinationForce& f) { f.setDMax(-Infinity); }, {"dmax"}},
        {"NaNDMax", [](CoordinationForce& f) { f.setDMax(NaN); }, {"dmax"}},
        {"UnparsableEnergy", [](CoordinationForce& f) { f.setEnergyFunction("s+"); }, {"parse", "s+"}},
        {"EnergyWithAnUnknownVariable",
         [](CoordinationForce& f) { f.setEnergyFunction("q*s"); },
         {"\"q\"", "addGlobalParameter"}},
        {"GlobalParameterDefinedTwice",
         [](CoordinationForce& f) { f.addGlobalParameter("k", 2.0); },
         {"\"k\"", "twice"}},
        {"GlobalParameterNamedS", [](CoordinationForce& f) { f.addGlobalParameter("s", 2.0); }, {"\"s\""}},
        {"GlobalParameterWithAnEmptyName",
         [](CoordinationForce& f) { f.setGlobalParameterName(1, ""); },
         {"empty name"}},
    };
    // clang-format on
}

class InvalidSettings : public ::testing::TestWithParam<InvalidSetting> {};

} // namespace

TEST_P(InvalidSettings, AreRejectedWhenTheContextIsCreated) {
    CoordinationForce force = validForce();
    GetParam().breakForce(force);
    expectOpenMMExceptionMentioning([&]() { CoordinationContext system(force, FourAtoms); }, GetParam().expectedWords);
    // The failed construction leaves nothing broken: a valid force still works in the same process.
    Evaluation result = CoordinationContext(validForce(), FourAtoms).evaluate();
    EXPECT_TRUE(std::isfinite(result.energy));
    EXPECT_GT(result.s, 0.0);
}

INSTANTIATE_TEST_SUITE_P(EveryRule, InvalidSettings, ::testing::ValuesIn(invalidSettings()),
                         [](const ::testing::TestParamInfo<InvalidSetting>& info) { return info.param.rule; });

TEST(Validation, UnknownModeIsRejectedBySetMode) {
    CoordinationForce force;
    expectOpenMMExceptionMentioning([&]() { force.setMode((CoordinationForce::Mode)7); }, {"mode", "7"});
    EXPECT_EQ(force.getMode(), CoordinationForce::Self);
}

TEST(Validation, GlobalParameterIndexOutOfRangeIsRejected) {
    CoordinationForce force = validForce();
    EXPECT_THROW(force.getGlobalParameterName(2), OpenMM::OpenMMException);
    EXPECT_THROW(force.getGlobalParameterDefaultValue(-1), OpenMM::OpenMMException);
    EXPECT_THROW(force.setGlobalParameterName(5, "x"), OpenMM::OpenMMException);
    EXPECT_THROW(force.setGlobalParameterDefaultValue(2, 1.0), OpenMM::OpenMMException);
}

TEST(Validation, LegalEdgeValuesAreAccepted) {
    // The boundaries of the rules are allowed: n = 1, m = 0 (2n), d0 = 0, dmax just above d0, no cutoff.
    for (auto adjust : std::vector<std::function<void(CoordinationForce&)>>{
             [](CoordinationForce& f) { f.setN(1); },
             [](CoordinationForce& f) { f.setM(0); },
             [](CoordinationForce& f) {
                 f.setD0(0.2);
                 f.setDMax(0.2000001);
                 f.setStretch(false);
             },
             [](CoordinationForce& f) { f.setDMax(Infinity); },
             [](CoordinationForce& f) { f.setEnergyFunction("5"); },
         }) {
        CoordinationForce force = validForce();
        adjust(force);
        EXPECT_NO_THROW(CoordinationContext(force, FourAtoms).evaluate());
    }
}
