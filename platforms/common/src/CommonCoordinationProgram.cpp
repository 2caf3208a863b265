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
    defines["NUM_SLOT_ROWS"] = cc.intToString(plan.numSlotRows);
    if (plan.numCenters > 0) {
        defines["HAS_CENTERS"] = "1";
        defines["NUM_ATOMS"] = cc.intToString(plan.numAtoms);
        defines["NUM_CENTERS"] = cc.intToString(plan.numCenters);
        defines["NUM_CENTER_ENTRIES"] = cc.intToString(plan.numCenterEntries);
        defines["CENTER_LANES"] = cc.intToString(Plan::CenterLanes);
        defines["CENTER_BATCH"] = cc.intToString(Plan::CenterBatch);
        if (plan.centersInBlock)
            defines["CENTERS_IN_BLOCK"] = "1";
        defines["CENTER_OFFSET_BASE"] = cc.intToString(std::max(plan.numUnique, 1));
        if (plan.centerOffsets)
            defines["CENTER_OFFSETS"] = "1";
    }
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
 * A CoordinationNumberForce's defines and generated code (numbers.cc): each phase's per-entry sums of the reductions
 * (NUMBERS_ENTRY_*, NUMBERS_CENTRED_*), their combination over the parts (NUMBERS_COMBINE), the reductions, E, dE/dR
 * and the parameter derivatives (NUMBERS_ENERGY, NUMBERS_STORE), the weight of entry i (NUMBERS_WEIGHT). The force
 * finish applies the gradient with dE/ds = 1 and adds no energy (the numbers' finish does).
 */
void addNumbersReplacements(ComputeContext& cc, const CommonCoordinationPlan& plan, const ResolvedCoordinationForce& force,
                            map<string, string>& defines, map<string, string>& replacements) {
    const ResolvedCoordinationNumbers& numbers = force.numbers;
    const int numReductions = numbers.reductions.size();
    const string NR = cc.intToString(numReductions);
    defines["COORDINATION_NUMBERS"] = "1";
    defines["NUM_REDUCTIONS"] = NR;
    defines["NUMBERS_BLOCK_SIZE"] = cc.intToString(plan.numbersBlockSize);
    defines["NUMBER_PARTS"] = cc.intToString(plan.numberParts);
    defines["NUMBERS_MEAN_INDEX"] = cc.intToString(3 * numReductions + (int) force.energyParameterDerivatives.size());
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
    auto generate = [&](const map<string, Lepton::ParsedExpression>& expressions, const map<string, string>& variables,
                        const string& prefix) {
        return utilities.createExpressions(expressions, variables, functions, functionNames, prefix, "mixed");
    };
    string entryDeclare, entryAccumulate, entryReduce, centredDeclare, centredAccumulate, centredReduce, combine, energy,
        store, weight;
    map<string, string> energyVariables = globals;
    map<string, Lepton::ParsedExpression> energyExpressions;
    energyExpressions["energy = "] = force.energy;
    energy += "mixed energy = 0;\n";
    bool anyCentred = false;
    for (int q = 0; q < numReductions; q++) {
        const ResolvedReduction& reduction = numbers.reductions[q];
        const string Q = cc.intToString(q);
        const string highest = (reduction.highest ? "true" : "false");
        const string part = "[" + Q + " * numParts + part]";
        map<string, string> termVariables = globals, outerVariables = globals;
        termVariables[ResolvedReduction::termVariable()] = "v";
        outerVariables[ResolvedReduction::outerVariable()] = "numberSum" + Q;
        map<string, Lepton::ParsedExpression> term, termDerivative;
        term["term = "] = reduction.term;
        termDerivative["termDerivative = "] = reduction.termDerivative;
        energy += "mixed numberReduction" + Q + " = 0, numberEnergyDerivative" + Q + " = 0;\n";
        if (reduction.extreme) {
            entryDeclare += "mixed best" + Q + " = 0;\nint bestIndex" + Q + " = NO_ENTRY;\n";
            entryAccumulate += "keepExtreme(c, i, " + highest + ", &best" + Q + ", &bestIndex" + Q + ");\n";
            entryReduce += "{\nmixed value;\nconst int entry = extremeOverBlock(best" + Q + ", bestIndex" + Q + ", " + highest +
                           ", &value, reduceTemp, indexTemp);\nif (LOCAL_ID == 0) {\npartialSums" + part +
                           " = value;\npartialIndices" + part + " = entry;\n}\n}\n";
            combine += "mixed numberSum" + Q + ";\nint numberExtreme" + Q + ";\n{\nmixed best = 0;\nint bestIndex = NO_ENTRY;\n"
                       "for (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)\n"
                       "keepExtreme(partial[" + Q + " * numParts + p], partialIndex[" + Q + " * numParts + p], " +
                       highest + ", &best, &bestIndex);\nnumberExtreme" + Q + " = extremeOverBlock(best, bestIndex, " +
                       highest + ", &numberSum" + Q + ", reduceTemp, indexTemp);\n}\n";
            energy += "numberReduction" + Q + " = numberSum" + Q + ";\n";
            store += "numberCoefficients[3 * " + Q + " + 2] = numberEnergyDerivative" + Q + ";\nnumberIndices[" + Q +
                     "] = numberExtreme" + Q + ";\n";
            weight += "if (i == ((GLOBAL volatile const int*) numberIndices)[" + Q + "])\n    w += coefficients[3 * " + Q +
                      " + 2];\n";
        }
        else {
            string sumCode = "mixed termSum" + Q + " = 0, termCompensation" + Q + " = 0;\n";
            string reduceCode = "{\nconst mixed total = sumOverBlock(termSum" + Q + ", reduceTemp);\n"
                                "if (LOCAL_ID == 0)\npartialSums" + part + " = total;\n}\n";
            combine += "mixed numberSum" + Q + ", numberDerivativeSum" + Q + " = 0;\n{\nmixed sum = 0, compensation = 0;\n"
                       "for (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)\n"
                       "compensatedAdd(&sum, &compensation, partial[" + Q + " * numParts + p]);\n"
                       "numberSum" + Q + " = sumOverBlock(sum, reduceTemp);\n}\n";
            if (reduction.centred) {
                anyCentred = true;
                map<string, Lepton::ParsedExpression> both = term;
                both["termDerivative = "] = reduction.termDerivative;
                centredDeclare += sumCode + "mixed derivativeSum" + Q + " = 0, derivativeCompensation" + Q + " = 0;\n";
                centredAccumulate += "{\nmixed term = 0, termDerivative = 0;\n" + generate(both, termVariables, "numberTerm" + Q + "_") +
                                     "compensatedAdd(&termSum" + Q + ", &termCompensation" + Q + ", term);\n"
                                     "compensatedAdd(&derivativeSum" + Q + ", &derivativeCompensation" + Q + ", termDerivative);\n}\n";
                centredReduce += reduceCode + "{\nconst mixed total = sumOverBlock(derivativeSum" + Q + ", reduceTemp);\n"
                                 "if (LOCAL_ID == 0)\npartialSums[(" + NR + " + " + Q + ") * numParts + part] = total;\n}\n";
                combine += "{\nmixed sum = 0, compensation = 0;\nfor (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)\n"
                           "compensatedAdd(&sum, &compensation, partial[(" + NR + " + " + Q + ") * numParts + p]);\n"
                           "numberDerivativeSum" + Q + " = sumOverBlock(sum, reduceTemp);\n}\n";
            }
            else {
                entryDeclare += sumCode;
                entryAccumulate += "{\nconst mixed v = c;\nmixed term = 0;\n" + generate(term, termVariables, "numberTerm" + Q + "_") +
                                   "compensatedAdd(&termSum" + Q + ", &termCompensation" + Q + ", term);\n}\n";
                entryReduce += reduceCode;
            }
            map<string, Lepton::ParsedExpression> outer;
            outer["numberReduction" + Q + " = "] = reduction.outer;
            outer["numberOuterDerivative" + Q + " = "] = reduction.outerDerivative;
            energy += "mixed numberOuterDerivative" + Q + " = 0;\n{\n" + generate(outer, outerVariables, "numberOuter" + Q + "_") + "}\n";
            store += "numberCoefficients[3 * " + Q + "] = numberEnergyDerivative" + Q + " * numberOuterDerivative" + Q + ";\n"
                     "numberCoefficients[3 * " + Q + " + 1] = " +
                     (reduction.centred ? "numberDerivativeSum" + Q + " / (mixed) NUM_A" : string("0")) + ";\n"
                     "numberCoefficients[3 * " + Q + " + 2] = numberEnergyDerivative" + Q + ";\n";
            // A reduction whose dE/dR is exactly 0 contributes nothing (not even a non-finite term').
            weight += "if (coefficients[3 * " + Q + " + 2] != 0) {\nconst mixed v = c" + (reduction.centred ? " - mean" : "") +
                      ";\nmixed termDerivative = 0;\n" + generate(termDerivative, termVariables, "numberWeight" + Q + "_") +
                      "w += coefficients[3 * " + Q + "] * (termDerivative - coefficients[3 * " + Q + " + 1]);\n}\n";
        }
        energyVariables[reduction.name] = "numberReduction" + Q;
        energyExpressions["numberEnergyDerivative" + Q + " = "] = numbers.energyDerivatives[q];
    }
    if (anyCentred)
        defines["NUMBERS_CENTRED"] = "1";
    string addDerivatives;
    const vector<Lepton::ParsedExpression>& parameterDerivatives = force.energyParameterDerivatives;
    for (int i = 0; i < (int) parameterDerivatives.size(); i++) {
        const string name = "parameterDerivative" + cc.intToString(i);
        const string index = cc.intToString(3 * numReductions + i);
        energyExpressions[name + " = "] = parameterDerivatives[i];
        energy += "mixed " + name + " = 0;\n";
        store += "numberCoefficients[" + index + "] = " + name + ";\n";
        addDerivatives += "energyParamDerivs[parameterDerivativeIndices[" + cc.intToString(i) + "]] += (finite ? coefficients[" +
                          index + "] : NOT_A_NUMBER_MIXED);\n";
    }
    if (!parameterDerivatives.empty())
        defines["HAS_PARAMETER_DERIVATIVES"] = "1";
    energy += "{\n" + generate(energyExpressions, energyVariables, "numberEnergy_") + "}\n";
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
    replacements["NUMBERS_ENTRY_DECLARE"] = entryDeclare;
    replacements["NUMBERS_ENTRY_ACCUMULATE"] = entryAccumulate;
    replacements["NUMBERS_ENTRY_REDUCE"] = entryReduce;
    replacements["NUMBERS_CENTRED_DECLARE"] = centredDeclare;
    replacements["NUMBERS_CENTRED_ACCUMULATE"] = centredAccumulate;
    replacements["NUMBERS_CENTRED_REDUCE"] = centredReduce;
    replacements["NUMBERS_COMBINE"] = combine;
    replacements["NUMBERS_ENERGY"] = energy;
    replacements["NUMBERS_STORE"] = store;
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
    const string source = CoordinationKernelSources::common + CoordinationKernelSources::centers +
                          CoordinationKernelSources::switching +
                          CoordinationKernelSources::sorting + CoordinationKernelSources::neighborList +
                          CoordinationKernelSources::finish + CoordinationKernelSources::numbers +
                          CoordinationKernelSources::tiles +
                          CoordinationKernelSources::reorder;
    return cc.compileProgram(cc.replaceStrings(source, replacements), defines);
}
