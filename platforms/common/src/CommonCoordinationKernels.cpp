#include "CommonCoordinationKernels.h"
#include "CommonCoordinationArrays.h"
#include "CommonCoordinationKernelSet.h"
#include "CommonCoordinationPlan.h"
#include "CommonCoordinationProgram.h"
#include "CommonCoordinationStepState.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ContextSelector.h"
#include "openmm/internal/ContextImpl.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {
typedef CommonCoordinationPlan Plan;
typedef CommonCoordinationKernelSet::GroupKernels GroupKernels;
} // namespace

namespace {

/**
 * The particle of each row of cellOffsets (-1: none): the unique members' where the force is not periodic (a
 * centre's row unused), then the centres' member entries' where plan.centerOffsets.
 */
vector<int> offsetParticlesOf(const CommonCoordinationPlan& plan, const ResolvedCoordinationForce& force) {
    vector<int> particles;
    if (!plan.periodic)
        for (int member : force.uniqueParticles)
            particles.push_back(force.centers.isCenter(member) ? -1 : member);
    else if (plan.centerOffsets)
        particles.assign(std::max(plan.numUnique, 1), -1);
    if (plan.centerOffsets) {
        particles.resize(std::max(plan.numUnique, 1), -1); // the centres' entries start at CENTER_OFFSET_BASE
        for (const vector<int>& centerParticles : force.centers.particles)
            particles.insert(particles.end(), centerParticles.begin(), centerParticles.end());
    }
    return particles;
}

} // namespace

struct CommonCalcCoordinationForceKernel::Built {
    Built(const CommonCoordinationPlan& plan, const ResolvedCoordinationForce& force)
        : plan(plan), offsetParticles(offsetParticlesOf(plan, force)), numSlotPairs(force.getNumSlotPairs()),
          state(plan) {}
    const CommonCoordinationPlan plan;
    const vector<int> offsetParticles; // the particle of each row of cellOffsets (updateCellOffsets looks them up)
    const long long numSlotPairs;      // every pair of the sum (what the tile kernel visits without a list)
    CommonCoordinationArrays arrays;
    CommonCoordinationKernelSet kernels;
    CommonCoordinationStepState state;
    SwitchingPath switchingPath = SwitchingPath::Distance; // the path of the compiled switching function
};

class CommonCalcCoordinationForceKernel::ReorderListener : public ComputeContext::ReorderListener {
public:
    explicit ReorderListener(CommonCalcCoordinationForceKernel& owner) : owner(owner) {}
    void execute() override {
        owner.followAtomOrder();
    }

private:
    CommonCalcCoordinationForceKernel& owner;
};

CommonCalcCoordinationForceKernel::CommonCalcCoordinationForceKernel(const string& name, const Platform& platform,
                                                                     ComputeContext& cc, bool hasWarpShuffles)
    : CalcCoordinationForceKernel(name, platform), cc(cc), hasWarpShuffles(hasWarpShuffles) {}

CommonCalcCoordinationForceKernel::~CommonCalcCoordinationForceKernel() {}

void CommonCalcCoordinationForceKernel::initialize(const System& system, const ResolvedCoordinationForce& force) {
    ContextSelector selector(cc);
    globalParameterNames = force.globalParameterNames;
    energyParameterDerivativeNames = force.energyParameterDerivativeNames;
    for (const string& name : energyParameterDerivativeNames)
        cc.addEnergyParameterDerivative(name);
    build(force);
    cc.addReorderListener(new ReorderListener(*this));
}

void CommonCalcCoordinationForceKernel::build(const ResolvedCoordinationForce& force) {
    // Dual's sum is symmetric in A and B. With a cutoff the larger group makes the row tiles: they are then
    // compact (a few tiles of a small group spread over the box would list nearly all of the other group),
    // and the list build has a warp per row tile to spread over the device.
    // (Not for per-entry numbers, which belong to A's entries.)
    if (force.mode == CoordinationForce::Dual && force.groupB.size() > force.groupA.size() && force.switching.hasCutoff &&
        !force.numbers.enabled) {
        ResolvedCoordinationForce swapped(force);
        std::swap(swapped.groupA, swapped.groupB);
        std::swap(swapped.uniqueA, swapped.uniqueB);
        buildFor(swapped, true);
    }
    else
        buildFor(force, false);
}

