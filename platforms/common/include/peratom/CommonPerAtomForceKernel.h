#ifndef COMMON_PER_ATOM_FORCE_KERNEL_H_
#define COMMON_PER_ATOM_FORCE_KERNEL_H_

#include "CoordinationKernels.h"
#include "engine/CommonBiasKernelBase.h"
#include "openmm/common/ComputeContext.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The kernel of a per-atom force (Interface: CalcCoordinationNumberForceKernel, CalcSteinhardtForceKernel) for
 * OpenMM's GPU platforms: the per-atom engine (CommonPerAtomBody) on the shared pair traversal
 * (CommonPairTraversal), whichever composition the force resolved to. Per evaluation: pass 1 over the pairs into the
 * per-entry values, the finish's phases (the per-atom step, sums, reductions, energy, weights; in pass 1's last block
 * for small forces on CUDA), and with forces pass 2 with the weights and the force finish. Nothing is transferred per
 * evaluation.
 */
template <class Interface> class CommonPerAtomForceKernel : public Interface, private CommonBiasKernelBase {
public:
    /** forceClass: the force's class, in messages; hasWarpShuffles: the platform is CUDA (CommonPairTraversal). */
    CommonPerAtomForceKernel(const std::string& name, const OpenMM::Platform& platform, OpenMM::ComputeContext& cc,
                             const std::string& forceClass, bool hasWarpShuffles = false);
    ~CommonPerAtomForceKernel() override;
    void initialize(const OpenMM::System& system, const ResolvedPerAtomForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getPerAtomValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedPerAtomForce& force) override;
    SwitchingPath getSwitchingPath() const override;
    void followAtomOrder() override;

private:
    /** Everything built for the force's settings; rebuilt by copyParametersToContext. */
    struct Built;
    void build(const ResolvedPerAtomForce& force);
    /** One evaluation: the values, the reductions and E, and the forces if computeForces. */
    void launch(bool computeForces, bool addEnergy);
    /** launch() of a force with a local step: its traversal, the local step's and the phases between them. */
    void launchWithLocalStep(bool computeForces, bool addEnergy);

    const bool hasWarpShuffles;
    std::unique_ptr<Built> built;
};

/** The GPU kernel of a CoordinationNumberForce. */
using CommonCalcCoordinationNumberForceKernel = CommonPerAtomForceKernel<CalcCoordinationNumberForceKernel>;
/** The GPU kernel of a SteinhardtForce. */
using CommonCalcSteinhardtForceKernel = CommonPerAtomForceKernel<CalcSteinhardtForceKernel>;
/** The GPU kernel of a ShellFunctionForce. */
using CommonCalcShellFunctionForceKernel = CommonPerAtomForceKernel<CalcShellFunctionForceKernel>;

} // namespace CoordinationPlugin

#endif /*COMMON_PER_ATOM_FORCE_KERNEL_H_*/
