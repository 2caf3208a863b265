/*
 * Every switching function type (PLUMED's SWITCH={...}: EXP, GAUSSIAN, SMAP, CUBIC, TANH, COSINUS, Q,
 * CUSTOM; RATIONAL has its own matrix in TestBruteForceMatrix.cpp) against the independent long-double
 * brute force, on the platform under test: s, energies and forces for every mode and box, finite
 * differences, the CPU-side definition on a grid, validation, XML, updates; and energy parameter
 * derivatives.
 */

#include "CoordinationTestUtilities.h"
#include "SameSettings.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"
#include "openmm/serialization/XmlSerializer.h"
#include <sstream>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

using Settings = SwitchingSettings;

/** NativeQ with r0 (which it does not use) at its midpoint, where the matrix places two pairs at d0 + r0. */
SwitchingSettings nativeQ(double beta, double lambda, double reference, double d0 = 0.0) {
    const double midpoint = lambda * reference;
    SwitchingSettings settings = SwitchingSettings::nativeQ(beta, lambda, reference, d0);
    settings.setR0(midpoint > d0 ? midpoint - d0 : 0.3);
    return settings;
}

/**
 * One function per type and parameter choice (d0 > 0 where the type has it; Gaussian with r0 = 1, d0 = 0
 * is PLUMED's "fast gaussian"; Custom in the x and x2 forms, where d0 is ignored).
 */
std::vector<SwitchingSettings> typedFunctions() {
    return {typedSettings(CoordinationForce::Exponential, 0.2),
            typedSettings(CoordinationForce::Exponential, 0.15, 0.1),
            typedSettings(CoordinationForce::Gaussian, 0.3, 0.05),
            typedSettings(CoordinationForce::Gaussian, 1.0),
            Settings::smap(0.3, 6, 2),
            Settings::smap(0.25, 4, 8, 0.1),
            typedSettings(CoordinationForce::Cubic, 0.3),
            typedSettings(CoordinationForce::Cubic, 0.3, 0.1),
            typedSettings(CoordinationForce::Tanh, 0.25),
            typedSettings(CoordinationForce::Tanh, 0.2, 0.1),
            typedSettings(CoordinationForce::Cosinus, 1.2),
            typedSettings(CoordinationForce::Cosinus, 1.0, 0.1),
            nativeQ(50.0, 1.8, 0.25),
            nativeQ(10.0, 1.5, 0.4, 0.1),
            Settings::custom("1/(1+x^6)", 0.25),
            Settings::custom("(1+x)*exp(-2*x)", 0.2, 0.1),
            Settings::custom("1/(1+x2^3)", 0.25),
            Settings::custom("exp(-0.5*x2)", 0.3, 0.1)};
}

/**
 * The matrix: every typed function x dmax in {automatic, 1 nm, none} x stretch on/off (Cubic only with a
 * finite cutoff). Covering design (quickMatrices()): function f runs in three instances, one per mode m, with the
 * box (m + f) mod 3, the dmax (m + 2f) mod 3 and the stretch (m + f) mod 2, so that every function meets every
 * mode, every box and every kind of cutoff, and every instance runs a third of the functions.
 */
std::vector<SwitchingSettings> typedMatrix(CoordinationForce::Mode mode, const std::string& boxName) {
    const double dmaxes[] = {0.0, 1.0, Infinity};
    const int modeIndex = (int) mode, boxIndex = matrixBoxIndex(boxName);
    const std::vector<SwitchingSettings> functions = typedFunctions();
    std::vector<SwitchingSettings> matrix;
    for (int f = 0; f < (int) functions.size(); f++)
        for (int d = 0; d < 3; d++)
            for (bool stretch : {true, false}) {
                const bool cubic = (functions[f].getType() == CoordinationForce::Cubic);
                if (cubic && d != 1)
                    continue;
                const bool chosen = ((modeIndex + f) % 3 == boxIndex && (cubic || (modeIndex + 2 * f) % 3 == d) &&
                                     stretch == ((modeIndex + f) % 2 == 0));
                if (quickMatrices() && !chosen)
                    continue;
                SwitchingSettings settings = functions[f];
                settings.setDMax(dmaxes[d]);
                settings.setStretch(stretch);
                matrix.push_back(settings);
            }
    return matrix;
}

/**
 * The matrix of typed functions in every mode and box, positions and box vectors rounded to float, so that single
 * and mixed precision contexts (which store positions as float) and the brute force see the same input: steep
 * functions (NativeQ with beta = 50/nm) would otherwise turn the 1e-7 nm rounding of a coordinate into a 1e-5
 * change of a force.
 */
