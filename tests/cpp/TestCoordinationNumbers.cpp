/*
 * CoordinationNumberForce (PLUMED's COORDINATIONNUMBER and COORDINATION_MOMENTS with their reductions) against an
 * independent long-double brute force written here from PLUMED's definitions and, on the other platforms, against the
 * Reference platform (TestCoordinationNumberRegtests.cpp: against PLUMED's own printed numbers).
 */

#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;
using std::string;
using std::vector;
typedef CoordinationNumberForce Numbers;

namespace {

/** A reduction as the force takes it, with what the brute force needs to evaluate it independently. */
struct OracleReduction {
    Numbers::ReductionType type;
    string parameters, name;
    SwitchingSettings valueSwitch; ///< MoreThan, LessThan: the switching function of c
    double lower = 0, upper = 0, smear = 0.5, beta = 0;
    bool triangular = false;
    int power = 0;
};

/** A reduction whose oracle needs nothing but its type (Sum, Mean, Highest, Lowest). */
OracleReduction plain(Numbers::ReductionType type) { return {type, "", ""}; }

/** MoreThan or LessThan with the switching function of c its parameters describe. */
OracleReduction switched(Numbers::ReductionType type, const string& parameters, const string& name,
                         const SwitchingSettings& valueSwitch) {
    return {type, parameters, name, valueSwitch};
}

/** Between: the window [lower, upper], its smear and whether it is triangular. */
OracleReduction between(const string& parameters, const string& name, double lower, double upper, double smear,
                        bool triangular) {
    return {Numbers::Between, parameters, name, SwitchingSettings(), lower, upper, smear, 0, triangular};
}

/** Min, Max or AltMin with its BETA. */
OracleReduction softened(Numbers::ReductionType type, const string& parameters, double beta) {
    return {type, parameters, "", SwitchingSettings(), 0, 0, 0.5, beta};
}

/** A moment of the given power. */
OracleReduction moment(const string& parameters, int power) {
    return {Numbers::Moment, parameters, "", SwitchingSettings(), 0, 0, 0.5, 0, false, power};
}

/** Every reduction type, with parameters that keep every value and slope finite for the systems below. */
vector<OracleReduction> everyReduction() {
    return {plain(Numbers::Sum),
            plain(Numbers::Mean),
            switched(Numbers::MoreThan, "RATIONAL R_0=0.6 NN=6 MM=12", "", rationalSettings(0.6, 6, 12, 0.0, Infinity)),
            switched(Numbers::LessThan, "EXP R_0=0.4", "lessthan_1",
                     typedSettings(CoordinationForce::Exponential, 0.4, 0.0, Infinity)),
            switched(Numbers::LessThan, "GAUSSIAN R_0=0.3 D_0=0.1 D_MAX=2", "lessthan_2",
                     typedSettings(CoordinationForce::Gaussian, 0.3, 0.1, 2.0)),
            switched(Numbers::MoreThan, "RATIONAL R_0=0.5 NN=4 MM=6 D_MAX=3 NOSTRETCH", "morethan_1",
                     rationalSettings(0.5, 4, 6, 0.0, 3.0, false)),
            between("GAUSSIAN LOWER=0.2 UPPER=0.9 SMEAR=0.5", "", 0.2, 0.9, 0.5, false),
            between("TRIANGULAR LOWER=0.3 UPPER=1.1 SMEAR=0.4", "between_1", 0.3, 1.1, 0.4, true),
            softened(Numbers::Min, "BETA=0.05", 0.05),
            softened(Numbers::Max, "BETA=0.2", 0.2),
            softened(Numbers::AltMin, "BETA=5", 5),
            plain(Numbers::Highest),
            plain(Numbers::Lowest),
            moment("2", 2),
            moment(" 3 ", 3)};
}

/** The reduction's value from PLUMED's definition (src/multicolvar/MultiColvarShortcuts.cpp, src/function). */
long double reduce(const OracleReduction& reduction, const vector<long double>& c) {
    const long double n = c.size();
    long double sum = 0, mean = 0;
    for (long double value : c)
        mean += value / n;
    switch (reduction.type) {
    case Numbers::Sum:
        for (long double value : c)
            sum += value;
        return sum;
    case Numbers::Mean:
        return mean;
    case Numbers::MoreThan:
        for (long double value : c)
            sum += 1 - BruteForce::sigma(reduction.valueSwitch, value).value;
        return sum;
    case Numbers::LessThan:
        for (long double value : c)
            sum += BruteForce::sigma(reduction.valueSwitch, value).value;
        return sum;
    case Numbers::Between: {
        // PLUMED's HistogramBead::calculate.
        const long double width = reduction.smear * (reduction.upper - reduction.lower);
        for (long double value : c) {
            if (!reduction.triangular) {
                const long double low = (reduction.lower - value) / (std::sqrt(2.0L) * width);
                const long double high = (reduction.upper - value) / (std::sqrt(2.0L) * width);
                sum += 0.5L * (std::erf(high) - std::erf(low));
                continue;
            }
            const long double low = (reduction.lower - value) / width, high = (reduction.upper - value) / width;
            if (high <= -1 || low >= 1)
                continue;
            const long double ia = std::max(low, -1.0L), ib = std::min(high, 1.0L);
            sum += 0.5L * (ib * (2 - std::fabs(ib)) - ia * (2 - std::fabs(ia)));
        }
        return sum;
    }
    case Numbers::Min:
        for (long double value : c)
            sum += std::exp(reduction.beta / value);
        return reduction.beta / std::log(sum);
    case Numbers::Max:
        for (long double value : c)
            sum += std::exp(value / reduction.beta);
        return reduction.beta * std::log(sum);
    case Numbers::AltMin:
        for (long double value : c)
            sum += std::exp(-reduction.beta * value);
        return -std::log(sum) / reduction.beta;
    case Numbers::Highest:
        return *std::max_element(c.begin(), c.end());
    case Numbers::Lowest:
        return *std::min_element(c.begin(), c.end());
    case Numbers::Moment:
        for (long double value : c)
            sum += std::pow(value - mean, reduction.power) / n;
        return sum;
    }
    return 0;
}

/** A force's pair settings and groups, for the brute force. */
struct PairSetup {
    SwitchingSettings settings;
    CoordinationForce::Mode mode;
    vector<int> groupA, groupB;
    double power = 0;
    BruteForce::Cell cell;
};

/** c_i from the definition. */
vector<long double> bruteForceNumbers(const PairSetup& setup, const vector<Vec3>& positions) {
    return BruteForce::coordinationNumbers(setup.settings, setup.mode, setup.groupA, setup.groupB, setup.power,
                                           positions, setup.cell);
}

/** The energy of the tests: a distinct coefficient per reduction (a swapped weight shows), and one nonlinear term. */
string energyExpressionOf(const vector<OracleReduction>& reductions, vector<double>& coefficients) {
    string energy = "0.5*k*(" + (reductions[0].name.empty() ? string("sum") : reductions[0].name) + "-3)^2";
    coefficients.clear();
    for (size_t q = 0; q < reductions.size(); q++) {
        coefficients.push_back(0.25 + 0.17 * q);
        const string name = (reductions[q].name.empty()
                                 ? Numbers::getDefaultReductionName(reductions[q].type, reductions[q].parameters)
                                 : reductions[q].name);
        energy += "+" + std::to_string(coefficients.back()) + "*" + name;
    }
    return energy;
}

const double K = 0.7;

long double bruteForceEnergy(const PairSetup& setup, const vector<OracleReduction>& reductions, const vector<double>& coefficients,
                             const vector<Vec3>& positions) {
    const vector<long double> c = bruteForceNumbers(setup, positions);
    const long double first = reduce(reductions[0], c);
    long double energy = 0.5L * K * (first - 3) * (first - 3);
    for (size_t q = 0; q < reductions.size(); q++)
        energy += (long double) coefficients[q] * reduce(reductions[q], c);
    return energy;
}

/** -dE/dx of the brute-force energy by central differences in long double (independent of any derivative code). */
vector<Vec3> bruteForceForces(const PairSetup& setup, const vector<OracleReduction>& reductions, const vector<double>& coefficients,
                              const vector<Vec3>& positions) {
    return centralDifferences(
        positions, 1e-6, [&](const vector<Vec3>& at) { return bruteForceEnergy(setup, reductions, coefficients, at); });
}

Numbers makeNumbers(const PairSetup& setup, const vector<OracleReduction>& reductions, const string& energy, bool periodic) {
    CoordinationForce pair = makeForce(setup.settings, setup.mode, setup.groupA, setup.groupB, "s", periodic);
    Numbers force(energy);
    static_cast<PairSwitchingForce&>(force) = pair;
    force.setEnergyFunction(energy);
    force.setRPower(setup.power);
    for (const OracleReduction& reduction : reductions)
        force.addReduction(reduction.type, reduction.parameters, reduction.name);
    force.addGlobalParameter("k", K);
    return force;
}

/** The pair settings the matrix rotates through (each keeps every atom's c_i away from 0, for MIN). */
vector<SwitchingSettings> pairSettings() {
    return {rationalSettings(0.35, 6, 0, 0.0, 0.0),
            rationalSettings(0.3, 8, 14, 0.05, 1.2),
            typedSettings(CoordinationForce::Exponential, 0.2, 0.0, Infinity, true),
            SwitchingSettings::custom("1/(1+x^6)", 0.35, 0.0, 1.3),
            withoutStretch(SwitchingSettings::smap(0.4, 6, 2, 0.05, 1.4)),
            typedSettings(CoordinationForce::Gaussian, 0.3, 0.1, 1.5, true)};
}

class CoordinationNumbersMatrix : public ModeAndBoxTest {};

} // namespace

