/*
 * Settings at their extremes: every integer setting has a bound that its setter enforces (and the XML and
 * PLUMED readers with it), indices out of range are OpenMMExceptions that name the index and the valid
 * range, and PLUMED input is checked for what the force would refuse when it is read, not later.
 */

#include "CoordinationTestUtilities.h"
#include "PlumedTestSupport.h"
#include "PlumedTranslator.h"
#include "SameSettings.h"
#include <climits>
#include <memory>
#include <sstream>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

const int Max = CoordinationForce::MaxExponent;

} // namespace

TEST(SettingBounds, ExponentsUpToMaxExponentAreStoredAndTwiceNStillFits) {
    CoordinationForce force;
    force.setN(Max);
    EXPECT_EQ(force.getN(), Max);
    EXPECT_EQ(force.getEffectiveM(), 2 * Max); // m = 0 means 2n: no overflow at the bound
    force.setM(Max);
    EXPECT_EQ(force.getM(), Max);
    force.setSmapExponents(Max, 1);
    EXPECT_EQ(force.getSmapA(), Max);
    force.setSmapExponents(0, 0); // unset again
    EXPECT_EQ(force.getSmapA(), 0);
}

TEST(SettingBounds, ExponentsOutsideTheirRangeAreRefusedBySetNSetMAndSetSmapExponents) {
    CoordinationForce force;
    for (int n : {Max + 1, INT_MAX, 1500000000, 0, -2, INT_MIN}) {
        SCOPED_TRACE(n);
        expectOpenMMExceptionMentioning([&] { force.setN(n); },
                                        {"setN", "n must be >= 1", "<= 16777216", "got " + std::to_string(n)});
    }
    EXPECT_EQ(force.getN(), 6); // unchanged
    for (int m : {Max + 1, INT_MAX, -1, INT_MIN}) {
        SCOPED_TRACE(m);
        expectOpenMMExceptionMentioning([&] { force.setM(m); },
                                        {"setM", "m must be >= 0", "<= 16777216", "got " + std::to_string(m)});
    }
    EXPECT_EQ(force.getEffectiveM(), 12);
    expectOpenMMExceptionMentioning([&] { force.setSmapExponents(0, 2); },
                                    {"setSmapExponents", "a must be >= 1", "got 0"});
    expectOpenMMExceptionMentioning([&] { force.setSmapExponents(6, -1); },
                                    {"setSmapExponents", "b must be >= 1", "got -1"});
    expectOpenMMExceptionMentioning([&] { force.setSmapExponents(INT_MAX, 2); }, {"a", "<= 16777216", "2147483647"});
}

TEST(SettingBounds, AnIndexOutOfRangeNamesTheIndexAndTheValidRange) {
    CoordinationForce force("k*s");
    force.addGlobalParameter("k", 1.0);
    const std::vector<std::string> oneParameter = {"index 7 is out of range", "1 global parameter", "0 to 0"};
    expectOpenMMExceptionMentioning([&] { force.getGlobalParameterName(7); }, oneParameter);
    expectOpenMMExceptionMentioning([&] { force.setGlobalParameterName(7, "q"); }, oneParameter);
    expectOpenMMExceptionMentioning([&] { force.getGlobalParameterDefaultValue(7); }, oneParameter);
    expectOpenMMExceptionMentioning([&] { force.setGlobalParameterDefaultValue(7, 1.0); }, oneParameter);
    expectOpenMMExceptionMentioning([&] { force.getGlobalParameterName(-1); }, {"getGlobalParameterName", "index -1"});
    expectOpenMMExceptionMentioning([&] { force.getEnergyParameterDerivativeName(0); },
                                    {"getEnergyParameterDerivativeName", "index 0", "no energy parameter derivatives"});
}

TEST(SettingBounds, AnAtomIndexOutsideTheSystemNamesTheEntryAndTheAtom) {
    CoordinationForce force;
    force.setGroupA({0, INT_MIN});
    expectOpenMMExceptionMentioning(
        [&] {
            CoordinationContext context(force, {Vec3(0, 0, 0), Vec3(0.3, 0, 0)});
        },
        {"group A entry 1", std::to_string(INT_MIN), "0 to 1"});
    force.setGroupA({INT_MAX, 1});
    expectOpenMMExceptionMentioning(
        [&] {
            CoordinationContext context(force, {Vec3(0, 0, 0), Vec3(0.3, 0, 0)});
        },
        {"group A entry 0", std::to_string(INT_MAX), "0 to 1"});
}

TEST(SettingBounds, XmlWithAnExponentOutOfRangeIsRefusedWithTheSettersMessage) {
    CoordinationForce force;
    force.setGroupA({0, 1});
    const std::string xml = xmlOf(force);
    expectOpenMMExceptionMentioning([&] { forceFromXml(withProperty(xml, "n", "2147483647")); },
                                    {"XML's n", "<= 16777216", "2147483647"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(withProperty(xml, "m", "-1")); }, {"XML's m", "m must be >= 0"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(withProperty(xml, "n", "99999999999")); },
                                    {"XML's n", "\"99999999999\"", "not an integer from"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(withProperty(xml, "smapA", "3")); },
                                    {"XML's smapA and smapB", "b must be >= 1"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(withProperty(xml, "index", "4294967296")); },
                                    {"GroupA entry 0", "4294967296"});
    EXPECT_EQ(dynamic_cast<CoordinationForce&>(*forceFromXml(xml)).getSmapA(), 0); // the unset default reads back
}

