#ifndef OPENMM_COORDINATION_PER_ATOM_FORCE_XML_H_
#define OPENMM_COORDINATION_PER_ATOM_FORCE_XML_H_

#include "PerAtomForce.h"
#include "openmm/serialization/SerializationNode.h"
#include <string>

namespace CoordinationPlugin {

/**
 * The XML of a PerAtomForce's own settings, shared by the proxies of its classes: a child "Reductions" with one
 * "Reduction" (type, parameters, name) per reduction, in order, and the local step.
 */
class PerAtomForceXml {
public:
    /** Writes the force's reductions into node. */
    static void writeReductions(const PerAtomForce& force, OpenMM::SerializationNode& node);
    /** Adds the reductions node holds to force; errors start with "className: ". */
    static void readReductions(const OpenMM::SerializationNode& node, PerAtomForce& force, const std::string& className);
    /**
     * Writes the force's local step: an attribute "localStep", a child "LocalSwitching" with the switching
     * function's attributes (PairSwitchingForceXml::writeSwitching), a group "LocalNeighbors" and a group
     * "LocalNeighborPartners".
     */
    static void writeLocalStep(const PerAtomForce& force, OpenMM::SerializationNode& node);
    /**
     * Reads the local step writeLocalStep() wrote into force (withNeighbors: with its "LocalNeighbors", withPartners:
     * with its "LocalNeighborPartners", which older versions did not write); errors start with "className: ".
     */
    static void readLocalStep(const OpenMM::SerializationNode& node, PerAtomForce& force, const std::string& className,
                              bool withNeighbors, bool withPartners);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PER_ATOM_FORCE_XML_H_*/
