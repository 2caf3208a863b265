#ifndef COMMON_COORDINATION_KERNELS_H_
#define COMMON_COORDINATION_KERNELS_H_

#include "CommonCoordinationBox.h"
#include "CoordinationKernels.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"
#include <memory>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The CoordinationForce kernel for OpenMM's GPU platforms (CUDA, OpenCL), written once against
 * ComputeContext. Per evaluation it launches one to four kernels (more at a re-sort) and transfers
 * nothing: s is reduced on the device, E(s) and dE/ds are evaluated on the device (code generated from
 * the expression), and the forces go straight into OpenMM's force buffer. Global parameters are uploaded
 * only when they change; a force with a neighbour list reads the list's size once after each re-sort.
 */
class CommonCalcCoordinationForceKernel : public CalcCoordinationForceKernel {
public:
    /**
     * hasWarpShuffles: the platform is CUDA, whose warps exchange registers by shuffles (the kernel source
     * checks __CUDA_ARCH__): the neighbour-list build then runs 8 warps a block instead of one, and for small
     * groups the pair kernel's last block does the finish itself (fence and atomic counter: one launch instead of two).
     */
    CommonCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform,
                                      OpenMM::ComputeContext& cc, bool hasWarpShuffles = false);
    ~CommonCalcCoordinationForceKernel() override;
    void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    double getCoordination(OpenMM::ContextImpl& context) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getCoordinationNumbers(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    long long getNumCandidatePairs(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) override;
    SwitchingPath getSwitchingPath() const override;
    /**
     * Translate the groups' particle indices into the context's current atom order, on the device
     * (at creation and after each reordering of the atoms).
     */
    void followAtomOrder();

private:
    class ReorderListener;
    /**
     * Everything built for the force's settings: the plan, the device arrays, the kernels and the state
     * carried between evaluations; rebuilt by copyParametersToContext.
     */
    struct Built;
    /** Build for `force` (Dual with a cutoff: the larger group as A, the row group). */
    void build(const ResolvedCoordinationForce& force);
    void buildFor(const ResolvedCoordinationForce& force, bool groupsSwapped);
    /** Point the finish at OpenMM's energy-parameter-derivative buffer (once, at the first evaluation). */
    void connectParameterDerivatives();
    void launch(bool computeGradient, bool addEnergy);
    /**
     * What every launch does before its pair kernel: the work thread's flush (several devices), the cell offsets,
     * the tiles' bounds and list (culling), and the pair kernel's gradient, parity, box and energy arguments.
     * Returns this evaluation's list parity.
     */
    int preparePairKernel(bool computeGradient, bool addEnergy);
    /** A CoordinationNumberForce's evaluation (launch's, for plan.numbers): the numbers, and forces if computeForces. */
    void launchNumbers(bool computeForces, bool addEnergy);
    /** Download an array of the kernel's "mixed" type as doubles. */
    void downloadMixed(OpenMM::ComputeArray& array, std::vector<double>& values);
    /** Culling: the spatial order (now and then), the tiles' bounding boxes and the neighbour list. */
    void prepareTiles(const CommonCoordinationBox& box);
    /** Sort the slots of each group into spatial order. */
    void sortSlots(const CommonCoordinationBox& box);
    /** Build the neighbour list (at the context's first build, read its size and build again if needed). */
    void buildList(const CommonCoordinationBox& box);
    void updateGlobalParameters(OpenMM::ContextImpl& context);
    void updateCellOffsets();
    /** Download the neighbour list's needed size and grow it if needed; returns whether it grew. */
    bool checkListSize();
    /** Give the neighbour list room for `needed` chunks (and a margin); the kernels' arguments follow. */
    void growList(int needed);
    /**
     * The pairs the last evaluation's tile kernel visited from the neighbour list (Self's diagonal tiles and
     * the list's chunks), or -1 if it did not use a complete list (it visited tiles instead).
     */
    long long countListedPairs();

    OpenMM::ComputeContext& cc;
    bool hasWarpShuffles;
    std::unique_ptr<Built> built;
    std::vector<std::string> globalParameterNames;
    std::vector<std::string> energyParameterDerivativeNames;
    std::vector<double> globalParameterValues;
};

} // namespace CoordinationPlugin

#endif /*COMMON_COORDINATION_KERNELS_H_*/