class TypedMatrix : public ModeAndBoxTest {};

class TypedDerivatives : public ::testing::TestWithParam<SwitchingSettings> {};

std::string identifier(const std::string& text) {
    std::string result;
    for (char c : text)
        result += (std::isalnum((unsigned char) c) ? c : '_');
    return result;
}

} // namespace

TEST(SwitchingFunctionDefinitions, TheCpuSideDefinitionMatchesTheBruteForceOnAGrid) {
    // The one C++ definition (SwitchingFunctionEvaluator, used by the Reference and CPU kernels and for
    // the GPU's stretch constants) against the brute force at r = 0 to 3 nm, including d0, dmax and x = 1.
    for (SwitchingSettings settings : typedFunctions()) {
        for (double dmax : {0.0, 0.8, Infinity})
            for (bool stretch : {true, false}) {
                if (settings.getType() == CoordinationForce::Cubic && dmax != 0.8)
                    continue;
                settings.setDMax(dmax);
                settings.setStretch(stretch);
                SCOPED_TRACE(describe(settings));
                const SwitchingFunctionEvaluator sigma(resolvedSwitching(settings));
                const double cutoff = sigma.getConstants().dmax;
                EXPECT_EQ((double) BruteForce::effectiveDMax(settings), cutoff);
                std::vector<double> grid = {0.0, settings.getD0(), settings.getD0() + settings.getR0(), cutoff};
                for (int i = 1; i <= 300; i++)
                    grid.push_back(0.01 * i - 0.0013);
                expectSigmaOnGrid(
                    settings, grid, 1e-13 * std::max(1.0, std::fabs(sigma.getConstants().stretchFactor)),
                    [](double) { return 1e-11; }, [&](double r, double& slope) { return sigma.evaluate(r, slope); });
            }
    }
}

TEST(SwitchingFunctionDefinitions, FollowPlumedsSpecialRules) {
    auto value = [](const SwitchingSettings& settings, double r) {
        double slope;
        return SwitchingFunctionEvaluator(resolvedSwitching(settings)).evaluate(r, slope);
    };
    // sigma = 1 inside d0 for the functions of x (even where f(0) is not 1)...
    SwitchingSettings half = Settings::custom("0.5", 0.3, 0.1);
    half.setDMax(Infinity);
    EXPECT_EQ(value(half, 0.05), 1.0);
    EXPECT_EQ(value(half, 0.2), 0.5);
    // ... but a Custom function of x2 ignores d0: f(x2) down to r = 0.
    SwitchingSettings fast = Settings::custom("exp(-0.5*x2)", 0.3, 0.2);
    fast.setDMax(Infinity);
    EXPECT_DOUBLE_EQ(value(fast, 0.15), std::exp(-0.5 * 0.25));
    // Cosinus is exactly 0 beyond x = 1, and its automatic cutoff is d0 + r0.
    SwitchingSettings cosinus = typedSettings(CoordinationForce::Cosinus, 0.5, 0.1);
    EXPECT_EQ(value(cosinus, 0.61), 0.0);
    EXPECT_DOUBLE_EQ(makeForce(cosinus, CoordinationForce::Self, {0, 1}).getEffectiveDMax(), 0.6);
    // Automatic dmax of the types without one: no cutoff.
    for (CoordinationForce::SwitchingFunction type : {CoordinationForce::Exponential, CoordinationForce::Gaussian,
                                                      CoordinationForce::Tanh, CoordinationForce::NativeQ})
        EXPECT_TRUE(std::isinf(makeForce(typedSettings(type, 0.3), CoordinationForce::Self, {0, 1}).getEffectiveDMax()));
    // Cubic: 1 at d0, 1/2 halfway, 0 at dmax (stretching changes nothing); r0 is not used.
    SwitchingSettings cubic = typedSettings(CoordinationForce::Cubic, 123.0, 0.1);
    cubic.setDMax(0.5);
    EXPECT_EQ(value(cubic, 0.1), 1.0);
    EXPECT_NEAR(value(cubic, 0.3), 0.5, 1e-15);
    EXPECT_NEAR(value(cubic, 0.5), 0.0, 1e-15);
    // NativeQ: 1/2 at lambda * reference; r0 is not used.
    SwitchingSettings q = nativeQ(50.0, 1.5, 0.3);
    q.setR0(17.0);
    EXPECT_NEAR(value(q, 0.45), 0.5, 1e-15);
    // Smap: 1/2 at x = 1.
    EXPECT_NEAR(value(Settings::smap(0.3, 6, 2), 0.3), 0.5, 1e-15);
}

