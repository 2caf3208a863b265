#include "CommonCoordinationKernels.h"
#include "CommonSwitchingDefines.h"
#include "CoordinationKernelSources.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ComputeSort.h"
#include "openmm/common/ContextSelector.h"
#include "openmm/common/ExpressionUtilities.h"
#include "openmm/internal/ContextImpl.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

const int TileSize = 32;
const int WarpsPerBlock = 8;
const int PairBlockSize = 128;
const int FinishBlockSize = 128;
// With a cutoff the slots are re-sorted into spatial order every this many evaluations (and whenever
// the force is rebuilt). Correctness never depends on the order; only how well tiles are culled does.
const int SortInterval = 100;
// Groups of at most this many distinct atoms finish inside the pair kernel on CUDA (one launch). The
// last block then applies every force alone: measured on an H100, that wins for 1,000 atoms (12.5 -> 9 us
// per step) and loses for 2,000-4,000 (S3 1k x 1k 9 -> 14-17 us, S1 4k 20 -> 29 us).
const int MaxFusedUnique = 1024;
// Neighbour list (forces with a cutoff whose tiles are culled): built for dmax plus a skin of this
// fraction of dmax (at least MinimumSkin nm), rebuilt when a slot has moved half the skin.
const double SkinFraction = 0.1;
const double MinimumSkin = 0.05;
// The list's state on the device (int array): rebuild flags for even and odd evaluations, the chunks
// counted by the build under way, the chunks of the current list.
const int ListStateRebuild = 0, ListStateBuilt = 2, ListStateChunks = 3, ListStateSize = 4;

/** Sorts the 64-bit keys (Morton code << 32 | slot) that give the slots' spatial order. */
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

/** The slots of one group in the order the tile kernel visits them, and the tiles' bounding boxes. */
struct SortedGroup {
    int numSlots = 0, numTiles = 0;
    ComputeArray keys;                 // (Morton code << 32) | slot, sorted; identity order without a cutoff
    ComputeArray sortedAtoms, sortedUniques;
    ComputeArray tileCenters, tileHalfExtents;
    ComputeArray listPositions;        // each sorted slot's position when the neighbour list was built
    ComputeSort sort;
    ComputeKernel keyKernel, gatherKernel, boundsKernel;
};

/** The periodic box as the kernels receive it (7 arguments), computed once per evaluation. */
struct BoxArgs {
    Vec3 a, b, c;
    double halfWidth2; // (half the smallest distance between opposite faces)^2: below it wrapping is the minimum image
    bool triclinic;
};

BoxArgs currentBox(ComputeContext& cc) {
    BoxArgs box;
    cc.getPeriodicBoxVectors(box.a, box.b, box.c);
    const Vec3 &a = box.a, &b = box.b, &c = box.c;
    double volume = a[0] * b[1] * c[2];
    auto length = [](const Vec3& v) { return std::sqrt(v.dot(v)); };
    double width = std::min({volume / length(b.cross(c)), volume / length(c.cross(a)), volume / length(a.cross(b))});
    box.halfWidth2 = 0.25 * width * width;
    box.triclinic = (b[0] != 0.0 || c[0] != 0.0 || c[1] != 0.0);
    return box;
}

/** Append the 7 box arguments (placeholders; setBoxArgs fills them on each launch). */
void addBoxArgs(ComputeKernelImpl& kernel, bool useDouble) {
    for (int i = 0; i < 5; i++) {
        if (useDouble)
            kernel.addArg(mm_double4(0, 0, 0, 0));
        else
            kernel.addArg(mm_float4(0, 0, 0, 0));
    }
    kernel.addArg(0); // triclinic
    if (useDouble)
        kernel.addArg(0.0);
    else
        kernel.addArg(0.0f);
}

void setBoxArgs(ComputeKernelImpl& kernel, int first, const BoxArgs& box, bool useDouble) {
    const Vec3 &a = box.a, &b = box.b, &c = box.c;
    if (useDouble) {
        kernel.setArg(first, mm_double4(a[0], b[1], c[2], 0.0));
        kernel.setArg(first + 1, mm_double4(1.0 / a[0], 1.0 / b[1], 1.0 / c[2], 0.0));
        kernel.setArg(first + 2, mm_double4(a[0], a[1], a[2], 0.0));
        kernel.setArg(first + 3, mm_double4(b[0], b[1], b[2], 0.0));
        kernel.setArg(first + 4, mm_double4(c[0], c[1], c[2], 0.0));
        kernel.setArg(first + 6, box.halfWidth2);
    }
    else {
        kernel.setArg(first, mm_float4((float) a[0], (float) b[1], (float) c[2], 0.0f));
        kernel.setArg(first + 1, mm_float4((float) (1.0 / a[0]), (float) (1.0 / b[1]), (float) (1.0 / c[2]), 0.0f));
        kernel.setArg(first + 2, mm_float4((float) a[0], (float) a[1], (float) a[2], 0.0f));
        kernel.setArg(first + 3, mm_float4((float) b[0], (float) b[1], (float) b[2], 0.0f));
        kernel.setArg(first + 4, mm_float4((float) c[0], (float) c[1], (float) c[2], 0.0f));
        // Slightly below the true value so rounding never skips a needed image search.
        kernel.setArg(first + 6, (float) (box.halfWidth2 * 0.999));
    }
    kernel.setArg(first + 5, box.triclinic ? 1 : 0);
}

} // namespace

