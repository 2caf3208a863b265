#include "CommonCoordinationKernelSet.h"
#include "CommonCoordinationBox.h"
#include <type_traits>

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

/** Adds a kernel's arguments in order; each add returns the index the argument got. */
class Arguments {
public:
    explicit Arguments(ComputeKernel& kernel) : kernel(kernel) {}
    int add(ArrayInterface& array) {
        kernel->addArg(array);
        return count++;
    }
    template <class T>
    typename std::enable_if<std::is_trivially_copyable<T>::value, int>::type add(const T& value) {
        kernel->addArg(value);
        return count++;
    }
    /** The box's placeholders (CommonCoordinationBox::setArgs fills them); returns the first's index. */
    int addBox(bool useDouble) {
        CommonCoordinationBox::addPlaceholders(*kernel, useDouble);
        const int first = count;
        count += CommonCoordinationBox::NumArgs;
        return first;
    }

    /** The sorted slots' positions and the tiles' bounding boxes of both groups (the tile kernel and the list build). */
    void addSortedTiles(CommonCoordinationArrays& a) {
        for (CommonCoordinationArrays::SortedGroup* sorted : {&a.sortedA, &a.sortedB})
            add(sorted->positions);
        for (CommonCoordinationArrays::SortedGroup* sorted : {&a.sortedA, &a.sortedB}) {
            add(sorted->tileCenters);
            add(sorted->tileHalfExtents);
        }
    }
    /** E(s) and its outputs: the global parameters, the results array, OpenMM's energy buffer, the addEnergy flag. */
    int addEnergy(ComputeContext& cc, CommonCoordinationArrays& a) {
        add(a.globals);
        add(a.results);
        add(cc.getEnergyBuffer());
        return add(1);
    }
    /**
     * The centres' arrays of the finish (CENTER_FINISH_PARAMS), where the force has centres; in the pair kernel's
     * fused finish (inKernelWithCenters) only those the kernel's CENTER_KERNEL_PARAMS lack.
     */
    void addCenterFinish(const CommonCoordinationPlan& plan, CommonCoordinationArrays& a, bool inKernelWithCenters = false) {
        if (plan.numCenters == 0)
            return;
        if (inKernelWithCenters && plan.centersInBlock) {
            add(a.centerOfEntry);
            return;
        }
        add(a.centerAtoms);
        add(a.centerOfEntry);
        add(a.centerForceWeights);
    }
    /**
     * What a kernel that reads slots' positions needs of the centres (CENTER_KERNEL_PARAMS): their member arrays
     * where every block computes them, otherwise their positions; nothing without centres.
     */
    void addCenterPositions(const CommonCoordinationPlan& plan, CommonCoordinationArrays& a) {
        if (plan.numCenters == 0)
            return;
        if (plan.centersInBlock)
            addCenterMembers(a);
        else
            add(a.centerPositions);
    }
    /** The centres' member arrays (centers.cc: blockCenterPosition). */
    void addCenterMembers(CommonCoordinationArrays& a) {
        add(a.centerAtoms);
        add(a.centerFirstEntry);
        add(a.centerForceWeights);
        add(a.centerDifferenceWeights);
        add(a.centerWhole);
    }
    /** OpenMM's energy-parameter-derivative buffer (a placeholder until the first evaluation) and the indices into it. */
    int addParameterDerivatives(CommonCoordinationArrays& a) {
        const int first = add(a.parameterDerivativePlaceholder);
        add(a.parameterDerivativeIndices);
        return first;
    }

private:
    ComputeKernel& kernel;
    int count = 0;
};

} // namespace

