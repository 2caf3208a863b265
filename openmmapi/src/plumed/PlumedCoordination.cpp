#include "internal/plumed/PlumedCoordination.h"
#include "CoordinationNumberForce.h"
#include "internal/forces/CoordinationForceImpl.h"
#include "internal/forces/CoordinationNumberForceImpl.h"
#include "internal/forces/SteinhardtForceImpl.h"
#include "SteinhardtForce.h"
#include "internal/forces/ShellFunctionForceImpl.h"
#include "internal/plumed/PlumedCenters.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

using namespace CoordinationPlugin;
using std::string;
using std::vector;

namespace {

/** PLUMED's SWITCH type names, in the order of CoordinationBiasForce::SwitchingFunction. */
const char* const SwitchNames[] = {"RATIONAL", "EXP", "GAUSSIAN", "SMAP", "CUBIC", "TANH", "COSINUS", "Q", "CUSTOM"};
const int NumSwitchTypes = sizeof(SwitchNames) / sizeof(SwitchNames[0]);
const char* const Reader = "CoordinationForce";
/** PLUMED's defaults of Q's BETA (per length unit) and LAMBDA. */
const double DefaultQBeta = 50.0, DefaultQLambda = 1.8;

/** A length KEY=value (input units) that must be > 0, or >= 0 with zeroAllowed; in nm. */
double takeLength(PlumedKeywords& keywords, const string& key, double defaultValue, double nm, bool zeroAllowed) {
    const double value = keywords.takeNumber(key, defaultValue);
    if (zeroAllowed ? value < 0.0 : value <= 0.0)
        throw keywords.error(key + "=" + plumedNumber(value) + " must be " + (zeroAllowed ? ">= 0" : "> 0"));
    return value * nm;
}

/** NN and MM (PLUMED's rational exponents), with the force's bounds; they must differ once MM=0 means 2*NN. */
void takeRationalExponents(PlumedKeywords& keywords, SwitchingSettings& force) {
    const int n = keywords.takeInteger("NN", 6, 1, SwitchingSettings::MaxExponent);
    const int m = keywords.takeInteger("MM", 0, 0, SwitchingSettings::MaxExponent);
    if (m == n)
        throw keywords.error("NN=" + std::to_string(n) + " and MM=" + std::to_string(m) +
                             " must differ (the switching function would be 1 everywhere); MM=0 means 2*NN");
    force.setN(n);
    force.setM(m);
}

/** The settings a COORDINATION line holds (toPlumed's): all but the energy and the global parameters. */
CoordinationForce lineSettings(const CoordinationForce& force) {
    CoordinationForce settings("s");
    PlumedCoordination::copyLineSettings(force, settings);
    return settings;
}

} // namespace

const char* const PlumedCoordination::Name = "COORDINATION";

CoordinationForce* PlumedCoordination::read(PlumedAction& action, double nm) {
    PlumedKeywords& keywords = action.keywords();
    keywords.rejectUnits("COORDINATION");
    std::unique_ptr<CoordinationForce> force(new CoordinationForce("s"));
    if (!action.getLabel().empty())
        force->setName(action.getLabel());
    force->setGroupA(keywords.takeAtoms("GROUPA"));
    const bool pair = keywords.takeFlag("PAIR");
    if (keywords.has("GROUPB")) {
        force->setGroupB(keywords.takeAtoms("GROUPB"));
        force->setMode(pair ? CoordinationForce::Pair : CoordinationForce::Dual);
    }
    else if (pair)
        throw keywords.error("PAIR needs GROUPB");
    else
        force->setMode(CoordinationForce::Self);
    if (pair && force->getGroupA().size() != force->getGroupB().size())
        throw keywords.error("PAIR pairs GROUPA's k-th atom with GROUPB's, but GROUPA has " +
                             std::to_string(force->getGroupA().size()) + " atoms and GROUPB has " +
                             std::to_string(force->getGroupB().size()) + "; give both groups the same length");
    PlumedCenters::attachTo(keywords, *force);
    force->setUsesPeriodicBoundaryConditions(!keywords.takeFlag("NOPBC"));
    // PLUMED's neighbour-list and parallelization settings and numerical derivatives: accepted, not needed.
    keywords.ignore({"NLIST", "SERIAL", "NUMERICAL_DERIVATIVES", "NL_CUTOFF", "NL_STRIDE"});
    const string switchText = keywords.take("SWITCH");
    SwitchingSettings switching;
    if (!switchText.empty())
        readSwitch(switchText, keywords, switching, nm);
    else
        readKeywordForm(keywords, switching, nm);
    force->setSwitchingSettings(switching);
    keywords.rejectLeftovers(Reader, " in COORDINATION");
    PlumedCoordination::checkAsAContextWould(*force, [&](const string& what) { return keywords.error(what); });
    return force.release();
}

