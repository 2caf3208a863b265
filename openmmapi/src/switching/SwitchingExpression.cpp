#include "internal/switching/SwitchingExpression.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <cstdio>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;

namespace {

/** sigma of x as Lepton text, unclamped, unstretched (the types of x; a Custom function is internalCustom). */
string ofX(const SwitchingFunctionConstants& c, const string& x) {
    switch (c.type) {
    case CoordinationBiasForce::Rational: {
        if (c.mIsTwiceN)
            return "1/(1+" + x + "^" + std::to_string(c.n) + ")";
        // Beyond x = 1 the same function in y = 1/x keeps the powers finite; within TaylorBand of 1, the expansion.
        const string ratio = "(1-" + x + "^" + std::to_string(c.n) + ")/(1-" + x + "^" + std::to_string(c.m) + ")";
        const string y = "(1/" + x + ")";
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
        return "exp(-0.5*" + x + "^2)";
    case CoordinationBiasForce::Smap:
        return "(1+" + exactNumberText(c.smapC) + "*" + x + "^" + std::to_string(c.smapA) + ")^" +
               exactNumberText(c.smapExponent);
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
    } else if (c.type == CoordinationBiasForce::NativeQ)
        sigma = "select(step(" + exactNumberText(c.d0) + "-" + v + "), 1, 1/(1+exp(" + exactNumberText(c.qBeta) + "*(" +
                v + "-" + exactNumberText(c.qCentre) + "))))";
    else {
        sigma = "select(step(-x), 1, " + ofX(c, "x") + ")";
        if (c.type == CoordinationBiasForce::Custom)
            definitions = customDefinitions(c);
        definitions += "; x=(" + v + "-" + exactNumberText(c.d0) + ")*" + exactNumberText(c.invLength);
    }
    if (c.stretch)
        sigma = "(" + sigma + ")*" + exactNumberText(c.stretchFactor) + "+" + exactNumberText(c.shift);
    if (std::isfinite(c.dmax))
        sigma = "select(step(" + exactNumberText(c.dmax) + "-" + v + "), " + sigma + ", 0)";
    return sigma + definitions;
}