TEST_P(CoordinationNumbersMatrix, NumbersReductionsEnergyAndForcesMatchTheBruteForce) {
    if (!instanceOnThisPrecision())
        GTEST_SKIP() << "COORDINATION_TEST_QUICK: this instance runs on another precision (onThisPrecision)";
    const CoordinationForce::Mode mode = this->mode();
    const Box box = roundedToFloat(this->box());
    const int instance = this->instance();
    PairSetup setup;
    setup.settings = pairSettings()[instance % pairSettings().size()];
    setup.mode = mode;
    setup.power = (instance % 3 == 0 ? 0.0 : (instance % 3 == 1 ? 1.0 : 2.5));
    setup.cell = box.cell;
    const vector<Vec3> positions = spacedPositions(36, Vec3(1.8, 1.8, 1.8), 100 + instance);
    for (int atom = 0; atom < 36; atom++)
        if (mode == CoordinationForce::Self || atom % 3 != 0)
            setup.groupA.push_back(atom);
        else
            setup.groupB.push_back(atom);
    if (mode == CoordinationForce::Dual)
        setup.groupB.push_back(setup.groupA[2]); // an atom in both groups: its own pair counts 0
    setup.groupA.push_back(setup.groupA[5]);     // an atom listed twice: two entries
    SCOPED_TRACE(describe(setup.settings) + " r power " + std::to_string(setup.power));
    const vector<OracleReduction> reductions = everyReduction();
    vector<double> coefficients;
    const Numbers force = makeNumbers(setup, reductions, energyExpressionOf(reductions, coefficients), box.periodic());
    CoordinationNumberContext tested(force, positions, box);

    const vector<long double> expectedNumbers = bruteForceNumbers(setup, positions);
    vector<double> numbers;
    tested.getForce().getCoordinationNumbers(tested.getContext(), numbers);
    ASSERT_EQ(numbers.size(), expectedNumbers.size());
    for (size_t i = 0; i < numbers.size(); i++) {
        ASSERT_GT(expectedNumbers[i], 0.01L) << "entry " << i << " has neighbours (MIN's exp(beta / c) stays finite)";
        expectRelativelyNear(numbers[i], expectedNumbers[i], Tolerance::Coordination, "c_" + std::to_string(i));
    }
    // Both entries of the atom listed twice: the same sum, of its terms in whatever order the platform adds them.
    expectRelativelyNear(numbers[setup.groupA.size() - 1], numbers[5], Tolerance::Exact, "the atom listed twice");

    vector<double> values;
    tested.getForce().getCollectiveVariableValues(tested.getContext(), values);
    ASSERT_EQ((int) values.size(), tested.getForce().getNumCollectiveVariables());
    ASSERT_EQ(values.size(), reductions.size());
    for (size_t q = 0; q < reductions.size(); q++)
        expectRelativelyNear(values[q], reduce(reductions[q], expectedNumbers), Tolerance::Coordination * 10,
                             tested.getForce().getCollectiveVariableName(q));

    const Evaluation result = tested.evaluate();
    expectRelativelyNear(result.energy, bruteForceEnergy(setup, reductions, coefficients, positions),
                         Tolerance::Coordination * 10, "energy");
    expectForcesNear(result.forces, bruteForceForces(setup, reductions, coefficients, positions),
                     Tolerance::Double ? 1e-7 : 1e-4, Tolerance::ForceResolution * 8);
    if (testPlatform().platform != "Reference") {
        CoordinationNumberContext reference(force, positions, box, ReferenceCase);
        const Evaluation expected = reference.evaluate();
        expectRelativelyNear(result.energy, expected.energy, Tolerance::Coordination * 10, "energy against Reference");
        expectForcesNear(result.forces, expected.forces, Tolerance::Double ? 1e-9 : 1e-4, Tolerance::ForceResolution * 8);
    }
    // The same positions give the same numbers (deterministic sums).
    const Evaluation again = tested.evaluate();
    EXPECT_EQ(again.energy, result.energy);
    for (size_t i = 0; i < result.forces.size(); i++)
        EXPECT_EQ(again.forces[i], result.forces[i]) << "particle " << i;
}

