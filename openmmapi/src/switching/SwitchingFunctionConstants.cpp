#include "internal/switching/SwitchingFunctionConstants.h"
#include "internal/energy/ExpressionConstants.h"
#include "internal/energy/ExpressionVariables.h"
#include "internal/NumberText.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"
#include <functional>
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace CoordinationPlugin;
using std::string;

namespace {

const double Pi = 3.14159265358979323846;

/**
 * A Custom switching function, parsed with PLUMED's named constants replaced by their values, into its value,
 * derivative with respect to its variable ("x" or "x2"), and that variable; fail says what is wrong (a parse error,
 * a variable other than x or x2, or both).
 */
void parseCustom(SwitchingFunctionConstants& c, const std::function<void(const string&)>& fail) {
    const string& expression = c.customExpression;
    auto refuse = [&](const string& why) { fail("the custom switching function \"" + expression + "\" " + why); };
    if (expression.empty())
        fail("the switching function is Custom but has no expression; set it with setCustomSwitchingFunction() "
             "(SwitchingSettings::setCustomExpression()), e.g. \"1/(1+x^6)\"");
    Lepton::ParsedExpression value;
    try {
        value = optimizedExpression(Lepton::Parser::parse(expression), plumedNamedConstants());
    } catch (const std::exception& error) {
        refuse(string("cannot be parsed: ") + error.what());
    }
    std::set<string> variables;
    collectVariables(value.getRootNode(), variables);
    const bool usesX = variables.count("x") > 0, usesX2 = variables.count("x2") > 0;
    if (usesX && usesX2)
        refuse("uses both x and x2; write it in one of them (x = (r - d0)/r0, x2 = r^2/r0^2)");
    for (const string& variable : variables)
        if (variable != "x" && variable != "x2")
            refuse("uses \"" + variable + "\"; it may use only x = (r - d0)/r0 or x2 = r^2/r0^2 (PLUMED's CUSTOM)");
    c.customVariable = (usesX2 ? "x2" : "x");
    c.customValue = value; // optimized above
    try {
        c.customDerivative = optimizedExpression(c.customValue.differentiate(c.customVariable));
    } catch (const std::exception& error) {
        refuse("cannot be differentiated with respect to " + c.customVariable + ": " + error.what());
    }
}

/** The settings a Context refuses before any constant is computed. */
void checkSettings(const SwitchingSettings& s, const std::function<void(const string&)>& fail) {
    typedef CoordinationBiasForce F;
    const F::SwitchingFunction type = s.getType();
    // Below 1e-300 nm, 1/r0 approaches the largest double.
    if (!(s.getR0() >= 1e-300) || !std::isfinite(s.getR0()))
        fail("r0 must be a finite number > 0 nm (at least 1e-300 nm), got " + numberText(s.getR0()));
    if (type == F::Rational) {
        if (s.getN() < 1)
            fail("the exponent n must be >= 1, got " + std::to_string(s.getN()));
        if (s.getM() < 0)
            fail("the exponent m must be >= 0 (0 means 2n), got " + std::to_string(s.getM()));
        if (s.getEffectiveM() == s.getN())
            fail("the exponents n and m must differ (the switching function would be 1 everywhere), got n = m = " +
                 std::to_string(s.getN()));
    }
    if (type == F::Smap && (s.getSmapA() < 1 || s.getSmapB() < 1))
        fail("the Smap switching function needs exponents a >= 1 and b >= 1 (PLUMED's A and B), got a = " +
             std::to_string(s.getSmapA()) + ", b = " + std::to_string(s.getSmapB()) +
             "; set them with setSmapExponents() (of the force, or of a contact's SwitchingSettings)");
    if (type == F::NativeQ) {
        const double beta = s.getNativeQBeta(), lambda = s.getNativeQLambda(), reference = s.getNativeQReference();
        if (!(beta > 0.0 && std::isfinite(beta) && lambda > 0.0 && std::isfinite(lambda) && reference > 0.0 &&
              std::isfinite(reference)))
            fail("the NativeQ switching function needs finite beta > 0 (1/nm), lambda > 0 and reference > 0 (nm) "
                 "(PLUMED's BETA, LAMBDA and REF), got beta = " + numberText(beta) + ", lambda = " + numberText(lambda) +
                 ", reference = " + numberText(reference) +
                 "; set them with setNativeQParameters() (of the force, or of a contact's SwitchingSettings)");
    }
    if (!(s.getD0() >= 0.0) || !std::isfinite(s.getD0()))
        fail("d0 must be a finite number >= 0 nm, got " + numberText(s.getD0()));
    const double dmax = s.getDMax();
    if (std::isnan(dmax) || dmax < 0.0)
        fail("dmax must be 0 (automatic), a cutoff > d0, or infinity (no cutoff); got " + numberText(dmax));
    if (dmax > 0.0 && dmax <= s.getD0())
        fail("dmax (" + numberText(dmax) + " nm) must be larger than d0 (" + numberText(s.getD0()) +
             " nm); use 0 for the automatic cutoff or infinity for none");
    if (type == F::Cubic && !(dmax > 0.0 && std::isfinite(dmax)))
        fail("the Cubic switching function goes from 1 at d0 to 0 at dmax, so it needs a finite cutoff (a finite dmax); "
             "set it with setDMax() (PLUMED's D_MAX)");
    if (dmax == 0.0 && type == F::Rational && !std::isfinite(s.getEffectiveDMax()))
        fail("the automatic dmax is not finite for these parameters; set dmax explicitly");
}

/**
 * Every constant a platform evaluates sigma with is a finite number (the GPU platforms print them into kernel
 * source, which has no spelling for infinity): settings whose constants overflow a double are refused, with the
 * bound that keeps them finite; so is a stretch that would multiply sigma by more than 1e6.
 */
void checkConstants(const SwitchingFunctionConstants& c, const std::function<void(const string&)>& fail) {
    typedef CoordinationBiasForce F;
    if (c.stretch && (!std::isfinite(c.stretchFactor) || std::fabs(c.stretchFactor) > 1e6))
        fail("with dmax = " + numberText(c.dmax) + " nm the switching function at dmax is within 1e-6 of its value at "
             "r = 0, so stretching it to reach 0 there would multiply it by " + numberText(c.stretchFactor) +
             "; make dmax larger or call setStretch(false)");
    // (r0 >= 1e-300 nm is checked with the settings: 1/r0 is finite.)
    if (c.type == F::Cubic && !std::isfinite(c.invLength))
        fail("dmax - d0 = " + numberText(c.dmax - c.d0) + " nm is too small for the Cubic switching function "
             "(1/(dmax - d0) overflows); make dmax - d0 at least 1e-300 nm");
    if (c.isFunctionOfX2() && !std::isfinite(c.inverseR0Squared))
        fail("r0 = " + numberText(c.r0) + " nm is too small for a Custom switching function of x2 (x2 = r^2/r0^2 "
             "and 1/r0^2 overflows); r0 must be at least 1e-150 nm, or write the function of x");
    if (c.type == F::Smap && c.smapA > 1000.0 * c.smapB)
        fail("the Smap exponents a = " + std::to_string(c.smapA) + " and b = " + std::to_string(c.smapB) +
             " are out of range: a/b must be at most 1000 (the function uses 2^(a/b))");
    if (c.type == F::NativeQ && !std::isfinite(c.qCentre))
        fail("the NativeQ centre lambda * reference = " + numberText(c.qCentre) + " nm is not finite; make lambda "
             "and reference smaller (their product must be a finite number of nm)");
}

/** sigma(0) and sigma(dmax) of the other constants give the stretch: 1 and 0 without it. */
void resolveStretch(SwitchingFunctionConstants& c) {
    c.stretchFactor = 1.0;
    c.shift = 0.0;
    if (!c.stretch)
        return;
    const SwitchingFunctionEvaluator unstretched(c);
    double unused;
    const double valueAtZero = unstretched.evaluateUnstretched(0.0, unused);
    const double valueAtDMax = unstretched.evaluateUnstretched(c.dmax, unused);
    c.stretchFactor = 1.0 / (valueAtZero - valueAtDMax);
    c.shift = -valueAtDMax * c.stretchFactor;
}

} // namespace

