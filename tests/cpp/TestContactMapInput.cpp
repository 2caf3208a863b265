/*
 * PLUMED input for contact maps (CONTACTMAP -> ContactMapForce) and centres (COM, CENTER -> addCenter()), both ways:
 * every keyword, every refusal with its message, and toPlumed's text read back to the same settings. The values
 * PLUMED prints for contactmap-rt28 are reproduced by tests/python/test_plumed_regtests.py.
 */

#include "ContactMapForce.h"
#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"
#include "PlumedTestSupport.h"
#include "PlumedTranslator.h"
#include "SameSettings.h"
#include <cmath>
#include <limits>
#include <memory>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using std::string;
using std::vector;

namespace {

/** Every setting toPlumed writes: contacts (Cubic's unused r0 aside), centres, reduction, periodicity, Custom expression. */
void expectSameContactMapSettings(const ContactMapForce& copy, const ContactMapForce& original) {
    expectSameContacts(copy, original, true);
    expectSameCenters(copy, original);
}

const auto parseMap = &fromPlumed<ContactMapForce>;
const auto parseCoordination = &fromPlumed<CoordinationForce>;

/** PLUMED's regtest basic/rt28 (tests/data/plumed/contactmap-rt28/plumed.dat), its two contact maps. */
const string Rt28 = "CONTACTMAP ...\n"
                    "ATOMS1=10,20 SWITCH1={RATIONAL R_0=0.5 D_MAX=2.6 NOSTRETCH} REFERENCE1=0.1 WEIGHT1=0.5\n"
                    "ATOMS2=20,30 SWITCH2={RATIONAL R_0=0.1 D_MAX=2.6 NOSTRETCH} REFERENCE2=1.1 WEIGHT2=1.5\n"
                    "ATOMS3=15,25 SWITCH3={RATIONAL R_0=0.2 D_MAX=2.6 NOSTRETCH} REFERENCE3=0.5 WEIGHT3=1.0\n"
                    "ATOMS4=5,20 SWITCH4={RATIONAL R_0=0.3 D_MAX=2.6 NOSTRETCH} REFERENCE4=0.4 WEIGHT4=0.5\n"
                    "ATOMS5=40,108 SWITCH5={RATIONAL R_0=0.5 D_MAX=2.6 NOSTRETCH} REFERENCE5=0.3 WEIGHT5=0.25\n"
                    "LABEL=a\nCMDIST\n... CONTACTMAP\n\n"
                    "CONTACTMAP ...\n"
                    "ATOMS1=1,2 SWITCH1={RATIONAL R_0=0.5 D_MAX=2.6 NOSTRETCH}\n"
                    "ATOMS2=2,3 SWITCH2={RATIONAL R_0=0.1 D_MAX=2.6 NOSTRETCH}\n"
                    "ATOMS3=5,2 SWITCH3={RATIONAL R_0=0.2 D_MAX=2.6 NOSTRETCH}\n"
                    "ATOMS4=4,2 SWITCH4={RATIONAL R_0=0.3 D_MAX=2.6 NOSTRETCH}\n"
                    "ATOMS5=4,10 SWITCH5={RATIONAL R_0=0.5 D_MAX=2.6 NOSTRETCH}\n"
                    "LABEL=c\n... CONTACTMAP\n\n"
                    "MOVINGRESTRAINT ...\n ARG=c.contact-1\n STEP0=0 AT0=1. KAPPA0=100.0\n STEP1=5000 AT1=5.\n"
                    " LABEL=steer\n... MOVINGRESTRAINT\n\n"
                    "PRINT ...\n  ARG=a,c.contact-1,c.contact-5\n  FILE=colvar\n... PRINT\n\n"
                    "DUMPDERIVATIVES ARG=a FILE=deriv FMT=%8.6f\n\nENDPLUMED\n";

/** Every message of a refused input. */
void expectEachInputRefused(const vector<std::pair<string, string>>& bad,
                            const std::function<void(const string&)>& read) {
    for (const auto& entry : bad) {
        SCOPED_TRACE(entry.first);
        expectOpenMMExceptionMentioning([&] { read(entry.first); }, {entry.second, "(in \""});
    }
}

} // namespace

// ------------------------------------------------------------------------------------------------------------------
// CONTACTMAP
// ------------------------------------------------------------------------------------------------------------------

