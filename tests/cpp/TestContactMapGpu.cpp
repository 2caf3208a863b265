/*
 * The paths of the GPU kernel of ContactMapForce, against the long-double oracle (they run on every platform): a
 * large map (several blocks and a finish) with centres in a triclinic box, the same numbers again bitwise; a small
 * map (one block) with more contacts than threads; a non-finite coordinate in a large map; OpenMM's reordering and
 * wrapping of the atoms while a simulation runs.
 */

#include "ContactMapTestSupport.h"
#include "openmm/NonbondedForce.h"
#include <limits>

using namespace CoordinationTest;
using CoordinationPlugin::ContactMapForce;
using OpenMM::Vec3;
using std::string;
using std::vector;

namespace {

/** The GPU kernel evaluates maps of up to this many contacts in one block (CommonContactMapPlan), more in a grid. */
const int SmallMapMaxContacts = 2048;

/** Centres of 3 to 5 random particles with random weights, made whole or not as asked. */
vector<OracleCenter> randomCenters(int count, int numParticles, bool makeWhole, unsigned seed) {
    UniformRandom random(seed);
    vector<OracleCenter> centers;
    for (int k = 0; k < count; k++) {
        OracleCenter center;
        const int size = 3 + (int) (3 * random());
        for (int j = 0; j < size; j++) {
            center.particles.push_back((int) (numParticles * random()));
            center.weights.push_back(0.5 + random());
        }
        center.makeWhole = makeWhole;
        centers.push_back(center);
    }
    return centers;
}

/**
 * `count` contacts of every switching type in turn (each type's settings of everyTypeContacts, so several kinds of
 * switching function share the launch), between random particles; every fifth has a centre as one member.
 */
vector<OracleContact> randomContacts(int count, int numParticles, int numCenters, unsigned seed) {
    const vector<OracleContact> typed = everyTypeContacts("exp(-x)", false);
    UniformRandom random(seed);
    vector<OracleContact> contacts;
    for (int n = 0; n < count; n++) {
        const OracleContact& model = typed[n % typed.size()];
        int first = (int) (numParticles * random());
        const int second = (int) (numParticles * random());
        if (numCenters > 0 && n % 5 == 0)
            first = -1 - (int) (numCenters * random());
        contacts.push_back({first, second, model.settings, 0.25 * random(), 0.5 + random()});
    }
    return contacts;
}

} // namespace

TEST(ContactMapGpu, ALargeMapWithCentresInATriclinicBoxMatchesTheOracleAndRepeatsBitwise) {
    const Box box = Box::triclinic();
    const int numParticles = 300;
    vector<OracleCenter> centers = randomCenters(12, numParticles, true, 3);
    const vector<OracleCenter> loose = randomCenters(8, numParticles, false, 4);
    centers.insert(centers.end(), loose.begin(), loose.end());
    const vector<OracleContact> contacts = randomContacts(SmallMapMaxContacts + 500, numParticles, centers.size(), 5);
    ContactMapContext tested(makeContactMap(ContactMapForce::Sum, contacts, centers, "exp(-x)", true),
                             randomPositions(numParticles, box, 6), box);
    for (unsigned seed : {6u, 7u}) {
        SCOPED_TRACE("positions " + std::to_string(seed));
        const vector<Vec3> positions = randomPositions(numParticles, box, seed);
        tested.getContext().setPositions(positions);
        const ContactMapEvaluation first = tested.evaluate();
        expectMatchesOracle(first, mapOracle(ContactMapForce::Sum, contacts, centers, positions, box.cell));
        // Fixed-order sums and fixed-point forces: the same positions give the same bits.
        const ContactMapEvaluation second = tested.evaluate();
        EXPECT_EQ(first.energy, second.energy);
        EXPECT_EQ(first.variables, second.variables);
        EXPECT_EQ(first.contactValues, second.contactValues);
        for (int i = 0; i < numParticles; i++)
            EXPECT_EQ(first.forces[i], second.forces[i]) << "particle " << i;
    }
}

TEST(ContactMapGpu, ASmallMapWithMoreContactsThanOneBlockHasThreadsMatchesTheOracle) {
    // 1,500 contacts: one block of at most 256 threads, each thread evaluating several; no periodicity, in a box.
    const Box box = Box::rectangular();
    const int numParticles = 200;
    const vector<OracleContact> contacts = randomContacts(1500, numParticles, 0, 8);
    const vector<Vec3> positions = randomPositions(numParticles, box, 9);
    ContactMapContext tested(makeContactMap(ContactMapForce::Distance, contacts, {}, "exp(-x)", false), positions, box);
    expectMatchesOracle(tested.evaluate(),
                        mapOracle(ContactMapForce::Distance, contacts, {}, positions, Box::none().cell));
}

