#include "pairs/CommonPairTraversal.h"
#include "pairs/CommonPairProgram.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

typedef CommonPairPlan Plan;
typedef CommonPairKernelSet::GroupKernels GroupKernels;

/**
 * The particle of each row of cellOffsets (-1: none): the unique members' where the force is not periodic (a
 * centre's row unused), then the centres' member entries' where their positions are unwrapped.
 */
vector<int> offsetParticlesOf(const CommonPairPlan& plan, const ResolvedPairGroups& groups) {
    vector<int> particles;
    if (!plan.periodic)
        for (int member : groups.uniqueParticles)
            particles.push_back(groups.centers.isCenter(member) ? -1 : member);
    else if (plan.centers.unwrapped)
        particles.assign(std::max(plan.numUnique, 1), -1);
    if (plan.centers.unwrapped) {
        particles.resize(std::max(plan.numUnique, 1), -1); // the centres' entries start at CENTER_OFFSET_BASE
        for (const vector<int>& centerParticles : groups.centers.particles)
            particles.insert(particles.end(), centerParticles.begin(), centerParticles.end());
    }
    return particles;
}

/**
 * Dual's sum is symmetric in A and B. With a cutoff the larger group makes the row tiles: they are then compact (a
 * few tiles of a small group spread over the box would list nearly all of the other group), and the list build has
 * a warp per row tile to spread over the device. Only where the body's result is symmetric in the groups.
 */
bool exchangeGroups(const ResolvedPairGroups& groups, const CommonPairBody& body) {
    return groups.mode == PairSwitchingForce::Dual && groups.groupB.size() > groups.groupA.size() &&
           groups.switching.hasCutoff && body.symmetricInGroups();
}

} // namespace

CommonPairTraversal::CommonPairTraversal(ComputeContext& cc, const ResolvedPairGroups& userGroups, CommonPairBody& body,
                                         CommonEnergyArrays& energy, bool hasWarpShuffles)
    : cc(cc) {
    const bool swapped = exchangeGroups(userGroups, body);
    ResolvedPairGroups exchanged(userGroups);
    if (swapped) {
        std::swap(exchanged.groupA, exchanged.groupB);
        std::swap(exchanged.uniqueA, exchanged.uniqueB);
    }
    const ResolvedPairGroups& groups = (swapped ? exchanged : userGroups);
    plan = Plan::create(groups, cc, hasWarpShuffles);
    plan.groupsSwapped = swapped;
    plan.fusedFinish = plan.fusedFinish && body.allowsFusedFinish();
    numSlotPairs = groups.getNumSlotPairs();
    state = CommonPairStepState(plan);
    arrays.initialize(cc, plan, groups);
    cellOffsets = CommonCellOffsets(offsetParticlesOf(plan, groups), arrays.cellOffsets.getSize());
    body.initialize(cc, plan);
    ComputeProgram program = CommonPairProgram::compile(cc, plan, groups, arrays, body, switchingPath);
    kernels.create(cc, program, plan, arrays, energy, body);
    body.createKernels(cc, program, plan, arrays);
}

void CommonPairTraversal::followAtomOrder() {
    cellOffsets.followAtomOrder(cc);
    kernels.invertKernel->execute(cc.getNumAtoms());
    kernels.translateKernel->execute(std::max({plan.numA, plan.numB, plan.centers.numEntries, 1}));
    // The sorted order is of slots, so it survives a reordering; the atoms it points at are gathered again.
    for (GroupKernels* g : {&kernels.groupA, &kernels.groupB})
        if (g->gatherKernel && g->sorted->numSlots > 0)
            g->gatherKernel->execute(g->sorted->numSlots);
}

int CommonPairTraversal::prepare(bool computeGradient, bool addEnergy) {
    CommonPairKernelSet& k = kernels;
    cellOffsets.update(cc, arrays.cellOffsets);
    const CommonPeriodicBox box = CommonPeriodicBox::current(cc);
    const int parity = state.listParity;
    // The centres' positions, before any kernel reads a slot's (small centres: each block of those kernels).
    arrays.centers.computePositions(box);
    if (plan.culling)
        prepareTiles(box);
    k.pairKernel->setArg(k.pairParityArg, parity);
    box.setArgs(*k.pairKernel, k.pairBoxArg, plan.useDouble);
    setPairArguments(computeGradient, addEnergy);
    return parity;
}

