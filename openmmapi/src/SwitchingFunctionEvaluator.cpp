#include "internal/SwitchingFunctionEvaluator.h"
#include "lepton/ExpressionTreeNode.h"
#include "lepton/Operation.h"
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace CoordinationPlugin;
using std::string;

namespace {

void collectVariables(const Lepton::ExpressionTreeNode& node, std::set<string>& variables) {
    if (node.getOperation().getId() == Lepton::Operation::VARIABLE)
        variables.insert(node.getOperation().getName());
    for (const Lepton::ExpressionTreeNode& child : node.getChildren())
        collectVariables(child, variables);
}

const double Pi = 3.14159265358979323846;

/** The named constants PLUMED's Lepton knows in expressions (its lepton::Constants()). */
const std::map<string, double>& plumedConstants() {
    static const std::map<string, double> constants = {
        {"e", std::exp(1.0)}, {"log2e", 1.0 / std::log(2.0)}, {"log10e", 1.0 / std::log(10.0)},
        {"ln2", std::log(2.0)}, {"ln10", std::log(10.0)}, {"pi", Pi}, {"pi_2", 0.5 * Pi}, {"pi_4", 0.25 * Pi},
        {"sqrt2", std::sqrt(2.0)}, {"sqrt1_2", std::sqrt(0.5)}};
    return constants;
}

} // namespace

SwitchingFunctionEvaluator::CustomExpression SwitchingFunctionEvaluator::parseCustom(const string& expression) {
    auto fail = [&](const string& why) {
        throw OpenMM::OpenMMException("CoordinationForce: the custom switching function \"" + expression + "\" " + why);
    };
    if (expression.empty())
        throw OpenMM::OpenMMException("CoordinationForce: the switching function is Custom but has no expression; "
                                      "set it with setCustomSwitchingFunction(), e.g. \"1/(1+x^6)\"");
    CustomExpression custom;
    try {
        custom.value = Lepton::Parser::parse(expression).optimize(plumedConstants());
    } catch (const std::exception& error) {
        fail(string("cannot be parsed: ") + error.what());
    }
    std::set<string> variables;
    collectVariables(custom.value.getRootNode(), variables);
    bool usesX = variables.count("x") > 0, usesX2 = variables.count("x2") > 0;
    if (usesX && usesX2)
        fail("uses both x and x2; write it in one of them (x = (r - d0)/r0, x2 = r^2/r0^2)");
    for (const string& variable : variables)
        if (variable != "x" && variable != "x2")
            fail("uses \"" + variable + "\"; it may use only x = (r - d0)/r0 or x2 = r^2/r0^2 (PLUMED's CUSTOM)");
    custom.variable = (usesX2 ? "x2" : "x");
    custom.value = custom.value.optimize();
    try {
        custom.derivative = custom.value.differentiate(custom.variable).optimize();
    } catch (const std::exception& error) {
        fail("cannot be differentiated with respect to " + custom.variable + ": " + error.what());
    }
    return custom;
}

SwitchingFunctionConstants SwitchingFunctionEvaluator::resolve(const CoordinationForce& force) {
    SwitchingFunctionConstants c;
    c.type = force.getSwitchingFunction();
    c.r0 = force.getR0();
    c.d0 = force.getD0();
    c.dmax = force.getEffectiveDMax();
    c.invLength = (c.type == CoordinationForce::Cubic ? 1.0 / (c.dmax - c.d0) : 1.0 / c.r0);
    c.n = force.getN();
    c.m = force.getEffectiveM();
    if (c.type == CoordinationForce::Rational) {
        const int n = c.n, m = c.m;
        c.taylorBand = RationalSwitchingFunction::TaylorBand;
        c.taylorValue = n / (double) m;
        c.taylorFirst = n * (n - m) / (2.0 * m);
        c.taylorSecond = n * (m * (double) m - 3.0 * m * (n - 1) + n * (2.0 * n - 3.0)) / (6.0 * m);
    }
    c.smapA = force.getSmapA();
    c.smapB = force.getSmapB();
    if (c.type == CoordinationForce::Smap && c.smapA > 0 && c.smapB > 0) {
        const double a = c.smapA, b = c.smapB;
        c.smapC = std::pow(2.0, a / b) - 1.0;
        c.smapExponent = -b / a;
    }
    c.qBeta = force.getNativeQBeta();
    c.qCentre = force.getNativeQLambda() * force.getNativeQReference();
    if (c.type == CoordinationForce::Custom) {
        c.customExpression = force.getCustomSwitchingFunction();
        CustomExpression custom = parseCustom(c.customExpression);
        c.customValue = custom.value;
        c.customDerivative = custom.derivative;
        c.customVariable = custom.variable;
    }
    c.stretch = force.getStretch() && std::isfinite(c.dmax);
    resolveStretch(c);
    return c;
}