INSTANTIATE_TEST_SUITE_P(ModesAndBoxes, CoordinationNumbersMatrix,
                         modesAndBoxes({CoordinationForce::Self, CoordinationForce::Dual}), modeAndBoxName);

TEST(CoordinationNumbers, ForcesAreMinusTheGradientOfTheEnergy) {
    if (!Tolerance::Double)
        GTEST_SKIP() << "finite differences of the energy need double precision";
    PairSetup setup;
    setup.settings = rationalSettings(0.3, 6, 10, 0.0, 1.1);
    setup.mode = CoordinationForce::Self;
    setup.power = 1.0;
    setup.groupA = indices(20);
    const vector<Vec3> positions = spacedPositions(20, Vec3(1.5, 1.5, 1.5), 7);
    const vector<OracleReduction> reductions = everyReduction();
    vector<double> coefficients;
    CoordinationNumberContext tested(
        makeNumbers(setup, reductions, energyExpressionOf(reductions, coefficients), false), positions);
    expectForcesNear(tested.evaluate().forces, finiteDifferenceForces(tested, positions),
                     Tolerance::FiniteDifferenceRelativeToRms);
}

namespace {

Numbers smallForce(const string& energy = "0") {
    Numbers force(energy);
    force.setGroupA({0, 1, 2, 3});
    force.setR0(0.3);
    force.setDMax(1.0);
    return force;
}

const vector<Vec3> FourAtoms = {Vec3(0, 0, 0), Vec3(0.25, 0, 0), Vec3(0, 0.3, 0), Vec3(0.2, 0.2, 0.25)};

} // namespace

