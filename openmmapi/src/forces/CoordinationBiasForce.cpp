#include "CoordinationBiasForce.h"
#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/forces/ForceInContext.h"
#include "openmm/OpenMMException.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

CoordinationBiasForce::CoordinationBiasForce(const string& energy) : energyExpression(energy), periodic(false) {}

CoordinationBiasForce::~CoordinationBiasForce() {}

void CoordinationBiasForce::checkIndex(const string& method, int index, size_t size, const string& singular,
                                       const string& plural) const {
    if (index >= 0 && (size_t)index < size)
        return;
    const string has = (size == 0 ? "no " + plural : std::to_string(size) + " " + (size == 1 ? singular : plural));
    throw OpenMMException(getForceClassName() + "::" + method + ": index " + std::to_string(index) +
                          " is out of range; this force has " + has +
                          (size == 0 ? "" : " (use an index from 0 to " + std::to_string(size - 1) + ")"));
}

int CoordinationBiasForce::addGlobalParameter(const string& name, double defaultValue) {
    globalParameterNames.push_back(name);
    globalParameterDefaults.push_back(defaultValue);
    return globalParameterNames.size() - 1;
}

const string& CoordinationBiasForce::getGlobalParameterName(int index) const {
    checkIndex("getGlobalParameterName", index, globalParameterNames.size(), "global parameter", "global parameters");
    return globalParameterNames[index];
}

void CoordinationBiasForce::setGlobalParameterName(int index, const string& name) {
    checkIndex("setGlobalParameterName", index, globalParameterNames.size(), "global parameter", "global parameters");
    globalParameterNames[index] = name;
}

double CoordinationBiasForce::getGlobalParameterDefaultValue(int index) const {
    checkIndex("getGlobalParameterDefaultValue", index, globalParameterNames.size(), "global parameter",
               "global parameters");
    return globalParameterDefaults[index];
}

void CoordinationBiasForce::setGlobalParameterDefaultValue(int index, double defaultValue) {
    checkIndex("setGlobalParameterDefaultValue", index, globalParameterNames.size(), "global parameter",
               "global parameters");
    globalParameterDefaults[index] = defaultValue;
}

const string& CoordinationBiasForce::getEnergyParameterDerivativeName(int index) const {
    checkIndex("getEnergyParameterDerivativeName", index, energyParameterDerivatives.size(),
               "energy parameter derivative", "energy parameter derivatives");
    return energyParameterDerivatives[index];
}

namespace {

void checkWeighting(const string& where, CoordinationBiasForce::CenterWeighting weighting) {
    if (weighting != CoordinationBiasForce::GeometricCenter && weighting != CoordinationBiasForce::CenterOfMass &&
        weighting != CoordinationBiasForce::WeightedCenter)
        throw OpenMMException(
            where + ": unknown centre weighting " + std::to_string((int)weighting) +
            "; use GeometricCenter, CenterOfMass or WeightedCenter (CoordinationForce::CenterOfMass, ...)");
}

} // namespace

int CoordinationBiasForce::addCenter(const vector<int>& particles, CenterWeighting weighting,
                                     const vector<double>& weights, bool makeWhole) {
    checkWeighting(getForceClassName() + "::addCenter", weighting);
    centers.push_back(CenterInfo());
    setCenterParameters(centers.size() - 1, particles, weighting, weights, makeWhole);
    return -(int)centers.size();
}

void CoordinationBiasForce::getCenterParameters(int index, vector<int>& particles, CenterWeighting& weighting,
                                                vector<double>& weights, bool& makeWhole) const {
    checkIndex("getCenterParameters", index, centers.size(), "centre", "centres");
    particles = centers[index].particles;
    weighting = centers[index].weighting;
    weights = centers[index].weights;
    makeWhole = centers[index].makeWhole;
}

void CoordinationBiasForce::setCenterParameters(int index, const vector<int>& particles, CenterWeighting weighting,
                                                const vector<double>& weights, bool makeWhole) {
    checkIndex("setCenterParameters", index, centers.size(), "centre", "centres");
    checkWeighting(getForceClassName() + "::setCenterParameters", weighting);
    centers[index].particles = particles;
    centers[index].weighting = weighting;
    centers[index].weights = weights;
    centers[index].makeWhole = makeWhole;
}

void CoordinationBiasForce::getCollectiveVariableValues(Context& context, vector<double>& values) const {
    ContextImpl* contextImpl;
    CoordinationBiasForceImpl::inContextAs<CoordinationBiasForceImpl>(context, *this, "getCollectiveVariableValues",
                                                                      contextImpl)
        .getCollectiveVariableValues(*contextImpl, values);
}

void CoordinationBiasForce::updateParametersInContext(Context& context) {
    Context* where;
    CoordinationBiasForce* copy;
    if (!ForceInContext::find(context, *this, false, where, copy))
        throw ForceInContext::notFound(getForceClassName(), "updateParametersInContext");
    CoordinationBiasForce& force = (copy == nullptr ? *this : *copy);
    auto& impl = dynamic_cast<CoordinationBiasForceImpl&>(force.getImplInContext(*where));
    if (copy != nullptr) // the inner System's copy takes this force's settings, then updates its context
        impl.copySettings(*this, *copy);
    impl.updateParametersInContext(force.getContextImpl(*where));
}
