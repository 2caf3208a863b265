#ifndef OPENMM_COORDINATION_PLUMEDCONTACTMAP_H_
#define OPENMM_COORDINATION_PLUMEDCONTACTMAP_H_

#include "ContactMapForce.h"
#include "internal/plumed/PlumedAction.h"
#include <string>

namespace CoordinationPlugin {

/**
 * PLUMED's CONTACTMAP action and a ContactMapForce's settings, both ways (PlumedTranslator's reader and writer of
 * that action; the keywords are listed in PlumedTranslator.h).
 */
class PlumedContactMap {
public:
    /** The action's name. */
    static const char* const Name;
    /**
     * A new ContactMapForce (energy "s" with SUM or CMDIST, "0" for the components) from a CONTACTMAP action, lengths
     * in units of nm nanometres (PLUMED's UNITS); the caller owns it.
     */
    static ContactMapForce* read(PlumedAction& action, double nm);
    /**
     * The force's settings as PLUMED input that read() takes back to the same settings: a COM or CENTER line per
     * centre, then the CONTACTMAP action in PLUMED's multi-line form, one line per contact.
     */
    static std::string write(const ContactMapForce& force, const std::string& label);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDCONTACTMAP_H_*/
