#include "contactmap/CommonCalcContactMapForceKernel.h"
#include "coordination/CommonCalcCoordinationForceKernel.h"
#include "openmm/KernelFactory.h"
#include "openmm/OpenMMException.h"
#include "openmm/cuda/CudaContext.h"
#include "openmm/cuda/CudaPlatform.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/windowsExport.h"
#include "peratom/CommonPerAtomForceKernel.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

/**
 * Creates the common CoordinationForce, CoordinationNumberForce, SteinhardtForce, ShellFunctionForce and ContactMapForce kernels on a CUDA
 * context (its first device: with several devices, OpenMM sums every device's forces into the first one's buffer).
 */
class CudaCoordinationKernelFactory : public KernelFactory {
public:
    KernelImpl* createKernelImpl(std::string name, const Platform& platform, ContextImpl& context) const override {
        CudaPlatform::PlatformData& data = *static_cast<CudaPlatform::PlatformData*>(context.getPlatformData());
        CudaContext& cu = *data.contexts[0];
        if (name == CalcCoordinationForceKernel::Name())
            return new CommonCalcCoordinationForceKernel(name, platform, cu, true);
        if (name == CalcCoordinationNumberForceKernel::Name() || name == CalcCoordinationNumberForceKernel::LocalName())
            return new CommonCalcCoordinationNumberForceKernel(name, platform, cu, "CoordinationNumberForce", true);
        if (name == CalcSteinhardtForceKernel::Name() || name == CalcSteinhardtForceKernel::LocalName())
            return new CommonCalcSteinhardtForceKernel(name, platform, cu, "SteinhardtForce", true);
        if (name == CalcShellFunctionForceKernel::Name() || name == CalcShellFunctionForceKernel::LocalName())
            return new CommonCalcShellFunctionForceKernel(name, platform, cu, "ShellFunctionForce", true);
        if (name == CalcContactMapForceKernel::Name())
            return new CommonCalcContactMapForceKernel(name, platform, cu);
        throw OpenMMException("CudaCoordinationKernelFactory: no kernel named '" + name + "'");
    }
};

void registerFactories() {
    for (int i = 0; i < Platform::getNumPlatforms(); i++) {
        Platform& platform = Platform::getPlatform(i);
        if (platform.getName() == "CUDA") {
            for (const std::string& name :
                 {CalcCoordinationForceKernel::Name(), CalcCoordinationNumberForceKernel::Name(),
                  CalcSteinhardtForceKernel::Name(), CalcShellFunctionForceKernel::Name(),
                  CalcContactMapForceKernel::Name(), CalcCoordinationNumberForceKernel::LocalName(),
                  CalcSteinhardtForceKernel::LocalName(), CalcShellFunctionForceKernel::LocalName()})
                platform.registerKernelFactory(name, new CudaCoordinationKernelFactory());
        }
    }
}

} // namespace

extern "C" OPENMM_EXPORT void registerPlatforms() {}

extern "C" OPENMM_EXPORT void registerKernelFactories() { registerFactories(); }

extern "C" OPENMM_EXPORT void registerCoordinationCUDAKernelFactories() { registerFactories(); }