TEST(ContactMapGpu, ANonFiniteCoordinateInALargeMapGivesNaNEverywhereAndNoForce) {
    if (testPlatform().platform == "CPU")
        GTEST_SKIP() << "OpenMM's CPU platform refuses non-finite coordinates itself";
    const Box box = Box::rectangular();
    const int numParticles = 300;
    const vector<OracleCenter> centers = randomCenters(4, numParticles, true, 10);
    const vector<OracleContact> contacts = randomContacts(SmallMapMaxContacts + 100, numParticles, centers.size(), 11);
    const vector<Vec3> positions = randomPositions(numParticles, box, 12);
    ContactMapContext tested(makeContactMap(ContactMapForce::Sum, contacts, centers, "exp(-x)", true), positions, box);
    // A particle of a contact, then one that only a centre holds.
    const int centreOnly = centers[1].particles[0];
    for (int particle : {contacts[7].particle2, centreOnly}) {
        SCOPED_TRACE("particle " + std::to_string(particle));
        vector<Vec3> broken = positions;
        broken[particle][1] = std::numeric_limits<double>::quiet_NaN();
        tested.getContext().setPositions(broken);
        const ContactMapEvaluation actual = tested.evaluate();
        EXPECT_TRUE(std::isnan(actual.energy));
        EXPECT_TRUE(std::isnan(actual.variables[0]));
        for (size_t n = 0; n < actual.contactValues.size(); n++)
            EXPECT_TRUE(std::isnan(actual.contactValues[n])) << "contact " << n;
        expectAllForcesZero(actual.forces);
    }
    tested.getContext().setPositions(positions);
    expectMatchesOracle(tested.evaluate(), mapOracle(ContactMapForce::Sum, contacts, centers, positions, box.cell));
}

TEST(ContactMapGpu, ItFollowsOpenMMsReorderingAndWrappingOfTheAtoms) {
    // A NonbondedForce with a cutoff makes the GPU platforms reorder the atoms (every 250 steps) and wrap them into
    // the box. A non-periodic map (one block, centres not made whole) must see the positions as the user gave them;
    // a periodic map (a grid of blocks, centres made whole) its minimum images.
    const Box box = Box::rectangular();
    const int numParticles = 300;
    OpenMM::System system;
    for (int i = 0; i < numParticles; i++)
        system.addParticle(1000.0); // heavy: the maps' forces barely move them
    system.setDefaultPeriodicBoxVectors(box.cell.a, box.cell.b, box.cell.c);
    auto* nonbonded = new OpenMM::NonbondedForce();
    nonbonded->setNonbondedMethod(OpenMM::NonbondedForce::CutoffPeriodic);
    nonbonded->setCutoffDistance(1.0);
    for (int i = 0; i < numParticles; i++)
        nonbonded->addParticle(0.0, 0.1, 0.0);
    system.addForce(nonbonded);
    const vector<OracleCenter> looseCenters = randomCenters(6, numParticles, false, 13);
    const vector<OracleContact> smallContacts = randomContacts(400, numParticles, looseCenters.size(), 14);
    ContactMapForce smallMap = makeContactMap(ContactMapForce::Sum, smallContacts, looseCenters, "exp(-x)", false);
    smallMap.setForceGroup(1);
    system.addForce(new ContactMapForce(smallMap));
    const vector<OracleCenter> wholeCenters = randomCenters(6, numParticles, true, 15);
    const vector<OracleContact> largeContacts = randomContacts(SmallMapMaxContacts + 300, numParticles, wholeCenters.size(), 16);
    ContactMapForce largeMap = makeContactMap(ContactMapForce::Distance, largeContacts, wholeCenters, "exp(-x)", true);
    largeMap.setForceGroup(2);
    system.addForce(new ContactMapForce(largeMap));
    OpenMM::VerletIntegrator integrator(1e-4);
    OpenMM::Context context(system, integrator, OpenMM::Platform::getPlatformByName(testPlatform().platform),
                            testPlatform().properties());
    // Positions in and around the cell: the first reordering wraps those outside it.
    context.setPositions(randomPositions(numParticles, box, 17));
    integrator.step(260);
    const vector<Vec3> positions = context.getState(OpenMM::State::Positions).getPositions();
    struct Case {
        const char* name;
        int group;
        ContactMapForce::Reduction reduction;
        const vector<OracleContact>& contacts;
        const vector<OracleCenter>& centers;
        BruteForce::Cell cell;
    };
    for (const Case& c : {Case{"non-periodic", 1, ContactMapForce::Sum, smallContacts, looseCenters, Box::none().cell},
                          Case{"periodic", 2, ContactMapForce::Distance, largeContacts, wholeCenters, box.cell}}) {
        SCOPED_TRACE(c.name);
        const OracleContactMap expected = mapOracle(c.reduction, c.contacts, c.centers, positions, c.cell);
        const OpenMM::State state = context.getState(OpenMM::State::Energy | OpenMM::State::Forces, false, 1 << c.group);
        expectRelativelyNear(state.getPotentialEnergy(), expected.energy, Tolerance::Coordination, "energy");
        expectForcesNear(state.getForces(), expected.forces, Tolerance::ForceRelativeToRms,
                         std::max(1e-12, Tolerance::ForceResolution * 4));
    }
}
