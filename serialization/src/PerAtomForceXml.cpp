#include "PerAtomForceXml.h"
#include "CoordinationBiasForceXml.h"
#include "PairSwitchingForceXml.h"
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
        if (type < PerAtomForce::Sum || type > PerAtomForce::VectorSum)
            throw OpenMMException(className + ": the XML's " + where + " has type " + std::to_string(type) +
                                  "; it must be 0 (Sum) to 12 (VectorSum)");
        force.addReduction((PerAtomForce::ReductionType) type, reduction.getStringProperty("parameters"),
                           reduction.getStringProperty("name"));
    }
}

void PerAtomForceXml::writeLocalStep(const PerAtomForce& force, SerializationNode& node) {
    node.setIntProperty("localStep", (int) force.getLocalStep());
    PairSwitchingForceXml::writeSwitching(force.getLocalSwitchingSettings(), node.createChildNode("LocalSwitching"));
    PairSwitchingForceXml::writeGroup(node, "LocalNeighbors", force.getLocalNeighbors());
    PairSwitchingForceXml::writeGroup(node, "LocalNeighborPartners", force.getLocalNeighborPartners());
}

void PerAtomForceXml::readLocalStep(const SerializationNode& node, PerAtomForce& force, const string& className,
                                    bool withNeighbors, bool withPartners) {
    const int step = CoordinationBiasForceXml::intProperty(node, "localStep", "localStep", className);
    if (step < PerAtomForce::NoLocalStep || step > PerAtomForce::LocalDotProduct)
        throw OpenMMException(className + ": the XML has localStep " + std::to_string(step) +
                              "; it must be 0 (NoLocalStep), 1 (LocalAverage) or 2 (LocalDotProduct)");
    force.setLocalStep((PerAtomForce::LocalStep) step);
    force.setLocalSwitchingSettings(PairSwitchingForceXml::readSwitching(
        node.getChildNode("LocalSwitching"), PairSwitchingForceXml::CurrentFormat, className));
    if (withNeighbors)
        force.setLocalNeighbors(PairSwitchingForceXml::readGroup(node, "LocalNeighbors", className));
    if (withPartners)
        force.setLocalNeighborPartners(PairSwitchingForceXml::readGroup(node, "LocalNeighborPartners", className));
}
