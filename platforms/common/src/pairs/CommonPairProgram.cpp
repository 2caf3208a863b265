#include "pairs/CommonPairProgram.h"
#include "CoordinationKernelSources.h"
#include "switching/CommonSwitchingDefines.h"
#include <algorithm>
#include <map>
#include <string>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;

namespace {

/** The sizes and modes of the plan. */
void addSizeDefines(ComputeContext& cc, const CommonPairPlan& plan, map<string, string>& defines) {
    typedef CommonPairPlan Plan;
    defines["TILE_SIZE"] = cc.intToString(Plan::TileSize);
    defines["WARPS_PER_BLOCK"] = cc.intToString(Plan::WarpsPerBlock);
    defines["PAIR_BLOCK_SIZE"] = cc.intToString(Plan::PairBlockSize);
    defines["FINISH_BLOCK_SIZE"] = cc.intToString(Plan::FinishBlockSize);
    defines["FINISH_BATCH"] = cc.intToString(Plan::FinishBatch);
    defines["BOUNDS_BLOCK_SIZE"] = cc.intToString(Plan::BoundsBlockSize);
    defines["NUM_A"] = cc.intToString(plan.numA);
    defines["NUM_B"] = cc.intToString(plan.numB);
    defines["NUM_GRADIENT_ROWS"] = cc.intToString(plan.numGradientRows);
    defines["NUM_SLOT_ROWS"] = cc.intToString(plan.numSlotRows);
    defines["NUM_TILES_A"] = cc.intToString(plan.tilesA);
    defines["NUM_TILES_B"] = cc.intToString(plan.tilesB);
    defines["NUM_TILES"] = cc.intToString((int) plan.numTiles);
    defines["PADDED_NUM_ATOMS"] = cc.intToString(plan.paddedNumAtoms);
    defines[plan.mode == PairSwitchingForce::Self ? "MODE_SELF"
                                                  : (plan.mode == PairSwitchingForce::Dual ? "MODE_DUAL" : "MODE_PAIR")] = "1";
    if (plan.periodic)
        defines["USE_PERIODIC"] = "1";
    if (plan.fusedFinish)
        defines["FUSED_FINISH"] = "1";
    if (plan.groupsSwapped)
        defines["GROUPS_SWAPPED"] = "1";
    if (plan.useDouble)
        defines["REAL_IS_DOUBLE"] = "1";
    if (plan.mixedIsDouble)
        defines["MIXED_IS_DOUBLE"] = "1";
}

/** The cutoff, the culling and the neighbour list's settings, the sort cells, the same-member check. */
void addCutoffDefines(ComputeContext& cc, const CommonPairPlan& plan, const ResolvedPairGroups& groups,
                      const CommonPairBody& body, map<string, string>& defines) {
    typedef CommonPairPlan Plan;
    if (plan.hasCutoff) {
        defines["USE_CUTOFF"] = "1";
        defines["CUTOFF_SQUARED"] = cc.doubleToString(groups.switching.cutoffSquared);
    }
    if (plan.culling) {
        defines["USE_CULLING"] = "1";
        defines["CULL_CHUNK"] = cc.intToString(plan.cullChunk);
        defines["PADDED_CUTOFF"] = cc.doubleToString(plan.paddedCutoff);
        defines["PADDED_CUTOFF_SQUARED"] = cc.doubleToString(plan.paddedCutoff * plan.paddedCutoff);
        defines["USE_NEIGHBOR_LIST"] = "1";
        defines["PADDED_LIST_CUTOFF"] = cc.doubleToString(plan.listCutoff);
        defines["PADDED_LIST_CUTOFF_SQUARED"] = cc.doubleToString(plan.listCutoff * plan.listCutoff);
        defines["HALF_SKIN_SQUARED"] = cc.doubleToString(0.25 * plan.skin * plan.skin);
        defines["LIST_WARPS_PER_BLOCK"] = cc.intToString(plan.listBlockSize / Plan::TileSize);
        defines["LIST_STATE_REBUILD"] = cc.intToString(Plan::ListStateRebuild);
        defines["LIST_STATE_BUILT"] = cc.intToString(Plan::ListStateBuilt);
        defines["LIST_STATE_CHUNKS"] = cc.intToString(Plan::ListStateChunks);
        defines["LIST_STATE_NEXT_ITEM"] = cc.intToString(Plan::ListStateNextItem);
    }
    defines["INV_SORT_CELL"] = cc.doubleToString(1.0 / plan.sortCell);
    // Whether a pair of slots can hold the same member other than Self's diagonal (such a pair counts 0), where the
    // body does not drop it by itself.
    if (groups.sameAtomPossible && body.needsSameMemberCheck())
        defines["CHECK_SAME_ATOM"] = "1";
}

} // namespace

ComputeProgram CommonPairProgram::compile(ComputeContext& cc, const CommonPairPlan& plan, const ResolvedPairGroups& groups,
                                          const CommonPairArrays& arrays, CommonPairBody& body, SwitchingPath& path) {
    map<string, string> defines, replacements;
    addSizeDefines(cc, plan, defines);
    arrays.centers.addDefines(cc, std::max(plan.numUnique, 1), defines);
    addCutoffDefines(cc, plan, groups, body, defines);
    path = CommonSwitchingDefines::add(cc, groups.switching, defines, replacements);
    const string bodySource = body.addToProgram(cc, plan, defines, replacements);
    // One program: the traversal's kernel sources with the body's between the finish and the tile kernel.
    const string source = CoordinationKernelSources::common + CoordinationKernelSources::reductions +
                          CoordinationKernelSources::energyOutputs + CoordinationKernelSources::centers +
                          CoordinationKernelSources::switching + CoordinationKernelSources::sorting +
                          CoordinationKernelSources::neighborList + CoordinationKernelSources::finish + bodySource +
                          CoordinationKernelSources::tiles + CoordinationKernelSources::reorder;
    return cc.compileProgram(cc.replaceStrings(source, replacements), defines);
}