struct CommonCalcCoordinationForceKernel::DeviceData {
    CoordinationForce::Mode mode;
    bool periodic;
    vector<int> groupA, groupB;        // the user's particle indices, one per slot
    vector<int> uniqueParticles;       // every particle in a group, once
    ComputeArray particlesA, particlesB, particles; // the same, on the device (uploaded once)
    ComputeArray positionOfParticle;   // particle -> current atom position (device-side, after reorders)
    ComputeArray atomsA, atomsB;       // slot -> current atom index (follows reordering)
    ComputeArray uniqueA, uniqueB;     // slot -> index into uniqueParticles (gradient row)
    ComputeArray uniqueAtoms;          // unique index -> current atom index
    ComputeArray gradientBuffer;       // ds/dx, 64-bit fixed point, 3 x numUnique
    ComputeArray cellOffsets;          // unique index -> periodic cells OpenMM wrapped it by (non-periodic forces)
    vector<mm_int4> hostCellOffsets;   // what cellOffsets holds
    vector<int> hostPositionOfParticle; // host copy of the current order (updated when atoms are reordered)
    ComputeArray partialSums, globals, results;
    ComputeKernel pairKernel, finishKernel, invertKernel, translateKernel;
    int pairWorkUnits, pairBlockSize, numPartials;
    SortedGroup sortedA, sortedB;      // Self and Dual (sortedB: Dual only)
    bool culling = false;              // tiles are sorted spatially and culled by their bounding boxes
    int cullChunk = 0;                 // candidate tiles a block checks per iteration
    bool fusedFinish = false;          // the pair kernel's last block finishes (no finishKernel launch)
    int fusedAddEnergyArg = 0;         // its addEnergy argument
    ComputeArray blocksDone;           // the fused finish's counter of finished blocks
    int evaluationsSinceSort = 0;
    bool needSort = true;
    // Neighbour list (every culled force has one): chunks of (row tile, 32 column slots) within dmax + skin.
    ComputeArray listState;            // ListState* entries
    ComputeArray chunkRows, chunkSlots; // capacity chunks: row tile; 32 column slots each (-1: none)
    ComputeArray partialFixed;         // the tile kernel's fixed-point partial sums of s (hi, lo per block)
    ComputeKernel buildKernel;
    // Energy-parameter derivatives: where they go in OpenMM's buffer (set at the first evaluation: the
    // buffer exists only once the context is initialized) and the kernel arguments that receive it.
    ComputeArray parameterDerivativeIndices, parameterDerivativePlaceholder;
    bool parameterDerivativeArgsSet = false;
    int finishDerivativeArg = -1, fusedDerivativeArg = -1;
    int listCapacity = 0, listParity = 0, listBlockSize = 0, numRowTiles = 0;
    bool forceListRebuild = true;      // the next evaluation must rebuild (first use, list left unused)
    bool checkListSize = false;        // download the list's size at the next evaluation
    bool firstListBuild = true;        // read the size of the context's first list as soon as it is built
    Vec3 lastBox[3];
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

bool CommonCalcCoordinationForceKernel::mixedIsDouble() const {
    return cc.getUseDoublePrecision() || cc.getUseMixedPrecision();
}

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
    std::unique_ptr<DeviceData> next(new DeviceData());
    DeviceData& d = *next;
    d.mode = force.mode;
    d.periodic = force.periodic;
    d.groupA = force.groupA;
    d.groupB = force.groupB;
    d.uniqueParticles = force.uniqueParticles;
    const vector<int>& slotUniqueA = force.uniqueA;
    const vector<int>& slotUniqueB = force.uniqueB;
    const SwitchingFunctionConstants& switching = force.switching;
    const int numA = d.groupA.size(), numB = d.groupB.size(), numUnique = d.uniqueParticles.size();

