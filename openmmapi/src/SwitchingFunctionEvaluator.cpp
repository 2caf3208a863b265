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

SwitchingFunctionEvaluator::SwitchingFunctionEvaluator(const CoordinationForce& force)
    : type(force.getSwitchingFunction()), invR0(1.0 / force.getR0()), d0(force.getD0()),
      dmax(force.getEffectiveDMax()),
      rational(force.getR0(), force.getD0(), force.getN(), force.getEffectiveM(),
               std::numeric_limits<double>::infinity(), false),
      smapA(force.getSmapA()), smapB(force.getSmapB()), smapC(0.0), smapExponent(0.0),
      qBeta(force.getNativeQBeta()), qCentre(force.getNativeQLambda() * force.getNativeQReference()),
      stretchFactor(1.0), shift(0.0) {
    if (type == CoordinationForce::Smap && smapA > 0 && smapB > 0) {
        smapC = std::pow(2.0, smapA / smapB) - 1.0;
        smapExponent = -smapB / smapA;
    }
    if (type == CoordinationForce::Cubic)
        invR0 = 1.0 / (dmax - d0);
    if (type == CoordinationForce::Custom) {
        CustomExpression custom = parseCustom(force.getCustomSwitchingFunction());
        customValue = custom.value.createProgram();
        customDerivative = custom.derivative.createProgram();
        customVariable = custom.variable;
    }
    if (force.getStretch() && std::isfinite(dmax)) {
        double unused;
        double valueAtZero = evaluateUnstretched(0.0, unused);
        double valueAtDMax = evaluateUnstretched(dmax, unused);
        stretchFactor = 1.0 / (valueAtZero - valueAtDMax);
        shift = -valueAtDMax * stretchFactor;
    }
}

double SwitchingFunctionEvaluator::evaluateUnstretched(double r, double& dSigmaDr) const {
    if (type == CoordinationForce::Rational)
        return rational.evaluate(r, dSigmaDr);
    if (type == CoordinationForce::Custom && customVariable == "x2") {
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
