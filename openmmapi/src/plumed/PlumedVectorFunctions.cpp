#include "internal/plumed/PlumedVectorFunctions.h"
#include "SwitchingSettings.h"
#include "internal/plumed/PlumedPerAtom.h"
#include <cmath>
#include <memory>

using namespace CoordinationPlugin;
using std::string;
using std::vector;

namespace {

/** A label as a reduction's name, a Lepton identifier: '-' and '.' written '_'. */
string identifier(const string& label) {
    string name = label;
    for (char& c : name)
        if (c == '-' || c == '.')
            c = '_';
    return name;
}

/** The switching function of MORE_THAN and LESS_THAN actions: SWITCH={...}, or the keyword form as a RATIONAL switch. */
string valueSwitch(PlumedKeywords& keywords, const string& name) {
    if (keywords.has("SWITCH")) {
        for (const char* key : {"R_0", "D_0", "NN", "MM"})
            if (keywords.has(key))
                throw keywords.error(string(key) + " is given both outside and inside SWITCH={...}");
        return PlumedPerAtom::braced(keywords, "SWITCH", keywords.take("SWITCH"), "RATIONAL R_0=4");
    }
    if (!keywords.has("R_0"))
        throw keywords.error("R_0 is required (or give SWITCH={...}), as in \"" + name + " ARG=c SWITCH={RATIONAL R_0=4}\"");
    const double r0 = keywords.takeNumber("R_0", 0.0), d0 = keywords.takeNumber("D_0", 0.0);
    if (!(r0 > 0.0))
        throw keywords.error("R_0=" + plumedNumber(r0) + " must be > 0");
    const int n = keywords.takeInteger("NN", 6, 1, SwitchingSettings::MaxExponent);
    const int m = keywords.takeInteger("MM", 0, 0, SwitchingSettings::MaxExponent);
    const int effectiveM = (m == 0 ? 2 * n : m);
    if (effectiveM == n)
        throw keywords.error("NN=" + std::to_string(n) + " and MM=" + std::to_string(m) +
                             " must differ (the switching function would be 1 everywhere); MM=0 means 2*NN");
    // PLUMED's keyword form (SwitchingFunction::set(nn, mm, r0, d0)): the rational function with the cutoff
    // where it is 1e-5, stretched.
    const double dmax = d0 + r0 * std::pow(0.00001, 1.0 / (n - effectiveM));
    string text = "RATIONAL R_0=" + plumedNumber(r0) + " NN=" + std::to_string(n);
    if (m != 0)
        text += " MM=" + std::to_string(m);
    if (d0 != 0.0)
        text += " D_0=" + plumedNumber(d0);
    return text + " D_MAX=" + plumedNumber(dmax);
}

/** BETWEEN's bead: SWITCH={GAUSSIAN LOWER= UPPER= SMEAR=}, or LOWER=, UPPER= and SMEAR= (a Gaussian bead). */
string bead(PlumedKeywords& keywords) {
    if (keywords.has("SWITCH")) {
        for (const char* key : {"LOWER", "UPPER", "SMEAR"})
            if (keywords.has(key))
                throw keywords.error(string(key) + " is given both outside and inside SWITCH={...}");
        return PlumedPerAtom::braced(keywords, "SWITCH", keywords.take("SWITCH"), "GAUSSIAN LOWER=a UPPER=b SMEAR=0.5");
    }
    if (!keywords.has("LOWER") || !keywords.has("UPPER"))
        throw keywords.error("BETWEEN needs LOWER= and UPPER= (or SWITCH={GAUSSIAN LOWER=a UPPER=b SMEAR=0.5})");
    const double lower = keywords.takeNumber("LOWER", 0.0), upper = keywords.takeNumber("UPPER", 0.0);
    string text = "GAUSSIAN LOWER=" + plumedNumber(lower) + " UPPER=" + plumedNumber(upper);
    if (keywords.has("SMEAR"))
        text += " SMEAR=" + plumedNumber(keywords.takeNumber("SMEAR", 0.0));
    return text;
}

} // namespace

bool PlumedVectorFunctions::isFunction(const string& name) {
    for (const char* function : {"MORE_THAN", "LESS_THAN", "BETWEEN", "SUM", "MEAN", "HIGHEST", "LOWEST", "MOMENTS"})
        if (name == function)
            return true;
    return false;
}

