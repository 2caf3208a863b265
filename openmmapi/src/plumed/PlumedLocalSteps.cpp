#include "internal/plumed/PlumedLocalSteps.h"
#include "SteinhardtForce.h"
#include "internal/plumed/PlumedCoordination.h"
#include "internal/plumed/PlumedPerAtom.h"
#include <memory>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

const char* const LocalAverageName = "LOCAL_AVERAGE";

/** The degree l of PLUMED's LOCAL_Q_l action names (LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6), or 0 for another name. */
int localSteinhardtDegree(const string& name) {
    for (int degree : {1, 3, 4, 6})
        if (name == "LOCAL_Q" + std::to_string(degree))
            return degree;
    return 0;
}

/** The suffixes of the labels toPlumed gives the per-atom actions a local action reads (its SPECIES or SPECIESA, and
 * its SPECIESB). */
const char* const SpeciesSuffix = "_species";
const char* const NeighborSpeciesSuffix = "_neighbors";

/**
 * The per-atom action SPECIES=label (or SPECIESA, SPECIESB: key) of a local action names: one label of an earlier
 * action that is not itself local, of degree l for LOCAL_Q_l (degree > 0).
 */
const PerAtomForce* speciesAction(const PlumedKeywords& keywords, const string& key, const string& label,
                                  const string& name, int degree, const string& what,
                                  const std::function<const PerAtomForce*(const string&)>& vectorOf) {
    if (label.find(',') != string::npos)
        throw keywords.error(key + "=" + label + " lists several actions; give the label of one " + what +
                             " (one action over all the atoms you need)");
    const PerAtomForce* source = vectorOf(label);
    if (source == nullptr)
        throw keywords.error(key + "=" + label + " names no " + what + " before this line; " + name +
                             " reads the per-atom values of an action defined above it");
    if (source->getLocalStep() != PerAtomForce::NoLocalStep)
        throw keywords.error(key + "=" + label + " is itself a local action; " + name + " reads a " + what);
    auto* steinhardt = dynamic_cast<const SteinhardtForce*>(source);
    if (degree != 0 && (steinhardt == nullptr || steinhardt->getDegree() != degree))
        throw keywords.error(key + "=" + label + " is a " + PlumedPerAtom::actionName(*source) + " action; " + name +
                             " reads the vectors of a Q" + std::to_string(degree) + " action");
    return source;
}

/**
 * Why PLUMED has no action for LocalAverage of a SteinhardtForce's vectors with local neighbours (SPECIESA and
 * SPECIESB of two actions): its own term of central atom i is the vector of the i-th atom of SPECIESB.
 */
const char* const LocalAverageOfNeighborVectors =
    "PLUMED's LOCAL_AVERAGE of Q_l actions with SPECIESA and SPECIESB of two actions adds the vector of the i-th atom "
    "of SPECIESB as the i-th central atom's own term, not the atom's own vector, which this plugin's LocalAverage "
    "adds";

/** Whether PLUMED's LOCAL_AVERAGE would mean something else for a local step of force with local neighbours. */
bool isLocalAverageOfNeighborVectors(const PerAtomForce& force, PerAtomForce::LocalStep step) {
    return step == PerAtomForce::LocalAverage && dynamic_cast<const SteinhardtForce*>(&force) != nullptr;
}

/**
 * The action's line without its central atoms: a force of its class and settings in Dual mode (a Self action's atoms
 * become its group B, the same pairs, as ResolvedPairGroups::appendToGroupA does for the resolved groups), with group
 * A a placeholder. Two per-atom actions that differ only in their central atoms have the same text
 * (PlumedPerAtom::write) of this.
 */
std::unique_ptr<PerAtomForce> withoutCentralAtoms(const PerAtomForce& force) {
    std::unique_ptr<PerAtomForce> settings = PlumedPerAtom::speciesSettings(force);
    if (settings->getMode() == PairSwitchingForce::Self) {
        settings->setMode(PairSwitchingForce::Dual);
        settings->setGroupB(settings->getGroupA());
    }
    settings->setGroupA({0});
    return settings;
}

