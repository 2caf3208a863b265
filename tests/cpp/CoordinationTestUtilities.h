#ifndef COORDINATION_TEST_UTILITIES_H_
#define COORDINATION_TEST_UTILITIES_H_

/*
 * Shared fixtures for the CoordinationForce tests: tolerances, periodic cells, random systems, a
 * Context wrapper that evaluates a force, and assertions on force arrays and exceptions.
 */

#include "BruteForceCoordination.h"
#include "CoordinationForce.h"
#include "CoordinationNumberForce.h"
#include "openmm/Context.h"
#include "openmm/OpenMMException.h"
#include "openmm/Platform.h"
#include "openmm/State.h"
#include "openmm/System.h"
#include "openmm/VerletIntegrator.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace CoordinationTest {

/**
 * The platform the whole suite runs on, from the environment variable COORDINATION_TEST_PLATFORM:
 * "Reference" (the default), "CPU", or a GPU platform with its precision, "OpenCL:single",
 * "CUDA:mixed", ... tools/run-tests.sh runs the program once per case.
 */
struct PlatformCase {
    std::string platform;
    std::string precision; // empty for Reference and CPU (double precision)

    bool isDoublePrecision() const { return precision.empty() || precision == "double"; }
    std::map<std::string, std::string> properties() const {
        std::map<std::string, std::string> result;
        if (!precision.empty())
            result["Precision"] = precision;
        return result;
    }
    std::string label() const { return precision.empty() ? platform : platform + ":" + precision; }
    static PlatformCase fromEnvironment() {
        const char* text = std::getenv("COORDINATION_TEST_PLATFORM");
        std::string value = (text != nullptr && *text != 0 ? text : "Reference");
        size_t colon = value.find(':');
        if (colon == std::string::npos)
            return {value, ""};
        return {value.substr(0, colon), value.substr(colon + 1)};
    }
};

inline const PlatformCase& testPlatform() {
    static const PlatformCase platformCase = PlatformCase::fromEnvironment();
    return platformCase;
}

/**
 * Whether the systematic setting matrices run in full (COORDINATION_TEST_QUICK unset) or as their covering designs
 * (COORDINATION_TEST_QUICK=1: the platforms where every setting is a kernel source to compile, OpenCL on the CPU in
 * CI). A matrix runs its settings in each of nine instances (three modes x three boxes); its covering design gives
 * each instance a share instead, chosen so that every setting (or every function with every kind of cutoff) and
 * every mode and box meet, without every combination: each instance compiles a ninth to a third of the sources.
 */
inline bool quickMatrices() {
    const char* text = std::getenv("COORDINATION_TEST_QUICK");
    return text != nullptr && std::string(text) == "1";
}

/** The index of a setting matrix's box: 0 "NoPBC", 1 "Rectangular", 2 "Triclinic". */
inline int matrixBoxIndex(const std::string& boxName) {
    return (boxName == "NoPBC" ? 0 : (boxName == "Rectangular" ? 1 : 2));
}

/** The index of a (mode, box) instance of a setting matrix, 0 to 8. */
inline int matrixInstance(CoordinationPlugin::CoordinationForce::Mode mode, const std::string& boxName) {
    return 3 * (int) mode + matrixBoxIndex(boxName);
}

/**
 * Every tolerance of the suite, by precision. In double precision (Reference, CPU, GPU double) the
 * brute-force oracle (long double) differs by rounding in a sum of ~1000 terms; in single and mixed
 * precision the GPU kernels must give s, energies and forces within 1e-5 relative (issue #3).
 */
namespace Tolerance {
inline const bool Double = testPlatform().isDoublePrecision();
/** s and energies against the brute force: relative to max(|expected|, 1). */
inline const double Coordination = (Double ? 1e-9 : 1e-5);
/**
 * Forces against the brute force: relative to the root mean square of the expected forces. Most
 * forces agree to ~1e-11; just outside the Taylor band (|x - 1| ~ 1e-5 to 1e-4) the closed-form
 * derivative loses digits to cancellation and is good to ~4e-8 only.
 */
inline const double ForceRelativeToRms = (Double ? 1e-7 : 1e-5);
/**
 * Rational's derivative just outside PLUMED's Taylor band, 1.1e-5 <= |x - 1| < 1e-3, where its double-precision
 * closed form (1 - x^n)/(1 - x^m), or the same of y = x^2, loses digits to cancellation: relative to the
 * slope (the Python suite's NEAR_ONE_BAND; measured against an 80-bit evaluation: 2.6e-8).
 */
constexpr double NearOneSlopeRelative = 1e-7;
constexpr double NearOneBandEnd = 1e-3;
/** Values that should agree to the last bits (the same computation done twice, exact numbers). */
inline const double Exact = (Double ? 1e-12 : 1e-6);
/**
 * GPU platforms accumulate forces in 64-bit fixed point with a resolution of 2^-32 kJ/mol/nm per
 * addition, in every precision; the CPU-side platforms have no such floor.
 */
inline const double ForceResolution =
    (testPlatform().platform == "Reference" || testPlatform().platform == "CPU" ? 0.0 : 1.0 / 4294967296.0);
/** Displacement (nm) of the central finite differences of the energy. */
constexpr double FiniteDifferenceStep = 1e-5;
/**
 * Forces against finite differences: truncation O(h^2) plus rounding O(eps |E| / h), relative to the
 * RMS force; the systems used show ~3e-9.
 */
constexpr double FiniteDifferenceRelativeToRms = 1e-7;
} // namespace Tolerance

