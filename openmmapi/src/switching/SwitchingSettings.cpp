#include "SwitchingSettings.h"
#include "internal/switching/RationalSwitchingFunction.h"
#include "openmm/OpenMMException.h"
#include <cstring>
#include <limits>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;

SwitchingSettings::SwitchingSettings()
    : type(CoordinationBiasForce::Rational), r0(0.3), d0(0.0), dmax(0.0), stretch(true), n(6), m(0), smapA(0), smapB(0),
      nativeQBeta(50.0), nativeQLambda(1.8), nativeQReference(0.0) {}

SwitchingSettings::SwitchingSettings(CoordinationBiasForce::SwitchingFunction type, double r0, double d0, double dmax,
                                     bool stretch)
    : SwitchingSettings() {
    setType(type);
    this->r0 = r0;
    this->d0 = d0;
    this->dmax = dmax;
    this->stretch = stretch;
}

SwitchingSettings SwitchingSettings::rational(double r0, int n, int m, double d0, double dmax) {
    SwitchingSettings settings(CoordinationBiasForce::Rational, r0, d0, dmax);
    settings.setN(n);
    settings.setM(m);
    return settings;
}

SwitchingSettings SwitchingSettings::smap(double r0, int a, int b, double d0, double dmax) {
    SwitchingSettings settings(CoordinationBiasForce::Smap, r0, d0, dmax);
    settings.setSmapExponents(a, b);
    return settings;
}

SwitchingSettings SwitchingSettings::nativeQ(double beta, double lambda, double reference, double d0, double dmax) {
    SwitchingSettings settings(CoordinationBiasForce::NativeQ, 0.3, d0, dmax);
    settings.setNativeQParameters(beta, lambda, reference);
    return settings;
}

SwitchingSettings SwitchingSettings::custom(const string& expression, double r0, double d0, double dmax) {
    SwitchingSettings settings(CoordinationBiasForce::Custom, r0, d0, dmax);
    settings.setCustomExpression(expression);
    return settings;
}

void SwitchingSettings::checkExponent(const string& setter, const string& what, int value, int minimum,
                                      const string& note) {
    if (value < minimum || value > MaxExponent)
        throw OpenMMException(setter + ": the exponent " + what + " must be >= " + std::to_string(minimum) + note +
                              " and <= " + std::to_string(MaxExponent) + " (MaxExponent), got " +
                              std::to_string(value));
}

void SwitchingSettings::setType(CoordinationBiasForce::SwitchingFunction type) {
    if ((int)type < CoordinationBiasForce::Rational || (int)type > CoordinationBiasForce::Custom)
        throw OpenMMException("unknown switching function " + std::to_string((int)type) +
                              "; use Rational, Exponential, Gaussian, Smap, Cubic, Tanh, Cosinus, NativeQ or Custom "
                              "(CoordinationBiasForce::Rational, ...)");
    this->type = type;
}

void SwitchingSettings::setN(int n) {
    checkExponent("SwitchingSettings::setN", "n", n, 1);
    this->n = n;
}

void SwitchingSettings::setM(int m) {
    checkExponent("SwitchingSettings::setM", "m", m, 0, " (0 means 2n)");
    this->m = m;
}

void SwitchingSettings::setSmapExponents(int a, int b) {
    if (a != 0 || b != 0) { // (0, 0): unset, the default
        checkExponent("SwitchingSettings::setSmapExponents", "a", a, 1, " (or a = b = 0: unset)");
        checkExponent("SwitchingSettings::setSmapExponents", "b", b, 1, " (or a = b = 0: unset)");
    }
    smapA = a;
    smapB = b;
}

void SwitchingSettings::setNativeQParameters(double beta, double lambda, double reference) {
    nativeQBeta = beta;
    nativeQLambda = lambda;
    nativeQReference = reference;
}

void SwitchingSettings::setCustomExpression(const string& expression) {
    customExpression = expression;
    type = CoordinationBiasForce::Custom;
}

double SwitchingSettings::getEffectiveDMax() const {
    if (dmax != 0.0)
        return dmax;
    if (type == CoordinationBiasForce::Rational)
        return RationalSwitchingFunction::automaticDMax(r0, d0, n, getEffectiveM());
    if (type == CoordinationBiasForce::Cosinus)
        return d0 + r0;
    return std::numeric_limits<double>::infinity();
}

bool SwitchingSettings::operator==(const SwitchingSettings& other) const {
    auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; };
    return type == other.type && same(r0, other.r0) && same(d0, other.d0) && same(dmax, other.dmax) &&
           stretch == other.stretch && n == other.n && m == other.m && smapA == other.smapA && smapB == other.smapB &&
           same(nativeQBeta, other.nativeQBeta) && same(nativeQLambda, other.nativeQLambda) &&
           same(nativeQReference, other.nativeQReference) && customExpression == other.customExpression;
}
