#include "CoordinationBiasForceXml.h"
#include "ForceProxy.h"
#include "PairSwitchingForceXml.h"
#include "PerAtomForceXml.h"
#include "ShellFunctionForce.h"
#include "openmm/serialization/SerializationNode.h"
#include <memory>

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

// Version 1: the pair settings (PairSwitchingForceXml's format 3), the function (its type, the Custom expression and
// whether it is normalised, FCCubic's alpha) and the reductions.
// Version 2 adds the local step (PerAtomForceXml::writeLocalStep).
// Version 3 adds the local step's neighbours (LocalNeighbors).
// Version 4 adds the local neighbours' partners (LocalNeighborPartners).
const int CurrentVersion = 4;
const char* const ClassName = "ShellFunctionForce";

} // namespace

template <> void ForceProxy<ShellFunctionForce>::serialize(const void* object, SerializationNode& node) const {
    node.setIntProperty("version", CurrentVersion);
    const ShellFunctionForce& force = *reinterpret_cast<const ShellFunctionForce*>(object);
    PairSwitchingForceXml::write(force, node);
    node.setIntProperty("shellFunction", force.getShellFunction());
    node.setStringProperty("customFunction", force.getCustomFunction());
    node.setBoolProperty("normalizeCustomFunction", force.getNormalizeCustomFunction());
    node.setDoubleProperty("alpha", force.getAlpha());
    PerAtomForceXml::writeReductions(force, node);
    PerAtomForceXml::writeLocalStep(force, node);
}

template <> void* ForceProxy<ShellFunctionForce>::deserialize(const SerializationNode& node) const {
    const int version = CoordinationBiasForceXml::version(node, 1, CurrentVersion, ClassName);
    std::unique_ptr<ShellFunctionForce> force(new ShellFunctionForce());
    PairSwitchingForceXml::read(node, PairSwitchingForceXml::CurrentFormat, *force, ClassName);
    // The settings are checked where a Context is created, as the setters' are.
    CoordinationBiasForceXml::setFromXml(ClassName, "shell function", [&]() {
        force->setCustomFunction(node.getStringProperty("customFunction"));
        force->setShellFunction((ShellFunctionForce::ShellFunction) CoordinationBiasForceXml::intProperty(
            node, "shellFunction", "shell function", ClassName));
        force->setNormalizeCustomFunction(node.getBoolProperty("normalizeCustomFunction"));
        force->setAlpha(node.getDoubleProperty("alpha"));
    });
    PerAtomForceXml::readReductions(node, *force, ClassName);
    if (version >= 2)
        PerAtomForceXml::readLocalStep(node, *force, ClassName, version >= 3, version >= 4);
    return force.release();
}
