/*
 * The platform under test (COORDINATION_TEST_PLATFORM, meant for the GPU platforms: OpenCL, CUDA) against
 * the Reference platform for every switching function type: s, energies and forces in every mode, with
 * and without periodic boundary conditions, with and without a cutoff and stretch, d0 > 0, Custom in the
 * x and x2 forms, NativeQ far enough out that exp overflows in float, atoms astronomically far apart;
 * a system large enough that the GPU kernel culls tiles and uses its neighbour list (re-sorts and
 * updateParametersInContext included); and energy parameter derivatives (against Reference, against
 * finite differences of the energy, with another force's derivative in OpenMM's buffer first).
 * On the Reference platform itself every comparison is trivially exact (and still runs).
 */

#include "CoordinationTestUtilities.h"
#include "openmm/CustomBondForce.h"
#include <tuple>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

using Settings = SwitchingSettings;

/**
 * Every type other than Rational (which TestBruteForceMatrix covers) with: no cutoff (Infinity), the
 * automatic dmax (0: none, Cosinus d0 + r0), a finite cutoff stretched and not, d0 = 0 and > 0 (not for
 * Custom in x2, which ignores d0). NativeQ with beta = 50 /nm (PLUMED's default): in a 2.5 nm cube
 * beta (r - lambda ref) reaches ~190 (float's exp overflows beyond 88.7); GpuFarAtoms has the other side
 * (1/exp overflowing). (A steeper beta would turn float's rounding of coordinates, ~1e-7 nm, into force
 * differences beyond the tolerance.)
 */
std::vector<SwitchingSettings> switchingCases() {
    const CoordinationForce::SwitchingFunction Exp = CoordinationForce::Exponential, Gauss = CoordinationForce::Gaussian,
                                               Cubic = CoordinationForce::Cubic, Tanh = CoordinationForce::Tanh,
                                               Cos = CoordinationForce::Cosinus;
    return {typedSettings(Exp, 0.2, 0.0, Infinity, false),
            typedSettings(Exp, 0.2, 0.0, 1.0, true),
            typedSettings(Exp, 0.15, 0.1, 1.0, false),
            typedSettings(Exp, 0.15, 0.1, 0.0, true),
            typedSettings(Gauss, 0.3, 0.05, 0.0, true),
            typedSettings(Gauss, 0.3, 0.0, 1.0, true),
            typedSettings(Gauss, 0.25, 0.1, 1.0, false),
            Settings::smap(0.3, 6, 2, 0.0, Infinity),
            Settings::smap(0.3, 6, 2, 0.1, 1.0),
            withoutStretch(Settings::smap(0.25, 4, 8, 0.0, 1.0)),
            typedSettings(Cubic, 0.3, 0.0, 0.9, true),
            typedSettings(Cubic, 0.3, 0.1, 0.9, false),
            typedSettings(Tanh, 0.25, 0.0, Infinity, true),
            typedSettings(Tanh, 0.2, 0.1, 1.0, true),
            typedSettings(Tanh, 0.2, 0.0, 1.0, false),
            typedSettings(Cos, 0.8, 0.0, 0.0, true),
            typedSettings(Cos, 0.8, 0.1, 0.0, false),
            typedSettings(Cos, 0.6, 0.1, Infinity, true),
            typedSettings(Cos, 1.2, 0.0, 0.9, true),
            Settings::nativeQ(50.0, 1.8, 0.25, 0.0, Infinity),
            Settings::nativeQ(50.0, 1.8, 0.25, 0.1, 1.0),
            Settings::nativeQ(50.0, 1.5, 0.6, 0.0, Infinity),
            withoutStretch(Settings::nativeQ(50.0, 1.5, 0.6, 0.2, 1.2)),
            Settings::custom("1/(1+x^6)", 0.25, 0.0, Infinity),
            Settings::custom("1/(1+x^6)", 0.25, 0.1, 1.0),
            withoutStretch(Settings::custom("(1+x)*exp(-2*x)", 0.2, 0.1, 1.0)),
            Settings::custom("1/(1+x2^3)", 0.25, 0.0, Infinity),
            Settings::custom("1/(1+x2^3)", 0.25, 0.0, 1.0),
            withoutStretch(Settings::custom("exp(-0.5*x2)", 0.3, 0.1, 0.0))};
}

