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
    // Whether a pair of slots can hold the same atom (which counts 0) other than Self's diagonal. (The per-entry
    // numbers drop a pair by its distance instead.)
    if (force.sameAtomPossible && !force.numbers.enabled)
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

/**
 * A CoordinationNumberForce's defines and generated code (numbers.cc): the reductions' sums (NUMBERS_REDUCE), the
 * reductions, E, dE/dR and the parameter derivatives (NUMBERS_ENERGY), the weight of entry i (NUMBERS_WEIGHT); the
 * force finish applies the gradient with dE/ds = 1 and adds no energy (the numbers' finish does).
 */
void addNumbersReplacements(ComputeContext& cc, const CommonCoordinationPlan& plan, const ResolvedCoordinationForce& force,
                            map<string, string>& defines, map<string, string>& replacements) {
    const ResolvedCoordinationNumbers& numbers = force.numbers;
    const int numReductions = numbers.reductions.size();
    defines["COORDINATION_NUMBERS"] = "1";
    defines["NUM_REDUCTIONS"] = cc.intToString(numReductions);
    defines["NUMBERS_BLOCK_SIZE"] = cc.intToString(plan.numbersBlockSize);
    defines["MIN_DISTANCE_SQUARED"] = cc.doubleToString(ResolvedCoordinationNumbers::minimumDistanceSquared);
    defines["MIN_SWITCH"] = cc.doubleToString(ResolvedCoordinationNumbers::minimumSwitch);
    if (numbers.rPower != 0.0)
        defines["R_POWER"] = cc.doubleToString(numbers.rPower);
    ExpressionUtilities& utilities = cc.getExpressionUtilities();
    const vector<const TabulatedFunction*> functions;
    const vector<std::pair<string, string>> functionNames;
    map<string, string> globals;
    for (int i = 0; i < (int) force.globalParameterNames.size(); i++)
        globals[force.globalParameterNames[i]] = "globals[" + cc.intToString(i) + "]";
    string reduce, energy, weight;
    map<string, string> energyVariables = globals;
    map<string, Lepton::ParsedExpression> energyExpressions;
    energyExpressions["energy = "] = force.energy;
    energy += "mixed energy = 0;\n";
    for (int q = 0; q < numReductions; q++) {
        const ResolvedReduction& reduction = numbers.reductions[q];
        const string Q = cc.intToString(q);
        const string value = string("numberValues[i]") + (reduction.centred ? " - mean" : "");
        map<string, string> termVariables = globals, outerVariables = globals;
        termVariables[ResolvedReduction::termVariable()] = "v";
        outerVariables[ResolvedReduction::outerVariable()] = "numberSum" + Q;
        energy += "mixed numberReduction" + Q + " = 0, numberEnergyDerivative" + Q + " = 0;\n";
        if (reduction.extreme) {
            reduce += "mixed numberSum" + Q + ";\nconst int numberExtreme" + Q + " = extremeOverBlock(numberValues, " +
                      (reduction.highest ? "true" : "false") + ", &numberSum" + Q + ", reduceTemp, indexTemp);\n";
            energy += "numberReduction" + Q + " = numberSum" + Q + ";\n";
            weight += "if (i == numberExtreme" + Q + ")\n    w += numberEnergyDerivative" + Q + ";\n";
        }
        else {
            map<string, Lepton::ParsedExpression> termExpressions;
            termExpressions["term = "] = reduction.term;
            if (reduction.centred)
                termExpressions["termDerivative = "] = reduction.termDerivative;
            reduce += "mixed numberSum" + Q + ", numberDerivativeSum" + Q + ";\n{\n"
                      "mixed sum = 0, compensation = 0, derivativeSum = 0, derivativeCompensation = 0;\n"
                      "for (int i = LOCAL_ID; i < NUM_A; i += LOCAL_SIZE) {\n"
                      "const mixed v = " + value + ";\nmixed term = 0, termDerivative = 0;\n" +
                      utilities.createExpressions(termExpressions, termVariables, functions, functionNames,
                                                  "numberTerm" + Q + "_", "mixed") +
                      "compensatedAdd(&sum, &compensation, term);\n"
                      "compensatedAdd(&derivativeSum, &derivativeCompensation, termDerivative);\n}\n"
                      "numberSum" + Q + " = reduceOverBlock(sum, reduceTemp);\n"
                      "numberDerivativeSum" + Q + " = " + (reduction.centred ? "reduceOverBlock(derivativeSum, reduceTemp)" : "0") +
                      ";\n}\n";
            map<string, Lepton::ParsedExpression> outerExpressions;
            outerExpressions["numberReduction" + Q + " = "] = reduction.outer;
            outerExpressions["numberOuterDerivative" + Q + " = "] = reduction.outerDerivative;
            energy += "mixed numberOuterDerivative" + Q + " = 0;\n{\n" +
                      utilities.createExpressions(outerExpressions, outerVariables, functions, functionNames,
                                                  "numberOuter" + Q + "_", "mixed") + "}\n";
            map<string, Lepton::ParsedExpression> derivativeExpression;
            derivativeExpression["termDerivative = "] = reduction.termDerivative;
            // A reduction whose dE/dR is exactly 0 contributes nothing (not even a non-finite term').
            weight += "if (numberEnergyDerivative" + Q + " != 0) {\nconst mixed v = c" +
                      (reduction.centred ? " - mean" : "") + ";\nmixed termDerivative = 0;\n" +
                      utilities.createExpressions(derivativeExpression, termVariables, functions, functionNames,
                                                  "numberWeight" + Q + "_", "mixed") +
                      "w += numberEnergyDerivative" + Q + " * numberOuterDerivative" + Q + " * (termDerivative - " +
                      (reduction.centred ? "numberDerivativeSum" + Q + " / (mixed) NUM_A" : string("0")) + ");\n}\n";
        }
        energyVariables[reduction.name] = "numberReduction" + Q;
        energyExpressions["numberEnergyDerivative" + Q + " = "] = numbers.energyDerivatives[q];
    }
    string addDerivatives;
    const vector<Lepton::ParsedExpression>& parameterDerivatives = force.energyParameterDerivatives;
    for (int i = 0; i < (int) parameterDerivatives.size(); i++) {
        const string name = "parameterDerivative" + cc.intToString(i);
        energyExpressions[name + " = "] = parameterDerivatives[i];
        energy += "mixed " + name + " = 0;\n";
        addDerivatives += "energyParamDerivs[parameterDerivativeIndices[" + cc.intToString(i) + "]] += (finite ? " +
                          name + " : NOT_A_NUMBER_MIXED);\n";
    }
    if (!parameterDerivatives.empty())
        defines["HAS_PARAMETER_DERIVATIVES"] = "1";
    energy += "{\n" + utilities.createExpressions(energyExpressions, energyVariables, functions, functionNames,
                                                   "numberEnergy_", "mixed") + "}\n";
    string finite = "bool finite = !nonFinitePositions && MIXED_IS_FINITE(mean) && MIXED_IS_FINITE(energy)";
    for (int q = 0; q < numReductions; q++) {
        const string Q = cc.intToString(q);
        finite += " && MIXED_IS_FINITE(numberReduction" + Q + ")";
        if (numbers.reductions[q].extreme)
            finite += " && MIXED_IS_FINITE(numberEnergyDerivative" + Q + ")";
        energy += "if (LOCAL_ID == 0)\n    numberResults[" + Q + "] = (nonFinitePositions ? NOT_A_NUMBER_MIXED : numberReduction" +
                  Q + ");\n";
    }
    energy += finite + ";\n";
    replacements["NUMBERS_REDUCE"] = reduce;
    replacements["NUMBERS_ENERGY"] = energy;
    replacements["NUMBERS_WEIGHT"] = weight;
    replacements["NUMBERS_ADD_PARAMETER_DERIVATIVES"] = addDerivatives;
    // The force finish: F -= 1 * (sum of w dc/dx), no energy of its own.
    replacements["COMPUTE_ENERGY"] = "dEdS = 1;";
    replacements["ADD_PARAMETER_DERIVATIVES"] = "";
}

} // namespace

ComputeProgram CommonCoordinationProgram::compile(ComputeContext& cc, const CommonCoordinationPlan& plan,
                                                  const ResolvedCoordinationForce& force, SwitchingPath& path) {
    map<string, string> defines, replacements;
    addSizeDefines(cc, plan, defines);
    addCutoffDefines(cc, plan, force, defines);
    path = addSwitchingFunctionDefines(cc, force.switching, defines, replacements);
    if (force.numbers.enabled)
        addNumbersReplacements(cc, plan, force, defines, replacements);
    else
        addEnergyReplacements(cc, force, defines, replacements);
    // One program: the kernel sources of platforms/common/src/kernels, in the order CoordinationCommon.cmake lists them.
    const string source = CoordinationKernelSources::common + CoordinationKernelSources::switching +
                          CoordinationKernelSources::sorting + CoordinationKernelSources::neighborList +
                          CoordinationKernelSources::finish + CoordinationKernelSources::numbers +
                          CoordinationKernelSources::tiles +
                          CoordinationKernelSources::reorder;
    return cc.compileProgram(cc.replaceStrings(source, replacements), defines);
}
