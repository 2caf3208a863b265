#ifndef COMMON_PAIR_TRAVERSAL_H_
#define COMMON_PAIR_TRAVERSAL_H_

#include "energy/CommonEnergyArrays.h"
#include "engine/CommonCellOffsets.h"
#include "engine/CommonPeriodicBox.h"
#include "pairs/CommonPairArrays.h"
#include "pairs/CommonPairBody.h"
#include "pairs/CommonPairKernelSet.h"
#include "pairs/CommonPairPlan.h"
#include "pairs/CommonPairStepState.h"
#include "openmm/common/ComputeContext.h"
#include <functional>

namespace CoordinationPlugin {

/**
 * The GPU traversal of a PairSwitchingForce's pairs, shared by its kernels (CoordinationForce's and the per-atom
 * engine's): the plan (tiles, culling, neighbour list), the slots sorted spatially with their arrays, the sort,
 * bounds and list kernels, the pair kernel with the force's body compiled in (CommonPairBody), the gradient rows and
 * the force finish, and the state carried between evaluations. Built once per resolved force (at initialize and
 * copyParametersToContext); nothing of it is transferred per evaluation.
 *
 * An evaluation: prepare() (the cell offsets, the centres, the tiles' order, bounds and list, the pair kernel's
 * arguments), runPairKernel() once or more (the body's passes), finish() where the pair kernel does not finish by
 * itself, endEvaluation().
 */
class CommonPairTraversal {
public:
    /**
     * Build for `groups`, the body's pass compiled in. energy: the arrays the finish reads (the force's energy).
     * hasWarpShuffles: the platform is CUDA, whose warps exchange registers by shuffles (the kernel source checks
     * __CUDA_ARCH__): the neighbour-list build then runs 8 warps a block instead of one, and for small groups the pair
     * kernel's last block does the finish itself (fence and atomic counter: one launch instead of two). Dual with a
     * cutoff takes the larger group as A where the body is symmetric in the groups.
     */
    CommonPairTraversal(OpenMM::ComputeContext& cc, const ResolvedPairGroups& groups, CommonPairBody& body,
                        CommonEnergyArrays& energy, bool hasWarpShuffles);
    /** Translate the groups' members into the context's current atom order, on the device. */
    void followAtomOrder();
    /**
     * What every evaluation does before its pair kernel: the cell offsets, the centres' positions, the tiles' order,
     * bounds and list (culling), and the pair kernel's gradient, parity, box and (fused finish) energy arguments.
     * Returns this evaluation's parity.
     */
    int prepare(bool computeGradient, bool addEnergy);
    /** The pair kernel's gradient and (fused finish) energy arguments for its next launch. */
    void setPairArguments(bool computeGradient, bool addEnergy);
    /** Launch the pair kernel (with the arguments as last set). */
    void runPairKernel();
    /** The force finish, where the pair kernel does not finish by itself: E, and F -= dE/ds ds/dx if computeGradient. */
    void finish(bool addEnergy, bool computeGradient, int parity);
    /** After the evaluation's last launch: the next evaluation's parity. */
    void endEvaluation();
    /**
     * The pairs an evaluation's tile kernel tested against the cutoff: every pair of slots, or those of the neighbour
     * list where it used one. evaluate: one evaluation without forces (repeated while the list was incomplete).
     */
    long long countCandidatePairs(const std::function<void()>& evaluate);

    const CommonPairPlan& getPlan() const { return plan; }
    CommonPairArrays& getArrays() { return arrays; }
    CommonPairKernelSet& getKernels() { return kernels; }
    SwitchingPath getSwitchingPath() const { return switchingPath; }

private:
    /** Culling: the spatial order (now and then), the tiles' bounding boxes and the neighbour list. */
    void prepareTiles(const CommonPeriodicBox& box);
    /** Sort the slots of each group into spatial order. */
    void sortSlots(const CommonPeriodicBox& box);
    /** Build the neighbour list (at the context's first build, read its size and build again if needed). */
    void buildList(const CommonPeriodicBox& box);
    /** Download the neighbour list's needed size and grow it if needed; returns whether it grew. */
    bool checkListSize();
    /** Give the neighbour list room for `needed` chunks (and a margin); the kernels' arguments follow. */
    void growList(int needed);
    /**
     * The pairs the last evaluation's tile kernel visited from the neighbour list (Self's diagonal tiles and the
     * list's chunks), or -1 if it did not use a complete list (it visited tiles instead).
     */
    long long countListedPairs();

    OpenMM::ComputeContext& cc;
    CommonPairPlan plan;
    long long numSlotPairs;           // every pair of the sum (what the tile kernel visits without a list)
    CommonCellOffsets cellOffsets;     // the rows of arrays.cellOffsets OpenMM's wrapping must be undone for
    CommonPairArrays arrays;
    CommonPairKernelSet kernels;
    CommonPairStepState state;
    SwitchingPath switchingPath = SwitchingPath::Distance; // the path of the compiled switching function
};

} // namespace CoordinationPlugin

#endif /*COMMON_PAIR_TRAVERSAL_H_*/
