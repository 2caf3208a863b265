#ifndef OPENMM_COORDINATION_FORCEPROXY_H_
#define OPENMM_COORDINATION_FORCEPROXY_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/serialization/SerializationProxy.h"
#include <string>

namespace CoordinationPlugin {

/**
 * Serializes a force of this plugin to and from XML (XmlSerializer): ForceProxy<CoordinationForce>,
 * ForceProxy<CoordinationNumberForce>, ForceProxy<SteinhardtForce>, ForceProxy<ShellFunctionForce> and ForceProxy<ContactMapForce>, each defined in its own source file, which
 * says what each version of its format holds. They are registered when libOpenMMCoordination is loaded.
 */
template <class ForceClass> class ForceProxy : public OpenMM::SerializationProxy {
public:
    /** @param typeName   the class's name in the XML (its tag's type) */
    explicit ForceProxy(const std::string& typeName) : OpenMM::SerializationProxy(typeName) {}
    void serialize(const void* object, OpenMM::SerializationNode& node) const override;
    void* deserialize(const OpenMM::SerializationNode& node) const override;
};

class CoordinationForce;
class CoordinationNumberForce;
class SteinhardtForce;
class ShellFunctionForce;
class ContactMapForce;
/** The proxies' definitions, one source file per class. */
template <> void ForceProxy<CoordinationForce>::serialize(const void* object, OpenMM::SerializationNode& node) const;
template <> void* ForceProxy<CoordinationForce>::deserialize(const OpenMM::SerializationNode& node) const;
template <>
void ForceProxy<CoordinationNumberForce>::serialize(const void* object, OpenMM::SerializationNode& node) const;
template <> void* ForceProxy<CoordinationNumberForce>::deserialize(const OpenMM::SerializationNode& node) const;
template <> void ForceProxy<SteinhardtForce>::serialize(const void* object, OpenMM::SerializationNode& node) const;
template <> void* ForceProxy<SteinhardtForce>::deserialize(const OpenMM::SerializationNode& node) const;
template <> void ForceProxy<ShellFunctionForce>::serialize(const void* object, OpenMM::SerializationNode& node) const;
template <> void* ForceProxy<ShellFunctionForce>::deserialize(const OpenMM::SerializationNode& node) const;
template <> void ForceProxy<ContactMapForce>::serialize(const void* object, OpenMM::SerializationNode& node) const;
template <> void* ForceProxy<ContactMapForce>::deserialize(const OpenMM::SerializationNode& node) const;

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_FORCEPROXY_H_*/
