#ifndef OPENMM_COORDINATION_PLUMEDFORCEOF_H_
#define OPENMM_COORDINATION_PLUMEDFORCEOF_H_

#include "PlumedTranslator.h"
#include "openmm/OpenMMException.h"
#include <memory>
#include <string>

namespace CoordinationPlugin {

/**
 * A class's fromPlumed (CoordinationForce::fromPlumed, ContactMapForce::fromPlumed): the translator's force of one
 * action, which must be of ForceClass (PLUMED's action actionName); another is refused, naming the translator's
 * reader of every class. The caller owns the force.
 */
template <class ForceClass>
ForceClass* plumedForceOf(const std::string& input, const std::string& method, const std::string& actionName) {
    std::unique_ptr<OpenMM::Force> force(PlumedTranslator::fromPlumed(input));
    auto* read = dynamic_cast<ForceClass*>(force.get());
    if (read == nullptr)
        throw OpenMM::OpenMMException(method + ": the action is not a " + actionName +
                                      " action; read it with "
                                      "PlumedTranslator::fromPlumed (in \"" +
                                      input + "\")");
    force.release();
    return read;
}

/**
 * "label: NAME" of a force the translator reads: its name and the PLUMED action it is written as (COORDINATION,
 * COORDINATIONNUMBER or COORDINATION_MOMENTS, CONTACTMAP), as fromPlumedFile() lists the actions it skips.
 */
std::string plumedActionOf(const OpenMM::Force& force);

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDFORCEOF_H_*/
