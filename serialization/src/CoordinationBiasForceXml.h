#ifndef OPENMM_COORDINATION_BIAS_FORCE_XML_H_
#define OPENMM_COORDINATION_BIAS_FORCE_XML_H_

#include "CoordinationBiasForce.h"
#include "openmm/OpenMMException.h"
#include "openmm/serialization/SerializationNode.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The XML of what every force of this plugin has (CoordinationBiasForce's settings), and the strict readers every
 * proxy uses: an error names the class, what in the XML is wrong and, where it helps, the fix.
 */
class CoordinationBiasForceXml {
public:
    /** The version of node, or an error if it is not from first to last. */
    static int version(const OpenMM::SerializationNode& node, int first, int last, const std::string& className);
    /** The name, force group, energy and periodic flag, as attributes of node. */
    static void writeBase(const CoordinationBiasForce& force, OpenMM::SerializationNode& node);
    /** What writeBase() wrote (the energy too). */
    static void readBase(const OpenMM::SerializationNode& node, CoordinationBiasForce& force,
                         const std::string& className);
    /** The global parameters (<GlobalParameters>) and the requested energy-parameter derivatives. */
    static void writeParameters(const CoordinationBiasForce& force, OpenMM::SerializationNode& node);
    /** What writeParameters() wrote. */
    static void readParameters(const OpenMM::SerializationNode& node, CoordinationBiasForce& force,
                               const std::string& className);
    /** An int property, read strictly (text that is not an int is an error naming where). */
    static int intProperty(const OpenMM::SerializationNode& node, const std::string& property, const std::string& where,
                           const std::string& className);
    /** A child element, which must exist. */
    static const OpenMM::SerializationNode& child(const OpenMM::SerializationNode& node, const std::string& name,
                                                  const std::string& where, const std::string& className);
    /** The children of a list element, each of which must be called name. */
    static const std::vector<OpenMM::SerializationNode>& items(const OpenMM::SerializationNode& list,
                                                               const std::string& name, const std::string& where,
                                                               const std::string& className);
    /** Calls a setter with values read from XML; a value it refuses is an error that says it came from the XML. */
    template <class Set> static void setFromXml(const std::string& className, const std::string& what, Set set) {
        try {
            set();
        } catch (const OpenMM::OpenMMException& error) {
            throw OpenMM::OpenMMException(className + ": cannot read the XML's " + what + ": " + error.what());
        }
    }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_BIAS_FORCE_XML_H_*/