void CommonPairTraversal::setPairArguments(bool computeGradient, bool addEnergy) {
    kernels.pairKernel->setArg(kernels.pairComputeGradientArg, computeGradient ? 1 : 0);
    if (plan.fusedFinish)
        kernels.pairKernel->setArg(kernels.pairAddEnergyArg, addEnergy ? 1 : 0);
}

void CommonPairTraversal::runPairKernel() {
    kernels.pairKernel->execute(plan.pairWorkUnits, plan.pairBlockSize);
}

void CommonPairTraversal::finish(bool addEnergy, bool computeGradient, int parity) {
    if (plan.fusedFinish)
        return; // the pair kernel's last block did the finish
    CommonPairKernelSet& k = kernels;
    k.finishKernel->setArg(k.finishAddEnergyArg, addEnergy ? 1 : 0);
    k.finishKernel->setArg(k.finishComputeGradientArg, computeGradient ? 1 : 0);
    k.finishKernel->setArg(k.finishParityArg, parity);
    if (computeGradient)
        k.finishKernel->execute(plan.finishWorkUnits, Plan::FinishBlockSize);
    else
        k.finishKernel->execute(Plan::FinishBlockSize, Plan::FinishBlockSize);
}

void CommonPairTraversal::endEvaluation() {
    state.listParity ^= 1;
}

void CommonPairTraversal::prepareTiles(const CommonPeriodicBox& box) {
    // Spatial order (now and then) and the tiles' bounding boxes (every evaluation).
    CommonPairStepState& s = state;
    CommonPairKernelSet& k = kernels;
    bool rebuild = s.forceListRebuild;
    if (s.needSort || ++s.evaluationsSinceSort >= Plan::SortInterval) {
        sortSlots(box);
        s.needSort = false;
        s.evaluationsSinceSort = 0;
        rebuild = true; // the slots moved
        s.checkListSize = true;
    }
    else if (s.checkListSize)
        rebuild = checkListSize() || rebuild;
    // The list's distances are minimum images in the box it was built in; a triclinic box is not listed.
    const bool useList = !box.triclinic;
    if (!(box.a == s.lastBox[0] && box.b == s.lastBox[1] && box.c == s.lastBox[2])) {
        rebuild = true;
        s.lastBox[0] = box.a;
        s.lastBox[1] = box.b;
        s.lastBox[2] = box.c;
    }
    s.forceListRebuild = !useList; // a list left unused goes stale
    for (GroupKernels* g : {&k.groupA, &k.groupB}) {
        if (!g->boundsKernel || g->sorted->numSlots == 0)
            continue;
        box.setArgs(*g->boundsKernel, g->boundsBoxArg, plan.useDouble);
        g->boundsKernel->setArg(g->boundsParityArg, s.listParity);
        g->boundsKernel->setArg(g->boundsForceRebuildArg, rebuild ? 1 : 0);
        g->boundsKernel->execute(g->sorted->numTiles * Plan::TileSize, Plan::BoundsBlockSize);
    }
    s.listUsed = useList;
    if (useList)
        buildList(box);
    k.pairKernel->setArg(k.pairUseListArg, useList ? 1 : 0);
}

void CommonPairTraversal::sortSlots(const CommonPeriodicBox& box) {
    for (GroupKernels* g : {&kernels.groupA, &kernels.groupB}) {
        if (g->sorted == nullptr || !g->sorted->sort)
            continue;
        box.setArgs(*g->keyKernel, g->keyBoxArg, plan.useDouble);
        g->keyKernel->execute(g->sorted->numSlots);
        g->sorted->sort->sort(g->sorted->keys);
        g->gatherKernel->execute(g->sorted->numSlots);
    }
}