TEST(ContactMapInput, NumberedContactsTakeTheirOwnSwitchReferenceAndWeight) {
    vector<std::unique_ptr<OpenMM::Force>> forces =
        readPlumedFileSkipping(Rt28, {"steer: MOVINGRESTRAINT", "PRINT", "DUMPDERIVATIVES"});
    ASSERT_EQ(forces.size(), 2u);
    const ContactMapForce& a = dynamic_cast<ContactMapForce&>(*forces[0]);
    const ContactMapForce& c = dynamic_cast<ContactMapForce&>(*forces[1]);
    EXPECT_EQ(a.getName(), "a");
    EXPECT_EQ(a.getReduction(), ContactMapForce::Distance);
    EXPECT_EQ(a.getEnergyFunction(), "s");
    EXPECT_TRUE(a.usesPeriodicBoundaryConditions());
    EXPECT_EQ(a.getNumCenters(), 0);
    const int atoms[5][2] = {{9, 19}, {19, 29}, {14, 24}, {4, 19}, {39, 107}};
    const double r0[5] = {0.5, 0.1, 0.2, 0.3, 0.5}, reference[5] = {0.1, 1.1, 0.5, 0.4, 0.3},
                 weight[5] = {0.5, 1.5, 1.0, 0.5, 0.25};
    ASSERT_EQ(a.getNumContacts(), 5);
    for (int i = 0; i < 5; i++) {
        SCOPED_TRACE(i);
        const ContactSettings contact = contactOf(a, i);
        EXPECT_EQ(contact.particle1, atoms[i][0]);
        EXPECT_EQ(contact.particle2, atoms[i][1]);
        EXPECT_EQ(contact.type, CoordinationForce::Rational);
        EXPECT_EQ(contact.r0, r0[i]);
        EXPECT_EQ(contact.d0, 0.0);
        EXPECT_EQ(contact.dmax, 2.6);
        EXPECT_FALSE(contact.stretch);
        EXPECT_EQ(contact.shape, vector<double>({6, 0})); // NN 6, MM 0 = 2 NN
        EXPECT_EQ(contact.reference, reference[i]);
        EXPECT_EQ(contact.weight, weight[i]);
    }
    // Neither SUM nor CMDIST: one component per contact, no energy by default; references 0, weights 1.
    EXPECT_EQ(c.getName(), "c");
    EXPECT_EQ(c.getReduction(), ContactMapForce::Components);
    EXPECT_EQ(c.getEnergyFunction(), "0");
    EXPECT_EQ(c.getNumCollectiveVariables(), 5);
    EXPECT_EQ(c.getCollectiveVariableName(4), "contact_5");
    EXPECT_EQ(contactOf(c, 2).particle1, 4);
    EXPECT_EQ(contactOf(c, 2).particle2, 1);
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(contactOf(c, i).reference, 0.0);
        EXPECT_EQ(contactOf(c, i).weight, 1.0);
    }
}

TEST(ContactMapInput, OneSwitchReferenceAndWeightApplyToEveryContact) {
    auto force = parseMap("g: GROUP ATOMS=7,9\nm: CONTACTMAP ATOMS1=1,2 ATOMS2=3,4 ATOMS3=g SWITCH={RATIONAL R_0=1.5} "
                          "REFERENCE=0.25 WEIGHT=2 SUM NOPBC SERIAL NUMERICAL_DERIVATIVES");
    EXPECT_EQ(force->getName(), "m");
    EXPECT_EQ(force->getReduction(), ContactMapForce::Sum);
    EXPECT_EQ(force->getEnergyFunction(), "s");
    EXPECT_FALSE(force->usesPeriodicBoundaryConditions());
    ASSERT_EQ(force->getNumContacts(), 3);
    for (int i = 0; i < 3; i++) {
        const ContactSettings contact = contactOf(*force, i);
        EXPECT_EQ(contact.r0, 1.5);
        EXPECT_TRUE(std::isinf(contact.dmax)); // SWITCH={RATIONAL ...} without D_MAX: no cutoff
        EXPECT_TRUE(contact.stretch);
        EXPECT_EQ(contact.reference, 0.25);
        EXPECT_EQ(contact.weight, 2.0);
    }
    EXPECT_EQ(contactOf(*force, 2).particle1, 6); // a GROUP of two atoms is a contact
    EXPECT_EQ(contactOf(*force, 2).particle2, 8);
}

TEST(ContactMapInput, NumberedReferencesAndWeightsStopAtTheFirstMissingNumberTheRestDefault) {
    // PLUMED reads REFERENCE1, REFERENCE2, ... up to the first missing number; the other contacts keep 0 (weights 1).
    auto force = parseMap("m: CONTACTMAP ATOMS1=1,2 ATOMS2=3,4 ATOMS3=5,6 SWITCH={EXP R_0=0.2} REFERENCE1=0.5 "
                          "WEIGHT1=3 WEIGHT2=4");
    EXPECT_EQ(contactOf(*force, 0).reference, 0.5);
    EXPECT_EQ(contactOf(*force, 1).reference, 0.0);
    EXPECT_EQ(contactOf(*force, 2).reference, 0.0);
    EXPECT_EQ(contactOf(*force, 0).weight, 3.0);
    EXPECT_EQ(contactOf(*force, 1).weight, 4.0);
    EXPECT_EQ(contactOf(*force, 2).weight, 1.0);
    // PLUMED's CMDIST check counts the numbered references, and a bare REFERENCE as one less than the contacts:
    // two contacts with CMDIST and no reference are read (references 0).
    auto two = parseMap("m: CONTACTMAP ATOMS1=1,2 ATOMS2=3,4 SWITCH={EXP R_0=0.2} CMDIST");
    EXPECT_EQ(two->getReduction(), ContactMapForce::Distance);
    EXPECT_EQ(contactOf(*two, 1).reference, 0.0);
    auto one = parseMap("m: CONTACTMAP ATOMS1=1,2 SWITCH={EXP R_0=0.2} CMDIST REFERENCE1=0.3");
    EXPECT_EQ(contactOf(*one, 0).reference, 0.3);
}