    // Work decomposition.
    const int tilesA = (numA + TileSize - 1) / TileSize, tilesB = (numB + TileSize - 1) / TileSize;
    long long numTiles = 0;
    if (d.mode == CoordinationForce::Self)
        numTiles = (long long) tilesA * (tilesA + 1) / 2;
    else if (d.mode == CoordinationForce::Dual)
        numTiles = (long long) tilesA * tilesB;
    if (numTiles > 2000000000LL)
        throw OpenMMException("CoordinationForce: the groups are too large for the GPU kernel (" +
                              std::to_string(numTiles) + " tiles of 32x32 pairs; at most 2e9)");
    if (d.mode == CoordinationForce::Pair) {
        d.pairBlockSize = PairBlockSize;
        d.pairWorkUnits = std::max(numA, 1);
    }
    const double cutoff = switching.dmax;
    // A cutoff beyond 1e15 nm excludes nothing and its square does not fit in a float: treat it as none.
    const bool hasCutoff = std::isfinite(cutoff) && cutoff < 1e15;
    // Culling pays once there are more tiles than one pass of every warp on the device; below that the
    // extra launches (bounds, sorting) would cost more than the tiles they skip.
    d.culling = hasCutoff && d.mode != CoordinationForce::Pair &&
                numTiles > (long long) cc.getNumThreadBlocks() * WarpsPerBlock;
    if (d.mode != CoordinationForce::Pair) {
        d.pairBlockSize = TileSize * WarpsPerBlock;
        // Culling: a block checks a chunk of candidate tiles per iteration (at most one per thread, fewer
        // when there are too few tiles to give every block of the grid a chunk); otherwise one tile per warp.
        long long perGroup = WarpsPerBlock;
        if (d.culling) {
            perGroup = (numTiles + cc.getNumThreadBlocks() - 1) / cc.getNumThreadBlocks();
            perGroup = (perGroup + WarpsPerBlock - 1) / WarpsPerBlock * WarpsPerBlock;
            perGroup = std::min<long long>(std::max<long long>(perGroup, WarpsPerBlock), d.pairBlockSize);
            d.cullChunk = (int) perGroup;
        }
        long long groupsNeeded = (numTiles + perGroup - 1) / perGroup;
        d.pairWorkUnits = (int) std::min<long long>(std::max<long long>(groupsNeeded, 1), cc.getNumThreadBlocks()) *
                          d.pairBlockSize;
    }
    // The platforms launch min(ceil(workUnits/blockSize), numThreadBlocks) blocks.
    d.numPartials = std::min((d.pairWorkUnits + d.pairBlockSize - 1) / d.pairBlockSize, cc.getNumThreadBlocks());

    // Arrays.
    const int mixedSize = (mixedIsDouble() ? sizeof(double) : sizeof(float));
    d.particlesA.initialize<int>(cc, std::max(numA, 1), "coordinationParticlesA");
    d.particlesB.initialize<int>(cc, std::max(numB, 1), "coordinationParticlesB");
    d.particles.initialize<int>(cc, std::max(numUnique, 1), "coordinationParticles");
    d.positionOfParticle.initialize<int>(cc, cc.getPaddedNumAtoms(), "coordinationPositionOfParticle");
    d.atomsA.initialize<int>(cc, std::max(numA, 1), "coordinationAtomsA");
    d.atomsB.initialize<int>(cc, std::max(numB, 1), "coordinationAtomsB");
    d.uniqueA.initialize<int>(cc, std::max(numA, 1), "coordinationUniqueA");
    d.uniqueB.initialize<int>(cc, std::max(numB, 1), "coordinationUniqueB");
    d.uniqueAtoms.initialize<int>(cc, std::max(numUnique, 1), "coordinationUniqueAtoms");
    d.gradientBuffer.initialize<long long>(cc, 3 * std::max(numUnique, 1), "coordinationGradient");
    d.cellOffsets.initialize<mm_int4>(cc, std::max(numUnique, 1), "coordinationCellOffsets");
    d.hostCellOffsets.assign(d.cellOffsets.getSize(), mm_int4(0, 0, 0, 0));
    d.cellOffsets.upload(d.hostCellOffsets);
    d.partialSums.initialize(cc, std::max(d.numPartials, 1), mixedSize, "coordinationPartialSums");
    d.globals.initialize(cc, std::max((int) globalParameterNames.size(), 1), mixedSize, "coordinationGlobals");
    d.results.initialize(cc, 3, mixedSize, "coordinationResults"); // s, dE/ds, E
    if (numA > 0) {
        d.particlesA.upload(d.groupA);
        d.uniqueA.upload(slotUniqueA);
    }
    if (numB > 0) {
        d.particlesB.upload(d.groupB);
        d.uniqueB.upload(slotUniqueB);
    }
    if (numUnique > 0)
        d.particles.upload(d.uniqueParticles);
    d.gradientBuffer.upload(vector<long long>(d.gradientBuffer.getSize(), 0));
    const int real4Size = (cc.getUseDoublePrecision() ? sizeof(mm_double4) : sizeof(mm_float4));
    auto initializeSorted = [&](SortedGroup& g, int numSlots, const string& name) {
        g.numSlots = numSlots;
        g.numTiles = (numSlots + TileSize - 1) / TileSize;
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
        g.listPositions.initialize(cc, std::max(numSlots, 1), real4Size, "coordinationListPositions" + name);
        if (cc.getUseDoublePrecision())
            g.listPositions.upload(vector<mm_double4>(g.listPositions.getSize(), mm_double4(0, 0, 0, 0)));
        else
            g.listPositions.upload(vector<mm_float4>(g.listPositions.getSize(), mm_float4(0, 0, 0, 0)));
        if (d.culling && numSlots > TileSize)
            g.sort = cc.createSort(new SlotSortTrait(), numSlots, false);
    };
    if (d.mode != CoordinationForce::Pair) {
        initializeSorted(d.sortedA, numA, "A");
        initializeSorted(d.sortedB, d.mode == CoordinationForce::Dual ? numB : 0, "B");
    }
    d.needSort = true;
    d.evaluationsSinceSort = 0;
    // The neighbour list: every force whose tiles are culled has one. Its first capacity is a guess (8
    // chunks per row tile); the host reads the size of the first build and, after each re-sort, the size
    // the last build needed, and grows it.
    d.numRowTiles = tilesA;
    d.listBlockSize = (hasWarpShuffles ? TileSize * WarpsPerBlock : TileSize); // one warp per block without shuffles
    d.listCapacity = (d.culling ? std::max(64, 8 * tilesA) : 1);
    d.listState.initialize<int>(cc, ListStateSize, "coordinationListState");
    d.listState.upload(vector<int>(ListStateSize, 0));
    d.chunkRows.initialize<int>(cc, d.listCapacity, "coordinationChunkRows");
    d.chunkSlots.initialize<int>(cc, (size_t) d.listCapacity * TileSize, "coordinationChunkSlots");
    d.partialFixed.initialize<long long>(cc, 2 * std::max(d.numPartials, 1), "coordinationPartialFixed");
    d.partialFixed.upload(vector<long long>(d.partialFixed.getSize(), 0));
    d.forceListRebuild = true;
    d.checkListSize = false;
    d.listParity = 0;

