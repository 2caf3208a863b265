/*
 * The switching path (SwitchingFunctionConstants::path), decided once when a force is resolved: the rule that
 * decides it, the SquaredDistance form against the brute force, and the CPU and GPU kernels following it.
 */

#include "CoordinationTestUtilities.h"
#include "internal/CoordinationForceImpl.h"
#include "internal/SwitchingFunctionEvaluator.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

SwitchingSettings rational(int n, int m, double d0 = 0.0, double r0 = 0.25) {
    return rationalSettings(r0, n, m, d0, 0.0);
}

SwitchingSettings customOf(const std::string& expression) {
    SwitchingSettings settings;
    settings.type = CoordinationForce::Custom;
    settings.custom = expression;
    settings.r0 = 0.25;
    settings.dmax = 1.0;
    return settings;
}

/** Settings with the path the rule gives them: SquaredDistance for the Rational type with d0 = 0, n and m even
 *  and 1/r0^2 within single precision's range, and for a Custom function of x2; Distance otherwise. */
const std::vector<std::pair<SwitchingSettings, SwitchingPath>>& pathCases() {
    static const std::vector<std::pair<SwitchingSettings, SwitchingPath>> cases = {
        {rational(6, 0), SwitchingPath::SquaredDistance},
        {rational(6, 10), SwitchingPath::SquaredDistance},
        {rational(14, 0), SwitchingPath::SquaredDistance},
        {rational(8, 12), SwitchingPath::SquaredDistance},
        {rational(5, 11), SwitchingPath::Distance},
        {rational(6, 9), SwitchingPath::Distance},
        {rational(6, 0, 0.1), SwitchingPath::Distance},
        {rational(6, 0, 0.0, 1e-16), SwitchingPath::Distance},
        {customOf("1/(1+x2^3)"), SwitchingPath::SquaredDistance},
        {customOf("1/(1+x^6)"), SwitchingPath::Distance},
    };
    return cases;
}

/** A CoordinationForce that can ask a Context which path its platform's kernel takes. */
class PathProbe : public CoordinationForce {
public:
    explicit PathProbe(const CoordinationForce& force) : CoordinationForce(force) {}
    SwitchingPath kernelPath(OpenMM::Context& context) {
        return dynamic_cast<CoordinationForceImpl&>(getImplInContext(context)).getKernel().getSwitchingPath();
    }
};

/** The path a platform's kernel takes for a force, after one evaluation. */
SwitchingPath kernelPathOn(const CoordinationForce& force, const PlatformCase& platform) {
    OpenMM::System system;
    const std::vector<Vec3> positions = {{0, 0, 0}, {0.2, 0, 0}, {0, 0.26, 0}, {0.3, 0.3, 0.1}};
    for (size_t i = 0; i < positions.size(); i++)
        system.addParticle(1.0);
    auto* probe = new PathProbe(force);
    system.addForce(probe);
    OpenMM::VerletIntegrator integrator(0.001);
    OpenMM::Context context(system, integrator, OpenMM::Platform::getPlatformByName(platform.platform),
                            platform.properties());
    context.setPositions(positions);
    context.getState(OpenMM::State::Forces);
    return probe->kernelPath(context);
}

/** A System of four particles, as the forces' groups need. */
OpenMM::System fourParticles() {
    OpenMM::System system;
    for (int i = 0; i < 4; i++)
        system.addParticle(1.0);
    return system;
}

std::string pathName(SwitchingPath path) {
    return path == SwitchingPath::SquaredDistance ? "SquaredDistance" : "Distance";
}

} // namespace

TEST(SwitchingPath, IsSquaredDistanceForEvenRationalWithoutD0AndForFunctionsOfX2) {
    for (const auto& entry : pathCases()) {
        SCOPED_TRACE(entry.first.describe());
        const CoordinationForce force = makeForce(entry.first, CoordinationForce::Self, {0, 1, 2, 3});
        EXPECT_EQ(pathName(CoordinationForceImpl::resolve(force, fourParticles()).switching.path), pathName(entry.second));
    }
}

