#include "PerAtomForceXml.h"
#include "CoordinationBiasForceXml.h"
#include "openmm/OpenMMException.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

void PerAtomForceXml::writeReductions(const PerAtomForce& force, SerializationNode& node) {
    SerializationNode& reductions = node.createChildNode("Reductions");
    for (int i = 0; i < force.getNumReductions(); i++) {
        PerAtomForce::ReductionType type;
        string parameters, name;
        force.getReductionParameters(i, type, parameters, name);
        reductions.createChildNode("Reduction")
            .setIntProperty("type", (int) type)
            .setStringProperty("parameters", parameters)
            .setStringProperty("name", name);
    }
}

void PerAtomForceXml::readReductions(const SerializationNode& node, PerAtomForce& force, const string& className) {
    for (const SerializationNode& reduction :
         CoordinationBiasForceXml::items(node.getChildNode("Reductions"), "Reduction", "Reductions", className)) {
        const string where = "reduction " + std::to_string(force.getNumReductions());
        const int type = CoordinationBiasForceXml::intProperty(reduction, "type", where + "'s type", className);
        if (type < PerAtomForce::Sum || type > PerAtomForce::Moment)
            throw OpenMMException(className + ": the XML's " + where + " has type " + std::to_string(type) +
                                  "; it must be 0 (Sum) to 10 (Moment)");
        force.addReduction((PerAtomForce::ReductionType) type, reduction.getStringProperty("parameters"),
                           reduction.getStringProperty("name"));
    }
}
