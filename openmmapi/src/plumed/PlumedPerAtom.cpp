#include "internal/plumed/PlumedPerAtom.h"
#include "CoordinationNumberForce.h"
#include "ShellFunctionForce.h"
#include "SteinhardtForce.h"
#include "internal/forces/CoordinationNumberForceImpl.h"
#include "internal/forces/ShellFunctionForceImpl.h"
#include "internal/forces/SteinhardtForceImpl.h"
#include "internal/plumed/PlumedCoordination.h"
#include "internal/plumed/PlumedCenters.h"
#include "internal/plumed/PlumedLocalSteps.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <memory>
#include <set>
#include <sstream>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

typedef PerAtomForce::ReductionType ReductionType;

/** PLUMED's keyword for each reduction type, in the order of PerAtomForce::ReductionType. */
const char* const ReductionKeywords[] = {"SUM", "MEAN", "MORE_THAN", "LESS_THAN", "BETWEEN", "MIN", "MAX",
                                         "ALT_MIN", "HIGHEST", "LOWEST", "MOMENTS", "VMEAN", "VSUM"};
const int NumReductionTypes = sizeof(ReductionKeywords) / sizeof(ReductionKeywords[0]);
/** The powers a Moment reduction takes (CoordinationNumberResolution's bounds). */
const int MinMomentPower = 2, MaxMomentPower = 64;
/** PLUMED's default SMEAR of a histogram bead. */
const char* const DefaultSmear = "0.5";

string trimmed(const string& text) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == string::npos)
        return "";
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

bool isFlagReduction(ReductionType type) {
    return type == PerAtomForce::Sum || type == PerAtomForce::Mean || type == PerAtomForce::Highest ||
           type == PerAtomForce::Lowest || type == PerAtomForce::VectorMean || type == PerAtomForce::VectorSum;
}

bool isNumberedReduction(ReductionType type) {
    return type == PerAtomForce::MoreThan || type == PerAtomForce::LessThan ||
           type == PerAtomForce::Between;
}

/** Digits of a positive number without a leading zero (PLUMED's numbered keywords: LESS_THAN1, ...), or -1. */
int numberSuffix(const string& text) {
    if (text.empty() || text.size() > 9 || text[0] == '0' || text.find_first_not_of("0123456789") != string::npos)
        return -1;
    return std::stoi(text);
}

/** The keyword KEY (or KEYn) a word of an action line gives, with its type and number (0: unnumbered); false if none. */
bool reductionKeyword(const string& key, ReductionType& type, int& number) {
    for (int i = 0; i < NumReductionTypes; i++) {
        const string keyword = ReductionKeywords[i];
        if (key.compare(0, keyword.size(), keyword) != 0)
            continue;
        type = (ReductionType) i;
        if (key.size() == keyword.size()) {
            number = 0;
            return true;
        }
        if (isNumberedReduction(type) && (number = numberSuffix(key.substr(keyword.size()))) > 0)
            return true;
    }
    return false;
}


/** What a reduction keyword holds, for its errors: "MORE_THAN={RATIONAL R_0=...}". */
string example(ReductionType type) {
    switch (type) {
    case PerAtomForce::MoreThan:
    case PerAtomForce::LessThan:
        return "RATIONAL R_0=4";
    case PerAtomForce::Between:
        return "GAUSSIAN LOWER=a UPPER=b SMEAR=0.5";
    case PerAtomForce::Min:
    case PerAtomForce::Max:
    case PerAtomForce::AltMin:
        return "BETA=0.1";
    default:
        return "";
    }
}


