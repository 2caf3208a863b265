/*
 * The CPU platform's own kernel (threads, cell list) against the Reference kernel, on systems large
 * enough for the cell list, and its determinism across runs and thread counts. Runs with
 * COORDINATION_TEST_PLATFORM=CPU (skipped on other platforms: the suite's other files cover them).
 */

#include "CoordinationTestUtilities.h"
#include <tuple>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

/** s, energy and forces of a force on the given platform (Threads for CPU, 0 = the platform's default). */
Evaluation evaluateOn(const std::string& platformName, const CoordinationForce& prototype,
                      const std::vector<Vec3>& positions, const Box& box, int threads = 0) {
    OpenMM::System system;
    for (size_t i = 0; i < positions.size(); i++)
        system.addParticle(1.0);
    if (box.periodic())
        system.setDefaultPeriodicBoxVectors(box.cell.a, box.cell.b, box.cell.c);
    CoordinationForce* force = new CoordinationForce(prototype);
    system.addForce(force);
    OpenMM::VerletIntegrator integrator(0.001);
    std::map<std::string, std::string> properties;
    if (threads > 0)
        properties["Threads"] = std::to_string(threads);
    OpenMM::Context context(system, integrator, OpenMM::Platform::getPlatformByName(platformName), properties);
    context.setPositions(positions);
    OpenMM::State state = context.getState(OpenMM::State::Energy | OpenMM::State::Forces);
    return {state.getPotentialEnergy(), force->getCoordination(context), state.getForces()};
}

/** Random positions at about 25 atoms/nm^3 in the box (or a 5 nm cube), some of them outside it. */
std::vector<Vec3> densePositions(int count, const Box& box, unsigned seed) {
    UniformRandom random(seed);
    std::vector<Vec3> positions;
    for (int i = 0; i < count; i++) {
        double u = random(), v = random(), w = random();
        Vec3 position = (box.periodic() ? box.cell.a * u + box.cell.b * v + box.cell.c * w : Vec3(u, v, w) * 5.0);
        if (box.periodic() && i % 97 == 0)
            position += box.cell.a * 3.0 - box.cell.c * 2.0; // far outside: wrapping must not matter
        positions.push_back(position);
    }
    return positions;
}

Box cube(double edge) {
    return {"Cube", {true, Vec3(edge, 0, 0), Vec3(0, edge, 0), Vec3(0, 0, edge)}};
}

/** A force over most atoms with repeated and shared entries, for each mode. */
CoordinationForce largeForce(CoordinationForce::Mode mode, int numAtoms, const SwitchingSettings& settings, bool periodic) {
    std::vector<int> groupA, groupB;
    for (int atom = 0; atom < numAtoms; atom++) {
        if (mode == CoordinationForce::Self)
            groupA.push_back(atom);
        else
            (atom % 2 == 0 ? groupA : groupB).push_back(atom);
    }
    groupA.push_back(7);                 // an atom listed twice
    if (mode != CoordinationForce::Self)
        groupB.push_back(groupA[3]);     // an atom in both groups (Pair: paired with itself)
    if (mode == CoordinationForce::Pair)
        groupB.resize(groupA.size(), 1);
    return makeForce(settings, mode, groupA, groupB, "0.5*(s-100)^2", periodic);
}

void expectSameAsReference(const Evaluation& cpu, const Evaluation& reference) {
    expectRelativelyNear(cpu.s, reference.s, 1e-12, "s");
    expectRelativelyNear(cpu.energy, reference.energy, 1e-11, "energy");
    expectForcesNear(cpu.forces, reference.forces, 1e-11);
}

class CpuKernel : public ::testing::TestWithParam<std::tuple<CoordinationForce::Mode, std::string>> {
protected:
    void SetUp() override {
        if (testPlatform().platform != "CPU")
            GTEST_SKIP() << "compares the CPU platform's kernel with the Reference kernel: run with the CPU case";
    }
};

class CpuKernelOnly : public ::testing::Test {
protected:
    void SetUp() override {
        if (testPlatform().platform != "CPU")
            GTEST_SKIP() << "compares the CPU platform's kernel with the Reference kernel: run with the CPU case";
    }
};

} // namespace

TEST_P(CpuKernel, MatchesTheReferenceKernelWithACellList) {
    // 3,000 atoms, dmax 0.9 nm: 5 cells per axis in the 5 nm cube (the cell list), all pairs in the
    // triclinic box; no PBC: cells over the atoms' bounding box.
    const CoordinationForce::Mode mode = std::get<0>(GetParam());
    const std::string boxName = std::get<1>(GetParam());
    const Box box = (boxName == "Cube" ? cube(5.0) : boxNamed(boxName));
    const std::vector<Vec3> positions = densePositions(3000, box, 17 + (int) mode);
    SwitchingSettings settings;
    settings.r0 = 0.3;
    settings.dmax = 0.9;
    CoordinationForce force = largeForce(mode, 3000, settings, box.periodic());
    Evaluation reference = evaluateOn("Reference", force, positions, box);
    ASSERT_GT(reference.s, mode == CoordinationForce::Pair ? 1.0 : 100.0);
    expectSameAsReference(evaluateOn("CPU", force, positions, box, 3), reference);
}