/** The energy of the tests: a global parameter in front of s, so that E and dE/ds go through globals. */
const char* LinearEnergy = "k*s";
const double K = 1.7;

CoordinationForce forceFor(const SwitchingSettings& settings, CoordinationForce::Mode mode, const std::vector<int>& groupA,
                           const std::vector<int>& groupB, bool periodic) {
    CoordinationForce force = makeForce(settings, mode, groupA, groupB, LinearEnergy, periodic);
    force.addGlobalParameter("k", K);
    return force;
}

/** s, energy and forces of the platform under test against the Reference platform's. */
void expectSameAsReference(const Evaluation& result, const Evaluation& expected) {
    expectSameEvaluation(result, expected, Tolerance::Coordination, Tolerance::Coordination,
                         Tolerance::ForceRelativeToRms, Tolerance::ForceResolution * 8);
}

/** Evaluate a force on the platform under test and on Reference at the same positions, and compare. */
Evaluation compareWithReference(const CoordinationForce& force, const std::vector<Vec3>& positions, const Box& box) {
    CoordinationContext tested(force, positions, box);
    CoordinationContext reference(force, positions, box, ReferenceCase);
    Evaluation expected = reference.evaluate();
    expectSameAsReference(tested.evaluate(), expected);
    return expected;
}

class GpuSwitchingMatrix : public ModeAndBoxTest {};

} // namespace

TEST_P(GpuSwitchingMatrix, EveryTypeMatchesTheReferencePlatform) {
    const CoordinationForce::Mode mode = this->mode();
    const Box box = roundedToFloat(this->box());
    const std::vector<SwitchingSettings> cases = switchingCases();
    // Covering design (quickMatrices()): case k runs in instance k mod 9 only, so every case runs once and the
    // cases of a type (consecutive) meet several modes and boxes; TypedMatrix has every type in every mode and box.
    const int instance = this->instance();
    unsigned seed = 3000 * (int) mode + box.name.size();
    for (size_t index = 0; index < cases.size(); index++) {
        if (quickMatrices() && (int) index % 9 != instance)
            continue;
        const SwitchingSettings& settings = cases[index];
        SCOPED_TRACE(traceOf(settings));
        std::vector<Vec3> positions = positionsFor(settings, box, seed++);
        // One more pair at x = 1/2 (NativeQ: at its midpoint), in the groups of every mode (Pair: 7 with 9),
        // so that there are forces to compare even where the function's range is short.
        const double half = (settings.getType() == CoordinationForce::NativeQ
                                 ? settings.getNativeQLambda() * settings.getNativeQReference()
                                 : settings.getD0() + 0.5 * settings.getR0());
        positions[9] = positions[7] + Vec3(0, half * 0.6, half * 0.8);
        positions = roundedToFloat(positions);
        Evaluation expected = compareWithReference(forceFor(settings, mode, groupA, groupB, box.periodic()), positions, box);
        EXPECT_GT(expected.s, 0.1) << "enough pairs within range that the comparison means something";
        EXPECT_GT(rootMeanSquare(expected.forces), 0.01) << "forces to compare";
    }
}

INSTANTIATE_TEST_SUITE_P(AllModesAndBoxes, GpuSwitchingMatrix, modesAndBoxes(), modeAndBoxName);

/**
 * Atoms astronomically far apart (no cutoff): where double precision gives finite (tiny) values, single
 * and mixed precision must not give inf or NaN (x^a, exp(beta r) and the like overflow in float first).
 * The distances: 3e3 nm (exp(beta r) overflows in float, not in double), 5.6e5 nm (Smap's c x^6 with
 * x = r/r0 lies between FLT_MAX/6 and FLT_MAX: finite, but 6 c x^6 is not) and 1e7 nm.
 */