/** HISTOGRAM={TYPE NBINS=n LOWER=a UPPER=b [SMEAR=s]}: PLUMED's n beads, as Between reductions between_1 ... between_n. */
void addHistogram(PerAtomForce& force, const PlumedKeywords& keywords, const string& inside) {
    const vector<string> words = PlumedKeywords::splitWords(inside, keywords.getLine());
    if (words[0] != "GAUSSIAN" && words[0] != "TRIANGULAR")
        throw keywords.error("HISTOGRAM={" + words[0] + " ...}: the bead type is GAUSSIAN or TRIANGULAR");
    PlumedKeywords histogram(words, 1, keywords.getLine());
    for (const char* key : {"NBINS", "LOWER", "UPPER"})
        if (!histogram.has(key))
            throw keywords.error(string("HISTOGRAM needs ") + key + "= (HISTOGRAM={GAUSSIAN NBINS=n LOWER=a UPPER=b SMEAR=s})");
    const int bins = histogram.takeInteger("NBINS", 0, 1, 10000);
    const double lower = histogram.takeNumber("LOWER", 0.0), upper = histogram.takeNumber("UPPER", 0.0);
    const string smear = histogram.take("SMEAR");
    if (!smear.empty())
        histogram.number(smear, "SMEAR");
    histogram.rejectLeftovers(force.getForceClassName(), " inside HISTOGRAM={...}");
    const double width = (upper - lower) / bins;
    for (int i = 0; i < bins; i++)
        force.addReduction(PerAtomForce::Between,
                           words[0] + " LOWER=" + plumedNumber(lower + i * width) + " UPPER=" +
                               plumedNumber(lower + (i + 1) * width) + " SMEAR=" + (smear.empty() ? DefaultSmear : smear),
                           "between_" + std::to_string(i + 1));
}


/** A new force of the class of force (energy "0") with its class's own settings (the degree, the R power). */
std::unique_ptr<PerAtomForce> sameClass(const PerAtomForce& force) {
    if (auto* steinhardt = dynamic_cast<const SteinhardtForce*>(&force))
        return std::unique_ptr<PerAtomForce>(new SteinhardtForce(steinhardt->getDegree(), "0"));
    if (auto* shell = dynamic_cast<const ShellFunctionForce*>(&force)) {
        std::unique_ptr<ShellFunctionForce> copy(new ShellFunctionForce(shell->getShellFunction(), "0"));
        copy->setCustomFunction(shell->getCustomFunction());
        copy->setShellFunction(shell->getShellFunction());
        copy->setNormalizeCustomFunction(shell->getNormalizeCustomFunction());
        copy->setAlpha(shell->getAlpha());
        return std::move(copy);
    }
    std::unique_ptr<CoordinationNumberForce> numbers(new CoordinationNumberForce("0"));
    numbers->setRPower(dynamic_cast<const CoordinationNumberForce&>(force).getRPower());
    return std::move(numbers);
}



/** A function as the value of PLUMED's FUNCTION keyword: in braces where it holds a space. */
string plumedFunctionText(const string& expression) {
    return (expression.find_first_of(" \t\r\n") == string::npos ? expression : "{" + expression + "}");
}

/** PLUMED's actions of the shell functions, in the order of ShellFunctionForce::ShellFunction. */
const char* const ShellActions[] = {"SIMPLECUBIC", "TETRAHEDRAL", "FCCUBIC", "COORDINATION_SHELL_FUNCTION"};

/** The ShellFunction of PLUMED's action name, or -1 for another name. */
int shellFunction(const string& name) {
    for (int function = 0; function < 4; function++)
        if (name == ShellActions[function])
            return function;
    return -1;
}

/** The degree l of PLUMED's Q_l action names (Q1, Q3, Q4, Q6), or 0 for another name. */
int steinhardtDegree(const string& name) {
    for (int degree : {1, 3, 4, 6})
        if (name == "Q" + std::to_string(degree))
            return degree;
    return 0;
}


} // namespace