INSTANTIATE_TEST_SUITE_P(AllModesAndBoxes, CpuKernel,
                         ::testing::Combine(::testing::Values(CoordinationForce::Self, CoordinationForce::Dual,
                                                              CoordinationForce::Pair),
                                            ::testing::Values("Cube", "NoPBC", "Triclinic")),
                         [](const ::testing::TestParamInfo<CpuKernel::ParamType>& info) {
                             return modeName(std::get<0>(info.param)) + std::get<1>(info.param);
                         });

TEST_F(CpuKernelOnly, ThreadCountsGiveTheSameCoordinationAndRunsRepeatBitwise) {
    const Box box = cube(4.0);
    const std::vector<Vec3> positions = densePositions(2000, box, 5);
    SwitchingSettings settings;
    settings.r0 = 0.3;
    settings.dmax = 1.0;
    CoordinationForce force = largeForce(CoordinationForce::Self, 2000, settings, true);
    Evaluation one = evaluateOn("CPU", force, positions, box, 1);
    for (int threads : {2, 3, 4, 7}) {
        SCOPED_TRACE("Threads = " + std::to_string(threads));
        Evaluation first = evaluateOn("CPU", force, positions, box, threads);
        Evaluation second = evaluateOn("CPU", force, positions, box, threads);
        // s is summed in chunks that do not depend on the thread count: the same to the last bit.
        EXPECT_EQ(first.s, one.s);
        EXPECT_EQ(first.energy, one.energy);
        // Forces: each thread's own buffer, summed in thread order: bitwise the same run to run, and
        // within rounding of the single-threaded sum.
        for (size_t i = 0; i < positions.size(); i++)
            ASSERT_EQ(first.forces[i], second.forces[i]) << "particle " << i;
        expectForcesNear(first.forces, one.forces, 1e-13);
    }
}

TEST_F(CpuKernelOnly, CutoffsTooLongForCellsAndScatteredAtomsStillMatch) {
    SwitchingSettings settings;
    settings.r0 = 0.4;
    // A cutoff longer than a third of the box: every pair, with the minimum image.
    const Box small = cube(2.5);
    std::vector<Vec3> positions = densePositions(400, small, 9);
    settings.dmax = 1.2;
    CoordinationForce force = largeForce(CoordinationForce::Dual, 400, settings, true);
    expectSameAsReference(evaluateOn("CPU", force, positions, small, 4), evaluateOn("Reference", force, positions, small));
    // No PBC with a few atoms very far away: the cell grid stays coarse enough, pairs are still found.
    positions = densePositions(1500, Box::none(), 10);
    positions[3] = Vec3(1e4, -2e4, 3e3);
    positions[50] = Vec3(-5e3, 1e2, 7e4);
    settings.dmax = 0.7;
    force = largeForce(CoordinationForce::Self, 1500, settings, false);
    expectSameAsReference(evaluateOn("CPU", force, positions, Box::none(), 4),
                          evaluateOn("Reference", force, positions, Box::none()));
}

TEST_F(CpuKernelOnly, EverySwitchingTypeMatchesTheReferenceKernel) {
    const Box box = cube(4.0);
    const std::vector<Vec3> positions = densePositions(1500, box, 21);
    std::vector<SwitchingSettings> functions;
    for (auto type : {CoordinationForce::Exponential, CoordinationForce::Gaussian, CoordinationForce::Smap,
                      CoordinationForce::Cubic, CoordinationForce::Tanh, CoordinationForce::Cosinus,
                      CoordinationForce::NativeQ, CoordinationForce::Custom}) {
        SwitchingSettings settings;
        settings.type = type;
        settings.r0 = 0.25;
        settings.d0 = 0.05;
        settings.dmax = 1.0;
        settings.smapA = 6;
        settings.smapB = 2;
        settings.qReference = 0.3;
        settings.custom = "1/(1+x2^3)";
        functions.push_back(settings);
    }
    for (const SwitchingSettings& settings : functions) {
        SCOPED_TRACE(settings.describe());
        CoordinationForce force = largeForce(CoordinationForce::Self, 1500, settings, true);
        force.addGlobalParameter("unused", 1.0);
        expectSameAsReference(evaluateOn("CPU", force, positions, box, 4), evaluateOn("Reference", force, positions, box));
    }
}