TEST(ContactMapInput, EverySwitchTypeInSwitchNWithUnitsScalingItsLengths) {
    const string text = "UNITS LENGTH=A\n"
                        "m: CONTACTMAP ...\n"
                        "  ATOMS1=1,2 SWITCH1={RATIONAL R_0=3 D_0=1 NN=5 MM=11 D_MAX=9}\n"
                        "  ATOMS2=1,3 SWITCH2={EXP R_0=2 NOSTRETCH D_MAX=10}\n"
                        "  ATOMS3=1,4 SWITCH3={GAUSSIAN R_0=2}\n"
                        "  ATOMS4=1,5 SWITCH4={SMAP R_0=3 A=6 B=2 D_MAX=10}\n"
                        "  ATOMS5=1,6 SWITCH5={CUBIC D_0=1 D_MAX=6}\n"
                        "  ATOMS6=1,7 SWITCH6={TANH R_0=2.5}\n"
                        "  ATOMS7=1,8 SWITCH7={COSINUS R_0=5 D_0=1}\n"
                        "  ATOMS8=1,9 SWITCH8={Q R_0=0.1 BETA=5 LAMBDA=1.5 REF=4}\n"
                        "  ATOMS9=1,10 SWITCH9={CUSTOM FUNC=1/(1+x^6) R_0=3}\n"
                        "  ATOMS10=2,10 SWITCH10={MATHEVAL FUNC=1/(1+x^6) R_0=4 D_MAX=8}\n"
                        "  REFERENCE=0.5 WEIGHT=0.5\n"
                        "...\n";
    auto force = parseMap(text);
    ASSERT_EQ(force->getNumContacts(), 10);
    struct Expected {
        CoordinationForce::SwitchingFunction type;
        double r0, d0, dmax;
        bool stretch;
        vector<double> shape;
    };
    const vector<Expected> expected = {
        {CoordinationForce::Rational, 0.3, 0.1, 0.9, true, {5, 11}},
        {CoordinationForce::Exponential, 0.2, 0.0, 1.0, false, {}},
        {CoordinationForce::Gaussian, 0.2, 0.0, Infinity, true, {}},
        {CoordinationForce::Smap, 0.3, 0.0, 1.0, true, {6, 2}},
        {CoordinationForce::Cubic, 0.3, 0.1, 0.6, true, {}}, // r0 unused: the default
        {CoordinationForce::Tanh, 0.25, 0.0, Infinity, true, {}},
        {CoordinationForce::Cosinus, 0.5, 0.1, Infinity, true, {}},
        {CoordinationForce::NativeQ, 0.01, 0.0, Infinity, true, {50.0, 1.5, 0.4}}, // BETA 5 per A = 50 per nm
        {CoordinationForce::Custom, 0.3, 0.0, Infinity, true, {}},
        {CoordinationForce::Custom, 0.4, 0.0, 0.8, true, {}},
    };
    for (int i = 0; i < 10; i++) {
        SCOPED_TRACE("contact " + std::to_string(i));
        const ContactSettings contact = contactOf(*force, i);
        EXPECT_EQ(contact.type, expected[i].type);
        EXPECT_NEAR(contact.r0, expected[i].r0, 1e-15);
        EXPECT_NEAR(contact.d0, expected[i].d0, 1e-15);
        if (std::isinf(expected[i].dmax))
            EXPECT_TRUE(std::isinf(contact.dmax));
        else
            EXPECT_NEAR(contact.dmax, expected[i].dmax, 1e-15);
        EXPECT_EQ(contact.stretch, expected[i].stretch);
        ASSERT_EQ(contact.shape.size(), expected[i].shape.size());
        for (size_t k = 0; k < contact.shape.size(); k++)
            EXPECT_NEAR(contact.shape[k], expected[i].shape[k], 1e-13);
        EXPECT_EQ(contact.reference, 0.5); // unitless: UNITS does not scale references and weights
        EXPECT_EQ(contact.weight, 0.5);
    }
    EXPECT_EQ(force->getCustomSwitchingFunction(), "1/(1+x^6)");
}