/** The reduction keywords of the action's line, in their order, as reductions of force. */
void PlumedPerAtom::readReductions(PlumedAction& action, PerAtomForce& force) {
    PlumedKeywords& keywords = action.keywords();
    std::map<ReductionType, std::set<int>> numbered;
    bool histogram = false;
    for (const string& word : PlumedKeywords::splitWords(action.getText(), action.getText())) {
        const string key = word.substr(0, word.find('='));
        ReductionType type;
        int number;
        if (key == "HISTOGRAM") {
            if (keywords.takeFlag(key) || !keywords.has(key))
                throw keywords.error("HISTOGRAM needs a value: HISTOGRAM={GAUSSIAN NBINS=n LOWER=a UPPER=b SMEAR=s}");
            addHistogram(force, keywords, PlumedPerAtom::braced(keywords, key, keywords.take(key), "GAUSSIAN NBINS=n LOWER=a UPPER=b SMEAR=s"));
            histogram = true;
            continue;
        }
        if (!reductionKeyword(key, type, number))
            continue;
        if (isFlagReduction(type)) {
            if (keywords.has(key))
                throw keywords.error(key + " is a flag: write " + key + " without a value");
            if (keywords.takeFlag(key))
                force.addReduction(type);
            continue;
        }
        if (keywords.takeFlag(key))
            throw keywords.error(key + " needs a value: " + key + "={" + example(type) + "}");
        if (!keywords.has(key))
            continue;
        const string value = keywords.take(key);
        if (type == PerAtomForce::Moment) {
            for (int power : PlumedPerAtom::momentPowers(keywords, key, value))
                force.addReduction(type, std::to_string(power));
            continue;
        }
        const string inside = PlumedPerAtom::braced(keywords, key, value, example(type));
        if (number == 0)
            force.addReduction(type, inside);
        else {
            numbered[type].insert(number);
            force.addReduction(type, inside, PerAtomForce::getDefaultReductionName(type, "") + "_" +
                                                 std::to_string(number));
        }
    }
    if (histogram && !numbered[PerAtomForce::Between].empty())
        throw keywords.error("HISTOGRAM and BETWEEN1= both make the components between-1, between-2, ...; give one of them");
    for (const auto& entry : numbered) {
        int expected = 1;
        for (int number : entry.second) {
            if (number != expected) {
                const string keyword = ReductionKeywords[entry.first];
                throw keywords.error(keyword + std::to_string(number) + " is given without " + keyword +
                                     std::to_string(expected) + "; PLUMED reads " + keyword + "1, " + keyword +
                                     "2, ... up to the first missing number: number them from 1 without gaps");
            }
            expected++;
        }
    }
}

std::unique_ptr<PerAtomForce> PlumedPerAtom::speciesSettings(const PerAtomForce& force) {
    std::unique_ptr<PerAtomForce> settings = sameClass(force);
    PlumedCoordination::copyLineSettings(force, *settings);
    return settings;
}

/** The settings an action's line holds (toPlumed's): all but the energy and the global parameters. */
std::unique_ptr<PerAtomForce> PlumedPerAtom::lineSettings(const PerAtomForce& force) {
    std::unique_ptr<PerAtomForce> settings = speciesSettings(force);
    settings->setLocalStep(force.getLocalStep());
    settings->setLocalSwitchingSettings(force.getLocalSwitchingSettings());
    settings->setLocalNeighbors(force.getLocalNeighbors());
    for (int i = 0; i < force.getNumReductions(); i++) {
        ReductionType type;
        string parameters, name;
        force.getReductionParameters(i, type, parameters, name);
        settings->addReduction(type, parameters, name);
    }
    return settings;
}

/** What the force's per-atom values are, in messages: its Impl's name for them. */
string PlumedPerAtom::valuesName(const PerAtomForce& force) {
    if (dynamic_cast<const ShellFunctionForce*>(&force) != nullptr)
        return ShellFunctionForceImpl::valuesName();
    if (dynamic_cast<const SteinhardtForce*>(&force) != nullptr)
        return SteinhardtForceImpl::valuesName();
    return CoordinationNumberForceImpl::valuesName();
}

/** The inside of KEY={...} (or KEY=text without braces), trimmed; an empty one is an error. */
string PlumedPerAtom::braced(const PlumedKeywords& keywords, const string& key, const string& value, const string& example) {
    string inside = value;
    if (inside.size() >= 2 && inside.front() == '{' && inside.back() == '}')
        inside = inside.substr(1, inside.size() - 2);
    inside = trimmed(inside);
    if (inside.empty())
        throw keywords.error(key + "={} is empty; write " + key + "={" + example + "}");
    return inside;
}

