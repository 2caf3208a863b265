#include "internal/switching/SwitchingFunctionEvaluator.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <map>
#include <string>

using namespace CoordinationPlugin;
using std::string;

SwitchingFunctionEvaluator::SwitchingFunctionEvaluator(const SwitchingFunctionConstants& c)
    : constants(c), rational(c) {
    if (c.type == CoordinationBiasForce::Custom) {
        customValue = c.customValue.createProgram();
        customDerivative = c.customDerivative.createProgram();
    }
}

double SwitchingFunctionEvaluator::evaluateUnstretched(double r, double& dSigmaDr) const {
    const SwitchingFunctionConstants& c = constants;
    if (c.type == CoordinationBiasForce::Rational)
        return rational.evaluateUnstretched(r, dSigmaDr);
    if (c.isFunctionOfX2()) {
        // PLUMED's x2 form: no d0 and no clamp to 1.
        std::map<string, double> variables = {{"x2", r * r * c.inverseR0Squared}};
        dSigmaDr = customDerivative.evaluate(variables) * 2.0 * r * c.inverseR0Squared;
        return customValue.evaluate(variables);
    }
    if (c.type == CoordinationBiasForce::NativeQ) {
        if (r <= c.d0) {
            dSigmaDr = 0.0;
            return 1.0;
        }
        const double exponential = std::exp(c.qBeta * (r - c.qCentre));
        dSigmaDr = -c.qBeta / (exponential + 2.0 + 1.0 / exponential);
        return 1.0 / (1.0 + exponential);
    }
    const double x = (r - c.d0) * c.invLength;
    if (x <= 0.0) {
        dSigmaDr = 0.0;
        return 1.0;
    }
    double dSigmaDx;
    const double value = evaluateOfX(x, dSigmaDx);
    dSigmaDr = dSigmaDx * c.invLength;
    return value;
}

double SwitchingFunctionEvaluator::evaluateOfX(double x, double& dSigmaDx) const {
    const SwitchingFunctionConstants& c = constants;
    switch (c.type) {
    case CoordinationBiasForce::Exponential: {
        const double value = std::exp(-x);
        dSigmaDx = -value;
        return value;
    }
    case CoordinationBiasForce::Gaussian: {
        const double value = std::exp(-0.5 * x * x);
        dSigmaDx = -x * value;
        return value;
    }
    case CoordinationBiasForce::Smap: {
        const double sx = c.smapC * RationalSwitchingFunction::integerPower(x, c.smapA);
        if (!std::isfinite(sx)) {
            // x^a overflows only astronomically far out, where sigma's limit is 0.
            dSigmaDx = 0.0;
            return 0.0;
        }
        const double value = std::pow(1.0 + sx, c.smapExponent);
        dSigmaDx = -c.smapB * sx / x * value / (1.0 + sx);
        return value;
    }
    case CoordinationBiasForce::Cubic: {
        const double xMinus1 = x - 1.0, onePlus2X = 1.0 + 2.0 * x;
        dSigmaDx = 2.0 * xMinus1 * onePlus2X + 2.0 * xMinus1 * xMinus1;
        return xMinus1 * xMinus1 * onePlus2X;
    }
    case CoordinationBiasForce::Tanh: {
        const double t = std::tanh(x);
        dSigmaDx = t * t - 1.0;
        return 1.0 - t;
    }
    case CoordinationBiasForce::Cosinus: {
        if (x > 1.0) {
            dSigmaDx = 0.0;
            return 0.0;
        }
        dSigmaDx = c.cosinusSlope * std::sin(x * c.cosinusFrequency);
        return 0.5 * (std::cos(x * c.cosinusFrequency) + 1.0);
    }
    case CoordinationBiasForce::Custom: {
        std::map<string, double> variables = {{"x", x}};
        dSigmaDx = customDerivative.evaluate(variables);
        return customValue.evaluate(variables);
    }
    default:
        throw OpenMM::OpenMMException("CoordinationForce: internal error: switching function " +
                                      std::to_string((int) c.type) + " is not a function of x");
    }
}

double SwitchingFunctionEvaluator::evaluateSquared(double r2, double& scale) const {
    const SwitchingFunctionConstants& c = constants;
    if (r2 > c.cutoffSquared) {
        scale = 0.0;
        return 0.0;
    }
    const double y = r2 * c.inverseR0Squared;
    if (c.isFunctionOfX2()) {
        std::map<string, double> variables = {{"x2", y}};
        // Coincident atoms (r = 0) get no force, whatever the derivative there (1/(1+sqrt(x2)) has none).
        scale = (r2 > 0.0 ? 2.0 * c.inverseR0Squared * c.stretchFactor * customDerivative.evaluate(variables) : 0.0);
        return finiteOrNaN(customValue.evaluate(variables) * c.stretchFactor + c.shift, scale, true);
    }
    // Rational with d0 = 0 and n, m even: the rational function of y with the exponents n/2 and m/2
    // (x^k = y^(k/2)), whose y-derivative times 2/r0^2 is (dsigma/dr)/r.
    if (c.mIsTwiceN || !(std::fabs(y - 1.0) < SwitchingFunctionConstants::SquaredTaylorBand)) {
        double dSigmaDy;
        const double value = RationalSwitchingFunction::closedForm(y, c.n / 2, c.m / 2, dSigmaDy);
        scale = 2.0 * c.inverseR0Squared * c.stretchFactor * dSigmaDy;
        return value * c.stretchFactor + c.shift;
    }
    // Near x = 1 (m != 2n): the Taylor expansion of the defining form, from r.
    const double r = std::sqrt(r2);
    double dSigmaDr;
    const double value = evaluate(r, dSigmaDr);
    scale = (r > 0.0 ? dSigmaDr / r : 0.0);
    return value;
}
