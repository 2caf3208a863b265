#ifndef OPENMM_COORDINATION_PLUMEDCENTERS_H_
#define OPENMM_COORDINATION_PLUMEDCENTERS_H_

#include "PairSwitchingForce.h"
#include "internal/plumed/PlumedAction.h"
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace CoordinationPlugin {

/** A centre's settings: the arguments of CoordinationBiasForce::addCenter() (and of ContactMapForce::addCenter()). */
struct PlumedCenter {
    std::vector<int> particles;
    CoordinationBiasForce::CenterWeighting weighting = CoordinationBiasForce::GeometricCenter;
    std::vector<double> weights;
    bool makeWhole = true;
};

/**
 * PLUMED's COM and CENTER actions (virtual atoms) of one input, and the forces' centres they become.
 *
 * An atom list names a centre by its label (PlumedKeywords::takeAtoms() gives centre k of the input, in the order
 * of the definitions, as -1 - k); attach() then gives the force its own centres (addCenter()) and its atom lists
 * their ids: one centre per label, however often the force names it, in the order of the definitions. With
 * attachEvery (fromPlumed: the input is one force and its centres) a force gets every centre of the input, named
 * or not, so that toPlumed's lines read back to the same ids.
 *
 * A COM or CENTER action's errors are kept and thrown where its label is used (an atom list, or attach() with
 * attachEvery): one that no force uses is only an action the translator did not read (unused()).
 */
class PlumedCenters {
public:
    /** Whether an action of this name is a centre (COM, CENTER). */
    static bool isCenter(const std::string& name);
    /** attachEvery: give a force every centre of the input, not only the ones its atom lists name. */
    explicit PlumedCenters(bool attachEvery) : attachEvery(attachEvery) {}
    /**
     * Read a COM or CENTER action (its ATOMS may name GROUP labels set on its keywords); index is its place in the
     * input.
     */
    void define(PlumedAction& action, size_t index);
    /** The index of the centre labelled label, or -1 if there is none; a centre whose action was refused throws. */
    int indexOf(const std::string& label) const;
    /**
     * Give a force the centres its entries name (entries hold the input's ids -1 - k and particle indices; every
     * centre of the input with attachEvery) through addCenter, which returns the force's id of the new centre, and
     * replace the input's ids in the entries by the force's.
     */
    void attach(const std::vector<int*>& entries, const std::function<int(const PlumedCenter&)>& addCenter);
    /** attach() for the groups of a CoordinationForce or CoordinationNumberForce; nothing without centres on the keywords. */
    static void attachTo(const PlumedKeywords& keywords, PairSwitchingForce& force);
    /** The centres that no force used, as (index, "label: NAME"): actions the translator did not read. */
    std::vector<std::pair<size_t, std::string>> unused() const;

    /** A force's centres, in order. */
    static std::vector<PlumedCenter> centersOf(const CoordinationBiasForce& force);
    /**
     * The COM or CENTER lines of a force's centres (COM for CenterOfMass, CENTER otherwise; NOPBC where a centre is
     * not made whole), labelled label_c1, label_c2, ..., each ending in a line break; labels is set to their labels.
     * A centre that PLUMED cannot write, or that a Context would refuse without needing the System (no particles, a
     * negative index, weights that do not fit the weighting, their sum 0), throws error(what).
     */
    static std::string write(const std::vector<PlumedCenter>& centers, const std::string& label,
                             std::vector<std::string>& labels,
                             const std::function<OpenMM::OpenMMException(const std::string&)>& error);

private:
    struct Definition {
        std::string label, description, error;
        size_t index = 0;
        PlumedCenter center;
        bool used = false;
    };
    static PlumedCenter read(PlumedAction& action);
    bool attachEvery;
    std::vector<Definition> definitions;
    std::map<std::string, int> byLabel;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDCENTERS_H_*/
