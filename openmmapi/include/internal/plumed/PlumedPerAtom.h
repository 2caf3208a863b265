#ifndef OPENMM_COORDINATION_PLUMEDPERATOM_H_
#define OPENMM_COORDINATION_PLUMEDPERATOM_H_

#include "PerAtomForce.h"
#include "internal/plumed/PlumedAction.h"
#include "openmm/OpenMMException.h"
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace CoordinationPlugin {

/**
 * PLUMED's per-atom actions and a PerAtomForce's settings, both ways (PlumedTranslator's reader and writer of those
 * actions; the keywords are listed in PlumedTranslator.h): COORDINATIONNUMBER and COORDINATION_MOMENTS (a
 * CoordinationNumberForce), Q1, Q3, Q4 and Q6 (a SteinhardtForce of that degree). The line's groups, switching
 * function and reduction keywords are read the same way for every class.
 */
class PlumedPerAtom {
public:
    /** The coordination numbers' actions' names. */
    static const char* const Name;
    static const char* const MomentsName;
    /** Whether an action of this name is read here. */
    static bool isAction(const std::string& name);
    /** The action that writes the force: COORDINATIONNUMBER, COORDINATION_MOMENTS (an R power) or Q<l>. */
    static std::string actionName(const PerAtomForce& force);
    /**
     * A new force (energy "0") of the action's class, lengths in units of nm nanometres (PLUMED's UNITS); its
     * reduction keywords become reductions in the order of the line. The caller owns it.
     */
    static PerAtomForce* read(PlumedAction& action, double nm);
    /**
     * The force's settings as its action's line (actionName()) that read() takes back to the same settings; a
     * reduction whose name is not PLUMED's component name is an error, and so is a SteinhardtForce of a degree
     * PLUMED has no action for (it has Q1, Q3, Q4 and Q6).
     */
    static std::string write(const PerAtomForce& force, const std::string& label);
    /** The inside of KEY={...} (or KEY=text without braces), trimmed; an empty one is an error naming example. */
    static std::string braced(const PlumedKeywords& keywords, const std::string& key, const std::string& value,
                              const std::string& example);
    /** A list of integers and ranges ("2,3", "2-4") of KEY=value, each a moment's power. */
    static std::vector<int> momentPowers(const PlumedKeywords& keywords, const std::string& key,
                                         const std::string& value);
    /**
     * The settings of the force's per-atom action without its reductions and local step: a new force of its class
     * with its class's own settings, groups, mode, periodicity, centres and switching function.
     */
    static std::unique_ptr<PerAtomForce> speciesSettings(const PerAtomForce& force);
    /** The settings an action's line holds (toPlumed's): a new force of force's class, all but the energy and global parameters. */
    static std::unique_ptr<PerAtomForce> lineSettings(const PerAtomForce& force);
    /** What the force's per-atom values are, in messages: "coordination numbers", "order parameters", ... */
    static std::string valuesName(const PerAtomForce& force);
    /** The reduction keywords of the action's line, in their order, as reductions of force. */
    static void readReductions(PlumedAction& action, PerAtomForce& force);
    /**
     * The force's reductions as the keywords of its action's line, each with its leading blank; a name PLUMED does
     * not give is error(what is wrong).
     */
    static std::string writeReductions(const PerAtomForce& force,
                                       const std::function<OpenMM::OpenMMException(const std::string&)>& error);
    /** Throws, quoting the action, what a Context would refuse in force. */
    static void check(const PerAtomForce& force, const PlumedKeywords& keywords);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDPERATOM_H_*/
