#include "CommonSwitchingDefines.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ExpressionUtilities.h"
#include <cmath>
#include <utility>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

void CoordinationPlugin::addSwitchingFunctionDefines(ComputeContext& cc, const SwitchingFunctionConstants& sigma,
                                                     std::map<string, string>& defines,
                                                     std::map<string, string>& replacements) {
    const bool useDouble = cc.getUseDoublePrecision();
    if (!useDouble && 1.0 / sigma.r0 > 1e30)
        throw OpenMMException("CoordinationForce: r0 = " + cc.doubleToString(sigma.r0) +
                              " nm is too small for single or mixed precision; use Precision=double");
    defines["D0"] = cc.doubleToString(sigma.d0);
    defines["INV_LENGTH"] = cc.doubleToString(sigma.invLength);
    defines["STRETCH_FACTOR"] = cc.doubleToString(sigma.stretchFactor);
    defines["SHIFT"] = cc.doubleToString(sigma.shift);
    const double inverseR0Squared = 1.0 / (sigma.r0 * sigma.r0);
    const double pi = 3.14159265358979323846;
    switch (sigma.type) {
    case CoordinationForce::Rational: {
        const int n = sigma.n, m = sigma.m;
        defines["SWITCH_RATIONAL"] = "1";
        defines["N_EXP"] = cc.intToString(n);
        defines["M_EXP"] = cc.intToString(m);
        defines["M_IS_2N"] = (m == 2 * n ? "1" : "0");
        defines["N_OVER_M"] = cc.doubleToString(sigma.taylorValue);
        defines["TAYLOR_BAND"] = cc.doubleToString(sigma.taylorBand);
        defines["TAYLOR_FIRST"] = cc.doubleToString(sigma.taylorFirst);
        defines["TAYLOR_SECOND"] = cc.doubleToString(sigma.taylorSecond);
        // In single and mixed precision the direct ratio loses digits near x = 1 wider than the Taylor band.
        if (!useDouble)
            defines["NEAR_ONE_BAND"] = cc.doubleToString(0.25);
        if (sigma.d0 == 0.0 && n % 2 == 0 && m % 2 == 0 && (useDouble || inverseR0Squared < 1e30)) {
            // sigma as a function of r^2 (no square root for most pairs); near x = 1 it falls back to the
            // r form: |y - 1| < R2_BAND covers the Taylor band (double) or NEAR_ONE_BAND (single, mixed).
            defines["R2_PATH"] = "1";
            defines["INV_R0_SQUARED"] = cc.doubleToString(inverseR0Squared);
            defines["R2_BAND"] = cc.doubleToString(useDouble ? 3e-5 : 0.57);
            defines["Y_MAX"] = cc.doubleToString(std::pow(10.0, 60.0 / n));
        }
        break;
    }
    case CoordinationForce::Exponential:
        defines["SWITCH_EXPONENTIAL"] = "1";
        break;
    case CoordinationForce::Gaussian:
        defines["SWITCH_GAUSSIAN"] = "1";
        break;
    case CoordinationForce::Smap:
        defines["SWITCH_SMAP"] = "1";
        defines["SMAP_A"] = cc.intToString(sigma.smapA);
        defines["SMAP_B"] = cc.doubleToString(sigma.smapB);
        defines["SMAP_C"] = cc.doubleToString(sigma.smapC);
        defines["SMAP_EXPONENT"] = cc.doubleToString(sigma.smapExponent);
        break;
    case CoordinationForce::Cubic:
        defines["SWITCH_CUBIC"] = "1";
        break;
    case CoordinationForce::Tanh:
        defines["SWITCH_TANH"] = "1";
        break;
    case CoordinationForce::Cosinus:
        defines["SWITCH_COSINUS"] = "1";
        defines["COSINUS_PI"] = cc.doubleToString(pi);
        defines["COSINUS_MINUS_HALF_PI"] = cc.doubleToString(-0.5 * pi);
        break;
    case CoordinationForce::NativeQ:
        defines["SWITCH_NATIVEQ"] = "1";
        defines["NATIVEQ_BETA"] = cc.doubleToString(sigma.qBeta);
        defines["NATIVEQ_CENTRE"] = cc.doubleToString(sigma.qCentre);
        break;
    case CoordinationForce::Custom: {
        defines["SWITCH_CUSTOM"] = "1";
        if (sigma.isFunctionOfX2()) {
            defines["SWITCH_OF_X2"] = "1";
            defines["INV_R0_SQUARED"] = cc.doubleToString(inverseR0Squared);
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
        throw OpenMMException("CoordinationForce: internal error: no GPU code for switching function " +
                              cc.intToString((int) sigma.type));
    }
}