TEST_P(TypedMatrix, CoordinationEnergyAndForcesMatchTheIndependentSum) {
    if (!instanceOnThisPrecision())
        GTEST_SKIP() << "COORDINATION_TEST_QUICK: this instance runs on another precision (onThisPrecision)";
    const Box box = roundedToFloat(this->box());
    unsigned seed = 2000 * (int)mode() + box.name.size();
    for (const SwitchingSettings& settings : typedMatrix(mode(), boxName())) {
        SCOPED_TRACE(traceOf(settings));
        std::vector<Vec3> positions = roundedToFloat(positionsFor(settings, box, seed++));
        CoordinationForce force = matrixForce(settings, "2*s");
        CoordinationContext system(force, positions, box);
        BruteForce::Coordination expected = bruteForceOf(force, positions, box);
        // Enough pairs within range that the comparison means something, forces included.
        ASSERT_GT(expected.s, 0.5);
        ASSERT_GT(rootMeanSquare(expected.gradient), 0.05);
        expectMatchesBruteForce(system.evaluate(), expected, 2.0, Tolerance::ForceResolution * 8);
    }
}

INSTANTIATE_TEST_SUITE_P(AllModesAndBoxes, TypedMatrix, modesAndBoxes(), modeAndBoxName);

TEST_P(TypedDerivatives, ForcesAreMinusTheGradientOfTheEnergy) {
    if (!Tolerance::Double)
        GTEST_SKIP() << "finite differences of the energy need double precision (" << testPlatform().label() << ")";
    // Stretched to 0 at a cutoff (Cosinus: its own), so that the energy has no jumps.
    SwitchingSettings settings = GetParam();
    settings.setDMax(settings.getType() == CoordinationForce::Cosinus ? 0.0 : 1.0);
    const Box box = Box::rectangular();
    const std::vector<Vec3> start = randomPositions(20, box, 31);
    CoordinationForce force = makeForce(settings, CoordinationForce::Self, indices(20), {}, "0.5*k*(s-1)^2", true);
    force.addGlobalParameter("k", 2.0);
    CoordinationContext system(force, start, box);
    Evaluation result = system.evaluate();
    ASSERT_GT(rootMeanSquare(result.forces), 0.01);
    expectForcesNear(result.forces, finiteDifferenceForces(system, start), Tolerance::FiniteDifferenceRelativeToRms);
}

INSTANTIATE_TEST_SUITE_P(EveryType, TypedDerivatives, ::testing::ValuesIn(typedFunctions()),
                         [](const ::testing::TestParamInfo<SwitchingSettings>& info) {
                             return std::to_string(info.index) + "_" + identifier(describe(info.param).substr(0, 24));
                         });

TEST(SwitchingFunctionValidation, BadParametersOfEachTypeAreRejectedWithAClearMessage) {
    auto contextFails = [](const SwitchingSettings& settings, const std::vector<std::string>& words) {
        SCOPED_TRACE(describe(settings));
        CoordinationForce force = makeForce(settings, CoordinationForce::Self, {0, 1, 2});
        expectOpenMMExceptionMentioning(
            [&]() { CoordinationContext(force, {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.3, 0)}, Box::none()); },
            words);
    };
    contextFails(Settings::smap(0.3, 0, 0),
                 {"Smap", "setSmapExponents"}); // unset; other values are refused by the setter
    contextFails(nativeQ(50, 1.8, 0.0), {"NativeQ", "reference", "setNativeQParameters"});
    contextFails(nativeQ(-1, 1.8, 0.3), {"NativeQ", "beta"});
    contextFails(typedSettings(CoordinationForce::Cubic, 0.3), {"Cubic", "setDMax"});
    SwitchingSettings cubicNoCutoff = typedSettings(CoordinationForce::Cubic, 0.3);
    cubicNoCutoff.setDMax(Infinity);
    contextFails(cubicNoCutoff, {"Cubic", "finite cutoff"});
    contextFails(Settings::custom("", 0.3), {"Custom", "setCustomSwitchingFunction"});
    contextFails(Settings::custom("1/(1+x^", 0.3), {"1/(1+x^", "parse"});
    contextFails(Settings::custom("exp(-r)", 0.3), {"\"r\"", "x2"});
    contextFails(Settings::custom("x*x2", 0.3), {"both x and x2"});
    SwitchingSettings flat = typedSettings(CoordinationForce::Exponential, 1.0);
    flat.setDMax(1e-7); // sigma(dmax) = 1 - 1e-7: stretching would multiply by 1e7
    contextFails(flat, {"stretch"});
    // Parameters of other types are not checked (a Rational force with n = m is still rejected).
    SwitchingSettings gaussian = typedSettings(CoordinationForce::Gaussian, 0.3);
    gaussian.setN(4);
    gaussian.setM(4);
    CoordinationForce force = makeForce(gaussian, CoordinationForce::Self, {0, 1});
    EXPECT_NO_THROW(CoordinationContext(force, {Vec3(0, 0, 0), Vec3(0.3, 0, 0)}, Box::none()));
    CoordinationForce setter;
    expectOpenMMExceptionMentioning([&]() { setter.setSwitchingFunction((CoordinationForce::SwitchingFunction) 9); },
                                    {"unknown switching function", "Custom"});
}

