/*
 * ContactMapForce's numbers: every reduction, every switching type with per-contact settings, with and without
 * periodic boxes, against the long-double oracle of PLUMED's definitions (BruteForceContactMap.h); forces against
 * finite differences; energy-parameter derivatives; r = 0; the non-finite rule; a CustomCVForce; PLUMED's
 * contactmap-rt28 regression data.
 */

#include "ContactMapTestSupport.h"
#include "PlumedTestSupport.h"
#include <limits>

using namespace CoordinationTest;
using CoordinationPlugin::ContactMapForce;
using CoordinationPlugin::CoordinationForce;
using OpenMM::Vec3;
using std::string;
using std::vector;

namespace {

const ContactMapForce::Reduction Reductions[] = {ContactMapForce::Sum, ContactMapForce::Distance,
                                                 ContactMapForce::Components};

/** Positions of 12 particles: within 1.2 nm without a box (most contacts in range), in and around the cell with one. */
vector<Vec3> mapPositions(const Box& box, unsigned seed) {
    vector<Vec3> positions = randomPositions(12, box, seed);
    if (!box.periodic())
        for (Vec3& position : positions)
            position *= 0.48;
    return positions;
}

} // namespace

TEST(ContactMap, EveryReductionAndSwitchingTypeMatchesPlumedsDefinitionsWithAndWithoutABox) {
    // Rational (three settings), Exponential, Gaussian, Smap, Cubic, Tanh, Cosinus, NativeQ (two), Custom (two), each
    // twice with its own r0, d0, dmax and stretch, references and weights, a contact of a particle with itself and
    // one with a centre; in each box, for each reduction.
    for (const Box& box : {Box::none(), Box::rectangular(), Box::triclinic()})
        for (ContactMapForce::Reduction reduction : Reductions) {
            SCOPED_TRACE(box.name + " " + reductionName(reduction));
            const string custom = (box.name == "Rectangular" ? "1/(1+x2^3)" : "(1+x)*exp(-2*x)");
            const vector<OracleContact> contacts = everyTypeContacts(custom, true);
            const vector<OracleCenter> centers = oneCenter();
            const vector<Vec3> positions = mapPositions(box, 31 + 7 * (int) reduction);
            ContactMapContext tested(makeContactMap(reduction, contacts, centers, custom, box.periodic()), positions, box);
            expectMatchesOracle(tested.evaluate(), mapOracle(reduction, contacts, centers, positions, box.cell));
            // The same Context at other positions.
            const vector<Vec3> moved = mapPositions(box, 97 + (int) reduction);
            tested.getContext().setPositions(moved);
            expectMatchesOracle(tested.evaluate(), mapOracle(reduction, contacts, centers, moved, box.cell));
        }
}

TEST(ContactMap, WithoutPeriodicBoundaryConditionsAPeriodicSystemUsesPlainDistances) {
    const Box box = Box::rectangular();
    const vector<OracleContact> contacts = everyTypeContacts("exp(-x)", false);
    const vector<Vec3> positions = mapPositions(box, 5);
    ContactMapContext tested(makeContactMap(ContactMapForce::Sum, contacts, {}, "exp(-x)", false), positions, box);
    BruteForce::Cell plain = box.cell;
    plain.periodic = false;
    expectMatchesOracle(tested.evaluate(), mapOracle(ContactMapForce::Sum, contacts, {}, positions, plain));
}

TEST(ContactMap, ForcesAreMinusTheGradientOfTheEnergy) {
    if (!Tolerance::Double)
        GTEST_SKIP() << "finite differences need double precision";
    for (const Box& box : {Box::none(), Box::triclinic()})
        for (ContactMapForce::Reduction reduction : Reductions) {
            SCOPED_TRACE(box.name + " " + reductionName(reduction));
            const vector<OracleContact> contacts = everyTypeContacts("(1+x)*exp(-2*x)", true);
            const vector<Vec3> positions = mapPositions(box, 11 + (int) reduction);
            ContactMapContext tested(makeContactMap(reduction, contacts, oneCenter(), "(1+x)*exp(-2*x)", box.periodic()),
                                     positions, box);
            expectForcesNear(tested.evaluate().forces, finiteDifferenceForces(tested, positions),
                             Tolerance::FiniteDifferenceRelativeToRms);
        }
}