    // Program: the settings and the switching function's constants are compiled in.
    std::map<string, string> defines;
    defines["TILE_SIZE"] = cc.intToString(TileSize);
    defines["WARPS_PER_BLOCK"] = cc.intToString(WarpsPerBlock);
    defines["PAIR_BLOCK_SIZE"] = cc.intToString(PairBlockSize);
    defines["FINISH_BLOCK_SIZE"] = cc.intToString(FinishBlockSize);
    defines["NUM_A"] = cc.intToString(numA);
    defines["NUM_B"] = cc.intToString(numB);
    defines["NUM_UNIQUE"] = cc.intToString(numUnique);
    defines["NUM_TILES_A"] = cc.intToString(tilesA);
    defines["NUM_TILES_B"] = cc.intToString(tilesB);
    defines["NUM_TILES"] = cc.intToString((int) numTiles);
    defines["PADDED_NUM_ATOMS"] = cc.intToString(cc.getPaddedNumAtoms());
    defines[d.mode == CoordinationForce::Self ? "MODE_SELF" : (d.mode == CoordinationForce::Dual ? "MODE_DUAL" : "MODE_PAIR")] = "1";
    if (d.periodic)
        defines["USE_PERIODIC"] = "1";
    if (hasCutoff) {
        defines["USE_CUTOFF"] = "1";
        defines["CUTOFF_SQUARED"] = cc.doubleToString(cutoff * cutoff);
    }
    if (d.culling) {
        // Padded so that rounding in the bounding boxes never drops a pair the pair kernel would count.
        const double padded = cutoff * (1.0 + 1e-5) + 1e-4;
        defines["USE_CULLING"] = "1";
        defines["CULL_CHUNK"] = cc.intToString(d.cullChunk);
        defines["PADDED_CUTOFF_SQUARED"] = cc.doubleToString(padded * padded);
    }
    if (d.culling) {
        const double skin = std::max(MinimumSkin, SkinFraction * cutoff);
        const double listCutoff = (cutoff + skin) * (1.0 + 1e-5) + 1e-4;
        defines["USE_NEIGHBOR_LIST"] = "1";
        defines["PADDED_LIST_CUTOFF_SQUARED"] = cc.doubleToString(listCutoff * listCutoff);
        defines["HALF_SKIN_SQUARED"] = cc.doubleToString(0.25 * skin * skin);
        defines["LIST_WARPS_PER_BLOCK"] = cc.intToString(d.listBlockSize / TileSize);
        defines["LIST_STATE_REBUILD"] = cc.intToString(ListStateRebuild);
        defines["LIST_STATE_BUILT"] = cc.intToString(ListStateBuilt);
        defines["LIST_STATE_CHUNKS"] = cc.intToString(ListStateChunks);
    }
    // Sort cells of a non-periodic force: a tenth of the cutoff (at least 0.02 nm).
    defines["INV_SORT_CELL"] = cc.doubleToString(1.0 / (hasCutoff ? std::max(0.02, cutoff / 10) : 0.1));
    // Whether a pair of slots can hold the same atom (which counts 0) other than Self's diagonal.
    if (force.sameAtomPossible)
        defines["CHECK_SAME_ATOM"] = "1";
    d.fusedFinish = hasWarpShuffles && numUnique <= MaxFusedUnique && !d.culling;
    if (d.fusedFinish) {
        defines["FUSED_FINISH"] = "1";
        d.blocksDone.initialize<unsigned int>(cc, 1, "coordinationBlocksDone");
        d.blocksDone.upload(vector<unsigned int>(1, 0));
    }
    // The switching function: its type's device code in switching.cc, selected and given its constants by defines.
    std::map<string, string> replacements;
    addSwitchingFunctionDefines(cc, switching, defines, replacements);

