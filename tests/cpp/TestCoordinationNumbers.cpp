/*
 * CoordinationNumberForce (PLUMED's COORDINATIONNUMBER and COORDINATION_MOMENTS with their reductions) against an
 * independent long-double brute force written here from PLUMED's definitions, against PLUMED's own printed
 * numbers (tests/data/plumed/symfunc-*), and, on the other platforms, against the Reference platform.
 */

#include "CoordinationNumberForce.h"
#include "CoordinationTestUtilities.h"
#include "openmm/CustomCVForce.h"
#include <fstream>
#include <sstream>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;
using std::string;
using std::vector;
typedef CoordinationNumberForce Numbers;

namespace {

const PlatformCase ReferenceCase = {"Reference", ""};

/** A reduction as the force takes it, with what the brute force needs to evaluate it independently. */
struct OracleReduction {
    Numbers::ReductionType type;
    string parameters, name;
    SwitchingSettings valueSwitch; ///< MoreThan, LessThan: the switching function of c
    double lower = 0, upper = 0, smear = 0.5, beta = 0;
    bool triangular = false;
    int power = 0;
};

SwitchingSettings valueSettings(CoordinationForce::SwitchingFunction type, double r0, double d0, double dmax) {
    SwitchingSettings settings = typedSettings(type, r0, d0, dmax);
    return settings;
}

/** Every reduction type, with parameters that keep every value and slope finite for the systems below. */
vector<OracleReduction> everyReduction() {
    vector<OracleReduction> reductions;
    OracleReduction r;
    r = OracleReduction();
    r.type = Numbers::Sum;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Mean;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::MoreThan;
    r.parameters = "RATIONAL R_0=0.6 NN=6 MM=12";
    r.valueSwitch = rationalSettings(0.6, 6, 12, 0.0, Infinity);
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::LessThan;
    r.parameters = "EXP R_0=0.4";
    r.name = "lessthan_1";
    r.valueSwitch = valueSettings(CoordinationForce::Exponential, 0.4, 0.0, Infinity);
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::LessThan;
    r.parameters = "GAUSSIAN R_0=0.3 D_0=0.1 D_MAX=2";
    r.name = "lessthan_2";
    r.valueSwitch = valueSettings(CoordinationForce::Gaussian, 0.3, 0.1, 2.0);
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::MoreThan;
    r.parameters = "RATIONAL R_0=0.5 NN=4 MM=6 D_MAX=3 NOSTRETCH";
    r.name = "morethan_1";
    r.valueSwitch = rationalSettings(0.5, 4, 6, 0.0, 3.0);
    r.valueSwitch.stretch = false;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Between;
    r.parameters = "GAUSSIAN LOWER=0.2 UPPER=0.9 SMEAR=0.5";
    r.lower = 0.2;
    r.upper = 0.9;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Between;
    r.parameters = "TRIANGULAR LOWER=0.3 UPPER=1.1 SMEAR=0.4";
    r.name = "between_1";
    r.lower = 0.3;
    r.upper = 1.1;
    r.smear = 0.4;
    r.triangular = true;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Min;
    r.parameters = "BETA=0.05";
    r.beta = 0.05;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Max;
    r.parameters = "BETA=0.2";
    r.beta = 0.2;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::AltMin;
    r.parameters = "BETA=5";
    r.beta = 5;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Highest;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Lowest;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Moment;
    r.parameters = "2";
    r.power = 2;
    reductions.push_back(r);
    r = OracleReduction();
    r.type = Numbers::Moment;
    r.parameters = " 3 ";
    r.power = 3;
    reductions.push_back(r);
    return reductions;
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

/** c_i from the definition: sigma(r) r^p over the pairs, none closer than DBL_EPSILON in r^2 or below DBL_EPSILON in sigma. */
vector<long double> bruteForceNumbers(const PairSetup& setup, const vector<Vec3>& positions) {
    const bool self = (setup.mode == CoordinationForce::Self);
    const vector<int>& groupB = (self ? setup.groupA : setup.groupB);
    vector<long double> c(setup.groupA.size(), 0.0L);
    for (size_t k = 0; k < setup.groupA.size(); k++)
        for (size_t l = 0; l < groupB.size(); l++) {
            if (self && l == k)
                continue;
            const Vec3 delta = BruteForce::minimumImage(positions[groupB[l]] - positions[setup.groupA[k]], setup.cell);
            const long double r2 = (long double) delta[0] * delta[0] + (long double) delta[1] * delta[1] +
                                   (long double) delta[2] * delta[2];
            if (r2 < DBL_EPSILON)
                continue;
            const long double r = std::sqrt(r2);
            const long double value = BruteForce::sigma(setup.settings, r).value;
            if (value < DBL_EPSILON)
                continue;
            c[k] += value * std::pow(r, (long double) setup.power);
        }
    return c;
}

/** The energy of the tests: a distinct coefficient per reduction (a swapped weight shows), and one nonlinear term. */
string energyOf(const vector<OracleReduction>& reductions, vector<double>& coefficients) {
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
    const double step = 1e-6;
    vector<Vec3> forces(positions.size()), displaced = positions;
    for (size_t i = 0; i < positions.size(); i++)
        for (int axis = 0; axis < 3; axis++) {
            displaced[i][axis] = positions[i][axis] + step;
            const long double forward = bruteForceEnergy(setup, reductions, coefficients, displaced);
            displaced[i][axis] = positions[i][axis] - step;
            const long double backward = bruteForceEnergy(setup, reductions, coefficients, displaced);
            displaced[i][axis] = positions[i][axis];
            forces[i][axis] = (double) (-(forward - backward) / (2 * (long double) step));
        }
    return forces;
}

Numbers makeNumbers(const PairSetup& setup, const vector<OracleReduction>& reductions, const string& energy, bool periodic) {
    CoordinationForce pair = makeForce(setup.settings, setup.mode, setup.groupA, setup.groupB, "s", periodic);
    Numbers force(energy);
    static_cast<CoordinationForce&>(force) = pair;
    force.setEnergyFunction(energy);
    force.setRPower(setup.power);
    for (const OracleReduction& reduction : reductions)
        force.addReduction(reduction.type, reduction.parameters, reduction.name);
    force.addGlobalParameter("k", K);
    return force;
}

/** Positions rounded to float (single and mixed precision store them so), no two atoms closer than 0.12 nm. */
vector<Vec3> spacedPositions(int count, const Vec3& extent, unsigned seed) {
    UniformRandom random(seed);
    vector<Vec3> positions;
    while ((int) positions.size() < count) {
        Vec3 candidate((float) (random() * extent[0]), (float) (random() * extent[1]), (float) (random() * extent[2]));
        bool tooClose = false;
        for (const Vec3& other : positions)
            tooClose = tooClose || (candidate - other).dot(candidate - other) < 0.12 * 0.12;
        if (!tooClose)
            positions.push_back(candidate);
    }
    return positions;
}

Box floatBox(Box box) {
    for (Vec3* v : {&box.cell.a, &box.cell.b, &box.cell.c})
        *v = Vec3((float) (*v)[0], (float) (*v)[1], (float) (*v)[2]);
    return box;
}

/** The pair settings the matrix rotates through (each keeps every atom's c_i away from 0, for MIN). */
vector<SwitchingSettings> pairSettings() {
    SwitchingSettings custom = typedSettings(CoordinationForce::Custom, 0.35, 0.0, 1.3, true);
    custom.custom = "1/(1+x^6)";
    SwitchingSettings smap = typedSettings(CoordinationForce::Smap, 0.4, 0.05, 1.4, false);
    smap.smapA = 6;
    smap.smapB = 2;
    return {rationalSettings(0.35, 6, 0, 0.0, 0.0), rationalSettings(0.3, 8, 14, 0.05, 1.2),
            typedSettings(CoordinationForce::Exponential, 0.2, 0.0, Infinity, true), custom, smap,
            typedSettings(CoordinationForce::Gaussian, 0.3, 0.1, 1.5, true)};
}

class CoordinationNumbersMatrix : public ::testing::TestWithParam<std::tuple<CoordinationForce::Mode, string>> {};

} // namespace

TEST_P(CoordinationNumbersMatrix, NumbersReductionsEnergyAndForcesMatchTheBruteForce) {
    const CoordinationForce::Mode mode = std::get<0>(GetParam());
    const Box box = floatBox(boxNamed(std::get<1>(GetParam())));
    const int instance = matrixInstance(mode, box.name);
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
    SCOPED_TRACE(setup.settings.describe() + " r power " + std::to_string(setup.power));
    const vector<OracleReduction> reductions = everyReduction();
    vector<double> coefficients;
    const Numbers force = makeNumbers(setup, reductions, energyOf(reductions, coefficients), box.periodic());
    CoordinationContext tested(force, positions, box);

    const vector<long double> expectedNumbers = bruteForceNumbers(setup, positions);
    vector<double> numbers;
    static_cast<const Numbers&>(tested.getForce()).getCoordinationNumbers(tested.getContext(), numbers);
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
        CoordinationContext reference(force, positions, box, ReferenceCase);
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
                         ::testing::Combine(::testing::Values(CoordinationForce::Self, CoordinationForce::Dual),
                                            ::testing::Values("NoPBC", "Rectangular", "Triclinic")),
                         [](const ::testing::TestParamInfo<CoordinationNumbersMatrix::ParamType>& info) {
                             return modeName(std::get<0>(info.param)) + std::get<1>(info.param);
                         });

TEST(CoordinationNumbers, ForcesAreMinusTheGradientOfTheEnergy) {
    if (!Tolerance::Double)
        GTEST_SKIP() << "finite differences of the energy need double precision";
    PairSetup setup;
    setup.settings = rationalSettings(0.3, 6, 10, 0.0, 1.1);
    setup.mode = CoordinationForce::Self;
    setup.power = 1.0;
    for (int atom = 0; atom < 20; atom++)
        setup.groupA.push_back(atom);
    const vector<Vec3> positions = spacedPositions(20, Vec3(1.5, 1.5, 1.5), 7);
    const vector<OracleReduction> reductions = everyReduction();
    vector<double> coefficients;
    CoordinationContext tested(makeNumbers(setup, reductions, energyOf(reductions, coefficients), false), positions);
    expectForcesNear(tested.evaluate().forces, finiteDifferenceForces(tested, positions),
                     Tolerance::FiniteDifferenceRelativeToRms);
}

namespace {

/** Frame `frame` of a PLUMED .xyz trajectory of tests/data/plumed/trajectories (orthorhombic box line). */
vector<Vec3> readFrame(const string& name, int frame, double& edge) {
    std::ifstream in(string(COORDINATION_TEST_DATA) + "/plumed/trajectories/" + name);
    vector<Vec3> positions;
    for (int f = 0; f <= frame; f++) {
        int count;
        in >> count >> edge;
        string rest;
        std::getline(in, rest);
        positions.assign(count, Vec3());
        for (int i = 0; i < count; i++) {
            string atomName;
            in >> atomName >> positions[i][0] >> positions[i][1] >> positions[i][2];
        }
    }
    EXPECT_TRUE((bool) in) << name;
    return positions;
}

/** The numbers of row `frame` (after the #! FIELDS line) of a PLUMED PRINT file, time first. */
vector<double> readColvarRow(const string& path, int frame) {
    std::ifstream in(string(COORDINATION_TEST_DATA) + "/plumed/" + path);
    string line;
    std::getline(in, line);
    for (int f = 0; f <= frame; f++)
        std::getline(in, line);
    std::istringstream row(line);
    vector<double> values;
    double value;
    while (row >> value)
        values.push_back(value);
    EXPECT_GT(values.size(), 1u) << path;
    return vector<double>(values.begin() + 1, values.end());
}

/** A System of the trajectory's 108 atoms in its periodic box with the given forces, on the platform under test. */
struct PlumedSystem {
    OpenMM::System system;
    OpenMM::VerletIntegrator integrator{0.001};
    std::unique_ptr<OpenMM::Context> context;
    PlumedSystem(const vector<Numbers*>& forces, double edge) {
        for (int i = 0; i < 108; i++)
            system.addParticle(1.0);
        system.setDefaultPeriodicBoxVectors(Vec3(edge, 0, 0), Vec3(0, edge, 0), Vec3(0, 0, edge));
        for (size_t i = 0; i < forces.size(); i++) {
            forces[i]->setForceGroup(i);
            system.addForce(forces[i]);
        }
        context.reset(new OpenMM::Context(system, integrator, OpenMM::Platform::getPlatformByName(testPlatform().platform),
                                          testPlatform().properties()));
    }
};

vector<int> atoms(int first, int last) {
    vector<int> result;
    for (int atom = first - 1; atom < last; atom++)
        result.push_back(atom);
    return result;
}

/** The printed precision of a PLUMED value (FMT), or the platform's tolerance if that is coarser. */
double printed(double decimals) {
    return 0.5 * std::pow(10.0, -decimals) + (Tolerance::Double ? 0.0 : 2e-5);
}

} // namespace

TEST(PlumedSymfuncRegtests, MoreThanOfCoordinationNumbersAndTheForcesOfItsRestraint) {
    // symfunc-rt20: c2: COORDINATIONNUMBER SPECIES=1-5 SWITCH={RATIONAL R_0=0.5} MORE_THAN={EXP R_0=4.0}, and
    // RESTRAINT ARG=c2_morethan AT=0.1 KAPPA=10 (forces.reference: the forces of that bias alone).
    for (int frame = 0; frame < 5; frame++) {
        double edge;
        const vector<Vec3> positions = readFrame("trajectory.xyz", frame, edge);
        auto* force = new Numbers("0.5*10*(c2_morethan-0.1)^2");
        force->setGroupA(atoms(1, 5));
        force->setR0(0.5);
        force->setDMax(Infinity);
        force->setUsesPeriodicBoundaryConditions(true);
        force->addReduction(Numbers::MoreThan, "EXP R_0=4.0", "c2_morethan");
        PlumedSystem plumed({force}, edge);
        plumed.context->setPositions(positions);
        vector<double> values;
        force->getCollectiveVariableValues(*plumed.context, values);
        EXPECT_NEAR(values[0], readColvarRow("symfunc-rt20/colv2.reference", frame)[0], printed(4)) << "frame " << frame;
        // forces.reference: per frame the atom count, the virial line, then "X fx fy fz" for the 108 atoms.
        std::ifstream in(string(COORDINATION_TEST_DATA) + "/plumed/symfunc-rt20/forces.reference");
        string line;
        for (int skip = 0; skip < frame * 110 + 2; skip++)
            std::getline(in, line);
        const vector<Vec3> forces = plumed.context->getState(OpenMM::State::Forces).getForces();
        for (int atom = 0; atom < 108; atom++) {
            std::getline(in, line);
            std::istringstream row(line);
            string name;
            Vec3 expected;
            row >> name >> expected[0] >> expected[1] >> expected[2];
            for (int axis = 0; axis < 3; axis++)
                EXPECT_NEAR(forces[atom][axis], expected[axis], printed(4)) << "frame " << frame << " atom " << atom + 1;
        }
    }
}

TEST(PlumedSymfuncRegtests, PerAtomNumbersOfSpeciesAWithSpeciesB) {
    // symfunc-rt-single-groupb: c1: COORDINATIONNUMBER SPECIESA=1-5 SPECIESB=6 SWITCH={RATIONAL R_0=1.0}.
    for (int frame = 0; frame < 5; frame++) {
        double edge;
        const vector<Vec3> positions = readFrame("trajectory.xyz", frame, edge);
        auto* force = new Numbers();
        force->setMode(CoordinationForce::Dual);
        force->setGroupA(atoms(1, 5));
        force->setGroupB(atoms(6, 6));
        force->setR0(1.0);
        force->setDMax(Infinity);
        force->setUsesPeriodicBoundaryConditions(true);
        PlumedSystem plumed({force}, edge);
        plumed.context->setPositions(positions);
        vector<double> numbers;
        force->getCoordinationNumbers(*plumed.context, numbers);
        const vector<double> expected = readColvarRow("symfunc-rt-single-groupb/colvar.reference", frame);
        ASSERT_EQ(numbers.size(), expected.size());
        for (size_t i = 0; i < numbers.size(); i++)
            EXPECT_NEAR(numbers[i], expected[i], printed(4)) << "frame " << frame << " c1." << i + 1;
    }
}

TEST(PlumedSymfuncRegtests, MeansOfCoordinationNumbersAndOfTheirDistanceMoments) {
    // symfunc-rt-coordination-powers-multi: MEAN of COORDINATIONNUMBER and of COORDINATION_MOMENTS R_POWER=1 and 2,
    // SPECIES=1-10 SWITCH={RATIONAL R_0=1.0 D_MAX=8}.
    for (int frame = 0; frame < 5; frame++) {
        double edge;
        const vector<Vec3> positions = readFrame("trajectory.xyz", frame, edge);
        vector<Numbers*> forces;
        for (int power = 0; power < 3; power++) {
            auto* force = new Numbers();
            force->setGroupA(atoms(1, 10));
            force->setR0(1.0);
            force->setDMax(8.0);
            force->setRPower(power);
            force->setUsesPeriodicBoundaryConditions(true);
            force->addReduction(Numbers::Mean);
            forces.push_back(force);
        }
        PlumedSystem plumed(forces, edge);
        plumed.context->setPositions(positions);
        const vector<double> expected = readColvarRow("symfunc-rt-coordination-powers-multi/cn_out.reference", frame);
        for (int power = 0; power < 3; power++) {
            vector<double> values;
            forces[power]->getCollectiveVariableValues(*plumed.context, values);
            EXPECT_NEAR(values[0], expected[power], printed(6)) << "frame " << frame << " cn" << power << "_mean";
        }
    }
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
    CoordinationContext tested(force, positions);
    vector<double> numbers;
    static_cast<const Numbers&>(tested.getForce()).getCoordinationNumbers(tested.getContext(), numbers);
    EXPECT_NEAR(numbers[0], numbers[3], Tolerance::Exact);
    Numbers three = smallForce();
    three.setGroupA({0, 1, 2});
    CoordinationContext threeAtoms(three, {positions[0], positions[1], positions[2]});
    vector<double> expected;
    static_cast<const Numbers&>(threeAtoms.getForce()).getCoordinationNumbers(threeAtoms.getContext(), expected);
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
    CoordinationContext tested(force, {Vec3(0, 0, 0), Vec3(1, 0, 0)});
    vector<double> numbers;
    static_cast<const Numbers&>(tested.getForce()).getCoordinationNumbers(tested.getContext(), numbers);
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
    CoordinationContext tested(force, FourAtoms);
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
    CoordinationContext tested(force, positions);
    const Evaluation result = tested.evaluate();
    EXPECT_TRUE(std::isnan(result.energy));
    expectAllForcesZero(result.forces);
    vector<double> numbers;
    static_cast<const Numbers&>(tested.getForce()).getCoordinationNumbers(tested.getContext(), numbers);
    for (double value : numbers)
        EXPECT_TRUE(std::isnan(value));
    vector<double> values;
    tested.getForce().getCollectiveVariableValues(tested.getContext(), values);
    EXPECT_TRUE(std::isnan(values[0]));
}

TEST(CoordinationNumbers, MinWithAnIsolatedAtomHasNoFiniteForce) {
    // MIN = b / log(sum exp(b / c_i)) has no finite slope at c_i = 0: NaN energy and no force where the energy uses
    // it; an energy without it is unaffected.
    vector<Vec3> positions = FourAtoms;
    positions.push_back(Vec3(5, 5, 5)); // beyond the cutoff of every other atom
    Numbers force = smallForce("min");
    force.setGroupA({0, 1, 2, 3, 4});
    force.addReduction(Numbers::Min, "BETA=0.5");
    force.addReduction(Numbers::Mean);
    CoordinationContext usesMin(force, positions);
    const Evaluation result = usesMin.evaluate();
    EXPECT_TRUE(std::isnan(result.energy));
    expectAllForcesZero(result.forces);
    force.setEnergyFunction("mean");
    CoordinationContext usesMean(force, positions);
    EXPECT_TRUE(std::isfinite(usesMean.evaluate().energy));
}

TEST(CoordinationNumbers, InvalidReductionsAreRefusedWithTheirName) {
    auto refused = [](Numbers force, const vector<string>& words) {
        expectOpenMMExceptionMentioning([&] { CoordinationContext context(force, FourAtoms); }, words);
    };
    Numbers force = smallForce();
    force.addReduction(Numbers::Moment, "1");
    refused(force, {"moment_1", "integer from 2"});
    force = smallForce();
    force.addReduction(Numbers::Min, "BETA=0");
    refused(force, {"min", "BETA"});
    force = smallForce();
    force.addReduction(Numbers::Max, "");
    refused(force, {"max", "BETA=b"});
    force = smallForce();
    force.addReduction(Numbers::Between, "GAUSSIAN LOWER=2 UPPER=1");
    refused(force, {"between", "LOWER", "UPPER"});
    force = smallForce();
    force.addReduction(Numbers::MoreThan, "FOO R_0=1");
    refused(force, {"morethan", "FOO"});
    force = smallForce();
    force.addReduction(Numbers::LessThan, "RATIONAL R_0=-1");
    refused(force, {"lessthan", "R_0"});
    force = smallForce();
    force.addReduction(Numbers::Sum, "2");
    refused(force, {"sum", "no parameters"});
    force = smallForce();
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
    expectOpenMMExceptionMentioning([&] { force.addReduction((Numbers::ReductionType) 11); }, {"unknown reduction type"});
    expectOpenMMExceptionMentioning([&] { force.setReductionParameters(0, Numbers::Sum, "", ""); }, {"index 0", "no reductions"});
    expectOpenMMExceptionMentioning([&] { CoordinationContext context(smallForce(), FourAtoms); context.getForce().getCoordination(context.getContext()); },
                                    {"getCollectiveVariableValues", "getCoordinationNumbers"});
}

TEST(CoordinationNumbers, UpdateParametersInContextChangesTheReductionsAsANewContextWould) {
    Numbers force = smallForce("morethan");
    force.addReduction(Numbers::MoreThan, "RATIONAL R_0=0.5");
    CoordinationContext tested(force, FourAtoms);
    Numbers& inContext = static_cast<Numbers&>(tested.getForce());
    inContext.setReductionParameters(0, Numbers::MoreThan, "EXP R_0=0.2", "");
    inContext.setGroupA({0, 1, 2});
    inContext.updateParametersInContext(tested.getContext());
    Numbers changed = smallForce("morethan");
    changed.setGroupA({0, 1, 2});
    changed.addReduction(Numbers::MoreThan, "EXP R_0=0.2");
    CoordinationContext fresh(changed, FourAtoms);
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
    CoordinationContext direct(force, FourAtoms);
    OpenMM::System system;
    for (int i = 0; i < 4; i++)
        system.addParticle(1.0);
    auto* customCV = new OpenMM::CustomCVForce("2*q");
    auto* inner = new Numbers(force);
    customCV->addCollectiveVariable("q", inner);
    system.addForce(customCV);
    OpenMM::VerletIntegrator integrator(0.001);
    OpenMM::Context context(system, integrator, OpenMM::Platform::getPlatformByName(testPlatform().platform),
                            testPlatform().properties());
    context.setPositions(FourAtoms);
    vector<double> numbers, expected;
    inner->getCoordinationNumbers(context, numbers);
    static_cast<const Numbers&>(direct.getForce()).getCoordinationNumbers(direct.getContext(), expected);
    ASSERT_EQ(numbers.size(), expected.size());
    // The inner context is a second context of the same positions; in single and mixed precision the GPU kernels
    // subtract OpenMM's cell offsets from its float positions, which can differ in the last digits between contexts.
    for (size_t i = 0; i < numbers.size(); i++)
        expectRelativelyNear(numbers[i], expected[i], Tolerance::Coordination, "c_" + std::to_string(i));
    expectRelativelyNear(context.getState(OpenMM::State::Energy).getPotentialEnergy(), 2 * direct.evaluate().energy,
                         Tolerance::Coordination);
}
