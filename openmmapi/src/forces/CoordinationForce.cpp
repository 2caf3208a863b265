#include "CoordinationForce.h"
#include "CoordinationNumberForce.h"
#include "PlumedTranslator.h"
#include "internal/CoordinationForceImpl.h"
#include "internal/ForceInContext.h"
#include "internal/RationalSwitchingFunction.h"
#include "openmm/CustomCVForce.h"
#include "openmm/OpenMMException.h"
#include "openmm/System.h"
#include <cmath>
#include <limits>
#include <memory>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

CoordinationForce::CoordinationForce(const string& energy)
    : energyExpression(energy), mode(Self), r0(0.3), d0(0.0), dmax(0.0), n(6), m(0), stretch(true),
      periodic(false), switchingFunction(Rational), smapA(0), smapB(0), nativeQBeta(50.0), nativeQLambda(1.8),
      nativeQReference(0.0) {}

void CoordinationForce::setMode(Mode mode) {
    if (mode != Self && mode != Dual && mode != Pair)
        throw OpenMMException("CoordinationForce: unknown mode " + std::to_string((int) mode) +
                              "; use CoordinationForce::Self, Dual or Pair");
    this->mode = mode;
}

namespace {

/** An exponent outside minimum..MaxExponent is refused where it is set, naming the setter, the value and the range. */
void checkExponent(const string& setter, const string& what, int value, int minimum, const string& note = "") {
    if (value < minimum || value > CoordinationForce::MaxExponent)
        throw OpenMMException("CoordinationForce::" + setter + ": the exponent " + what + " must be >= " +
                              std::to_string(minimum) + note + " and <= " + std::to_string(CoordinationForce::MaxExponent) +
                              " (CoordinationForce::MaxExponent), got " + std::to_string(value));
}

/** An index into one of the force's lists; another index is an OpenMMException naming it and the valid range. */
void checkIndex(const string& method, int index, size_t size, const string& singular, const string& plural) {
    if (index >= 0 && (size_t) index < size)
        return;
    const string has = (size == 0 ? "no " + plural : std::to_string(size) + " " + (size == 1 ? singular : plural));
    throw OpenMMException("CoordinationForce::" + method + ": index " + std::to_string(index) + " is out of range; this force has " + has +
                          (size == 0 ? "" : " (use an index from 0 to " + std::to_string(size - 1) + ")"));
}

void checkGlobalParameterIndex(const string& method, int index, size_t size) {
    checkIndex(method, index, size, "global parameter", "global parameters");
}

} // namespace

void CoordinationForce::setN(int n) {
    checkExponent("setN", "n", n, 1);
    this->n = n;
}

void CoordinationForce::setM(int m) {
    checkExponent("setM", "m", m, 0, " (0 means 2n)");
    this->m = m;
}

int CoordinationForce::getEffectiveM() const {
    return (m == 0 ? 2 * n : m);
}

double CoordinationForce::getEffectiveDMax() const {
    if (dmax != 0.0)
        return dmax;
    if (switchingFunction == Rational)
        return RationalSwitchingFunction::automaticDMax(r0, d0, n, getEffectiveM());
    if (switchingFunction == Cosinus)
        return d0 + r0;
    return std::numeric_limits<double>::infinity();
}

void CoordinationForce::setSwitchingFunction(SwitchingFunction type) {
    if ((int) type < Rational || (int) type > Custom)
        throw OpenMMException("CoordinationForce: unknown switching function " + std::to_string((int) type) +
                              "; use CoordinationForce::Rational, Exponential, Gaussian, Smap, Cubic, Tanh, "
                              "Cosinus, NativeQ or Custom");
    switchingFunction = type;
}

void CoordinationForce::setSmapExponents(int a, int b) {
    if (a != 0 || b != 0) { // (0, 0): unset, the default
        checkExponent("setSmapExponents", "a", a, 1, " (or a = b = 0: unset)");
        checkExponent("setSmapExponents", "b", b, 1, " (or a = b = 0: unset)");
    }
    smapA = a;
    smapB = b;
}

