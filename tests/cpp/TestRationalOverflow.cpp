/*
 * The rational switching function at the extremes, where x^n and x^m overflow a double (x far above 1: a tiny r0,
 * large exponents, no cutoff): wherever sigma and its derivative are finite, every platform gives them. Each case
 * is checked against a long double brute force of its own; values below the precision's smallest normal number
 * count as 0.
 */

#include "CoordinationTestUtilities.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include <cfloat>

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

/** The smallest normal number of the precision under test. */
double smallestNormal() { return Tolerance::Double ? DBL_MIN : FLT_MIN; }

/** A value below the precision's smallest normal number counts as 0. */
double flushed(double value) { return std::fabs(value) < smallestNormal() ? 0.0 : value; }

/**
 * (1 - x^n) / (1 - x^m) and its x-derivative in long double: the brute force's wherever x^(2 max(n, m)) (its
 * derivative's squared denominator) is finite in long double; beyond, the limit x^(n - m), whose neglected terms
 * x^-n and x^-m are there far below its precision.
 */
SigmaAndSlope rationalOracle(long double x, int n, int m) {
    if (std::isfinite(std::pow(x, 2.0L * std::max(n, m))))
        return BruteForce::rational(x, n, m);
    const long double logX = std::log(x);
    if (!(std::min(n, m) * logX > 50.0L))
        throw std::runtime_error("rationalOracle: x^min(n, m) is not negligible against 1");
    return {std::exp((n - m) * logX), (n - m) * std::exp((n - m - 1) * logX)};
}

/** sigma(r) of rational settings (explicit dmax), PLUMED's cutoff and stretch included. */
SigmaAndSlope sigmaOracle(const SwitchingSettings& settings, long double r) {
    const long double dmax = settings.getDMax();
    if (r > dmax)
        return {0.0L, 0.0L};
    auto unstretched = [&](long double distance) -> SigmaAndSlope {
        if (distance <= settings.getD0())
            return {1.0L, 0.0L};
        const SigmaAndSlope inX = rationalOracle((distance - settings.getD0()) / settings.getR0(), settings.getN(),
                                                 BruteForce::effectiveM(settings));
        return {inX.value, inX.slope / settings.getR0()};
    };
    SigmaAndSlope result = unstretched(r);
    if (settings.getStretch() && std::isfinite(dmax)) {
        const long double atDMax = unstretched(dmax).value, range = 1.0L - atDMax;
        result = {(result.value - atDMax) / range, result.slope / range};
    }
    return result;
}

/** s and the forces (energy s) of Self mode over every atom, in long double. */
Evaluation overflowBruteForce(const SwitchingSettings& settings, const std::vector<Vec3>& positions, const Box& box) {
    long double s = 0.0L;
    std::vector<long double> gradient(3 * positions.size(), 0.0L);
    for (size_t i = 0; i < positions.size(); i++)
        for (size_t j = i + 1; j < positions.size(); j++) {
            const Vec3 delta = BruteForce::minimumImage(positions[j] - positions[i], box.cell);
            const long double r = std::sqrt((long double) delta[0] * delta[0] + (long double) delta[1] * delta[1] +
                                            (long double) delta[2] * delta[2]);
            const SigmaAndSlope term = sigmaOracle(settings, r);
            s += term.value;
            for (int axis = 0; axis < 3; axis++) {
                const long double component = term.slope * delta[axis] / r;
                gradient[3 * j + axis] += component;
                gradient[3 * i + axis] -= component;
            }
        }
    Evaluation result = {(double) s, (double) s, {}};
    for (size_t i = 0; i < positions.size(); i++)
        result.forces.push_back(-Vec3((double) gradient[3 * i], (double) gradient[3 * i + 1],
                                      (double) gradient[3 * i + 2]));
    return result;
}

/** One setting of the extremes: its switching settings, the path they take, and whether only double precision can hold it. */
struct OverflowCase {
    std::string name;
    SwitchingSettings settings;
    SwitchingPath path;
    bool periodic;
    bool doubleOnly; // r0 below what single and mixed precision accept (1/r0 > 1e30)
};