TEST(CoordinationNumbers, AnAtomAtTheSamePlaceAsAnotherCountsZeroForThatPair) {
    // PLUMED's CONTACT_MATRIX: a pair with r^2 < DBL_EPSILON contributes nothing (CoordinationForce counts sigma(0) = 1).
    vector<Vec3> positions = FourAtoms;
    positions[3] = positions[0];
    Numbers force = smallForce("sum");
    force.addReduction(Numbers::Sum);
    CoordinationNumberContext tested(force, positions);
    vector<double> numbers;
    tested.getForce().getCoordinationNumbers(tested.getContext(), numbers);
    EXPECT_NEAR(numbers[0], numbers[3], Tolerance::Exact);
    Numbers three = smallForce();
    three.setGroupA({0, 1, 2});
    CoordinationNumberContext threeAtoms(three, {positions[0], positions[1], positions[2]});
    vector<double> expected;
    threeAtoms.getForce().getCoordinationNumbers(threeAtoms.getContext(), expected);
    expectRelativelyNear(numbers[0], expected[0], Tolerance::Coordination, "c_0 has no term for the atom on top of it");
    const Evaluation result = tested.evaluate();
    for (const Vec3& f : result.forces)
        for (int axis = 0; axis < 3; axis++)
            EXPECT_TRUE(std::isfinite(f[axis]));
}