TEST(ContactMap, EnergyParameterDerivativesAreThoseOfTheEnergyExpression) {
    const vector<OracleContact> contacts = everyTypeContacts("exp(-x)", false);
    const vector<Vec3> positions = mapPositions(Box::none(), 3);
    ContactMapForce force = makeContactMap(ContactMapForce::Sum, contacts, {}, "exp(-x)", false);
    force.addEnergyParameterDerivative("s0");
    force.addEnergyParameterDerivative("k");
    ContactMapContext tested(force, positions);
    tested.getContext().setParameter("k", 2.25);
    const std::map<string, double> derivatives =
        tested.getContext().getState(OpenMM::State::ParameterDerivatives).getEnergyParameterDerivatives();
    // E = k/2 (s - s0)^2: dE/dk = (s - s0)^2 / 2, dE/ds0 = -k (s - s0).
    const double s = mapOracle(ContactMapForce::Sum, contacts, {}, positions, Box::none().cell).variables[0];
    expectRelativelyNear(derivatives.at("k"), 0.5 * (s - 0.7) * (s - 0.7), Tolerance::Coordination, "dE/dk");
    expectRelativelyNear(derivatives.at("s0"), -2.25 * (s - 0.7), Tolerance::Coordination, "dE/ds0");
}

TEST(ContactMap, AContactOfZeroLengthCountsSigmaAtZeroAndHasNoForce) {
    // Each type's contact of a particle with itself and of two coincident particles: sigma(0) (stretched where the
    // contact is), as PLUMED's CONTACTMAP evaluates it at the distance; no direction, so no force.
    const vector<OracleContact> typed = everyTypeContacts("1/(1+x2^3)", false);
    vector<OracleContact> contacts;
    for (size_t k = 0; k < typed.size(); k += 2) {
        contacts.push_back({0, 0, typed[k].settings, 0.25, 2.0});
        contacts.push_back({1, 2, typed[k].settings, 0.0, 1.0});
    }
    const vector<Vec3> positions = {Vec3(0.1, 0.2, 0.3), Vec3(0.5, 0.5, 0.5), Vec3(0.5, 0.5, 0.5)};
    for (ContactMapForce::Reduction reduction : Reductions) {
        SCOPED_TRACE(reductionName(reduction));
        ContactMapContext tested(makeContactMap(reduction, contacts, {}, "1/(1+x2^3)", false), positions);
        const ContactMapEvaluation actual = tested.evaluate();
        const OracleContactMap expected = mapOracle(reduction, contacts, {}, positions, Box::none().cell);
        expectValuesNear(actual.contactValues, expected.contactValues, Tolerance::Coordination, "contact");
        expectRelativelyNear(actual.energy, expected.energy, Tolerance::Coordination, "energy");
        expectAllForcesZero(actual.forces);
    }
}

TEST(ContactMap, ANonFiniteCoordinateOfAUsedParticleGivesANaNEnergyAndNoForce) {
    const vector<OracleContact> contacts = everyTypeContacts("exp(-x)", true);
    vector<Vec3> positions = mapPositions(Box::none(), 9);
    positions.push_back(Vec3(0.1, 0.1, 0.1)); // particle 12: in no contact
    for (ContactMapForce::Reduction reduction : Reductions) {
        SCOPED_TRACE(reductionName(reduction));
        ContactMapContext tested(makeContactMap(reduction, contacts, oneCenter(), "exp(-x)", false), positions);
        // Particle 10 is only in the centre. (OpenMM's CPU platform refuses a NaN coordinate before any force runs.)
        const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
        for (std::pair<int, double> bad : {std::make_pair(4, inf), std::make_pair(10, -inf), std::make_pair(4, nan)}) {
            SCOPED_TRACE("particle " + std::to_string(bad.first) + " at " + std::to_string(bad.second));
            vector<Vec3> broken = positions;
            broken[bad.first][1] = bad.second;
            tested.getContext().setPositions(broken);
            if (std::isnan(bad.second) && testPlatform().platform == "CPU") {
                expectOpenMMExceptionMentioning([&]() { tested.evaluate(); }, {"NaN"});
                continue;
            }
            const ContactMapEvaluation actual = tested.evaluate();
            EXPECT_TRUE(std::isnan(actual.energy));
            expectAllForcesZero(actual.forces);
            for (double value : actual.contactValues)
                EXPECT_TRUE(std::isnan(value));
            for (double value : actual.variables)
                EXPECT_TRUE(std::isnan(value));
        }
        // A particle in no contact and no centre does not matter; finite positions give finite numbers again.
        vector<Vec3> unused = positions;
        unused[12][0] = inf;
        tested.getContext().setPositions(unused);
        EXPECT_TRUE(std::isfinite(tested.energy()));
    }
}

