#include "switching/CommonSwitchingDefines.h"
#include "internal/NumberText.h"
#include "internal/switching/RationalSwitchingFunction.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ExpressionUtilities.h"
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

namespace {

/**
 * A constant of the switching function as kernel source: in single and mixed precision (float pair math) a
 * magnitude below float's smallest normal number is 0 (NVRTC refuses a float literal that underflows, and such a
 * value counts as 0 in float anyway), and one beyond float's range is refused, naming it.
 */
string realConstant(ComputeContext& cc, bool useDouble, const string& name, double value) {
    if (!useDouble) {
        if (std::fabs(value) < std::numeric_limits<float>::min())
            value = 0.0;
        else if (std::fabs(value) > std::numeric_limits<float>::max())
            throw OpenMMException("CoordinationForce: the switching function's constant " + name + " = " +
                                  numberText(value) + " is beyond single precision's range (" +
                                  numberText(std::numeric_limits<float>::max()) +
                                  "); use the platform's double precision, or other settings");
    }
    return cc.doubleToString(value);
}

} // namespace

SwitchingPath CommonSwitchingDefines::add(ComputeContext& cc, const SwitchingFunctionConstants& sigma,
                                          std::map<string, string>& defines, std::map<string, string>& replacements) {
    return add(cc, sigma, cc.getUseDoublePrecision(), defines, replacements);
}

SwitchingPath CommonSwitchingDefines::add(ComputeContext& cc, const SwitchingFunctionConstants& sigma, bool useDouble,
                                          std::map<string, string>& defines, std::map<string, string>& replacements) {
    if (!useDouble && !sigma.singlePrecisionProblem.empty())
        throw OpenMMException("CoordinationForce: " + sigma.singlePrecisionProblem);
    SwitchingPath path = SwitchingPath::Distance;
    defines["D0"] = realConstant(cc, useDouble, "D0", sigma.d0);
    defines["INV_LENGTH"] = realConstant(cc, useDouble, "INV_LENGTH", sigma.invLength);
    defines["STRETCH_FACTOR"] = realConstant(cc, useDouble, "STRETCH_FACTOR", sigma.stretchFactor);
    defines["SHIFT"] = realConstant(cc, useDouble, "SHIFT", sigma.shift);
    // The type's device code in switching.cc, selected by its define (in the order of CoordinationBiasForce::SwitchingFunction).
    static const char* const typeDefines[] = {"SWITCH_RATIONAL", "SWITCH_EXPONENTIAL", "SWITCH_GAUSSIAN", "SWITCH_SMAP",
                                              "SWITCH_CUBIC", "SWITCH_TANH", "SWITCH_COSINUS", "SWITCH_NATIVEQ",
                                              "SWITCH_CUSTOM"};
    if (sigma.type < CoordinationBiasForce::Rational || sigma.type > CoordinationBiasForce::Custom)
        throw OpenMMException("CoordinationForce: internal error: no GPU code for switching function " +
                              cc.intToString((int) sigma.type));
    defines[typeDefines[sigma.type]] = "1";
    switch (sigma.type) {
    case CoordinationBiasForce::Rational: {
        defines["N_EXP"] = cc.intToString(sigma.n);
        defines["M_EXP"] = cc.intToString(sigma.m);
        defines["M_IS_2N"] = (sigma.mIsTwiceN ? "1" : "0");
        defines["N_OVER_M"] = realConstant(cc, useDouble, "N_OVER_M", sigma.taylorValue);
        defines["TAYLOR_BAND"] = realConstant(cc, useDouble, "TAYLOR_BAND", SwitchingFunctionConstants::TaylorBand);
        defines["TAYLOR_FIRST"] = realConstant(cc, useDouble, "TAYLOR_FIRST", sigma.taylorFirst);
        defines["TAYLOR_SECOND"] = realConstant(cc, useDouble, "TAYLOR_SECOND", sigma.taylorSecond);
        defines["DIRECT_POWER_LIMIT"] = realConstant(cc, useDouble, "DIRECT_POWER_LIMIT", RationalSwitchingFunction::DirectPowerLimit);
        if (sigma.directPowersSuffice)
            defines["DIRECT_POWERS_SUFFICE"] = "1";
        if (!useDouble)
            defines["NEAR_ONE_BAND"] = realConstant(cc, useDouble, "NEAR_ONE_BAND", SwitchingFunctionConstants::SinglePrecisionNearOneBand);
        if (sigma.path == SwitchingPath::SquaredDistance) {
            path = SwitchingPath::SquaredDistance;
            defines["R2_PATH"] = "1";
            defines["INV_R0_SQUARED"] = realConstant(cc, useDouble, "INV_R0_SQUARED", sigma.inverseR0Squared);
            defines["R2_BAND"] = realConstant(cc, useDouble, "R2_BAND", useDouble ? SwitchingFunctionConstants::SquaredTaylorBand
                                                              : SwitchingFunctionConstants::SquaredNearOneBand);
        }
        break;
    }
    case CoordinationBiasForce::Smap:
        defines["SMAP_A"] = cc.intToString(sigma.smapA);
        defines["SMAP_B"] = realConstant(cc, useDouble, "SMAP_B", sigma.smapB);
        defines["SMAP_C"] = realConstant(cc, useDouble, "SMAP_C", sigma.smapC);
        defines["SMAP_EXPONENT"] = realConstant(cc, useDouble, "SMAP_EXPONENT", sigma.smapExponent);
        break;
    case CoordinationBiasForce::Cosinus:
        defines["COSINUS_PI"] = realConstant(cc, useDouble, "COSINUS_PI", sigma.cosinusFrequency);
        defines["COSINUS_MINUS_HALF_PI"] = realConstant(cc, useDouble, "COSINUS_MINUS_HALF_PI", sigma.cosinusSlope);
        break;
    case CoordinationBiasForce::NativeQ:
        defines["NATIVEQ_BETA"] = realConstant(cc, useDouble, "NATIVEQ_BETA", sigma.qBeta);
        defines["NATIVEQ_CENTRE"] = realConstant(cc, useDouble, "NATIVEQ_CENTRE", sigma.qCentre);
        break;
    case CoordinationBiasForce::Custom: {
        if (sigma.isFunctionOfX2()) {
            path = SwitchingPath::SquaredDistance;
            defines["SWITCH_OF_X2"] = "1";
            defines["INV_R0_SQUARED"] = realConstant(cc, useDouble, "INV_R0_SQUARED", sigma.inverseR0Squared);
        }
        // value and customDerivative as functions of v (the kernel's name for x or x2).
        std::map<string, Lepton::ParsedExpression> expressions;
        expressions["value = "] = sigma.customValue;
        expressions["customDerivative = "] = sigma.customDerivative;
        std::map<string, string> variables;
        variables[sigma.customVariable] = "v";
        replacements["CUSTOM_SWITCHING_FUNCTION"] = cc.getExpressionUtilities().createExpressions(
            expressions, variables, std::vector<const TabulatedFunction*>(), std::vector<std::pair<string, string>>(),
            "switchTemp", "real");
        break;
    }
    default:
        break; // the types without constants of their own
    }
    return path;
}
