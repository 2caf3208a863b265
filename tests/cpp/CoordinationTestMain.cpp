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
#include <string>

extern "C" void registerCoordinationReferenceKernelFactories();
#ifdef COORDINATION_HAVE_OPENCL
extern "C" void registerCoordinationOpenCLKernelFactories();
#endif
#ifdef COORDINATION_HAVE_CUDA
extern "C" void registerCoordinationCUDAKernelFactories();
#endif

namespace {

class CoordinationPluginEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        // OpenMM's own CPU platform is a plugin: load it first, so that the factory is registered for it too.
        const char* fromEnvironment = std::getenv("OPENMM_PLUGIN_DIR");
        std::string directory = (fromEnvironment != nullptr ? fromEnvironment : COORDINATION_OPENMM_PLUGIN_DIR);
        OpenMM::Platform::loadPluginsFromDirectory(directory);
        registerCoordinationReferenceKernelFactories();
#ifdef COORDINATION_HAVE_OPENCL
        registerCoordinationOpenCLKernelFactories();
#endif
#ifdef COORDINATION_HAVE_CUDA
        registerCoordinationCUDAKernelFactories();
#endif
        const CoordinationTest::PlatformCase& platformCase = CoordinationTest::testPlatform();
        std::string failures;
        for (const std::string& failure : OpenMM::Platform::getPluginLoadFailures())
            failures += "\n  " + failure;
        bool found = false;
        for (int i = 0; i < OpenMM::Platform::getNumPlatforms(); i++)
            found = found || OpenMM::Platform::getPlatform(i).getName() == platformCase.platform;
        if (!found)
            GTEST_SKIP() << "platform " << platformCase.platform << " is not available here" << failures;
        try {
            OpenMM::Platform& platform = OpenMM::Platform::getPlatformByName(platformCase.platform);
            if (!platform.supportsKernels({"CalcCoordinationForce"}))
                GTEST_SKIP() << "the plugin was not built for platform " << platformCase.platform;
        } catch (const std::exception& error) {
            GTEST_SKIP() << error.what();
        }
        std::printf("Running the suite on platform %s\n", platformCase.label().c_str());
    }
};

} // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new CoordinationPluginEnvironment());
    return RUN_ALL_TESTS();
}
