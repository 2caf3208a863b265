/*
 * Forces are the gradient of the energy: finite differences, symmetries, the chain rule through a
 * nonlinear energy with global parameters, and the CPU platform.
 */

#include "CoordinationTestUtilities.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

const int NumAtoms = 24;
const char* NonlinearEnergy = "0.5*k*(s-s0)^2 + a*s^3";

/**
 * A force with a nonlinear energy and a smooth switching function (stretched to zero at the automatic
 * cutoff, d0 > 0), so that finite differences see no jumps.
 */
CoordinationForce nonlinearForce(CoordinationForce::Mode mode, bool periodic) {
    SwitchingSettings settings;
    settings.setR0(0.3);
    settings.setN(6);
    settings.setM(10);
    settings.setD0(0.05);
    std::vector<int> groupA, groupB;
    if (mode == CoordinationForce::Self) {
        for (int atom = 0; atom < 16; atom++)
            groupA.push_back(atom);
    } else {
        for (int atom = 0; atom < NumAtoms; atom++)
            (atom % 2 == 0 ? groupA : groupB).push_back(atom);
        groupB.push_back(0); // atom 0 in both groups in Dual, paired with itself in Pair
        groupA.push_back(0);
    }
    CoordinationForce force = makeForce(settings, mode, groupA, groupB, NonlinearEnergy, periodic);
    force.addGlobalParameter("k", 3.0);
    force.addGlobalParameter("s0", 2.0);
    force.addGlobalParameter("a", 0.1);
    return force;
}

class Derivatives : public ModeAndBoxTest {
protected:
    std::vector<Vec3> positions() const { return randomPositions(NumAtoms, box(), 7 + (int)mode()); }
};

} // namespace

TEST_P(Derivatives, ForcesAreMinusTheGradientOfTheEnergy) {
    if (!Tolerance::Double)
        GTEST_SKIP() << "finite differences of the energy need double precision (" << testPlatform().label() << ")";
    const std::vector<Vec3> start = positions();
    CoordinationContext system(nonlinearForce(mode(), box().periodic()), start, box());
    Evaluation result = system.evaluate();
    ASSERT_GT(rootMeanSquare(result.forces), 0.1);
    expectForcesNear(result.forces, finiteDifferenceForces(system, start), Tolerance::FiniteDifferenceRelativeToRms);
}

TEST_P(Derivatives, ForcesSumToZero) {
    // Only internal distances enter s: no net force.
    CoordinationContext system(nonlinearForce(mode(), box().periodic()), positions(), box());
    Evaluation result = system.evaluate();
    Vec3 total;
    for (const Vec3& force : result.forces)
        total += force;
    for (int axis = 0; axis < 3; axis++)
        EXPECT_NEAR(total[axis], 0.0,
                    NumAtoms * (Tolerance::Exact * rootMeanSquare(result.forces) + 4 * Tolerance::ForceResolution));
}

TEST_P(Derivatives, EnergyIsTranslationInvariant) {
    const std::vector<Vec3> start = positions();
    CoordinationContext system(nonlinearForce(mode(), box().periodic()), start, box());
    Evaluation before = system.evaluate();
    std::vector<Vec3> moved;
    for (const Vec3& position : start)
        moved.push_back(position + Vec3(0.123, -0.456, 0.789));
    system.getContext().setPositions(moved);
    Evaluation after = system.evaluate();
    expectRelativelyNear(after.energy, before.energy, Tolerance::Coordination);
    expectRelativelyNear(after.s, before.s, Tolerance::Coordination);
    expectForcesNear(after.forces, before.forces, Tolerance::ForceRelativeToRms);
}

INSTANTIATE_TEST_SUITE_P(AllModes, Derivatives,
                         modesAndBoxes({CoordinationForce::Self, CoordinationForce::Dual, CoordinationForce::Pair},
                                       {"NoPBC", "Triclinic"}),
                         modeAndBoxName);

TEST(Periodicity, MovingAnAtomByABoxVectorChangesNothing) {
    const Box box = Box::triclinic();
    const std::vector<Vec3> start = randomPositions(NumAtoms, box, 99);
    CoordinationContext system(nonlinearForce(CoordinationForce::Dual, true), start, box);
    Evaluation before = system.evaluate();
    std::vector<Vec3> moved = start;
    moved[0] += box.cell.a * 2.0 - box.cell.b;
    moved[5] += box.cell.c;
    moved[6] -= box.cell.a + box.cell.b + box.cell.c;
    system.getContext().setPositions(moved);
    Evaluation after = system.evaluate();
    expectRelativelyNear(after.energy, before.energy, Tolerance::Coordination);
    expectForcesNear(after.forces, before.forces, Tolerance::ForceRelativeToRms);
}

