/*
 * PlumedTranslator and CoordinationForce::fromPlumed / toPlumed: PLUMED input to settings and back (the Python suite
 * checks every line of PLUMED's regtests against the forces that reproduce PLUMED's numbers).
 */

#include "CoordinationTestUtilities.h"
#include "PlumedTestSupport.h"
#include "PlumedTranslator.h"
#include "SameSettings.h"
#include "openmm/CustomCVForce.h"
#include "openmm/VerletIntegrator.h"
#include <cmath>
#include <limits>
#include <memory>

using namespace CoordinationPlugin;
using namespace CoordinationTest;

namespace {

/** One COORDINATION action read by CoordinationForce::fromPlumed(). */
const auto parse = &fromPlumed<CoordinationForce>;

} // namespace

TEST(PlumedInput, KeywordFormHasAutomaticStretchedCutoffAndPeriodicBoundaries) {
    auto force = parse("e: COORDINATION GROUPA=1-4 GROUPB=5,7-11:2 R_0=0.4 NN=7 D_0=0.1");
    EXPECT_EQ(force->getName(), "e");
    EXPECT_EQ(force->getMode(), CoordinationForce::Dual);
    EXPECT_EQ(force->getGroupA(), std::vector<int>({0, 1, 2, 3}));
    EXPECT_EQ(force->getGroupB(), std::vector<int>({4, 6, 8, 10}));
    // Rational, m = 2n, the automatic cutoff (dmax 0), stretched.
    EXPECT_EQ(force->getSwitchingSettings(), SwitchingSettings::rational(0.4, 7, 0, 0.1, 0.0));
    EXPECT_EQ(force->getEffectiveM(), 14);
    EXPECT_TRUE(force->usesPeriodicBoundaryConditions());
    EXPECT_EQ(force->getEnergyFunction(), "s");
}

TEST(PlumedInput, SwitchFormSelfAndPairModes) {
    auto noCutoff = parse("c1: COORDINATION GROUPA=1,2 SWITCH={RATIONAL R_0=2}");
    EXPECT_EQ(noCutoff->getMode(), CoordinationForce::Self);
    EXPECT_TRUE(std::isinf(noCutoff->getDMax()));
    auto pair = parse("p: COORDINATION GROUPA=1,2 GROUPB=3,4 PAIR NOPBC SWITCH={RATIONAL R_0=1.3 NN=5 MM=11 D_MAX=2.6 NOSTRETCH}");
    EXPECT_EQ(pair->getMode(), CoordinationForce::Pair);
    EXPECT_FALSE(pair->usesPeriodicBoundaryConditions());
    EXPECT_EQ(pair->getM(), 11);
    EXPECT_EQ(pair->getDMax(), 2.6);
    EXPECT_FALSE(pair->getStretch());
}

TEST(PlumedInput, ToPlumedReadsBackToTheSameSettings) {
    CoordinationForce force;
    force.setMode(CoordinationForce::Dual);
    force.setGroupA({4, 2, 2});
    force.setGroupB({0, 1, 2, 3, 9});
    force.setR0(1.0 / 3.0);
    force.setN(5);
    force.setM(11);
    force.setD0(0.07);
    force.setDMax(1.7);
    force.setStretch(false);
    const std::string line = force.toPlumed("x");
    EXPECT_EQ(line, "x: COORDINATION GROUPA=5,3,3 GROUPB=1-4,10 NOPBC SWITCH={RATIONAL R_0=0.3333333333333333 "
                    "D_0=0.07 NN=5 MM=11 D_MAX=1.7 NOSTRETCH}");
    expectSameCoordinationSettings(*parse(line), force);
    force.setDMax(0.0);
    force.setStretch(true);
    force.setUsesPeriodicBoundaryConditions(true);
    expectSameCoordinationSettings(*parse(force.toPlumed()), force);
}