TEST(GpuFarAtoms, GiveFiniteResultsThatMatchTheReferencePlatform) {
    const std::vector<Vec3> positions = roundedToFloat(std::vector<Vec3>{
        Vec3(0, 0, 0), Vec3(0.2, 0.1, 0), Vec3(3000.0, 0, 0), Vec3(0, 5.6e5, 0), Vec3(0, 0, 1e7), Vec3(0.3, 0.3, 0.3)});
    std::vector<int> group = {0, 1, 2, 3, 4, 5};
    const std::vector<SwitchingSettings> cases = {
        typedSettings(CoordinationForce::Exponential, 0.2, 0.0, Infinity, true),
        typedSettings(CoordinationForce::Gaussian, 0.3, 0.0, Infinity, true),
        Settings::smap(0.25, 6, 6, 0.0, Infinity),
        Settings::smap(0.3, 6, 2, 0.0, Infinity),
        typedSettings(CoordinationForce::Tanh, 0.25, 0.0, Infinity, true),
        typedSettings(CoordinationForce::Cosinus, 0.6, 0.0, Infinity, true),
        Settings::nativeQ(50.0, 1.8, 0.25, 0.0, Infinity),
        Settings::nativeQ(60.0, 1.5, 1.3, 0.0, Infinity), // 60 (0.22 - 1.95) = -104: 1/exp overflows in float
        Settings::custom("exp(-0.5*x2)", 0.3, 0.0, Infinity),
        Settings::custom("exp(-x)", 0.3, 0.0, Infinity),
        Settings::custom("1/(1+x^6)", 0.3, 0.0, Infinity)};
    for (const SwitchingSettings& settings : cases) {
        SCOPED_TRACE(describe(settings));
        compareWithReference(forceFor(settings, CoordinationForce::Self, group, {}, false), positions, Box::none());
    }
}

namespace {

/**
 * A system large enough that the GPU kernel culls tiles with a cutoff and uses its neighbour list:
 * more 32 x 32 tiles than one pass of the device's warps (numThreadBlocks x 8: 96 for PoCL on 2 cores;
 * this has 741 tiles for Self and 360 for Dual). On a large GPU (thousands of warps) the same system runs
 * the all-pairs path instead; tests/python/test_gpu_platforms.py sizes its culling tests per platform.
 * 12 atoms/nm^3.
 */
const int LargeAtoms = 1200;

/**
 * Random positions inside the periodic box (spread 1; OpenMM need not wrap them: in float, wrapping rounds a
 * coordinate by ~5e-7 nm) or spread beyond it (for forces without PBC, which undo OpenMM's wrapping).
 */
std::vector<Vec3> largePositions(double edge, unsigned seed, double spread = 1.0) {
    const double length = edge * spread;
    return spacedPositions(LargeAtoms, Vec3(length, length, length), seed, spread == 1.0, false);
}

/** The cube of the large system, 12 atoms/nm^3, its edge rounded to float. */
Box largeBox() { return roundedToFloat(Box::cube(std::cbrt(LargeAtoms / 12.0))); }

/** Types with a finite cutoff of ~0.8 nm (Cosinus: its own d0 + r0; Cubic: dmax). */
std::vector<SwitchingSettings> culledCases() {
    return {typedSettings(CoordinationForce::Exponential, 0.15, 0.0, 0.8, true),
            typedSettings(CoordinationForce::Gaussian, 0.3, 0.05, 0.8, false),
            Settings::smap(0.3, 6, 2, 0.0, 0.8),
            typedSettings(CoordinationForce::Cubic, 0.3, 0.1, 0.8, true),
            typedSettings(CoordinationForce::Tanh, 0.2, 0.0, 0.8, true),
            typedSettings(CoordinationForce::Cosinus, 0.7, 0.1, 0.0, true),
            Settings::nativeQ(50.0, 1.8, 0.25, 0.0, 0.8),
            Settings::custom("1/(1+x^6)", 0.25, 0.1, 0.8),
            Settings::custom("1/(1+x2^3)", 0.3, 0.0, 0.8)};
}

} // namespace