/** A list of integers and ranges ("2,3", "2-4") of KEY=value, each a moment's power. */
vector<int> PlumedPerAtom::momentPowers(const PlumedKeywords& keywords, const string& key, const string& value) {
    vector<int> powers;
    std::stringstream items(value);
    string item;
    while (std::getline(items, item, ',')) {
        const size_t dash = item.find('-', 1);
        if (dash == string::npos)
            powers.push_back(keywords.integer(item, key, MinMomentPower, MaxMomentPower));
        else {
            const int first = keywords.integer(item.substr(0, dash), key, MinMomentPower, MaxMomentPower);
            const int last = keywords.integer(item.substr(dash + 1), key, MinMomentPower, MaxMomentPower);
            if (last < first)
                throw keywords.error(key + ": the range " + item + " ends before it starts");
            for (int power = first; power <= last; power++)
                powers.push_back(power);
        }
    }
    if (powers.empty())
        throw keywords.error(key + "=" + value + " lists no power; write " + key + "=2 or " + key + "=2-3");
    return powers;
}

/** Throws, quoting the action, what a Context would refuse in force. */
void PlumedPerAtom::check(const PerAtomForce& force, const PlumedKeywords& keywords) {
    PlumedCoordination::checkAsAContextWould(force, [&](const string& what) { return keywords.error(what); });
}

const char* const PlumedPerAtom::Name = "COORDINATIONNUMBER";
const char* const PlumedPerAtom::MomentsName = "COORDINATION_MOMENTS";

bool PlumedPerAtom::isAction(const string& name) {
    return name == Name || name == MomentsName || steinhardtDegree(name) != 0 || shellFunction(name) >= 0;
}

string PlumedPerAtom::actionName(const PerAtomForce& force) {
    if (auto* steinhardt = dynamic_cast<const SteinhardtForce*>(&force))
        return "Q" + std::to_string(steinhardt->getDegree());
    if (auto* shell = dynamic_cast<const ShellFunctionForce*>(&force))
        return ShellActions[(int) shell->getShellFunction() >= 0 && (int) shell->getShellFunction() < 4
                                ? (int) shell->getShellFunction()
                                : 3];
    return (dynamic_cast<const CoordinationNumberForce&>(force).getRPower() != 0.0 ? MomentsName : Name);
}

