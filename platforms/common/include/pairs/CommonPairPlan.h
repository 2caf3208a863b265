#ifndef COMMON_PAIR_PLAN_H_
#define COMMON_PAIR_PLAN_H_

#include "centres/CommonCenterLayout.h"
#include "internal/groups/ResolvedPairGroups.h"
#include "openmm/common/ComputeContext.h"
#include <vector>

namespace CoordinationPlugin {

/**
 * What the shared pair traversal (CommonPairTraversal) builds for one force's pairs, decided once from the resolved
 * groups and the ComputeContext (a pure function of them: no device arrays): the sizes, the work decomposition,
 * whether tiles are culled and with what neighbour list, whether the pair kernel finishes by itself.
 */
struct CommonPairPlan {
    static constexpr int TileSize = 32;
    static constexpr int WarpsPerBlock = 8;
    static constexpr int PairBlockSize = 128;
    static constexpr int FinishBlockSize = 128;
    // The separate finish launches a thread per gradient row (finishWorkUnits): a finish of a few thousand rows is
    // latency-bound, so it needs every block it can get (a thread per row beats a thread per FinishBatch rows there).
    // Where the platform caps the grid below that, a thread takes several rows, loading FinishBatch of them at once.
    static constexpr int FinishBatch = 8;
    // computeTileBounds: one thread per slot, this many per block (BoundsBlockSize / TileSize tiles).
    static constexpr int BoundsBlockSize = 128;
    // With a cutoff the slots are re-sorted into spatial order every this many evaluations (and whenever
    // the force is rebuilt). Correctness never depends on the order; only how well tiles are culled does.
    static constexpr int SortInterval = 100;
    // Forces of at most this many gradient rows (slots) finish inside the pair kernel on CUDA (one launch instead of
    // two), where the last block applies every force alone: that pays up to about a thousand rows and not beyond,
    // where the last block's serial finish costs more than the launch it saves (docs/DESIGN.md).
    static constexpr int MaxFusedRows = 1024;
    // Neighbour list (forces with a cutoff whose tiles are culled): built for dmax plus a skin of this
    // fraction of dmax (at least MinimumSkin nm), rebuilt when a slot has moved half the skin.
    static constexpr double SkinFraction = 0.1;
    static constexpr double MinimumSkin = 0.05;
    // The list's state on the device (int array): rebuild flags for even and odd evaluations, the chunks
    // counted by the build under way, the chunks of the current list, the tile kernel's next work item (its
    // blocks take the list's items from this counter; computeTileBounds resets it every evaluation).
    static constexpr int ListStateRebuild = 0, ListStateBuilt = 2, ListStateChunks = 3, ListStateNextItem = 4,
                         ListStateSize = 5;

    /**
     * The chunks of the list that the evaluation of the given parity used: those it built if it rebuilt,
     * else those of the current list (`state`: the list's device state, downloaded).
     */
    static int listChunksOf(const std::vector<int>& state, int parity) {
        return state[ListStateRebuild + parity] ? state[ListStateBuilt] : state[ListStateChunks];
    }
    /**
     * Decide everything for `groups` on `cc`. hasWarpShuffles: see CommonPairTraversal. Throws if the groups have
     * more tiles than the kernel can index.
     */
    static CommonPairPlan create(const ResolvedPairGroups& groups, OpenMM::ComputeContext& cc, bool hasWarpShuffles);

    PairSwitchingForce::Mode mode = PairSwitchingForce::Self;
    bool periodic = false;
    bool useDouble = false;            // the kernel's "real" is double
    bool mixedIsDouble = false;        // the kernel's "mixed" type (sums, energy, global parameters) is double
    int numA = 0, numB = 0, numUnique = 0;
    // ds/dx is accumulated per slot, not per atom: row k is A's slot k, row NUM_A + k B's slot k (Dual and
    // Pair), in the order the tile kernel visits the slots, so that a tile's gradient writes are contiguous
    // (numSlotRows); then two rows per centre (one per evaluation parity), which collect the gradients of the
    // centre's slots.
    int numSlotRows = 0, numGradientRows = 0;
    CommonCenterLayout centers;        // the centres group entries refer to
    int tilesA = 0, tilesB = 0;
    long long numTiles = 0;            // tiles of 32x32 pairs (Self, Dual)
    int paddedNumAtoms = 0;
    // Work decomposition.
    int pairWorkUnits = 0, pairBlockSize = 0, numPartials = 0;
    int finishWorkUnits = 0;           // threads of the separate finish (one per slot row or centre entry, at least one block)
    // Cutoff and culling.
    double cutoff = 0.0;               // nm; infinity for none
    bool hasCutoff = false;
    bool culling = false;              // tiles are sorted spatially and culled by their bounding boxes
    int cullChunk = 0;                 // candidate tiles a block checks per iteration
    double paddedCutoff = 0.0;         // culling: the cutoff padded against rounding in the bounding boxes
    double sortCell = 0.0;             // nm: the sort cells of a non-periodic force
    bool fusedFinish = false;          // the pair kernel's last block finishes (no finishKernel launch)
    bool groupsSwapped = false;        // A is the user's B (Dual with a cutoff: the larger group makes the rows)
    // Neighbour list (every culled force has one).
    double skin = 0.0, listCutoff = 0.0;
    int numRowTiles = 0, listBlockSize = 0;
    int firstListCapacity = 0;         // chunks
};

} // namespace CoordinationPlugin

#endif /*COMMON_PAIR_PLAN_H_*/
