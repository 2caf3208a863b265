#include "pairs/CommonPairKernelSet.h"
#include "engine/CommonKernelArguments.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

typedef CommonKernelArguments Arguments;

/** The sorted slots' positions and the tiles' bounding boxes of both groups (the tile kernel and the list build). */
void addSortedTiles(Arguments& args, CommonPairArrays& a) {
    for (CommonPairArrays::SortedGroup* sorted : {&a.sortedA, &a.sortedB})
        args.add(sorted->positions);
    for (CommonPairArrays::SortedGroup* sorted : {&a.sortedA, &a.sortedB}) {
        args.add(sorted->tileCenters, sorted->tileHalfExtents);
    }
}

/** The finish's energy and its outputs: the global parameters, the results, OpenMM's energy buffer, addEnergy. */
int addEnergy(Arguments& args, ComputeContext& cc, CommonPairArrays& a, CommonEnergyArrays& energy) {
    args.add(energy.globals, a.results, cc.getEnergyBuffer());
    return args.add(1);
}

} // namespace

void CommonPairKernelSet::create(ComputeContext& cc, ComputeProgram& program, const CommonPairPlan& plan,
                                 CommonPairArrays& arrays, CommonEnergyArrays& energy, CommonPairBody& body) {
    createPairKernel(cc, program, plan, arrays, energy, body);
    arrays.centers.createKernel(cc, program, arrays.cellOffsets);
    if (plan.mode != PairSwitchingForce::Pair) {
        createGroupKernels(cc, program, plan, arrays, body, groupA, false);
        if (plan.mode == PairSwitchingForce::Dual)
            createGroupKernels(cc, program, plan, arrays, body, groupB, true);
        if (plan.culling)
            createBuildKernel(program, plan, arrays);
    }
    createFinishKernel(cc, program, plan, arrays, energy);
    createReorderKernels(cc, program, arrays);
}

void CommonPairKernelSet::createPairKernel(ComputeContext& cc, ComputeProgram& program, const CommonPairPlan& plan,
                                           CommonPairArrays& a, CommonEnergyArrays& energy, CommonPairBody& body) {
    const bool pairMode = (plan.mode == PairSwitchingForce::Pair);
    pairKernel = program->createKernel(pairMode ? "computeCoordinationPairs" : "computeCoordinationTiles");
    Arguments args(pairKernel);
    args.add(cc.getPosq(), pairMode ? a.atomsA : a.sortedA.sortedAtoms, pairMode ? a.atomsB : a.sortedB.sortedAtoms,
             pairMode ? a.uniqueA : a.sortedA.sortedUniques, pairMode ? a.uniqueB : a.sortedB.sortedUniques,
             a.gradientBuffer, a.partialSums);
    pairComputeGradientArg = args.add(1);
    pairBoxArg = args.addBox(plan.useDouble);
    args.add(a.cellOffsets);
    if (!pairMode)
        addSortedTiles(args, a);
    args.add(a.nonFiniteFlags);
    pairParityArg = args.add(0);
    if (plan.culling) {
        args.add(a.partialFixed, a.listState);
        pairChunkRowsArg = args.add(a.chunkRows);
        pairChunkSlotsArg = args.add(a.chunkSlots);
        pairUseListArg = args.add(1);
        pairListCapacityArg = args.add(plan.firstListCapacity);
    }
    body.addPairKernelArgs(args);
    if (plan.fusedFinish) {
        pairAddEnergyArg = addEnergy(args, cc, a, energy);
        args.add(cc.getLongForceBuffer(), a.blocksDone);
        args.addParameterDerivatives(energy);
        a.centers.addFinishArgs(args, true);
    }
    a.centers.addPositionArgs(args);
}