void CommonCalcCoordinationForceKernel::buildFor(const ResolvedCoordinationForce& force, bool groupsSwapped) {
    // Built afresh and swapped in only when complete: if anything throws, the previous build stays.
    Plan plan = Plan::create(force, cc, hasWarpShuffles);
    plan.groupsSwapped = groupsSwapped;
    std::unique_ptr<Built> next(new Built(plan, force));
    next->arrays.initialize(cc, next->plan, force);
    ComputeProgram program = CommonCoordinationProgram::compile(cc, next->plan, force, next->switchingPath);
    next->kernels.create(cc, program, next->plan, next->arrays);
    built = std::move(next);
    followAtomOrder();
    globalParameterValues.clear(); // upload on the next evaluation
}

SwitchingPath CommonCalcCoordinationForceKernel::getSwitchingPath() const {
    return built->switchingPath;
}

void CommonCalcCoordinationForceKernel::followAtomOrder() {
    if (!built)
        return;
    ContextSelector selector(cc);
    const Plan& plan = built->plan;
    CommonCoordinationKernelSet& k = built->kernels;
    if (!built->offsetParticles.empty()) {
        // updateCellOffsets() looks up the force's atoms in OpenMM's host-side cell offsets.
        const vector<int>& order = cc.getAtomIndex();
        vector<int>& positionOfParticle = built->state.hostPositionOfParticle;
        positionOfParticle.assign(order.size(), 0);
        for (int i = 0; i < (int) order.size(); i++)
            positionOfParticle[order[i]] = i;
    }
    k.invertKernel->execute(cc.getNumAtoms());
    k.translateKernel->execute(std::max({plan.numA, plan.numB, plan.numCenterEntries, 1}));
    // The sorted order is of slots, so it survives a reordering; the atoms it points at are gathered again.
    for (GroupKernels* g : {&k.groupA, &k.groupB})
        if (g->gatherKernel && g->sorted->numSlots > 0)
            g->gatherKernel->execute(g->sorted->numSlots);
}

void CommonCalcCoordinationForceKernel::updateCellOffsets() {
    // Only a force without periodic boundary conditions needs them (and centres whose particles' positions are
    // unwrapped). The offsets change when OpenMM wraps atoms (at reorders, on setPositions): compare on the host,
    // upload only on a change.
    const vector<int>& offsetParticles = built->offsetParticles;
    CommonCoordinationStepState& s = built->state;
    if (offsetParticles.empty())
        return;
    const vector<mm_int4>& offsets = cc.getPosCellOffsets();
    bool changed = false;
    for (int i = 0; i < (int) offsetParticles.size(); i++) {
        if (offsetParticles[i] < 0)
            continue;
        const mm_int4& now = offsets[s.hostPositionOfParticle[offsetParticles[i]]];
        mm_int4& stored = s.hostCellOffsets[i];
        if (now.x != stored.x || now.y != stored.y || now.z != stored.z) {
            stored = mm_int4(now.x, now.y, now.z, 0);
            changed = true;
        }
    }
    if (changed)
        built->arrays.cellOffsets.upload(s.hostCellOffsets);
}

void CommonCalcCoordinationForceKernel::updateGlobalParameters(ContextImpl& context) {
    vector<double> values;
    for (const string& name : globalParameterNames)
        values.push_back(context.getParameter(name));
    if (values == globalParameterValues || values.empty())
        return;
    if (!built->plan.mixedIsDouble)
        for (int i = 0; i < (int) values.size(); i++)
            if (std::isfinite(values[i]) && std::fabs(values[i]) > std::numeric_limits<float>::max())
                throw OpenMMException("CoordinationForce: global parameter '" + globalParameterNames[i] + "' is " +
                                      numberText(values[i]) + ", beyond single precision's range (" +
                                      numberText(std::numeric_limits<float>::max()) +
                                      "); use a smaller value, or the platform's mixed or double precision");
    globalParameterValues = values;
    if (built->plan.mixedIsDouble)
        built->arrays.globals.upload(values);
    else
        built->arrays.globals.upload(vector<float>(values.begin(), values.end()));
}

bool CommonCalcCoordinationForceKernel::checkListSize() {
    // One small download (a host synchronization), once after each re-sort: how many chunks the last
    // build needed. If the list had no room for them, the tile kernel has been culling instead (right,
    // but slower); grow it and rebuild. Lists built between re-sorts that overflow do the same until then.
    CommonCoordinationStepState& s = built->state;
    vector<int> state;
    built->arrays.listState.download(state);
    const int needed = Plan::listChunksOf(state, s.listParity ^ 1);
    s.checkListSize = false;
    if (needed <= s.listCapacity)
        return false;
    growList(needed);
    s.checkListSize = true; // confirm at the next evaluation
    return true;
}