const std::vector<OverflowCase>& overflowCases() {
    using Path = SwitchingPath;
    static const std::vector<OverflowCase> cases = {
        // The two: sigma ~ x^-6 ~ 1e-175 with x ~ 1e29; n = 1500 inside a 1 nm cutoff, x^n overflowing.
        {"TinyR0NoCutoff", rationalSettings(1e-30, 6, 0, 0.0, Infinity, false), Path::Distance, false, true},
        {"N1500Cutoff", rationalSettings(0.05, 1500, 0, 0.0, 1.0), Path::SquaredDistance, false, false},
        {"N1500CutoffD0Periodic", rationalSettings(0.05, 1500, 0, 0.02, 1.0), Path::Distance, true, false},
        {"MillionNoCutoff", rationalSettings(0.25, 1000000, 0, 0.0, Infinity, false), Path::SquaredDistance, false,
         false},
        {"MillionNoCutoffD0", rationalSettings(0.2, 1000000, 0, 0.05, Infinity, false), Path::Distance, false, false},
        // m != 2n: x^m overflowing where sigma ~ x^(n-m) is a normal number (m > n), or x^n where it is x^2 (m < n;
        // forces a GPU's fixed-point buffer holds).
        {"N8M14TinyR0", rationalSettings(1e-30, 8, 14, 0.0, Infinity, false), Path::Distance, false, true},
        {"N200M198NoCutoffD0", rationalSettings(0.01, 200, 198, 0.001, Infinity, false), Path::Distance, false, false},
        {"N1500M2000CutoffPeriodic", rationalSettings(0.05, 1500, 2000, 0.0, 1.0), Path::SquaredDistance, true, false},
        // m != 2n with a pair at x = 1.2, inside single precision's band around 1 (where the GPU sums powers of x
        // instead of taking the ratio): x^600 = 1e47 overflows float there, sigma ~ x^-200 = 1e-16 does not.
        {"N400M600NearOne", rationalSettings(0.0931695, 400, 600, 0.0, Infinity, false), Path::SquaredDistance, false,
         false},
        {"N400M600NearOneD0", rationalSettings(0.0921695, 400, 600, 0.001, 0.5), Path::Distance, false, false},
    };
    return cases;
}

/**
 * The four atoms, and for m = 2n in double precision two more pairs near x = 1 (d0 + r0 apart, times
 * 1 + 1e-3 / n^(2/3) and 1 - 1e-6), where with large n sigma is steep: in single precision x^n there carries n times
 * the rounding of r, and for m != 2n PLUMED's second-order Taylor band is no approximation at large n.
 */
std::vector<Vec3> overflowPositions(const SwitchingSettings& settings) {
    std::vector<Vec3> positions;
    for (int i = 0; i < 4; i++)
        positions.push_back(Vec3(0.1 * i, 0.05 * i * i, 0));
    if (Tolerance::Double && settings.getR0() > 1e-3 && BruteForce::effectiveM(settings) == 2 * settings.getN()) {
        const double atOne = settings.getD0() + settings.getR0();
        positions.push_back(Vec3(0.2, 1.1, 0.5));
        positions.push_back(positions.back() + Vec3(atOne * (1.0 + 1e-3 / std::pow(settings.getN(), 2.0 / 3.0)), 0, 0));
        positions.push_back(Vec3(1.3, 0.3, 1.4));
        positions.push_back(positions.back() + Vec3(0, atOne * (1.0 - 1e-6), 0));
    }
    return positions;
}

/**
 * The platform's s and forces against the brute force: finite; s within the precision's tolerance of it (relative
 * in double, relative to max(|s|, 1) in single and mixed), each force component within it relative to the largest
 * expected one, both after values below the smallest normal number are taken as 0. GPU platforms sum s with a
 * cutoff, and forces always, in fixed point: their resolution is the floor there.
 */
void expectMatchesOverflowOracle(const Evaluation& actual, const Evaluation& expected, bool gpu, bool cutoff) {
    const double tolerance = Tolerance::Coordination;
    const double expectedS = flushed(expected.s);
    const double sScale = (Tolerance::Double ? std::fabs(expectedS) : std::max(std::fabs(expectedS), 1.0));
    const double sFloor = (gpu && cutoff ? 1e-15 : 0.0);
    EXPECT_TRUE(std::isfinite(actual.s)) << "s = " << actual.s;
    EXPECT_LE(std::fabs(flushed(actual.s) - expectedS), tolerance * sScale + sFloor)
        << "s = " << actual.s << ", expected " << expected.s;
    double largest = 0.0;
    for (const Vec3& force : expected.forces)
        for (int axis = 0; axis < 3; axis++)
            largest = std::max(largest, std::fabs(flushed(force[axis])));
    const double forceTolerance = tolerance * largest + Tolerance::ForceResolution;
    int reported = 0;
    for (size_t i = 0; i < actual.forces.size(); i++)
        for (int axis = 0; axis < 3; axis++) {
            const double value = actual.forces[i][axis], wanted = flushed(expected.forces[i][axis]);
            const bool ok = std::isfinite(value) && std::fabs(flushed(value) - wanted) <= forceTolerance;
            if (!ok && reported++ < 5)
                ADD_FAILURE() << "force on particle " << i << " axis " << axis << ": " << value << " expected "
                              << expected.forces[i][axis] << " (tolerance " << forceTolerance << ")";
        }
}

} // namespace

