#include "internal/SwitchingFunctionConstants.h"
#include "internal/ExpressionVariables.h"
#include "internal/NumberText.h"
#include "internal/SwitchingFunctionEvaluator.h"
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

/** The named constants PLUMED's Lepton knows in expressions (its lepton::Constants()). */
const std::map<string, double>& plumedConstants() {
    static const std::map<string, double> constants = {
        {"e", std::exp(1.0)}, {"log2e", 1.0 / std::log(2.0)}, {"log10e", 1.0 / std::log(10.0)},
        {"ln2", std::log(2.0)}, {"ln10", std::log(10.0)}, {"pi", Pi}, {"pi_2", 0.5 * Pi}, {"pi_4", 0.25 * Pi},
        {"sqrt2", std::sqrt(2.0)}, {"sqrt1_2", std::sqrt(0.5)}};
    return constants;
}

/**
 * A Custom switching function, parsed with PLUMED's named constants replaced by their values, into its value,
 * derivative with respect to its variable ("x" or "x2"), and that variable; throws an OpenMMException that
 * says what is wrong (a parse error, a variable other than x or x2, or both).
 */
void parseCustom(SwitchingFunctionConstants& c) {
    const string& expression = c.customExpression;
    auto fail = [&](const string& why) {
        throw OpenMM::OpenMMException("CoordinationForce: the custom switching function \"" + expression + "\" " + why);
    };
    if (expression.empty())
        throw OpenMM::OpenMMException("CoordinationForce: the switching function is Custom but has no expression; "
                                      "set it with setCustomSwitchingFunction(), e.g. \"1/(1+x^6)\"");
    Lepton::ParsedExpression value;
    try {
        value = Lepton::Parser::parse(expression).optimize(plumedConstants());
    } catch (const std::exception& error) {
        fail(string("cannot be parsed: ") + error.what());
    }
    std::set<string> variables;
    collectVariables(value.getRootNode(), variables);
    const bool usesX = variables.count("x") > 0, usesX2 = variables.count("x2") > 0;
    if (usesX && usesX2)
        fail("uses both x and x2; write it in one of them (x = (r - d0)/r0, x2 = r^2/r0^2)");
    for (const string& variable : variables)
        if (variable != "x" && variable != "x2")
            fail("uses \"" + variable + "\"; it may use only x = (r - d0)/r0 or x2 = r^2/r0^2 (PLUMED's CUSTOM)");
    c.customVariable = (usesX2 ? "x2" : "x");
    c.customValue = value.optimize();
    try {
        c.customDerivative = c.customValue.differentiate(c.customVariable).optimize();
    } catch (const std::exception& error) {
        fail("cannot be differentiated with respect to " + c.customVariable + ": " + error.what());
    }
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

SwitchingFunctionConstants SwitchingFunctionConstants::resolve(const CoordinationForce& force) {
    SwitchingFunctionConstants c;
    c.type = force.getSwitchingFunction();
    c.r0 = force.getR0();
    c.d0 = force.getD0();
    c.dmax = force.getEffectiveDMax();
    c.cutoffSquared = c.dmax * c.dmax;
    c.hasCutoff = std::isfinite(c.dmax) && c.dmax < 1e15;
    c.invLength = (c.type == CoordinationForce::Cubic ? 1.0 / (c.dmax - c.d0) : 1.0 / c.r0);
    c.inverseR0Squared = 1.0 / (c.r0 * c.r0);
    if (1.0 / c.r0 > SinglePrecisionLimit)
        c.singlePrecisionProblem = "r0 = " + numberText(c.r0) + " nm is too small for single or mixed precision "
                                   "(1/r0 > " + numberText(SinglePrecisionLimit) + "/nm); use Precision=double";
    c.n = force.getN();
    c.m = force.getEffectiveM();
    c.mIsTwiceN = (c.m == 2 * c.n);
    if (c.type == CoordinationForce::Rational) {
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
    c.smapA = force.getSmapA();
    c.smapB = force.getSmapB();
    if (c.type == CoordinationForce::Smap && c.smapA > 0 && c.smapB > 0) {
        const double a = c.smapA, b = c.smapB;
        c.smapC = std::pow(2.0, a / b) - 1.0;
        c.smapExponent = -b / a;
    }
    c.cosinusFrequency = Pi;
    c.cosinusSlope = -0.5 * Pi;
    c.qBeta = force.getNativeQBeta();
    c.qCentre = force.getNativeQLambda() * force.getNativeQReference();
    if (c.type == CoordinationForce::Custom) {
        c.customExpression = force.getCustomSwitchingFunction();
        parseCustom(c);
        if (c.isFunctionOfX2())
            c.path = SwitchingPath::SquaredDistance; // a function of x2 = r^2/r0^2 has no other form
    }
    c.stretch = force.getStretch() && std::isfinite(c.dmax);
    resolveStretch(c);
    return c;
}