void CoordinationForce::setNativeQParameters(double beta, double lambda, double reference) {
    nativeQBeta = beta;
    nativeQLambda = lambda;
    nativeQReference = reference;
}

void CoordinationForce::setCustomSwitchingFunction(const string& expression) {
    customSwitchingFunction = expression;
    switchingFunction = Custom;
}

int CoordinationForce::addCenter(const vector<int>& particles, CenterWeighting weighting, const vector<double>& weights,
                                 bool makeWhole) {
    if (weighting != GeometricCenter && weighting != CenterOfMass && weighting != WeightedCenter)
        throw OpenMMException("CoordinationForce::addCenter: unknown centre weighting " + std::to_string((int) weighting) +
                              "; use CoordinationForce::GeometricCenter, CenterOfMass or WeightedCenter");
    centers.push_back(CenterInfo());
    setCenterParameters(centers.size() - 1, particles, weighting, weights, makeWhole);
    return -(int) centers.size();
}

void CoordinationForce::getCenterParameters(int index, vector<int>& particles, CenterWeighting& weighting,
                                            vector<double>& weights, bool& makeWhole) const {
    checkIndex("getCenterParameters", index, centers.size(), "centre", "centres");
    particles = centers[index].particles;
    weighting = centers[index].weighting;
    weights = centers[index].weights;
    makeWhole = centers[index].makeWhole;
}

void CoordinationForce::setCenterParameters(int index, const vector<int>& particles, CenterWeighting weighting,
                                            const vector<double>& weights, bool makeWhole) {
    checkIndex("setCenterParameters", index, centers.size(), "centre", "centres");
    if (weighting != GeometricCenter && weighting != CenterOfMass && weighting != WeightedCenter)
        throw OpenMMException("CoordinationForce: unknown centre weighting " + std::to_string((int) weighting) +
                              "; use CoordinationForce::GeometricCenter, CenterOfMass or WeightedCenter");
    centers[index].particles = particles;
    centers[index].weighting = weighting;
    centers[index].weights = weights;
    centers[index].makeWhole = makeWhole;
}

int CoordinationForce::addGlobalParameter(const string& name, double defaultValue) {
    globalParameters.push_back(GlobalParameterInfo(name, defaultValue));
    return globalParameters.size() - 1;
}

const string& CoordinationForce::getGlobalParameterName(int index) const {
    checkGlobalParameterIndex("getGlobalParameterName", index, globalParameters.size());
    return globalParameters[index].name;
}

void CoordinationForce::setGlobalParameterName(int index, const string& name) {
    checkGlobalParameterIndex("setGlobalParameterName", index, globalParameters.size());
    globalParameters[index].name = name;
}

double CoordinationForce::getGlobalParameterDefaultValue(int index) const {
    checkGlobalParameterIndex("getGlobalParameterDefaultValue", index, globalParameters.size());
    return globalParameters[index].defaultValue;
}

void CoordinationForce::setGlobalParameterDefaultValue(int index, double defaultValue) {
    checkGlobalParameterIndex("setGlobalParameterDefaultValue", index, globalParameters.size());
    globalParameters[index].defaultValue = defaultValue;
}

const string& CoordinationForce::getEnergyParameterDerivativeName(int index) const {
    checkIndex("getEnergyParameterDerivativeName", index, energyParameterDerivatives.size(), "energy parameter derivative",
               "energy parameter derivatives");
    return energyParameterDerivatives[index];
}

namespace {

bool findForce(Context& context, const CoordinationForce& force, bool syncState, Context*& where, CoordinationForce*& copy) {
    return ForceInContext::find(context, force, syncState, where, copy);
}

OpenMMException notInContext(const string& method) {
    return ForceInContext::notFound("CoordinationForce", method);
}

} // namespace

CoordinationForceImpl& CoordinationForceImpl::inContext(Context& context, const CoordinationForce& owner, bool syncState,
                                                       const string& method, ContextImpl*& contextImpl) {
    Context* where;
    CoordinationForce* copy;
    if (!findForce(context, owner, syncState, where, copy))
        throw notInContext(method);
    const CoordinationForce& force = (copy == nullptr ? owner : *copy);
    contextImpl = &force.getContextImpl(*where);
    return dynamic_cast<CoordinationForceImpl&>(force.getImplInContext(*where));
}