TEST(ContactMapInput, RefusesWhatPlumedRefusesNamingTheFix) {
    const string s = " SWITCH={RATIONAL R_0=1}";
    expectEachInputRefused(
        {
            {"m: CONTACTMAP ATOMS1=1,2 SUM CMDIST REFERENCE=1" + s, "SUM and CMDIST cannot be used together"},
            {"m: CONTACTMAP ATOMS1=1,2,3" + s, "ATOMS1 lists 3 atoms"},
            {"m: CONTACTMAP ATOMS1=1" + s, "ATOMS1 lists 1 atom "},
            {"m: CONTACTMAP ATOMS1=1,2", "no switching function: give SWITCH={TYPE ...} for every contact"},
            {"m: CONTACTMAP ATOMS1=1,2 ATOMS2=3,4 SWITCH1={EXP R_0=1}", "SWITCH2 is missing"},
            {"m: CONTACTMAP ATOMS1=1,2 SWITCH1={EXP R_0=1} SWITCH={EXP R_0=1}", "SWITCH= and SWITCH1= are two forms"},
            {"m: CONTACTMAP ATOMS1=1,2 SWITCH1={EXP R_0=1} SWITCH2={EXP R_0=1}", "SWITCH2 is not read"},
            {"m: CONTACTMAP ATOMS1=1,2 ATOMS3=3,4" + s,
             "ATOMS3 is not read: PLUMED reads ATOMS1, ATOMS2, ... up to the "
             "first missing number"},
            {"m: CONTACTMAP ATOMS1=1,2 ATOMS2=1,3 REFERENCE2=1" + s, "REFERENCE2 is not read"},
            {"m: CONTACTMAP ATOMS1=1,2 WEIGHT1=1 WEIGHT=2" + s, "WEIGHT= and WEIGHT1= are two forms"},
            {"m: CONTACTMAP ATOMS1=1,2 REFERENCE1=1 REFERENCE=2" + s, "REFERENCE= and REFERENCE1= are two forms"},
            {"m: CONTACTMAP ATOMS1=1,2 CMDIST" + s, "with CMDIST one must use REFERENCE"},
            {"m: CONTACTMAP ATOMS1=1,2 CMDIST REFERENCE=0.5" + s, "with one contact write REFERENCE1="},
            {"m: CONTACTMAP" + s, "CONTACTMAP needs at least one contact: ATOMS1=a,b"},
            {"m: CONTACTMAP ATOMS=1,2" + s, "ATOMS is not a keyword of CONTACTMAP"},
            {"m: CONTACTMAP ATOMS1=1,2 R_0=0.5", "R_0 is not a keyword of CONTACTMAP"},
            {"m: CONTACTMAP ATOMS1=1,2 NLIST" + s, "NLIST is not a keyword ContactMapForce understands in CONTACTMAP"},
            {"m: CONTACTMAP ATOMS1=1,2 ATOMS2=1,3 SWITCH1={CUSTOM FUNC=exp(-x) R_0=1} SWITCH2={CUSTOM FUNC=exp(-2*x) "
             "R_0=1}",
             "SWITCH2's FUNC=exp(-2*x) differs from SWITCH1's FUNC=exp(-x)"},
            {"m: CONTACTMAP ATOMS1=1,2 SWITCH1={CUBIC D_0=0.1}", "SWITCH1={CUBIC ...} needs D_MAX"},
            {"m: CONTACTMAP ATOMS1=1,2 SWITCH1={SMAP R_0=1 A=2}", "SWITCH1={SMAP ...} needs A and B"},
            {"m: CONTACTMAP ATOMS1=1,2 SWITCH1={FOO R_0=1}", "SWITCH1 type FOO is not one of PLUMED's"},
            {"m: CONTACTMAP ATOMS1=1,2 SWITCH1={EXP R_0=1 NN=3}",
             "NN is not a keyword ContactMapForce understands inside "
             "SWITCH1={EXP ...}"},
            {"m: CONTACTMAP ATOMS1=1,2 SWITCH={CUSTOM FUNC=x+y R_0=1}", "contact 1:"},
            {"m: CONTACTMAP ATOMS1=1,2 REFERENCE1=abc" + s, "REFERENCE1=abc is not a number"},
            {"m: CONTACTMAP ATOMS1=1,2 UNITS=A" + s, "UNITS is an action of its own"},
        },
        [](const string& text) { parseMap(text); });
}