PerAtomForce* PlumedPerAtom::read(PlumedAction& action, double nm) {
    PlumedKeywords& keywords = action.keywords();
    const string& name = action.getName();
    keywords.rejectUnits(name);
    const int degree = steinhardtDegree(name);
    std::unique_ptr<PerAtomForce> force;
    const int function = shellFunction(name);
    if (degree != 0)
        force.reset(new SteinhardtForce(degree));
    else if (function >= 0)
        force.reset(new ShellFunctionForce((ShellFunctionForce::ShellFunction) function));
    else
        force.reset(new CoordinationNumberForce());
    const string reader = force->getForceClassName();
    if (keywords.has("MASK"))
        throw keywords.error("MASK is not supported: the force computes the value of every atom of SPECIES (or "
                             "SPECIESA); remove MASK, or list only the atoms you need");
    if (!action.getLabel().empty())
        force->setName(action.getLabel());
    const bool species = keywords.has("SPECIES"), speciesA = keywords.has("SPECIESA"), speciesB = keywords.has("SPECIESB");
    if (species && (speciesA || speciesB))
        throw keywords.error("SPECIES and SPECIESA/SPECIESB are two forms; give SPECIES (one group) or SPECIESA and SPECIESB");
    if (species) {
        force->setMode(PairSwitchingForce::Self);
        force->setGroupA(keywords.takeAtoms("SPECIES"));
    }
    else if (speciesA && speciesB) {
        force->setMode(PairSwitchingForce::Dual);
        force->setGroupA(keywords.takeAtoms("SPECIESA"));
        force->setGroupB(keywords.takeAtoms("SPECIESB"));
    }
    else if (speciesA || speciesB)
        throw keywords.error(string(speciesA ? "SPECIESA needs SPECIESB" : "SPECIESB needs SPECIESA") +
                             " (the atoms whose values are computed, and the atoms they count)");
    else
        throw keywords.error("SPECIES (or SPECIESA and SPECIESB) is required");
    PlumedCenters::attachTo(keywords, *force);
    force->setUsesPeriodicBoundaryConditions(!keywords.takeFlag("NOPBC"));
    // PLUMED's LOWMEM is deprecated and changes nothing.
    keywords.ignore({"LOWMEM"});
    if (name == MomentsName) {
        if (!keywords.has("R_POWER"))
            throw keywords.error("R_POWER is required in COORDINATION_MOMENTS (the power k of c_i = sum sigma(r_ij) r_ij^k)");
        auto& numbers = dynamic_cast<CoordinationNumberForce&>(*force);
        numbers.setRPower(keywords.takeNumber("R_POWER", 0.0));
        if (nm != 1.0 && numbers.getRPower() != 0.0)
            throw keywords.error("R_POWER with UNITS LENGTH other than nm is not supported: this force's c_i are in "
                                 "nm^k, PLUMED's in the input's length unit^k; write the input in nm");
    }
    if (function >= 0) {
        auto& shell = dynamic_cast<ShellFunctionForce&>(*force);
        // PLUMED's PHI, THETA and PSI (a rotation of the axes) change nothing in PLUMED (ShellFunctionForce.h).
        keywords.ignore({"PHI", "THETA", "PSI"});
        if (function == ShellFunctionForce::FCCubic)
            shell.setAlpha(keywords.takeNumber("ALPHA", 3.0));
        if (function == ShellFunctionForce::Custom) {
            if (!keywords.has("FUNCTION"))
                throw keywords.error("FUNCTION is required in COORDINATION_SHELL_FUNCTION (f of the bond vector's x, "
                                     "y, z and its length r, e.g. FUNCTION=(x^4+y^4+z^4)/(r^4))");
            shell.setCustomFunction(braced(keywords, "FUNCTION", keywords.take("FUNCTION"), "(x^4+y^4+z^4)/(r^4)"));
            if (nm != 1.0)
                throw keywords.error("FUNCTION with UNITS LENGTH other than nm is not supported: this force's x, y, "
                                     "z and r are in nm, PLUMED's in the input's length unit; write the input in nm");
        }
    }
    const string switchText = keywords.take("SWITCH");
    SwitchingSettings switching;
    if (!switchText.empty())
        PlumedCoordination::readSwitch(switchText, keywords, switching, nm);
    else
        PlumedCoordination::readKeywordForm(keywords, switching, nm);
    force->setSwitchingSettings(switching);
    readReductions(action, *force);
    keywords.rejectLeftovers(reader, " in " + name);
    check(*force, keywords);
    return force.release();
}

