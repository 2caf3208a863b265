#include "ContactMapForce.h"
#include "PlumedTranslator.h"
#include "internal/NumberText.h"
#include "internal/contactmap/ResolvedContactMap.h"
#include "internal/forces/ContactMapForceImpl.h"
#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/plumed/PlumedForceOf.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <limits>
#include <memory>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

ContactMapForce::ContactMapForce(const string& energy, Reduction reduction)
    : CoordinationBiasForce(energy), reduction(Sum) {
    setReduction(reduction);
}

void ContactMapForce::setReduction(Reduction reduction) {
    if (reduction != Sum && reduction != Distance && reduction != Components)
        throw OpenMMException("ContactMapForce: unknown reduction " + std::to_string((int)reduction) +
                              "; use ContactMapForce::Sum, Distance or Components");
    this->reduction = reduction;
}

namespace {

/** The shape a type takes, for messages. */
string shapeText(CoordinationBiasForce::SwitchingFunction type) {
    switch (type) {
    case CoordinationBiasForce::Rational:
        return "{n, m} (m = 0 means 2n)";
    case CoordinationBiasForce::Smap:
        return "{a, b}";
    case CoordinationBiasForce::NativeQ:
        return "{beta (1/nm), lambda, reference (nm)}";
    default:
        return "{} (empty)";
    }
}

size_t shapeLength(CoordinationBiasForce::SwitchingFunction type) {
    switch (type) {
    case CoordinationBiasForce::Rational:
    case CoordinationBiasForce::Smap:
        return 2;
    case CoordinationBiasForce::NativeQ:
        return 3;
    default:
        return 0;
    }
}

/** An integer exponent held in a shape entry: a whole number from minimum to MaxExponent. */
int exponentOf(double value, int minimum, const string& what, const string& where) {
    if (!(value >= minimum && value <= SwitchingSettings::MaxExponent && value == std::floor(value)))
        throw OpenMMException(where + ": the exponent " + what + " (shape entry) must be a whole number from " +
                              std::to_string(minimum) + " to " + std::to_string(SwitchingSettings::MaxExponent) +
                              ", got " + numberText(value));
    return (int)value;
}

/** The switching settings of the long form of addContact() (its type, lengths and shape). */
SwitchingSettings settingsOf(CoordinationBiasForce::SwitchingFunction type, double r0, double d0, double dmax,
                             bool stretch, const vector<double>& shape, const string& where) {
    SwitchingSettings settings;
    try {
        settings.setType(type);
    } catch (const OpenMMException& error) {
        throw OpenMMException(where + ": " + error.what());
    }
    if (shape.size() != shapeLength(type))
        throw OpenMMException(where + ": the switching function's shape has " + std::to_string(shape.size()) +
                              " entries, but this type takes " + shapeText(type) +
                              "; pass the type's parameters in that order");
    settings.setR0(r0);
    settings.setD0(d0);
    settings.setDMax(dmax);
    settings.setStretch(stretch);
    if (type == CoordinationBiasForce::Rational) {
        settings.setN(exponentOf(shape[0], 1, "n", where));
        settings.setM(exponentOf(shape[1], 0, "m", where));
    }
    if (type == CoordinationBiasForce::Smap)
        settings.setSmapExponents(exponentOf(shape[0], 1, "a", where), exponentOf(shape[1], 1, "b", where));
    if (type == CoordinationBiasForce::NativeQ)
        settings.setNativeQParameters(shape[0], shape[1], shape[2]);
    return settings;
}

} // namespace

int ContactMapForce::addContact(int particle1, int particle2, const SwitchingSettings& switching, double reference,
                                double weight) {
    contacts.push_back(ContactInfo());
    setContactParameters(contacts.size() - 1, particle1, particle2, switching, reference, weight);
    return contacts.size() - 1;
}

int ContactMapForce::addContact(int particle1, int particle2, double r0, double reference, double weight) {
    return addContact(particle1, particle2,
                      SwitchingSettings::rational(r0, 6, 12, 0.0, std::numeric_limits<double>::infinity()), reference,
                      weight);
}