void CommonPairKernelSet::createGroupKernels(ComputeContext& cc, ComputeProgram& program, const CommonPairPlan& plan,
                                             CommonPairArrays& a, CommonPairBody& body, GroupKernels& g, bool groupB) {
    CommonPairArrays::SortedGroup& sorted = (groupB ? a.sortedB : a.sortedA);
    ComputeArray& atoms = (groupB ? a.atomsB : a.atomsA);
    ComputeArray& uniques = (groupB ? a.uniqueB : a.uniqueA);
    g.sorted = &sorted;
    g.keyKernel = program->createKernel("computeSortKeys");
    Arguments keyArgs(g.keyKernel);
    keyArgs.add(cc.getPosq(), a.cellOffsets, atoms, uniques, sorted.numSlots, sorted.keys);
    g.keyBoxArg = keyArgs.addBox(plan.useDouble);
    a.centers.addPositionArgs(keyArgs);
    g.gatherKernel = program->createKernel("gatherSortedSlots");
    Arguments gatherArgs(g.gatherKernel);
    gatherArgs.add(sorted.keys, atoms, uniques, sorted.sortedAtoms, sorted.sortedUniques, sorted.numSlots);
    body.addGatherArgs(gatherArgs, groupB);
    g.boundsKernel = program->createKernel("computeTileBounds");
    Arguments boundsArgs(g.boundsKernel);
    boundsArgs.add(cc.getPosq(), a.cellOffsets, sorted.sortedAtoms, sorted.sortedUniques, sorted.numSlots,
                   sorted.numTiles, sorted.tileCenters, sorted.tileHalfExtents, sorted.positions);
    g.boundsBoxArg = boundsArgs.addBox(plan.useDouble);
    boundsArgs.add(a.nonFiniteFlags);
    g.boundsParityArg = boundsArgs.add(0);
    if (plan.culling) {
        boundsArgs.add(sorted.listPositions, a.listState);
        g.boundsListCapacityArg = boundsArgs.add(plan.firstListCapacity);
        g.boundsForceRebuildArg = boundsArgs.add(0);
        boundsArgs.add(groupB ? 0 : 1); // group A's launch keeps the list's books
    }
    a.centers.addPositionArgs(boundsArgs);
}

void CommonPairKernelSet::createBuildKernel(ComputeProgram& program, const CommonPairPlan& plan, CommonPairArrays& a) {
    buildKernel = program->createKernel("buildNeighborList");
    Arguments args(buildKernel);
    addSortedTiles(args, a);
    args.add(a.sortedA.listPositions, a.sortedB.listPositions, a.listState);
    buildChunkRowsArg = args.add(a.chunkRows);
    buildChunkSlotsArg = args.add(a.chunkSlots);
    buildListCapacityArg = args.add(plan.firstListCapacity);
    buildParityArg = args.add(0);
    buildBoxArg = args.addBox(plan.useDouble);
}

void CommonPairKernelSet::createFinishKernel(ComputeContext& cc, ComputeProgram& program, const CommonPairPlan& plan,
                                             CommonPairArrays& a, CommonEnergyArrays& energy) {
    finishKernel = program->createKernel("finishCoordination");
    Arguments args(finishKernel);
    args.add(a.partialSums, plan.numPartials);
    finishAddEnergyArg = addEnergy(args, cc, a, energy);
    args.add(a.gradientBuffer);
    // The gradient rows' atoms: the slots' atoms in the tile kernel's order (Pair mode: the groups' order).
    const bool pairMode = (plan.mode == PairSwitchingForce::Pair);
    args.add(pairMode ? a.atomsA : a.sortedA.sortedAtoms, pairMode ? a.atomsB : a.sortedB.sortedAtoms,
             cc.getLongForceBuffer());
    finishComputeGradientArg = args.add(1);
    args.add(a.partialFixed, a.nonFiniteFlags);
    finishParityArg = args.add(0);
    args.addParameterDerivatives(energy);
    a.centers.addFinishArgs(args);
}

void CommonPairKernelSet::createReorderKernels(ComputeContext& cc, ComputeProgram& program, CommonPairArrays& a) {
    invertKernel = program->createKernel("invertAtomOrder");
    Arguments invertArgs(invertKernel);
    invertArgs.add(cc.getAtomIndexArray(), a.positionOfParticle, cc.getNumAtoms());
    translateKernel = program->createKernel("translateParticles");
    Arguments translateArgs(translateKernel);
    translateArgs.add(a.positionOfParticle, a.particlesA, a.atomsA, a.particlesB, a.atomsB);
    a.centers.addTranslateArgs(translateArgs);
}

void CommonPairKernelSet::setListArgs(CommonPairArrays& a, int capacity) {
    pairKernel->setArg(pairChunkRowsArg, a.chunkRows);
    pairKernel->setArg(pairChunkSlotsArg, a.chunkSlots);
    pairKernel->setArg(pairListCapacityArg, capacity);
    buildKernel->setArg(buildChunkRowsArg, a.chunkRows);
    buildKernel->setArg(buildChunkSlotsArg, a.chunkSlots);
    buildKernel->setArg(buildListCapacityArg, capacity);
    for (GroupKernels* g : {&groupA, &groupB})
        if (g->boundsKernel)
            g->boundsKernel->setArg(g->boundsListCapacityArg, capacity);
}
