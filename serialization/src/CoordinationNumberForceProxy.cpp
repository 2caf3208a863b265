#include "CoordinationBiasForceXml.h"
#include "CoordinationNumberForce.h"
#include "ForceProxy.h"
#include "PairSwitchingForceXml.h"
#include "PerAtomForceXml.h"
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
// Version 3 adds the local step (PerAtomForceXml::writeLocalStep).
// Version 4 adds the local step's neighbours (LocalNeighbors).
// Version 5 adds the local neighbours' partners (LocalNeighborPartners).
const int CurrentVersion = 5;
/**
 * The format of the pair settings in a version's XML: PairSwitchingForceXml's format 2 in version 1, 3 from version 2
 * (a new format of those is a new version of this proxy's).
 */
int baseVersionOf(int version) { return version == 1 ? 2 : 3; }
const char* const ClassName = "CoordinationNumberForce";

} // namespace

template <> void ForceProxy<CoordinationNumberForce>::serialize(const void* object, SerializationNode& node) const {
    node.setIntProperty("version", CurrentVersion);
    const CoordinationNumberForce& force = *reinterpret_cast<const CoordinationNumberForce*>(object);
    PairSwitchingForceXml::write(force, node);
    node.setDoubleProperty("rPower", force.getRPower());
    PerAtomForceXml::writeReductions(force, node);
    PerAtomForceXml::writeLocalStep(force, node);
}

template <> void* ForceProxy<CoordinationNumberForce>::deserialize(const SerializationNode& node) const {
    const int version = CoordinationBiasForceXml::version(node, 1, CurrentVersion, ClassName);
    std::unique_ptr<CoordinationNumberForce> force(new CoordinationNumberForce());
    PairSwitchingForceXml::read(node, baseVersionOf(version), *force, ClassName);
    const double rPower = node.getDoubleProperty("rPower");
    if (!(rPower >= 0.0) || !std::isfinite(rPower))
        throw OpenMMException("CoordinationNumberForce: the XML has rPower " + node.getStringProperty("rPower") +
                              "; it must be a finite number >= 0");
    force->setRPower(rPower);
    PerAtomForceXml::readReductions(node, *force, ClassName);
    if (version >= 3)
        PerAtomForceXml::readLocalStep(node, *force, ClassName, version >= 4, version >= 5);
    return force.release();
}