int ContactMapForce::addContact(int particle1, int particle2, CoordinationBiasForce::SwitchingFunction type, double r0,
                                double d0, double dmax, bool stretch, const vector<double>& shape, double reference,
                                double weight) {
    const SwitchingSettings switching =
        settingsOf(type, r0, d0, dmax, stretch, shape,
                   "ContactMapForce::addContact: " +
                       ResolvedContactMap::contactName(contacts.size(), particle1, particle2));
    return addContact(particle1, particle2, switching, reference, weight);
}

void ContactMapForce::getContactParameters(int index, int& particle1, int& particle2, SwitchingSettings& switching,
                                           double& reference, double& weight) const {
    checkIndex("getContactParameters", index, contacts.size(), "contact", "contacts");
    const ContactInfo& contact = contacts[index];
    particle1 = contact.particle1;
    particle2 = contact.particle2;
    switching = contact.switching;
    reference = contact.reference;
    weight = contact.weight;
}

void ContactMapForce::getContactParameters(int index, int& particle1, int& particle2,
                                           CoordinationBiasForce::SwitchingFunction& type, double& r0, double& d0,
                                           double& dmax, bool& stretch, vector<double>& shape, double& reference,
                                           double& weight) const {
    SwitchingSettings switching;
    getContactParameters(index, particle1, particle2, switching, reference, weight);
    type = switching.getType();
    r0 = switching.getR0();
    d0 = switching.getD0();
    dmax = switching.getDMax();
    stretch = switching.getStretch();
    shape.clear();
    if (type == Rational)
        shape = {(double)switching.getN(), (double)switching.getM()};
    if (type == Smap)
        shape = {(double)switching.getSmapA(), (double)switching.getSmapB()};
    if (type == NativeQ)
        shape = {switching.getNativeQBeta(), switching.getNativeQLambda(), switching.getNativeQReference()};
}

void ContactMapForce::setContactParameters(int index, int particle1, int particle2, const SwitchingSettings& switching,
                                           double reference, double weight) {
    checkIndex("setContactParameters", index, contacts.size(), "contact", "contacts");
    ContactInfo& contact = contacts[index];
    contact.particle1 = particle1;
    contact.particle2 = particle2;
    contact.switching = switching;
    contact.reference = reference;
    contact.weight = weight;
}

void ContactMapForce::setContactParameters(int index, int particle1, int particle2,
                                           CoordinationBiasForce::SwitchingFunction type, double r0, double d0,
                                           double dmax, bool stretch, const vector<double>& shape, double reference,
                                           double weight) {
    checkIndex("setContactParameters", index, contacts.size(), "contact", "contacts");
    const SwitchingSettings switching =
        settingsOf(type, r0, d0, dmax, stretch, shape,
                   "ContactMapForce::setContactParameters: " + ResolvedContactMap::contactName(index, particle1, particle2));
    setContactParameters(index, particle1, particle2, switching, reference, weight);
}

int ContactMapForce::getNumCollectiveVariables() const { return (reduction == Components ? contacts.size() : 1); }

string ContactMapForce::getCollectiveVariableName(int index) const {
    checkIndex("getCollectiveVariableName", index, getNumCollectiveVariables(), "collective variable",
               "collective variables");
    return (reduction == Components ? "contact_" + std::to_string(index + 1) : string("s"));
}

void ContactMapForce::getContactValues(Context& context, vector<double>& values) const {
    ContextImpl* contextImpl;
    CoordinationBiasForceImpl::inContextAs<ContactMapForceImpl>(context, *this, "getContactValues", contextImpl)
        .getKernel()
        .getContactValues(*contextImpl, values);
}

ForceImpl* ContactMapForce::createImpl() const { return new ContactMapForceImpl(*this); }

ContactMapForce* ContactMapForce::fromPlumed(const string& input) {
    return plumedForceOf<ContactMapForce>(input, "ContactMapForce::fromPlumed", "CONTACTMAP");
}

string ContactMapForce::toPlumed(const string& label) const { return PlumedTranslator::toPlumed(*this, label); }