TEST(GpuCulledSystem, EveryTypeWithACutoffMatchesTheReferencePlatform) {
    const Box box = largeBox();
    std::vector<int> all, first, second;
    for (int atom = 0; atom < LargeAtoms; atom++) {
        all.push_back(atom);
        (atom < 450 ? first : second).push_back(atom);
    }
    const std::vector<SwitchingSettings> cases = culledCases();
    for (size_t index = 0; index < cases.size(); index++) {
        if (!onThisPrecision(index))
            continue; // COORDINATION_TEST_QUICK: a type's culling runs on one precision
        const SwitchingSettings& settings = cases[index];
        // Alternate Self (periodic) and Dual (no PBC, atoms spread beyond the box so that OpenMM's cell
        // offsets matter).
        const bool self = (index % 2 == 0);
        const Box forceBox = (self ? box : Box::none());
        SCOPED_TRACE(std::string(self ? "Self periodic " : "Dual no PBC ") + describe(settings));
        CoordinationForce force = forceFor(settings, self ? CoordinationForce::Self : CoordinationForce::Dual,
                                           self ? all : first, self ? std::vector<int>() : second, self);
        const std::vector<Vec3> start = largePositions(box.cell.a[0], 40 + index, self ? 1.0 : 1.3);
        CoordinationContext tested(force, start, box);
        CoordinationContext reference(force, start, box, ReferenceCase);
        Evaluation expected = reference.evaluate();
        ASSERT_GT(expected.s, 50.0) << "pairs within the cutoff";
        expectSameAsReference(tested.evaluate(), expected);
        // Far moves (every atom elsewhere: the spatial order is stale, the list must be rebuilt), then more
        // evaluations than the re-sort interval (100).
        const std::vector<Vec3> moved = largePositions(box.cell.a[0], 1040 + index, self ? 1.0 : 1.3);
        tested.getContext().setPositions(moved);
        reference.getContext().setPositions(moved);
        expected = reference.evaluate();
        expectSameAsReference(tested.evaluate(), expected);
        for (int i = 0; i < 105; i++)
            tested.energy();
        expectSameAsReference(tested.evaluate(), expected);
    }
}

TEST(GpuCulledSystem, UpdateParametersInContextChangesTheTypeAsANewContextWould) {
    const Box box = largeBox();
    std::vector<int> all;
    for (int atom = 0; atom < LargeAtoms; atom++)
        all.push_back(atom);
    SwitchingSettings rational;
    rational.setR0(0.25);
    rational.setDMax(0.8);
    const std::vector<Vec3> positions = largePositions(box.cell.a[0], 77);
    CoordinationContext tested(forceFor(rational, CoordinationForce::Self, all, {}, true), positions, box);
    tested.evaluate();
    // From Rational to each type and back, always with a cutoff, then to no cutoff at all (no culling). Covering
    // design (quickMatrices()): the types EveryTypeWithACutoff ran in this Self system (every other one, those of
    // this precision), whose kernel sources are compiled already.
    std::vector<SwitchingSettings> sequence;
    const std::vector<SwitchingSettings> cases = culledCases();
    for (size_t index = 0; index < cases.size(); index++)
        if (!quickMatrices() || (index % 2 == 0 && onThisPrecision(index)))
            sequence.push_back(cases[index]);
    sequence.push_back(rational);
    sequence.push_back(typedSettings(CoordinationForce::Gaussian, 0.2, 0.0, Infinity, true));
    sequence.push_back(Settings::custom("exp(-0.5*x2)", 0.2, 0.0, 0.8));
    for (const SwitchingSettings& settings : sequence) {
        SCOPED_TRACE(describe(settings));
        CoordinationForce& force = tested.getForce();
        force = forceFor(settings, CoordinationForce::Self, all, {}, true);
        force.updateParametersInContext(tested.getContext());
        CoordinationContext reference(force, positions, box, ReferenceCase);
        expectSameAsReference(tested.evaluate(), reference.evaluate());
    }
}

