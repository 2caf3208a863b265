#ifndef COMMON_COORDINATION_PLAN_H_
#define COMMON_COORDINATION_PLAN_H_

#include "CoordinationKernels.h"
#include "openmm/common/ComputeContext.h"
#include <vector>

namespace CoordinationPlugin {

/**
 * What the GPU kernel builds for one resolved force, decided once from the force and the ComputeContext
 * (a pure function of them: no device arrays): the sizes, the work decomposition, whether tiles are culled
 * and with what neighbour list, whether the pair kernel finishes by itself.
 */
struct CommonCoordinationPlan {
    static constexpr int TileSize = 32;
    static constexpr int WarpsPerBlock = 8;
    static constexpr int PairBlockSize = 128;
    static constexpr int FinishBlockSize = 128;
    // The numbers' finish: blocks of this many threads, one per part of the entries (numberParts) or one in all.
    static constexpr int NumbersBlockSize = 256;
    // The separate finish launches a thread per gradient row (finishWorkUnits): a finish of a few thousand rows
    // is latency-bound, so it needs every block it can get (on an H100, 2,000 rows took 4.4 us with a thread per
    // row and 6.0 us with a thread per 8 rows). Where the platform caps the grid below that, a thread takes
    // several rows, loading FinishBatch of them at once.
    static constexpr int FinishBatch = 8;
    // Centres: a block computes a centre as CenterLanes partial sums (a fixed order, whatever the block's size),
    // each loading CenterBatch member entries at once; computeCenterPositions has a block of CenterLanes threads
    // per centre.
    static constexpr int CenterLanes = 128;
    static constexpr int CenterBatch = 8;
    static constexpr int CenterBlockSize = CenterLanes;
    // Centres of at most this many member entries in all (one entry per lane), and this many centres, are computed at
    // the start of every block of each kernel that reads positions, with no launch of their own; larger ones by
    // computeCenterPositions, a launch before the others. Measured on an H100 (suite family V, a 1,000-entry centre
    // of mass in group A, 10,000 atoms in B, single precision): computed in every block, the tile kernel took 25.4
    // instead of 10.3 us (Nsight Compute) and the step 12.4 us more than with an atom in the centre's place; with
    // the launch of its own the step took 8.9 us more.
    static constexpr int MaxCenterEntriesInBlock = CenterLanes;
    static constexpr int MaxCentersInBlock = 8;
    // computeTileBounds: one thread per slot, this many per block (BoundsBlockSize / TileSize tiles).
    static constexpr int BoundsBlockSize = 128;
    // With a cutoff the slots are re-sorted into spatial order every this many evaluations (and whenever
    // the force is rebuilt). Correctness never depends on the order; only how well tiles are culled does.
    static constexpr int SortInterval = 100;
    // Forces of at most this many gradient rows (slots) finish inside the pair kernel on CUDA (one launch
    // instead of two), where the last block applies every force alone: that pays up to about a thousand rows
    // and not beyond (on an H100, per MD step: 1,000 atoms 9 instead of 12.5 us; with 4,096 fused rows, S1 4k
    // 33 instead of 23 us and S3 1k x 1k 11.8 instead of 10.6 us).
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
     * Decide everything for `force` on `cc`. hasWarpShuffles: see CommonCalcCoordinationForceKernel.
     * Throws if the groups have more tiles than the kernel can index.
     */
    static CommonCoordinationPlan create(const ResolvedCoordinationForce& force, OpenMM::ComputeContext& cc,
                                         bool hasWarpShuffles);

    CoordinationForce::Mode mode = CoordinationForce::Self;
    bool periodic = false;
    bool useDouble = false;            // the kernel's "real" is double
    bool mixedIsDouble = false;        // the kernel's "mixed" type (sums, energy, global parameters) is double
    int numA = 0, numB = 0, numUnique = 0;
    // ds/dx is accumulated per slot, not per atom: row k is A's slot k, row NUM_A + k B's slot k (Dual and
    // Pair), in the order the tile kernel visits the slots, so that a tile's gradient writes are contiguous
    // (numSlotRows); then two rows per centre (one per evaluation parity), which collect the gradients of the
    // centre's slots.
    int numSlotRows = 0, numGradientRows = 0;
    // Centres: the System's particles (a slot's atom at or beyond it is a centre), the centres, their member
    // entries (all centres' particles in order), and whether the entries' positions are unwrapped (centerOffsets:
    // a force without periodic boundary conditions, or a centre that is not made whole), their cell offsets after
    // the unique slots' in cellOffsets.
    int numAtoms = 0, numCenters = 0, numCenterEntries = 0;
    bool centerOffsets = false;
    // Whether every block computes the centres itself (MaxCenterEntriesInBlock, MaxCentersInBlock), rather than
    // computeCenterPositions.
    bool centersInBlock = false;
    int numGlobals = 0, numParameterDerivatives = 0;
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
    // CoordinationNumberForce (per-entry numbers of A and their reductions; groups never swapped).
    bool numbers = false;
    int numReductions = 0;
    int numbersBlockSize = 0;          // threads of a block of the numbers' finish
    int numberParts = 0;               // blocks of its phases over the entries (a partial sum each)
    bool numbersCentred = false;       // a reduction of c_i - mean (an extra phase)
    // Neighbour list (every culled force has one).
    double skin = 0.0, listCutoff = 0.0;
    int numRowTiles = 0, listBlockSize = 0;
    int firstListCapacity = 0;         // chunks
};

} // namespace CoordinationPlugin

#endif /*COMMON_COORDINATION_PLAN_H_*/
