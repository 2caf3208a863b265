#include "CommonCoordinationArrays.h"
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

void CommonCoordinationArrays::initialize(ComputeContext& cc, const CommonCoordinationPlan& plan,
                                          const ResolvedCoordinationForce& force) {
    typedef CommonCoordinationPlan Plan;
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
    cellOffsets.initialize<mm_int4>(cc, std::max(numUnique, 1) + (plan.centerOffsets ? plan.numCenterEntries : 0),
                                    "coordinationCellOffsets");
    cellOffsets.upload(vector<mm_int4>(cellOffsets.getSize(), mm_int4(0, 0, 0, 0)));
    partialSums.initialize(cc, std::max(plan.numPartials, 1), mixedSize, "coordinationPartialSums");
    globals.initialize(cc, std::max(plan.numGlobals, 1), mixedSize, "coordinationGlobals");
    results.initialize(cc, 3, mixedSize, "coordinationResults"); // s, dE/ds, E
    if (numA > 0) {
        particlesA.upload(force.groupA);
        uniqueA.upload(force.uniqueA);
    }
    if (numB > 0) {
        particlesB.upload(force.groupB);
        uniqueB.upload(force.uniqueB);
    }
    gradientBuffer.upload(vector<long long>(gradientBuffer.getSize(), 0));
    if (plan.numCenters > 0)
        initializeCenters(cc, plan, force.centers);
    if (plan.mode != CoordinationForce::Pair) {
        initializeSorted(cc, plan, sortedA, numA, "A");
        initializeSorted(cc, plan, sortedB, plan.mode == CoordinationForce::Dual ? numB : 0, "B");
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
    if (plan.numbers) {
        const int realSize = (plan.useDouble ? sizeof(double) : sizeof(float));
        numbersFixed.initialize<long long>(cc, 2 * std::max(numA, 1), "coordinationNumbersFixed");
        numbersFixed.upload(vector<long long>(numbersFixed.getSize(), 0));
        numberValues.initialize(cc, std::max(numA, 1), mixedSize, "coordinationNumberValues");
        numberWeights.initialize(cc, std::max(numA, 1), realSize, "coordinationNumberWeights");
        vector<int> identity(std::max({numA, numB, 1}));
        for (int i = 0; i < (int) identity.size(); i++)
            identity[i] = i;
        rowOfSlotA.initialize<int>(cc, std::max(numA, 1), "coordinationRowOfSlotA");
        rowOfSlotA.upload(vector<int>(identity.begin(), identity.begin() + rowOfSlotA.getSize()));
        rowOfSlotB.initialize<int>(cc, std::max(numB, 1), "coordinationRowOfSlotB");
        rowOfSlotB.upload(vector<int>(identity.begin(), identity.begin() + rowOfSlotB.getSize()));
        numberResults.initialize(cc, plan.numReductions + 1, mixedSize, "coordinationNumberResults");
        const int parts = plan.numberParts, reductions = std::max(plan.numReductions, 1);
        numberPartialFixed.initialize<long long>(cc, 2 * parts, "coordinationNumberPartialFixed");
        numberPartialSums.initialize(cc, 2 * reductions * parts, mixedSize, "coordinationNumberPartialSums");
        numberPartialIndices.initialize<int>(cc, reductions * parts, "coordinationNumberPartialIndices");
        numberCoefficients.initialize(cc, 3 * reductions + plan.numParameterDerivatives + 1, mixedSize,
                                      "coordinationNumberCoefficients");
        numberIndices.initialize<int>(cc, reductions, "coordinationNumberIndices");
        numberState.initialize<int>(cc, 2, "coordinationNumberState");
        numberState.upload(vector<int>(2, 0));
    }
    if (plan.numParameterDerivatives > 0) {
        parameterDerivativeIndices.initialize<int>(cc, plan.numParameterDerivatives, "coordinationParameterDerivativeIndices");
        parameterDerivativePlaceholder.initialize(cc, plan.numParameterDerivatives, mixedSize, "coordinationParameterDerivatives");
    }
}

void CommonCoordinationArrays::initializeCenters(ComputeContext& cc, const CommonCoordinationPlan& plan,
                                                 const ResolvedCenters& centers) {
    vector<int> particles, ofEntry, firstEntry, whole;
    vector<double> forceWeights, differenceWeights;
    for (int k = 0; k < centers.size(); k++) {
        firstEntry.push_back(particles.size());
        whole.push_back(centers.makeWhole[k] ? 1 : 0);
        particles.insert(particles.end(), centers.particles[k].begin(), centers.particles[k].end());
        ofEntry.insert(ofEntry.end(), centers.particles[k].size(), k);
        forceWeights.insert(forceWeights.end(), centers.forceWeights[k].begin(), centers.forceWeights[k].end());
        differenceWeights.insert(differenceWeights.end(), centers.differenceWeights[k].begin(),
                                 centers.differenceWeights[k].end());
    }
    firstEntry.push_back(particles.size());
    const int entries = particles.size();
    centerParticles.initialize<int>(cc, entries, "coordinationCenterParticles");
    centerParticles.upload(particles);
    centerAtoms.initialize<int>(cc, entries, "coordinationCenterAtoms");
    centerAtoms.upload(particles); // translated at every reordering, the first included
    centerOfEntry.initialize<int>(cc, entries, "coordinationCenterOfEntry");
    centerOfEntry.upload(ofEntry);
    centerFirstEntry.initialize<int>(cc, firstEntry.size(), "coordinationCenterFirstEntry");
    centerFirstEntry.upload(firstEntry);
    centerWhole.initialize<int>(cc, whole.size(), "coordinationCenterWhole");
    centerWhole.upload(whole);
    const int realSize = (plan.useDouble ? sizeof(double) : sizeof(float));
    const int real4Size = (plan.useDouble ? sizeof(mm_double4) : sizeof(mm_float4));
    centerForceWeights.initialize(cc, entries, realSize, "coordinationCenterForceWeights");
    centerDifferenceWeights.initialize(cc, entries, realSize, "coordinationCenterDifferenceWeights");
    if (plan.useDouble) {
        centerForceWeights.upload(forceWeights);
        centerDifferenceWeights.upload(differenceWeights);
    }
    else {
        centerForceWeights.upload(vector<float>(forceWeights.begin(), forceWeights.end()));
        centerDifferenceWeights.upload(vector<float>(differenceWeights.begin(), differenceWeights.end()));
    }
    centerPositions.initialize(cc, centers.size(), real4Size, "coordinationCenterPositions");
}

void CommonCoordinationArrays::initializeSorted(ComputeContext& cc, const CommonCoordinationPlan& plan, SortedGroup& g,
                                                int numSlots, const string& name) {
    typedef CommonCoordinationPlan Plan;
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

void CommonCoordinationArrays::resizeList(int capacity) {
    chunkRows.resize(capacity);
    chunkSlots.resize((size_t) capacity * CommonCoordinationPlan::TileSize);
}