namespace {

/**
 * A System with, in this order: an OpenMM CustomBondForce whose energy derivative in "lambdaBond" is
 * requested (so that ours are not first in OpenMM's list), a Gaussian CoordinationForce in Self mode with
 * E = 0.5 k (s - s0)^2 + w s (derivatives in s0 and k), and a NativeQ one in Pair mode with E = k^2 s + w
 * (derivatives in k, shared with the first, and w). Force groups 0, 1, 2.
 */
struct DerivativeSystem {
    OpenMM::System system;
    std::vector<Vec3> positions;
    Box box = Box::rectangular();

    DerivativeSystem() {
        const int atoms = 40;
        box = roundedToFloat(box);
        positions = roundedToFloat(randomPositions(atoms, box, 21));
        for (int i = 0; i < atoms; i++)
            system.addParticle(1.0);
        system.setDefaultPeriodicBoxVectors(box.cell.a, box.cell.b, box.cell.c);
        OpenMM::CustomBondForce* bond = new OpenMM::CustomBondForce("lambdaBond*r^2");
        bond->addGlobalParameter("lambdaBond", 0.7);
        bond->addEnergyParameterDerivative("lambdaBond");
        bond->addBond(0, 1, {});
        system.addForce(bond);
        std::vector<int> all, evens, odds;
        for (int atom = 0; atom < atoms; atom++) {
            all.push_back(atom);
            (atom % 2 == 0 ? evens : odds).push_back(atom);
        }
        CoordinationForce* gaussian = new CoordinationForce(makeForce(
            typedSettings(CoordinationForce::Gaussian, 0.3, 0.05, 1.0, true), CoordinationForce::Self, all, {},
            "0.5*k*(s-s0)^2 + w*s", true));
        gaussian->addGlobalParameter("k", 3.0);
        gaussian->addGlobalParameter("s0", 4.0);
        gaussian->addGlobalParameter("w", 0.25);
        gaussian->addEnergyParameterDerivative("s0");
        gaussian->addEnergyParameterDerivative("k");
        gaussian->setForceGroup(1);
        system.addForce(gaussian);
        CoordinationForce* q = new CoordinationForce(makeForce(
            Settings::nativeQ(20.0, 1.5, 0.4, 0.0, Infinity), CoordinationForce::Pair, evens, odds, "k^2*s + w", true));
        q->addGlobalParameter("k", 3.0);
        q->addGlobalParameter("w", 0.25);
        q->addEnergyParameterDerivative("k");
        q->addEnergyParameterDerivative("w");
        q->setForceGroup(2);
        system.addForce(q);
    }
};

std::map<std::string, double> parameterDerivatives(OpenMM::Context& context, int groups = -1) {
    return context.getState(OpenMM::State::Energy | OpenMM::State::ParameterDerivatives, false, groups)
        .getEnergyParameterDerivatives();
}

double energyOfGroups(OpenMM::Context& context, int groups = -1) {
    return context.getState(OpenMM::State::Energy, false, groups).getPotentialEnergy();
}

} // namespace