void PlumedCoordination::readKeywordForm(PlumedKeywords& keywords, SwitchingSettings& force, double nm) {
    if (!keywords.has("R_0"))
        throw keywords.error("R_0 is required (or give SWITCH={...})");
    force.setR0(takeLength(keywords, "R_0", 0.0, nm, false));
    force.setD0(takeLength(keywords, "D_0", 0.0, nm, true));
    takeRationalExponents(keywords, force);
    force.setDMax(0.0);
    force.setStretch(true);
}

void PlumedCoordination::readSwitch(const string& text, PlumedKeywords& outside, SwitchingSettings& force, double nm,
                                    const string& key, const string& reader) {
    if (text.size() < 2 || text.front() != '{' || text.back() != '}')
        throw outside.error(key + " must be written " + key + "={TYPE KEYWORDS...}");
    const vector<string> words = PlumedKeywords::splitWords(text.substr(1, text.size() - 2), outside.getLine());
    if (words.empty())
        throw outside.error(key + "={} names no switching function");
    for (const char* keyword : {"R_0", "D_0", "NN", "MM", "D_MAX"})
        if (outside.has(keyword))
            throw outside.error(string(keyword) + " is given both outside and inside " + key + "={...}");
    PlumedKeywords inside(words, 1, outside.getLine()); // its errors quote the whole action
    const string& type = words[0];
    int index = -1;
    for (int i = 0; i < NumSwitchTypes; i++)
        if (type == SwitchNames[i])
            index = i;
    if (type == "MATHEVAL")
        index = CoordinationBiasForce::Custom;
    if (index < 0)
        throw outside.error(key + " type " + type + " is not one of PLUMED's (RATIONAL, EXP, GAUSSIAN, SMAP, CUBIC, "
                                                    "TANH, COSINUS, Q, CUSTOM)");
    const CoordinationBiasForce::SwitchingFunction function = (CoordinationBiasForce::SwitchingFunction) index;
    force.setType(function);
    // PLUMED's SwitchingFunction::set: D_0 (default 0), D_MAX (default: no cutoff), NOSTRETCH (STRETCH is
    // accepted: it is the default), R_0 (required but for CUBIC, which has none) and the type's own keywords.
    const bool hasDMax = inside.has("D_MAX");
    const bool hasD0 = inside.has("D_0");
    force.setD0(takeLength(inside, "D_0", 0.0, nm, true));
    if (hasDMax) {
        const double dmax = inside.takeNumber("D_MAX", 0.0);
        if (!(dmax * nm > force.getD0()))
            throw outside.error("D_MAX=" + plumedNumber(dmax) + " must be larger than D_0" +
                                (hasD0 ? "=" + plumedNumber(force.getD0() / nm) : string(" (0 if not given)")));
        force.setDMax(dmax * nm);
    }
    else
        force.setDMax(std::numeric_limits<double>::infinity());
    inside.takeFlag("STRETCH");
    force.setStretch(!inside.takeFlag("NOSTRETCH"));
    if (function == CoordinationBiasForce::Cubic) {
        if (!hasDMax)
            throw outside.error(key + "={CUBIC ...} needs D_MAX (it goes from 1 at D_0 to 0 at D_MAX)");
    }
    else {
        if (!inside.has("R_0"))
            throw outside.error(key + "={" + type + " ...} needs R_0");
        force.setR0(takeLength(inside, "R_0", 0.0, nm, false));
    }
    if (function == CoordinationBiasForce::Rational)
        takeRationalExponents(inside, force);
    else if (function == CoordinationBiasForce::Smap) {
        if (!inside.has("A") || !inside.has("B"))
            throw outside.error(key + "={SMAP ...} needs A and B");
        const int a = inside.takeInteger("A", 0, 1, SwitchingSettings::MaxExponent);
        force.setSmapExponents(a, inside.takeInteger("B", 0, 1, SwitchingSettings::MaxExponent));
    }
    else if (function == CoordinationBiasForce::NativeQ) {
        if (!inside.has("REF"))
            throw outside.error(key + "={Q ...} needs REF (the reference distance)");
        // BETA is per length unit, its default too: PLUMED reads every length in the input's units.
        const double beta = inside.takeNumber("BETA", DefaultQBeta);
        const double lambda = inside.takeNumber("LAMBDA", DefaultQLambda);
        if (!(beta > 0.0) || !(lambda > 0.0))
            throw outside.error("BETA=" + plumedNumber(beta) + " and LAMBDA=" + plumedNumber(lambda) + " must be > 0");
        force.setNativeQParameters(beta / nm, lambda, takeLength(inside, "REF", 0.0, nm, false));
    }
    else if (function == CoordinationBiasForce::Custom) {
        const string expression = inside.take("FUNC");
        if (expression.empty())
            throw outside.error(key + "={" + type + " ...} needs FUNC=expression");
        force.setCustomExpression(expression);
    }
    inside.rejectLeftovers(reader, " inside " + key + "={" + type + " ...}");
}

