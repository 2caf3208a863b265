#include "CoordinationForceProxy.h"
#include "CoordinationForceXml.h"
#include "CoordinationForce.h"
#include "openmm/OpenMMException.h"
#include "openmm/serialization/SerializationNode.h"
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

// Version 2 adds the switching function's type and parameters and the energy parameter derivatives; version 3 the
// centres.
const int CurrentVersion = 3;

/** The class whose XML is being read, for errors. */
const char* const Base = "CoordinationForce";

void serializeGroup(SerializationNode& parent, const string& name, const vector<int>& group) {
    SerializationNode& node = parent.createChildNode(name);
    for (int atom : group)
        node.createChildNode("Atom").setIntProperty("index", atom);
}

/** An int property, read strictly: text that is not an int (too large, say) is an error, not a wrapped value. */
int intProperty(const SerializationNode& node, const string& property, const string& where, const string& className) {
    const string text = node.getStringProperty(property);
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || value < std::numeric_limits<int>::min() ||
        value > std::numeric_limits<int>::max())
        throw OpenMMException(className + ": the XML's " + where + " is \"" + text + "\", which is not an integer from " +
                              std::to_string(std::numeric_limits<int>::min()) + " to " +
                              std::to_string(std::numeric_limits<int>::max()));
    return (int) value;
}

vector<int> deserializeGroup(const SerializationNode& parent, const string& name, const string& className) {
    vector<int> group;
    for (const SerializationNode& atom : parent.getChildNode(name).getChildren())
        group.push_back(intProperty(atom, "index", name + " entry " + std::to_string(group.size()), className));
    return group;
}

/** Calls a setter with values read from XML; a value it refuses is an error that says it came from the XML. */
template <class Set>
void setFromXml(const string& className, const string& property, Set set) {
    try {
        set();
    } catch (const OpenMMException& error) {
        throw OpenMMException(className + ": cannot read the XML's " + property + ": " + error.what());
    }
}

} // namespace

int CoordinationForceXml::intProperty(const SerializationNode& node, const string& property, const string& where,
                                      const string& className) {
    return ::intProperty(node, property, where, className);
}

CoordinationForceProxy::CoordinationForceProxy() : SerializationProxy("CoordinationForce") {}

void CoordinationForceProxy::serialize(const void* object, SerializationNode& node) const {
    node.setIntProperty("version", CurrentVersion);
    CoordinationForceXml::write(*reinterpret_cast<const CoordinationForce*>(object), node);
}

void* CoordinationForceProxy::deserialize(const SerializationNode& node) const {
    int version = node.getIntProperty("version");
    if (version < 1 || version > CurrentVersion)
        throw OpenMMException("CoordinationForce: cannot read XML of version " + std::to_string(version) +
                              "; this plugin reads versions 1 to " + std::to_string(CurrentVersion) +
                              " (update openmm-coordination)");
    std::unique_ptr<CoordinationForce> force(new CoordinationForce());
    CoordinationForceXml::read(node, version, *force, Base);
    return force.release();
}

void CoordinationForceXml::write(const CoordinationForce& force, SerializationNode& node) {
    node.setStringProperty("name", force.getName());
    node.setIntProperty("forceGroup", force.getForceGroup());
    node.setStringProperty("energy", force.getEnergyFunction());
    node.setIntProperty("mode", (int) force.getMode());
    node.setBoolProperty("usesPeriodic", force.usesPeriodicBoundaryConditions());
    node.setDoubleProperty("r0", force.getR0());
    node.setIntProperty("n", force.getN());
    node.setIntProperty("m", force.getM());
    node.setDoubleProperty("d0", force.getD0());
    // XML has no portable spelling of infinity: "no cutoff" is a flag of its own.
    bool noCutoff = (force.getDMax() == std::numeric_limits<double>::infinity());
    node.setBoolProperty("noCutoff", noCutoff);
    node.setDoubleProperty("dmax", noCutoff ? 0.0 : force.getDMax());
    node.setBoolProperty("stretch", force.getStretch());
    serializeGroup(node, "GroupA", force.getGroupA());
    serializeGroup(node, "GroupB", force.getGroupB());
    SerializationNode& parameters = node.createChildNode("GlobalParameters");
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        parameters.createChildNode("Parameter")
            .setStringProperty("name", force.getGlobalParameterName(i))
            .setDoubleProperty("default", force.getGlobalParameterDefaultValue(i));
    node.setIntProperty("switchingFunction", (int) force.getSwitchingFunction());
    node.setIntProperty("smapA", force.getSmapA());
    node.setIntProperty("smapB", force.getSmapB());
    node.setDoubleProperty("nativeQBeta", force.getNativeQBeta());
    node.setDoubleProperty("nativeQLambda", force.getNativeQLambda());
    node.setDoubleProperty("nativeQReference", force.getNativeQReference());
    node.setStringProperty("customSwitchingFunction", force.getCustomSwitchingFunction());
    SerializationNode& derivatives = node.createChildNode("EnergyParameterDerivatives");
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++)
        derivatives.createChildNode("Parameter").setStringProperty("name", force.getEnergyParameterDerivativeName(i));
    // Centres: their weighting and flag, and their particles (with a weight each for WeightedCenter).
    SerializationNode& centers = node.createChildNode("Centers");
    for (int k = 0; k < force.getNumCenters(); k++) {
        vector<int> particles;
        CoordinationForce::CenterWeighting weighting;
        vector<double> weights;
        bool makeWhole;
        force.getCenterParameters(k, particles, weighting, weights, makeWhole);
        SerializationNode& center = centers.createChildNode("Center");
        center.setIntProperty("weighting", (int) weighting);
        center.setBoolProperty("makeWhole", makeWhole);
        for (size_t j = 0; j < particles.size(); j++) {
            SerializationNode& particle = center.createChildNode("Particle").setIntProperty("index", particles[j]);
            if (weighting == CoordinationForce::WeightedCenter && j < weights.size())
                particle.setDoubleProperty("weight", weights[j]);
        }
    }
}

