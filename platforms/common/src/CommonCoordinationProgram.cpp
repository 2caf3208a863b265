#include "CommonCoordinationProgram.h"
#include "CoordinationKernelSources.h"
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
    defines["NUM_A"] = cc.intToString(plan.numA);
    defines["NUM_B"] = cc.intToString(plan.numB);
    defines["NUM_UNIQUE"] = cc.intToString(plan.numUnique);
    defines["NUM_TILES_A"] = cc.intToString(plan.tilesA);
    defines["NUM_TILES_B"] = cc.intToString(plan.tilesB);
    defines["NUM_TILES"] = cc.intToString((int) plan.numTiles);
    defines["PADDED_NUM_ATOMS"] = cc.intToString(plan.paddedNumAtoms);
    defines[plan.mode == CoordinationForce::Self ? "MODE_SELF" : (plan.mode == CoordinationForce::Dual ? "MODE_DUAL" : "MODE_PAIR")] = "1";
    if (plan.periodic)
        defines["USE_PERIODIC"] = "1";
    if (plan.fusedFinish)
        defines["FUSED_FINISH"] = "1";
}

/** The cutoff, the culling and the neighbour list's settings, the sort cells, the same-atom check. */
void addCutoffDefines(ComputeContext& cc, const CommonCoordinationPlan& plan, const ResolvedCoordinationForce& force,
                      map<string, string>& defines) {
    typedef CommonCoordinationPlan Plan;
    if (plan.hasCutoff) {
        defines["USE_CUTOFF"] = "1";
        defines["CUTOFF_SQUARED"] = cc.doubleToString(plan.cutoff * plan.cutoff);
    }
    if (plan.culling) {
        defines["USE_CULLING"] = "1";
        defines["CULL_CHUNK"] = cc.intToString(plan.cullChunk);
        defines["PADDED_CUTOFF_SQUARED"] = cc.doubleToString(plan.paddedCutoff * plan.paddedCutoff);
        defines["USE_NEIGHBOR_LIST"] = "1";
        defines["PADDED_LIST_CUTOFF_SQUARED"] = cc.doubleToString(plan.listCutoff * plan.listCutoff);
        defines["HALF_SKIN_SQUARED"] = cc.doubleToString(0.25 * plan.skin * plan.skin);
        defines["LIST_WARPS_PER_BLOCK"] = cc.intToString(plan.listBlockSize / Plan::TileSize);
        defines["LIST_STATE_REBUILD"] = cc.intToString(Plan::ListStateRebuild);
        defines["LIST_STATE_BUILT"] = cc.intToString(Plan::ListStateBuilt);
        defines["LIST_STATE_CHUNKS"] = cc.intToString(Plan::ListStateChunks);
    }
    defines["INV_SORT_CELL"] = cc.doubleToString(1.0 / plan.sortCell);
    // Whether a pair of slots can hold the same atom (which counts 0) other than Self's diagonal.
    if (force.sameAtomPossible)
        defines["CHECK_SAME_ATOM"] = "1";
}

/** The switching function's device code for a type other than Rational (sets value and *dValue from v). */
string switchingFunctionSource(ComputeContext& cc, const SwitchingFunctionConstants& sigma) {
    // PLUMED's definitions, as SwitchingFunctionEvaluator::evaluateOfX has them; v is x = (r - d0)/r0 > 0
    // (r for NativeQ, x2 = r^2/r0^2 for a Custom function of x2).
    const string pi = cc.doubleToString(3.14159265358979323846);
    switch (sigma.type) {
    case CoordinationForce::Exponential:
        return "value = EXP(-v);\n*dValue = -value;\n";
    case CoordinationForce::Gaussian:
        return "value = EXP((real) -0.5 * v * v);\n*dValue = -v * value;\n";
    case CoordinationForce::Smap: {
        const double a = sigma.smapA, b = sigma.smapB;
        // An overflowing x^a (astronomically far) is sigma's limit, 0, not inf/inf. The derivative
        // -b sx/x value/(1 + sx) is grouped as -b (sx/(1 + sx)) value/x: b sx alone can overflow in float
        // while sx is finite (then inf * a value flushed to 0 was NaN).
        return "const real sx = (real) " + cc.doubleToString(sigma.smapC) + " * integerPower(v, " +
               cc.intToString(sigma.smapA) + ");\n"
               "if (isinf(sx)) {\n    value = 0;\n    *dValue = 0;\n}\nelse {\n"
               "    const real onePlusSx = 1 + sx;\n"
               "    value = POW(onePlusSx, (real) " + cc.doubleToString(-b / a) + ");\n"
               "    *dValue = (real) " + cc.doubleToString(-b) + " * (sx / onePlusSx) * value / v;\n}\n";
    }
    case CoordinationForce::Cubic:
        return "const real xMinus1 = v - 1, onePlus2X = 1 + 2 * v;\n"
               "value = xMinus1 * xMinus1 * onePlus2X;\n*dValue = 2 * xMinus1 * onePlus2X + 2 * xMinus1 * xMinus1;\n";
    case CoordinationForce::Tanh:
        // Through exp, not tanh: CUDA compiles kernels with fast math, where tanh is the approximate hardware
        // instruction (relative error ~1e-5 against Reference). With a = exp(-2|v|): 1 - tanh(v) is
        // 2a/(1 + a) for v >= 0 and 2/(1 + a) for v < 0, its derivative -4a/(1 + a)^2; no cancellation, no overflow.
        return "const real a = EXP(-2 * fabs(v)), onePlusA = 1 + a;\n"
               "value = (v >= 0 ? 2 * a : (real) 2) / onePlusA;\n*dValue = -4 * a / (onePlusA * onePlusA);\n";
    case CoordinationForce::Cosinus:
        return "if (v > 1) {\n    value = 0;\n    *dValue = 0;\n}\nelse {\n"
               "    value = (real) 0.5 * (COS(v * (real) " + pi + ") + 1);\n"
               "    *dValue = (real) " + cc.doubleToString(-0.5 * 3.14159265358979323846) + " * SIN(v * (real) " + pi + ");\n}\n";
    case CoordinationForce::NativeQ: {
        // exp overflowing (far out) gives value 0 and derivative 0; underflowing, 1 and 0: never NaN.
        const string beta = cc.doubleToString(sigma.qBeta);
        return "const real e = EXP((real) " + beta + " * (v - (real) " +
               cc.doubleToString(sigma.qCentre) + "));\n"
               "value = RECIP(1 + e);\n*dValue = (real) -" + beta + " / (e + 2 + RECIP(e));\n";
    }
    case CoordinationForce::Custom: {
        std::map<string, Lepton::ParsedExpression> expressions;
        expressions["value = "] = sigma.customValue;
        expressions["customDerivative = "] = sigma.customDerivative;
        std::map<string, string> variables;
        variables[sigma.customVariable] = "v";
        return "real customDerivative = 0;\n" +
               cc.getExpressionUtilities().createExpressions(expressions, variables, vector<const TabulatedFunction*>(),
                                                             vector<std::pair<string, string>>(), "switchTemp", "real") +
               "*dValue = customDerivative;\n";
    }
    default:
        throw OpenMMException("CoordinationForce: internal error: no GPU code for switching function " +
                              cc.intToString((int) sigma.type));
    }
}

