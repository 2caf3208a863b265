#include "CpuCoordinationKernelFactory.h"
#include "CpuCoordinationKernels.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/windowsExport.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

void registerFactories() {
    for (int i = 0; i < Platform::getNumPlatforms(); i++) {
        Platform& platform = Platform::getPlatform(i);
        if (platform.getName() == "CPU") {
            for (const std::string& name : {CalcCoordinationForceKernel::Name(),
                                             CalcCoordinationNumberForceKernel::Name(),
                                             CalcSteinhardtForceKernel::Name(),
                                             CalcShellFunctionForceKernel::Name(),
                                             CalcContactMapForceKernel::Name(),
                                             CalcCoordinationNumberForceKernel::LocalName(),
                                             CalcSteinhardtForceKernel::LocalName(),
                                             CalcShellFunctionForceKernel::LocalName()})
                platform.registerKernelFactory(name, new CpuCoordinationKernelFactory());
        }
    }
}

} // namespace

extern "C" OPENMM_EXPORT void registerPlatforms() {}

// Called by Platform::loadPluginsFromDirectory().
extern "C" OPENMM_EXPORT void registerKernelFactories() {
    registerFactories();
}

// For programs (the tests) that link the plugin directly: a name no other plugin uses.
extern "C" OPENMM_EXPORT void registerCoordinationCpuKernelFactories() {
    registerFactories();
}

KernelImpl* CpuCoordinationKernelFactory::createKernelImpl(std::string name, const Platform& platform,
                                                           ContextImpl& context) const {
    if (name == CalcCoordinationForceKernel::Name())
        return new CpuCalcCoordinationForceKernel(name, platform);
    if (name == CalcCoordinationNumberForceKernel::Name() || name == CalcCoordinationNumberForceKernel::LocalName())
        return new CpuCalcCoordinationNumberForceKernel(name, platform);
    if (name == CalcSteinhardtForceKernel::Name() || name == CalcSteinhardtForceKernel::LocalName())
        return new CpuCalcSteinhardtForceKernel(name, platform);
    if (name == CalcShellFunctionForceKernel::Name() || name == CalcShellFunctionForceKernel::LocalName())
        return new CpuCalcShellFunctionForceKernel(name, platform);
    if (name == CalcContactMapForceKernel::Name())
        return new CpuCalcContactMapForceKernel(name, platform);
    throw OpenMMException("CpuCoordinationKernelFactory: no kernel named '" + name + "'");
}