TEST(SettingBounds, PlumedExponentsOutOfRangeAreRefusedWhenRead) {
    expectOpenMMExceptionMentioning(
        [] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1-4 R_0=0.3 NN=2147483647"); },
        {"PLUMED input:", "NN=2147483647 is out of range", "1 to 16777216", "(in \"c:"});
    expectOpenMMExceptionMentioning(
        [] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1-4 R_0=0.3 NN=99999999999"); },
        {"NN=99999999999 is out of range"});
    expectOpenMMExceptionMentioning([] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1-4 R_0=0.3 NN=0"); },
                                    {"NN=0", "1 to"});
    expectOpenMMExceptionMentioning([] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1-4 R_0=0.3 MM=-1"); },
                                    {"MM=-1", "0 to"});
    expectOpenMMExceptionMentioning(
        [] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1-4 SWITCH={SMAP R_0=0.3 A=0 B=2}"); },
        {"A=0 is out of range"});
    EXPECT_EQ(fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1-4 R_0=0.3 NN=16777216")->getN(), Max);
}

TEST(SettingBounds, PlumedSettingsTheForceWouldRefuseAreRefusedWhenRead) {
    const std::string fourAtoms = "c: COORDINATION GROUPA=1-4 ";
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {fourAtoms + "R_0=0.3 D_0=-1", {"D_0=-1 must be >= 0"}},
        {fourAtoms + "R_0=0 ", {"R_0=0 must be > 0"}},
        {fourAtoms + "R_0=0.3 NN=6 MM=6", {"NN=6 and MM=6 must differ"}},
        {fourAtoms + "NN=6 MM=6 R_0=0.3", {"NN=6 and MM=6 must differ"}},
        {fourAtoms + "SWITCH={RATIONAL R_0=0.3 NN=3 MM=3}", {"NN=3 and MM=3 must differ"}},
        {fourAtoms + "SWITCH={CUSTOM FUNC=garbage(( R_0=0.3}", {"garbage((", "cannot be parsed"}},
        {fourAtoms + "SWITCH={CUSTOM FUNC=exp(-r) R_0=0.3}", {"\"r\""}},
        {fourAtoms + "SWITCH={EXP R_0=0.3 D_0=0.5 D_MAX=0.4}", {"D_MAX=0.4 must be larger than D_0=0.5"}},
        {fourAtoms + "SWITCH={CUBIC D_MAX=0}", {"D_MAX=0 must be larger than D_0"}},
        {fourAtoms + "SWITCH={Q R_0=0.3 REF=-0.1}", {"REF=-0.1 must be > 0"}},
        {fourAtoms + "SWITCH={Q R_0=0.3 REF=0.3 BETA=-5}", {"BETA=-5", "must be > 0"}},
        {"c: COORDINATION GROUPA=1-3 GROUPB=4,5 PAIR R_0=0.3", {"PAIR", "GROUPA has 3 atoms and GROUPB has 2"}},
    };
    for (const auto& entry : cases) {
        SCOPED_TRACE(entry.first);
        std::vector<std::string> words = entry.second;
        words.push_back("PLUMED input:");
        words.push_back("(in \"c: COORDINATION");
        expectOpenMMExceptionMentioning([&] { fromPlumed<CoordinationForce>(entry.first); }, words);
    }
}

TEST(SettingBounds, PlumedAtomNumbersNamesWhatIsWrongWithThem) {
    expectOpenMMExceptionMentioning([] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=-3 R_0=0.3"); },
                                    {"GROUPA: -3 is a negative atom number", "PLUMED numbers atoms from 1"});
    expectOpenMMExceptionMentioning([] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=2,-3 R_0=0.3"); },
                                    {"-3 is a negative atom number"});
    expectOpenMMExceptionMentioning([] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1--3 R_0=0.3"); },
                                    {"ends at a negative atom number"});
    expectOpenMMExceptionMentioning(
        [] { fromPlumed<CoordinationForce>("c: COORDINATION GROUPA=1,99999999999 R_0=0.3"); },
        {"GROUPA=99999999999 is out of range", "2147483647"});
}

TEST(SettingBounds, ANulByteInPlumedInputIsNamedWithItsPosition) {
    const std::string input = std::string("c: COORDINATION GROUPA=1-4 R_0=0.3") + '\0' + " NN=8";
    expectOpenMMExceptionMentioning([&] { fromPlumed<CoordinationForce>(input); },
                                    {"PLUMED input: a NUL byte at position 34"});
    std::vector<std::string> skipped;
    expectOpenMMExceptionMentioning(
        [&] { PlumedTranslator::fromPlumedFile(std::string("plumed.dat") + '\0' + "x", skipped); },
        {"a NUL byte at position 10"});
}

TEST(SettingBounds, ToPlumedRefusesSettingsThatWouldNotReadBack) {
    CoordinationForce force;
    force.setGroupA({0, 1, 2});
    force.setD0(-1.0);
    expectOpenMMExceptionMentioning([&] { force.toPlumed(); }, {"PLUMED input: toPlumed cannot write", "d0"});
    force.setD0(0.0);
    force.setM(6);
    expectOpenMMExceptionMentioning([&] { force.toPlumed(); }, {"toPlumed", "n and m must differ"});
    force.setM(0);
    force.setCustomSwitchingFunction("garbage((");
    expectOpenMMExceptionMentioning([&] { force.toPlumed(); }, {"toPlumed", "garbage(("});
    force.setCustomSwitchingFunction("exp(-x)");
    EXPECT_EQ(fromPlumed<CoordinationForce>(force.toPlumed())->getCustomSwitchingFunction(), "exp(-x)");
}