    // E(s) and dE/ds, generated from the expression; global parameters are read from device memory.
    std::map<string, Lepton::ParsedExpression> expressions;
    expressions["energy = "] = force.energy;
    expressions["dEdS = "] = force.energyDerivative;
    // dE/dlambda of each requested global parameter (at fixed s), added to OpenMM's buffer with the energy.
    const vector<Lepton::ParsedExpression>& parameterDerivatives = force.energyParameterDerivatives;
    string declarations, addDerivatives;
    for (int i = 0; i < (int) parameterDerivatives.size(); i++) {
        const string name = "parameterDerivative" + cc.intToString(i);
        expressions[name + " = "] = parameterDerivatives[i];
        declarations += "mixed " + name + " = 0;\n";
        addDerivatives += "energyParamDerivs[parameterDerivativeIndices[" + cc.intToString(i) + "]] += " + name + ";\n";
    }
    if (!parameterDerivatives.empty())
        defines["HAS_PARAMETER_DERIVATIVES"] = "1";
    std::map<string, string> variables;
    variables["s"] = "s";
    for (int i = 0; i < (int) globalParameterNames.size(); i++)
        variables[globalParameterNames[i]] = "globals[" + cc.intToString(i) + "]";
    replacements["COMPUTE_ENERGY"] = declarations + cc.getExpressionUtilities().createExpressions(
        expressions, variables, vector<const TabulatedFunction*>(), vector<std::pair<string, string>>(), "energyTemp",
        "mixed");
    replacements["ADD_PARAMETER_DERIVATIVES"] = addDerivatives;
    if (!parameterDerivatives.empty()) {
        const int mixedBytes = (mixedIsDouble() ? sizeof(double) : sizeof(float));
        d.parameterDerivativeIndices.initialize<int>(cc, parameterDerivatives.size(), "coordinationParameterDerivativeIndices");
        d.parameterDerivativePlaceholder.initialize(cc, parameterDerivatives.size(), mixedBytes, "coordinationParameterDerivatives");
    }
    // One program: the kernel sources of platforms/common/src/kernels, in the order CoordinationCommon.cmake lists them.
    const string source = CoordinationKernelSources::common + CoordinationKernelSources::switching +
                          CoordinationKernelSources::sorting + CoordinationKernelSources::neighborList +
                          CoordinationKernelSources::finish + CoordinationKernelSources::tiles +
                          CoordinationKernelSources::reorder;
    ComputeProgram program = cc.compileProgram(cc.replaceStrings(source, replacements), defines);

