#ifndef OPENMM_COORDINATION_PLUMEDLOCALSTEPS_H_
#define OPENMM_COORDINATION_PLUMEDLOCALSTEPS_H_

#include "PerAtomForce.h"
#include "internal/plumed/PlumedAction.h"
#include "openmm/OpenMMException.h"
#include <functional>
#include <string>

namespace CoordinationPlugin {

/**
 * PLUMED's LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6 and LOCAL_AVERAGE, both ways: such an action's SPECIES names an
 * earlier per-atom action (a Q_l for LOCAL_Q_l; a Q_l, COORDINATIONNUMBER, COORDINATION_MOMENTS or shell function for
 * LOCAL_AVERAGE), and becomes a force of that action's class with its groups, switching function and centres, the
 * local step (LocalDotProduct or LocalAverage) with the line's own switching function, and the line's reductions.
 */
class PlumedLocalSteps {
public:
    /** Whether an action of this name is read here. */
    static bool isAction(const std::string& name);
    /**
     * A new force (energy "0") of the action, lengths in units of nm nanometres; vectorOf(label) is the force of an
     * earlier per-atom action of that label, or null. The caller owns it.
     */
    static PerAtomForce* read(PlumedAction& action, double nm,
                              const std::function<const PerAtomForce*(const std::string&)>& vectorOf);
    /** The action's name for a force with a local step (LOCAL_Q6, LOCAL_AVERAGE). */
    static std::string actionName(const PerAtomForce& force);
    /**
     * A force with a local step as two lines: its per-atom action, labelled label + "_species" (without
     * reductions), and the local action of that SPECIES with the force's reductions; what PLUMED cannot hold is
     * error(what).
     */
    static std::string write(const PerAtomForce& force, const std::string& label,
                             const std::function<OpenMM::OpenMMException(const std::string&)>& error);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDLOCALSTEPS_H_*/