void CommonCoordinationKernelSet::create(ComputeContext& cc, ComputeProgram& program, const CommonCoordinationPlan& plan,
                                         CommonCoordinationArrays& arrays) {
    createPairKernel(cc, program, plan, arrays);
    if (plan.numCenters > 0 && !plan.centersInBlock)
        createCenterKernel(cc, program, plan, arrays);
    if (plan.mode != CoordinationForce::Pair) {
        createGroupKernels(cc, program, plan, arrays, groupA, arrays.sortedA, arrays.atomsA, arrays.uniqueA, true);
        if (plan.mode == CoordinationForce::Dual)
            createGroupKernels(cc, program, plan, arrays, groupB, arrays.sortedB, arrays.atomsB, arrays.uniqueB, false);
        if (plan.culling)
            createBuildKernel(cc, program, plan, arrays);
    }
    createFinishKernel(cc, program, plan, arrays);
    if (plan.numbers)
        createNumbersKernel(cc, program, plan, arrays);
    createReorderKernels(cc, program, plan, arrays);
}

void CommonCoordinationKernelSet::createPairKernel(ComputeContext& cc, ComputeProgram& program,
                                                   const CommonCoordinationPlan& plan, CommonCoordinationArrays& a) {
    const bool pairMode = (plan.mode == CoordinationForce::Pair);
    pairKernel = program->createKernel(pairMode ? "computeCoordinationPairs" : "computeCoordinationTiles");
    Arguments args(pairKernel);
    args.add(cc.getPosq());
    args.add(pairMode ? a.atomsA : a.sortedA.sortedAtoms);
    args.add(pairMode ? a.atomsB : a.sortedB.sortedAtoms);
    args.add(pairMode ? a.uniqueA : a.sortedA.sortedUniques);
    args.add(pairMode ? a.uniqueB : a.sortedB.sortedUniques);
    args.add(a.gradientBuffer);
    args.add(a.partialSums);
    pairComputeGradientArg = args.add(1);
    pairBoxArg = args.addBox(plan.useDouble);
    args.add(a.cellOffsets);
    if (!pairMode)
        args.addSortedTiles(a);
    args.add(a.nonFiniteFlags);
    pairParityArg = args.add(0);
    if (plan.culling) {
        args.add(a.partialFixed);
        args.add(a.listState);
        pairChunkRowsArg = args.add(a.chunkRows);
        pairChunkSlotsArg = args.add(a.chunkSlots);
        pairUseListArg = args.add(1);
        pairListCapacityArg = args.add(plan.firstListCapacity);
    }
    if (plan.numbers) {
        pairNumbersPassArg = args.add(1);
        args.add(a.numbersFixed);
        args.add(a.numberWeights);
        args.add(a.rowOfSlotA);
        args.add(a.numberValues);
        args.add(a.numberResults);
        args.add(a.numberPartialFixed);
        args.add(a.numberPartialSums);
        args.add(a.numberPartialIndices);
        args.add(a.numberCoefficients);
        args.add(a.numberIndices);
        args.add(a.numberState);
    }
    if (plan.fusedFinish) {
        pairAddEnergyArg = args.addEnergy(cc, a);
        args.add(cc.getLongForceBuffer());
        args.add(a.blocksDone);
        if (plan.numParameterDerivatives > 0)
            pairParameterDerivativesArg = args.addParameterDerivatives(a);
        args.addCenterFinish(plan, a, true);
    }
    args.addCenterPositions(plan, a);
}

void CommonCoordinationKernelSet::createCenterKernel(ComputeContext& cc, ComputeProgram& program,
                                                     const CommonCoordinationPlan& plan, CommonCoordinationArrays& a) {
    centerKernel = program->createKernel("computeCenterPositions");
    Arguments args(centerKernel);
    args.add(cc.getPosq());
    args.add(a.cellOffsets);
    args.addCenterMembers(a);
    args.add(a.centerPositions);
    centerBoxArg = args.addBox(plan.useDouble);
}

