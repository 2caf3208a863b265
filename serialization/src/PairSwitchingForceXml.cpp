#include "PairSwitchingForceXml.h"
#include "CoordinationBiasForceXml.h"
#include "openmm/OpenMMException.h"
#include <limits>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

typedef CoordinationBiasForceXml Xml;

/** The centres: their weighting and flag, and their particles (with a weight each for WeightedCenter). */
void writeCenters(const PairSwitchingForce& force, SerializationNode& node) {
    SerializationNode& centers = node.createChildNode("Centers");
    for (int k = 0; k < force.getNumCenters(); k++) {
        vector<int> particles;
        PairSwitchingForce::CenterWeighting weighting;
        vector<double> weights;
        bool makeWhole;
        force.getCenterParameters(k, particles, weighting, weights, makeWhole);
        SerializationNode& center = centers.createChildNode("Center");
        center.setIntProperty("weighting", (int)weighting);
        center.setBoolProperty("makeWhole", makeWhole);
        for (size_t j = 0; j < particles.size(); j++) {
            SerializationNode& particle = center.createChildNode("Particle").setIntProperty("index", particles[j]);
            if (weighting == PairSwitchingForce::WeightedCenter && j < weights.size())
                particle.setDoubleProperty("weight", weights[j]);
        }
    }
}

void readCenters(const SerializationNode& node, PairSwitchingForce& force, const string& className) {
    for (const SerializationNode& center : Xml::items(node.getChildNode("Centers"), "Center", "Centers", className)) {
        const string where = "centre " + std::to_string(force.getNumCenters());
        const int weighting = Xml::intProperty(center, "weighting", where + "'s weighting", className);
        if (weighting < PairSwitchingForce::GeometricCenter || weighting > PairSwitchingForce::WeightedCenter)
            throw OpenMMException(className + ": the XML's " + where + " has weighting " + std::to_string(weighting) +
                                  "; it must be 0 (GeometricCenter), 1 (CenterOfMass) or 2 (WeightedCenter)");
        vector<int> particles;
        vector<double> weights;
        for (const SerializationNode& particle : center.getChildren()) {
            particles.push_back(
                Xml::intProperty(particle, "index", where + " entry " + std::to_string(particles.size()), className));
            if (weighting == PairSwitchingForce::WeightedCenter)
                weights.push_back(particle.getDoubleProperty("weight"));
        }
        Xml::setFromXml(className, where, [&] {
            force.addCenter(particles, (PairSwitchingForce::CenterWeighting)weighting, weights,
                            center.getBoolProperty("makeWhole"));
        });
    }
}

} // namespace

void PairSwitchingForceXml::writeGroup(SerializationNode& parent, const string& name, const vector<int>& group) {
    SerializationNode& node = parent.createChildNode(name);
    for (int atom : group)
        node.createChildNode("Atom").setIntProperty("index", atom);
}

vector<int> PairSwitchingForceXml::readGroup(const SerializationNode& parent, const string& name,
                                             const string& className) {
    vector<int> group;
    for (const SerializationNode& atom : parent.getChildNode(name).getChildren())
        group.push_back(Xml::intProperty(atom, "index", name + " entry " + std::to_string(group.size()), className));
    return group;
}

void PairSwitchingForceXml::writeSwitching(const SwitchingSettings& switching, SerializationNode& node) {
    node.setDoubleProperty("r0", switching.getR0());
    node.setIntProperty("n", switching.getN());
    node.setIntProperty("m", switching.getM());
    node.setDoubleProperty("d0", switching.getD0());
    // XML has no portable spelling of infinity: "no cutoff" is a flag of its own.
    const bool noCutoff = (switching.getDMax() == std::numeric_limits<double>::infinity());
    node.setBoolProperty("noCutoff", noCutoff);
    node.setDoubleProperty("dmax", noCutoff ? 0.0 : switching.getDMax());
    node.setBoolProperty("stretch", switching.getStretch());
    node.setIntProperty("switchingFunction", (int)switching.getType());
    node.setIntProperty("smapA", switching.getSmapA());
    node.setIntProperty("smapB", switching.getSmapB());
    node.setDoubleProperty("nativeQBeta", switching.getNativeQBeta());
    node.setDoubleProperty("nativeQLambda", switching.getNativeQLambda());
    node.setDoubleProperty("nativeQReference", switching.getNativeQReference());
    node.setStringProperty("customSwitchingFunction", switching.getCustomExpression());
}