TEST(SwitchingFunctionSerialization, EveryTypeSurvivesXml) {
    for (const SwitchingSettings& settings : typedFunctions()) {
        SCOPED_TRACE(describe(settings));
        CoordinationForce original = makeForce(settings, CoordinationForce::Dual, {0, 1}, {2, 3});
        original.addGlobalParameter("k", 1.0);
        original.addEnergyParameterDerivative("k");
        std::stringstream buffer;
        OpenMM::XmlSerializer::serialize<CoordinationForce>(&original, "Force", buffer);
        std::unique_ptr<CoordinationForce> copy(OpenMM::XmlSerializer::deserialize<CoordinationForce>(buffer));
        expectSameCoordinationSettings(*copy, original);
        ASSERT_EQ(copy->getNumEnergyParameterDerivatives(), 1);
        EXPECT_EQ(copy->getEnergyParameterDerivativeName(0), "k");
    }
}

TEST(SwitchingFunctionSerialization, VersionOneXmlReadsAsRational) {
    // A force written by version 1 of the format (before the switching function types).
    std::stringstream buffer(
        "<?xml version=\"1.0\" ?>\n<Force d0=\"0\" dmax=\"0\" energy=\"s\" forceGroup=\"0\" m=\"0\" mode=\"0\" n=\"6\" "
        "name=\"CoordinationForce\" noCutoff=\"0\" r0=\".3\" stretch=\"1\" type=\"CoordinationForce\" "
        "usesPeriodic=\"0\" version=\"1\">\n<GroupA><Atom index=\"0\"/><Atom index=\"1\"/></GroupA>\n<GroupB/>\n"
        "<GlobalParameters/>\n</Force>\n");
    std::unique_ptr<CoordinationForce> force(OpenMM::XmlSerializer::deserialize<CoordinationForce>(buffer));
    EXPECT_EQ(force->getSwitchingFunction(), CoordinationForce::Rational);
    EXPECT_EQ(force->getNumEnergyParameterDerivatives(), 0);
    EXPECT_EQ(force->getGroupA(), std::vector<int>({0, 1}));
}

TEST(SwitchingFunctionUpdates, ChangingTheTypeInAContextChangesTheResult) {
    const std::vector<int> group = indices(MatrixAtoms);
    const Box box = Box::rectangular();
    const std::vector<Vec3> positions = randomPositions(MatrixAtoms, box, 5);
    SwitchingSettings settings;
    settings.setR0(0.25);
    CoordinationForce force = makeForce(settings, CoordinationForce::Self, group, {}, "s", true);
    CoordinationContext system(force, positions, box);
    for (const SwitchingSettings& next :
         {typedSettings(CoordinationForce::Tanh, 0.2), Settings::custom("1/(1+x2^3)", 0.3), nativeQ(20.0, 1.5, 0.3),
          typedSettings(CoordinationForce::Cosinus, 0.5)}) {
        SCOPED_TRACE(describe(next));
        CoordinationForce& updated = system.getForce();
        updated = makeForce(next, CoordinationForce::Self, group, {}, "s", true);
        updated.updateParametersInContext(system.getContext());
        expectMatchesBruteForce(system.evaluate(), bruteForceOf(updated, positions, box), 1.0,
                                Tolerance::ForceResolution * 8);
    }
}

