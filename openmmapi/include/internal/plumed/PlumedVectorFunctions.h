#ifndef OPENMM_COORDINATION_PLUMEDVECTORFUNCTIONS_H_
#define OPENMM_COORDINATION_PLUMEDVECTORFUNCTIONS_H_

#include "PerAtomForce.h"
#include "internal/plumed/PlumedAction.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace CoordinationPlugin {

/**
 * PLUMED 2.10's functions of a vector written as actions of their own, folded into the PerAtomForce of the
 * vector: "mt: MORE_THAN ARG=c ..." (LESS_THAN, BETWEEN) is a function of each c_i, which "s: SUM ARG=mt" makes a
 * reduction named "s"; "SUM ARG=c", "MEAN ARG=c", "HIGHEST ARG=c", "LOWEST ARG=c" and
 * "MOMENTS ARG=c POWERS=..." are reductions of c itself. Reduction names are the labels with '-' and '.'
 * written '_' (MOMENTS: "label_moment_k").
 */
class PlumedVectorFunctions {
public:
    /** The names of the actions read here. */
    static bool isFunction(const std::string& name);
    /** Makes a per-atom action's vector known to later actions by its label (force is not owned). */
    void addVector(const std::string& label, PerAtomForce* force);
    /** The force of the per-atom action of that label, or null if there is none. */
    const PerAtomForce* vectorOf(const std::string& label) const {
        const auto found = vectors.find(label);
        return (found == vectors.end() ? nullptr : found->second);
    }
    /**
     * Reads the action if it is a labelled function of one known vector (or a SUM of such a per-atom function),
     * adding a reduction to the vector's force or remembering the per-atom function; false (nothing read) for
     * any other action. index is the action's place in the input.
     */
    bool read(PlumedAction& action, size_t index);
    /** The per-atom functions that no SUM read, as (index, "label: NAME"): actions the translator did not read. */
    std::vector<std::pair<size_t, std::string>> unused() const;

private:
    struct PerAtom {
        PerAtomForce* force;
        PerAtomForce::ReductionType type;
        std::string parameters, description;
        size_t index;
        bool used;
    };
    std::map<std::string, PerAtomForce*> vectors;
    std::map<std::string, PerAtom> perAtom;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDVECTORFUNCTIONS_H_*/
