#ifndef OPENMM_COORDINATION_FORCE_XML_H_
#define OPENMM_COORDINATION_FORCE_XML_H_

#include "CoordinationForce.h"
#include "openmm/serialization/SerializationNode.h"
#include <string>

namespace CoordinationPlugin {

/**
 * The XML of a CoordinationForce's settings, shared by the proxies of CoordinationForce and its subclasses:
 * every attribute and child of CoordinationForceProxy's format but the version.
 */
class CoordinationForceXml {
public:
    /** Writes the force's settings (CoordinationForceProxy's current format) into node. */
    static void write(const CoordinationForce& force, OpenMM::SerializationNode& node);
    /**
     * Reads settings of the given format version into force (whose energy is set from the node too); errors
     * are OpenMMExceptions that start with "className: ".
     */
    static void read(const OpenMM::SerializationNode& node, int version, CoordinationForce& force, const std::string& className);
    /** An int property, read strictly (text that is not an int is an error naming where, prefixed "className: "). */
    static int intProperty(const OpenMM::SerializationNode& node, const std::string& property, const std::string& where,
                           const std::string& className);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_FORCE_XML_H_*/
