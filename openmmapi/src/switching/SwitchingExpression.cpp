#include "internal/switching/SwitchingExpression.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <cstdio>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;

namespace {

/** Beyond this x, exp(-x^2/2) and x exp(-x^2/2) are 0 in double (exp(-800)). */
constexpr double GaussianZero = 40.0;

/** sigma of x as Lepton text, unclamped, unstretched (the types of x; a Custom function is internalCustom). */
string ofX(const SwitchingFunctionConstants& c, const string& x, const string& y) {
    switch (c.type) {
    case CoordinationBiasForce::Rational: {
        // Beyond x = 1 the same function in y = 1/x keeps the powers and their derivatives finite.
        if (c.mIsTwiceN) {
            const string yn = y + "^" + std::to_string(c.n);
            return "select(step(" + x + "-1), " + yn + "/(1+" + yn + "), 1/(1+" + x + "^" + std::to_string(c.n) + "))";
        }
        // Within TaylorBand of 1, the expansion.
        const string ratio = "(1-" + x + "^" + std::to_string(c.n) + ")/(1-" + x + "^" + std::to_string(c.m) + ")";
        const string inverse = y + "^" + std::to_string(c.m - c.n) + "*(1-" + y + "^" + std::to_string(c.n) + ")/(1-" +
                               y + "^" + std::to_string(c.m) + ")";
        const string d = "(" + x + "-1)";
        const string taylor = exactNumberText(c.taylorValue) + "+" + exactNumberText(c.taylorFirst) + "*" + d + "+" +
                              exactNumberText(c.taylorSecond) + "*" + d + "^2";
        return "select(step(" + exactNumberText(SwitchingFunctionConstants::TaylorBand) + "-abs(" + d + ")), " +
               taylor + ", select(step(" + x + "-1), " + inverse + ", " + ratio + "))";
    }
    case CoordinationBiasForce::Exponential:
        return "exp(-" + x + ")";
    case CoordinationBiasForce::Gaussian:
        // Beyond x = GaussianZero the value and the derivative are 0 in double; there x^2 may overflow (x * 0 = NaN).
        return "select(step(" + x + "-" + exactNumberText(GaussianZero) + "), 0, exp(-0.5*" + x + "^2))";
    case CoordinationBiasForce::Smap: {
        // (1 + C x^a)^e = y^b (y^a + C)^e with y = 1/x (e = -b/a): beyond x = 1 nothing overflows.
        const string C = exactNumberText(c.smapC), e = exactNumberText(c.smapExponent);
        const string a = std::to_string(c.smapA), b = std::to_string(c.smapB);
        return "select(step(" + x + "-1), " + y + "^" + b + "*(" + y + "^" + a + "+" + C + ")^" + e + ", (1+" + C + "*" +
               x + "^" + a + ")^" + e + ")";
    }
    case CoordinationBiasForce::Cubic:
        return "(" + x + "-1)^2*(1+2*" + x + ")";
    case CoordinationBiasForce::Tanh:
        return "1-tanh(" + x + ")";
    case CoordinationBiasForce::Cosinus:
        return "select(step(1-" + x + "), 0.5*(cos(" + exactNumberText(c.cosinusFrequency) + "*" + x + ")+1), 0)";
    case CoordinationBiasForce::Custom:
        return "internalCustom";
    default:
        throw OpenMMException("CoordinationNumberForce: internal error: switching function " + std::to_string(c.type));
    }
}

/** A Custom function's text as a definition (with PLUMED's named constants), after the other definitions. */
string customDefinitions(const SwitchingFunctionConstants& c) {
    string definitions = "; internalCustom=" + c.customExpression;
    const double pi = 3.14159265358979323846;
    const std::pair<const char*, double> constants[] = {{"e", std::exp(1.0)},
                                                        {"log2e", 1.0 / std::log(2.0)},
                                                        {"log10e", 1.0 / std::log(10.0)},
                                                        {"ln2", std::log(2.0)},
                                                        {"ln10", std::log(10.0)},
                                                        {"pi", pi},
                                                        {"pi_2", 0.5 * pi},
                                                        {"pi_4", 0.25 * pi},
                                                        {"sqrt2", std::sqrt(2.0)},
                                                        {"sqrt1_2", std::sqrt(0.5)}};
    for (const auto& constant : constants)
        definitions += string("; ") + constant.first + "=" + exactNumberText(constant.second);
    return definitions;
}

} // namespace

string SwitchingExpression::of(const SwitchingFunctionConstants& c, const string& v) {
    string sigma, definitions;
    if (c.isFunctionOfX2()) {
        sigma = "internalCustom";
        definitions = customDefinitions(c) + "; x2=" + v + "^2*" + exactNumberText(c.inverseR0Squared);
    } else if (c.type == CoordinationBiasForce::NativeQ) {
        // 1/(1+exp(z)) = exp(-z)/(1+exp(-z)): the form whose exponential does not overflow for either sign of z.
        sigma = "select(step(" + exactNumberText(c.d0) + "-" + v +
                "), 1, select(step(internalZ), exp(-internalZ)/(1+exp(-internalZ)), 1/(1+exp(internalZ))))";
        definitions = "; internalZ=" + exactNumberText(c.qBeta) + "*(" + v + "-" + exactNumberText(c.qCentre) + ")";
    } else {
        sigma = "select(step(-x), 1, " + ofX(c, "x", "internalInverseX") + ")";
        if (c.type == CoordinationBiasForce::Custom)
            definitions = customDefinitions(c);
        // y = 1/x written as length/(v - d0): its derivative has no constant 1/length^2 (which overflows a tiny r0).
        definitions += "; x=(" + v + "-" + exactNumberText(c.d0) + ")*" + exactNumberText(c.invLength) + "; internalInverseX=" +
                       exactNumberText(1.0 / c.invLength) + "/(" + v + "-" + exactNumberText(c.d0) + ")";
    }
    if (c.stretch)
        sigma = "(" + sigma + ")*" + exactNumberText(c.stretchFactor) + "+" + exactNumberText(c.shift);
    if (std::isfinite(c.dmax))
        sigma = "select(step(" + exactNumberText(c.dmax) + "-" + v + "), " + sigma + ", 0)";
    return sigma + definitions;
}
