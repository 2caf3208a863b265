#include "CommonCoordinationProgram.h"
#include "CoordinationKernelSources.h"
#include "CommonSwitchingDefines.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ExpressionUtilities.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;
using std::vector;

namespace {

/** The sizes and modes of the plan. */
void addSizeDefines(ComputeContext& cc, const CommonCoordinationPlan& plan, map<string, string>& defines) {
    typedef CommonCoordinationPlan Plan;
    defines["TILE_SIZE"] = cc.intToString(Plan::TileSize);
    defines["WARPS_PER_BLOCK"] = cc.intToString(Plan::WarpsPerBlock);
    defines["PAIR_BLOCK_SIZE"] = cc.intToString(Plan::PairBlockSize);
    defines["FINISH_BLOCK_SIZE"] = cc.intToString(Plan::FinishBlockSize);
    defines["FINISH_BATCH"] = cc.intToString(Plan::FinishBatch);
    defines["BOUNDS_BLOCK_SIZE"] = cc.intToString(Plan::BoundsBlockSize);
    defines["NUM_A"] = cc.intToString(plan.numA);
    defines["NUM_B"] = cc.intToString(plan.numB);
    defines["NUM_GRADIENT_ROWS"] = cc.intToString(plan.numGradientRows);
    defines["NUM_TILES_A"] = cc.intToString(plan.tilesA);
    defines["NUM_TILES_B"] = cc.intToString(plan.tilesB);
    defines["NUM_TILES"] = cc.intToString((int) plan.numTiles);
    defines["PADDED_NUM_ATOMS"] = cc.intToString(plan.paddedNumAtoms);
    defines[plan.mode == CoordinationForce::Self ? "MODE_SELF" : (plan.mode == CoordinationForce::Dual ? "MODE_DUAL" : "MODE_PAIR")] = "1";
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

/** The cutoff, the culling and the neighbour list's settings, the sort cells, the same-atom check. */
void addCutoffDefines(ComputeContext& cc, const CommonCoordinationPlan& plan, const ResolvedCoordinationForce& force,
                      map<string, string>& defines) {
    typedef CommonCoordinationPlan Plan;
    if (plan.hasCutoff) {
        defines["USE_CUTOFF"] = "1";
        defines["CUTOFF_SQUARED"] = cc.doubleToString(force.switching.cutoffSquared);
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
    // Whether a pair of slots can hold the same atom (which counts 0) other than Self's diagonal.
    if (force.sameAtomPossible)
        defines["CHECK_SAME_ATOM"] = "1";
}

/** E(s) and dE/ds, generated from the expression; global parameters are read from device memory. */
void addEnergyReplacements(ComputeContext& cc, const ResolvedCoordinationForce& force, map<string, string>& defines,
                           map<string, string>& replacements) {
    map<string, Lepton::ParsedExpression> expressions;
    expressions["energy = "] = force.energy;
    expressions["dEdS = "] = force.energyDerivative;
    // dE/dlambda of each requested global parameter (at fixed s), added to OpenMM's buffer with the energy.
    const vector<Lepton::ParsedExpression>& parameterDerivatives = force.energyParameterDerivatives;
    string declarations, addDerivatives;
    for (int i = 0; i < (int) parameterDerivatives.size(); i++) {
        const string name = "parameterDerivative" + cc.intToString(i);
        expressions[name + " = "] = parameterDerivatives[i];
        declarations += "mixed " + name + " = 0;\n";
        addDerivatives += "energyParamDerivs[parameterDerivativeIndices[" + cc.intToString(i) + "]] += (finite ? " +
                          name + " : NOT_A_NUMBER_MIXED);\n";
    }
    if (!parameterDerivatives.empty())
        defines["HAS_PARAMETER_DERIVATIVES"] = "1";
    map<string, string> variables;
    variables["s"] = "s";
    for (int i = 0; i < (int) force.globalParameterNames.size(); i++)
        variables[force.globalParameterNames[i]] = "globals[" + cc.intToString(i) + "]";
    replacements["COMPUTE_ENERGY"] = declarations + cc.getExpressionUtilities().createExpressions(
        expressions, variables, vector<const TabulatedFunction*>(), vector<std::pair<string, string>>(), "energyTemp",
        "mixed");
    replacements["ADD_PARAMETER_DERIVATIVES"] = addDerivatives;
}

} // namespace

ComputeProgram CommonCoordinationProgram::compile(ComputeContext& cc, const CommonCoordinationPlan& plan,
                                                  const ResolvedCoordinationForce& force, SwitchingPath& path) {
    map<string, string> defines, replacements;
    addSizeDefines(cc, plan, defines);
    addCutoffDefines(cc, plan, force, defines);
    path = addSwitchingFunctionDefines(cc, force.switching, defines, replacements);
    addEnergyReplacements(cc, force, defines, replacements);
    // One program: the kernel sources of platforms/common/src/kernels, in the order CoordinationCommon.cmake lists them.
    const string source = CoordinationKernelSources::common + CoordinationKernelSources::switching +
                          CoordinationKernelSources::sorting + CoordinationKernelSources::neighborList +
                          CoordinationKernelSources::finish + CoordinationKernelSources::tiles +
                          CoordinationKernelSources::reorder;
    return cc.compileProgram(cc.replaceStrings(source, replacements), defines);
}
