#include "ReferenceCoordinationKernelFactory.h"
#include "ReferenceCoordinationKernels.h"
#include "internal/contactmap/ContactMapHostKernel.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/windowsExport.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

void registerFactories() {
    for (int i = 0; i < Platform::getNumPlatforms(); i++) {
        Platform& platform = Platform::getPlatform(i);
#ifdef COORDINATION_REFERENCE_SERVES_CPU
        const bool serves = (platform.getName() == "Reference" || platform.getName() == "CPU");
#else
        const bool serves = (platform.getName() == "Reference"); // the CPU plugin has its own kernel
#endif
        if (serves) {
            for (const std::string& name :
                 {CalcCoordinationForceKernel::Name(), CalcCoordinationNumberForceKernel::Name(),
                  CalcSteinhardtForceKernel::Name(), CalcShellFunctionForceKernel::Name(),
                  CalcContactMapForceKernel::Name(), CalcCoordinationNumberForceKernel::LocalName(),
                  CalcSteinhardtForceKernel::LocalName(), CalcShellFunctionForceKernel::LocalName()})
                platform.registerKernelFactory(name, new ReferenceCoordinationKernelFactory());
        }
    }
}

} // namespace

extern "C" OPENMM_EXPORT void registerPlatforms() {}

// Called by Platform::loadPluginsFromDirectory().
extern "C" OPENMM_EXPORT void registerKernelFactories() { registerFactories(); }

// For programs (the tests) that link the plugin directly: a name no other plugin uses.
extern "C" OPENMM_EXPORT void registerCoordinationReferenceKernelFactories() { registerFactories(); }

KernelImpl* ReferenceCoordinationKernelFactory::createKernelImpl(std::string name, const Platform& platform,
                                                                 ContextImpl& context) const {
    if (name == CalcCoordinationForceKernel::Name())
        return new ReferenceCalcCoordinationForceKernel(name, platform);
    if (name == CalcCoordinationNumberForceKernel::Name() || name == CalcCoordinationNumberForceKernel::LocalName())
        return new ReferencePerAtomForceKernel<CalcCoordinationNumberForceKernel>(name, platform);
    if (name == CalcSteinhardtForceKernel::Name() || name == CalcSteinhardtForceKernel::LocalName())
        return new ReferencePerAtomForceKernel<CalcSteinhardtForceKernel>(name, platform);
    if (name == CalcShellFunctionForceKernel::Name() || name == CalcShellFunctionForceKernel::LocalName())
        return new ReferencePerAtomForceKernel<CalcShellFunctionForceKernel>(name, platform);
    if (name == CalcContactMapForceKernel::Name())
        return new ContactMapHostKernel(name, platform);
    throw OpenMMException("ReferenceCoordinationKernelFactory: no kernel named '" + name + "'");
}