SwitchingFunctionConstants SwitchingFunctionConstants::resolve(const SwitchingSettings& settings, const string& where) {
    typedef CoordinationBiasForce F;
    const std::function<void(const string&)> fail = [&where](const string& message) {
        throw OpenMM::OpenMMException(where + message);
    };
    checkSettings(settings, fail);
    SwitchingFunctionConstants c;
    c.type = settings.getType();
    c.r0 = settings.getR0();
    c.d0 = settings.getD0();
    c.dmax = settings.getEffectiveDMax();
    c.cutoffSquared = c.dmax * c.dmax;
    c.hasCutoff = std::isfinite(c.dmax) && c.dmax < 1e15;
    c.invLength = (c.type == F::Cubic ? 1.0 / (c.dmax - c.d0) : 1.0 / c.r0);
    c.inverseR0Squared = 1.0 / (c.r0 * c.r0);
    if (1.0 / c.r0 > SinglePrecisionLimit)
        c.singlePrecisionProblem = "r0 = " + numberText(c.r0) + " nm is too small for single or mixed precision "
                                   "(1/r0 > " + numberText(SinglePrecisionLimit) + "/nm); use Precision=double";
    c.n = settings.getN();
    c.m = settings.getEffectiveM();
    c.mIsTwiceN = (c.m == 2 * c.n);
    if (c.type == F::Rational) {
        const double n = c.n, m = c.m;
        c.taylorValue = n / m;
        c.taylorFirst = n * (n - m) / (2.0 * m);
        c.taylorSecond = n * (m * m - 3.0 * m * (n - 1) + n * (2.0 * n - 3.0)) / (6.0 * m);
        const double largestX = (c.dmax - c.d0) * c.invLength;
        c.directPowersSuffice = c.hasCutoff &&
                                std::pow(largestX, std::max(c.n, c.m)) <= RationalSwitchingFunction::DirectPowerLimit;
        const bool evenExponents = (c.n % 2 == 0 && c.m % 2 == 0);
        if (c.d0 == 0.0 && evenExponents && c.inverseR0Squared < SinglePrecisionLimit)
            c.path = SwitchingPath::SquaredDistance;
    }
    c.smapA = settings.getSmapA();
    c.smapB = settings.getSmapB();
    if (c.type == F::Smap && c.smapA > 0 && c.smapB > 0) {
        const double a = c.smapA, b = c.smapB;
        c.smapC = std::pow(2.0, a / b) - 1.0;
        c.smapExponent = -b / a;
    }
    c.cosinusFrequency = Pi;
    c.cosinusSlope = -0.5 * Pi;
    c.qBeta = settings.getNativeQBeta();
    c.qCentre = settings.getNativeQLambda() * settings.getNativeQReference();
    if (c.type == F::Custom) {
        c.customExpression = settings.getCustomExpression();
        parseCustom(c, fail);
        if (c.isFunctionOfX2())
            c.path = SwitchingPath::SquaredDistance; // a function of x2 = r^2/r0^2 has no other form
    }
    c.stretch = settings.getStretch() && std::isfinite(c.dmax);
    resolveStretch(c);
    checkConstants(c, fail);
    return c;
}
