#ifndef OPENMM_COORDINATION_NUMBER_FORCE_PROXY_H_
#define OPENMM_COORDINATION_NUMBER_FORCE_PROXY_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/serialization/SerializationProxy.h"

namespace CoordinationPlugin {

/**
 * Serializes a CoordinationNumberForce to and from XML (XmlSerializer). Version 1: every setting of
 * CoordinationForceProxy's current format, the R power and the reductions (type, parameters, name).
 */
class OPENMM_EXPORT_COORDINATION CoordinationNumberForceProxy : public OpenMM::SerializationProxy {
public:
    CoordinationNumberForceProxy();
    void serialize(const void* object, OpenMM::SerializationNode& node) const override;
    void* deserialize(const OpenMM::SerializationNode& node) const override;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_NUMBER_FORCE_PROXY_H_*/
