/*
 * CoordinationNumberForce and PLUMED input: COORDINATIONNUMBER / COORDINATION_MOMENTS and their reductions (as
 * keywords and as PLUMED 2.10's separate actions), GROUP labels, toPlumed and the XML proxy.
 */

#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"
#include "PlumedTestSupport.h"
#include "PlumedTranslator.h"
#include "SameSettings.h"
#include "internal/plumed/PlumedAction.h"
#include "openmm/serialization/XmlSerializer.h"
#include <cmath>
#include <memory>
#include <sstream>

using namespace CoordinationPlugin;
using namespace CoordinationTest;

namespace {

typedef CoordinationNumberForce Numbers;

std::unique_ptr<Numbers> parse(const std::string& input) {
    std::unique_ptr<OpenMM::Force> force(PlumedTranslator::fromPlumed(input));
    auto* numbers = dynamic_cast<Numbers*>(force.get());
    EXPECT_NE(numbers, nullptr) << input;
    if (numbers != nullptr)
        force.release();
    return std::unique_ptr<Numbers>(numbers);
}

/**
 * The reductions as set, in words: "name: Type(parameters)" each (the name as the energy sees it, a default name
 * written out; no parentheses without parameters), separated by "; ".
 */
std::string reductions(const Numbers& force) {
    static const char* typeNames[] = {"Sum", "Mean",   "MoreThan", "LessThan", "Between", "Min",
                                      "Max", "AltMin", "Highest",  "Lowest",   "Moment"};
    std::string text;
    for (int i = 0; i < force.getNumReductions(); i++) {
        Numbers::ReductionType type;
        std::string parameters, name;
        force.getReductionParameters(i, type, parameters, name);
        text += (i == 0 ? "" : "; ") + force.getCollectiveVariableName(i) + ": " + typeNames[(int)type] +
                (parameters.empty() ? "" : "(" + parameters + ")");
    }
    return text;
}

void expectSameNumberSettings(const Numbers& copy, const Numbers& original) {
    expectSameCoordinationSettings(copy, original);
    EXPECT_EQ(copy.getRPower(), original.getRPower());
    EXPECT_EQ(reductions(copy), reductions(original));
    EXPECT_EQ(copy.getLocalStep(), original.getLocalStep());
    EXPECT_TRUE(copy.getLocalSwitchingSettings() == original.getLocalSwitchingSettings());
    EXPECT_EQ(copy.getLocalNeighbors(), original.getLocalNeighbors());
}

/** A force with every setting away from its default and one reduction of each type. */
Numbers unusualForce() {
    Numbers force("2*sum + k*between_1");
    force.setMode(CoordinationForce::Dual);
    force.setGroupA({0, 2, 4});
    force.setGroupB({1, 3, 5, 6});
    force.setSwitchingFunction(CoordinationForce::Exponential);
    force.setR0(0.31);
    force.setD0(0.02);
    force.setDMax(1.5);
    force.setStretch(false);
    force.setUsesPeriodicBoundaryConditions(false);
    force.setRPower(1.5);
    force.addGlobalParameter("k", 0.25);
    force.setForceGroup(3);
    force.setName("numbers");
    force.addReduction(Numbers::Sum);
    force.addReduction(Numbers::Mean);
    force.addReduction(Numbers::MoreThan, "EXP R_0=4.0");
    force.addReduction(Numbers::LessThan, "RATIONAL R_0=2 D_MAX=5", "lessthan_1");
    force.addReduction(Numbers::Between, "GAUSSIAN LOWER=1 UPPER=2 SMEAR=0.25", "between_1");
    force.addReduction(Numbers::Min, "BETA=0.5");
    force.addReduction(Numbers::Max, "BETA=0.5");
    force.addReduction(Numbers::AltMin, "BETA=2");
    force.addReduction(Numbers::Highest);
    force.addReduction(Numbers::Lowest);
    force.addReduction(Numbers::Moment, "2");
    force.addReduction(Numbers::Moment, "3");
    return force;
}

} // namespace

