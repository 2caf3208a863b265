/*
 * The test program's main: makes the platforms able to run CoordinationForce, once for the whole
 * process (registering a kernel factory twice would leak the first one), then runs the tests on the
 * platform named by COORDINATION_TEST_PLATFORM (CoordinationTestUtilities.h). If that platform is not
 * available here, every test is skipped with the reason.
 */

#include "CoordinationTestUtilities.h"
#include "openmm/Platform.h"
#include <cstdlib>
#include <gtest/gtest.h>
#include <cstdio>
#include <string>

extern "C" void registerCoordinationReferenceKernelFactories();
#ifdef COORDINATION_HAVE_CPU
extern "C" void registerCoordinationCpuKernelFactories();
#endif
#ifdef COORDINATION_HAVE_OPENCL
extern "C" void registerCoordinationOpenCLKernelFactories();
#endif
#ifdef COORDINATION_HAVE_CUDA
extern "C" void registerCoordinationCUDAKernelFactories();
#endif

namespace {

/**
 * Loads OpenMM's plugins and registers this plugin's kernels. Returns an empty string if the platform
 * under test can run CoordinationForce here, otherwise why not.
 */
std::string setUpPlatforms() {
    // OpenMM's own CPU and GPU platforms are plugins: load them first, so that the factories are registered for them too.
    const char* fromEnvironment = std::getenv("OPENMM_PLUGIN_DIR");
    std::string directory = (fromEnvironment != nullptr ? fromEnvironment : COORDINATION_OPENMM_PLUGIN_DIR);
    OpenMM::Platform::loadPluginsFromDirectory(directory);
    registerCoordinationReferenceKernelFactories();
#ifdef COORDINATION_HAVE_CPU
    registerCoordinationCpuKernelFactories();
#endif
#ifdef COORDINATION_HAVE_OPENCL
    registerCoordinationOpenCLKernelFactories();
#endif
#ifdef COORDINATION_HAVE_CUDA
    registerCoordinationCUDAKernelFactories();
#endif
    const CoordinationTest::PlatformCase& platformCase = CoordinationTest::testPlatform();
    std::string failures;
    for (const std::string& failure : OpenMM::Platform::getPluginLoadFailures())
        if (failure.find(platformCase.platform) != std::string::npos)
            failures += "; " + failure;
    for (int i = 0; i < OpenMM::Platform::getNumPlatforms(); i++) {
        OpenMM::Platform& platform = OpenMM::Platform::getPlatform(i);
        if (platform.getName() != platformCase.platform)
            continue;
        if (!platform.supportsKernels({"CalcCoordinationForce"}))
            return "this build has no CoordinationForce kernel for platform " + platformCase.platform;
        return "";
    }
    return "OpenMM's " + platformCase.platform + " platform is not available here" + failures;
}

} // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    std::string unavailable = setUpPlatforms();
    if (!unavailable.empty()) {
        // No test is run (or counted as passed): tools/run-tests.sh reports the case as skipped.
        std::printf("SKIPPED: platform case %s: %s\n", CoordinationTest::testPlatform().label().c_str(),
                    unavailable.c_str());
        return 0;
    }
    std::printf("Running the suite on platform %s\n", CoordinationTest::testPlatform().label().c_str());
    int status = RUN_ALL_TESTS();
    // Leave without running static destructors: with OpenMM's CUDA plugin loaded both as a dependency
    // of this program and through loadPluginsFromDirectory, OpenMM's teardown at exit aborts
    // ("double free") after every test has finished and reported.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(status);
}
