/*
 * CoordinationForce::fromPlumed / toPlumed: PLUMED input lines to settings and back (the Python suite
 * checks every line of PLUMED's regtests against the forces that reproduce PLUMED's numbers).
 */

#include "CoordinationTestUtilities.h"
#include <cmath>
#include <limits>
#include <memory>

using namespace CoordinationPlugin;
using namespace CoordinationTest;

namespace {

std::unique_ptr<CoordinationForce> parse(const std::string& line) {
    return std::unique_ptr<CoordinationForce>(CoordinationForce::fromPlumed(line));
}

} // namespace

TEST(PlumedInput, KeywordFormHasAutomaticStretchedCutoffAndPeriodicBoundaries) {
    auto force = parse("e: COORDINATION GROUPA=1-4 GROUPB=5,7-11:2 R_0=0.4 NN=7 D_0=0.1");
    EXPECT_EQ(force->getName(), "e");
    EXPECT_EQ(force->getMode(), CoordinationForce::Dual);
    EXPECT_EQ(force->getGroupA(), std::vector<int>({0, 1, 2, 3}));
    EXPECT_EQ(force->getGroupB(), std::vector<int>({4, 6, 8, 10}));
    EXPECT_EQ(force->getR0(), 0.4);
    EXPECT_EQ(force->getN(), 7);
    EXPECT_EQ(force->getEffectiveM(), 14);
    EXPECT_EQ(force->getD0(), 0.1);
    EXPECT_EQ(force->getDMax(), 0.0);
    EXPECT_TRUE(force->getStretch());
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
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"c: DISTANCE ATOMS=1,2", "not a COORDINATION action"},
        {"c: COORDINATION GROUPA=1 R_0=1 FOO=3", "FOO is not a keyword"},
        {"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={EXP R_0=1}", "SWITCH type EXP is not supported yet"},
        {"c: COORDINATION GROUPA=@water R_0=1", "MOLINFO"},
        {"c: COORDINATION GROUPA=5-3 R_0=1", "ends before it starts"},
        {"c: COORDINATION GROUPA=1 SWITCH={RATIONAL R_0=1", "without its '}'"},
        {"c: COORDINATION GROUPA=1", "R_0 is required"},
    };
    for (const auto& entry : bad) {
        try {
            parse(entry.first);
            ADD_FAILURE() << "no exception for " << entry.first;
        }
        catch (const OpenMM::OpenMMException& error) {
            EXPECT_NE(std::string(error.what()).find(entry.second), std::string::npos) << error.what();
        }
    }
}