void PlumedCoordination::checkAsAContextWould(const PairSwitchingForce& force,
                                              const std::function<OpenMM::OpenMMException(const string&)>& error) {
    try {
        // The translator's class dispatch: each class is checked by its own resolution.
        const int numParticles = std::numeric_limits<int>::max();
        if (auto* numbers = dynamic_cast<const CoordinationNumberForce*>(&force))
            CoordinationNumberForceImpl::resolve(*numbers, numParticles);
        else if (auto* steinhardt = dynamic_cast<const SteinhardtForce*>(&force))
            SteinhardtForceImpl::resolve(*steinhardt, numParticles);
        else if (auto* shell = dynamic_cast<const ShellFunctionForce*>(&force))
            ShellFunctionForceImpl::resolve(*shell, numParticles);
        else
            CoordinationForceImpl::resolve(dynamic_cast<const CoordinationForce&>(force), numParticles);
    } catch (const OpenMM::OpenMMException& refused) {
        string what = refused.what();
        for (const string prefix : {"CoordinationForce: ", "CoordinationNumberForce: ", "SteinhardtForce: ", "ShellFunctionForce: ",
                              "PLUMED input: "})
            if (what.compare(0, prefix.size(), prefix) == 0)
                what.erase(0, prefix.size());
        throw error(what);
    }
}

void PlumedCoordination::copyLineSettings(const PairSwitchingForce& force, PairSwitchingForce& settings) {
    settings.setMode(force.getMode());
    settings.setGroupA(force.getGroupA());
    settings.setGroupB(force.getGroupB());
    settings.setUsesPeriodicBoundaryConditions(force.usesPeriodicBoundaryConditions());
    settings.setSwitchingSettings(force.getSwitchingSettings());
    for (const PlumedCenter& center : PlumedCenters::centersOf(force))
        settings.addCenter(center.particles, center.weighting, center.weights, center.makeWhole);
}

string PlumedCoordination::write(const CoordinationForce& force, const string& label) {
    // The line would not read back: what fromPlumed (and a Context) would refuse is refused here. The energy
    // and global parameters are not part of the line, so they are left out of the check.
    PlumedCoordination::checkAsAContextWould(lineSettings(force), [&](const string& what) {
        return OpenMM::OpenMMException("PLUMED input: toPlumed cannot write this force (\"" + force.getName() +
                                       "\"), whose settings a Context would refuse: " + what);
    });
    const string name = (label.empty() ? string("c") : label);
    vector<string> centerLabels;
    string line = PlumedCenters::write(PlumedCenters::centersOf(force), name, centerLabels, [&](const string& what) {
        return OpenMM::OpenMMException("PLUMED input: toPlumed cannot write this force (\"" + force.getName() + "\"): " + what);
    });
    line += name + ": COORDINATION GROUPA=" + plumedAtomList(force.getGroupA(), centerLabels);
    if (force.getMode() != CoordinationForce::Self)
        line += " GROUPB=" + plumedAtomList(force.getGroupB(), centerLabels);
    if (force.getMode() == CoordinationForce::Pair)
        line += " PAIR";
    if (!force.usesPeriodicBoundaryConditions())
        line += " NOPBC";
    return line + writeSwitch(force.getSwitchingSettings());
}

string PlumedCoordination::writeSwitch(const SwitchingSettings& force, bool keywordForm, const string& key) {
    // D_0, MM, BETA and LAMBDA only where they differ from PLUMED's defaults, so that the line reads back
    // to the same settings.
    const CoordinationBiasForce::SwitchingFunction type = force.getType();
    string parameters = (type == CoordinationBiasForce::Cubic ? string() : "R_0=" + plumedNumber(force.getR0()));
    if (force.getD0() != 0.0)
        parameters += " D_0=" + plumedNumber(force.getD0());
    if (type == CoordinationBiasForce::Rational) {
        parameters += " NN=" + std::to_string(force.getN());
        if (force.getM() != 0)
            parameters += " MM=" + std::to_string(force.getM());
        if (keywordForm && force.getDMax() == 0.0 && force.getStretch())
            return " " + parameters; // the keyword form: automatic dmax, stretched
    }
    else if (type == CoordinationBiasForce::Smap)
        parameters += " A=" + std::to_string(force.getSmapA()) + " B=" + std::to_string(force.getSmapB());
    else if (type == CoordinationBiasForce::NativeQ) {
        if (force.getNativeQBeta() != DefaultQBeta)
            parameters += " BETA=" + plumedNumber(force.getNativeQBeta());
        if (force.getNativeQLambda() != DefaultQLambda)
            parameters += " LAMBDA=" + plumedNumber(force.getNativeQLambda());
        parameters += " REF=" + plumedNumber(force.getNativeQReference());
    }
    else if (type == CoordinationBiasForce::Custom)
        parameters += " FUNC=" + force.getCustomExpression();
    // In SWITCH={...} no D_MAX means no cutoff: an automatic cutoff (Rational's, Cosinus' d0 + r0) is written out.
    if (std::isfinite(force.getEffectiveDMax()))
        parameters += " D_MAX=" + plumedNumber(force.getEffectiveDMax());
    if (!force.getStretch())
        parameters += " NOSTRETCH";
    if (parameters.front() == ' ')
        parameters.erase(0, 1);
    return " " + key + "={" + SwitchNames[type] + " " + parameters + "}";
}