void PlumedVectorFunctions::addVector(const string& label, PerAtomForce* force) {
    vectors[label] = force;
}

bool PlumedVectorFunctions::read(PlumedAction& action, size_t index) {
    const string& name = action.getName();
    const string& label = action.getLabel();
    PlumedKeywords& keywords = action.keywords();
    if (!isFunction(name) || label.empty() || !keywords.has("ARG"))
        return false;
    const string argument = keywords.take("ARG");
    const auto found = vectors.find(argument);
    const auto function = perAtom.find(argument);
    if (name == "SUM" && function != perAtom.end()) {
        const string periodic = keywords.take("PERIODIC");
        if (!periodic.empty() && periodic != "NO")
            throw keywords.error("PERIODIC=" + periodic + ": a sum of " + PlumedPerAtom::valuesName(*function->second.force) +
                                 " is not periodic; write PERIODIC=NO");
        keywords.ignore({"USEGPU"});
        keywords.rejectLeftovers("the PLUMED translator", " in SUM");
        PerAtom& summed = function->second;
        summed.force->addReduction(summed.type, summed.parameters, identifier(label));
        summed.used = true;
        PlumedPerAtom::check(*summed.force, keywords);
        return true;
    }
    if (found == vectors.end())
        return false;
    PerAtomForce& force = *found->second;
    keywords.ignore({"USEGPU"});
    if (name == "MORE_THAN" || name == "LESS_THAN" || name == "BETWEEN") {
        if (keywords.takeFlag("SQUARED"))
            throw keywords.error("SQUARED is not supported: the function applies to the " + PlumedPerAtom::valuesName(force) + " themselves; "
                                 "remove SQUARED");
        PerAtom entry;
        entry.force = &force;
        entry.type = (name == "MORE_THAN" ? PerAtomForce::MoreThan
                                          : name == "LESS_THAN" ? PerAtomForce::LessThan
                                                                : PerAtomForce::Between);
        entry.parameters = (name == "BETWEEN" ? bead(keywords) : valueSwitch(keywords, name));
        entry.description = label + ": " + name;
        entry.index = index;
        entry.used = false;
        keywords.rejectLeftovers("the PLUMED translator", " in " + name);
        std::unique_ptr<PerAtomForce> scratch = PlumedPerAtom::lineSettings(force);
        scratch->addReduction(entry.type, entry.parameters, identifier(label));
        PlumedPerAtom::check(*scratch, keywords);
        perAtom[label] = entry;
        return true;
    }
    if (name == "SUM" || name == "MEAN") {
        const string periodic = keywords.take("PERIODIC");
        if (!periodic.empty() && periodic != "NO")
            throw keywords.error("PERIODIC=" + periodic + ": a " + (name == "SUM" ? "sum" : "mean") +
                                 " of " + PlumedPerAtom::valuesName(force) + " is not periodic; write PERIODIC=NO");
        keywords.rejectLeftovers("the PLUMED translator", " in " + name);
        force.addReduction(name == "SUM" ? PerAtomForce::Sum : PerAtomForce::Mean, "", identifier(label));
    }
    else if (name == "HIGHEST" || name == "LOWEST") {
        keywords.rejectLeftovers("the PLUMED translator", " in " + name);
        force.addReduction(name == "HIGHEST" ? PerAtomForce::Highest : PerAtomForce::Lowest, "",
                           identifier(label));
    }
    else if (name == "MOMENTS") {
        if (!keywords.has("POWERS"))
            throw keywords.error("POWERS is required (the central moments to compute: POWERS=2,3)");
        const string powers = keywords.take("POWERS");
        keywords.rejectLeftovers("the PLUMED translator", " in MOMENTS");
        for (int power : PlumedPerAtom::momentPowers(keywords, "POWERS", powers))
            force.addReduction(PerAtomForce::Moment, std::to_string(power),
                               identifier(label + "_moment_" + std::to_string(power)));
    }
    else
        return false;
    PlumedPerAtom::check(force, keywords);
    return true;
}

vector<std::pair<size_t, string>> PlumedVectorFunctions::unused() const {
    vector<std::pair<size_t, string>> actions;
    for (const auto& entry : perAtom)
        if (!entry.second.used)
            actions.emplace_back(entry.second.index, entry.second.description);
    return actions;
}