TEST(CoordinationNumberInput, SpeciesIsSelfModeWithTheSwitchOfAnyType) {
    auto force = parse("c2: COORDINATIONNUMBER SPECIES=1-5 SWITCH={EXP R_0=0.5 D_MAX=2}");
    EXPECT_EQ(force->getName(), "c2");
    EXPECT_EQ(force->getMode(), CoordinationForce::Self);
    EXPECT_EQ(force->getGroupA(), std::vector<int>({0, 1, 2, 3, 4}));
    EXPECT_TRUE(force->getGroupB().empty());
    EXPECT_EQ(force->getSwitchingFunction(), CoordinationForce::Exponential);
    EXPECT_EQ(force->getR0(), 0.5);
    EXPECT_EQ(force->getDMax(), 2.0);
    EXPECT_TRUE(force->usesPeriodicBoundaryConditions());
    EXPECT_EQ(force->getRPower(), 0.0);
    EXPECT_EQ(force->getNumReductions(), 0);
    EXPECT_EQ(force->getEnergyFunction(), "0");
}

TEST(CoordinationNumberInput, SpeciesAAndBIsDualModeAndTheKeywordFormIsStretchedWithAnAutomaticCutoff) {
    auto force = parse("c1: COORDINATIONNUMBER SPECIESA=1-5 SPECIESB=6 R_0=1.0 NN=8 MM=16 D_0=0.1 NOPBC LOWMEM");
    EXPECT_EQ(force->getMode(), CoordinationForce::Dual);
    EXPECT_EQ(force->getGroupA(), std::vector<int>({0, 1, 2, 3, 4}));
    EXPECT_EQ(force->getGroupB(), std::vector<int>({5}));
    // Rational, the automatic cutoff (dmax 0), stretched.
    EXPECT_EQ(force->getSwitchingSettings(), SwitchingSettings::rational(1.0, 8, 16, 0.1, 0.0));
    EXPECT_FALSE(force->usesPeriodicBoundaryConditions());
}

TEST(CoordinationNumberInput, CoordinationMomentsSetsTheRPower) {
    auto force = parse("cn2: COORDINATION_MOMENTS SPECIES=1-10 SWITCH={RATIONAL R_0=1.0 D_MAX=8} R_POWER=2 MEAN");
    EXPECT_EQ(force->getRPower(), 2.0);
    EXPECT_EQ(reductions(*force), "mean: Mean");
}

TEST(CoordinationNumberInput, UnitsScaleTheSwitchingFunctionsLengthsButNotTheReductionsSwitch) {
    auto force = parse("UNITS LENGTH=A\nc: COORDINATIONNUMBER SPECIES=1-3 SWITCH={RATIONAL R_0=3 D_MAX=8} "
                       "MORE_THAN={EXP R_0=4.0 D_MAX=6}");
    EXPECT_NEAR(force->getR0(), 0.3, 1e-16);
    EXPECT_NEAR(force->getDMax(), 0.8, 1e-16);
    EXPECT_EQ(reductions(*force), "morethan: MoreThan(EXP R_0=4.0 D_MAX=6)");
    auto keywordForm = parse("UNITS LENGTH=A\nc: COORDINATIONNUMBER SPECIES=1-3 R_0=3 D_0=1");
    EXPECT_NEAR(keywordForm->getR0(), 0.3, 1e-16);
    EXPECT_NEAR(keywordForm->getD0(), 0.1, 1e-16);
}

TEST(CoordinationNumberInput, EveryReductionKeywordBecomesAReductionInTheOrderOfTheLine) {
    auto force = parse("c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MOMENTS=2-3 LESS_THAN={RATIONAL R_0=2} "
                       "LESS_THAN1={EXP R_0=1} LESS_THAN2={EXP R_0=3} MORE_THAN={EXP R_0=4.0} MORE_THAN1={EXP R_0=5} "
                       "ALT_MIN={BETA=2} MIN={BETA=0.1} MAX={BETA=0.2} HIGHEST LOWEST SUM MEAN "
                       "BETWEEN={GAUSSIAN LOWER=1 UPPER=2 SMEAR=0.5} BETWEEN1={GAUSSIAN LOWER=2 UPPER=3}");
    const std::string expected = "moment_2: Moment(2); moment_3: Moment(3); lessthan: LessThan(RATIONAL R_0=2); "
                                 "lessthan_1: LessThan(EXP R_0=1); lessthan_2: LessThan(EXP R_0=3); "
                                 "morethan: MoreThan(EXP R_0=4.0); morethan_1: MoreThan(EXP R_0=5); "
                                 "altmin: AltMin(BETA=2); min: Min(BETA=0.1); max: Max(BETA=0.2); highest: Highest; "
                                 "lowest: Lowest; sum: Sum; mean: Mean; "
                                 "between: Between(GAUSSIAN LOWER=1 UPPER=2 SMEAR=0.5); "
                                 "between_1: Between(GAUSSIAN LOWER=2 UPPER=3)";
    EXPECT_EQ(reductions(*force), expected);
}