TEST(ContactMap, ANonFiniteSwitchingValueOrEnergyGivesANaNEnergyAndNoForce) {
    const vector<Vec3> positions = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.6, 0)};
    // A Custom function undefined beyond x = 1 (the second contact's x is 2), and an energy undefined for s < 1.
    ContactMapForce custom("s");
    custom.setCustomSwitchingFunction("sqrt(1-x)");
    custom.addContact(0, 1, 0.3);
    custom.addContact(0, 2, CoordinationForce::Custom, 0.3, 0.0, Infinity, false, {}, 0.0, 1.0);
    ContactMapForce energy("log(s-1)");
    energy.addContact(0, 1, 0.3);
    energy.addContact(0, 2, 0.3);
    for (const ContactMapForce& force : {custom, energy}) {
        ContactMapContext tested(force, positions);
        const ContactMapEvaluation actual = tested.evaluate();
        EXPECT_TRUE(std::isnan(actual.energy)) << force.getEnergyFunction();
        expectAllForcesZero(actual.forces);
    }
}

TEST(ContactMap, AsAVariableOfACustomCVForceItIsReadAndUpdatedThroughTheOuterContext) {
    const vector<OracleContact> contacts = everyTypeContacts("exp(-x)", false);
    const vector<Vec3> positions = mapPositions(Box::none(), 17);
    CollectiveVariableContext<ContactMapForce> outer(
        "2*cm", "cm", makeContactMap(ContactMapForce::Components, contacts, {}, "exp(-x)", false), positions);
    OpenMM::Context& context = outer.getContext();
    ContactMapForce* map = &outer.getVariable();
    const OracleContactMap expected = mapOracle(ContactMapForce::Components, contacts, {}, positions, Box::none().cell);
    vector<double> values, variables;
    map->getContactValues(context, values);
    map->getCollectiveVariableValues(context, variables);
    expectValuesNear(values, expected.contactValues, Tolerance::Coordination, "contact");
    expectValuesNear(variables, expected.contactValues, Tolerance::Coordination, "variable");
    const OpenMM::State state = context.getState(OpenMM::State::Energy | OpenMM::State::Forces);
    expectRelativelyNear(state.getPotentialEnergy(), 2 * expected.energy, Tolerance::Coordination, "energy");
    expectForcesNear(state.getForces(), scaled(expected.forces, 2.0), Tolerance::ForceRelativeToRms);
    // A changed weight reaches the inner context.
    int particle1, particle2;
    CoordinationForce::SwitchingFunction type;
    double r0, d0, dmax, reference, weight;
    bool stretch;
    vector<double> shape;
    map->getContactParameters(0, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
    map->setContactParameters(0, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, 3 * weight);
    map->updateParametersInContext(context);
    map->getContactValues(context, values);
    expectRelativelyNear(values[0], 3 * expected.contactValues[0], Tolerance::Coordination, "updated contact 0");
}

TEST(ContactMap, AMapOfManyContactsMatchesTheOracle) {
    // 3,000 contacts among 400 particles in a periodic box (the CPU platform's work items, a GPU's many blocks).
    const Box box = Box::rectangular();
    const vector<Vec3> positions = randomPositions(400, box, 71);
    const vector<OracleContact> typed = everyTypeContacts("exp(-x)", false);
    vector<OracleContact> contacts;
    UniformRandom random(5);
    for (int n = 0; n < 3000; n++) {
        const OracleContact& model = typed[n % typed.size()];
        contacts.push_back({(int) (400 * random()), (int) (400 * random()), model.settings, 0.25 * random(), 0.5 + random()});
    }
    for (ContactMapForce::Reduction reduction : {ContactMapForce::Sum, ContactMapForce::Distance}) {
        SCOPED_TRACE(reductionName(reduction));
        ContactMapContext tested(makeContactMap(reduction, contacts, {}, "exp(-x)", true), positions, box);
        expectMatchesOracle(tested.evaluate(), mapOracle(reduction, contacts, {}, positions, box.cell));
    }
}

namespace {

/** Half a unit in the last of the six decimals PLUMED printed (%f, %8.6f), values exactly at half a unit included. */
double printed6() { return printed(6, 1e-9); }

/** contactmap-rt28's contacts, 1-based atoms: ATOMSn, R_0, REFERENCEn, WEIGHTn (all RATIONAL D_MAX=2.6 NOSTRETCH). */
struct Rt28Contact {
    int atom1, atom2;
    double r0, reference, weight;
};
const Rt28Contact MapA[] = {{10, 20, 0.5, 0.1, 0.5}, {20, 30, 0.1, 1.1, 1.5}, {15, 25, 0.2, 0.5, 1.0},
                            {5, 20, 0.3, 0.4, 0.5}, {40, 108, 0.5, 0.3, 0.25}};
const Rt28Contact MapC[] = {{1, 2, 0.5, 0.0, 1.0}, {2, 3, 0.1, 0.0, 1.0}, {5, 2, 0.2, 0.0, 1.0},
                            {4, 2, 0.3, 0.0, 1.0}, {4, 10, 0.5, 0.0, 1.0}};

ContactMapForce* rt28Map(const Rt28Contact* contacts, int first, int count, ContactMapForce::Reduction reduction) {
    auto* force = new ContactMapForce("s", reduction);
    force->setUsesPeriodicBoundaryConditions(true);
    for (int n = first; n < first + count; n++)
        force->addContact(contacts[n].atom1 - 1, contacts[n].atom2 - 1, CoordinationForce::Rational, contacts[n].r0, 0.0,
                          2.6, false, {6, 0}, contacts[n].reference, contacts[n].weight);
    return force;
}

} // namespace

TEST(ContactMapPlumedRegtest, Rt28CmdistAndComponentsAndTheirDerivativesOnEveryFrame) {
    // a: CONTACTMAP ... CMDIST (five contacts with REFERENCEn and WEIGHTn); c: five contacts, components contact-n.
    // colvar.reference: a, c.contact-1, c.contact-5 (%f). deriv.reference: d a / d x of each entry of a's atom list,
    // which is its ATOMSn first atoms, then its second atoms (PLUMED's pair list), %8.6f.
    const vector<vector<double>> colvar = plumedRows("contactmap-rt28/colvar.reference");
    const vector<vector<double>> deriv = plumedRows("contactmap-rt28/deriv.reference");
    ASSERT_EQ(colvar.size(), 5u);
    ASSERT_EQ(deriv.size(), 5u * 39);
    for (int frame = 0; frame < 5; frame++) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        double edge;
        const vector<Vec3> positions = trajectoryFrame(frame, edge);
        // Group 0: the whole map a; group 1 + n: a's contact n alone (its entries' derivatives); group 6: map c.
        ContactMapForce* mapA = rt28Map(MapA, 0, 5, ContactMapForce::Distance);
        vector<OpenMM::Force*> maps = {mapA};
        for (int n = 0; n < 5; n++) {
            maps.push_back(rt28Map(MapA, n, 1, ContactMapForce::Distance));
            maps.back()->setForceGroup(1 + n);
        }
        ContactMapForce* mapC = rt28Map(MapC, 0, 5, ContactMapForce::Components);
        mapC->setEnergyFunction("0");
        mapC->setForceGroup(6);
        maps.push_back(mapC);
        SystemContext system(unitMasses(positions.size()), Box::cube(edge), maps);
        OpenMM::Context& context = system.getContext();
        context.setPositions(positions);
        vector<double> a, c;
        mapA->getCollectiveVariableValues(context, a);
        mapC->getCollectiveVariableValues(context, c);
        EXPECT_NEAR(a[0], colvar[frame][1], printed6()) << "a";
        EXPECT_NEAR(c[0], colvar[frame][2], printed6()) << "c.contact-1";
        EXPECT_NEAR(c[4], colvar[frame][3], printed6()) << "c.contact-5";
        // Each entry's derivative: -(force of its contact's map) on its particle.
        for (int n = 0; n < 5; n++) {
            const vector<Vec3> forces = context.getState(OpenMM::State::Forces, false, 1 << (1 + n)).getForces();
            for (int side = 0; side < 2; side++) {
                const int entry = n + 5 * side;
                const int atom = (side == 0 ? MapA[n].atom1 : MapA[n].atom2) - 1;
                for (int axis = 0; axis < 3; axis++) {
                    const vector<double>& row = deriv[39 * frame + 3 * entry + axis];
                    ASSERT_EQ((int) row[1], 3 * entry + axis);
                    EXPECT_NEAR(-forces[atom][axis], row[2], printed6()) << "entry " << entry << " axis " << axis;
                }
            }
        }
        // The whole map's forces are the sums of its entries' derivatives per particle.
        const vector<Vec3> forces = context.getState(OpenMM::State::Forces, false, 1).getForces();
        vector<Vec3> expected(positions.size());
        for (int n = 0; n < 5; n++)
            for (int axis = 0; axis < 3; axis++) {
                expected[MapA[n].atom1 - 1][axis] -= deriv[39 * frame + 3 * n + axis][2];
                expected[MapA[n].atom2 - 1][axis] -= deriv[39 * frame + 3 * (n + 5) + axis][2];
            }
        for (size_t i = 0; i < positions.size(); i++)
            for (int axis = 0; axis < 3; axis++)
                EXPECT_NEAR(forces[i][axis], expected[i][axis], 3 * printed6()) << "particle " << i + 1;
    }
}
