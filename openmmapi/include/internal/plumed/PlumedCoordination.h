#ifndef OPENMM_COORDINATION_PLUMEDCOORDINATION_H_
#define OPENMM_COORDINATION_PLUMEDCOORDINATION_H_

#include "CoordinationForce.h"
#include "PairSwitchingForce.h"
#include "SwitchingSettings.h"
#include "internal/plumed/PlumedAction.h"
#include <functional>
#include <string>

namespace CoordinationPlugin {

/**
 * PLUMED's COORDINATION action and a CoordinationForce's settings, both ways (PlumedTranslator's reader and
 * writer of that action; the keywords are listed in PlumedTranslator.h).
 */
class PlumedCoordination {
public:
    /** The action's name. */
    static const char* const Name;
    /**
     * A new CoordinationForce (energy "s") from a COORDINATION action, lengths in units of nm nanometres
     * (PLUMED's UNITS); the caller owns it.
     */
    static CoordinationForce* read(PlumedAction& action, double nm);
    /** The force's settings as a COORDINATION line that read() takes back to the same settings. */
    static std::string write(const CoordinationForce& force, const std::string& label);

    /** The switching function of the keyword form (no SWITCH): rational, automatic dmax, stretched. */
    static void readKeywordForm(PlumedKeywords& keywords, SwitchingSettings& switching, double nm);
    /**
     * The inside of SWITCH={TYPE ...} (text with its braces), as PLUMED's SwitchingFunction::set reads it, into
     * switching (lengths in units of nm nanometres; 1 for a switching function of a number).
     * key is the keyword that held it (SWITCH, or CONTACTMAP's SWITCH3) and reader the class that reads it, both
     * named in errors.
     */
    static void readSwitch(const std::string& text, PlumedKeywords& outside, SwitchingSettings& switching, double nm,
                           const std::string& key = "SWITCH", const std::string& reader = "CoordinationForce");
    /**
     * The switching function's part of an action line, with its leading blank: the keyword form
     * (" R_0=... NN=...") where the settings are that form's and keywordForm allows it,
     * " <key>={TYPE ...}" otherwise (an automatic cutoff written as its value).
     */
    static std::string writeSwitch(const SwitchingSettings& switching, bool keywordForm = true,
                                   const std::string& key = "SWITCH");
    /**
     * Copies the groups, mode, periodicity, centres and switching function (what an action line and its centres' lines
     * hold) from one force to another (to has no centres).
     */
    static void copyLineSettings(const PairSwitchingForce& from, PairSwitchingForce& to);
    /**
     * Throws error(what) for whatever a Context would refuse in the force (a FUNC that does not parse, a bad
     * reduction, ...): the reader and the writer accept what a Context accepts. what has no class prefix.
     */
    static void checkAsAContextWould(const PairSwitchingForce& force,
                                     const std::function<OpenMM::OpenMMException(const std::string&)>& error);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDCOORDINATION_H_*/
