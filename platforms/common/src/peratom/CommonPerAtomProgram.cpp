#include "peratom/CommonPerAtomProgram.h"
#include "energy/CommonEnergyCode.h"
#include "openmm/common/ExpressionUtilities.h"
#include <utility>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;
using std::vector;

/**
 * The per-atom engine's defines and generated code (kernels/peratom): each phase's per-entry sums of the reductions
 * (NUMBERS_ENTRY_*, NUMBERS_CENTRED_*), their combination over the parts (NUMBERS_COMBINE), the reductions, E, dE/dR
 * and the parameter derivatives (NUMBERS_ENERGY, NUMBERS_STORE), the weight of entry i (NUMBERS_WEIGHT). The force
 * finish applies the gradient with dE/ds = 1 and adds no energy (the numbers' finish does).
 */
void CommonPerAtomProgram::addToProgram(ComputeContext& cc, const CommonPerAtomPlan& plan, const ResolvedPerAtom& numbers,
                                        const ResolvedEnergy& energyOfReductions, map<string, string>& defines,
                                        map<string, string>& replacements) {
    const int numReductions = numbers.reductions.size();
    const string NR = cc.intToString(numReductions);
    defines["COORDINATION_NUMBERS"] = "1";
    defines["NUM_REDUCTIONS"] = NR;
    defines["NUMBERS_BLOCK_SIZE"] = cc.intToString(CommonPerAtomPlan::BlockSize);
    defines["NUMBER_PARTS"] = cc.intToString(plan.numParts);
    defines["NUMBERS_MEAN_INDEX"] = cc.intToString(3 * numReductions + plan.numParameterDerivatives);
    defines["MIN_DISTANCE_SQUARED"] = cc.doubleToString(ResolvedPerAtom::minimumDistanceSquared);
    defines["MIN_SWITCH"] = cc.doubleToString(ResolvedPerAtom::minimumSwitch);
    if (numbers.rPower != 0.0)
        defines["R_POWER"] = cc.doubleToString(numbers.rPower);
    ExpressionUtilities& utilities = cc.getExpressionUtilities();
    const vector<const TabulatedFunction*> functions;
    const vector<std::pair<string, string>> functionNames;
    map<string, string> globals;
    for (int i = 0; i < (int) energyOfReductions.globalParameterNames.size(); i++)
        globals[energyOfReductions.globalParameterNames[i]] = "globals[" + cc.intToString(i) + "]";
    auto generate = [&](const map<string, Lepton::ParsedExpression>& expressions, const map<string, string>& variables,
                        const string& prefix) {
        return utilities.createExpressions(expressions, variables, functions, functionNames, prefix, "mixed");
    };
    string entryDeclare, entryAccumulate, entryReduce, centredDeclare, centredAccumulate, centredReduce, combine, energy,
        store, weight;
    vector<string> energyVariables, energyDerivativeTargets, parameterDerivativeSources;
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
        energyVariables.push_back("numberReduction" + Q);
        energyDerivativeTargets.push_back("numberEnergyDerivative" + Q);
    }
    if (anyCentred)
        defines["NUMBERS_CENTRED"] = "1";
    // E of the reductions, dE/dR (numberEnergyDerivative<q>) and the parameter derivatives, which the weights' phase
    // stores among the coefficients and the energy's phase adds from there.
    for (int i = 0; i < plan.numParameterDerivatives; i++) {
        const string index = cc.intToString(3 * numReductions + i);
        parameterDerivativeSources.push_back("coefficients[" + index + "]");
        store += "numberCoefficients[" + index + "] = " + CommonEnergyCode::parameterDerivativeName(cc, i) + ";\n";
    }
    CommonEnergyCode::addDefines(energyOfReductions, defines);
    const CommonEnergyCode energyCode = CommonEnergyCode::create(cc, energyOfReductions, energyVariables, energyDerivativeTargets,
                                                                 "numberEnergy_", parameterDerivativeSources);
    energy += energyCode.declarations + "{\n" + energyCode.evaluation + "}\n";
    const string addDerivatives = energyCode.addParameterDerivatives;
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