TEST(ContactMapInput, ToPlumedWritesOneLinePerContactAndReadsBackToTheSameSettings) {
    ContactMapForce force("5*s", ContactMapForce::Distance);
    force.addContact(0, 4, 0.5, 0.1, 0.5);
    force.addContact(9, 2, CoordinationForce::Rational, 1.0 / 3.0, 0.07, 1.7, false, {5, 11}, 1.1, 1.5);
    const string text = force.toPlumed("x");
    EXPECT_EQ(text, "x: CONTACTMAP ...\n"
                    "  ATOMS1=1,5 SWITCH1={RATIONAL R_0=0.5 NN=6 MM=12} REFERENCE1=0.1 WEIGHT1=0.5\n"
                    "  ATOMS2=10,3 SWITCH2={RATIONAL R_0=0.3333333333333333 D_0=0.07 NN=5 MM=11 D_MAX=1.7 NOSTRETCH} "
                    "REFERENCE2=1.1 WEIGHT2=1.5\n"
                    "  CMDIST\n  NOPBC\n...\n");
    auto back = parseMap(text);
    EXPECT_EQ(back->getName(), "x");
    expectSameContactMapSettings(*back, force);
    // One switching function for all contacts: one SWITCH; default references and weights are not written,
    // but CMDIST always has its references (PLUMED needs them with one contact).
    ContactMapForce shared("s", ContactMapForce::Sum);
    shared.setUsesPeriodicBoundaryConditions(true);
    shared.addContact(0, 1, 0.4);
    shared.addContact(2, 3, 0.4);
    EXPECT_EQ(shared.toPlumed(), "cmap: CONTACTMAP ...\n  ATOMS1=1,2\n  ATOMS2=3,4\n  SWITCH={RATIONAL R_0=0.4 NN=6 MM=12}\n"
                                 "  SUM\n...\n");
    expectSameContactMapSettings(*parseMap(shared.toPlumed()), shared);
    ContactMapForce single("s", ContactMapForce::Distance);
    single.addContact(0, 1, 0.4);
    EXPECT_EQ(contactOf(*parseMap(single.toPlumed()), 0).reference, 0.0);
    EXPECT_NE(single.toPlumed().find("REFERENCE1=0"), string::npos);
}

TEST(ContactMapInput, EverySwitchTypeAndCentresRoundTrip) {
    ContactMapForce force("0", ContactMapForce::Components);
    force.setUsesPeriodicBoundaryConditions(true);
    force.setCustomSwitchingFunction("1/(1+x2^3)");
    const int com = force.addCenter({3, 4, 5}, CoordinationForce::CenterOfMass);
    const int weighted = force.addCenter({6, 8}, CoordinationForce::WeightedCenter, {0.25, 1.5}, false);
    const int geometric = force.addCenter({1, 2, 2});
    force.addContact(com, 0, CoordinationForce::Exponential, 0.2, 0.05, Infinity, true, {}, 0.0, 1.0);
    force.addContact(weighted, com, CoordinationForce::Gaussian, 0.3, 0.0, 1.2, false, {}, -0.5, 2.0);
    force.addContact(geometric, 7, CoordinationForce::Smap, 0.3, 0.0, 1.0, true, {6, 2}, 0.0, 1.0);
    force.addContact(1, 7, CoordinationForce::Cubic, 0.3, 0.1, 0.6, true, {}, 0.0, 1.0);
    force.addContact(2, 7, CoordinationForce::Tanh, 0.25, 0.0, Infinity, true, {}, 0.0, 1.0);
    force.addContact(3, 7, CoordinationForce::Cosinus, 0.5, 0.1, 0.6, true, {}, 0.0, 1.0);
    force.addContact(4, 7, CoordinationForce::NativeQ, 0.01, 0.0, Infinity, true, {40.0, 1.6, 0.35}, 0.0, 1.0);
    force.addContact(5, 7, CoordinationForce::Custom, 0.3, 0.0, 0.9, true, {}, 0.0, 1.0);
    force.addContact(6, com, CoordinationForce::Custom, 0.4, 0.0, Infinity, false, {}, 0.0, 1.0);
    force.addContact(7, 8, CoordinationForce::Rational, 0.3, 0.0, 0.8, true, {8, 0}, 0.0, 1.0);
    const string text = force.toPlumed("m");
    // The centres' lines come first, labelled m_c1, m_c2, ... and named so in the contacts.
    EXPECT_EQ(text.substr(0, text.find("m: CONTACTMAP")),
              "m_c1: COM ATOMS=4-6\nm_c2: CENTER ATOMS=7,9 WEIGHTS=0.25,1.5 NOPBC\nm_c3: CENTER ATOMS=2-3,3\n");
    EXPECT_NE(text.find("ATOMS2=m_c2,m_c1 "), string::npos) << text;
    EXPECT_NE(text.find("SWITCH4={CUBIC D_0=0.1 D_MAX=0.6}"), string::npos) << text;
    expectSameContactMapSettings(*parseMap(text), force);
    // A Cubic contact's r0 is unused and not written: it reads back as the default.
    EXPECT_EQ(contactOf(*parseMap(text), 3).r0, 0.3);
}