    const bool pairMode = (d.mode == CoordinationForce::Pair);
    d.pairKernel = program->createKernel(pairMode ? "computeCoordinationPairs" : "computeCoordinationTiles");
    d.pairKernel->addArg(cc.getPosq());
    d.pairKernel->addArg(pairMode ? d.atomsA : d.sortedA.sortedAtoms);
    d.pairKernel->addArg(pairMode ? d.atomsB : d.sortedB.sortedAtoms);
    d.pairKernel->addArg(pairMode ? d.uniqueA : d.sortedA.sortedUniques);
    d.pairKernel->addArg(pairMode ? d.uniqueB : d.sortedB.sortedUniques);
    d.pairKernel->addArg(d.gradientBuffer);
    d.pairKernel->addArg(d.partialSums);
    d.pairKernel->addArg(1); // computeGradient
    addBoxArgs(*d.pairKernel, cc.getUseDoublePrecision()); // 8-14
    d.pairKernel->addArg(d.cellOffsets);
    if (!pairMode) {
        d.pairKernel->addArg(d.sortedA.tileCenters); // 16-19
        d.pairKernel->addArg(d.sortedA.tileHalfExtents);
        d.pairKernel->addArg(d.sortedB.tileCenters);
        d.pairKernel->addArg(d.sortedB.tileHalfExtents);
        auto createGroupKernels = [&](SortedGroup& g, ComputeArray& atoms, ComputeArray& uniques) {
            g.keyKernel = program->createKernel("computeSortKeys");
            g.keyKernel->addArg(cc.getPosq());
            g.keyKernel->addArg(d.cellOffsets);
            g.keyKernel->addArg(atoms);
            g.keyKernel->addArg(uniques);
            g.keyKernel->addArg(g.numSlots);
            g.keyKernel->addArg(g.keys);
            addBoxArgs(*g.keyKernel, cc.getUseDoublePrecision()); // 6-12
            g.gatherKernel = program->createKernel("gatherSortedSlots");
            g.gatherKernel->addArg(g.keys);
            g.gatherKernel->addArg(atoms);
            g.gatherKernel->addArg(uniques);
            g.gatherKernel->addArg(g.sortedAtoms);
            g.gatherKernel->addArg(g.sortedUniques);
            g.gatherKernel->addArg(g.numSlots);
            g.boundsKernel = program->createKernel("computeTileBounds");
            g.boundsKernel->addArg(cc.getPosq());
            g.boundsKernel->addArg(d.cellOffsets);
            g.boundsKernel->addArg(g.sortedAtoms);
            g.boundsKernel->addArg(g.sortedUniques);
            g.boundsKernel->addArg(g.numSlots);
            g.boundsKernel->addArg(g.numTiles);
            g.boundsKernel->addArg(g.tileCenters);
            g.boundsKernel->addArg(g.tileHalfExtents);
            addBoxArgs(*g.boundsKernel, cc.getUseDoublePrecision()); // 8-14
            if (d.culling) {
                g.boundsKernel->addArg(g.listPositions); // 15
                g.boundsKernel->addArg(d.listState);
                g.boundsKernel->addArg(d.listCapacity);  // 17
                g.boundsKernel->addArg(0);               // 18 parity
                g.boundsKernel->addArg(0);               // 19 forceRebuild
                g.boundsKernel->addArg(&g == &d.sortedA ? 1 : 0); // keepsBooks
            }
        };
        createGroupKernels(d.sortedA, d.atomsA, d.uniqueA);
        if (d.mode == CoordinationForce::Dual)
            createGroupKernels(d.sortedB, d.atomsB, d.uniqueB);
        if (d.culling) {
            d.pairKernel->addArg(d.partialFixed); // 20
            d.pairKernel->addArg(d.listState);
            d.pairKernel->addArg(d.chunkRows);
            d.pairKernel->addArg(d.chunkSlots);
            d.pairKernel->addArg(1);              // 24 useList
            d.pairKernel->addArg(0);              // 25 parity
            d.pairKernel->addArg(d.listCapacity); // 26
            d.buildKernel = program->createKernel("buildNeighborList");
            d.buildKernel->addArg(cc.getPosq());
            d.buildKernel->addArg(d.cellOffsets);
            d.buildKernel->addArg(d.sortedA.sortedAtoms);
            d.buildKernel->addArg(d.sortedA.sortedUniques);
            d.buildKernel->addArg(d.sortedB.sortedAtoms);
            d.buildKernel->addArg(d.sortedB.sortedUniques);
            d.buildKernel->addArg(d.sortedA.tileCenters);
            d.buildKernel->addArg(d.sortedA.tileHalfExtents);
            d.buildKernel->addArg(d.sortedB.tileCenters);
            d.buildKernel->addArg(d.sortedB.tileHalfExtents);
            d.buildKernel->addArg(d.sortedA.listPositions);
            d.buildKernel->addArg(d.sortedB.listPositions);
            d.buildKernel->addArg(d.listState);
            d.buildKernel->addArg(d.chunkRows);
            d.buildKernel->addArg(d.chunkSlots);
            d.buildKernel->addArg(d.listCapacity); // 15
            d.buildKernel->addArg(0);              // 16 parity
            addBoxArgs(*d.buildKernel, cc.getUseDoublePrecision()); // 17-23
        }
    }
    if (d.fusedFinish) {
        d.pairKernel->addArg(d.globals);
        d.pairKernel->addArg(d.results);
        d.pairKernel->addArg(cc.getEnergyBuffer());
        d.fusedAddEnergyArg = pairMode ? 19 : 23;
        d.pairKernel->addArg(1); // addEnergy
        d.pairKernel->addArg(d.uniqueAtoms);
        d.pairKernel->addArg(cc.getLongForceBuffer());
        d.pairKernel->addArg(d.blocksDone);
        if (!parameterDerivatives.empty()) {
            d.fusedDerivativeArg = d.fusedAddEnergyArg + 4;
            d.pairKernel->addArg(d.parameterDerivativePlaceholder); // OpenMM's buffer, set at the first evaluation
            d.pairKernel->addArg(d.parameterDerivativeIndices);
        }
    }

    d.finishKernel = program->createKernel("finishCoordination");
    d.finishKernel->addArg(d.partialSums);
    d.finishKernel->addArg(d.numPartials);
    d.finishKernel->addArg(d.globals);
    d.finishKernel->addArg(d.results);
    d.finishKernel->addArg(cc.getEnergyBuffer());
    d.finishKernel->addArg(1); // addEnergy
    d.finishKernel->addArg(d.gradientBuffer);
    d.finishKernel->addArg(d.uniqueAtoms);
    d.finishKernel->addArg(cc.getLongForceBuffer());
    d.finishKernel->addArg(1); // computeGradient
    d.finishKernel->addArg(d.partialFixed);
    if (!parameterDerivatives.empty()) {
        d.finishDerivativeArg = 11;
        d.finishKernel->addArg(d.parameterDerivativePlaceholder); // OpenMM's buffer, set at the first evaluation
        d.finishKernel->addArg(d.parameterDerivativeIndices);
    }

    d.invertKernel = program->createKernel("invertAtomOrder");
    d.invertKernel->addArg(cc.getAtomIndexArray());
    d.invertKernel->addArg(d.positionOfParticle);
    d.invertKernel->addArg(cc.getNumAtoms());
    d.translateKernel = program->createKernel("translateParticles");
    d.translateKernel->addArg(d.positionOfParticle);
    d.translateKernel->addArg(d.particlesA);
    d.translateKernel->addArg(d.atomsA);
    d.translateKernel->addArg(d.particlesB);
    d.translateKernel->addArg(d.atomsB);
    d.translateKernel->addArg(d.particles);
    d.translateKernel->addArg(d.uniqueAtoms);