TEST(CoordinationNumberInput, MomentsTakesAListOfPowersAndRanges) {
    auto force = parse("c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MOMENTS=4,2-3");
    EXPECT_EQ(reductions(*force), "moment_4: Moment(4); moment_2: Moment(2); moment_3: Moment(3)");
}

TEST(CoordinationNumberInput, HistogramBecomesNumberedBetweenReductions) {
    auto force = parse("c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 HISTOGRAM={GAUSSIAN NBINS=2 LOWER=0 UPPER=4 SMEAR=0.25}");
    EXPECT_EQ(reductions(*force), "between_1: Between(GAUSSIAN LOWER=0 UPPER=2 SMEAR=0.25); "
                                  "between_2: Between(GAUSSIAN LOWER=2 UPPER=4 SMEAR=0.25)");
}

TEST(CoordinationNumberInput, SeparateFunctionActionsFoldIntoTheVectorsForceNamedByTheirLabels) {
    const std::string text = "c: COORDINATIONNUMBER SPECIESA=101-110 SPECIESB=1-100 R_0=3.0\n"
                             "mt: MORE_THAN ARG=c SWITCH={RATIONAL R_0=6.0 NN=6 MM=12 D_0=0}\n"
                             "s: SUM ARG=mt PERIODIC=NO\n"
                             "lt: LESS_THAN ARG=c SWITCH={EXP R_0=2}\n"
                             "n-lt: SUM ARG=lt PERIODIC=NO\n"
                             "bt: BETWEEN ARG=c SWITCH={GAUSSIAN LOWER=1 UPPER=2 SMEAR=0.5}\n"
                             "sb: SUM ARG=bt PERIODIC=NO\n"
                             "m: MEAN ARG=c PERIODIC=NO\n"
                             "s2: SUM ARG=c PERIODIC=NO\n"
                             "h: HIGHEST ARG=c\n"
                             "l: LOWEST ARG=c\n"
                             "mo: MOMENTS ARG=c POWERS=2,3\n"
                             "RESTRAINT ARG=s AT=1 KAPPA=10\n";
    auto forces = readPlumedFileSkipping(text, {"RESTRAINT"});
    ASSERT_EQ(forces.size(), 1u);
    auto* force = dynamic_cast<Numbers*>(forces[0].get());
    ASSERT_NE(force, nullptr);
    const std::string expected = "s: MoreThan(RATIONAL R_0=6.0 NN=6 MM=12 D_0=0); n_lt: LessThan(EXP R_0=2); "
                                 "sb: Between(GAUSSIAN LOWER=1 UPPER=2 SMEAR=0.5); m: Mean; s2: Sum; h: Highest; "
                                 "l: Lowest; mo_moment_2: Moment(2); mo_moment_3: Moment(3)";
    EXPECT_EQ(reductions(*force), expected);
}

TEST(CoordinationNumberInput, SeparateActionsKeywordFormsAreTheirSwitchesWritten) {
    const std::string text = "c: COORDINATIONNUMBER SPECIES=1-5 R_0=1\n"
                             "mt: MORE_THAN ARG=c R_0=6 NN=4 D_0=0.5\n"
                             "s: SUM ARG=mt PERIODIC=NO\n"
                             "bt: BETWEEN ARG=c LOWER=1 UPPER=2\n"
                             "sb: SUM ARG=bt PERIODIC=NO\n";
    auto force = parse(text); // every action is read: fromPlumed takes the whole input
    // PLUMED's keyword form: the rational function cut off where it is 1e-5 (at d0 + r0 * 1e-5^(1/(n-m))), stretched.
    const std::string dmax = plumedNumber(0.5 + 6 * std::pow(0.00001, 1.0 / (4 - 8)));
    EXPECT_EQ(reductions(*force), "s: MoreThan(RATIONAL R_0=6 NN=4 D_0=0.5 D_MAX=" + dmax +
                                      "); "
                                      "sb: Between(GAUSSIAN LOWER=1 UPPER=2)");
}