TEST(GpuEnergyParameterDerivatives, MatchTheReferencePlatformAndFiniteDifferences) {
    DerivativeSystem setup;
    OpenMM::VerletIntegrator integrator1(0.001), integrator2(0.001);
    OpenMM::Context tested(setup.system, integrator1, OpenMM::Platform::getPlatformByName(testPlatform().platform),
                           testPlatform().properties());
    OpenMM::Context reference(setup.system, integrator2, OpenMM::Platform::getPlatformByName("Reference"));
    tested.setPositions(setup.positions);
    reference.setPositions(setup.positions);
    const std::vector<std::string> names = {"lambdaBond", "s0", "k", "w"};
    for (int round = 0; round < 2; round++) {
        SCOPED_TRACE(round == 0 ? "default parameters" : "after setParameter");
        std::map<std::string, double> derivatives = parameterDerivatives(tested);
        std::map<std::string, double> expected = parameterDerivatives(reference);
        for (const std::string& name : names) {
            ASSERT_EQ(derivatives.count(name), 1u) << name;
            ASSERT_EQ(expected.count(name), 1u) << name;
            expectRelativelyNear(derivatives[name], expected[name], Tolerance::Coordination, "dE/d" + name + " vs Reference");
        }
        EXPECT_NE(expected["k"], 0.0);
        // Each force group alone: only its own derivatives.
        for (int group : {1, 2}) {
            std::map<std::string, double> alone = parameterDerivatives(tested, 1 << group);
            std::map<std::string, double> aloneExpected = parameterDerivatives(reference, 1 << group);
            for (const std::string& name : names)
                expectRelativelyNear(alone[name], aloneExpected[name], Tolerance::Coordination,
                                     "dE/d" + name + " of group " + std::to_string(group));
        }
        // Central differences of the energy: E is at most quadratic in every parameter, so they are exact
        // up to rounding; a step of 0.5 and the energy of only the groups that use the parameter keep that
        // rounding (eps |E| / step, E summed in float in single precision) below the tolerance.
        for (const std::string& name : names) {
            // The groups whose forces request the derivative (the Gaussian force's E has w too, but only the
            // NativeQ force asks for dE/dw, so only its term is reported, as with OpenMM's own forces).
            const int groups = (name == "lambdaBond" ? 1 : name == "s0" ? 1 << 1 : name == "w" ? 1 << 2 : (1 << 1) | (1 << 2));
            const double value = tested.getParameter(name), step = 0.5;
            tested.setParameter(name, value + step);
            const double forward = energyOfGroups(tested, groups);
            tested.setParameter(name, value - step);
            const double backward = energyOfGroups(tested, groups);
            tested.setParameter(name, value);
            expectRelativelyNear((forward - backward) / (2 * step), derivatives[name], Tolerance::Coordination,
                                 "finite difference in " + name);
        }
        for (OpenMM::Context* context : {&tested, &reference}) {
            context->setParameter("k", 1.3);
            context->setParameter("s0", 9.0);
            context->setParameter("w", -0.5);
        }
    }
}

TEST(GpuEnergyParameterDerivatives, FollowUpdateParametersInContext) {
    DerivativeSystem setup;
    OpenMM::VerletIntegrator integrator1(0.001), integrator2(0.001);
    OpenMM::Context tested(setup.system, integrator1, OpenMM::Platform::getPlatformByName(testPlatform().platform),
                           testPlatform().properties());
    tested.setPositions(setup.positions);
    parameterDerivatives(tested);
    CoordinationForce& gaussian = dynamic_cast<CoordinationForce&>(setup.system.getForce(1));
    gaussian.setSwitchingFunction(CoordinationForce::Tanh);
    gaussian.setR0(0.2);
    gaussian.updateParametersInContext(tested);
    OpenMM::Context reference(setup.system, integrator2, OpenMM::Platform::getPlatformByName("Reference"));
    reference.setPositions(setup.positions);
    std::map<std::string, double> derivatives = parameterDerivatives(tested), expected = parameterDerivatives(reference);
    for (const std::string& name : {"lambdaBond", "s0", "k", "w"})
        expectRelativelyNear(derivatives[name], expected[name], Tolerance::Coordination, "dE/d" + std::string(name));
    expectRelativelyNear(energyOfGroups(tested), energyOfGroups(reference), Tolerance::Coordination, "energy");
}
