#include "contactmap/CommonContactMapProgram.h"
#include "switching/CommonSwitchingDefines.h"
#include "CoordinationKernelSources.h"
#include "energy/CommonEnergyCode.h"
#include <algorithm>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::map;
using std::string;
using std::vector;

namespace {

/** switching.cc's per-pair constants, as a contact's parameters (contactmap.cc's switchParams0 and switchParams1). */
const map<string, string> perContactConstants = {
    {"D0", "switchParams0.x"},       {"INV_LENGTH", "switchParams0.y"}, {"NATIVEQ_BETA", "switchParams0.y"},
    {"STRETCH_FACTOR", "switchParams0.w"}, {"SHIFT", "switchParams1.x"}, {"INV_R0_SQUARED", "switchParams1.y"},
    {"NATIVEQ_CENTRE", "switchParams1.y"}};

/** The functions switching.cc defines: renamed per kind (a name left out would be defined twice: a compile error). */
const char* const switchingFunctionNames[] = {"integerPower", "powerNMinusM", "evenRational", "rationalClosedForm",
                                              "switchingFunction", "pairSwitch", "switchOfVariable",
                                              "customFiniteOrNaN", "evaluatePair"};

/**
 * switching.cc for one kind: its compile-time defines (from a representative switching function of the kind) and
 * function names around it, undefined after it. The Custom expression's code goes to replacements (one per map).
 */
string kindSource(ComputeContext& cc, bool useDouble, int kind, const SwitchingFunctionConstants& representative,
                  map<string, string>& replacements) {
    map<string, string> kindDefines;
    CommonSwitchingDefines::add(cc, representative, useDouble, kindDefines, replacements);
    string before, after;
    for (const auto& define : kindDefines)
        if (perContactConstants.count(define.first) == 0) {
            before += "#define " + define.first + " " + define.second + "\n";
            after += "#undef " + define.first + "\n";
        }
    for (const char* name : switchingFunctionNames) {
        before += "#define " + string(name) + " " + name + "Kind" + cc.intToString(kind) + "\n";
        after += "#undef " + string(name) + "\n";
    }
    return "\n/* switching.cc, kind " + cc.intToString(kind) + " */\n" + before + CoordinationKernelSources::switching +
           "\n" + after;
}

/**
 * Single and mixed precision on a device with double precision: the program's "real" is double (OpenMM's prefix
 * made it float), and so are the math functions; positions are still read as OpenMM's float posq (plus
 * posqCorrection in mixed precision). A contact's value enters the forces of Distance and Components at its absolute
 * error: where sigma nearly equals the reference, float's sigma alone gave forces 1.1e-5 of the RMS force from the
 * Reference platform's (3,000 contacts of every type, CMDIST), beyond the 1e-5 the platforms are held to; in
 * double only the rounding of the positions to float remains (5e-6 in single precision, none in mixed).
 */
const string doubleMath = R"(
#ifndef __CUDA_ARCH__
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#undef real
#undef real2
#undef real3
#undef real4
#define real double
#define real2 double2
#define real3 double3
#define real4 double4
#undef make_real2
#undef make_real3
#undef make_real4
#define make_real2 make_double2
#define make_real3 make_double3
#define make_real4 make_double4
#undef SQRT
#undef RSQRT
#undef RECIP
#undef EXP
#undef LOG
#undef POW
#undef COS
#undef SIN
#undef TAN
#undef ACOS
#undef ASIN
#undef ATAN
#undef ERF
#undef ERFC
#define SQRT sqrt
#define RSQRT rsqrt
#define RECIP(x) (1.0/(x))
#define EXP exp
#define LOG log
#define POW pow
#define COS cos
#define SIN sin
#define TAN tan
#define ACOS acos
#define ASIN asin
#define ATAN atan
#define ERF erf
#define ERFC erfc
)";

/** CONTACT_SWITCH: sigma and scale of slot c by its kind (the kinds' slots are contiguous ranges). */
string contactSwitch(ComputeContext& cc, const CommonContactMapPlan& plan) {
    const int numKinds = plan.kindRepresentative.size();
    string code;
    for (int kind = 0; kind < numKinds; kind++) {
        const string call = "sigma = pairSwitchKind" + cc.intToString(kind) + "(r2, &scale SWITCH_ARGS);\n";
        if (kind == numKinds - 1)
            code += (numKinds > 1 ? "else\n" : "") + call;
        else
            code += (kind > 0 ? "else " : "") + string("if (c < ") + cc.intToString(plan.kindEnd[kind]) + ")\n" + call;
    }
    return code;
}

