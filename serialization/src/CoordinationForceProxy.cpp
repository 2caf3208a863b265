#include "CoordinationBiasForceXml.h"
#include "CoordinationForce.h"
#include "ForceProxy.h"
#include "PairSwitchingForceXml.h"
#include <memory>

using namespace CoordinationPlugin;
using namespace OpenMM;

// CoordinationForce's XML is PairSwitchingForceXml's format: version N is its format N (1 to 3).

template <> void ForceProxy<CoordinationForce>::serialize(const void* object, SerializationNode& node) const {
    node.setIntProperty("version", PairSwitchingForceXml::CurrentFormat);
    PairSwitchingForceXml::write(*reinterpret_cast<const CoordinationForce*>(object), node);
}

template <> void* ForceProxy<CoordinationForce>::deserialize(const SerializationNode& node) const {
    const int version =
        CoordinationBiasForceXml::version(node, 1, PairSwitchingForceXml::CurrentFormat, "CoordinationForce");
    std::unique_ptr<CoordinationForce> force(new CoordinationForce());
    PairSwitchingForceXml::read(node, version, *force, "CoordinationForce");
    return force.release();
}