TEST(SwitchingPath, SquaredDistanceFormMatchesTheBruteForceOnAGrid) {
    // evaluateSquared (the CPU platform's SquaredDistance path) at r = 0 to 1.2 dmax, including x = 1 and the
    // edges of the band around it where m != 2n falls back to r, against the long double definition.
    std::vector<SwitchingSettings> cases;
    for (const auto& entry : pathCases())
        if (entry.second == SwitchingPath::SquaredDistance)
            for (double dmax : {0.0, 1.0, Infinity})
                for (bool stretch : {true, false}) {
                    SwitchingSettings settings = entry.first;
                    if (settings.type == CoordinationForce::Custom && dmax == 0.0)
                        continue;
                    settings.dmax = dmax;
                    settings.stretch = stretch;
                    cases.push_back(settings);
                }
    for (const SwitchingSettings& settings : cases) {
        SCOPED_TRACE(settings.describe());
        const double dmax = (double) BruteForce::effectiveDMax(settings);
        // Both sides cut at the same double, so that r = dmax is inside for both.
        SwitchingSettings resolved = settings;
        resolved.dmax = dmax;
        const SwitchingFunctionEvaluator sigma(
            SwitchingFunctionConstants::resolve(makeForce(resolved, CoordinationForce::Self, {0, 1})));
        const double r0 = settings.r0, top = (std::isfinite(dmax) ? 1.2 * dmax : 4.0);
        std::vector<double> grid = {0.0, r0, dmax};
        for (double offset : {1e-7, 5e-6, 1.4e-5, 1.6e-5, 1e-4, 0.1})
            for (double sign : {-1.0, 1.0})
                grid.push_back(r0 * (1.0 + sign * offset));
        for (int i = 0; i <= 1000; i++)
            grid.push_back(top * i / 1000.0);
        int failures = 0;
        for (double r : grid) {
            if (!std::isfinite(r))
                continue;
            const SigmaAndSlope expected = BruteForce::sigma(resolved, r);
            double scale;
            const double value = sigma.evaluateSquared(r * r, scale);
            const double slope = scale * r;
            const bool nearOne = (settings.type == CoordinationForce::Rational &&
                                  std::fabs(r / r0 - 1.0) < Tolerance::NearOneBandEnd);
            const double slopeTolerance = (nearOne ? Tolerance::NearOneSlopeRelative : Tolerance::Coordination);
            const bool ok = std::fabs(value - (double) expected.value) <= Tolerance::Coordination &&
                            std::fabs(slope - (double) expected.slope) <=
                                slopeTolerance * std::max(1.0, std::fabs((double) expected.slope));
            if (!ok && failures++ < 5)
                ADD_FAILURE() << "r = " << r << ": sigma " << value << " expected " << (double) expected.value
                              << ", slope " << slope << " expected " << (double) expected.slope;
        }
    }
}

TEST(SwitchingPath, TheCpuAndGpuKernelsTakeTheResolvedPath) {
    // The CPU kernel for every case; the platform under test too when it is a GPU (its program's defines);
    // the Reference platform, the oracle, always evaluates sigma(r).
#ifndef COORDINATION_HAVE_CPU
    GTEST_SKIP() << "the CPU platform's plugin is not built here";
#endif
    const bool gpu = (testPlatform().platform != "Reference" && testPlatform().platform != "CPU");
    if (!gpu && testPlatform().platform != "CPU")
        GTEST_SKIP() << "compares the CPU and GPU kernels' paths: run with the CPU case or a GPU case";
    for (const auto& entry : pathCases()) {
        SCOPED_TRACE(entry.first.describe());
        const CoordinationForce force = makeForce(entry.first, CoordinationForce::Self, {0, 1, 2, 3});
        const SwitchingPath resolved = CoordinationForceImpl::resolve(force, fourParticles()).switching.path;
        EXPECT_EQ(pathName(kernelPathOn(force, {"CPU", ""})), pathName(resolved)) << "CPU";
        if (gpu)
            EXPECT_EQ(pathName(kernelPathOn(force, testPlatform())), pathName(resolved)) << testPlatform().label();
        EXPECT_EQ(pathName(kernelPathOn(force, {"Reference", ""})), "Distance") << "Reference";
    }
}
