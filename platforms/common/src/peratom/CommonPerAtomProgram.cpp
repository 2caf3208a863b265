#include "peratom/CommonPerAtomProgram.h"
#include "energy/CommonEnergyCode.h"
#include "internal/NumberText.h"
#include "internal/energy/ExpressionConstants.h"
#include "internal/peratom/SphericalHarmonics.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ExpressionUtilities.h"
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <utility>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;
using std::vector;

namespace {

/** Refuse a reduction's constant that the finish's type cannot hold (single precision computes it in float). */
void checkFloatRange(const CommonPerAtomPlan& plan, const ResolvedReduction& reduction, const string& what, double value) {
    const double magnitude = std::fabs(value);
    if (plan.mixedIsDouble || magnitude == 0.0 || !std::isfinite(value) ||
        (magnitude >= FLT_MIN && magnitude <= FLT_MAX))
        return;
    throw OpenMMException("CoordinationNumberForce: reduction \"" + reduction.name + "\": " + what + " = " +
                          numberText(value) + " is outside the range of a float (" + numberText(FLT_MIN) + " to " +
                          numberText(FLT_MAX) + " in magnitude), in which single precision computes the reductions; "
                          "use the platform's mixed or double precision, or other settings");
}

/** Every constant of a reduction's expression, checked with checkFloatRange. */
void checkFloatRange(const CommonPerAtomPlan& plan, const ResolvedReduction& reduction,
                     const Lepton::ExpressionTreeNode& node) {
    forEachConstant(node, [&](double value) { checkFloatRange(plan, reduction, "a constant of its function", value); });
}

/** BETA of a log-sum-exp as a literal of the finish's type (mixed). */
string mixedLiteral(ComputeContext& cc, const CommonPerAtomPlan& plan, const ResolvedReduction& reduction, double value) {
    checkFloatRange(plan, reduction, "BETA", value);
    return "(mixed) " + cc.doubleToString(value, true);
}

/** The initialiser of a kernel's constant array of reals: "(real) a, (real) b, ...". */
string realList(ComputeContext& cc, const vector<double>& values) {
    string list;
    for (double value : values)
        list += (list.empty() ? "" : ", ") + string("(real) ") + cc.doubleToString(value);
    return list;
}

} // namespace

/**
 * ShellFunction's defines and the code of its parts (kernels/peratom/perAtomTerms.cc): SHELL_VALUES sets parts[p]
 * = g_p(x, y, z, r); SHELL_GRADIENTS sets parts[p], gradients[p] = (dg/dx, dg/dy, dg/dz) and partialR[p] = dg/dr.
 */
void CommonPerAtomProgram::addShellFunction(ComputeContext& cc, const ResolvedPerAtom& numbers,
                                            map<string, string>& defines, map<string, string>& replacements) {
    const int numParts = numbers.shellParts.size(), first = (numbers.shellNormalised ? 1 : 0);
    defines["SHELL_FUNCTION"] = "1";
    defines["SHELL_PARTS"] = cc.intToString(numParts);
    defines["SHELL_FIRST_PART"] = cc.intToString(first);
    for (int p = 0; p < numParts; p++)
        if (numbers.shellParts[p].parity < 0) {
            if (defines.count("SHELL_ODD_COMPONENT"))
                throw OpenMMException("CommonPerAtomProgram: a shell function with two odd parts");
            defines["SHELL_ODD_COMPONENT"] = cc.intToString(first + p);
        }
    map<string, string> variables;
    for (int k = 0; k < 4; k++)
        variables[ResolvedPerAtom::shellVariables()[k]] = ResolvedPerAtom::shellVariables()[k];
    map<string, Lepton::ParsedExpression> values, gradients;
    for (int p = 0; p < numParts; p++) {
        const ResolvedPerAtom::ShellPart& part = numbers.shellParts[p];
        const string P = cc.intToString(p);
        values["parts[" + P + "] = "] = part.value;
        gradients["parts[" + P + "] = "] = part.value;
        gradients["gradients[" + P + "].x = "] = part.dx;
        gradients["gradients[" + P + "].y = "] = part.dy;
        gradients["gradients[" + P + "].z = "] = part.dz;
        gradients["partialR[" + P + "] = "] = part.dr;
    }
    ExpressionUtilities& utilities = cc.getExpressionUtilities();
    const vector<const TabulatedFunction*> functions;
    const vector<std::pair<string, string>> functionNames;
    replacements["SHELL_VALUES"] = utilities.createExpressions(values, variables, functions, functionNames, "shellValue_", "real");
    replacements["SHELL_GRADIENTS"] = utilities.createExpressions(gradients, variables, functions, functionNames, "shellGradient_", "real");
}

