#ifndef OPENMM_COORDINATION_PAIR_SWITCHING_FORCE_XML_H_
#define OPENMM_COORDINATION_PAIR_SWITCHING_FORCE_XML_H_

#include "PairSwitchingForce.h"
#include "openmm/serialization/SerializationNode.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The XML of a PairSwitchingForce's settings, shared by the proxies of CoordinationForce and CoordinationNumberForce:
 * every attribute and child of CoordinationForce's format but the version. Format 1: the groups, the mode, the
 * Rational function's settings, the global parameters; 2 adds the switching function's type and parameters and the
 * energy-parameter derivatives; 3 the centres.
 */
class PairSwitchingForceXml {
public:
    /** The newest format. */
    static const int CurrentFormat = 3;
    /** Writes the force's settings (the newest format) into node. */
    static void write(const PairSwitchingForce& force, OpenMM::SerializationNode& node);
    /** Writes a switching function's settings as attributes of node (the newest format). */
    static void writeSwitching(const SwitchingSettings& switching, OpenMM::SerializationNode& node);
    /** Reads a switching function's settings of the given format from node's attributes. */
    static SwitchingSettings readSwitching(const OpenMM::SerializationNode& node, int format,
                                           const std::string& className);
    /** Writes a group of atoms as a child of parent named name, with a child "Atom" (index) per entry. */
    static void writeGroup(OpenMM::SerializationNode& parent, const std::string& name, const std::vector<int>& group);
    /** Reads the group writeGroup() wrote; errors start with "className: ". */
    static std::vector<int> readGroup(const OpenMM::SerializationNode& parent, const std::string& name,
                                      const std::string& className);
    /** Reads settings of the given format into force (its energy too); errors start with "className: ". */
    static void read(const OpenMM::SerializationNode& node, int format, PairSwitchingForce& force,
                     const std::string& className);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PAIR_SWITCHING_FORCE_XML_H_*/