/** The switching function's constants, compiled in; a type other than Rational also gets its device code. */
void addSwitchingFunctionDefines(ComputeContext& cc, const SwitchingFunctionConstants& switching,
                                 map<string, string>& defines, map<string, string>& replacements) {
    const int n = switching.n, m = switching.m;
    if (!cc.getUseDoublePrecision() && 1.0 / switching.r0 > 1e30)
        throw OpenMMException("CoordinationForce: r0 = " + cc.doubleToString(switching.r0) +
                              " nm is too small for single or mixed precision; use Precision=double");
    defines["D0"] = cc.doubleToString(switching.d0);
    defines["STRETCH_FACTOR"] = cc.doubleToString(switching.stretchFactor);
    defines["SHIFT"] = cc.doubleToString(switching.shift);
    if (switching.type != CoordinationForce::Rational) {
        // The other types: sigma of its variable, generated here (switchOfVariable in the kernel).
        const CoordinationForce::SwitchingFunction type = switching.type;
        const double length = (type == CoordinationForce::Cubic ? switching.dmax - switching.d0 : switching.r0);
        defines["INV_R0"] = cc.doubleToString(1.0 / length);
        defines["INV_R0_SQUARED"] = cc.doubleToString(1.0 / (length * length));
        if (type == CoordinationForce::NativeQ)
            defines["SWITCH_OF_R"] = "1";
        if (switching.isFunctionOfX2())
            defines["SWITCH_OF_X2"] = "1";
        replacements["SWITCH_VALUE_AND_DERIVATIVE"] = switchingFunctionSource(cc, switching);
        return;
    }
    defines["SWITCH_RATIONAL"] = "1";
    defines["INV_R0"] = cc.doubleToString(1.0 / switching.r0);
    defines["N_EXP"] = cc.intToString(n);
    defines["M_EXP"] = cc.intToString(m);
    defines["M_IS_2N"] = (m == 2 * n ? "1" : "0");
    defines["N_OVER_M"] = cc.doubleToString(switching.taylorValue);
    defines["TAYLOR_BAND"] = cc.doubleToString(switching.taylorBand);
    defines["TAYLOR_FIRST"] = cc.doubleToString(switching.taylorFirst);
    defines["TAYLOR_SECOND"] = cc.doubleToString(switching.taylorSecond);
    if (!cc.getUseDoublePrecision())
        defines["NEAR_ONE_BAND"] = cc.doubleToString(0.25);
    const double inverseR0Squared = 1.0 / (switching.r0 * switching.r0);
    if (switching.d0 == 0.0 && n % 2 == 0 && m % 2 == 0 && (cc.getUseDoublePrecision() || inverseR0Squared < 1e30)) {
        // sigma as a function of r^2 (no square root for most pairs); near x = 1 it falls back to the
        // r form: |y - 1| < R2_BAND covers the Taylor band (double) or NEAR_ONE_BAND (single, mixed).
        defines["R2_PATH"] = "1";
        defines["INV_R0_SQUARED"] = cc.doubleToString(inverseR0Squared);
        defines["R2_BAND"] = cc.doubleToString(cc.getUseDoublePrecision() ? 3e-5 : 0.57);
        defines["Y_MAX"] = cc.doubleToString(std::pow(10.0, 60.0 / n));
    }
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
        addDerivatives += "energyParamDerivs[parameterDerivativeIndices[" + cc.intToString(i) + "]] += " + name + ";\n";
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
                                                  const ResolvedCoordinationForce& force) {
    map<string, string> defines, replacements;
    addSizeDefines(cc, plan, defines);
    addCutoffDefines(cc, plan, force, defines);
    addSwitchingFunctionDefines(cc, force.switching, defines, replacements);
    addEnergyReplacements(cc, force, defines, replacements);
    return cc.compileProgram(cc.replaceStrings(CoordinationKernelSources::coordination, replacements), defines);
}
