#ifndef OPENMM_CONTACTMAP_FORCE_PROXY_H_
#define OPENMM_CONTACTMAP_FORCE_PROXY_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/serialization/SerializationProxy.h"

namespace CoordinationPlugin {

/**
 * Serializes a ContactMapForce to and from XML (XmlSerializer). Version 1: the energy, reduction, periodicity, Custom
 * expression, every contact (members, switching type, r0, d0, dmax with "no cutoff" as a flag, stretch, shape,
 * reference, weight), the centres, the global parameters, the requested derivatives, the name and the force group.
 */
class OPENMM_EXPORT_COORDINATION ContactMapForceProxy : public OpenMM::SerializationProxy {
public:
    ContactMapForceProxy();
    void serialize(const void* object, OpenMM::SerializationNode& node) const override;
    void* deserialize(const OpenMM::SerializationNode& node) const override;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_CONTACTMAP_FORCE_PROXY_H_*/
