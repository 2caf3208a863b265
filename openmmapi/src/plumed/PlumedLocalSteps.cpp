#include "internal/plumed/PlumedLocalSteps.h"
#include "SteinhardtForce.h"
#include "internal/plumed/PlumedCoordination.h"
#include "internal/plumed/PlumedPerAtom.h"
#include <memory>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;

namespace {

const char* const LocalAverageName = "LOCAL_AVERAGE";

/** The degree l of PLUMED's LOCAL_Q_l action names (LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6), or 0 for another name. */
int localSteinhardtDegree(const string& name) {
    for (int degree : {1, 3, 4, 6})
        if (name == "LOCAL_Q" + std::to_string(degree))
            return degree;
    return 0;
}

/** The suffix of the label toPlumed gives the per-atom action a local action reads. */
const char* const SpeciesSuffix = "_species";

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
    if (keywords.has("SPECIESA") || keywords.has("SPECIESB"))
        throw keywords.error("SPECIESA and SPECIESB (two actions' vectors) are not supported yet; give SPECIES=label of "
                             "one " + what);
    if (!keywords.has("SPECIES"))
        throw keywords.error("SPECIES=label of a " + what + " is required");
    const string species = keywords.take("SPECIES");
    const PerAtomForce* source = vectorOf(species);
    if (source == nullptr)
        throw keywords.error("SPECIES=" + species + " names no " + what + " before this line; " + name +
                             " reads the per-atom values of an action defined above it");
    if (source->getLocalStep() != PerAtomForce::NoLocalStep)
        throw keywords.error("SPECIES=" + species + " is itself a local action; " + name + " reads a " + what);
    auto* steinhardt = dynamic_cast<const SteinhardtForce*>(source);
    if (degree != 0 && (steinhardt == nullptr || steinhardt->getDegree() != degree))
        throw keywords.error("SPECIES=" + species + " is a " + PlumedPerAtom::actionName(*source) + " action; " + name +
                             " reads the vectors of a Q" + std::to_string(degree) + " action");
    // The source's class and line settings (groups, switching function, centres, PBC), not its reductions.
    std::unique_ptr<PerAtomForce> force = PlumedPerAtom::speciesSettings(*source);
    if (!action.getLabel().empty())
        force->setName(action.getLabel());
    force->setLocalStep(degree != 0 ? PerAtomForce::LocalDotProduct : PerAtomForce::LocalAverage);
    if (keywords.takeFlag("NOPBC") && source->usesPeriodicBoundaryConditions())
        throw keywords.error("NOPBC here but not in SPECIES=" + species + ": the force has one periodicity for both "
                             "(its groups' pairs and the local pairs); give both lines NOPBC, or neither");
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
    text += actionLabel + ": " + actionName(force) + " SPECIES=" + species;
    if (!force.usesPeriodicBoundaryConditions())
        text += " NOPBC";
    text += PlumedCoordination::writeSwitch(force.getLocalSwitchingSettings());
    return text + PlumedPerAtom::writeReductions(force, error);
}
