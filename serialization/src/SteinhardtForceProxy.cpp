#include "CoordinationBiasForceXml.h"
#include "ForceProxy.h"
#include "PairSwitchingForceXml.h"
#include "PerAtomForceXml.h"
#include "SteinhardtForce.h"
#include "openmm/serialization/SerializationNode.h"
#include <memory>

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

// Version 1: the pair settings (PairSwitchingForceXml's format 3), the degree and the reductions.
// Version 2 adds the local step (PerAtomForceXml::writeLocalStep).
// Version 3 adds the local step's neighbours (LocalNeighbors).
// Version 4 adds the local neighbours' partners (LocalNeighborPartners).
const int CurrentVersion = 4;
const char* const ClassName = "SteinhardtForce";

} // namespace

template <> void ForceProxy<SteinhardtForce>::serialize(const void* object, SerializationNode& node) const {
    node.setIntProperty("version", CurrentVersion);
    const SteinhardtForce& force = *reinterpret_cast<const SteinhardtForce*>(object);
    PairSwitchingForceXml::write(force, node);
    node.setIntProperty("degree", force.getDegree());
    PerAtomForceXml::writeReductions(force, node);
    PerAtomForceXml::writeLocalStep(force, node);
}

template <> void* ForceProxy<SteinhardtForce>::deserialize(const SerializationNode& node) const {
    const int version = CoordinationBiasForceXml::version(node, 1, CurrentVersion, ClassName);
    std::unique_ptr<SteinhardtForce> force(new SteinhardtForce());
    PairSwitchingForceXml::read(node, PairSwitchingForceXml::CurrentFormat, *force, ClassName);
    // The degree is checked where a Context is created, as the setter's is.
    force->setDegree(CoordinationBiasForceXml::intProperty(node, "degree", "degree", ClassName));
    PerAtomForceXml::readReductions(node, *force, ClassName);
    if (version >= 2)
        PerAtomForceXml::readLocalStep(node, *force, ClassName, version >= 3, version >= 4);
    return force.release();
}