void CommonCoordinationKernelSet::createGroupKernels(ComputeContext& cc, ComputeProgram& program,
                                                     const CommonCoordinationPlan& plan, CommonCoordinationArrays& a,
                                                     GroupKernels& g, CommonCoordinationArrays::SortedGroup& sorted,
                                                     ComputeArray& atoms, ComputeArray& uniques, bool keepsBooks) {
    g.sorted = &sorted;
    g.keyKernel = program->createKernel("computeSortKeys");
    Arguments keyArgs(g.keyKernel);
    keyArgs.add(cc.getPosq());
    keyArgs.add(a.cellOffsets);
    keyArgs.add(atoms);
    keyArgs.add(uniques);
    keyArgs.add(sorted.numSlots);
    keyArgs.add(sorted.keys);
    g.keyBoxArg = keyArgs.addBox(plan.useDouble);
    keyArgs.addCenterPositions(plan, a);
    g.gatherKernel = program->createKernel("gatherSortedSlots");
    Arguments gatherArgs(g.gatherKernel);
    gatherArgs.add(sorted.keys);
    gatherArgs.add(atoms);
    gatherArgs.add(uniques);
    gatherArgs.add(sorted.sortedAtoms);
    gatherArgs.add(sorted.sortedUniques);
    gatherArgs.add(sorted.numSlots);
    if (plan.numbers)
        gatherArgs.add(&sorted == &a.sortedA ? a.rowOfSlotA : a.rowOfSlotB);
    g.boundsKernel = program->createKernel("computeTileBounds");
    Arguments boundsArgs(g.boundsKernel);
    boundsArgs.add(cc.getPosq());
    boundsArgs.add(a.cellOffsets);
    boundsArgs.add(sorted.sortedAtoms);
    boundsArgs.add(sorted.sortedUniques);
    boundsArgs.add(sorted.numSlots);
    boundsArgs.add(sorted.numTiles);
    boundsArgs.add(sorted.tileCenters);
    boundsArgs.add(sorted.tileHalfExtents);
    boundsArgs.add(sorted.positions);
    g.boundsBoxArg = boundsArgs.addBox(plan.useDouble);
    boundsArgs.add(a.nonFiniteFlags);
    g.boundsParityArg = boundsArgs.add(0);
    if (plan.culling) {
        boundsArgs.add(sorted.listPositions);
        boundsArgs.add(a.listState);
        g.boundsListCapacityArg = boundsArgs.add(plan.firstListCapacity);
        g.boundsForceRebuildArg = boundsArgs.add(0);
        boundsArgs.add(keepsBooks ? 1 : 0);
    }
    boundsArgs.addCenterPositions(plan, a);
}

void CommonCoordinationKernelSet::createBuildKernel(ComputeContext& cc, ComputeProgram& program,
                                                    const CommonCoordinationPlan& plan, CommonCoordinationArrays& a) {
    buildKernel = program->createKernel("buildNeighborList");
    Arguments args(buildKernel);
    args.addSortedTiles(a);
    args.add(a.sortedA.listPositions);
    args.add(a.sortedB.listPositions);
    args.add(a.listState);
    buildChunkRowsArg = args.add(a.chunkRows);
    buildChunkSlotsArg = args.add(a.chunkSlots);
    buildListCapacityArg = args.add(plan.firstListCapacity);
    buildParityArg = args.add(0);
    buildBoxArg = args.addBox(plan.useDouble);
}

void CommonCoordinationKernelSet::createFinishKernel(ComputeContext& cc, ComputeProgram& program,
                                                     const CommonCoordinationPlan& plan, CommonCoordinationArrays& a) {
    finishKernel = program->createKernel("finishCoordination");
    Arguments args(finishKernel);
    args.add(a.partialSums);
    args.add(plan.numPartials);
    finishAddEnergyArg = args.addEnergy(cc, a);
    args.add(a.gradientBuffer);
    // The gradient rows' atoms: the slots' atoms in the tile kernel's order (Pair mode: the groups' order).
    const bool pairMode = (plan.mode == CoordinationForce::Pair);
    args.add(pairMode ? a.atomsA : a.sortedA.sortedAtoms);
    args.add(pairMode ? a.atomsB : a.sortedB.sortedAtoms);
    args.add(cc.getLongForceBuffer());
    finishComputeGradientArg = args.add(1);
    args.add(a.partialFixed);
    args.add(a.nonFiniteFlags);
    finishParityArg = args.add(0);
    if (plan.numParameterDerivatives > 0)
        finishParameterDerivativesArg = args.addParameterDerivatives(a);
    args.addCenterFinish(plan, a);
}