TEST(PlumedInput, BadInputNamesWhatToFix) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> bad = {
        {"c: DISTANCE ATOMS=1,2",
         {"no action here becomes a force (the translator reads COORDINATION, COORDINATIONNUMBER, COORDINATION_MOMENTS, "
          "Q1, Q3, Q4, Q6, LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6, LOCAL_AVERAGE, SIMPLECUBIC, TETRAHEDRAL, FCCUBIC, "
          "COORDINATION_SHELL_FUNCTION and CONTACTMAP; found c: DISTANCE)"}},
        {"c: COORDINATION GROUPA=1 R_0=1 FOO=3", {"FOO is not a keyword"}},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={FOO R_0=1}", {"SWITCH type FOO is not one of PLUMED's"}},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={SMAP R_0=1 A=2}", {"needs A and B"}},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={CUBIC D_0=0.1}", {"needs D_MAX"}},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={CUBIC R_0=1 D_MAX=1}", {"R_0 is not a keyword"}},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={Q R_0=1 BETA=3}", {"needs REF"}},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={CUSTOM R_0=1}", {"needs FUNC"}},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={EXP R_0=1 NN=6}", {"NN is not a keyword"}},
        {"c: COORDINATION GROUPA=@water R_0=1", {"MOLINFO"}},
        {"c: COORDINATION GROUPA=5-3 R_0=1", {"ends before it starts"}},
        {"c: COORDINATION GROUPA=1 SWITCH={RATIONAL R_0=1", {"without its '}'"}},
        {"c: COORDINATION GROUPA=1", {"R_0 is required"}},
    };
    expectEachRefused(bad, [](const std::string& input) { parse(input); });
}

TEST(PlumedInput, EverySwitchTypeReadsAndWritesBack) {
    // PLUMED's SWITCH={...} for every type: the settings it gives, and toPlumed()'s exact line back.
    struct Case {
        std::string line;
        CoordinationForce::SwitchingFunction type;
        std::string written;
    };
    const std::vector<Case> cases = {
        {"SWITCH={EXP R_0=0.2 D_0=0.1}", CoordinationForce::Exponential, "SWITCH={EXP R_0=0.2 D_0=0.1}"},
        {"SWITCH={GAUSSIAN R_0=1 D_MAX=2.5 NOSTRETCH}", CoordinationForce::Gaussian, "SWITCH={GAUSSIAN R_0=1 D_MAX=2.5 NOSTRETCH}"},
        {"SWITCH={SMAP R_0=0.3 A=6 B=2 D_MAX=1 STRETCH}", CoordinationForce::Smap, "SWITCH={SMAP R_0=0.3 A=6 B=2 D_MAX=1}"},
        {"SWITCH={CUBIC D_0=0.1 D_MAX=0.6}", CoordinationForce::Cubic, "SWITCH={CUBIC D_0=0.1 D_MAX=0.6}"},
        {"SWITCH={TANH R_0=0.25}", CoordinationForce::Tanh, "SWITCH={TANH R_0=0.25}"},
        {"SWITCH={COSINUS R_0=0.5 D_0=0.1}", CoordinationForce::Cosinus, "SWITCH={COSINUS R_0=0.5 D_0=0.1}"},
        {"SWITCH={Q R_0=0.01 BETA=40 REF=0.3}", CoordinationForce::NativeQ, "SWITCH={Q R_0=0.01 BETA=40 REF=0.3}"},
        {"SWITCH={CUSTOM FUNC=1/(1+x2^3) R_0=1}", CoordinationForce::Custom, "SWITCH={CUSTOM R_0=1 FUNC=1/(1+x2^3)}"},
        {"SWITCH={MATHEVAL FUNC=exp(-x) R_0=1 D_0=0.1}", CoordinationForce::Custom, "SWITCH={CUSTOM R_0=1 D_0=0.1 FUNC=exp(-x)}"},
    };
    for (const Case& entry : cases) {
        SCOPED_TRACE(entry.line);
        std::unique_ptr<CoordinationForce> force = parse("c: COORDINATION GROUPA=1-3 " + entry.line);
        EXPECT_EQ(force->getSwitchingFunction(), entry.type);
        EXPECT_EQ(force->toPlumed(), "c: COORDINATION GROUPA=1-3 " + entry.written);
        expectSameCoordinationSettings(*parse(force->toPlumed()), *force);
    }
    std::unique_ptr<CoordinationForce> q = parse("c: COORDINATION GROUPA=1-3 SWITCH={Q R_0=1 REF=0.4 LAMBDA=1.5}");
    EXPECT_EQ(q->getNativeQBeta(), 50.0);
    EXPECT_EQ(q->getNativeQLambda(), 1.5);
    EXPECT_EQ(q->getNativeQReference(), 0.4);
    EXPECT_TRUE(std::isinf(q->getDMax()));
    std::unique_ptr<CoordinationForce> smap = parse("c: COORDINATION GROUPA=1-3 SWITCH={SMAP R_0=0.3 A=6 B=2 D_MAX=1}");
    EXPECT_EQ(smap->getSmapA(), 6);
    EXPECT_EQ(smap->getSmapB(), 2);
    EXPECT_EQ(smap->getDMax(), 1.0);
    EXPECT_TRUE(smap->getStretch());
    std::unique_ptr<CoordinationForce> custom = parse("c: COORDINATION GROUPA=1-3 SWITCH={CUSTOM FUNC=1/(1+x^6) R_0=1}");
    EXPECT_EQ(custom->getCustomSwitchingFunction(), "1/(1+x^6)");
    // An automatic cutoff is written as its value: Cosinus' d0 + r0.
    CoordinationForce cosinus;
    cosinus.setGroupA({0, 1});
    cosinus.setSwitchingFunction(CoordinationForce::Cosinus);
    cosinus.setR0(0.5);
    EXPECT_EQ(cosinus.toPlumed(), "c: COORDINATION GROUPA=1-2 NOPBC SWITCH={COSINUS R_0=0.5 D_MAX=0.5}");
}