TEST(RationalOverflow, CasesTakeTheirPaths) {
    // The cases cover both paths of the CPU and GPU kernels (d0 = 0 with n and m even and r0 not tiny: SquaredDistance).
    for (const OverflowCase& entry : overflowCases()) {
        SCOPED_TRACE(entry.name);
        EXPECT_EQ((int)resolvedSwitching(entry.settings).path, (int)entry.path);
    }
}

TEST(RationalOverflow, EnergyAndForcesMatchTheBruteForce) {
    const bool gpu = testPlatform().isGpu();
    for (const OverflowCase& entry : overflowCases()) {
        if (entry.doubleOnly && !Tolerance::Double)
            continue;
        SCOPED_TRACE(entry.name + " " + describe(entry.settings));
        const std::vector<Vec3> positions = overflowPositions(entry.settings);
        const std::vector<int> group = indices(positions.size());
        const Box box = (entry.periodic ? Box::rectangular() : Box::none());
        const CoordinationForce force =
            makeForce(entry.settings, CoordinationForce::Self, group, {}, "s", entry.periodic);
        CoordinationContext context(force, positions, box);
        const Evaluation expected = overflowBruteForce(entry.settings, positions, box);
        expectMatchesOverflowOracle(context.evaluate(), expected, gpu, std::isfinite(entry.settings.getDMax()));
    }
}

TEST(RationalOverflow, TinyR0GivesSigmaOfOrderXToTheMinusN) {
    // The first case, by its numbers: s = 5.46e-175 (sigma ~ x^-6), not a ratio of overflowed powers.
    if (!Tolerance::Double)
        GTEST_SKIP() << "r0 = 1e-30 nm needs double precision";
    const OverflowCase& entry = overflowCases()[0];
    std::vector<Vec3> positions;
    for (int i = 0; i < 4; i++)
        positions.push_back(Vec3(0.1 * i, 0.05 * i * i, 0));
    CoordinationContext context(makeForce(entry.settings, CoordinationForce::Self, {0, 1, 2, 3}), positions);
    const Evaluation actual = context.evaluate();
    EXPECT_NEAR(actual.s / 5.46e-175, 1.0, 1e-3) << "s = " << actual.s;
}

TEST(RationalOverflow, TheDirectFormAloneServesExactlyTheSettingsWhoseCutoffBoundsThePowers) {
    auto suffices = [](double r0, int n, int m, double d0, double dmax) {
        return resolvedSwitching(rationalSettings(r0, n, m, d0, dmax)).directPowersSuffice;
    };
    EXPECT_TRUE(suffices(0.3, 6, 0, 0.0, 0.0));       // PLUMED's automatic cutoff: x^12 = 1e10 there
    EXPECT_TRUE(suffices(0.25, 6, 0, 0.0, 1.0));      // x = 4: 4^12 = 1.7e7
    EXPECT_TRUE(suffices(0.25, 8, 14, 0.1, 1.0));     // x = 3.6: 3.6^14 = 6e7
    EXPECT_FALSE(suffices(0.25, 6, 0, 0.0, Infinity)); // no cutoff: x is unbounded
    EXPECT_FALSE(suffices(0.05, 1500, 0, 0.0, 1.0));   // x = 20: 20^3000 overflows
    EXPECT_FALSE(suffices(1e-30, 6, 0, 0.0, 1.0));     // x = 1e30
    EXPECT_TRUE(suffices(0.1, 10, 0, 0.0, 3.0));       // x = 30: 30^20 = 3.5e29, just below 1e30
    EXPECT_FALSE(suffices(0.1, 10, 0, 0.0, 3.5));      // 35^20 = 7.6e30
}
