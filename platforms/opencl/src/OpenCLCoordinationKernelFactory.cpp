// OpenMM's opencl.hpp uses command-buffer extensions newer than Debian 12's OpenCL headers declare;
// this plugin needs none of them, so hide the extensions before opencl.hpp is read.
#include <CL/opencl.h>
#undef cl_khr_command_buffer
#undef cl_khr_command_buffer_mutable_dispatch
#undef cl_khr_command_buffer_multi_device
#include "contactmap/CommonCalcContactMapForceKernel.h"
#include "coordination/CommonCalcCoordinationForceKernel.h"
#include "openmm/KernelFactory.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/windowsExport.h"
#include "openmm/opencl/OpenCLContext.h"
#include "openmm/opencl/OpenCLPlatform.h"
#include "peratom/CommonPerAtomForceKernel.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

/**
 * Creates the common CoordinationForce, CoordinationNumberForce, SteinhardtForce, ShellFunctionForce and ContactMapForce kernels on an
 * OpenCL context (its first device: with several devices, OpenMM sums every device's forces into the first one's
 * buffer).
 */
class OpenCLCoordinationKernelFactory : public KernelFactory {
public:
    KernelImpl* createKernelImpl(std::string name, const Platform& platform, ContextImpl& context) const override {
        OpenCLPlatform::PlatformData& data = *static_cast<OpenCLPlatform::PlatformData*>(context.getPlatformData());
        OpenCLContext& cl = *data.contexts[0];
        if (name == CalcCoordinationForceKernel::Name())
            return new CommonCalcCoordinationForceKernel(name, platform, cl);
        if (name == CalcCoordinationNumberForceKernel::Name() || name == CalcCoordinationNumberForceKernel::LocalName())
            return new CommonCalcCoordinationNumberForceKernel(name, platform, cl, "CoordinationNumberForce");
        if (name == CalcSteinhardtForceKernel::Name() || name == CalcSteinhardtForceKernel::LocalName())
            return new CommonCalcSteinhardtForceKernel(name, platform, cl, "SteinhardtForce");
        if (name == CalcShellFunctionForceKernel::Name() || name == CalcShellFunctionForceKernel::LocalName())
            return new CommonCalcShellFunctionForceKernel(name, platform, cl, "ShellFunctionForce");
        if (name == CalcContactMapForceKernel::Name())
            return new CommonCalcContactMapForceKernel(name, platform, cl);
        throw OpenMMException("OpenCLCoordinationKernelFactory: no kernel named '" + name + "'");
    }
};

void registerFactories() {
    for (int i = 0; i < Platform::getNumPlatforms(); i++) {
        Platform& platform = Platform::getPlatform(i);
        if (platform.getName() == "OpenCL") {
            for (const std::string& name :
                 {CalcCoordinationForceKernel::Name(), CalcCoordinationNumberForceKernel::Name(),
                  CalcSteinhardtForceKernel::Name(), CalcShellFunctionForceKernel::Name(),
                  CalcContactMapForceKernel::Name(), CalcCoordinationNumberForceKernel::LocalName(),
                  CalcSteinhardtForceKernel::LocalName(), CalcShellFunctionForceKernel::LocalName()})
                platform.registerKernelFactory(name, new OpenCLCoordinationKernelFactory());
        }
    }
}

} // namespace

extern "C" OPENMM_EXPORT void registerPlatforms() {}

extern "C" OPENMM_EXPORT void registerKernelFactories() { registerFactories(); }

extern "C" OPENMM_EXPORT void registerCoordinationOpenCLKernelFactories() { registerFactories(); }