TEST(CoordinationNumberInput, FunctionsThatCannotBeFoldedStaySkipped) {
    const std::string text = "c: COORDINATIONNUMBER SPECIES=1-5 R_0=1\n"
                             "d: DISTANCE ATOMS=1,2\n"
                             "sd: SUM ARG=d PERIODIC=NO\n"
                             "mt: MORE_THAN ARG=c SWITCH={EXP R_0=4}\n"
                             "mm: MEAN ARG=mt PERIODIC=NO\n"
                             "two: SUM ARG=c,c PERIODIC=NO\n"
                             "SUM ARG=c PERIODIC=NO\n";
    // mt is read, but no SUM makes it a reduction: it is an action the translator did not turn into anything.
    auto forces =
        readPlumedFileSkipping(text, {"d: DISTANCE", "sd: SUM", "mt: MORE_THAN", "mm: MEAN", "two: SUM", "SUM"});
    ASSERT_EQ(forces.size(), 1u);
    EXPECT_EQ(dynamic_cast<Numbers&>(*forces[0]).getNumReductions(), 0);
}

TEST(CoordinationNumberInput, GroupLabelsWorkInEveryGroupKeywordAndAreNotSkipped) {
    const std::string text = "g1: GROUP ATOMS=1-4\n"
                             "g2: GROUP ATOMS=g1,9 REMOVE=2\n"
                             "g3: GROUP ATOMS=7,5,6,5 UNIQUE\n"
                             "a: COORDINATION GROUPA=g1 GROUPB=g2,20-21 R_0=1\n"
                             "b: COORDINATIONNUMBER SPECIES=g3 R_0=1\n"
                             "c: COORDINATIONNUMBER SPECIESA=g1 SPECIESB=g2 R_0=1\n"
                             "PRINT ARG=a FILE=COLVAR\n";
    auto forces = readPlumedFileSkipping(text, {"PRINT"});
    ASSERT_EQ(forces.size(), 3u);
    auto& a = dynamic_cast<CoordinationForce&>(*forces[0]);
    EXPECT_EQ(a.getGroupA(), std::vector<int>({0, 1, 2, 3}));
    EXPECT_EQ(a.getGroupB(), std::vector<int>({0, 2, 3, 8, 19, 20}));
    EXPECT_EQ(dynamic_cast<Numbers&>(*forces[1]).getGroupA(), std::vector<int>({4, 5, 6}));
    auto& c = dynamic_cast<Numbers&>(*forces[2]);
    EXPECT_EQ(c.getGroupA(), std::vector<int>({0, 1, 2, 3}));
    EXPECT_EQ(c.getGroupB(), std::vector<int>({0, 2, 3, 8}));
    // A group label in a single-action input.
    auto one = parse("g: GROUP ATOMS=3,1 SORT\nc: COORDINATIONNUMBER SPECIES=g R_0=1");
    EXPECT_EQ(one->getGroupA(), std::vector<int>({0, 2}));
}

TEST(CoordinationNumberInput, AnUndefinedGroupLabelSaysHowToDefineIt) {
    expectOpenMMExceptionMentioning([] { parse("c: COORDINATIONNUMBER SPECIES=g1 R_0=1"); },
                                    {"g1 is not an atom number, a range or the label of a GROUP, COM or CENTER action before this one",
                                     "g1: GROUP ATOMS=..."});
    // A label defined after its use is not yet known.
    expectOpenMMExceptionMentioning([] { readPlumedFile("c: COORDINATION GROUPA=g R_0=1\ng: GROUP ATOMS=1-3\n"); },
                                    {"g is not an atom number"});
    expectOpenMMExceptionMentioning([] { readPlumedFile("g: GROUP NDX_FILE=index.ndx\n"); }, {"NDX_FILE", "ATOMS="});
}

