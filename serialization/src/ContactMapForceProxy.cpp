#include "ContactMapForce.h"
#include "CoordinationBiasForceXml.h"
#include "ForceProxy.h"
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
typedef CoordinationBiasForceXml Xml;

int intProperty(const SerializationNode& node, const string& property, const string& where) {
    return Xml::intProperty(node, property, where, ClassName);
}

const SerializationNode& child(const SerializationNode& node, const string& name, const string& where) {
    return Xml::child(node, name, where, ClassName);
}

const vector<SerializationNode>& items(const SerializationNode& list, const string& name, const string& where) {
    return Xml::items(list, name, where, ClassName);
}

template <class Set> void setFromXml(const string& what, Set set) { Xml::setFromXml(ClassName, what, set); }

} // namespace

// Version 1: the contacts (particles, switching function, reference, weight), the map's Custom expression, the
// reduction, the centres (their particles and weights as lists), the global parameters and derivatives.

template <> void ForceProxy<ContactMapForce>::serialize(const void* object, SerializationNode& node) const {
    const ContactMapForce& force = *reinterpret_cast<const ContactMapForce*>(object);
    node.setIntProperty("version", CurrentVersion);
    Xml::writeBase(force, node);
    node.setIntProperty("reduction", (int)force.getReduction());
    node.setStringProperty("customSwitchingFunction", force.getCustomSwitchingFunction());
    SerializationNode& contacts = node.createChildNode("Contacts");
    for (int n = 0; n < force.getNumContacts(); n++) {
        int particle1, particle2;
        ContactMapForce::SwitchingFunction type;
        double r0, d0, dmax, reference, weight;
        bool stretch;
        vector<double> shape;
        force.getContactParameters(n, particle1, particle2, type, r0, d0, dmax, stretch, shape, reference, weight);
        // XML has no portable spelling of infinity: "no cutoff" is a flag of its own.
        const bool noCutoff = (dmax == std::numeric_limits<double>::infinity());
        SerializationNode& contact = contacts.createChildNode("Contact");
        contact.setIntProperty("particle1", particle1)
            .setIntProperty("particle2", particle2)
            .setIntProperty("type", (int)type)
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
        ContactMapForce::CenterWeighting weighting;
        vector<double> weights;
        bool makeWhole;
        force.getCenterParameters(k, particles, weighting, weights, makeWhole);
        SerializationNode& center = centers.createChildNode("Center");
        center.setIntProperty("weighting", (int)weighting).setBoolProperty("makeWhole", makeWhole);
        SerializationNode& particleNodes = center.createChildNode("Particles");
        for (int particle : particles)
            particleNodes.createChildNode("Particle").setIntProperty("index", particle);
        SerializationNode& weightNodes = center.createChildNode("Weights");
        for (double value : weights)
            weightNodes.createChildNode("Weight").setDoubleProperty("value", value);
    }
    Xml::writeParameters(force, node);
}

template <> void* ForceProxy<ContactMapForce>::deserialize(const SerializationNode& node) const {
    Xml::version(node, 1, CurrentVersion, ClassName);
    std::unique_ptr<ContactMapForce> force(new ContactMapForce());
    Xml::readBase(node, *force, ClassName);
    setFromXml("reduction",
               [&] { force->setReduction((ContactMapForce::Reduction)intProperty(node, "reduction", "reduction")); });
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
                              (ContactMapForce::SwitchingFunction)intProperty(contact, "type", where + " type"),
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
            particles.push_back(
                intProperty(particle, "index", where + " particle " + std::to_string(particles.size())));
        vector<double> weights;
        for (const SerializationNode& weight : items(child(center, "Weights", where), "Weight", where + "'s <Weights>"))
            weights.push_back(weight.getDoubleProperty("value"));
        setFromXml(where, [&] {
            force->addCenter(particles,
                             (ContactMapForce::CenterWeighting)intProperty(center, "weighting", where + " weighting"),
                             weights, center.getBoolProperty("makeWhole"));
        });
    }
    Xml::readParameters(node, *force, ClassName);
    return force.release();
}
