#ifndef OPENMM_COORDINATION_FORCE_PROXY_H_
#define OPENMM_COORDINATION_FORCE_PROXY_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/serialization/SerializationProxy.h"

namespace CoordinationPlugin {

/**
 * Serializes a CoordinationForce to and from XML (XmlSerializer). Version 1.
 */
class OPENMM_EXPORT_COORDINATION CoordinationForceProxy : public OpenMM::SerializationProxy {
public:
    CoordinationForceProxy();
    void serialize(const void* object, OpenMM::SerializationNode& node) const override;
    void* deserialize(const OpenMM::SerializationNode& node) const override;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_FORCE_PROXY_H_*/
