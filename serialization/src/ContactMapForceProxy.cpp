#include "ContactMapForceProxy.h"
#include "ContactMapForce.h"
#include "CoordinationForceXml.h"
#include "openmm/OpenMMException.h"
#include "openmm/serialization/SerializationNode.h"
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

const int CurrentVersion = 1;
const char* const ClassName = "ContactMapForce";

int intProperty(const SerializationNode& node, const string& property, const string& where) {
    return CoordinationForceXml::intProperty(node, property, where, ClassName);
}

/** A child node, which must exist (OpenMM's getChildNode's error names neither the class nor the fix). */
const SerializationNode& child(const SerializationNode& node, const string& name, const string& where) {
    for (const SerializationNode& candidate : node.getChildren())
        if (candidate.getName() == name)
            return candidate;
    throw OpenMMException(string(ClassName) + ": the XML's " + where + " has no <" + name + "> element; write it with "
                          "XmlSerializer");
}

/** The children of a list element, each of which must be called name. */
const vector<SerializationNode>& items(const SerializationNode& list, const string& name, const string& where) {
    for (const SerializationNode& item : list.getChildren())
        if (item.getName() != name)
            throw OpenMMException(string(ClassName) + ": the XML's " + where + " holds a <" + item.getName() +
                                  "> element; only <" + name + "> elements belong there");
    return list.getChildren();
}

/** Calls a setter with values read from XML; a value it refuses is an error that says it came from the XML. */
template <class Set>
void setFromXml(const string& what, Set set) {
    try {
        set();
    } catch (const OpenMMException& error) {
        throw OpenMMException(string(ClassName) + ": cannot read the XML's " + what + ": " + error.what());
    }
}

} // namespace

ContactMapForceProxy::ContactMapForceProxy() : SerializationProxy("ContactMapForce") {}

void ContactMapForceProxy::serialize(const void* object, SerializationNode& node) const {
    const ContactMapForce& force = *reinterpret_cast<const ContactMapForce*>(object);
    node.setIntProperty("version", CurrentVersion);
    node.setStringProperty("name", force.getName());
    node.setIntProperty("forceGroup", force.getForceGroup());
    node.setStringProperty("energy", force.getEnergyFunction());
    node.setIntProperty("reduction", (int) force.getReduction());
    node.setBoolProperty("usesPeriodic", force.usesPeriodicBoundaryConditions());
    node.setStringProperty("customSwitchingFunction", force.getCustomSwitchingFunction());
    SerializationNode& contacts = node.createChildNode("Contacts");
    for (int n = 0; n < force.getNumContacts(); n++) {
        int particle1, particle2;
        CoordinationForce::SwitchingFunction type;
        double r0, d0, dmax, reference, weight;
        bool stretch;
        vector<double> shape;
        force.getContactParameters(n, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
        // XML has no portable spelling of infinity: "no cutoff" is a flag of its own.
        const bool noCutoff = (dmax == std::numeric_limits<double>::infinity());
        SerializationNode& contact = contacts.createChildNode("Contact");
        contact.setIntProperty("particle1", particle1)
            .setIntProperty("particle2", particle2)
            .setIntProperty("type", (int) type)
            .setDoubleProperty("r0", r0)
            .setDoubleProperty("d0", d0)
            .setBoolProperty("noCutoff", noCutoff)
            .setDoubleProperty("dmax", noCutoff ? 0.0 : dmax)
            .setBoolProperty("stretch", stretch)
            .setDoubleProperty("reference", reference)
            .setDoubleProperty("weight", weight);
        SerializationNode& shapeNode = contact.createChildNode("Shape");
        for (double value : shape)
            shapeNode.createChildNode("Value").setDoubleProperty("value", value);
    }
    SerializationNode& centers = node.createChildNode("Centers");
    for (int k = 0; k < force.getNumCenters(); k++) {
        vector<int> particles;
        CoordinationForce::CenterWeighting weighting;
        vector<double> weights;
        bool makeWhole;
        force.getCenterParameters(k, particles, weighting, weights, makeWhole);
        SerializationNode& center = centers.createChildNode("Center");
        center.setIntProperty("weighting", (int) weighting).setBoolProperty("makeWhole", makeWhole);
        SerializationNode& particleNodes = center.createChildNode("Particles");
        for (int particle : particles)
            particleNodes.createChildNode("Particle").setIntProperty("index", particle);
        SerializationNode& weightNodes = center.createChildNode("Weights");
        for (double value : weights)
            weightNodes.createChildNode("Weight").setDoubleProperty("value", value);
    }
    SerializationNode& parameters = node.createChildNode("GlobalParameters");
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        parameters.createChildNode("Parameter")
            .setStringProperty("name", force.getGlobalParameterName(i))
            .setDoubleProperty("default", force.getGlobalParameterDefaultValue(i));
    SerializationNode& derivatives = node.createChildNode("EnergyParameterDerivatives");
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++)
        derivatives.createChildNode("Parameter").setStringProperty("name", force.getEnergyParameterDerivativeName(i));
}

