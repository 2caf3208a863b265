#include "pairs/CommonPairArrays.h"
#include <algorithm>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

/** Sorts the 64-bit keys (Hilbert index << 32 | slot) that give the slots' spatial order. */
class SlotSortTrait : public ComputeSortImpl::SortTrait {
    int getDataSize() const override { return 8; }
    int getKeySize() const override { return 8; }
    const char* getDataType() const override { return "mm_long"; }
    const char* getKeyType() const override { return "mm_long"; }
    const char* getMinKey() const override { return "((mm_long) 0)"; }
    const char* getMaxKey() const override { return "((mm_long) 0x3FFFFFFFFFFFFFFF)"; }
    const char* getMaxValue() const override { return "((mm_long) 0x3FFFFFFFFFFFFFFF)"; }
    const char* getSortKey() const override { return "value"; }
};

} // namespace

void CommonPairArrays::initialize(ComputeContext& cc, const CommonPairPlan& plan, const ResolvedPairGroups& groups) {
    typedef CommonPairPlan Plan;
    const int numA = plan.numA, numB = plan.numB, numUnique = plan.numUnique;
    const int mixedSize = (plan.mixedIsDouble ? sizeof(double) : sizeof(float));
    particlesA.initialize<int>(cc, std::max(numA, 1), "coordinationParticlesA");
    particlesB.initialize<int>(cc, std::max(numB, 1), "coordinationParticlesB");
    positionOfParticle.initialize<int>(cc, cc.getPaddedNumAtoms(), "coordinationPositionOfParticle");
    atomsA.initialize<int>(cc, std::max(numA, 1), "coordinationAtomsA");
    atomsB.initialize<int>(cc, std::max(numB, 1), "coordinationAtomsB");
    uniqueA.initialize<int>(cc, std::max(numA, 1), "coordinationUniqueA");
    uniqueB.initialize<int>(cc, std::max(numB, 1), "coordinationUniqueB");
    gradientBuffer.initialize<long long>(cc, 3 * std::max(plan.numGradientRows, 1), "coordinationGradient");
    cellOffsets.initialize<mm_int4>(cc, std::max(numUnique, 1) + (plan.centers.unwrapped ? plan.centers.numEntries : 0),
                                    "coordinationCellOffsets");
    cellOffsets.upload(vector<mm_int4>(cellOffsets.getSize(), mm_int4(0, 0, 0, 0)));
    partialSums.initialize(cc, std::max(plan.numPartials, 1), mixedSize, "coordinationPartialSums");
    results.initialize(cc, 3, mixedSize, "coordinationResults"); // s, dE/ds, E
    if (numA > 0) {
        particlesA.upload(groups.groupA);
        uniqueA.upload(groups.uniqueA);
    }
    if (numB > 0) {
        particlesB.upload(groups.groupB);
        uniqueB.upload(groups.uniqueB);
    }
    gradientBuffer.upload(vector<long long>(gradientBuffer.getSize(), 0));
    centers.initialize(cc, plan.centers, groups.centers, plan.useDouble, false, "coordination");
    if (plan.mode != PairSwitchingForce::Pair) {
        initializeSorted(cc, plan, sortedA, numA, "A");
        initializeSorted(cc, plan, sortedB, plan.mode == PairSwitchingForce::Dual ? numB : 0, "B");
    }
    listState.initialize<int>(cc, Plan::ListStateSize, "coordinationListState");
    listState.upload(vector<int>(Plan::ListStateSize, 0));
    chunkRows.initialize<int>(cc, plan.firstListCapacity, "coordinationChunkRows");
    chunkSlots.initialize<int>(cc, (size_t) plan.firstListCapacity * Plan::TileSize, "coordinationChunkSlots");
    partialFixed.initialize<long long>(cc, 2 * std::max(plan.numPartials, 1), "coordinationPartialFixed");
    partialFixed.upload(vector<long long>(partialFixed.getSize(), 0));
    nonFiniteFlags.initialize<int>(cc, 2, "coordinationNonFiniteFlags");
    nonFiniteFlags.upload(vector<int>(2, 0));
    if (plan.fusedFinish) {
        blocksDone.initialize<unsigned int>(cc, 1, "coordinationBlocksDone");
        blocksDone.upload(vector<unsigned int>(1, 0));
    }
}

void CommonPairArrays::initializeSorted(ComputeContext& cc, const CommonPairPlan& plan, SortedGroup& g, int numSlots,
                                        const string& name) {
    typedef CommonPairPlan Plan;
    const int real4Size = (plan.useDouble ? sizeof(mm_double4) : sizeof(mm_float4));
    g.numSlots = numSlots;
    g.numTiles = (numSlots + Plan::TileSize - 1) / Plan::TileSize;
    g.keys.initialize<long long>(cc, std::max(numSlots, 1), "coordinationKeys" + name);
    vector<long long> identity(g.keys.getSize());
    for (int i = 0; i < (int) identity.size(); i++)
        identity[i] = i;
    g.keys.upload(identity);
    g.sortedAtoms.initialize<int>(cc, std::max(numSlots, 1), "coordinationSortedAtoms" + name);
    g.sortedUniques.initialize<int>(cc, std::max(numSlots, 1), "coordinationSortedUniques" + name);
    g.sortedUniques.upload(vector<int>(g.sortedUniques.getSize(), 0));
    g.tileCenters.initialize(cc, std::max(g.numTiles, 1), real4Size, "coordinationTileCenters" + name);
    g.tileHalfExtents.initialize(cc, std::max(g.numTiles, 1), real4Size, "coordinationTileHalfExtents" + name);
    g.positions.initialize(cc, std::max(numSlots, 1), real4Size, "coordinationSortedPositions" + name);
    g.listPositions.initialize(cc, std::max(numSlots, 1), real4Size, "coordinationListPositions" + name);
    if (plan.useDouble)
        g.listPositions.upload(vector<mm_double4>(g.listPositions.getSize(), mm_double4(0, 0, 0, 0)));
    else
        g.listPositions.upload(vector<mm_float4>(g.listPositions.getSize(), mm_float4(0, 0, 0, 0)));
    if (plan.culling && numSlots > Plan::TileSize)
        g.sort = cc.createSort(new SlotSortTrait(), numSlots, false);
}

void CommonPairArrays::resizeList(int capacity) {
    chunkRows.resize(capacity);
    chunkSlots.resize((size_t) capacity * CommonPairPlan::TileSize);
}