TEST(CoordinationNumbers, ASwitchingFunctionBelowMachineEpsilonCountsZero) {
    // exp(-1/0.01) = 3.7e-44 < DBL_EPSILON: PLUMED's CONTACT_MATRIX drops it.
    Numbers force;
    force.setGroupA({0, 1});
    force.setSwitchingFunction(CoordinationForce::Exponential);
    force.setR0(0.01);
    force.setDMax(Infinity);
    CoordinationNumberContext tested(force, {Vec3(0, 0, 0), Vec3(1, 0, 0)});
    vector<double> numbers;
    tested.getForce().getCoordinationNumbers(tested.getContext(), numbers);
    EXPECT_EQ(numbers[0], 0.0);
    EXPECT_EQ(numbers[1], 0.0);
}

TEST(CoordinationNumbers, TheReductionsAreTheCollectiveVariablesWithPlumedsNames) {
    Numbers force = smallForce();
    force.addReduction(Numbers::MoreThan, "RATIONAL R_0=1");
    force.addReduction(Numbers::LessThan, "RATIONAL R_0=1", "lessthan_1");
    force.addReduction(Numbers::Moment, "3");
    force.addReduction(Numbers::AltMin, "BETA=2");
    ASSERT_EQ(force.getNumCollectiveVariables(), 4);
    EXPECT_EQ(force.getCollectiveVariableName(0), "morethan");
    EXPECT_EQ(force.getCollectiveVariableName(1), "lessthan_1");
    EXPECT_EQ(force.getCollectiveVariableName(2), "moment_3");
    EXPECT_EQ(force.getCollectiveVariableName(3), "altmin");
    Numbers::ReductionType type;
    string parameters, name;
    force.getReductionParameters(0, type, parameters, name);
    EXPECT_EQ(type, Numbers::MoreThan);
    EXPECT_EQ(parameters, "RATIONAL R_0=1");
    EXPECT_EQ(name, "");
    expectOpenMMExceptionMentioning([&] { force.getCollectiveVariableName(4); }, {"index 4", "0 to 3"});
    CoordinationForce plain;
    EXPECT_EQ(plain.getNumCollectiveVariables(), 1);
    EXPECT_EQ(plain.getCollectiveVariableName(0), "s");
}

TEST(CoordinationNumbers, ACoordinationForceReportsSAsItsCollectiveVariable) {
    CoordinationForce force;
    force.setGroupA({0, 1, 2, 3});
    CoordinationContext tested(force, FourAtoms);
    vector<double> values;
    tested.getForce().getCollectiveVariableValues(tested.getContext(), values);
    ASSERT_EQ(values.size(), 1u);
    EXPECT_EQ(values[0], tested.getForce().getCoordination(tested.getContext()));
}

TEST(CoordinationNumbers, EnergyParameterDerivativesAreTheReductionsTheyMultiply) {
    Numbers force = smallForce("k*morethan + k^2*mean");
    force.addReduction(Numbers::MoreThan, "RATIONAL R_0=0.5");
    force.addReduction(Numbers::Mean);
    force.addGlobalParameter("k", 2.0);
    force.addEnergyParameterDerivative("k");
    CoordinationNumberContext tested(force, FourAtoms);
    vector<double> values;
    tested.getForce().getCollectiveVariableValues(tested.getContext(), values);
    const OpenMM::State state = tested.getContext().getState(OpenMM::State::Energy | OpenMM::State::ParameterDerivatives);
    expectRelativelyNear(state.getEnergyParameterDerivatives().at("k"), values[0] + 4.0 * values[1], Tolerance::Coordination);
    expectRelativelyNear(state.getPotentialEnergy(), 2.0 * values[0] + 4.0 * values[1], Tolerance::Coordination);
}