void* ContactMapForceProxy::deserialize(const SerializationNode& node) const {
    const int version = intProperty(node, "version", "version");
    if (version != CurrentVersion)
        throw OpenMMException(string(ClassName) + ": cannot read XML of version " + std::to_string(version) +
                              "; this plugin reads version " + std::to_string(CurrentVersion) +
                              " (update openmm-coordination)");
    std::unique_ptr<ContactMapForce> force(new ContactMapForce(node.getStringProperty("energy")));
    force->setName(node.getStringProperty("name", force->getName()));
    setFromXml("forceGroup", [&] { force->setForceGroup(intProperty(node, "forceGroup", "forceGroup")); });
    setFromXml("reduction", [&] {
        force->setReduction((ContactMapForce::Reduction) intProperty(node, "reduction", "reduction"));
    });
    force->setUsesPeriodicBoundaryConditions(node.getBoolProperty("usesPeriodic"));
    force->setCustomSwitchingFunction(node.getStringProperty("customSwitchingFunction"));
    for (const SerializationNode& contact : items(child(node, "Contacts", "force"), "Contact", "<Contacts>")) {
        const string where = "contact " + std::to_string(force->getNumContacts());
        vector<double> shape;
        for (const SerializationNode& value : items(child(contact, "Shape", where), "Value", where + "'s <Shape>"))
            shape.push_back(value.getDoubleProperty("value"));
        const double dmax = (contact.getBoolProperty("noCutoff") ? std::numeric_limits<double>::infinity()
                                                                 : contact.getDoubleProperty("dmax"));
        setFromXml(where, [&] {
            force->addContact(intProperty(contact, "particle1", where + " particle1"),
                              intProperty(contact, "particle2", where + " particle2"),
                              (CoordinationForce::SwitchingFunction) intProperty(contact, "type", where + " type"),
                              contact.getDoubleProperty("r0"), contact.getDoubleProperty("d0"), dmax,
                              contact.getBoolProperty("stretch"), shape, contact.getDoubleProperty("reference"),
                              contact.getDoubleProperty("weight"));
        });
    }
    for (const SerializationNode& center : items(child(node, "Centers", "force"), "Center", "<Centers>")) {
        const string where = "centre " + std::to_string(force->getNumCenters());
        vector<int> particles;
        for (const SerializationNode& particle :
             items(child(center, "Particles", where), "Particle", where + "'s <Particles>"))
            particles.push_back(intProperty(particle, "index", where + " particle " + std::to_string(particles.size())));
        vector<double> weights;
        for (const SerializationNode& weight : items(child(center, "Weights", where), "Weight", where + "'s <Weights>"))
            weights.push_back(weight.getDoubleProperty("value"));
        setFromXml(where, [&] {
            force->addCenter(particles, (CoordinationForce::CenterWeighting) intProperty(center, "weighting", where + " weighting"),
                             weights, center.getBoolProperty("makeWhole"));
        });
    }
    for (const SerializationNode& parameter :
         items(child(node, "GlobalParameters", "force"), "Parameter", "<GlobalParameters>"))
        force->addGlobalParameter(parameter.getStringProperty("name"), parameter.getDoubleProperty("default"));
    for (const SerializationNode& parameter :
         items(child(node, "EnergyParameterDerivatives", "force"), "Parameter", "<EnergyParameterDerivatives>"))
        force->addEnergyParameterDerivative(parameter.getStringProperty("name"));
    return force.release();
}