const double Infinity = std::numeric_limits<double>::infinity();

/**
 * The switching settings the suite sweeps: the given (n, m) pairs x d0 in {0, 0.1} x dmax in {automatic,
 * 1 nm, none} x stretch on/off, r0 = 0.25 nm (12 settings per exponent pair).
 */
inline std::vector<SwitchingSettings> settingsMatrix(const std::vector<std::pair<int, int>>& exponentPairs) {
    std::vector<SwitchingSettings> matrix;
    for (auto exponents : exponentPairs)
        for (double d0 : {0.0, 0.1})
            for (double dmax : {0.0, 1.0, Infinity})
                for (bool stretch : {true, false}) {
                    SwitchingSettings settings;
                    settings.r0 = 0.25;
                    settings.n = exponents.first;
                    settings.m = exponents.second;
                    settings.d0 = d0;
                    settings.dmax = dmax;
                    settings.stretch = stretch;
                    matrix.push_back(settings);
                }
    return matrix;
}

/** Switching settings of a type (its own parameters at their defaults: Smap's a and b unset, NativeQ's reference 0). */
inline SwitchingSettings typedSettings(CoordinationPlugin::CoordinationForce::SwitchingFunction type, double r0,
                                       double d0 = 0.0, double dmax = 0.0, bool stretch = true) {
    SwitchingSettings settings;
    settings.type = type;
    settings.r0 = r0;
    settings.d0 = d0;
    settings.dmax = dmax;
    settings.stretch = stretch;
    return settings;
}

/** Rational switching settings (m = 0 means 2n; dmax = 0 automatic, Infinity none). */
inline SwitchingSettings rationalSettings(double r0, int n, int m, double d0, double dmax) {
    SwitchingSettings settings = typedSettings(CoordinationPlugin::CoordinationForce::Rational, r0, d0, dmax);
    settings.n = n;
    settings.m = m;
    return settings;
}

/** A periodic cell in OpenMM's reduced form, or none; `name` describes it in test output. */
struct Box {
    std::string name;
    BruteForce::Cell cell;

    static Box none() { return {"NoPBC", {false, OpenMM::Vec3(), OpenMM::Vec3(), OpenMM::Vec3()}}; }
    static Box rectangular() {
        return {"Rectangular", {true, OpenMM::Vec3(2.4, 0, 0), OpenMM::Vec3(0, 2.7, 0), OpenMM::Vec3(0, 0, 3.0)}};
    }
    /** Reduced triclinic: |bx| <= ax/2, |cx| <= ax/2, |cy| <= by/2, every off-diagonal element nonzero. */
    static Box triclinic() {
        return {"Triclinic", {true, OpenMM::Vec3(2.5, 0, 0), OpenMM::Vec3(0.8, 2.4, 0), OpenMM::Vec3(-1.1, 0.9, 2.2)}};
    }
    bool periodic() const { return cell.periodic; }
};

/** Deterministic uniform numbers in [0, 1): std::mt19937 is specified exactly, unlike the distributions. */
class UniformRandom {
public:
    explicit UniformRandom(unsigned seed) : engine(seed) {}
    double operator()() { return engine() / 4294967296.0; }

private:
    std::mt19937 engine;
};

/**
 * Random positions: inside the cell for a periodic box (a few of them one cell length outside, so that
 * wrapping is exercised), in a 2.5 nm cube otherwise.
 */