TEST(CoordinationNumberInput, BadInputNamesWhatToFix) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> bad = {
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 FOO=3", {"FOO is not a keyword CoordinationNumberForce understands in COORDINATIONNUMBER"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MASK=sphere", {"MASK is not supported", "remove MASK"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5", {"R_0 is required"}},
        {"c: COORDINATIONNUMBER R_0=1", {"SPECIES (or SPECIESA and SPECIESB) is required"}},
        {"c: COORDINATIONNUMBER SPECIESA=1-5 R_0=1", {"SPECIESA needs SPECIESB"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 SPECIESA=1 SPECIESB=2 R_0=1", {"give SPECIES (one group) or SPECIESA and SPECIESB"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MIN={BETA=0}", {"BETA must be a finite number other than 0"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MAX={BETA=x}", {"BETA=x is not a number"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MIN={}", {"MIN={} is empty; write MIN={BETA=0.1}"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MORE_THAN", {"MORE_THAN needs a value"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 SUM=1", {"SUM is a flag"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MORE_THAN={FOO R_0=1}", {"reduction \"morethan\"", "SWITCH type FOO"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 LESS_THAN2={EXP R_0=1}", {"LESS_THAN2 is given without LESS_THAN1"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 MOMENTS=1", {"MOMENTS=1 is out of range; use an integer from 2 to 64"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 BETWEEN1={GAUSSIAN LOWER=1 UPPER=2} HISTOGRAM={GAUSSIAN NBINS=2 LOWER=0 UPPER=1}",
         {"HISTOGRAM and BETWEEN1= both"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 R_POWER=2", {"R_POWER is not a keyword"}},
        {"c: COORDINATION_MOMENTS SPECIES=1-5 R_0=1", {"R_POWER is required in COORDINATION_MOMENTS"}},
        {"c: COORDINATION_MOMENTS SPECIES=1-5 R_0=1 R_POWER=-1", {"R power must be a finite number >= 0"}},
        {"UNITS LENGTH=A\nc: COORDINATION_MOMENTS SPECIES=1-5 R_0=1 R_POWER=1", {"R_POWER with UNITS LENGTH other than nm"}},
        {"c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 UNITS=A", {"UNITS is an action of its own"}},
    };
    expectEachRefused(bad, [](const std::string& input) { parse(input); });
}

TEST(CoordinationNumberInput, BadSeparateActionsNameWhatToFix) {
    const std::string vector = "c: COORDINATIONNUMBER SPECIES=1-5 R_0=1\n";
    const std::vector<std::pair<std::string, std::vector<std::string>>> bad = {
        {"mt: MORE_THAN ARG=c NN=6", {"R_0 is required (or give SWITCH={...})"}},
        {"mt: MORE_THAN ARG=c SWITCH={EXP R_0=1} SQUARED", {"SQUARED is not supported"}},
        {"mt: MORE_THAN ARG=c SWITCH={EXP R_0=-1}\ns: SUM ARG=mt", {"in \"mt: MORE_THAN"}},
        {"bt: BETWEEN ARG=c LOWER=1", {"BETWEEN needs LOWER= and UPPER="}},
        {"s: SUM ARG=c PERIODIC=0,1", {"write PERIODIC=NO"}},
        {"s: SUM ARG=c PERIODIC=NO FOO", {"FOO is not a keyword the PLUMED translator understands in SUM"}},
        {"mo: MOMENTS ARG=c", {"POWERS is required"}},
        {"sum: SUM ARG=c\nc_sum: MEAN ARG=c\nsum2: SUM ARG=c", {}},
    };
    for (const auto& entry : bad) {
        SCOPED_TRACE(entry.first);
        if (entry.second.empty())
            EXPECT_NO_THROW(readPlumedFile(vector + entry.first));
        else
            expectOpenMMExceptionMentioning([&] { readPlumedFile(vector + entry.first); }, entry.second);
    }
    // A folded name that another reduction has.
    expectOpenMMExceptionMentioning(
        [] { readPlumedFile("c: COORDINATIONNUMBER SPECIES=1-5 R_0=1 SUM\nsum: SUM ARG=c\n"); },
        {"another reduction has this name", "in \"sum: SUM ARG=c\""});
}

TEST(CoordinationNumberInput, ToPlumedWritesEveryReductionAsItsKeywordAndReadsBack) {
    Numbers force = unusualForce();
    const std::string line = force.toPlumed("x");
    EXPECT_EQ(line, "x: COORDINATION_MOMENTS SPECIESA=1,3,5 SPECIESB=2,4,6-7 R_POWER=1.5 NOPBC "
                    "SWITCH={EXP R_0=0.31 D_0=0.02 D_MAX=1.5 NOSTRETCH} SUM MEAN MORE_THAN={EXP R_0=4.0} "
                    "LESS_THAN1={RATIONAL R_0=2 D_MAX=5} BETWEEN1={GAUSSIAN LOWER=1 UPPER=2 SMEAR=0.25} MIN={BETA=0.5} "
                    "MAX={BETA=0.5} ALT_MIN={BETA=2} HIGHEST LOWEST MOMENTS=2,3");
    EXPECT_EQ(PlumedTranslator::toPlumed(force, "x"), line);
    expectSameNumberSettings(*parse(line), force);
}

TEST(CoordinationNumberInput, ToPlumedOfTheDefaultsAndTheKeywordFormReadsBack) {
    Numbers force;
    force.setGroupA({0, 1, 2});
    force.addReduction(Numbers::LessThan, " EXP R_0=4 ");
    const std::string line = force.toPlumed();
    EXPECT_EQ(line, "c: COORDINATIONNUMBER SPECIES=1-3 NOPBC R_0=0.3 NN=6 LESS_THAN={EXP R_0=4}");
    auto copy = parse(line);
    expectSameCoordinationSettings(*copy, force);
    EXPECT_EQ(copy->getRPower(), 0.0);
    EXPECT_EQ(reductions(*copy), "lessthan: LessThan(EXP R_0=4)");
}

TEST(CoordinationNumberInput, ToPlumedRefusesNamesPlumedDoesNotGive) {
    Numbers force;
    force.setGroupA({0, 1, 2});
    force.addReduction(Numbers::Sum, "", "total");
    expectOpenMMExceptionMentioning([&] { force.toPlumed(); },
                                    {"reduction \"total\" has a name PLUMED does not give it", "\"sum\""});
    Numbers gap;
    gap.setGroupA({0, 1, 2});
    gap.addReduction(Numbers::LessThan, "EXP R_0=1", "lessthan_2");
    expectOpenMMExceptionMentioning([&] { gap.toPlumed(); }, {"lessthan_2 without lessthan_1"});
    Numbers pair;
    pair.setMode(CoordinationForce::Pair);
    pair.setGroupA({0});
    pair.setGroupB({1});
    expectOpenMMExceptionMentioning([&] { pair.toPlumed(); }, {"Pair mode has no per-atom coordination numbers"});
}

TEST(CoordinationNumberInput, XmlRoundTripKeepsEverySetting) {
    Numbers original = unusualForce();
    std::unique_ptr<Numbers> numbers = throughXml(original);
    ASSERT_NE(numbers, nullptr);
    expectSameNumberSettings(*numbers, original);
    EXPECT_EQ(numbers->getEnergyFunction(), original.getEnergyFunction());
    EXPECT_EQ(numbers->getName(), "numbers");
    EXPECT_EQ(numbers->getForceGroup(), 3);
    ASSERT_EQ(numbers->getNumGlobalParameters(), 1);
    EXPECT_EQ(numbers->getGlobalParameterDefaultValue(0), 0.25);
    // The names as set, the defaults left empty.
    std::string parameters, name;
    Numbers::ReductionType type;
    numbers->getReductionParameters(0, type, parameters, name);
    EXPECT_EQ(name, "");
    Numbers defaults;
    defaults.setGroupA({1, 1});
    std::unique_ptr<Numbers> plain = throughXml(defaults);
    ASSERT_NE(plain, nullptr);
    expectSameNumberSettings(*plain, defaults);
    // The local step and its own switching function.
    Numbers local = unusualForce();
    local.setLocalStep(Numbers::LocalAverage);
    local.setLocalSwitchingSettings(SwitchingSettings(CoordinationForce::Gaussian, 0.4, 0.1, 2.0, false));
    local.setLocalNeighbors({4, -1, 4, 0});
    local.setLocalNeighborPartners({1, -1, 1});
    std::unique_ptr<Numbers> localCopy = throughXml(local);
    ASSERT_NE(localCopy, nullptr);
    expectSameNumberSettings(*localCopy, local);
    EXPECT_EQ(localCopy->getLocalStep(), Numbers::LocalAverage);
    EXPECT_EQ(localCopy->getLocalNeighbors(), local.getLocalNeighbors());
    EXPECT_EQ(localCopy->getLocalNeighborPartners(), local.getLocalNeighborPartners());
}

TEST(CoordinationNumberInput, MalformedXmlIsRejected) {
    const std::string xml = xmlOf(unusualForce());
    expectOpenMMExceptionMentioning([&] { forceFromXml(edited(xml, "version=\"5\"", "version=\"6\"")); },
                                    {"CoordinationNumberForce", "version 6"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(edited(xml, "localStep=\"0\"", "localStep=\"3\"")); },
                                    {"localStep 3"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(edited(xml, "type=\"10\"", "type=\"13\"")); },
                                    {"reduction 10", "type 13"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(edited(xml, "rPower=\"1.5\"", "rPower=\"-1\"")); }, {"rPower"});
    expectOpenMMExceptionMentioning([&] { forceFromXml(edited(xml, "mode=\"1\"", "mode=\"5\"")); },
                                    {"CoordinationNumberForce: the XML has mode 5"});
    EXPECT_THROW(forceFromXml(edited(xml, " rPower=\"1.5\"", "")), OpenMM::OpenMMException);
    EXPECT_THROW(forceFromXml(edited(xml, "<Reductions>", "<Reductionz>")), OpenMM::OpenMMException);
    // The serializer still works.
    ASSERT_NE(dynamic_cast<Numbers*>(forceFromXml(xml).get()), nullptr);
}

TEST(CoordinationNumberInput, PlumedRegtestInputsReadWithTheirOtherActionsSkipped) {
    // symfunc-rt20 and symfunc-rt-coordination-powers-multi of PLUMED's regression tests.
    const std::string rt20 = "DISTANCES ORIGIN=1 ATOMS=2-100 LESS_THAN={RATIONAL R_0=1.0} LABEL=d1\n"
                             "c1: ...\n  COORDINATION GROUPA=1 GROUPB=2-100 NLIST NL_CUTOFF=2.5 NL_STRIDE=20\n"
                             "  SWITCH={RATIONAL NN=6 MM=12 R_0=1.0}\n...\n"
                             "PRINT ARG=d1.*,c1 FILE=colvar FMT=%8.5f STRIDE=1\n"
                             "c2: COORDINATIONNUMBER SPECIES=1-5 SWITCH={RATIONAL R_0=0.5} MORE_THAN={EXP R_0=4.0}\n"
                             "c2ncm: CONTACT_MATRIX GROUP=1-5 SWITCH={RATIONAL R_0=0.5}\n"
                             "ones: ONES SIZE=5\n"
                             "c2n: MATRIX_VECTOR_PRODUCT ARG=c2ncm,ones\n"
                             "c2n_morethan: MORE_THAN ARG=c2n SWITCH={EXP R_0=4.0}\n"
                             "PRINT ARG=c2.* FILE=colv2 FMT=%8.4f\n\n"
                             "RESTRAINT ARG=c2_morethan AT=0.1 KAPPA=10\n";
    auto forces =
        readPlumedFileSkipping(rt20, {"d1: DISTANCES", "PRINT", "c2ncm: CONTACT_MATRIX", "ones: ONES",
                                      "c2n: MATRIX_VECTOR_PRODUCT", "c2n_morethan: MORE_THAN", "PRINT", "RESTRAINT"});
    ASSERT_EQ(forces.size(), 2u);
    auto& c2 = dynamic_cast<Numbers&>(*forces[1]);
    EXPECT_EQ(c2.getName(), "c2");
    EXPECT_EQ(reductions(c2), "morethan: MoreThan(EXP R_0=4.0)");
    const std::string powers = "cn0: COORDINATIONNUMBER SPECIES=1-10 SWITCH={RATIONAL R_0=1.0 D_MAX=8} MEAN \n"
                               "cn1: COORDINATION_MOMENTS SPECIES=1-10 SWITCH={RATIONAL R_0=1.0 D_MAX=8} R_POWER=1 MEAN\n"
                               "cn2: COORDINATION_MOMENTS SPECIES=1-10 SWITCH={RATIONAL R_0=1.0 D_MAX=8} R_POWER=2 MEAN \n"
                               "PRINT ARG=cn0.mean,cn1.mean,cn2.mean STRIDE=1 FILE=cn_out\n";
    forces = readPlumedFileSkipping(powers, {"PRINT"});
    ASSERT_EQ(forces.size(), 3u);
    for (int i = 0; i < 3; i++) {
        auto& force = dynamic_cast<Numbers&>(*forces[i]);
        EXPECT_EQ(force.getRPower(), (double) i);
        EXPECT_EQ(force.getDMax(), 8.0);
        EXPECT_EQ(reductions(force), "mean: Mean");
    }
}