    data = std::move(next);
    followAtomOrder();
    globalParameterValues.clear(); // upload on the next evaluation
}

void CommonCalcCoordinationForceKernel::followAtomOrder() {
    if (!data)
        return;
    ContextSelector selector(cc);
    DeviceData& d = *data;
    if (!d.periodic) {
        // updateCellOffsets() looks up the force's atoms in OpenMM's host-side cell offsets.
        const vector<int>& order = cc.getAtomIndex();
        d.hostPositionOfParticle.assign(order.size(), 0);
        for (int i = 0; i < (int) order.size(); i++)
            d.hostPositionOfParticle[order[i]] = i;
    }
    d.invertKernel->execute(cc.getNumAtoms());
    d.translateKernel->execute(std::max({(int) d.groupA.size(), (int) d.groupB.size(), (int) d.uniqueParticles.size(), 1}));
    // The sorted order is of slots, so it survives a reordering; the atoms it points at are gathered again.
    for (SortedGroup* g : {&d.sortedA, &d.sortedB})
        if (g->gatherKernel && g->numSlots > 0)
            g->gatherKernel->execute(g->numSlots);
}

void CommonCalcCoordinationForceKernel::updateCellOffsets() {
    // Only a force without periodic boundary conditions needs them. The offsets change when OpenMM
    // wraps atoms (at reorders, on setPositions): compare on the host, upload only on a change.
    DeviceData& d = *data;
    if (d.periodic || d.uniqueParticles.empty())
        return;
    const vector<mm_int4>& offsets = cc.getPosCellOffsets();
    bool changed = false;
    for (int i = 0; i < (int) d.uniqueParticles.size(); i++) {
        const mm_int4& now = offsets[d.hostPositionOfParticle[d.uniqueParticles[i]]];
        mm_int4& stored = d.hostCellOffsets[i];
        if (now.x != stored.x || now.y != stored.y || now.z != stored.z) {
            stored = mm_int4(now.x, now.y, now.z, 0);
            changed = true;
        }
    }
    if (changed)
        d.cellOffsets.upload(d.hostCellOffsets);
}

void CommonCalcCoordinationForceKernel::updateGlobalParameters(ContextImpl& context) {
    vector<double> values;
    for (const string& name : globalParameterNames)
        values.push_back(context.getParameter(name));
    if (values == globalParameterValues || values.empty())
        return;
    globalParameterValues = values;
    if (mixedIsDouble())
        data->globals.upload(values);
    else
        data->globals.upload(vector<float>(values.begin(), values.end()));
}

bool CommonCalcCoordinationForceKernel::checkListSize() {
    // One small download (a host synchronization), once after each re-sort: how many chunks the last
    // build needed. If the list had no room for them, the tile kernel has been culling instead (right,
    // but slower); grow it and rebuild. Lists built between re-sorts that overflow do the same until then.
    DeviceData& d = *data;
    vector<int> state;
    d.listState.download(state);
    const int previousParity = d.listParity ^ 1;
    const int needed = (state[ListStateRebuild + previousParity] ? state[ListStateBuilt] : state[ListStateChunks]);
    d.checkListSize = false;
    if (needed <= d.listCapacity)
        return false;
    growList(needed);
    d.checkListSize = true; // confirm at the next evaluation
    return true;
}

void CommonCalcCoordinationForceKernel::growList(int needed) {
    DeviceData& d = *data;
    d.listCapacity = needed + needed / 4 + d.numRowTiles;
    d.chunkRows.resize(d.listCapacity);
    d.chunkSlots.resize((size_t) d.listCapacity * TileSize);
    d.pairKernel->setArg(22, d.chunkRows);
    d.pairKernel->setArg(23, d.chunkSlots);
    d.pairKernel->setArg(26, d.listCapacity);
    d.buildKernel->setArg(13, d.chunkRows);
    d.buildKernel->setArg(14, d.chunkSlots);
    d.buildKernel->setArg(15, d.listCapacity);
    for (SortedGroup* g : {&d.sortedA, &d.sortedB})
        if (g->boundsKernel)
            g->boundsKernel->setArg(17, d.listCapacity);
}