TEST(EnergyParameterDerivatives, AreTheDerivativesOfTheEnergyExpression) {
    const Box box = Box::rectangular();
    const std::vector<Vec3> positions = randomPositions(MatrixAtoms, box, 11);
    CoordinationForce force = makeForce(typedSettings(CoordinationForce::Gaussian, 0.3), CoordinationForce::Self,
                                        indices(MatrixAtoms), {}, "0.5*k*(s-s0)^2 + 0*unused", true);
    force.addGlobalParameter("k", 3.0);
    force.addGlobalParameter("s0", 4.0);
    force.addGlobalParameter("unused", 1.0);
    force.addEnergyParameterDerivative("s0");
    force.addEnergyParameterDerivative("k");
    CoordinationContext system(force, positions, box);
    OpenMM::Context& context = system.getContext();
    const double s = system.getForce().getCoordination(context);
    std::map<std::string, double> derivatives =
        context.getState(OpenMM::State::Energy | OpenMM::State::ParameterDerivatives).getEnergyParameterDerivatives();
    ASSERT_EQ(derivatives.count("k"), 1u);
    ASSERT_EQ(derivatives.count("s0"), 1u);
    if (derivatives.count("unused") > 0) // OpenMM may list every parameter; one not requested is not computed
        EXPECT_EQ(derivatives["unused"], 0.0);
    // Analytic: dE/dk = (s - s0)^2 / 2, dE/ds0 = -k (s - s0).
    expectRelativelyNear(derivatives["k"], 0.5 * (s - 4.0) * (s - 4.0), Tolerance::Coordination, "dE/dk");
    expectRelativelyNear(derivatives["s0"], -3.0 * (s - 4.0), Tolerance::Coordination, "dE/ds0");
    // Finite differences of the energy in each parameter (E is quadratic in s0, linear in k: exact up to rounding).
    for (const auto& parameter : {std::make_pair(std::string("k"), 3.0), std::make_pair(std::string("s0"), 4.0)}) {
        const double step = 1e-3;
        context.setParameter(parameter.first, parameter.second + step);
        double forward = system.energy();
        context.setParameter(parameter.first, parameter.second - step);
        double backward = system.energy();
        context.setParameter(parameter.first, parameter.second);
        double scale = std::max(1.0, std::fabs(derivatives[parameter.first]));
        EXPECT_NEAR((forward - backward) / (2 * step), derivatives[parameter.first],
                    (Tolerance::Double ? 1e-6 : 2e-2) * scale)
            << "finite difference in " << parameter.first;
    }
    // The values follow the parameters.
    context.setParameter("k", 5.0);
    derivatives = context.getState(OpenMM::State::Energy | OpenMM::State::ParameterDerivatives).getEnergyParameterDerivatives();
    expectRelativelyNear(derivatives["s0"], -5.0 * (s - 4.0), Tolerance::Coordination, "dE/ds0 after setParameter");
}

TEST(EnergyParameterDerivatives, TwoForcesSharingAParameterAddUp) {
    std::vector<int> group = {0, 1, 2, 3, 4, 5, 6, 7};
    const Box box = Box::none();
    const std::vector<Vec3> positions = randomPositions(8, box, 3);
    SwitchingSettings settings;
    settings.setR0(0.8);
    std::vector<OpenMM::Force*> forces;
    for (const char* energy : {"k*s", "k^2*s"}) {
        CoordinationForce* force = new CoordinationForce(makeForce(settings, CoordinationForce::Self, group, {}, energy));
        force->addGlobalParameter("k", 1.5);
        force->addEnergyParameterDerivative("k");
        forces.push_back(force);
    }
    SystemContext system(unitMasses(8), box, forces);
    OpenMM::Context& context = system.getContext();
    context.setPositions(positions);
    double s = dynamic_cast<CoordinationForce&>(system.getSystem().getForce(0)).getCoordination(context);
    std::map<std::string, double> derivatives =
        context.getState(OpenMM::State::Energy | OpenMM::State::ParameterDerivatives).getEnergyParameterDerivatives();
    expectRelativelyNear(derivatives["k"], s + 2 * 1.5 * s, Tolerance::Coordination, "dE/dk of k*s + k^2*s");
}

TEST(EnergyParameterDerivatives, MustNameAGlobalParameterOnce) {
    SwitchingSettings settings;
    CoordinationForce force = makeForce(settings, CoordinationForce::Self, {0, 1}, {}, "k*s");
    force.addGlobalParameter("k", 1.0);
    force.addEnergyParameterDerivative("q");
    expectOpenMMExceptionMentioning([&]() { CoordinationContext(force, {Vec3(0, 0, 0), Vec3(0.3, 0, 0)}, Box::none()); },
                                    {"\"q\"", "addGlobalParameter"});
    CoordinationForce twice = makeForce(settings, CoordinationForce::Self, {0, 1}, {}, "k*s");
    twice.addGlobalParameter("k", 1.0);
    twice.addEnergyParameterDerivative("k");
    twice.addEnergyParameterDerivative("k");
    expectOpenMMExceptionMentioning([&]() { CoordinationContext(twice, {Vec3(0, 0, 0), Vec3(0.3, 0, 0)}, Box::none()); },
                                    {"\"k\"", "twice"});
}
