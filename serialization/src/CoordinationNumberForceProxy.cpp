#include "CoordinationNumberForceProxy.h"
#include "CoordinationForceXml.h"
#include "CoordinationNumberForce.h"
#include "openmm/OpenMMException.h"
#include "openmm/serialization/SerializationNode.h"
#include <cmath>
#include <memory>
#include <string>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

namespace {

// Version 2 adds the centres (the base settings' format 3).
const int CurrentVersion = 2;
/**
 * The format of the base settings in a version's XML: CoordinationForceProxy's version 2 in version 1, 3 in version 2
 * (a new version of that format is a new version of this proxy's).
 */
int baseVersionOf(int version) {
    return version + 1;
}
const char* const ClassName = "CoordinationNumberForce";

} // namespace

CoordinationNumberForceProxy::CoordinationNumberForceProxy() : SerializationProxy("CoordinationNumberForce") {}

void CoordinationNumberForceProxy::serialize(const void* object, SerializationNode& node) const {
    node.setIntProperty("version", CurrentVersion);
    const CoordinationNumberForce& force = *reinterpret_cast<const CoordinationNumberForce*>(object);
    CoordinationForceXml::write(force, node);
    node.setDoubleProperty("rPower", force.getRPower());
    SerializationNode& reductions = node.createChildNode("Reductions");
    for (int i = 0; i < force.getNumReductions(); i++) {
        CoordinationNumberForce::ReductionType type;
        string parameters, name;
        force.getReductionParameters(i, type, parameters, name);
        reductions.createChildNode("Reduction")
            .setIntProperty("type", (int) type)
            .setStringProperty("parameters", parameters)
            .setStringProperty("name", name);
    }
}

void* CoordinationNumberForceProxy::deserialize(const SerializationNode& node) const {
    const int version = node.getIntProperty("version");
    if (version < 1 || version > CurrentVersion)
        throw OpenMMException("CoordinationNumberForce: cannot read XML of version " + std::to_string(version) +
                              "; this plugin reads versions 1 to " + std::to_string(CurrentVersion) +
                              " (update openmm-coordination)");
    std::unique_ptr<CoordinationNumberForce> force(new CoordinationNumberForce());
    CoordinationForceXml::read(node, baseVersionOf(version), *force, ClassName);
    const double rPower = node.getDoubleProperty("rPower");
    if (!(rPower >= 0.0) || !std::isfinite(rPower))
        throw OpenMMException("CoordinationNumberForce: the XML has rPower " + node.getStringProperty("rPower") +
                              "; it must be a finite number >= 0");
    force->setRPower(rPower);
    for (const SerializationNode& reduction : node.getChildNode("Reductions").getChildren()) {
        const string where = "reduction " + std::to_string(force->getNumReductions());
        if (reduction.getName() != "Reduction")
            throw OpenMMException("CoordinationNumberForce: the XML's Reductions hold a <" + reduction.getName() +
                                  ">; each must be a <Reduction>");
        const int type = CoordinationForceXml::intProperty(reduction, "type", where + "'s type", ClassName);
        if (type < CoordinationNumberForce::Sum || type > CoordinationNumberForce::Moment)
            throw OpenMMException("CoordinationNumberForce: the XML's " + where + " has type " + std::to_string(type) +
                                  "; it must be 0 (Sum) to 10 (Moment)");
        force->addReduction((CoordinationNumberForce::ReductionType) type, reduction.getStringProperty("parameters"),
                            reduction.getStringProperty("name"));
    }
    return force.release();
}