TEST(PlumedInput, MultiLineActionsWithCommentsEqualTheOneLineForm) {
    const std::string line = "c: COORDINATION GROUPA=1-4 GROUPB=5,7 SWITCH={RATIONAL R_0=0.3 NN=5 D_MAX=1.1 NOSTRETCH} NOPBC";
    const std::vector<std::string> forms = {
        "c: COORDINATION ...\n  GROUPA=1-4   # group A\n\n  GROUPB=5,7\n# a comment line\n"
        "  SWITCH={RATIONAL R_0=0.3\n NN=5 D_MAX=1.1 NOSTRETCH}\n  NOPBC\n...\n",
        "COORDINATION ...\n LABEL=c GROUPA=1-4 GROUPB=5,7\n SWITCH={RATIONAL R_0=0.3 NN=5 D_MAX=1.1 NOSTRETCH} NOPBC\n... COORDINATION",
        "c: COORDINATION GROUPA=1-4 GROUPB=5,7 ...\n SWITCH={RATIONAL R_0=0.3 NN=5 D_MAX=1.1 NOSTRETCH} NOPBC\n... c\n",
    };
    for (const std::string& form : forms) {
        SCOPED_TRACE(form);
        std::unique_ptr<CoordinationForce> force = parse(form);
        EXPECT_EQ(force->getName(), "c");
        expectSameCoordinationSettings(*force, *parse(line));
    }
}

TEST(PlumedInput, FromPlumedFileReadsEveryCoordinationActionAndNamesTheOthers) {
    const std::string text = "# a plumed.dat\nUNITS LENGTH=A\nd: DISTANCE ATOMS=1,2\n"
                             "c: COORDINATION ...\n GROUPA=1-3 R_0=3 # in Angstrom\n...\n"
                             "COORDINATION GROUPA=4-6 GROUPB=7 SWITCH={Q REF=4 BETA=5 R_0=1}\n"
                             "PRINT ...\n ARG=c FILE=COLVAR\n... PRINT\nENDPLUMED\nnot PLUMED input";
    std::vector<std::string> skipped;
    std::vector<CoordinationForce*> raw = CoordinationForce::fromPlumedFile(text, skipped);
    std::vector<std::unique_ptr<CoordinationForce>> forces(raw.begin(), raw.end());
    ASSERT_EQ(forces.size(), 2u);
    EXPECT_EQ(skipped, std::vector<std::string>({"d: DISTANCE", "PRINT"}));
    EXPECT_EQ(forces[0]->getName(), "c");
    EXPECT_NEAR(forces[0]->getR0(), 0.3, 1e-16);
    EXPECT_EQ(forces[1]->getName(), "@3"); // PLUMED's name for the fourth action (UNITS counts)
    EXPECT_NEAR(forces[1]->getNativeQReference(), 0.4, 1e-16);
    EXPECT_NEAR(forces[1]->getNativeQBeta(), 50.0, 1e-13); // 5 per Angstrom
    expectOpenMMExceptionMentioning([&] { parse(text); }, {"fromPlumed reads one action (and an optional UNITS, its GROUP, COM and CENTER actions); this input has 2 actions that become forces and d: DISTANCE, PRINT"});
    expectOpenMMExceptionMentioning([&] { CoordinationForce::fromPlumedFile("missing/plumed.dat", skipped); },
                                    {"cannot read the file \"missing/plumed.dat\""});
    expectOpenMMExceptionMentioning([] { parse("c: COORDINATION ...\n GROUPA=1 R_0=1\n"); }, {"is not closed"});
}