TEST(ContactMapInput, AnAutomaticCutoffIsWrittenAsItsValue) {
    // CONTACTMAP has no keyword form: dmax 0 (Rational's automatic d0 + r0 (1e-5)^(1/(n-m)), stretched) is written
    // as D_MAX, which reads back as that value.
    ContactMapForce force;
    force.addContact(0, 1, CoordinationForce::Rational, 0.4, 0.1, 0.0, true, {6, 0}, 0.0, 1.0);
    auto back = parseMap(force.toPlumed());
    const double expected = 0.1 + 0.4 * std::pow(1e-5, 1.0 / (6.0 - 12.0));
    EXPECT_NEAR(contactOf(*back, 0).dmax, expected, 1e-15 * expected);
    EXPECT_TRUE(contactOf(*back, 0).stretch);
}

TEST(ContactMapInput, ToPlumedRefusesWhatPlumedCannotExpress) {
    ContactMapForce empty;
    expectOpenMMExceptionMentioning([&] { empty.toPlumed(); }, {"it has no contacts", "ATOMS1=a,b"});
    ContactMapForce badCenter;
    badCenter.addContact(-1, 1, 0.3);
    expectOpenMMExceptionMentioning([&] { badCenter.toPlumed(); }, {"contact 0 names the centre -1", "has 0 centres"});
    ContactMapForce oneWeighted;
    oneWeighted.addContact(oneWeighted.addCenter({3}, CoordinationForce::WeightedCenter, {2.0}), 1, 0.3);
    expectOpenMMExceptionMentioning([&] { oneWeighted.toPlumed(); }, {"WeightedCenter of one particle", "GeometricCenter"});
    // A shape toPlumed could not write is refused where it is given (addContact).
    ContactMapForce badShape;
    expectOpenMMExceptionMentioning(
        [&] { badShape.addContact(0, 1, CoordinationForce::Rational, 0.3, 0.0, Infinity, true, {6}, 0.0, 1.0); },
        {"addContact", "shape has 1 entries", "{n, m}"});
    ContactMapForce badExponent;
    expectOpenMMExceptionMentioning(
        [&] {
            badExponent.addContact(0, 1, CoordinationForce::Rational, 0.3, 0.0, Infinity, true, {6.5, 12}, 0.0, 1.0);
        },
        {"addContact", "exponent n", "whole number", "6.5"});
    ContactMapForce noExpression;
    noExpression.addContact(0, 1, CoordinationForce::Custom, 0.3, 0.0, Infinity, true, {}, 0.0, 1.0);
    expectOpenMMExceptionMentioning([&] { noExpression.toPlumed(); }, {"contact 0:"});
    ContactMapForce badR0;
    badR0.addContact(0, 1, -0.3);
    expectOpenMMExceptionMentioning([&] { badR0.toPlumed(); }, {"contact 0:", "r0"});
    ContactMapForce badWeight;
    badWeight.addContact(0, 1, 0.3, 0.0, std::nan(""));
    expectOpenMMExceptionMentioning([&] { badWeight.toPlumed(); }, {"must be finite"});
}

// ------------------------------------------------------------------------------------------------------------------
// Centres: COM and CENTER
// ------------------------------------------------------------------------------------------------------------------

TEST(CenterInput, ComAndCenterLabelsStandInAtomListsOneCentrePerLabel) {
    const string text = "c1: COM ATOMS=1-3\n"
                        "c2: CENTER ATOMS=4,6 WEIGHTS=1,3 NOPBC\n"
                        "c3: CENTER ATOMS=7-8 MASS\n"
                        "c: COORDINATION GROUPA=c2,5-7,c1 GROUPB=c1,9 R_0=0.3\n";
    auto force = parseCoordination(text);
    // fromPlumed: the force gets every centre of the input, in order (c3 too, though no group names it).
    ASSERT_EQ(force->getNumCenters(), 3);
    EXPECT_EQ(force->getGroupA(), vector<int>({-2, 4, 5, 6, -1}));
    EXPECT_EQ(force->getGroupB(), vector<int>({-1, 8}));
    expectSameCenter(centerOf(*force, 0), {{0, 1, 2}, CoordinationForce::CenterOfMass, {}, true});
    expectSameCenter(centerOf(*force, 1), {{3, 5}, CoordinationForce::WeightedCenter, {1, 3}, false});
    expectSameCenter(centerOf(*force, 2), {{6, 7}, CoordinationForce::CenterOfMass, {}, true});
    // fromPlumedFile: each force its own centres, those it names, in the order of their actions; an unused centre
    // is listed as skipped.
    auto forces = readPlumedFileSkipping(text + "d: COORDINATIONNUMBER SPECIES=c2,1-2 R_0=0.3\nCENTER ATOMS=1,2\n",
                                         {"c3: CENTER", "CENTER"});
    ASSERT_EQ(forces.size(), 2u);
    auto& first = dynamic_cast<CoordinationForce&>(*forces[0]);
    ASSERT_EQ(first.getNumCenters(), 2);
    EXPECT_EQ(first.getGroupA(), vector<int>({-2, 4, 5, 6, -1}));
    expectSameCenter(centerOf(first, 0), {{0, 1, 2}, CoordinationForce::CenterOfMass, {}, true});
    auto& numbers = dynamic_cast<CoordinationNumberForce&>(*forces[1]);
    ASSERT_EQ(numbers.getNumCenters(), 1);
    EXPECT_EQ(numbers.getGroupA(), vector<int>({-1, 0, 1}));
    expectSameCenter(centerOf(numbers, 0), {{3, 5}, CoordinationForce::WeightedCenter, {1, 3}, false});
}