void CommonCalcCoordinationForceKernel::launch(bool computeGradient, bool addEnergy) {
    DeviceData& d = *data;
    if (cc.getNumContexts() > 1) {
        // With several devices OpenMM clears this device's force and energy buffers from a worker
        // thread: let that finish before our kernels are queued, or it could erase their results.
        cc.getWorkThread().flush();
    }
    updateCellOffsets();
    const BoxArgs box = currentBox(cc);
    const bool useDouble = cc.getUseDoublePrecision();
    if (d.culling) {
        // Spatial order (now and then) and the tiles' bounding boxes (every evaluation).
        bool rebuild = d.forceListRebuild;
        if (d.needSort || ++d.evaluationsSinceSort >= SortInterval) {
            for (SortedGroup* g : {&d.sortedA, &d.sortedB}) {
                if (!g->sort)
                    continue;
                setBoxArgs(*g->keyKernel, 6, box, useDouble);
                g->keyKernel->execute(g->numSlots);
                g->sort->sort(g->keys);
                g->gatherKernel->execute(g->numSlots);
            }
            d.needSort = false;
            d.evaluationsSinceSort = 0;
            rebuild = true; // the slots moved
            d.checkListSize = true;
        }
        else if (d.checkListSize)
            rebuild = checkListSize() || rebuild;
        // The list's distances are minimum images in the box it was built in; a triclinic box is not listed.
        const bool useList = !box.triclinic;
        if (!(box.a == d.lastBox[0] && box.b == d.lastBox[1] && box.c == d.lastBox[2])) {
            rebuild = true;
            d.lastBox[0] = box.a;
            d.lastBox[1] = box.b;
            d.lastBox[2] = box.c;
        }
        d.forceListRebuild = !useList; // a list left unused goes stale
        for (SortedGroup* g : {&d.sortedA, &d.sortedB}) {
            if (!g->boundsKernel || g->numSlots == 0)
                continue;
            setBoxArgs(*g->boundsKernel, 8, box, useDouble);
            g->boundsKernel->setArg(18, d.listParity);
            g->boundsKernel->setArg(19, rebuild ? 1 : 0);
            g->boundsKernel->execute(g->numTiles);
        }
        if (useList) {
            d.buildKernel->setArg(16, d.listParity);
            setBoxArgs(*d.buildKernel, 17, box, useDouble);
            const int buildThreads = std::max(1, d.numRowTiles + d.sortedB.numTiles) * TileSize;
            d.buildKernel->execute(buildThreads, d.listBlockSize);
            if (d.firstListBuild) {
                // The first list of the context: read its size now (one synchronization per context)
                // and, if the first guess was too small, build it again with room, so that the first
                // evaluation already uses the list (the culling fallback groups pairs into tiles
                // differently, so the last bits of s would change once the list took over).
                d.firstListBuild = false;
                d.checkListSize = false; // sized for this very build: no second read after the re-sort
                vector<int> state;
                d.listState.download(state);
                if (state[ListStateBuilt] > d.listCapacity) {
                    growList(state[ListStateBuilt]);
                    state[ListStateBuilt] = 0; // this evaluation's rebuild flag stays up
                    d.listState.upload(state);
                    d.buildKernel->execute(buildThreads, d.listBlockSize);
                }
            }
        }
        d.pairKernel->setArg(24, useList ? 1 : 0);
        d.pairKernel->setArg(25, d.listParity);
    }
    d.pairKernel->setArg(7, computeGradient ? 1 : 0);
    setBoxArgs(*d.pairKernel, 8, box, useDouble);
    if (d.fusedFinish)
        d.pairKernel->setArg(d.fusedAddEnergyArg, addEnergy ? 1 : 0);
    d.pairKernel->execute(d.pairWorkUnits, d.pairBlockSize);
    d.listParity ^= 1;
    if (d.fusedFinish)
        return; // the pair kernel's last block did the finish
    d.finishKernel->setArg(5, addEnergy ? 1 : 0);
    d.finishKernel->setArg(9, computeGradient ? 1 : 0);
    if (computeGradient)
        d.finishKernel->execute(std::max((int) d.uniqueParticles.size(), FinishBlockSize), FinishBlockSize);
    else
        d.finishKernel->execute(FinishBlockSize, FinishBlockSize);
}

void CommonCalcCoordinationForceKernel::connectParameterDerivatives() {
    // OpenMM's buffer of energy-parameter derivatives exists once the context is initialized; each of
    // ours goes to its name's entry of the first row (like the energy, which goes to energyBuffer[0]).
    DeviceData& d = *data;
    if (d.parameterDerivativeArgsSet || energyParameterDerivativeNames.empty())
        return;
    const vector<string>& allNames = cc.getEnergyParamDerivNames();
    vector<int> indices;
    for (const string& name : energyParameterDerivativeNames)
        indices.push_back((int) (std::find(allNames.begin(), allNames.end(), name) - allNames.begin()));
    d.parameterDerivativeIndices.upload(indices);
    if (d.finishDerivativeArg >= 0)
        d.finishKernel->setArg(d.finishDerivativeArg, cc.getEnergyParamDerivBuffer());
    if (d.fusedDerivativeArg >= 0)
        d.pairKernel->setArg(d.fusedDerivativeArg, cc.getEnergyParamDerivBuffer());
    d.parameterDerivativeArgsSet = true;
}

double CommonCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    connectParameterDerivatives();
    launch(includeForces, true);
    return 0.0; // the energy was added to the context's energy buffer on the device
}

double CommonCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    launch(false, false);
    if (mixedIsDouble()) {
        vector<double> results;
        data->results.download(results);
        return results[0];
    }
    vector<float> results;
    data->results.download(results);
    return results[0];
}

void CommonCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                                const ResolvedCoordinationForce& force) {
    ContextSelector selector(cc);
    build(force);
}