/**
 * COMPUTE_ENERGY and ADD_PARAMETER_DERIVATIVES (CommonEnergyCode). Sum and Distance: the variable is s, its
 * derivative dEdS. Components: contact_n is contactValues[n - 1], its derivative goes to variableDerivatives[n - 1].
 */
void addEnergyReplacements(ComputeContext& cc, const CommonContactMapPlan& plan, const ResolvedContactMap& force,
                           map<string, string>& defines, map<string, string>& replacements) {
    vector<string> variables, derivativeTargets;
    for (int v = 0; v < (int) force.energy.variableNames.size(); v++) {
        const bool components = (plan.reduction == ContactMapForce::Components);
        variables.push_back(components ? "contactValues[" + cc.intToString(v) + "]" : string("s"));
        derivativeTargets.push_back(components ? "variableDerivatives[" + cc.intToString(v) + "]" : string("dEdS"));
    }
    CommonEnergyCode::addDefines(force.energy, defines);
    CommonEnergyCode::create(cc, force.energy, variables, derivativeTargets, "energyTemp").addReplacements(replacements);
}

} // namespace

CommonContactMapProgram CommonContactMapProgram::create(ComputeContext& cc, const CommonContactMapPlan& plan,
                                                        const ResolvedContactMap& force, const CommonCenters& centers) {
    CommonContactMapProgram program;
    map<string, string>& defines = program.defines;
    map<string, string> replacements;
    defines["NUM_CONTACTS"] = cc.intToString(plan.numContacts);
    defines["PADDED_NUM_ATOMS"] = cc.intToString(cc.getPaddedNumAtoms());
    defines["CONTACT_BLOCK_SIZE"] = cc.intToString(plan.blockSize);
    defines["COINCIDENT_DISTANCE_SQUARED"] = cc.doubleToString(ResolvedContactMap::zeroDistanceSquared);
    defines[plan.reduction == ContactMapForce::Sum
                ? "REDUCTION_SUM"
                : (plan.reduction == ContactMapForce::Distance ? "REDUCTION_DISTANCE" : "REDUCTION_COMPONENTS")] = "1";
    centers.addDefines(cc, std::max(plan.numUnique, 1), defines);
    if (plan.periodic)
        defines["USE_PERIODIC"] = "1";
    if (plan.unwrapPositions)
        defines["UNWRAP_POSITIONS"] = "1";
    if (plan.smallMap)
        defines["SMALL_MAP"] = "1";
    if (cc.getUseMixedPrecision())
        defines["USE_POSQ_CORRECTION"] = "1";
    if (plan.inUserOrder)
        defines["CONTACTS_IN_USER_ORDER"] = "1";
    if (plan.useDouble)
        defines["REAL_IS_DOUBLE"] = "1";
    // OpenMM's positions: float4 except in double precision (mixed precision adds posqCorrection).
    defines["POSITION_TYPE"] = (cc.getUseDoublePrecision() ? "double4" : "float4");
    // The contacts' numbers and gradients in memory: OpenMM's precision (CommonContactMapArrays).
    defines["STORAGE4"] = (cc.getUseDoublePrecision() ? "double4" : "float4");
    defines["STORAGE_REAL"] = (cc.getUseDoublePrecision() ? "double" : "float");
    defines["MAKE_STORAGE4"] = (cc.getUseDoublePrecision() ? "make_double4" : "make_float4");
    if (plan.mixedIsDouble)
        defines["MIXED_IS_DOUBLE"] = "1";
    defines["SWITCH_PARAMS"] = ", real4 switchParams0, real4 switchParams1";
    defines["SWITCH_ARGS"] = ", switchParams0, switchParams1";
    for (const auto& constant : perContactConstants)
        defines[constant.first] = constant.second;
    string kinds;
    for (int kind = 0; kind < (int) plan.kindRepresentative.size(); kind++)
        kinds += kindSource(cc, plan.useDouble, kind, force.switchings[plan.kindRepresentative[kind]], replacements);
    replacements["CONTACT_SWITCH"] = contactSwitch(cc, plan);
    addEnergyReplacements(cc, plan, force, defines, replacements);
    program.source = cc.replaceStrings((plan.useDouble && !cc.getUseDoublePrecision() ? doubleMath : string()) +
                                           CoordinationKernelSources::common + CoordinationKernelSources::reductions +
                                           CoordinationKernelSources::energyOutputs + CoordinationKernelSources::centers +
                                           kinds + CoordinationKernelSources::reorder +
                                           CoordinationKernelSources::contactmap,
                                       replacements);
    return program;
}