TEST(CenterInput, CentresInGroupsAndSortAfterTheAtomsInDefinitionOrder) {
    // PLUMED numbers virtual atoms after the system's atoms, in the order of their definitions.
    const string text = "a: CENTER ATOMS=1,2\nb: COM ATOMS=3,4\n"
                        "g: GROUP ATOMS=b,9,a,5 SORT\n"
                        "h: GROUP ATOMS=g,b REMOVE=9\n"
                        "c: COORDINATION GROUPA=h R_0=0.3\n";
    auto force = parseCoordination(text);
    EXPECT_EQ(force->getGroupA(), vector<int>({4, -1, -2, -2})); // 5, a, b (g sorted), b again, 9 removed
    ASSERT_EQ(force->getNumCenters(), 2);
    auto forces = readPlumedFileSkipping(text, {});
    EXPECT_EQ(dynamic_cast<CoordinationForce&>(*forces[0]).getNumCenters(), 2);
    auto unique = parseCoordination("a: CENTER ATOMS=1,2\nb: COM ATOMS=3,4\ng: GROUP ATOMS=b,a,b,2 UNIQUE\n"
                                    "c: COORDINATION GROUPA=g R_0=0.3");
    EXPECT_EQ(unique->getGroupA(), vector<int>({1, -1, -2}));
    // A contact map's ATOMSn names centres too, directly or through a GROUP.
    auto map = parseMap("a: COM ATOMS=1-4\ng: GROUP ATOMS=a,7\nm: CONTACTMAP ATOMS1=a,5 ATOMS2=g SWITCH={EXP R_0=1}");
    ASSERT_EQ(map->getNumCenters(), 1);
    EXPECT_EQ(contactOf(*map, 0).particle1, -1);
    EXPECT_EQ(contactOf(*map, 1).particle1, -1);
    EXPECT_EQ(contactOf(*map, 1).particle2, 6);
}

TEST(CenterInput, CenterMassAndWeightsMassesAreTheCentreOfMass) {
    for (const string& center : {"c1: CENTER ATOMS=1-3 MASS", "c1: CENTER ATOMS=1-3 WEIGHTS=@Masses",
                                 "c1: COM ATOMS=1-3 SET_MASS=3 SET_CHARGE=1"}) {
        SCOPED_TRACE(center);
        auto force = parseCoordination(center + "\nc: COORDINATION GROUPA=c1,4 R_0=0.3");
        ASSERT_EQ(force->getNumCenters(), 1);
        expectSameCenter(centerOf(*force, 0), {{0, 1, 2}, CoordinationForce::CenterOfMass, {}, true});
    }
    auto geometric = parseCoordination("c1: CENTER ATOMS=1-3\nc: COORDINATION GROUPA=c1,4 R_0=0.3");
    expectSameCenter(centerOf(*geometric, 0), {{0, 1, 2}, CoordinationForce::GeometricCenter, {}, true});
}

