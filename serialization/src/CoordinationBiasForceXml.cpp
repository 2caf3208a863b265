#include "CoordinationBiasForceXml.h"
#include <cerrno>
#include <cstdlib>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

int CoordinationBiasForceXml::version(const SerializationNode& node, int first, int last, const string& className) {
    const int version = intProperty(node, "version", "version", className);
    if (version < first || version > last)
        throw OpenMMException(className + ": cannot read XML of version " + std::to_string(version) +
                              "; this plugin reads " +
                              (first == last ? "version " + std::to_string(first)
                                             : "versions " + std::to_string(first) + " to " + std::to_string(last)) +
                              " (update openmm-coordination)");
    return version;
}

void CoordinationBiasForceXml::writeBase(const CoordinationBiasForce& force, SerializationNode& node) {
    node.setStringProperty("name", force.getName());
    node.setIntProperty("forceGroup", force.getForceGroup());
    node.setStringProperty("energy", force.getEnergyFunction());
    node.setBoolProperty("usesPeriodic", force.usesPeriodicBoundaryConditions());
}

void CoordinationBiasForceXml::readBase(const SerializationNode& node, CoordinationBiasForce& force,
                                        const string& className) {
    force.setEnergyFunction(node.getStringProperty("energy"));
    force.setName(node.getStringProperty("name", force.getName()));
    if (node.hasProperty("forceGroup")) // optional: the force's group 0 without it
        setFromXml(className, "forceGroup",
                   [&] { force.setForceGroup(intProperty(node, "forceGroup", "forceGroup", className)); });
    force.setUsesPeriodicBoundaryConditions(node.getBoolProperty("usesPeriodic"));
}

void CoordinationBiasForceXml::writeParameters(const CoordinationBiasForce& force, SerializationNode& node) {
    SerializationNode& parameters = node.createChildNode("GlobalParameters");
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        parameters.createChildNode("Parameter")
            .setStringProperty("name", force.getGlobalParameterName(i))
            .setDoubleProperty("default", force.getGlobalParameterDefaultValue(i));
    SerializationNode& derivatives = node.createChildNode("EnergyParameterDerivatives");
    for (int i = 0; i < force.getNumEnergyParameterDerivatives(); i++)
        derivatives.createChildNode("Parameter").setStringProperty("name", force.getEnergyParameterDerivativeName(i));
}

void CoordinationBiasForceXml::readParameters(const SerializationNode& node, CoordinationBiasForce& force,
                                              const string& className) {
    for (const SerializationNode& parameter :
         items(child(node, "GlobalParameters", "force", className), "Parameter", "<GlobalParameters>", className))
        force.addGlobalParameter(parameter.getStringProperty("name"), parameter.getDoubleProperty("default"));
    for (const SerializationNode& parameter : items(child(node, "EnergyParameterDerivatives", "force", className),
                                                    "Parameter", "<EnergyParameterDerivatives>", className))
        force.addEnergyParameterDerivative(parameter.getStringProperty("name"));
}

int CoordinationBiasForceXml::intProperty(const SerializationNode& node, const string& property, const string& where,
                                          const string& className) {
    const string text = node.getStringProperty(property);
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || value < std::numeric_limits<int>::min() ||
        value > std::numeric_limits<int>::max())
        throw OpenMMException(className + ": the XML's " + where + " is \"" + text +
                              "\", which is not an integer from " + std::to_string(std::numeric_limits<int>::min()) +
                              " to " + std::to_string(std::numeric_limits<int>::max()));
    return (int)value;
}

const SerializationNode& CoordinationBiasForceXml::child(const SerializationNode& node, const string& name,
                                                         const string& where, const string& className) {
    for (const SerializationNode& candidate : node.getChildren())
        if (candidate.getName() == name)
            return candidate;
    throw OpenMMException(className + ": the XML's " + where + " has no <" + name +
                          "> element; write it with "
                          "XmlSerializer");
}

const vector<SerializationNode>& CoordinationBiasForceXml::items(const SerializationNode& list, const string& name,
                                                                 const string& where, const string& className) {
    for (const SerializationNode& item : list.getChildren())
        if (item.getName() != name)
            throw OpenMMException(className + ": the XML's " + where + " holds a <" + item.getName() +
                                  "> element; only <" + name + "> elements belong there");
    return list.getChildren();
}