void CommonCalcCoordinationForceKernel::growList(int needed) {
    CommonCoordinationStepState& s = built->state;
    s.listCapacity = needed + needed / 4 + built->plan.numRowTiles;
    built->arrays.resizeList(s.listCapacity);
    built->kernels.setListArgs(built->arrays, s.listCapacity);
}

int CommonCalcCoordinationForceKernel::preparePairKernel(bool computeGradient, bool addEnergy) {
    const Plan& plan = built->plan;
    CommonCoordinationKernelSet& k = built->kernels;
    if (cc.getNumContexts() > 1) {
        // With several devices OpenMM clears this device's force and energy buffers from a worker
        // thread: let that finish before our kernels are queued, or it could erase their results.
        cc.getWorkThread().flush();
    }
    updateCellOffsets();
    const CommonCoordinationBox box = CommonCoordinationBox::current(cc);
    const int parity = built->state.listParity;
    if (plan.numCenters > 0 && !plan.centersInBlock) {
        // The centres' positions, before any kernel reads a slot's (small centres: each block of those kernels).
        box.setArgs(*k.centerKernel, k.centerBoxArg, plan.useDouble);
        k.centerKernel->execute(plan.numCenters * Plan::CenterBlockSize, Plan::CenterBlockSize);
    }
    if (plan.culling)
        prepareTiles(box);
    k.pairKernel->setArg(k.pairComputeGradientArg, computeGradient ? 1 : 0);
    k.pairKernel->setArg(k.pairParityArg, parity);
    box.setArgs(*k.pairKernel, k.pairBoxArg, plan.useDouble);
    if (plan.fusedFinish)
        k.pairKernel->setArg(k.pairAddEnergyArg, addEnergy ? 1 : 0);
    return parity;
}

void CommonCalcCoordinationForceKernel::launch(bool computeGradient, bool addEnergy) {
    const Plan& plan = built->plan;
    CommonCoordinationKernelSet& k = built->kernels;
    if (plan.numbers) {
        launchNumbers(computeGradient, addEnergy);
        return;
    }
    const int parity = preparePairKernel(computeGradient, addEnergy);
    k.pairKernel->execute(plan.pairWorkUnits, plan.pairBlockSize);
    built->state.listParity ^= 1;
    if (plan.fusedFinish)
        return; // the pair kernel's last block did the finish
    k.finishKernel->setArg(k.finishAddEnergyArg, addEnergy ? 1 : 0);
    k.finishKernel->setArg(k.finishComputeGradientArg, computeGradient ? 1 : 0);
    k.finishKernel->setArg(k.finishParityArg, parity);
    if (computeGradient)
        k.finishKernel->execute(plan.finishWorkUnits, Plan::FinishBlockSize);
    else
        k.finishKernel->execute(Plan::FinishBlockSize, Plan::FinishBlockSize);
}

void CommonCalcCoordinationForceKernel::launchNumbers(bool computeForces, bool addEnergy) {
    // Pass 1 (the numbers), their finish (reductions, energy, weights), and with forces pass 2 and the force finish.
    const Plan& plan = built->plan;
    CommonCoordinationKernelSet& k = built->kernels;
    const int parity = preparePairKernel(false, addEnergy);
    k.pairKernel->setArg(k.pairNumbersPassArg, 1);
    k.pairKernel->execute(plan.pairWorkUnits, plan.pairBlockSize);
    if (!plan.fusedFinish) {
        const int blockSize = plan.numbersBlockSize, partThreads = plan.numberParts * blockSize;
        k.numberSumsKernel->setArg(k.numberSumsParityArg, parity);
        k.numberSumsKernel->execute(partThreads, blockSize);
        if (plan.numbersCentred)
            k.centredSumsKernel->execute(partThreads, blockSize);
        k.numbersEnergyKernel->setArg(k.numbersEnergyParityArg, parity);
        k.numbersEnergyKernel->execute(blockSize, blockSize);
        k.numberWeightsKernel->execute(partThreads, blockSize);
        k.addNumbersEnergyKernel->setArg(k.addNumbersEnergyArg, addEnergy ? 1 : 0);
        k.addNumbersEnergyKernel->execute(blockSize, blockSize);
    }
    if (computeForces) {
        k.pairKernel->setArg(k.pairNumbersPassArg, 2);
        k.pairKernel->setArg(k.pairComputeGradientArg, 1);
        if (plan.fusedFinish)
            k.pairKernel->setArg(k.pairAddEnergyArg, 0);
        k.pairKernel->execute(plan.pairWorkUnits, plan.pairBlockSize);
        if (!plan.fusedFinish) {
            k.finishKernel->setArg(k.finishAddEnergyArg, 0);
            k.finishKernel->setArg(k.finishComputeGradientArg, 1);
            k.finishKernel->setArg(k.finishParityArg, parity);
            k.finishKernel->execute(plan.finishWorkUnits, Plan::FinishBlockSize);
        }
    }
    built->state.listParity ^= 1;
}

