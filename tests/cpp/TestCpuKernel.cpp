/*
 * The CPU platform's own kernel (threads, cell list) against the Reference kernel, on systems large
 * enough for the cell list, and its determinism across runs and thread counts. Runs with
 * COORDINATION_TEST_PLATFORM=CPU (skipped on other platforms: the suite's other files cover them).
 */

#include "CoordinationTestUtilities.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

/** s, energy and forces of a force on the given platform (Threads for CPU, 0 = the platform's default). */
Evaluation evaluateOn(const std::string& platformName, const CoordinationForce& force,
                      const std::vector<Vec3>& positions, const Box& box, int threads = 0) {
    return CoordinationContext(force, positions, box, PlatformCase{platformName, "", threads}).evaluate();
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

void expectCpuMatchesReference(const Evaluation& cpu, const Evaluation& reference) {
    expectSameEvaluation(cpu, reference, 1e-12, 1e-11, 1e-11, 1e-12);
}

/** A test that compares the CPU platform's kernel with the Reference kernel: skipped on the other platforms. */
template <class Base> class OnTheCpuPlatform : public Base {
protected:
    void SetUp() override {
        if (testPlatform().platform != "CPU")
            GTEST_SKIP() << "compares the CPU platform's kernel with the Reference kernel: run with the CPU case";
    }
};

class CpuKernel : public OnTheCpuPlatform<ModeAndBoxTest> {};
class CpuKernelOnly : public OnTheCpuPlatform<::testing::Test> {};

} // namespace

TEST_P(CpuKernel, MatchesTheReferenceKernelWithACellList) {
    // 3,000 atoms, dmax 0.9 nm: 5 cells per axis in the 5 nm cube (the cell list), all pairs in the
    // triclinic box; no PBC: cells over the atoms' bounding box.
    const CoordinationForce::Mode mode = this->mode();
    const Box box = (boxName() == "Cube" ? Box::cube(5.0) : this->box());
    const std::vector<Vec3> positions = densePositions(3000, box, 17 + (int) mode);
    CoordinationForce force = largeForce(mode, 3000, rationalSettings(0.3, 6, 0, 0.0, 0.9), box.periodic());
    Evaluation reference = evaluateOn("Reference", force, positions, box);
    ASSERT_GT(reference.s, mode == CoordinationForce::Pair ? 1.0 : 100.0);
    expectCpuMatchesReference(evaluateOn("CPU", force, positions, box, 3), reference);
}

INSTANTIATE_TEST_SUITE_P(AllModesAndBoxes, CpuKernel,
                         modesAndBoxes({CoordinationForce::Self, CoordinationForce::Dual, CoordinationForce::Pair},
                                       {"Cube", "NoPBC", "Triclinic"}),
                         modeAndBoxName);

TEST_F(CpuKernelOnly, ThreadCountsGiveTheSameCoordinationAndRunsRepeatBitwise) {
    const Box box = Box::cube(4.0);
    const std::vector<Vec3> positions = densePositions(2000, box, 5);
    CoordinationForce force = largeForce(CoordinationForce::Self, 2000, rationalSettings(0.3, 6, 0, 0.0, 1.0), true);
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
    settings.setR0(0.4);
    // A cutoff longer than a third of the box: every pair, with the minimum image.
    const Box small = Box::cube(2.5);
    std::vector<Vec3> positions = densePositions(400, small, 9);
    settings.setDMax(1.2);
    CoordinationForce force = largeForce(CoordinationForce::Dual, 400, settings, true);
    expectCpuMatchesReference(evaluateOn("CPU", force, positions, small, 4),
                              evaluateOn("Reference", force, positions, small));
    // No PBC with a few atoms very far away: the cell grid stays coarse enough, pairs are still found.
    positions = densePositions(1500, Box::none(), 10);
    positions[3] = Vec3(1e4, -2e4, 3e3);
    positions[50] = Vec3(-5e3, 1e2, 7e4);
    settings.setDMax(0.7);
    force = largeForce(CoordinationForce::Self, 1500, settings, false);
    expectCpuMatchesReference(evaluateOn("CPU", force, positions, Box::none(), 4),
                              evaluateOn("Reference", force, positions, Box::none()));
}

TEST_F(CpuKernelOnly, EverySwitchingTypeMatchesTheReferenceKernel) {
    const Box box = Box::cube(4.0);
    const std::vector<Vec3> positions = densePositions(1500, box, 21);
    std::vector<SwitchingSettings> functions;
    for (auto type : {CoordinationForce::Exponential, CoordinationForce::Gaussian, CoordinationForce::Smap,
                      CoordinationForce::Cubic, CoordinationForce::Tanh, CoordinationForce::Cosinus,
                      CoordinationForce::NativeQ, CoordinationForce::Custom}) {
        SwitchingSettings settings;
        settings.setType(type);
        settings.setR0(0.25);
        settings.setD0(0.05);
        settings.setDMax(1.0);
        settings.setSmapExponents(6, 2);
        settings.setNativeQParameters(settings.getNativeQBeta(), settings.getNativeQLambda(), 0.3);
        if (type == CoordinationForce::Custom)
            settings.setCustomExpression("1/(1+x2^3)");
        functions.push_back(settings);
    }
    for (const SwitchingSettings& settings : functions) {
        SCOPED_TRACE(describe(settings));
        CoordinationForce force = largeForce(CoordinationForce::Self, 1500, settings, true);
        force.addGlobalParameter("unused", 1.0);
        expectCpuMatchesReference(evaluateOn("CPU", force, positions, box, 4),
                                  evaluateOn("Reference", force, positions, box));
    }
}