TEST(EnergyExpression, GlobalParametersEnterThroughTheChainRule) {
    // E = 0.5 k (s - s0)^2 + a s^3, so F = -(k (s - s0) + 3 a s^2) ds/dx, with s and ds/dx from the brute force.
    const Box box = Box::rectangular();
    const std::vector<Vec3> positions = randomPositions(NumAtoms, box, 3);
    CoordinationForce force = nonlinearForce(CoordinationForce::Self, true);
    CoordinationContext system(force, positions, box);
    BruteForce::Coordination expected = bruteForceOf(force, positions, box);
    const double s = expected.s;
    auto check = [&](double k, double s0, double a) {
        SCOPED_TRACE("k = " + std::to_string(k) + ", s0 = " + std::to_string(s0) + ", a = " + std::to_string(a));
        Evaluation result = system.evaluate();
        expectRelativelyNear(result.energy, 0.5 * k * (s - s0) * (s - s0) + a * s * s * s, Tolerance::Coordination);
        double dEnergyDs = k * (s - s0) + 3 * a * s * s;
        expectForcesNear(result.forces, scaled(expected.gradient, -dEnergyDs), Tolerance::ForceRelativeToRms);
    };
    check(3.0, 2.0, 0.1);
    // Context::setParameter changes the energy and the forces exactly as the expression says.
    system.getContext().setParameter("k", 10.0);
    system.getContext().setParameter("s0", s + 1.0);
    check(10.0, s + 1.0, 0.1);
    system.getContext().setParameter("a", -0.25);
    check(10.0, s + 1.0, -0.25);
    // s itself does not depend on the energy's parameters.
    expectRelativelyNear(system.evaluate().s, s, Tolerance::Coordination);
}

TEST(EnergyExpression, AtTheRestraintMinimumThereIsNoForce) {
    // With a = 0 and s0 = s, dE/ds = 0: the forces vanish while s is unchanged.
    const std::vector<Vec3> positions = randomPositions(NumAtoms, Box::none(), 5);
    CoordinationContext system(nonlinearForce(CoordinationForce::Self, false), positions);
    double s = system.evaluate().s;
    system.getContext().setParameter("a", 0.0);
    system.getContext().setParameter("s0", s);
    Evaluation result = system.evaluate();
    EXPECT_NEAR(result.energy, 0.0, Tolerance::Exact);
    for (const Vec3& f : result.forces)
        EXPECT_NEAR(std::sqrt(f.dot(f)), 0.0, Tolerance::Exact);
}

TEST(Platforms, CpuPlatformAgreesWithReference) {
    if (testPlatform().platform != "Reference")
        GTEST_SKIP() << "compares the CPU and Reference platforms: run with the Reference case";
    bool hasCpu = false;
    for (int i = 0; i < OpenMM::Platform::getNumPlatforms(); i++)
        hasCpu = hasCpu || OpenMM::Platform::getPlatform(i).getName() == "CPU";
    if (!hasCpu) {
        std::string failures;
        for (const std::string& failure : OpenMM::Platform::getPluginLoadFailures())
            failures += "\n" + failure;
        GTEST_SKIP() << "OpenMM's CPU platform was not loaded (set OPENMM_PLUGIN_DIR)" << failures;
    }
    const Box box = Box::triclinic();
    const std::vector<Vec3> positions = randomPositions(NumAtoms, box, 11);
    for (CoordinationForce::Mode mode : {CoordinationForce::Self, CoordinationForce::Dual, CoordinationForce::Pair}) {
        SCOPED_TRACE(modeName(mode));
        CoordinationForce force = nonlinearForce(mode, true);
        Evaluation reference = CoordinationContext(force, positions, box, PlatformCase{"Reference", ""}).evaluate();
        CoordinationContext cpu(force, positions, box, PlatformCase{"CPU", ""});
        EXPECT_EQ(cpu.getContext().getPlatform().getName(), "CPU");
        expectSameEvaluation(cpu.evaluate(), reference, Tolerance::Coordination, Tolerance::Coordination,
                             Tolerance::ForceRelativeToRms, 1e-12);
    }
}