void CommonPairTraversal::buildList(const CommonPeriodicBox& box) {
    CommonPairStepState& s = state;
    CommonPairKernelSet& k = kernels;
    k.buildKernel->setArg(k.buildParityArg, s.listParity);
    box.setArgs(*k.buildKernel, k.buildBoxArg, plan.useDouble);
    const int buildThreads = std::max(1, plan.numRowTiles + arrays.sortedB.numTiles) * Plan::TileSize;
    k.buildKernel->execute(buildThreads, plan.listBlockSize);
    if (!s.firstListBuild)
        return;
    // The first list of the context: read its size now (one synchronization per context) and, if the first guess
    // was too small, build it again with room, so that the first evaluation already uses the list (the culling
    // fallback groups pairs into tiles differently, so the last bits of s would change once the list took over).
    s.firstListBuild = false;
    s.checkListSize = false; // sized for this very build: no second read after the re-sort
    vector<int> listState;
    arrays.listState.download(listState);
    if (listState[Plan::ListStateBuilt] > s.listCapacity) {
        growList(listState[Plan::ListStateBuilt]);
        listState[Plan::ListStateBuilt] = 0; // this evaluation's rebuild flag stays up
        arrays.listState.upload(listState);
        k.buildKernel->execute(buildThreads, plan.listBlockSize);
    }
}

bool CommonPairTraversal::checkListSize() {
    // One small download (a host synchronization), once after each re-sort: how many chunks the last build needed.
    // If the list had no room for them, the tile kernel has been culling instead (right, but slower); grow it and
    // rebuild. Lists built between re-sorts that overflow do the same until then.
    vector<int> listState;
    arrays.listState.download(listState);
    const int needed = Plan::listChunksOf(listState, state.listParity ^ 1);
    state.checkListSize = false;
    if (needed <= state.listCapacity)
        return false;
    growList(needed);
    state.checkListSize = true; // confirm at the next evaluation
    return true;
}

void CommonPairTraversal::growList(int needed) {
    state.listCapacity = needed + needed / 4 + plan.numRowTiles;
    arrays.resizeList(state.listCapacity);
    kernels.setListArgs(arrays, state.listCapacity);
}

long long CommonPairTraversal::countCandidatePairs(const std::function<void()>& evaluate) {
    // Without culling, or in a triclinic box (every tile interacts), the tile kernel visits every pair. A list that
    // overflowed (the tile kernel then culls tiles instead) is grown by the next evaluation, which is told to read the
    // size the build needed.
    for (int attempt = 0; attempt < 3; attempt++) {
        evaluate();
        if (!plan.culling || !state.listUsed)
            return numSlotPairs;
        const long long listed = countListedPairs();
        if (listed >= 0)
            return listed;
        state.checkListSize = true;
    }
    throw OpenMMException("CoordinationForce: the GPU neighbour list was still incomplete after 3 evaluations");
}

long long CommonPairTraversal::countListedPairs() {
    const int parity = state.listParity ^ 1; // the evaluation flipped it after the tile kernel
    vector<int> listState;
    arrays.listState.download(listState);
    const int chunks = Plan::listChunksOf(listState, parity);
    if (chunks > state.listCapacity)
        return -1;
    auto rowsOf = [&](int rowTile) { return (long long) std::min(Plan::TileSize, plan.numA - rowTile * Plan::TileSize); };
    long long pairs = 0;
    if (plan.mode == PairSwitchingForce::Self)
        for (int rowTile = 0; rowTile < plan.tilesA; rowTile++)
            pairs += rowsOf(rowTile) * (rowsOf(rowTile) - 1) / 2; // the diagonal tiles
    if (chunks == 0)
        return pairs;
    vector<int> rows, slots;
    arrays.chunkRows.download(rows);
    arrays.chunkSlots.download(slots);
    for (int chunk = 0; chunk < chunks; chunk++) {
        long long columns = 0;
        for (int lane = 0; lane < Plan::TileSize; lane++)
            columns += (slots[(size_t) chunk * Plan::TileSize + lane] >= 0 ? 1 : 0);
        pairs += rowsOf(rows[chunk]) * columns;
    }
    return pairs;
}