TEST(PlumedInput, GetCoordinationOfACustomCVForceVariableUsesItsInnerContext) {
    const std::vector<OpenMM::Vec3> positions = {{0, 0, 0}, {0.3, 0, 0}, {0, 0.45, 0}, {0.2, 0.2, 0.2}};
    CollectiveVariableContext<CoordinationForce> outer(
        "2*c", "c", *parse("c: COORDINATION GROUPA=1-2 GROUPB=3-4 NOPBC R_0=0.3"), positions);
    CoordinationForce& variable = outer.getVariable();
    OpenMM::Context& context = outer.getContext();
    CoordinationContext expected(variable, positions);
    EXPECT_NEAR(variable.getCoordination(context), expected.evaluate().s, Tolerance::Exact);
    variable.setR0(0.4);
    variable.updateParametersInContext(context);
    expected.getForce().setR0(0.4);
    expected.getForce().updateParametersInContext(expected.getContext());
    std::vector<double> values;
    outer.getCustomCV().getCollectiveVariableValues(context, values);
    EXPECT_NEAR(values[0], expected.evaluate().s, Tolerance::Exact);
    EXPECT_NEAR(variable.getCoordination(context), expected.evaluate().s, Tolerance::Exact);
    CoordinationForce other;
    expectOpenMMExceptionMentioning([&] { other.getCoordination(context); }, {"getCollectiveVariableValues"});
}

TEST(PlumedTranslator, ReturnsEachActionsForceAsItsOwnClassAndTheAliasesAgree) {
    const std::string text = "UNITS LENGTH=A\nc1: COORDINATION GROUPA=1-3 R_0=3\nd: DISTANCE ATOMS=1,2\n"
                              "COORDINATION GROUPA=4-6 GROUPB=7-9 PAIR SWITCH={EXP R_0=2 D_MAX=9}\n";
    std::vector<std::unique_ptr<OpenMM::Force>> forces = readPlumedFileSkipping(text, {"d: DISTANCE"});
    ASSERT_EQ(forces.size(), 2u);
    const CoordinationForce& first = dynamic_cast<CoordinationForce&>(*forces[0]);
    const CoordinationForce& second = dynamic_cast<CoordinationForce&>(*forces[1]);
    EXPECT_EQ(first.getName(), "c1");
    EXPECT_NEAR(first.getR0(), 0.3, 1e-16);
    EXPECT_EQ(second.getName(), "@3");
    EXPECT_EQ(second.getMode(), CoordinationForce::Pair);
    EXPECT_EQ(second.getSwitchingFunction(), CoordinationForce::Exponential);
    EXPECT_NEAR(second.getDMax(), 0.9, 1e-16);
    // CoordinationForce's aliases give the same forces and lines.
    std::vector<std::string> aliasSkipped;
    std::vector<CoordinationForce*> raw = CoordinationForce::fromPlumedFile(text, aliasSkipped);
    std::vector<std::unique_ptr<CoordinationForce>> alias(raw.begin(), raw.end());
    ASSERT_EQ(alias.size(), 2u);
    EXPECT_EQ(aliasSkipped, std::vector<std::string>({"d: DISTANCE"}));
    for (int i = 0; i < 2; i++) {
        const CoordinationForce& read = dynamic_cast<const CoordinationForce&>(*forces[i]);
        expectSameCoordinationSettings(*alias[i], read);
        EXPECT_EQ(alias[i]->getName(), read.getName());
        EXPECT_EQ(alias[i]->toPlumed("x"), PlumedTranslator::toPlumed(read, "x"));
    }
    std::unique_ptr<OpenMM::Force> one(PlumedTranslator::fromPlumed("UNITS LENGTH=A\nCOORDINATION GROUPA=1-3 R_0=3"));
    EXPECT_EQ(one->getName(), CoordinationForce().getName()); // unlabelled: the class's default name
    expectSameCoordinationSettings(dynamic_cast<CoordinationForce&>(*one), first);
}

TEST(PlumedTranslator, WritesOnlyTheForcesItReads) {
    OpenMM::CustomCVForce other("x");
    expectOpenMMExceptionMentioning([&] { PlumedTranslator::toPlumed(other); }, {"toPlumed writes CoordinationForce"});
}
