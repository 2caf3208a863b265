#include "pairs/CommonPairPlan.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <cmath>
#include <string>

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

/** Split the pairs into blocks (pairWorkUnits, pairBlockSize, cullChunk, numPartials) and size the finish. */
void decomposeWork(CommonPairPlan& p, ComputeContext& cc) {
    typedef CommonPairPlan Plan;
    if (p.mode == PairSwitchingForce::Pair) {
        p.pairBlockSize = Plan::PairBlockSize;
        p.pairWorkUnits = std::max(p.numA, 1);
    }
    else {
        p.pairBlockSize = Plan::TileSize * Plan::WarpsPerBlock;
        // Culling: a block checks a chunk of candidate tiles per iteration (at most one per thread, fewer
        // when there are too few tiles to give every block of the grid a chunk); otherwise one tile per warp.
        long long perGroup = Plan::WarpsPerBlock;
        if (p.culling) {
            perGroup = (p.numTiles + cc.getNumThreadBlocks() - 1) / cc.getNumThreadBlocks();
            perGroup = (perGroup + Plan::WarpsPerBlock - 1) / Plan::WarpsPerBlock * Plan::WarpsPerBlock;
            perGroup = std::min<long long>(std::max<long long>(perGroup, Plan::WarpsPerBlock), p.pairBlockSize);
            p.cullChunk = (int) perGroup;
        }
        long long groupsNeeded = (p.numTiles + perGroup - 1) / perGroup;
        p.pairWorkUnits = (int) std::min<long long>(std::max<long long>(groupsNeeded, 1), cc.getNumThreadBlocks()) *
                          p.pairBlockSize;
    }
    // The platforms launch min(ceil(workUnits/blockSize), numThreadBlocks) blocks.
    p.numPartials = std::min((p.pairWorkUnits + p.pairBlockSize - 1) / p.pairBlockSize, cc.getNumThreadBlocks());
    // The separate finish: a thread per gradient row (the platform caps the blocks; a thread then takes several
    // rows, FinishBatch at a time).
    p.finishWorkUnits = std::max({p.numSlotRows, p.centers.numEntries, Plan::FinishBlockSize});
}

} // namespace

CommonPairPlan CommonPairPlan::create(const ResolvedPairGroups& groups, ComputeContext& cc, bool hasWarpShuffles) {
    CommonPairPlan p;
    p.mode = groups.mode;
    p.periodic = groups.periodic;
    p.useDouble = cc.getUseDoublePrecision();
    p.mixedIsDouble = cc.getUseDoublePrecision() || cc.getUseMixedPrecision();
    p.numA = groups.groupA.size();
    p.numB = groups.groupB.size();
    p.numUnique = groups.uniqueParticles.size();
    p.numSlotRows = p.numA + (p.mode == PairSwitchingForce::Self ? 0 : p.numB);
    p.centers = CommonCenterLayout::create(groups.centers, p.periodic);
    p.numGradientRows = p.numSlotRows + 2 * p.centers.numCenters;
    p.paddedNumAtoms = cc.getPaddedNumAtoms();
    p.tilesA = (p.numA + TileSize - 1) / TileSize;
    p.tilesB = (p.numB + TileSize - 1) / TileSize;
    if (p.mode == PairSwitchingForce::Self)
        p.numTiles = (long long) p.tilesA * (p.tilesA + 1) / 2;
    else if (p.mode == PairSwitchingForce::Dual)
        p.numTiles = (long long) p.tilesA * p.tilesB;
    if (p.numTiles > 2000000000LL)
        throw OpenMMException("CoordinationForce: the groups are too large for the GPU kernel (" +
                              std::to_string(p.numTiles) + " tiles of 32x32 pairs; at most 2e9)");
    p.cutoff = groups.getCutoff();
    p.hasCutoff = groups.switching.hasCutoff;
    // Culling pays once there are more tiles than one pass of every warp on the device; below that the
    // extra launches (bounds, sorting) would cost more than the tiles they skip.
    p.culling = p.hasCutoff && p.mode != PairSwitchingForce::Pair &&
                p.numTiles > (long long) cc.getNumThreadBlocks() * WarpsPerBlock;
    decomposeWork(p, cc);
    if (p.culling) {
        // Padded so that rounding in the bounding boxes never drops a pair the pair kernel would count.
        p.paddedCutoff = p.cutoff * (1.0 + 1e-5) + 1e-4;
        p.skin = std::max(MinimumSkin, SkinFraction * p.cutoff);
        p.listCutoff = (p.cutoff + p.skin) * (1.0 + 1e-5) + 1e-4;
    }
    // Sort cells of a non-periodic force: a tenth of the cutoff (at least 0.02 nm).
    p.sortCell = (p.hasCutoff ? std::max(0.02, p.cutoff / 10) : 0.1);
    p.fusedFinish = hasWarpShuffles && std::max(p.numSlotRows, p.centers.numEntries) <= MaxFusedRows && !p.culling;
    // The neighbour list: every force whose tiles are culled has one. Its first capacity is a guess (8
    // chunks per row tile); the host reads the size of the first build and, after each re-sort, the size
    // the last build needed, and grows it.
    p.numRowTiles = p.tilesA;
    p.listBlockSize = (hasWarpShuffles ? TileSize * WarpsPerBlock : TileSize); // one warp per block without shuffles
    p.firstListCapacity = (p.culling ? std::max(64, 8 * p.tilesA) : 1);
    return p;
}