namespace {

/** Version 3's centres. */
void readCenters(const SerializationNode& node, CoordinationForce& force, const string& className) {
    for (const SerializationNode& center : node.getChildNode("Centers").getChildren()) {
        const string where = "centre " + std::to_string(force.getNumCenters());
        if (center.getName() != "Center")
            throw OpenMMException(className + ": the XML's Centers hold a <" + center.getName() + ">; each must be a <Center>");
        const int weighting = intProperty(center, "weighting", where + "'s weighting", className);
        if (weighting < CoordinationForce::GeometricCenter || weighting > CoordinationForce::WeightedCenter)
            throw OpenMMException(className + ": the XML's " + where + " has weighting " + std::to_string(weighting) +
                                  "; it must be 0 (GeometricCenter), 1 (CenterOfMass) or 2 (WeightedCenter)");
        vector<int> particles;
        vector<double> weights;
        for (const SerializationNode& particle : center.getChildren()) {
            particles.push_back(intProperty(particle, "index", where + " entry " + std::to_string(particles.size()), className));
            if (weighting == CoordinationForce::WeightedCenter)
                weights.push_back(particle.getDoubleProperty("weight"));
        }
        setFromXml(className, where, [&] {
            force.addCenter(particles, (CoordinationForce::CenterWeighting) weighting, weights,
                            center.getBoolProperty("makeWhole"));
        });
    }
}

} // namespace

void CoordinationForceXml::read(const SerializationNode& node, int version, CoordinationForce& target,
                               const string& className) {
    CoordinationForce* force = &target;
    int mode = node.getIntProperty("mode");
    if (mode < CoordinationForce::Self || mode > CoordinationForce::Pair)
        throw OpenMMException(className + ": the XML has mode " + std::to_string(mode) +
                              "; it must be 0 (Self), 1 (Dual) or 2 (Pair)");
    force->setEnergyFunction(node.getStringProperty("energy"));
    force->setName(node.getStringProperty("name", force->getName()));
    setFromXml(className, "forceGroup", [&] { force->setForceGroup(node.getIntProperty("forceGroup", 0)); });
    force->setMode((CoordinationForce::Mode) mode);
    force->setUsesPeriodicBoundaryConditions(node.getBoolProperty("usesPeriodic"));
    force->setR0(node.getDoubleProperty("r0"));
    setFromXml(className, "n", [&] { force->setN(intProperty(node, "n", "n", className)); });
    setFromXml(className, "m", [&] { force->setM(intProperty(node, "m", "m", className)); });
    force->setD0(node.getDoubleProperty("d0"));
    if (node.getBoolProperty("noCutoff"))
        force->setDMax(std::numeric_limits<double>::infinity());
    else
        force->setDMax(node.getDoubleProperty("dmax"));
    force->setStretch(node.getBoolProperty("stretch"));
    force->setGroupA(deserializeGroup(node, "GroupA", className));
    force->setGroupB(deserializeGroup(node, "GroupB", className));
    for (const SerializationNode& parameter : node.getChildNode("GlobalParameters").getChildren())
        force->addGlobalParameter(parameter.getStringProperty("name"), parameter.getDoubleProperty("default"));
    if (version >= 2) {
        int type = node.getIntProperty("switchingFunction");
        if (type < CoordinationForce::Rational || type > CoordinationForce::Custom)
            throw OpenMMException(className + ": the XML has switchingFunction " + std::to_string(type) +
                                  "; it must be 0 (Rational) to 8 (Custom)");
        force->setCustomSwitchingFunction(node.getStringProperty("customSwitchingFunction"));
        force->setSwitchingFunction((CoordinationForce::SwitchingFunction) type);
        setFromXml(className, "smapA and smapB", [&] {
            force->setSmapExponents(intProperty(node, "smapA", "smapA", className),
                                    intProperty(node, "smapB", "smapB", className));
        });
        force->setNativeQParameters(node.getDoubleProperty("nativeQBeta"), node.getDoubleProperty("nativeQLambda"),
                                    node.getDoubleProperty("nativeQReference"));
        for (const SerializationNode& parameter : node.getChildNode("EnergyParameterDerivatives").getChildren())
            force->addEnergyParameterDerivative(parameter.getStringProperty("name"));
    }
    if (version >= 3)
        readCenters(node, *force, className);
}