void SwitchingFunctionEvaluator::resolveStretch(SwitchingFunctionConstants& c) {
    c.stretchFactor = 1.0;
    c.shift = 0.0;
    if (!c.stretch)
        return;
    const SwitchingFunctionEvaluator unstretched(c);
    double unused;
    double valueAtZero = unstretched.evaluateUnstretched(0.0, unused);
    double valueAtDMax = unstretched.evaluateUnstretched(c.dmax, unused);
    c.stretchFactor = 1.0 / (valueAtZero - valueAtDMax);
    c.shift = -valueAtDMax * c.stretchFactor;
}

SwitchingFunctionConstants RationalSwitchingFunction::resolve(double r0, double d0, int n, int m, double dmax,
                                                              bool stretch) {
    CoordinationForce force;
    force.setR0(r0);
    force.setD0(d0);
    force.setN(n);
    force.setM(m);
    force.setDMax(dmax);
    force.setStretch(stretch);
    return SwitchingFunctionEvaluator::resolve(force);
}

SwitchingFunctionEvaluator::SwitchingFunctionEvaluator(const SwitchingFunctionConstants& c)
    : type(c.type), invR0(c.invLength), d0(c.d0), dmax(c.dmax), rational(c), smapA(c.smapA), smapB(c.smapB),
      smapC(c.smapC), smapExponent(c.smapExponent), qBeta(c.qBeta), qCentre(c.qCentre),
      customOfX2(c.isFunctionOfX2()), stretchFactor(c.stretchFactor), shift(c.shift) {
    if (type == CoordinationForce::Custom) {
        customValue = c.customValue.createProgram();
        customDerivative = c.customDerivative.createProgram();
    }
}

double SwitchingFunctionEvaluator::evaluateUnstretched(double r, double& dSigmaDr) const {
    if (type == CoordinationForce::Rational)
        return rational.evaluateUnstretched(r, dSigmaDr);
    if (customOfX2) {
        // PLUMED's x2 form: no d0 and no clamp to 1.
        std::map<string, double> variables = {{"x2", r * r * invR0 * invR0}};
        dSigmaDr = customDerivative.evaluate(variables) * 2.0 * r * invR0 * invR0;
        return customValue.evaluate(variables);
    }
    if (type == CoordinationForce::NativeQ) {
        if (r <= d0) {
            dSigmaDr = 0.0;
            return 1.0;
        }
        double exponential = std::exp(qBeta * (r - qCentre));
        dSigmaDr = -qBeta / (exponential + 2.0 + 1.0 / exponential);
        return 1.0 / (1.0 + exponential);
    }
    double x = (r - d0) * invR0;
    if (x <= 0.0) {
        dSigmaDr = 0.0;
        return 1.0;
    }
    double dSigmaDx;
    double value = evaluateOfX(x, dSigmaDx);
    dSigmaDr = dSigmaDx * invR0;
    return value;
}

double SwitchingFunctionEvaluator::evaluateOfX(double x, double& dSigmaDx) const {
    switch (type) {
    case CoordinationForce::Exponential: {
        double value = std::exp(-x);
        dSigmaDx = -value;
        return value;
    }
    case CoordinationForce::Gaussian: {
        double value = std::exp(-0.5 * x * x);
        dSigmaDx = -x * value;
        return value;
    }
    case CoordinationForce::Smap: {
        double sx = smapC * RationalSwitchingFunction::integerPower(x, (int) smapA);
        if (!std::isfinite(sx)) {
            // x^a overflows only astronomically far out, where sigma's limit is 0.
            dSigmaDx = 0.0;
            return 0.0;
        }
        double value = std::pow(1.0 + sx, smapExponent);
        dSigmaDx = -smapB * sx / x * value / (1.0 + sx);
        return value;
    }
    case CoordinationForce::Cubic: {
        double xMinus1 = x - 1.0, onePlus2X = 1.0 + 2.0 * x;
        dSigmaDx = 2.0 * xMinus1 * onePlus2X + 2.0 * xMinus1 * xMinus1;
        return xMinus1 * xMinus1 * onePlus2X;
    }
    case CoordinationForce::Tanh: {
        double t = std::tanh(x);
        dSigmaDx = t * t - 1.0;
        return 1.0 - t;
    }
    case CoordinationForce::Cosinus: {
        if (x > 1.0) {
            dSigmaDx = 0.0;
            return 0.0;
        }
        dSigmaDx = -0.5 * Pi * std::sin(x * Pi);
        return 0.5 * (std::cos(x * Pi) + 1.0);
    }
    case CoordinationForce::Custom: {
        std::map<string, double> variables = {{"x", x}};
        dSigmaDx = customDerivative.evaluate(variables);
        return customValue.evaluate(variables);
    }
    default:
        throw OpenMM::OpenMMException("CoordinationForce: internal error: switching function " +
                                      std::to_string((int) type) + " is not a function of x");
    }
}