double CoordinationForce::getCoordination(Context& context) const {
    if (dynamic_cast<const CoordinationNumberForce*>(this) != nullptr)
        throw OpenMMException("CoordinationForce::getCoordination: a CoordinationNumberForce has no single coordination "
                              "number; use getCollectiveVariableValues() for its reductions or getCoordinationNumbers() "
                              "for each atom's");
    ContextImpl* contextImpl;
    return CoordinationForceImpl::inContext(context, *this, true, "getCoordination", contextImpl).getCoordination(*contextImpl);
}

string CoordinationForce::getCollectiveVariableName(int index) const {
    checkIndex("getCollectiveVariableName", index, 1, "collective variable", "collective variables");
    return "s";
}

void CoordinationForce::getCollectiveVariableValues(Context& context, vector<double>& values) const {
    ContextImpl* contextImpl;
    CoordinationForceImpl::inContext(context, *this, true, "getCollectiveVariableValues", contextImpl)
        .getCollectiveVariableValues(*contextImpl, values);
}

void CoordinationNumberForce::getCoordinationNumbers(Context& context, vector<double>& values) const {
    ContextImpl* contextImpl;
    CoordinationForceImpl::inContext(context, *this, true, "getCoordinationNumbers", contextImpl)
        .getCoordinationNumbers(*contextImpl, values);
}

long long CoordinationForce::getNumCandidatePairsInContext(Context& context) const {
    Context* where;
    CoordinationForce* copy;
    if (!findForce(context, *this, true, where, copy))
        throw notInContext("getNumCandidatePairsInContext");
    const CoordinationForce& force = (copy == nullptr ? *this : *copy);
    return dynamic_cast<CoordinationForceImpl&>(force.getImplInContext(*where))
        .getNumCandidatePairs(force.getContextImpl(*where));
}

void CoordinationForce::updateParametersInContext(Context& context) {
    Context* where;
    CoordinationForce* copy;
    if (!findForce(context, *this, false, where, copy))
        throw notInContext("updateParametersInContext");
    if (copy != nullptr) { // the inner System's copy takes this force's settings, then updates its context
        auto* numbersCopy = dynamic_cast<CoordinationNumberForce*>(copy);
        if (numbersCopy != nullptr)
            *numbersCopy = dynamic_cast<const CoordinationNumberForce&>(*this);
        else
            *copy = *this;
    }
    CoordinationForce& force = (copy == nullptr ? *this : *copy);
    dynamic_cast<CoordinationForceImpl&>(force.getImplInContext(*where)).updateParametersInContext(force.getContextImpl(*where));
}

CoordinationForce* CoordinationForce::fromPlumed(const string& input) {
    std::unique_ptr<Force> force(PlumedTranslator::fromPlumed(input));
    auto* coordination = dynamic_cast<CoordinationForce*>(force.get());
    if (coordination == nullptr)
        throw OpenMMException("CoordinationForce::fromPlumed: the action is not a COORDINATION action; read it with "
                              "PlumedTranslator::fromPlumed (in \"" + input + "\")");
    force.release();
    return coordination;
}

vector<CoordinationForce*> CoordinationForce::fromPlumedFile(const string& pathOrText, vector<string>& skipped) {
    vector<CoordinationForce*> coordination;
    for (Force* force : PlumedTranslator::fromPlumedFile(pathOrText, skipped)) {
        // Every force the translator reads today is a CoordinationForce; any other is listed as skipped.
        auto* read = dynamic_cast<CoordinationForce*>(force);
        if (read == nullptr) {
            skipped.push_back(force->getName());
            delete force;
        }
        else
            coordination.push_back(read);
    }
    return coordination;
}

string CoordinationForce::toPlumed(const string& label) const {
    return PlumedTranslator::toPlumed(*this, label);
}

ForceImpl* CoordinationForce::createImpl() const {
    return new CoordinationForceImpl(*this);
}