/**
 * The per-atom engine's defines and generated code (kernels/peratom): each phase's per-entry sums of the reductions
 * (NUMBERS_ENTRY_*, NUMBERS_SECOND_*), their combination over the parts (NUMBERS_COMBINE), the reductions, E, dE/dR
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
    // 2^42 over the entries a number sums over: no sum of terms below it wraps the fixed point (perAtomPairs.cc).
    defines["NUMBER_PAIR_LIMIT"] = cc.doubleToString(std::ldexp(1.0, 42) / std::max({plan.numA, plan.numB, 1}));
    if (numbers.rPower != 0.0)
        defines["R_POWER"] = cc.doubleToString(numbers.rPower);
    // The pair term and the per-atom step (kernels/peratom/perAtomTerms.cc).
    if (!numbers.isKnownComposition())
        throw OpenMMException("CommonPerAtomProgram: a per-atom composition the GPU kernels do not know");
    defines["NUM_COMPONENTS"] = cc.intToString(numbers.numComponents);
    // The entries with a number (the reductions'): all of A, or those before the local step's neighbours.
    defines["NUM_CENTRAL"] = cc.intToString(plan.numCentral);
    if (plan.hasNeighborPartners())
        defines["NEIGHBOR_PARTNERS"] = "1";
    if (plan.numCentral < plan.numA)
        defines["LOCAL_NEIGHBORS"] = "1";
    if (numbers.localStep != ResolvedPerAtom::LocalStep::None) {
        // The local step's vectors and s (perAtomTerms.cc) and its phases of the finish (perAtomFinish.cc).
        defines["LOCAL_STEP"] = "1";
        defines[numbers.localStep == ResolvedPerAtom::LocalStep::Average ? "LOCAL_STEP_AVERAGE" : "LOCAL_STEP_DOT"] = "1";
        defines["LOCAL_COMPONENTS"] = cc.intToString(numbers.localComponents());
        defines["LOCAL_SUMS"] = cc.intToString(1 + numbers.localComponents());
        if (numbers.pairTerm == ResolvedPerAtom::PairTerm::SphericalHarmonics)
            defines["LOCAL_VECTORS"] = "1";
    }
    if (numbers.pairTerm == ResolvedPerAtom::PairTerm::SphericalHarmonics) {
        defines["HARMONICS_DEGREE"] = cc.intToString(numbers.degree);
        const SphericalHarmonics harmonics(numbers.degree);
        defines["HARMONICS_SCALES"] = realList(cc, harmonics.getScales());
        defines["HARMONICS_TOP"] = cc.doubleToString(harmonics.getTopDerivative());
        // l factors, and a 0 so that the kernel's array (l + 1 long) is never empty.
        vector<double> divisors = harmonics.getInverseDivisors();
        divisors.push_back(0.0);
        defines["HARMONICS_DIVISORS"] = realList(cc, divisors);
    }
    else if (numbers.pairTerm == ResolvedPerAtom::PairTerm::ShellFunction)
        addShellFunction(cc, numbers, defines, replacements);
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
    string entryDeclare, entryAccumulate, entryReduce, secondReferences, secondDeclare, secondAccumulate, secondReduce,
        combine, energy, store, weight, vectorScale;
    vector<string> energyVariables, energyDerivativeTargets, parameterDerivativeSources;
    energy += "mixed energy = 0;\n";
    bool secondPass = false;
    defines["REDUCTION_MIN"] = cc.intToString(PerAtomForce::Min);
    defines["REDUCTION_MAX"] = cc.intToString(PerAtomForce::Max);
    for (int q = 0; q < numReductions; q++) {
        const ResolvedReduction& reduction = numbers.reductions[q];
        const string Q = cc.intToString(q);
        const string highest = ((reduction.extreme ? reduction.highest : reduction.lseHighest) ? "true" : "false");
        const string part = "[" + Q + " * numParts + part]";
        map<string, string> termVariables = globals, outerVariables = globals;
        termVariables[ResolvedReduction::termVariable()] = "v";
        outerVariables[ResolvedReduction::outerVariable()] = "numberSum" + Q;
        if (!reduction.logSumExp && !reduction.extreme) {
            checkFloatRange(plan, reduction, reduction.term.getRootNode());
            checkFloatRange(plan, reduction, reduction.termDerivative.getRootNode());
            checkFloatRange(plan, reduction, reduction.outer.getRootNode());
            checkFloatRange(plan, reduction, reduction.outerDerivative.getRootNode());
        }
        map<string, Lepton::ParsedExpression> term, termDerivative;
        term["term = "] = reduction.term;
        termDerivative["termDerivative = "] = reduction.termDerivative;
        energy += "mixed numberReduction" + Q + " = 0, numberEnergyDerivative" + Q + " = 0;\n";
        // The entry of the extreme (Highest, Lowest; a log-sum-exp's entry m) over every part, in every thread.
        const string extremeOverParts = "{\nmixed best = 0;\nint bestIndex = NO_ENTRY;\n"
                       "for (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)\n"
                       "keepExtreme(partial[" + Q + " * numParts + p], partialIndex[" + Q + " * numParts + p], " +
                       highest + ", &best, &bestIndex);\nnumberExtreme" + Q + " = extremeOverBlock(best, bestIndex, " +
                       highest + ", &numberSum" + Q + ", reduceTemp, indexTemp);\n}\n";
        if (reduction.extreme || reduction.logSumExp) {
            entryDeclare += "mixed best" + Q + " = 0;\nint bestIndex" + Q + " = NO_ENTRY;\n";
            entryAccumulate += "keepExtreme(c, i, " + highest + ", &best" + Q + ", &bestIndex" + Q + ");\n";
            entryReduce += "{\nmixed value;\nconst int entry = extremeOverBlock(best" + Q + ", bestIndex" + Q + ", " + highest +
                           ", &value, reduceTemp, indexTemp);\nif (LOCAL_ID == 0) {\npartialSums" + part +
                           " = value;\npartialIndices" + part + " = entry;\n}\n}\n";
            combine += "mixed numberSum" + Q + ";\nint numberExtreme" + Q + ";\n" + extremeOverParts;
        }
        if (reduction.logSumExp) {
            // S = sum of exp(d_i) in the second pass (ResolvedReduction); R = lseValue(q_m, log S); the weights
            // dE/dR / S exp(d_i) h_i.
            secondPass = true;
            const string call = cc.intToString(reduction.type) + ", " + mixedLiteral(cc, plan, reduction, reduction.beta);
            secondReferences += "mixed numberSum" + Q + ";\nint numberExtreme" + Q + ";\n" + extremeOverParts;
            secondDeclare += "mixed lseSum" + Q + " = 0, lseCompensation" + Q + " = 0;\n";
            secondAccumulate += "compensatedAdd(&lseSum" + Q + ", &lseCompensation" + Q + ", exp(lseShift(" + call +
                                ", c, numberSum" + Q + ")));\n";
            secondReduce += "{\nconst mixed total = sumOverBlock(lseSum" + Q + ", reduceTemp);\nif (LOCAL_ID == 0)\n"
                            "partialSums[(" + NR + " + " + Q + ") * numParts + part] = total;\n}\n";
            combine += "mixed numberDerivativeSum" + Q + ";\n{\nmixed sum = 0, compensation = 0;\n"
                       "for (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)\n"
                       "compensatedAdd(&sum, &compensation, partial[(" + NR + " + " + Q + ") * numParts + p]);\n"
                       "numberDerivativeSum" + Q + " = sumOverBlock(sum, reduceTemp);\n}\n";
            energy += "numberReduction" + Q + " = lseValue(" + call + ", numberSum" + Q + ", log(numberDerivativeSum" +
                      Q + "));\n";
            store += "numberCoefficients[3 * " + Q + "] = numberEnergyDerivative" + Q + " / numberDerivativeSum" + Q +
                     ";\nnumberCoefficients[3 * " + Q + " + 1] = numberSum" + Q + ";\nnumberCoefficients[3 * " + Q +
                     " + 2] = numberReduction" + Q + ";\n";
            weight += "if (coefficients[3 * " + Q + "] != 0) {\nconst mixed p = exp(lseShift(" + call + ", c, coefficients[3 * " +
                      Q + " + 1]));\nif (p != 0)\n    w += coefficients[3 * " + Q + "] * p * lseFactor(" +
                      cc.intToString(reduction.type) + ", c, coefficients[3 * " + Q + " + 2]);\n}\n";
        }
        else if (reduction.extreme) {
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
            if (reduction.vector) {
                // S = |V| of the entries' vectors (perAtomFinish.cc, VECTOR_REDUCTIONS); its weights are G's.
                combine += "mixed numberSum" + Q + " = vectorNorm, numberDerivativeSum" + Q + " = 0;\n";
                vectorScale += (vectorScale.empty() ? "" : " + ") + string("numberEnergyDerivative") + Q +
                               " * numberOuterDerivative" + Q;
            }
            else
                combine += "mixed numberSum" + Q + ", numberDerivativeSum" + Q + " = 0;\n{\nmixed sum = 0, compensation = 0;\n"
                           "for (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)\n"
                           "compensatedAdd(&sum, &compensation, partial[" + Q + " * numParts + p]);\n"
                           "numberSum" + Q + " = sumOverBlock(sum, reduceTemp);\n}\n";
            if (reduction.centred) {
                secondPass = true;
                map<string, Lepton::ParsedExpression> both = term;
                both["termDerivative = "] = reduction.termDerivative;
                secondDeclare += sumCode + "mixed derivativeSum" + Q + " = 0, derivativeCompensation" + Q + " = 0;\n";
                secondAccumulate += "{\nconst mixed v = c - mean;\nmixed term = 0, termDerivative = 0;\n" +
                                    generate(both, termVariables, "numberTerm" + Q + "_") +
                                     "compensatedAdd(&termSum" + Q + ", &termCompensation" + Q + ", term);\n"
                                     "compensatedAdd(&derivativeSum" + Q + ", &derivativeCompensation" + Q + ", termDerivative);\n}\n";
                secondReduce += reduceCode + "{\nconst mixed total = sumOverBlock(derivativeSum" + Q + ", reduceTemp);\n"
                                 "if (LOCAL_ID == 0)\npartialSums[(" + NR + " + " + Q + ") * numParts + part] = total;\n}\n";
                combine += "{\nmixed sum = 0, compensation = 0;\nfor (int p = LOCAL_ID; p < numParts; p += LOCAL_SIZE)\n"
                           "compensatedAdd(&sum, &compensation, partial[(" + NR + " + " + Q + ") * numParts + p]);\n"
                           "numberDerivativeSum" + Q + " = sumOverBlock(sum, reduceTemp);\n}\n";
            }
            else if (!reduction.vector) {
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
                     (reduction.centred ? "numberDerivativeSum" + Q + " / (mixed) NUM_CENTRAL" : string("0")) + ";\n"
                     "numberCoefficients[3 * " + Q + " + 2] = numberEnergyDerivative" + Q + ";\n";
            // A reduction whose dE/dR is exactly 0 contributes nothing (not even a non-finite term').
            if (!reduction.vector)
                weight += "if (coefficients[3 * " + Q + " + 2] != 0) {\nconst mixed v = c" + (reduction.centred ? " - mean" : "") +
                          ";\nmixed termDerivative = 0;\n" + generate(termDerivative, termVariables, "numberWeight" + Q + "_") +
                          "w += coefficients[3 * " + Q + "] * (termDerivative - coefficients[3 * " + Q + " + 1]);\n}\n";
        }
        energyVariables.push_back("numberReduction" + Q);
        energyDerivativeTargets.push_back("numberEnergyDerivative" + Q);
    }
    if (secondPass)
        defines["NUMBERS_SECOND_PASS"] = "1";
    if (!vectorScale.empty()) {
        if (numbers.pairTerm != ResolvedPerAtom::PairTerm::SphericalHarmonics || numbers.localStep != ResolvedPerAtom::LocalStep::None)
            throw OpenMMException("CommonPerAtomProgram: a vector reduction of a force without q_l vectors");
        defines["VECTOR_REDUCTIONS"] = "1";
        replacements["NUMBERS_VECTOR_SCALE"] = vectorScale;
    }
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
    replacements["NUMBERS_SECOND_REFERENCES"] = secondReferences;
    replacements["NUMBERS_SECOND_DECLARE"] = secondDeclare;
    replacements["NUMBERS_SECOND_ACCUMULATE"] = secondAccumulate;
    replacements["NUMBERS_SECOND_REDUCE"] = secondReduce;
    replacements["NUMBERS_COMBINE"] = combine;
    replacements["NUMBERS_ENERGY"] = energy;
    replacements["NUMBERS_STORE"] = store;
    replacements["NUMBERS_WEIGHT"] = weight;
    replacements["NUMBERS_ADD_PARAMETER_DERIVATIVES"] = addDerivatives;
    // The force finish: F -= 1 * (sum of w dc/dx), no energy of its own.
    replacements["COMPUTE_ENERGY"] = "dEdS = 1;";
    replacements["ADD_PARAMETER_DERIVATIVES"] = "";
}

