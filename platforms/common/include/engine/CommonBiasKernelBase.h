#ifndef COMMON_BIAS_KERNEL_BASE_H_
#define COMMON_BIAS_KERNEL_BASE_H_

#include "energy/CommonEnergyArrays.h"
#include "internal/energy/ResolvedEnergy.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/internal/ContextImpl.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * What every GPU kernel of this plugin does around its own launches, written once: each kernel derives from it beside
 * its platform-independent interface (CalcCoordinationForceKernel, ...). It registers the energy's parameter
 * derivatives with the context and follows OpenMM's reordering of the atoms (followAtomOrder, at every build and after
 * each reordering); per evaluation it uploads the global parameters only when they change (refusing a value beyond
 * float's range where the kernel's mixed type is float), points the kernels that take OpenMM's buffer of
 * energy-parameter derivatives at it once per build, and with several devices lets OpenMM's work thread finish first.
 */
class CommonBiasKernelBase {
public:
    /** Translate the force's members into the context's current atom order, on the device. */
    virtual void followAtomOrder() = 0;

protected:
    /** forceName starts the messages ("CoordinationForce"). */
    CommonBiasKernelBase(OpenMM::ComputeContext& cc, const std::string& forceName);
    virtual ~CommonBiasKernelBase();
    /** At initialize(): the energy's names, its parameter derivatives registered, the reorder listener added. */
    void initializeBase(const ResolvedEnergy& energy);
    /** A new build (new arrays and kernels): the globals are uploaded and the derivatives connected again. */
    void startBuild();
    /**
     * Before an evaluation's launches: the global parameters (if they changed), OpenMM's parameter-derivative buffer
     * (connectDerivatives: an evaluation that adds the energy), and the work thread's flush (several devices).
     */
    void beginEvaluation(OpenMM::ContextImpl& context, CommonEnergyArrays& energy, bool connectDerivatives);
    /** Whether the kernels' "mixed" type is double. */
    bool mixedIsDouble() const;
    /** The first count entries of an array of the kernels' "mixed" type, as doubles. */
    void downloadMixed(OpenMM::ComputeArray& array, size_t count, std::vector<double>& values);

    OpenMM::ComputeContext& cc;

private:
    class ReorderListener;
    void updateGlobalParameters(OpenMM::ContextImpl& context, CommonEnergyArrays& energy);
    void connectParameterDerivatives(CommonEnergyArrays& energy);

    const std::string forceName;
    std::vector<std::string> globalParameterNames, parameterDerivativeNames;
    std::vector<double> globalParameterValues; // as last uploaded (empty: upload at the next evaluation)
    bool parameterDerivativesConnected = false;
};

} // namespace CoordinationPlugin

#endif /*COMMON_BIAS_KERNEL_BASE_H_*/