inline std::vector<OpenMM::Vec3> randomPositions(int count, const Box& box, unsigned seed) {
    UniformRandom random(seed);
    std::vector<OpenMM::Vec3> positions;
    for (int i = 0; i < count; i++) {
        double u = random(), v = random(), w = random();
        if (!box.periodic()) {
            positions.push_back(OpenMM::Vec3(u, v, w) * 2.5);
            continue;
        }
        OpenMM::Vec3 position = box.cell.a * u + box.cell.b * v + box.cell.c * w;
        if (i % 7 == 3)
            position += box.cell.a - box.cell.c;
        positions.push_back(position);
    }
    return positions;
}

/** What a Context reports for a force: its energy, its forces and CoordinationForce::getCoordination(). */
struct Evaluation {
    double energy;
    double s;
    std::vector<OpenMM::Vec3> forces;
};

/**
 * A System of unit-mass particles holding a copy of a CoordinationForce, and a Context for it.
 */
class CoordinationContext {
public:
    CoordinationContext(const CoordinationPlugin::CoordinationForce& prototype,
                        const std::vector<OpenMM::Vec3>& positions, const Box& box = Box::none(),
                        const PlatformCase& platformCase = testPlatform())
        : integrator(0.001) {
        for (size_t i = 0; i < positions.size(); i++)
            system.addParticle(1.0);
        if (box.periodic())
            system.setDefaultPeriodicBoxVectors(box.cell.a, box.cell.b, box.cell.c);
        auto* numbers = dynamic_cast<const CoordinationPlugin::CoordinationNumberForce*>(&prototype);
        if (numbers != nullptr)
            force = new CoordinationPlugin::CoordinationNumberForce(*numbers);
        else
            force = new CoordinationPlugin::CoordinationForce(prototype);
        system.addForce(force);
        context.reset(new OpenMM::Context(system, integrator, OpenMM::Platform::getPlatformByName(platformCase.platform),
                                          platformCase.properties()));
        context->setPositions(positions);
    }
    /** The force in the System (the one updateParametersInContext() reads). */
    CoordinationPlugin::CoordinationForce& getForce() { return *force; }
    OpenMM::Context& getContext() { return *context; }
    OpenMM::System& getSystem() { return system; }
    Evaluation evaluate(int groups = -1) {
        OpenMM::State state = context->getState(OpenMM::State::Energy | OpenMM::State::Forces, false, groups);
        // A CoordinationNumberForce has no single s (its values: getCollectiveVariableValues()).
        const bool perAtom = (dynamic_cast<CoordinationPlugin::CoordinationNumberForce*>(force) != nullptr);
        const double s = (perAtom ? std::numeric_limits<double>::quiet_NaN() : force->getCoordination(*context));
        return {state.getPotentialEnergy(), s, state.getForces()};
    }
    double energy() { return context->getState(OpenMM::State::Energy).getPotentialEnergy(); }

private:
    OpenMM::System system;
    CoordinationPlugin::CoordinationForce* force;
    OpenMM::VerletIntegrator integrator;
    std::unique_ptr<OpenMM::Context> context;
};

/** A CoordinationForce with the given switching settings, mode and groups. */
inline CoordinationPlugin::CoordinationForce makeForce(const SwitchingSettings& settings,
                                                       CoordinationPlugin::CoordinationForce::Mode mode,
                                                       const std::vector<int>& groupA,
                                                       const std::vector<int>& groupB = {},
                                                       const std::string& energy = "s", bool periodic = false) {
    CoordinationPlugin::CoordinationForce force(energy);
    force.setR0(settings.r0);
    force.setN(settings.n);
    force.setM(settings.m);
    force.setD0(settings.d0);
    force.setDMax(settings.dmax);
    force.setStretch(settings.stretch);
    force.setSwitchingFunction(settings.type);
    force.setSmapExponents(settings.smapA, settings.smapB);
    force.setNativeQParameters(settings.qBeta, settings.qLambda, settings.qReference);
    if (settings.type == CoordinationPlugin::CoordinationForce::Custom)
        force.setCustomSwitchingFunction(settings.custom);
    force.setMode(mode);
    force.setGroupA(groupA);
    force.setGroupB(groupB);
    force.setUsesPeriodicBoundaryConditions(periodic);
    return force;
}

/** The settings of a force, for the brute force. */
inline SwitchingSettings settingsOf(const CoordinationPlugin::CoordinationForce& force) {
    SwitchingSettings settings;
    settings.r0 = force.getR0();
    settings.n = force.getN();
    settings.m = force.getM();
    settings.d0 = force.getD0();
    settings.dmax = force.getDMax();
    settings.stretch = force.getStretch();
    settings.type = force.getSwitchingFunction();
    settings.smapA = force.getSmapA();
    settings.smapB = force.getSmapB();
    settings.qBeta = force.getNativeQBeta();
    settings.qLambda = force.getNativeQLambda();
    settings.qReference = force.getNativeQReference();
    settings.custom = force.getCustomSwitchingFunction();
    return settings;
}

