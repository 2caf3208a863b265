#include "ContactMapForce.h"
#include "PlumedTranslator.h"
#include "internal/ContactMapForceImpl.h"
#include "internal/ForceInContext.h"
#include "openmm/OpenMMException.h"
#include <limits>
#include <memory>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

/** An index into one of the force's lists; another index is an OpenMMException naming it and the valid range. */
void checkIndex(const string& method, int index, size_t size, const string& singular, const string& plural) {
    if (index >= 0 && (size_t) index < size)
        return;
    const string has = (size == 0 ? "no " + plural : std::to_string(size) + " " + (size == 1 ? singular : plural));
    throw OpenMMException("ContactMapForce::" + method + ": index " + std::to_string(index) + " is out of range; this force has " +
                          has + (size == 0 ? "" : " (use an index from 0 to " + std::to_string(size - 1) + ")"));
}

void checkSwitchingType(const string& method, CoordinationForce::SwitchingFunction type) {
    if ((int) type < CoordinationForce::Rational || (int) type > CoordinationForce::Custom)
        throw OpenMMException("ContactMapForce::" + method + ": unknown switching function " + std::to_string((int) type) +
                              "; use CoordinationForce::Rational, Exponential, Gaussian, Smap, Cubic, Tanh, Cosinus, NativeQ "
                              "or Custom");
}

void checkWeighting(const string& method, CoordinationForce::CenterWeighting weighting) {
    if (weighting != CoordinationForce::GeometricCenter && weighting != CoordinationForce::CenterOfMass &&
        weighting != CoordinationForce::WeightedCenter)
        throw OpenMMException("ContactMapForce::" + method + ": unknown centre weighting " + std::to_string((int) weighting) +
                              "; use CoordinationForce::GeometricCenter, CenterOfMass or WeightedCenter");
}

} // namespace

ContactMapForce::ContactMapForce(const string& energy, Reduction reduction)
    : energyExpression(energy), reduction(Sum), periodic(false) {
    setReduction(reduction);
}

void ContactMapForce::setReduction(Reduction reduction) {
    if (reduction != Sum && reduction != Distance && reduction != Components)
        throw OpenMMException("ContactMapForce: unknown reduction " + std::to_string((int) reduction) +
                              "; use ContactMapForce::Sum, Distance or Components");
    this->reduction = reduction;
}

int ContactMapForce::addContact(int particle1, int particle2, double r0, double reference, double weight) {
    return addContact(particle1, particle2, CoordinationForce::Rational, r0, 0.0,
                      std::numeric_limits<double>::infinity(), true, {6, 12}, reference, weight);
}