void CommonCalcCoordinationForceKernel::prepareTiles(const CommonCoordinationBox& box) {
    // Spatial order (now and then) and the tiles' bounding boxes (every evaluation).
    CommonCoordinationStepState& s = built->state;
    CommonCoordinationKernelSet& k = built->kernels;
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
        box.setArgs(*g->boundsKernel, g->boundsBoxArg, built->plan.useDouble);
        g->boundsKernel->setArg(g->boundsParityArg, s.listParity);
        g->boundsKernel->setArg(g->boundsForceRebuildArg, rebuild ? 1 : 0);
        g->boundsKernel->execute(g->sorted->numTiles * Plan::TileSize, Plan::BoundsBlockSize);
    }
    s.listUsed = useList;
    if (useList)
        buildList(box);
    k.pairKernel->setArg(k.pairUseListArg, useList ? 1 : 0);
}

void CommonCalcCoordinationForceKernel::sortSlots(const CommonCoordinationBox& box) {
    CommonCoordinationKernelSet& k = built->kernels;
    for (GroupKernels* g : {&k.groupA, &k.groupB}) {
        if (g->sorted == nullptr || !g->sorted->sort)
            continue;
        box.setArgs(*g->keyKernel, g->keyBoxArg, built->plan.useDouble);
        g->keyKernel->execute(g->sorted->numSlots);
        g->sorted->sort->sort(g->sorted->keys);
        g->gatherKernel->execute(g->sorted->numSlots);
    }
}

void CommonCalcCoordinationForceKernel::buildList(const CommonCoordinationBox& box) {
    const Plan& plan = built->plan;
    CommonCoordinationStepState& s = built->state;
    CommonCoordinationKernelSet& k = built->kernels;
    k.buildKernel->setArg(k.buildParityArg, s.listParity);
    box.setArgs(*k.buildKernel, k.buildBoxArg, plan.useDouble);
    const int buildThreads = std::max(1, plan.numRowTiles + built->arrays.sortedB.numTiles) * Plan::TileSize;
    k.buildKernel->execute(buildThreads, plan.listBlockSize);
    if (!s.firstListBuild)
        return;
    // The first list of the context: read its size now (one synchronization per context) and, if the
    // first guess was too small, build it again with room, so that the first evaluation already uses
    // the list (the culling fallback groups pairs into tiles differently, so the last bits of s would
    // change once the list took over).
    s.firstListBuild = false;
    s.checkListSize = false; // sized for this very build: no second read after the re-sort
    vector<int> state;
    built->arrays.listState.download(state);
    if (state[Plan::ListStateBuilt] > s.listCapacity) {
        growList(state[Plan::ListStateBuilt]);
        state[Plan::ListStateBuilt] = 0; // this evaluation's rebuild flag stays up
        built->arrays.listState.upload(state);
        k.buildKernel->execute(buildThreads, plan.listBlockSize);
    }
}

void CommonCalcCoordinationForceKernel::connectParameterDerivatives() {
    // OpenMM's buffer of energy-parameter derivatives exists once the context is initialized; each of
    // ours goes to its name's entry of the first row (like the energy, which goes to energyBuffer[0]).
    CommonCoordinationKernelSet& k = built->kernels;
    if (built->state.parameterDerivativeArgsSet || energyParameterDerivativeNames.empty())
        return;
    const vector<string>& allNames = cc.getEnergyParamDerivNames();
    vector<int> indices;
    for (const string& name : energyParameterDerivativeNames)
        indices.push_back((int) (std::find(allNames.begin(), allNames.end(), name) - allNames.begin()));
    built->arrays.parameterDerivativeIndices.upload(indices);
    if (k.finishParameterDerivativesArg >= 0)
        k.finishKernel->setArg(k.finishParameterDerivativesArg, cc.getEnergyParamDerivBuffer());
    if (k.pairParameterDerivativesArg >= 0)
        k.pairKernel->setArg(k.pairParameterDerivativesArg, cc.getEnergyParamDerivBuffer());
    if (k.numbersParameterDerivativesArg >= 0)
        k.addNumbersEnergyKernel->setArg(k.numbersParameterDerivativesArg, cc.getEnergyParamDerivBuffer());
    built->state.parameterDerivativeArgsSet = true;
}

double CommonCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    connectParameterDerivatives();
    launch(includeForces, true);
    return 0.0; // the energy was added to the context's energy buffer on the device
}

double CommonCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    if (built->plan.numbers)
        throw OpenMMException("CoordinationForce::getCoordination: a CoordinationNumberForce has no single coordination "
                              "number; use getCollectiveVariableValues or getCoordinationNumbers");
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    launch(false, false);
    if (built->plan.mixedIsDouble) {
        vector<double> results;
        built->arrays.results.download(results);
        return results[0];
    }
    vector<float> results;
    built->arrays.results.download(results);
    return results[0];
}

long long CommonCalcCoordinationForceKernel::getNumCandidatePairs(ContextImpl& context) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    // Without culling, or in a triclinic box (every tile interacts), the tile kernel visits every pair. A list
    // that overflowed (the tile kernel then culls tiles instead) is grown by the next evaluation, which is
    // told to read the size the build needed.
    for (int attempt = 0; attempt < 3; attempt++) {
        launch(false, false);
        if (!built->plan.culling || !built->state.listUsed)
            return built->numSlotPairs;
        const long long listed = countListedPairs();
        if (listed >= 0)
            return listed;
        built->state.checkListSize = true;
    }
    throw OpenMMException("CoordinationForce: the GPU neighbour list was still incomplete after 3 evaluations");
}

long long CommonCalcCoordinationForceKernel::countListedPairs() {
    const Plan& plan = built->plan;
    const int parity = built->state.listParity ^ 1; // launch() flipped it after the tile kernel
    vector<int> state;
    built->arrays.listState.download(state);
    const int chunks = Plan::listChunksOf(state, parity);
    if (chunks > built->state.listCapacity)
        return -1;
    auto rowsOf = [&](int rowTile) { return (long long) std::min(Plan::TileSize, plan.numA - rowTile * Plan::TileSize); };
    long long pairs = 0;
    if (plan.mode == CoordinationForce::Self)
        for (int rowTile = 0; rowTile < plan.tilesA; rowTile++)
            pairs += rowsOf(rowTile) * (rowsOf(rowTile) - 1) / 2; // the diagonal tiles
    if (chunks == 0)
        return pairs;
    vector<int> rows, slots;
    built->arrays.chunkRows.download(rows);
    built->arrays.chunkSlots.download(slots);
    for (int chunk = 0; chunk < chunks; chunk++) {
        long long columns = 0;
        for (int lane = 0; lane < Plan::TileSize; lane++)
            columns += (slots[(size_t) chunk * Plan::TileSize + lane] >= 0 ? 1 : 0);
        pairs += rowsOf(rows[chunk]) * columns;
    }
    return pairs;
}

void CommonCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                                const ResolvedCoordinationForce& force) {
    ContextSelector selector(cc);
    build(force);
}

void CommonCalcCoordinationForceKernel::getCollectiveVariableValues(ContextImpl& context, std::vector<double>& values) {
    if (!built->plan.numbers) {
        values = {getCoordination(context)};
        return;
    }
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    launch(false, false);
    downloadMixed(built->arrays.numberResults, values);
    values.resize(built->plan.numReductions);
}

void CommonCalcCoordinationForceKernel::getCoordinationNumbers(ContextImpl& context, std::vector<double>& values) {
    if (!built->plan.numbers)
        throw OpenMMException("CoordinationForce: a CoordinationForce has no per-atom coordination numbers; use a "
                              "CoordinationNumberForce");
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    launch(false, false);
    downloadMixed(built->arrays.numberValues, values);
    values.resize(built->plan.numA);
}

void CommonCalcCoordinationForceKernel::downloadMixed(ComputeArray& array, std::vector<double>& values) {
    if (built->plan.mixedIsDouble) {
        array.download(values);
        return;
    }
    vector<float> floats;
    array.download(floats);
    values.assign(floats.begin(), floats.end());
}