TEST(CoordinationNumbers, ANonFiniteCoordinateGivesNaNEverywhereAndNoForce) {
    Numbers force = smallForce("mean");
    force.addReduction(Numbers::Mean);
    vector<Vec3> positions = FourAtoms;
    positions[2][1] = std::numeric_limits<double>::infinity();
    if (testPlatform().platform == "CPU")
        GTEST_SKIP() << "OpenMM's CPU platform refuses non-finite coordinates itself";
    CoordinationNumberContext tested(force, positions);
    const Evaluation result = tested.evaluate();
    EXPECT_TRUE(std::isnan(result.energy));
    expectAllForcesZero(result.forces);
    vector<double> numbers;
    tested.getForce().getCoordinationNumbers(tested.getContext(), numbers);
    for (double value : numbers)
        EXPECT_TRUE(std::isnan(value));
    vector<double> values;
    tested.getForce().getCollectiveVariableValues(tested.getContext(), values);
    EXPECT_TRUE(std::isnan(values[0]));
}

TEST(CoordinationNumbers, MinWithAnIsolatedAtomIsZeroWithTheLimitOfItsSlope) {
    // MIN = b / log(sum exp(b / c_i)) is 0 where a c_i is 0 (PLUMED: b / log(inf)), and its slope's limit there is
    // 1 for that entry (R ~ c_i); the isolated atom has no pair, so the energy is finite and no force acts. The
    // other atoms' forces come from the mean alone.
    vector<Vec3> positions = FourAtoms;
    positions.push_back(Vec3(5, 5, 5)); // beyond the cutoff of every other atom
    Numbers force = smallForce("3*min + mean");
    force.setGroupA({0, 1, 2, 3, 4});
    force.addReduction(Numbers::Min, "BETA=0.5");
    force.addReduction(Numbers::Mean);
    CoordinationNumberContext usesMin(force, positions);
    const Evaluation result = usesMin.evaluate();
    force.setEnergyFunction("mean");
    CoordinationNumberContext usesMean(force, positions);
    const Evaluation mean = usesMean.evaluate();
    EXPECT_NEAR(result.energy, mean.energy, 1e-12);
    for (size_t atom = 0; atom < positions.size(); atom++)
        for (int axis = 0; axis < 3; axis++)
            EXPECT_NEAR(result.forces[atom][axis], mean.forces[atom][axis], 1e-9 * (1 + std::fabs(mean.forces[atom][axis])));
    vector<double> values;
    usesMin.getForce().getCollectiveVariableValues(usesMin.getContext(), values);
    EXPECT_EQ(values[0], 0.0);
}