TEST(CenterInput, RefusedCentresAreRefusedWhereAForceUsesThem) {
    const string use = "\nc: COORDINATION GROUPA=c1,4 R_0=0.3";
    expectEachInputRefused(
        {
            {"c1: CENTER ATOMS=1-3 PHASES" + use, "PHASES (a centre from the atoms' trigonometric phases"},
            {"c1: COM ATOMS=1-3 PHASES" + use, "PHASES"},
            {"c1: CENTER ATOMS=1-3 SAFE_PHASES" + use, "SAFE_PHASES"},
            {"c1: CENTER ATOMS=1-3 MASS WEIGHTS=1,2,3" + use, "WEIGHTS and MASS cannot be used together"},
            {"c1: CENTER ATOMS=1-3 WEIGHTS=1,2" + use, "WEIGHTS has 2 entries and ATOMS 3 atoms"},
            {"c1: CENTER ATOMS=1-3 WEIGHTS=@Charges" + use, "WEIGHTS=@Charges (the centre of charge) is not supported"},
            {"c1: CENTER ATOMS=1-3 WEIGHTS=w" + use, "WEIGHTS=w has one entry, which PLUMED reads as the label"},
            {"c1: CENTER ATOMS=1 WEIGHTS=2" + use, "give one weight per atom (1 here)"},
            {"c1: CENTER ATOMS=1-2 WEIGHTS=1,-1" + use, "the WEIGHTS sum to 0"},
            {"c1: CENTER ATOMS=1-2 WEIGHTS=1,x" + use, "WEIGHTS=x is not a number"},
            {"c1: COM ATOMS=1-2 MASS" + use, "MASS is not a keyword the PLUMED translator understands in COM"},
            {"c1: COM ATOMS=1-2 WEIGHTS=1,2" + use,
             "WEIGHTS is not a keyword the PLUMED translator understands in COM"},
            {"c1: COM" + use, "ATOMS is required"},
            {"c0: COM ATOMS=5,6\nc1: COM ATOMS=1,c0" + use, "a centre of centres is not supported"},
            {"g: GROUP ATOMS=c1\nc1: COM ATOMS=1,2" + use,
             "not an atom number, a range or the label of a GROUP, COM or "
             "CENTER action before this one"},
        },
        [](const string& text) { parseCoordination(text); });
    // A refused centre that no force uses is an action not read, listed as skipped.
    auto forces = readPlumedFileSkipping(
        "c1: CENTER ATOMS=1-3 PHASES\nd: DISTANCE ATOMS=c1,4\nc: COORDINATION GROUPA=1-4 R_0=0.3",
        {"c1: CENTER", "d: DISTANCE"});
    EXPECT_EQ(forces.size(), 1u);
    // Where a force uses it, its error quotes the centre's action.
    expectOpenMMExceptionMentioning(
        [] { readPlumedFile("c1: CENTER ATOMS=1-3 PHASES\nc: COORDINATION GROUPA=c1,4 R_0=0.3"); },
        {"PHASES", "(in \"c1: CENTER ATOMS=1-3 PHASES\")"});
}

TEST(CenterInput, ToPlumedWritesACentreLinePerCentreAndReadsBackToTheSameSettings) {
    CoordinationForce force;
    force.setMode(CoordinationForce::Pair);
    force.setUsesPeriodicBoundaryConditions(true);
    const int com = force.addCenter({0, 1, 2}, CoordinationForce::CenterOfMass);
    force.addCenter({5, 6}); // named by no group: written, and read back by fromPlumed as the same centre 1
    const int weighted = force.addCenter({7, 9, 8}, CoordinationForce::WeightedCenter, {1.0 / 3.0, 2, -0.5}, false);
    force.setGroupA({weighted, 3, 4, com});
    force.setGroupB({com, 10, weighted, 11});
    force.setR0(0.35);
    const string text = force.toPlumed("x");
    EXPECT_EQ(text, "x_c1: COM ATOMS=1-3\nx_c2: CENTER ATOMS=6-7\nx_c3: CENTER ATOMS=8,10,9 "
                    "WEIGHTS=0.3333333333333333,2,-0.5 NOPBC\n"
                    "x: COORDINATION GROUPA=x_c3,4-5,x_c1 GROUPB=x_c1,11,x_c3,12 PAIR R_0=0.35 NN=6");
    auto back = parseCoordination(text);
    expectSameCoordinationSettings(*back, force);
    ASSERT_EQ(back->getNumCenters(), 3);
    for (int k = 0; k < 3; k++)
        expectSameCenter(centerOf(*back, k), centerOf(force, k));
    // A CoordinationNumberForce's centres the same way.
    CoordinationNumberForce numbers;
    numbers.setGroupA({numbers.addCenter({0, 1}), 2, 3});
    numbers.addReduction(CoordinationNumberForce::Mean, "", "mean");
    const string numbersText = numbers.toPlumed("n");
    EXPECT_EQ(numbersText.substr(0, numbersText.find('\n')), "n_c1: CENTER ATOMS=1-2");
    std::unique_ptr<OpenMM::Force> numbersBack(PlumedTranslator::fromPlumed(numbersText));
    auto& readNumbers = dynamic_cast<CoordinationNumberForce&>(*numbersBack);
    EXPECT_EQ(readNumbers.getGroupA(), numbers.getGroupA());
    ASSERT_EQ(readNumbers.getNumCenters(), 1);
    expectSameCenter(centerOf(readNumbers, 0), centerOf(numbers, 0));
    // What PLUMED cannot write.
    CoordinationForce oneWeighted;
    oneWeighted.setGroupA({oneWeighted.addCenter({3}, CoordinationForce::WeightedCenter, {2.0}), 1});
    expectOpenMMExceptionMentioning([&] { oneWeighted.toPlumed(); }, {"WeightedCenter of one particle"});
    CoordinationForce empty;
    empty.setGroupA({empty.addCenter({}), 1});
    expectOpenMMExceptionMentioning([&] { empty.toPlumed(); }, {"toPlumed cannot write this force"});
    CoordinationForce missing;
    missing.setGroupA({-3, 1});
    expectOpenMMExceptionMentioning([&] { missing.toPlumed(); }, {"toPlumed cannot write this force"});
}