/** The action's line without any of its atoms (withoutCentralAtoms, group B a placeholder too). */
std::unique_ptr<PerAtomForce> withoutAtoms(const PerAtomForce& force) {
    std::unique_ptr<PerAtomForce> settings = withoutCentralAtoms(force);
    settings->setGroupB({0});
    return settings;
}

/** The atoms an action's central atoms pair with: its group B, or its group A in Self mode. */
const vector<int>& partnerAtoms(const PerAtomForce& force) {
    return (force.getMode() == PairSwitchingForce::Self ? force.getGroupA() : force.getGroupB());
}

} // namespace

bool PlumedLocalSteps::isAction(const string& name) {
    return name == LocalAverageName || localSteinhardtDegree(name) != 0;
}

string PlumedLocalSteps::actionName(const PerAtomForce& force) {
    if (force.getLocalStep() == PerAtomForce::LocalDotProduct)
        if (auto* steinhardt = dynamic_cast<const SteinhardtForce*>(&force))
            return "LOCAL_Q" + std::to_string(steinhardt->getDegree());
    return LocalAverageName;
}

PerAtomForce* PlumedLocalSteps::read(PlumedAction& action, double nm,
                                     const std::function<const PerAtomForce*(const string&)>& vectorOf) {
    PlumedKeywords& keywords = action.keywords();
    const string& name = action.getName();
    keywords.rejectUnits(name);
    const int degree = localSteinhardtDegree(name);
    const string what = (degree != 0 ? "Q" + std::to_string(degree) + " action" : "per-atom action (Q1, Q3, Q4, Q6, "
                                                                                  "COORDINATIONNUMBER, ...)");
    const bool hasA = keywords.has("SPECIESA"), hasB = keywords.has("SPECIESB");
    if ((hasA || hasB) && keywords.has("SPECIES"))
        throw keywords.error("SPECIES and SPECIESA/SPECIESB are two forms; give SPECIES (one action) or SPECIESA and "
                             "SPECIESB");
    if (hasA != hasB)
        throw keywords.error(string(hasA ? "SPECIESA needs SPECIESB" : "SPECIESB needs SPECIESA") + " (the " + what +
                             " of the central atoms and that of their neighbours), or give SPECIES alone");
    if (!hasA && !keywords.has("SPECIES"))
        throw keywords.error("SPECIES=label of a " + what + " is required");
    const string key = (hasA ? "SPECIESA" : "SPECIES");
    const string species = keywords.take(key);
    const PerAtomForce* source = speciesAction(keywords, key, species, name, degree, what, vectorOf);
    const PerAtomForce* neighbors = nullptr;
    bool ownPartners = true; // whether b pairs its central atoms with the atoms a pairs its own with
    if (hasB) {
        // SPECIESA=a SPECIESB=b: b's central atoms are the local step's neighbours, with b's vectors; one force holds
        // both where b is a's action but for its atoms: b's central atoms are the neighbours and, where b pairs them
        // with other atoms than a, those are their partners. The same action twice is the SPECIES form.
        const string speciesB = keywords.take("SPECIESB");
        neighbors = speciesAction(keywords, "SPECIESB", speciesB, name, degree, what, vectorOf);
        if (neighbors == source)
            neighbors = nullptr;
        else {
            const auto text = [](const std::unique_ptr<PerAtomForce>& settings) {
                return PlumedPerAtom::write(*settings, "x");
            };
            if (text(withoutAtoms(*source)) != text(withoutAtoms(*neighbors)))
                throw keywords.error("SPECIESA=" + species + " and SPECIESB=" + speciesB + " differ in more than "
                                     "their atoms; this plugin holds both in one force, whose neighbours have their "
                                     "values from the same kind of pairs: give the two actions the same class, "
                                     "switching function, centres and NOPBC");
            if (isLocalAverageOfNeighborVectors(*source, degree != 0 ? PerAtomForce::LocalDotProduct : PerAtomForce::LocalAverage))
                throw keywords.error(string(LocalAverageOfNeighborVectors) + "; give SPECIES, or build the force with "
                                     "setLocalNeighbors()");
            ownPartners = (text(withoutCentralAtoms(*source)) == text(withoutCentralAtoms(*neighbors)));
        }
    }
    // The source's class and line settings (groups, switching function, centres, PBC), not its reductions.
    std::unique_ptr<PerAtomForce> force = PlumedPerAtom::speciesSettings(*source);
    if (neighbors != nullptr) {
        force->setLocalNeighbors(neighbors->getGroupA());
        if (!ownPartners)
            force->setLocalNeighborPartners(partnerAtoms(*neighbors));
    }
    if (!action.getLabel().empty())
        force->setName(action.getLabel());
    force->setLocalStep(degree != 0 ? PerAtomForce::LocalDotProduct : PerAtomForce::LocalAverage);
    if (keywords.takeFlag("NOPBC") && source->usesPeriodicBoundaryConditions())
        throw keywords.error("NOPBC here but not in " + key + "=" + species + ": the force has one periodicity for "
                             "both (its groups' pairs and the local pairs); give both lines NOPBC, or neither");
    keywords.ignore({"LOWMEM"});
    const string switchText = keywords.take("SWITCH");
    SwitchingSettings switching;
    if (!switchText.empty())
        PlumedCoordination::readSwitch(switchText, keywords, switching, nm, "SWITCH", force->getForceClassName());
    else
        PlumedCoordination::readKeywordForm(keywords, switching, nm);
    force->setLocalSwitchingSettings(switching);
    PlumedPerAtom::readReductions(action, *force);
    keywords.rejectLeftovers(force->getForceClassName(), " in " + name);
    PlumedPerAtom::check(*force, keywords);
    return force.release();
}