TEST(CoordinationNumbers, InvalidReductionsAreRefusedWithTheirName) {
    auto refused = [](Numbers force, const vector<string>& words) {
        expectOpenMMExceptionMentioning([&] { CoordinationNumberContext context(force, FourAtoms); }, words);
    };
    auto refusedReduction = [&](Numbers::ReductionType type, const string& parameters, const vector<string>& words) {
        Numbers force = smallForce();
        force.addReduction(type, parameters);
        refused(force, words);
    };
    refusedReduction(Numbers::Moment, "1", {"moment_1", "integer from 2"});
    refusedReduction(Numbers::Min, "BETA=0", {"min", "BETA"});
    refusedReduction(Numbers::Max, "", {"max", "BETA=b"});
    refusedReduction(Numbers::Between, "GAUSSIAN LOWER=2 UPPER=1", {"between", "LOWER", "UPPER"});
    refusedReduction(Numbers::MoreThan, "FOO R_0=1", {"morethan", "FOO"});
    refusedReduction(Numbers::LessThan, "RATIONAL R_0=-1", {"lessthan", "R_0"});
    refusedReduction(Numbers::Sum, "2", {"sum", "no parameters"});
    Numbers force = smallForce();
    force.addReduction(Numbers::Sum);
    force.addReduction(Numbers::Sum);
    refused(force, {"sum", "own name"});
    force = smallForce();
    force.addReduction(Numbers::Sum, "", "k");
    force.addGlobalParameter("k", 1.0);
    refused(force, {"\"k\"", "global parameter"});
    force = smallForce();
    force.addReduction(Numbers::Sum, "", "a-b");
    refused(force, {"a-b", "letters, digits and underscores"});
    force = smallForce("mean");
    force.addReduction(Numbers::Sum);
    refused(force, {"mean", "reduction's name", "addReduction"});
    force = smallForce();
    force.setRPower(-1);
    refused(force, {"R power", ">= 0"});
    force = smallForce();
    force.setMode(CoordinationForce::Pair);
    force.setGroupB({0, 1, 2, 3});
    refused(force, {"Pair mode", "SPECIES"});
    expectOpenMMExceptionMentioning([&] { force.addReduction((Numbers::ReductionType) 13); }, {"unknown reduction type"});
    expectOpenMMExceptionMentioning([&] { force.setReductionParameters(0, Numbers::Sum, "", ""); },
                                    {"index 0", "no reductions"});
}

TEST(CoordinationNumbers, UpdateParametersInContextChangesTheReductionsAsANewContextWould) {
    Numbers force = smallForce("morethan");
    force.addReduction(Numbers::MoreThan, "RATIONAL R_0=0.5");
    CoordinationNumberContext tested(force, FourAtoms);
    Numbers& inContext = tested.getForce();
    inContext.setReductionParameters(0, Numbers::MoreThan, "EXP R_0=0.2", "");
    inContext.setGroupA({0, 1, 2});
    inContext.updateParametersInContext(tested.getContext());
    Numbers changed = smallForce("morethan");
    changed.setGroupA({0, 1, 2});
    changed.addReduction(Numbers::MoreThan, "EXP R_0=0.2");
    CoordinationNumberContext fresh(changed, FourAtoms);
    const Evaluation updated = tested.evaluate(), expected = fresh.evaluate();
    expectRelativelyNear(updated.energy, expected.energy, Tolerance::Exact);
    expectForcesNear(updated.forces, expected.forces, Tolerance::Exact, Tolerance::ForceResolution * 4);
    inContext.addReduction(Numbers::Mean);
    expectOpenMMExceptionMentioning([&] { inContext.updateParametersInContext(tested.getContext()); },
                                    {"updateParametersInContext", "reductions"});
}

TEST(CoordinationNumbers, InsideACustomCVForceItsNumbersAreReadThroughTheOuterContext) {
    Numbers force = smallForce("morethan");
    force.addReduction(Numbers::MoreThan, "RATIONAL R_0=0.5");
    CoordinationNumberContext direct(force, FourAtoms);
    CollectiveVariableContext<Numbers> outer("2*q", "q", force, FourAtoms);
    OpenMM::Context& context = outer.getContext();
    Numbers* inner = &outer.getVariable();
    vector<double> numbers, expected;
    inner->getCoordinationNumbers(context, numbers);
    direct.getForce().getCoordinationNumbers(direct.getContext(), expected);
    ASSERT_EQ(numbers.size(), expected.size());
    // The inner context is a second context of the same positions; in single and mixed precision the GPU kernels
    // subtract OpenMM's cell offsets from its float positions, which can differ in the last digits between contexts.
    for (size_t i = 0; i < numbers.size(); i++)
        expectRelativelyNear(numbers[i], expected[i], Tolerance::Coordination, "c_" + std::to_string(i));
    expectRelativelyNear(context.getState(OpenMM::State::Energy).getPotentialEnergy(), 2 * direct.evaluate().energy,
                         Tolerance::Coordination);
}
