/*
 * The switching path (SwitchingFunctionConstants::path), decided once when a force is resolved: the rule that
 * decides it, the SquaredDistance form against the brute force, and the CPU and GPU kernels following it.
 */

#include "CoordinationTestUtilities.h"
#include "internal/forces/CoordinationForceImpl.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"

using namespace CoordinationPlugin;
using namespace CoordinationTest;
using OpenMM::Vec3;

namespace {

SwitchingSettings rational(int n, int m, double d0 = 0.0, double r0 = 0.25) {
    return rationalSettings(r0, n, m, d0, 0.0);
}

SwitchingSettings customOf(const std::string& expression) {
    return SwitchingSettings::custom(expression, 0.25, 0.0, 1.0);
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

/** The path a platform's kernel takes for a force, after one evaluation. */
SwitchingPath kernelPathOn(const CoordinationForce& force, const PlatformCase& platform) {
    CoordinationContext system(force, {{0, 0, 0}, {0.2, 0, 0}, {0, 0.26, 0}, {0.3, 0.3, 0.1}}, Box::none(), platform);
    system.getContext().getState(OpenMM::State::Forces);
    OpenMM::ContextImpl* contextImpl;
    return CoordinationBiasForceImpl::inContextAs<CoordinationForceImpl>(system.getContext(), system.getForce(),
                                                                         "kernelPathOn", contextImpl)
        .getKernel()
        .getSwitchingPath();
}

/** The path the rule gives a force of four particles. */
SwitchingPath resolvedPath(const SwitchingSettings& settings) {
    return CoordinationForceImpl::resolve(makeForce(settings, CoordinationForce::Self, {0, 1, 2, 3}), 4).switching.path;
}

std::string pathName(SwitchingPath path) {
    return path == SwitchingPath::SquaredDistance ? "SquaredDistance" : "Distance";
}

} // namespace

TEST(SwitchingPath, IsSquaredDistanceForEvenRationalWithoutD0AndForFunctionsOfX2) {
    for (const auto& entry : pathCases()) {
        SCOPED_TRACE(describe(entry.first));
        EXPECT_EQ(pathName(resolvedPath(entry.first)), pathName(entry.second));
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
                    if (settings.getType() == CoordinationForce::Custom && dmax == 0.0)
                        continue;
                    settings.setDMax(dmax);
                    settings.setStretch(stretch);
                    cases.push_back(settings);
                }
    for (const SwitchingSettings& settings : cases) {
        SCOPED_TRACE(describe(settings));
        const SwitchingSettings resolved = withBruteForceCutoff(settings);
        const SwitchingFunctionEvaluator sigma(resolvedSwitching(resolved));
        const double r0 = settings.getR0(), dmax = resolved.getDMax(), top = (std::isfinite(dmax) ? 1.2 * dmax : 4.0);
        std::vector<double> grid = {0.0, r0, dmax};
        for (double offset : {1e-7, 5e-6, 1.4e-5, 1.6e-5, 1e-4, 0.1})
            for (double sign : {-1.0, 1.0})
                grid.push_back(r0 * (1.0 + sign * offset));
        for (int i = 0; i <= 1000; i++)
            grid.push_back(top * i / 1000.0);
        auto slopeTolerance = [&](double r) {
            const bool nearOne = (settings.getType() == CoordinationForce::Rational &&
                                  std::fabs(r / r0 - 1.0) < Tolerance::NearOneBandEnd);
            return (nearOne ? Tolerance::NearOneSlopeRelative : Tolerance::Coordination);
        };
        expectSigmaOnGrid(resolved, grid, Tolerance::Coordination, slopeTolerance, [&](double r, double& slope) {
            double scale;
            const double value = sigma.evaluateSquared(r * r, scale);
            slope = scale * r;
            return value;
        });
    }
}

TEST(SwitchingPath, TheCpuAndGpuKernelsTakeTheResolvedPath) {
    // The CPU kernel for every case; the platform under test too when it is a GPU (its program's defines);
    // the Reference platform, the oracle, always evaluates sigma(r).
#ifndef COORDINATION_HAVE_CPU
    GTEST_SKIP() << "the CPU platform's plugin is not built here";
#endif
    const bool gpu = testPlatform().isGpu();
    if (!gpu && testPlatform().platform != "CPU")
        GTEST_SKIP() << "compares the CPU and GPU kernels' paths: run with the CPU case or a GPU case";
    for (const auto& entry : pathCases()) {
        SCOPED_TRACE(describe(entry.first));
        const CoordinationForce force = makeForce(entry.first, CoordinationForce::Self, {0, 1, 2, 3});
        const SwitchingPath resolved = resolvedPath(entry.first);
        EXPECT_EQ(pathName(kernelPathOn(force, {"CPU", ""})), pathName(resolved)) << "CPU";
        if (gpu)
            EXPECT_EQ(pathName(kernelPathOn(force, testPlatform())), pathName(resolved)) << testPlatform().label();
        EXPECT_EQ(pathName(kernelPathOn(force, ReferenceCase)), "Distance") << "Reference";
    }
}