string PlumedPerAtom::write(const PerAtomForce& force, const string& label) {
    // What fromPlumed (and a Context) would refuse is refused here; the energy and global parameters are not
    // part of the line, so they are left out of the check.
    const auto error = [&](const string& what) {
        return OpenMMException("PLUMED input: toPlumed cannot write this force (\"" + force.getName() + "\"), " + what);
    };
    if (force.getLocalStep() != PerAtomForce::NoLocalStep)
        return PlumedLocalSteps::write(force, label, error);
    const string name = actionName(force);
    if (auto* steinhardt = dynamic_cast<const SteinhardtForce*>(&force))
        if (steinhardtDegree(name) == 0)
            throw error("of degree " + std::to_string(steinhardt->getDegree()) + ": PLUMED's Steinhardt actions are Q1, "
                        "Q3, Q4 and Q6 (LOCAL_Q1, ...); it has no " + name);
    const auto* shell = dynamic_cast<const ShellFunctionForce*>(&force);
    if (shell != nullptr && shell->getShellFunction() == ShellFunctionForce::Custom &&
        shell->getNormalizeCustomFunction())
        throw error("whose Custom function is normalised: PLUMED's COORDINATION_SHELL_FUNCTION is not; it has no "
                    "action for this (call setNormalizeCustomFunction(false), or use SimpleCubic, Tetrahedral or "
                    "FCCubic)");
    PlumedCoordination::checkAsAContextWould(*lineSettings(force), [&](const string& what) {
        return error("whose settings a Context would refuse: " + what);
    });
    const auto* numbers = dynamic_cast<const CoordinationNumberForce*>(&force);
    const bool moments = (numbers != nullptr && numbers->getRPower() != 0.0);
    const string actionLabel = (label.empty() ? string(numbers != nullptr ? "c" : shell != nullptr ? "s" : "q") : label);
    vector<string> centerLabels;
    string line = PlumedCenters::write(PlumedCenters::centersOf(force), actionLabel, centerLabels,
                                       [&](const string& what) { return error("whose " + what); });
    line += actionLabel + ": " + name;
    if (force.getMode() == PairSwitchingForce::Self)
        line += " SPECIES=" + plumedAtomList(force.getGroupA(), centerLabels);
    else
        line += " SPECIESA=" + plumedAtomList(force.getGroupA(), centerLabels) +
                " SPECIESB=" + plumedAtomList(force.getGroupB(), centerLabels);
    if (moments)
        line += " R_POWER=" + plumedNumber(numbers->getRPower());
    if (shell != nullptr && shell->getShellFunction() == ShellFunctionForce::FCCubic && shell->getAlpha() != 3.0)
        line += " ALPHA=" + plumedNumber(shell->getAlpha());
    if (shell != nullptr && shell->getShellFunction() == ShellFunctionForce::Custom)
        line += " FUNCTION=" + plumedFunctionText(shell->getCustomFunction());
    if (!force.usesPeriodicBoundaryConditions())
        line += " NOPBC";
    line += PlumedCoordination::writeSwitch(force.getSwitchingSettings());
    return line + writeReductions(force, error);
}

string PlumedPerAtom::writeReductions(const PerAtomForce& force,
                                      const std::function<OpenMMException(const string&)>& error) {
    // Each reduction as its keyword; the Moment reductions together as one MOMENTS list, where the first is.
    string line;
    std::map<ReductionType, std::set<int>> numbered;
    string powers;
    size_t momentsAt = string::npos;
    for (int i = 0; i < force.getNumReductions(); i++) {
        ReductionType type;
        string parameters, name;
        force.getReductionParameters(i, type, parameters, name);
        parameters = trimmed(parameters);
        const string defaultName = PerAtomForce::getDefaultReductionName(type, parameters);
        string keyword = ReductionKeywords[type];
        if (!name.empty() && name != defaultName) {
            const string prefix = defaultName + "_";
            const int number = (isNumberedReduction(type) && name.compare(0, prefix.size(), prefix) == 0
                                    ? numberSuffix(name.substr(prefix.size()))
                                    : -1);
            if (number < 1)
                throw error("whose reduction \"" + name + "\" has a name PLUMED does not give it: a " + keyword +
                            " keyword makes the component \"" + defaultName + "\"" +
                            (isNumberedReduction(type) ? " (or \"" + defaultName + "_1\", ... as " + keyword + "1=)" : "") +
                            "; rename the reduction (and the energy's use of it)");
            numbered[type].insert(number);
            keyword += std::to_string(number);
        }
        if (type == PerAtomForce::Moment) {
            if (momentsAt == string::npos) {
                line += " MOMENTS=";
                momentsAt = line.size();
            }
            powers += (powers.empty() ? "" : ",") + parameters;
        }
        else if (isFlagReduction(type))
            line += " " + keyword;
        else
            line += " " + keyword + "={" + parameters + "}";
    }
    if (momentsAt != string::npos)
        line.insert(momentsAt, powers);
    for (const auto& entry : numbered) {
        int expected = 1;
        for (int number : entry.second) {
            if (number != expected++) {
                const string name = PerAtomForce::getDefaultReductionName(entry.first, "");
                throw error("whose reductions are numbered " + name + "_" + std::to_string(number) + " without " + name +
                            "_" + std::to_string(number - 1) + ": PLUMED reads numbered keywords from 1 without gaps; "
                            "rename the reductions");
            }
        }
    }
    return line;
}