/** The brute-force coordination of a force's own settings and groups. */
inline BruteForce::Coordination bruteForceOf(const CoordinationPlugin::CoordinationForce& force,
                                             const std::vector<OpenMM::Vec3>& positions, const Box& box) {
    BruteForce::Cell cell = box.cell;
    cell.periodic = box.periodic() && force.usesPeriodicBoundaryConditions();
    return BruteForce::coordination(settingsOf(force), force.getMode(), force.getGroupA(), force.getGroupB(), positions,
                                    cell);
}

inline double rootMeanSquare(const std::vector<OpenMM::Vec3>& vectors) {
    double sum = 0.0;
    for (const OpenMM::Vec3& v : vectors)
        sum += v.dot(v);
    return vectors.empty() ? 0.0 : std::sqrt(sum / vectors.size());
}

inline std::vector<OpenMM::Vec3> scaled(const std::vector<OpenMM::Vec3>& vectors, double factor) {
    std::vector<OpenMM::Vec3> result;
    for (const OpenMM::Vec3& v : vectors)
        result.push_back(v * factor);
    return result;
}

/** The same mode, groups, switching function, cutoff and periodicity (every setting but the energy, parameters, group and name). */
inline void expectSameCoordinationSettings(const CoordinationPlugin::CoordinationForce& copy,
                                           const CoordinationPlugin::CoordinationForce& original) {
    EXPECT_EQ(copy.getMode(), original.getMode());
    EXPECT_EQ(copy.getGroupA(), original.getGroupA());
    EXPECT_EQ(copy.getGroupB(), original.getGroupB());
    EXPECT_EQ(copy.getR0(), original.getR0());
    EXPECT_EQ(copy.getN(), original.getN());
    EXPECT_EQ(copy.getM(), original.getM());
    EXPECT_EQ(copy.getD0(), original.getD0());
    EXPECT_EQ(copy.getDMax(), original.getDMax());
    EXPECT_EQ(copy.getStretch(), original.getStretch());
    EXPECT_EQ(copy.getSwitchingFunction(), original.getSwitchingFunction());
    EXPECT_EQ(copy.getSmapA(), original.getSmapA());
    EXPECT_EQ(copy.getSmapB(), original.getSmapB());
    EXPECT_EQ(copy.getNativeQBeta(), original.getNativeQBeta());
    EXPECT_EQ(copy.getNativeQLambda(), original.getNativeQLambda());
    EXPECT_EQ(copy.getNativeQReference(), original.getNativeQReference());
    EXPECT_EQ(copy.getCustomSwitchingFunction(), original.getCustomSwitchingFunction());
    EXPECT_EQ(copy.usesPeriodicBoundaryConditions(), original.usesPeriodicBoundaryConditions());
}

/** |actual - expected| <= tolerance * max(|expected|, 1). */
inline void expectRelativelyNear(double actual, double expected, double tolerance, const std::string& what = "") {
    EXPECT_NEAR(actual, expected, tolerance * std::max(std::fabs(expected), 1.0)) << what;
}

/**
 * Every component of actual within relativeTolerance * RMS(expected) of expected (absoluteFloor when the
 * expected forces are all zero).
 */
inline void expectForcesNear(const std::vector<OpenMM::Vec3>& actual, const std::vector<OpenMM::Vec3>& expected,
                             double relativeTolerance, double absoluteFloor = 1e-12) {
    ASSERT_EQ(actual.size(), expected.size());
    double tolerance = std::max(relativeTolerance * rootMeanSquare(expected), absoluteFloor);
    int reported = 0;
    for (size_t i = 0; i < actual.size(); i++)
        for (int axis = 0; axis < 3; axis++)
            if (!(std::fabs(actual[i][axis] - expected[i][axis]) <= tolerance) && reported++ < 5)
                ADD_FAILURE() << "force on particle " << i << " axis " << axis << ": " << actual[i][axis]
                              << " expected " << expected[i][axis] << " (tolerance " << tolerance << ")";
}

inline void expectAllForcesZero(const std::vector<OpenMM::Vec3>& forces) {
    for (size_t i = 0; i < forces.size(); i++)
        EXPECT_EQ(forces[i], OpenMM::Vec3(0, 0, 0)) << "particle " << i;
}

