#include "CommonSwitchingDefines.h"
#include "internal/RationalSwitchingFunction.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ExpressionUtilities.h"
#include <utility>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

SwitchingPath CoordinationPlugin::addSwitchingFunctionDefines(ComputeContext& cc, const SwitchingFunctionConstants& sigma,
                                                              std::map<string, string>& defines,
                                                              std::map<string, string>& replacements) {
    const bool useDouble = cc.getUseDoublePrecision();
    if (!useDouble && !sigma.singlePrecisionProblem.empty())
        throw OpenMMException("CoordinationForce: " + sigma.singlePrecisionProblem);
    SwitchingPath path = SwitchingPath::Distance;
    defines["D0"] = cc.doubleToString(sigma.d0);
    defines["INV_LENGTH"] = cc.doubleToString(sigma.invLength);
    defines["STRETCH_FACTOR"] = cc.doubleToString(sigma.stretchFactor);
    defines["SHIFT"] = cc.doubleToString(sigma.shift);
    // The type's device code in switching.cc, selected by its define (in the order of CoordinationForce::SwitchingFunction).
    static const char* const typeDefines[] = {"SWITCH_RATIONAL", "SWITCH_EXPONENTIAL", "SWITCH_GAUSSIAN", "SWITCH_SMAP",
                                              "SWITCH_CUBIC", "SWITCH_TANH", "SWITCH_COSINUS", "SWITCH_NATIVEQ",
                                              "SWITCH_CUSTOM"};
    if (sigma.type < CoordinationForce::Rational || sigma.type > CoordinationForce::Custom)
        throw OpenMMException("CoordinationForce: internal error: no GPU code for switching function " +
                              cc.intToString((int) sigma.type));
    defines[typeDefines[sigma.type]] = "1";
    switch (sigma.type) {
    case CoordinationForce::Rational: {
        defines["N_EXP"] = cc.intToString(sigma.n);
        defines["M_EXP"] = cc.intToString(sigma.m);
        defines["M_IS_2N"] = (sigma.mIsTwiceN ? "1" : "0");
        defines["N_OVER_M"] = cc.doubleToString(sigma.taylorValue);
        defines["TAYLOR_BAND"] = cc.doubleToString(SwitchingFunctionConstants::TaylorBand);
        defines["TAYLOR_FIRST"] = cc.doubleToString(sigma.taylorFirst);
        defines["TAYLOR_SECOND"] = cc.doubleToString(sigma.taylorSecond);
        defines["DIRECT_POWER_LIMIT"] = cc.doubleToString(RationalSwitchingFunction::DirectPowerLimit);
        if (sigma.directPowersSuffice)
            defines["DIRECT_POWERS_SUFFICE"] = "1";
        if (!useDouble)
            defines["NEAR_ONE_BAND"] = cc.doubleToString(SwitchingFunctionConstants::SinglePrecisionNearOneBand);
        if (sigma.path == SwitchingPath::SquaredDistance) {
            path = SwitchingPath::SquaredDistance;
            defines["R2_PATH"] = "1";
            defines["INV_R0_SQUARED"] = cc.doubleToString(sigma.inverseR0Squared);
            defines["R2_BAND"] = cc.doubleToString(useDouble ? SwitchingFunctionConstants::SquaredTaylorBand
                                                              : SwitchingFunctionConstants::SquaredNearOneBand);
        }
        break;
    }
    case CoordinationForce::Smap:
        defines["SMAP_A"] = cc.intToString(sigma.smapA);
        defines["SMAP_B"] = cc.doubleToString(sigma.smapB);
        defines["SMAP_C"] = cc.doubleToString(sigma.smapC);
        defines["SMAP_EXPONENT"] = cc.doubleToString(sigma.smapExponent);
        break;
    case CoordinationForce::Cosinus:
        defines["COSINUS_PI"] = cc.doubleToString(sigma.cosinusFrequency);
        defines["COSINUS_MINUS_HALF_PI"] = cc.doubleToString(sigma.cosinusSlope);
        break;
    case CoordinationForce::NativeQ:
        defines["NATIVEQ_BETA"] = cc.doubleToString(sigma.qBeta);
        defines["NATIVEQ_CENTRE"] = cc.doubleToString(sigma.qCentre);
        break;
    case CoordinationForce::Custom: {
        if (sigma.isFunctionOfX2()) {
            path = SwitchingPath::SquaredDistance;
            defines["SWITCH_OF_X2"] = "1";
            defines["INV_R0_SQUARED"] = cc.doubleToString(sigma.inverseR0Squared);
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