string PlumedLocalSteps::write(const PerAtomForce& force, const string& label,
                               const std::function<OpenMMException(const string&)>& error) {
    const string actionLabel = (label.empty() ? string("local") : label);
    const string species = actionLabel + SpeciesSuffix;
    PlumedCoordination::checkAsAContextWould(*PlumedPerAtom::lineSettings(force), [&](const string& what) {
        return error("whose settings a Context would refuse: " + what);
    });
    std::unique_ptr<PerAtomForce> source = PlumedPerAtom::speciesSettings(force);
    source->setName(force.getName());
    string text = PlumedPerAtom::write(*source, species) + "\n";
    const vector<int>& neighbors = force.getLocalNeighbors();
    if (neighbors.empty())
        text += actionLabel + ": " + actionName(force) + " SPECIES=" + species;
    else {
        // The neighbours as the central atoms of a second action of the same settings (SPECIESB), paired with their
        // own partners where they have them (as one Self action where those are the neighbours themselves).
        if (isLocalAverageOfNeighborVectors(force, force.getLocalStep()))
            throw error(string("with local neighbours and LocalAverage: ") + LocalAverageOfNeighborVectors +
                        "; PLUMED has no action for this force");
        std::unique_ptr<PerAtomForce> neighborSource = withoutCentralAtoms(force);
        neighborSource->setName(force.getName());
        neighborSource->setGroupA(neighbors);
        const vector<int>& partners = force.getLocalNeighborPartners();
        if (partners == neighbors) {
            neighborSource->setMode(PairSwitchingForce::Self);
            neighborSource->setGroupB({});
        }
        else if (!partners.empty())
            neighborSource->setGroupB(partners);
        const string neighborSpecies = actionLabel + NeighborSpeciesSuffix;
        text += PlumedPerAtom::write(*neighborSource, neighborSpecies) + "\n";
        text += actionLabel + ": " + actionName(force) + " SPECIESA=" + species + " SPECIESB=" + neighborSpecies;
    }
    if (!force.usesPeriodicBoundaryConditions())
        text += " NOPBC";
    text += PlumedCoordination::writeSwitch(force.getLocalSwitchingSettings());
    return text + PlumedPerAtom::writeReductions(force, error);
}