void CommonCoordinationKernelSet::createNumbersKernel(ComputeContext& cc, ComputeProgram& program,
                                                      const CommonCoordinationPlan& plan, CommonCoordinationArrays& a) {
    numberSumsKernel = program->createKernel("computeNumberSums");
    Arguments sums(numberSumsKernel);
    sums.add(a.numbersFixed);
    sums.add(a.rowOfSlotA);
    sums.add(a.numberValues);
    sums.add(a.numberPartialFixed);
    sums.add(a.numberPartialSums);
    sums.add(a.numberPartialIndices);
    sums.add(a.nonFiniteFlags);
    numberSumsParityArg = sums.add(0);
    sums.add(a.listState);
    if (plan.numbersCentred) {
        centredSumsKernel = program->createKernel("computeCentredNumberSums");
        Arguments centred(centredSumsKernel);
        centred.add(a.numberValues);
        centred.add(a.numberPartialFixed);
        centred.add(a.numberPartialSums);
    }
    numbersEnergyKernel = program->createKernel("computeNumbersEnergy");
    Arguments energy(numbersEnergyKernel);
    energy.add(a.numberPartialFixed);
    energy.add(a.numberPartialSums);
    energy.add(a.numberPartialIndices);
    energy.add(a.globals);
    energy.add(a.numberResults);
    energy.add(a.numberCoefficients);
    energy.add(a.numberIndices);
    energy.add(a.numberState);
    energy.add(a.nonFiniteFlags);
    numbersEnergyParityArg = energy.add(0);
    numberWeightsKernel = program->createKernel("computeNumberWeights");
    Arguments weights(numberWeightsKernel);
    weights.add(a.numberValues);
    weights.add(a.rowOfSlotA);
    weights.add(a.numberWeights);
    weights.add(a.numberCoefficients);
    weights.add(a.numberIndices);
    weights.add(a.numberState);
    addNumbersEnergyKernel = program->createKernel("addNumbersEnergy");
    Arguments add(addNumbersEnergyKernel);
    add.add(a.rowOfSlotA);
    add.add(a.numberWeights);
    add.add(a.numberResults);
    add.add(a.numberCoefficients);
    add.add(a.numberState);
    add.add(cc.getEnergyBuffer());
    addNumbersEnergyArg = add.add(1);
    if (plan.numParameterDerivatives > 0)
        numbersParameterDerivativesArg = add.addParameterDerivatives(a);
}

void CommonCoordinationKernelSet::createReorderKernels(ComputeContext& cc, ComputeProgram& program,
                                                       const CommonCoordinationPlan& plan, CommonCoordinationArrays& a) {
    invertKernel = program->createKernel("invertAtomOrder");
    Arguments invertArgs(invertKernel);
    invertArgs.add(cc.getAtomIndexArray());
    invertArgs.add(a.positionOfParticle);
    invertArgs.add(cc.getNumAtoms());
    translateKernel = program->createKernel("translateParticles");
    Arguments translateArgs(translateKernel);
    translateArgs.add(a.positionOfParticle);
    translateArgs.add(a.particlesA);
    translateArgs.add(a.atomsA);
    translateArgs.add(a.particlesB);
    translateArgs.add(a.atomsB);
    if (plan.numCenters > 0) {
        translateArgs.add(a.centerParticles);
        translateArgs.add(a.centerAtoms);
    }
}

void CommonCoordinationKernelSet::setListArgs(CommonCoordinationArrays& a, int capacity) {
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