/** Expects action() to throw an OpenMMException whose message contains every one of the given words. */
inline void expectOpenMMExceptionMentioning(const std::function<void()>& action,
                                            const std::vector<std::string>& words) {
    try {
        action();
        ADD_FAILURE() << "expected an OpenMMException mentioning \"" << (words.empty() ? "" : words[0])
                      << "\", but nothing was thrown";
    } catch (const OpenMM::OpenMMException& error) {
        std::string message = error.what();
        for (const std::string& word : words)
            EXPECT_NE(message.find(word), std::string::npos)
                << "the message \"" << message << "\" does not mention \"" << word << "\"";
    } catch (const std::exception& error) {
        ADD_FAILURE() << "expected an OpenMMException, got another exception: " << error.what();
    }
}

/** The size of the random systems of the setting matrices. */
const int MatrixAtoms = 32;

/**
 * Random positions, with two pairs placed exactly d0 + r0 apart (x = 1, the removable singularity: the
 * first lies on a binary grid, so that with d0 = 0 the distance is exactly r0) and one pair closer than d0.
 */
inline std::vector<OpenMM::Vec3> positionsFor(const SwitchingSettings& settings, const Box& box, unsigned seed) {
    std::vector<OpenMM::Vec3> positions = randomPositions(MatrixAtoms, box, seed);
    const double atOne = settings.d0 + settings.r0;
    positions[0] = OpenMM::Vec3(0.5, 0.75, 1.0);
    positions[1] = positions[0] + OpenMM::Vec3(atOne, 0, 0);
    positions[2] = OpenMM::Vec3(1.25, 0.5, 0.625);
    positions[3] = positions[2] + OpenMM::Vec3(0, 0, atOne);
    positions[4] = OpenMM::Vec3(1.0, 1.5, 1.5);
    positions[5] = positions[4] + OpenMM::Vec3(0.03, 0.04, 0); // 0.05 nm: inside d0 = 0.1
    return positions;
}

/** Groups for each mode over the atoms, including the special pairs, a repeated slot and a shared atom. */
inline void groupsFor(CoordinationPlugin::CoordinationForce::Mode mode, std::vector<int>& groupA, std::vector<int>& groupB) {
    groupA.clear();
    groupB.clear();
    if (mode == CoordinationPlugin::CoordinationForce::Self) {
        // Every other atom from 6 on, plus the special atoms and atom 9 twice.
        groupA = {0, 1, 2, 3, 4, 5, 9};
        for (int atom = 6; atom < MatrixAtoms; atom += 2)
            groupA.push_back(atom);
    } else if (mode == CoordinationPlugin::CoordinationForce::Dual) {
        // Atoms 10 to 13 are in both groups (their pairs count twice, their self pairs not at all).
        groupA = {0, 2, 4, 10, 11, 12, 13};
        groupB = {1, 3, 5, 10, 11, 12, 13};
        for (int atom = 14; atom < MatrixAtoms; atom++)
            (atom % 2 == 0 ? groupA : groupB).push_back(atom);
    } else {
        // Slot 3 pairs an atom with itself; atom 7 is in two slots.
        groupA = {0, 2, 4, 8, 7, 7};
        groupB = {1, 3, 5, 8, 9, 10};
        for (int atom = 11; atom + 1 < MatrixAtoms; atom += 2) {
            groupA.push_back(atom);
            groupB.push_back(atom + 1);
        }
    }
}

inline std::string modeName(CoordinationPlugin::CoordinationForce::Mode mode) {
    return mode == CoordinationPlugin::CoordinationForce::Self ? "Self" : (mode == CoordinationPlugin::CoordinationForce::Dual ? "Dual" : "Pair");
}

inline Box boxNamed(const std::string& name) {
    if (name == "Rectangular")
        return Box::rectangular();
    if (name == "Triclinic")
        return Box::triclinic();
    return Box::none();
}

/** Central finite differences of the energy: -dE/dx for every coordinate of every particle. */
inline std::vector<OpenMM::Vec3> finiteDifferenceForces(CoordinationContext& system,
                                                        const std::vector<OpenMM::Vec3>& positions,
                                                        double step = Tolerance::FiniteDifferenceStep) {
    std::vector<OpenMM::Vec3> forces(positions.size());
    std::vector<OpenMM::Vec3> displaced = positions;
    for (size_t i = 0; i < positions.size(); i++)
        for (int axis = 0; axis < 3; axis++) {
            displaced[i][axis] = positions[i][axis] + step;
            system.getContext().setPositions(displaced);
            double forward = system.energy();
            displaced[i][axis] = positions[i][axis] - step;
            system.getContext().setPositions(displaced);
            double backward = system.energy();
            displaced[i][axis] = positions[i][axis];
            forces[i][axis] = -(forward - backward) / (2 * step);
        }
    system.getContext().setPositions(positions);
    return forces;
}

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_UTILITIES_H_*/