SwitchingSettings PairSwitchingForceXml::readSwitching(const SerializationNode& node, int format,
                                                       const string& className) {
    SwitchingSettings switching;
    switching.setR0(node.getDoubleProperty("r0"));
    Xml::setFromXml(className, "n", [&] { switching.setN(Xml::intProperty(node, "n", "n", className)); });
    Xml::setFromXml(className, "m", [&] { switching.setM(Xml::intProperty(node, "m", "m", className)); });
    switching.setD0(node.getDoubleProperty("d0"));
    switching.setDMax(node.getBoolProperty("noCutoff") ? std::numeric_limits<double>::infinity()
                                                       : node.getDoubleProperty("dmax"));
    switching.setStretch(node.getBoolProperty("stretch"));
    if (format >= 2) {
        const int type = node.getIntProperty("switchingFunction");
        if (type < PairSwitchingForce::Rational || type > PairSwitchingForce::Custom)
            throw OpenMMException(className + ": the XML has switchingFunction " + std::to_string(type) +
                                  "; it must be 0 (Rational) to 8 (Custom)");
        switching.setCustomExpression(node.getStringProperty("customSwitchingFunction"));
        switching.setType((PairSwitchingForce::SwitchingFunction)type);
        Xml::setFromXml(className, "smapA and smapB", [&] {
            switching.setSmapExponents(Xml::intProperty(node, "smapA", "smapA", className),
                                       Xml::intProperty(node, "smapB", "smapB", className));
        });
        switching.setNativeQParameters(node.getDoubleProperty("nativeQBeta"), node.getDoubleProperty("nativeQLambda"),
                                       node.getDoubleProperty("nativeQReference"));
    }
    return switching;
}

void PairSwitchingForceXml::write(const PairSwitchingForce& force, SerializationNode& node) {
    Xml::writeBase(force, node);
    node.setIntProperty("mode", (int)force.getMode());
    writeSwitching(force.getSwitchingSettings(), node);
    writeGroup(node, "GroupA", force.getGroupA());
    writeGroup(node, "GroupB", force.getGroupB());
    Xml::writeParameters(force, node);
    writeCenters(force, node);
}

void PairSwitchingForceXml::read(const SerializationNode& node, int format, PairSwitchingForce& force,
                                 const string& className) {
    const int mode = node.getIntProperty("mode");
    if (mode < PairSwitchingForce::Self || mode > PairSwitchingForce::Pair)
        throw OpenMMException(className + ": the XML has mode " + std::to_string(mode) +
                              "; it must be 0 (Self), 1 (Dual) or 2 (Pair)");
    Xml::readBase(node, force, className);
    force.setMode((PairSwitchingForce::Mode)mode);
    force.setSwitchingSettings(readSwitching(node, format, className));
    force.setGroupA(readGroup(node, "GroupA", className));
    force.setGroupB(readGroup(node, "GroupB", className));
    for (const SerializationNode& parameter : node.getChildNode("GlobalParameters").getChildren())
        force.addGlobalParameter(parameter.getStringProperty("name"), parameter.getDoubleProperty("default"));
    if (format >= 2)
        for (const SerializationNode& parameter : node.getChildNode("EnergyParameterDerivatives").getChildren())
            force.addEnergyParameterDerivative(parameter.getStringProperty("name"));
    if (format >= 3)
        readCenters(node, force, className);
}