int ContactMapForce::addContact(int particle1, int particle2, CoordinationForce::SwitchingFunction type, double r0,
                                double d0, double dmax, bool stretch, const vector<double>& shape, double reference,
                                double weight) {
    checkSwitchingType("addContact", type);
    contacts.push_back(ContactInfo());
    setContactParameters(contacts.size() - 1, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
    return contacts.size() - 1;
}

void ContactMapForce::getContactParameters(int index, int& particle1, int& particle2,
                                           CoordinationForce::SwitchingFunction& type, double& r0, double& d0,
                                           double& dmax, bool& stretch, vector<double>& shape, double& reference,
                                           double& weight) const {
    checkIndex("getContactParameters", index, contacts.size(), "contact", "contacts");
    const ContactInfo& contact = contacts[index];
    particle1 = contact.particle1;
    particle2 = contact.particle2;
    type = contact.type;
    r0 = contact.r0;
    d0 = contact.d0;
    dmax = contact.dmax;
    stretch = contact.stretch;
    shape = contact.shape;
    reference = contact.reference;
    weight = contact.weight;
}

void ContactMapForce::setContactParameters(int index, int particle1, int particle2,
                                           CoordinationForce::SwitchingFunction type, double r0, double d0, double dmax,
                                           bool stretch, const vector<double>& shape, double reference, double weight) {
    checkIndex("setContactParameters", index, contacts.size(), "contact", "contacts");
    checkSwitchingType("setContactParameters", type);
    ContactInfo& contact = contacts[index];
    contact.particle1 = particle1;
    contact.particle2 = particle2;
    contact.type = type;
    contact.r0 = r0;
    contact.d0 = d0;
    contact.dmax = dmax;
    contact.stretch = stretch;
    contact.shape = shape;
    contact.reference = reference;
    contact.weight = weight;
}

int ContactMapForce::addCenter(const vector<int>& particles, CoordinationForce::CenterWeighting weighting,
                               const vector<double>& weights, bool makeWhole) {
    checkWeighting("addCenter", weighting);
    centers.push_back(CenterInfo());
    setCenterParameters(centers.size() - 1, particles, weighting, weights, makeWhole);
    return -(int) centers.size();
}

void ContactMapForce::getCenterParameters(int index, vector<int>& particles, CoordinationForce::CenterWeighting& weighting,
                                          vector<double>& weights, bool& makeWhole) const {
    checkIndex("getCenterParameters", index, centers.size(), "centre", "centres");
    particles = centers[index].particles;
    weighting = centers[index].weighting;
    weights = centers[index].weights;
    makeWhole = centers[index].makeWhole;
}

void ContactMapForce::setCenterParameters(int index, const vector<int>& particles,
                                          CoordinationForce::CenterWeighting weighting, const vector<double>& weights,
                                          bool makeWhole) {
    checkIndex("setCenterParameters", index, centers.size(), "centre", "centres");
    checkWeighting("setCenterParameters", weighting);
    centers[index].particles = particles;
    centers[index].weighting = weighting;
    centers[index].weights = weights;
    centers[index].makeWhole = makeWhole;
}

int ContactMapForce::addGlobalParameter(const string& name, double defaultValue) {
    globalParameterNames.push_back(name);
    globalParameterDefaults.push_back(defaultValue);
    return globalParameterNames.size() - 1;
}

const string& ContactMapForce::getGlobalParameterName(int index) const {
    checkIndex("getGlobalParameterName", index, globalParameterNames.size(), "global parameter", "global parameters");
    return globalParameterNames[index];
}

void ContactMapForce::setGlobalParameterName(int index, const string& name) {
    checkIndex("setGlobalParameterName", index, globalParameterNames.size(), "global parameter", "global parameters");
    globalParameterNames[index] = name;
}

double ContactMapForce::getGlobalParameterDefaultValue(int index) const {
    checkIndex("getGlobalParameterDefaultValue", index, globalParameterNames.size(), "global parameter",
               "global parameters");
    return globalParameterDefaults[index];
}

void ContactMapForce::setGlobalParameterDefaultValue(int index, double defaultValue) {
    checkIndex("setGlobalParameterDefaultValue", index, globalParameterNames.size(), "global parameter",
               "global parameters");
    globalParameterDefaults[index] = defaultValue;
}

const string& ContactMapForce::getEnergyParameterDerivativeName(int index) const {
    checkIndex("getEnergyParameterDerivativeName", index, energyParameterDerivatives.size(),
               "energy parameter derivative", "energy parameter derivatives");
    return energyParameterDerivatives[index];
}

int ContactMapForce::getNumCollectiveVariables() const {
    return (reduction == Components ? contacts.size() : 1);
}

string ContactMapForce::getCollectiveVariableName(int index) const {
    checkIndex("getCollectiveVariableName", index, getNumCollectiveVariables(), "collective variable",
               "collective variables");
    return (reduction == Components ? "contact_" + std::to_string(index + 1) : string("s"));
}

void ContactMapForce::getCollectiveVariableValues(Context& context, vector<double>& values) const {
    ContextImpl* contextImpl;
    ContactMapForceImpl::inContext(context, *this, true, "getCollectiveVariableValues", contextImpl)
        .getCollectiveVariableValues(*contextImpl, values);
}

void ContactMapForce::getContactValues(Context& context, vector<double>& values) const {
    ContextImpl* contextImpl;
    ContactMapForceImpl::inContext(context, *this, true, "getContactValues", contextImpl)
        .getContactValues(*contextImpl, values);
}

void ContactMapForce::updateParametersInContext(Context& context) {
    Context* where;
    ContactMapForce* copy;
    if (!ForceInContext::find(context, *this, false, where, copy))
        throw ForceInContext::notFound("ContactMapForce", "updateParametersInContext");
    if (copy != nullptr) // the inner System's copy takes this force's settings, then updates its context
        *copy = *this;
    ContactMapForce& force = (copy == nullptr ? *this : *copy);
    dynamic_cast<ContactMapForceImpl&>(force.getImplInContext(*where)).updateParametersInContext(force.getContextImpl(*where));
}

ForceImpl* ContactMapForce::createImpl() const {
    return new ContactMapForceImpl(*this);
}

ContactMapForce* ContactMapForce::fromPlumed(const string& input) {
    std::unique_ptr<Force> force(PlumedTranslator::fromPlumed(input));
    auto* contactMap = dynamic_cast<ContactMapForce*>(force.get());
    if (contactMap == nullptr)
        throw OpenMMException("ContactMapForce::fromPlumed: the action is not a CONTACTMAP action; read it with "
                              "PlumedTranslator::fromPlumed (in \"" + input + "\")");
    force.release();
    return contactMap;
}

string ContactMapForce::toPlumed(const string& label) const {
    return PlumedTranslator::toPlumed(*this, label);
}
