/**
 * CoordinationForce::fromPlumed() and toPlumed(): PLUMED's COORDINATION input line <-> a force's settings.
 */
#include "CoordinationForce.h"
#include "openmm/OpenMMException.h"
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

OpenMMException inputError(const string& line, const string& what) {
    return OpenMMException("CoordinationForce.fromPlumed: " + what + " (in \"" + line + "\")");
}

/** Words separated by blanks; a {...} group (SWITCH={RATIONAL R_0=1}) stays in its word. */
vector<string> splitWords(const string& text, const string& line) {
    vector<string> words;
    string word;
    int depth = 0;
    for (char c : text) {
        if (c == '{')
            depth++;
        else if (c == '}' && --depth < 0)
            throw inputError(line, "a '}' without its '{'");
        if (depth == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
            if (!word.empty())
                words.push_back(word);
            word.clear();
        }
        else
            word += c;
    }
    if (depth != 0)
        throw inputError(line, "a '{' without its '}'");
    if (!word.empty())
        words.push_back(word);
    return words;
}

double parseNumber(const string& text, const string& keyword, const string& line) {
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(value))
        throw inputError(line, keyword + "=" + text + " is not a number");
    return value;
}

int parseInteger(const string& text, const string& keyword, const string& line) {
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || value < std::numeric_limits<int>::min() ||
        value > std::numeric_limits<int>::max())
        throw inputError(line, keyword + "=" + text + " is not an integer");
    return (int) value;
}

/** PLUMED's atom list: 1-based serial numbers "1,5,9", ranges "a-b", "a-b:stride"; 0-based indices out. */
vector<int> parseAtoms(const string& text, const string& keyword, const string& line) {
    if (text.empty())
        throw inputError(line, keyword + " is empty");
    vector<int> atoms;
    std::stringstream items(text);
    string item;
    while (std::getline(items, item, ',')) {
        if (item.empty())
            throw inputError(line, keyword + "=" + text + " has an empty entry");
        if (item.find('@') != string::npos)
            throw inputError(line, keyword + ": " + item + " (an @ group of PLUMED's MOLINFO) is not supported; list the atoms");
        if (item.find_first_not_of("0123456789-:") != string::npos)
            throw inputError(line, keyword + ": " + item + " is not an atom number or range (group labels are not supported; list the atoms)");
        const size_t dash = item.find('-');
        int first, last, stride = 1;
        if (dash == string::npos) {
            first = last = parseInteger(item, keyword, line);
        }
        else {
            const size_t colon = item.find(':', dash);
            first = parseInteger(item.substr(0, dash), keyword, line);
            last = parseInteger(item.substr(dash + 1, colon == string::npos ? string::npos : colon - dash - 1), keyword, line);
            if (colon != string::npos)
                stride = parseInteger(item.substr(colon + 1), keyword, line);
            if (stride < 1)
                throw inputError(line, keyword + ": the stride of " + item + " must be at least 1");
            if (last < first)
                throw inputError(line, keyword + ": the range " + item + " ends before it starts");
        }
        if (first < 1)
            throw inputError(line, keyword + ": " + item + " has an atom number below 1 (PLUMED numbers atoms from 1)");
        for (long atom = first; atom <= last; atom += stride)
            atoms.push_back((int) atom - 1);
    }
    return atoms;
}

/** KEY=VALUE words into a map, flags (no '=') into another; a repeated keyword is an error. */
void collect(const vector<string>& words, size_t first, std::map<string, string>& values, std::map<string, bool>& flags,
             const string& line) {
    for (size_t i = first; i < words.size(); i++) {
        const string& word = words[i];
        const size_t equals = word.find('=');
        const string key = (equals == string::npos ? word : word.substr(0, equals));
        if (values.count(key) || flags.count(key))
            throw inputError(line, key + " is given twice");
        if (equals == string::npos)
            flags[key] = true;
        else
            values[key] = word.substr(equals + 1);
    }
}

string take(std::map<string, string>& values, const string& key) {
    auto found = values.find(key);
    if (found == values.end())
        return "";
    string value = found->second;
    values.erase(found);
    return value;
}

/** The rational switching function's settings of the keyword form (no SWITCH): automatic dmax, stretched. */
void readKeywordForm(std::map<string, string>& values, CoordinationForce& force, double nm, const string& line) {
    const string r0 = take(values, "R_0");
    if (r0.empty())
        throw inputError(line, "R_0 is required (or give SWITCH={...})");
    force.setR0(parseNumber(r0, "R_0", line) * nm);
    const string d0 = take(values, "D_0"), nn = take(values, "NN"), mm = take(values, "MM");
    force.setD0(d0.empty() ? 0.0 : parseNumber(d0, "D_0", line) * nm);
    force.setN(nn.empty() ? 6 : parseInteger(nn, "NN", line));
    force.setM(mm.empty() ? 0 : parseInteger(mm, "MM", line));
    force.setDMax(0.0);
    force.setStretch(true);
}

/** PLUMED's SWITCH type names, in the order of CoordinationForce::SwitchingFunction. */
const char* const SwitchNames[] = {"RATIONAL", "EXP", "GAUSSIAN", "SMAP", "CUBIC", "TANH", "COSINUS", "Q", "CUSTOM"};

/**
 * The inside of SWITCH={TYPE ...}, as PLUMED's SwitchingFunction::set reads it: D_0 (default 0), D_MAX
 * (default: no cutoff), NOSTRETCH (STRETCH is accepted: it is the default), R_0 (required except for
 * CUBIC, which has none), and the type's own keywords.
 */
void readSwitch(const string& type, std::map<string, string>& values, std::map<string, bool>& flags,
                CoordinationForce& force, double nm, const string& line) {
    int index = -1;
    for (int i = 0; i < 9; i++)
        if (type == SwitchNames[i])
            index = i;
    if (type == "MATHEVAL")
        index = CoordinationForce::Custom;
    if (index < 0)
        throw inputError(line, "SWITCH type " + type + " is not one of PLUMED's (RATIONAL, EXP, GAUSSIAN, SMAP, "
                                                       "CUBIC, TANH, COSINUS, Q, CUSTOM)");
    const CoordinationForce::SwitchingFunction function = (CoordinationForce::SwitchingFunction) index;
    force.setSwitchingFunction(function);
    const string d0 = take(values, "D_0"), dmax = take(values, "D_MAX");
    force.setD0(d0.empty() ? 0.0 : parseNumber(d0, "D_0", line) * nm);
    force.setDMax(dmax.empty() ? std::numeric_limits<double>::infinity() : parseNumber(dmax, "D_MAX", line) * nm);
    flags.erase("STRETCH");
    force.setStretch(!flags.erase("NOSTRETCH"));
    if (function == CoordinationForce::Cubic) {
        if (dmax.empty())
            throw inputError(line, "SWITCH={CUBIC ...} needs D_MAX (it goes from 1 at D_0 to 0 at D_MAX)");
    }
    else {
        const string r0 = take(values, "R_0");
        if (r0.empty())
            throw inputError(line, "SWITCH={" + type + " ...} needs R_0");
        force.setR0(parseNumber(r0, "R_0", line) * nm);
    }
    if (function == CoordinationForce::Rational) {
        const string nn = take(values, "NN"), mm = take(values, "MM");
        force.setN(nn.empty() ? 6 : parseInteger(nn, "NN", line));
        force.setM(mm.empty() ? 0 : parseInteger(mm, "MM", line));
    }
    else if (function == CoordinationForce::Smap) {
        const string a = take(values, "A"), b = take(values, "B");
        if (a.empty() || b.empty())
            throw inputError(line, "SWITCH={SMAP ...} needs A and B");
        force.setSmapExponents(parseInteger(a, "A", line), parseInteger(b, "B", line));
    }
    else if (function == CoordinationForce::NativeQ) {
        const string beta = take(values, "BETA"), lambda = take(values, "LAMBDA"), reference = take(values, "REF");
        if (reference.empty())
            throw inputError(line, "SWITCH={Q ...} needs REF (the reference distance)");
        // BETA is per length unit, its default (50) too: PLUMED reads every length in the input's units.
        force.setNativeQParameters((beta.empty() ? 50.0 : parseNumber(beta, "BETA", line)) / nm,
                                   lambda.empty() ? 1.8 : parseNumber(lambda, "LAMBDA", line),
                                   parseNumber(reference, "REF", line) * nm);
    }
    else if (function == CoordinationForce::Custom) {
        const string expression = take(values, "FUNC");
        if (expression.empty())
            throw inputError(line, "SWITCH={" + type + " ...} needs FUNC=expression");
        force.setCustomSwitchingFunction(expression);
    }
}

void rejectLeftovers(const std::map<string, string>& values, const std::map<string, bool>& flags, const string& where,
                     const string& line) {
    for (const auto& value : values)
        throw inputError(line, value.first + " is not a keyword CoordinationForce understands" + where);
    for (const auto& flag : flags)
        throw inputError(line, flag.first + " is not a keyword CoordinationForce understands" + where);
}

/** PLUMED's atom list for 0-based indices: runs of consecutive atoms as ranges. */
string atomList(const vector<int>& atoms) {
    string text;
    for (size_t i = 0; i < atoms.size();) {
        size_t j = i;
        while (j + 1 < atoms.size() && atoms[j + 1] == atoms[j] + 1)
            j++;
        if (!text.empty())
            text += ",";
        text += std::to_string(atoms[i] + 1);
        if (j > i)
            text += "-" + std::to_string(atoms[j] + 1);
        i = j + 1;
    }
    return text;
}

/** Shortest text that reads back to the same double (without an exponent where the value does not need one). */
string number(double value) {
    char buffer[32];
    const bool plain = (std::fabs(value) >= 1e-4 && std::fabs(value) < 1e15);
    for (int digits = 1; digits <= 17; digits++) {
        std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
        if (std::strtod(buffer, nullptr) == value && !(plain && string(buffer).find('e') != string::npos))
            break;
    }
    return buffer;
}


/** The words of a line, split at blanks (no brace grouping: used only to find "..." and action names). */
vector<string> blankWords(const string& text) {
    vector<string> words;
    std::stringstream stream(text);
    string word;
    while (stream >> word)
        words.push_back(word);
    return words;
}

string trimmed(const string& text) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == string::npos)
        return "";
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

/** An action's label ("c:" or LABEL=c; "" if none) and name (COORDINATION, UNITS, ...). */
void labelAndName(const string& action, string& label, string& name) {
    const vector<string> words = blankWords(action);
    size_t next = 0;
    label.clear();
    name.clear();
    if (!words.empty() && words[0].size() > 1 && words[0].back() == ':') {
        label = words[0].substr(0, words[0].size() - 1);
        next = 1;
    }
    if (next < words.size())
        name = words[next];
    for (size_t i = next + 1; i < words.size() && label.empty(); i++)
        if (words[i].compare(0, 6, "LABEL=") == 0)
            label = words[i].substr(6);
}

/**
 * PLUMED's input rules: '#' starts a comment, a statement whose first line ends with "..." goes on to a
 * line that starts with "..." (optionally followed by the action's name or label), ENDPLUMED ends the
 * input. Returns each action on one line, in order.
 */
vector<string> actionsOf(const string& text) {
    vector<string> actions;
    std::stringstream lines(text);
    string rawLine, statement, opening;
    bool continued = false;
    int lineNumber = 0, openedAt = 0;
    while (std::getline(lines, rawLine)) {
        lineNumber++;
        const string line = trimmed(rawLine.substr(0, rawLine.find('#')));
        const vector<string> words = blankWords(line);
        if (words.empty())
            continue;
        if (continued) {
            if (words[0] != "...") {
                statement += " " + line;
                continue;
            }
            string label, name;
            labelAndName(statement, label, name);
            if (words.size() > 2 || (words.size() == 2 && words[1] != name && words[1] != label && words[1] != opening))
                throw OpenMMException("CoordinationForce.fromPlumed: line " + std::to_string(lineNumber) + " closes the \"" +
                                      opening + " ...\" of line " + std::to_string(openedAt) + " with \"" + line +
                                      "\"; write \"...\" or \"... " + name + "\"");
            actions.push_back(trimmed(statement));
            continued = false;
        }
        else if (words.back() == "...") {
            statement = line.substr(0, line.size() - 3);
            opening = words[0];
            openedAt = lineNumber;
            continued = true;
            if (words.size() == 1)
                throw OpenMMException("CoordinationForce.fromPlumed: line " + std::to_string(lineNumber) +
                                      " is \"...\" outside a continued action (an action's first line ends with \"...\")");
        }
        else
            actions.push_back(line);
        if (!continued && !actions.empty() && blankWords(actions.back())[0] == "ENDPLUMED") {
            actions.pop_back();
            return actions;
        }
    }
    if (continued)
        throw OpenMMException("CoordinationForce.fromPlumed: the action \"" + opening + " ...\" of line " +
                              std::to_string(openedAt) + " is not closed; end it with a line \"...\"");
    return actions;
}

/** PLUMED's UNITS action: the length unit in nm (LENGTH=nm, A, um, Bohr or a number of nm). */
double lengthUnit(const string& action) {
    vector<string> words = splitWords(action, action);
    size_t first = (words[0].back() == ':' ? 2 : 1);
    std::map<string, string> values;
    std::map<string, bool> flags;
    collect(words, first, values, flags, action);
    values.erase("LABEL");
    double nm = 1.0;
    const string length = take(values, "LENGTH");
    if (length == "A")
        nm = 0.1;
    else if (length == "um")
        nm = 1000.0;
    else if (length == "Bohr")
        nm = 0.052917721067;
    else if (!length.empty() && length != "nm")
        nm = parseNumber(length, "LENGTH", action);
    if (!(nm > 0))
        throw inputError(action, "LENGTH=" + length + " must be positive");
    if (flags.count("NATURAL"))
        throw inputError(action, "UNITS NATURAL is not supported: give LENGTH=nm, A, um, Bohr or a number of nm");
    // Energy, time, mass and charge units do not change a coordination number (the force's energy is its
    // own expression, in kJ/mol).
    for (const char* ignored : {"ENERGY", "TIME", "MASS", "CHARGE"})
        values.erase(ignored);
    rejectLeftovers(values, flags, " in UNITS", action);
    return nm;
}

/** One COORDINATION action (on one line), lengths in units of nm nanometres. */
CoordinationForce* coordinationFromAction(const string& input, double nm) {
    vector<string> words = splitWords(input, input);
    string label;
    size_t next = 0;
    if (!words.empty() && words[0].size() > 1 && words[0].back() == ':') {
        label = words[0].substr(0, words[0].size() - 1);
        next = 1;
    }
    if (next >= words.size() || words[next] != "COORDINATION")
        throw inputError(input, "not a COORDINATION action (expected \"[label:] COORDINATION keywords...\")");
    std::map<string, string> values;
    std::map<string, bool> flags;
    collect(words, next + 1, values, flags, input);
    for (const auto& value : values)
        if (value.second.empty())
            throw inputError(input, value.first + "= has no value");
    const string labelKeyword = take(values, "LABEL");
    if (!labelKeyword.empty()) {
        if (!label.empty())
            throw inputError(input, "the label is given twice (\"" + label + ":\" and LABEL=)");
        label = labelKeyword;
    }
    if (values.count("UNITS") || flags.count("UNITS"))
        throw inputError(input, "UNITS is an action of its own in PLUMED: put \"UNITS LENGTH=A\" (or nm, um, Bohr) "
                                "on a line before COORDINATION");

    std::unique_ptr<CoordinationForce> force(new CoordinationForce("s"));
    if (!label.empty())
        force->setName(label);
    const string groupA = take(values, "GROUPA"), groupB = take(values, "GROUPB");
    if (groupA.empty())
        throw inputError(input, "GROUPA is required");
    force->setGroupA(parseAtoms(groupA, "GROUPA", input));
    const bool pair = flags.erase("PAIR") > 0;
    if (!groupB.empty()) {
        force->setGroupB(parseAtoms(groupB, "GROUPB", input));
        force->setMode(pair ? CoordinationForce::Pair : CoordinationForce::Dual);
    }
    else if (pair)
        throw inputError(input, "PAIR needs GROUPB");
    else
        force->setMode(CoordinationForce::Self);
    force->setUsesPeriodicBoundaryConditions(!flags.erase("NOPBC"));
    // Accepted and ignored: PLUMED's neighbour-list and parallelization settings, numerical derivatives.
    for (const char* ignored : {"NLIST", "SERIAL", "NUMERICAL_DERIVATIVES"})
        flags.erase(ignored);
    for (const char* ignored : {"NL_CUTOFF", "NL_STRIDE"})
        values.erase(ignored);

    const string switchText = take(values, "SWITCH");
    if (!switchText.empty()) {
        if (switchText.size() < 2 || switchText.front() != '{' || switchText.back() != '}')
            throw inputError(input, "SWITCH must be written SWITCH={TYPE KEYWORDS...}");
        vector<string> inner = splitWords(switchText.substr(1, switchText.size() - 2), input);
        if (inner.empty())
            throw inputError(input, "SWITCH={} names no switching function");
        for (const char* keyword : {"R_0", "D_0", "NN", "MM", "D_MAX"})
            if (values.count(keyword))
                throw inputError(input, string(keyword) + " is given both outside and inside SWITCH={...}");
        std::map<string, string> switchValues;
        std::map<string, bool> switchFlags;
        collect(inner, 1, switchValues, switchFlags, input);
        for (const auto& value : switchValues)
            if (value.second.empty())
                throw inputError(input, value.first + "= has no value");
        readSwitch(inner[0], switchValues, switchFlags, *force, nm, input);
        rejectLeftovers(switchValues, switchFlags, " inside SWITCH={" + inner[0] + " ...}", input);
    }
    else
        readKeywordForm(values, *force, nm, input);
    rejectLeftovers(values, flags, " in COORDINATION", input);
    return force.release();
}

/** The text of a plumed.dat: the file at pathOrText if there is one, else pathOrText itself. */
string inputText(const string& pathOrText) {
    if (pathOrText.find('\n') == string::npos) {
        std::ifstream file(pathOrText);
        if (file) {
            std::stringstream text;
            text << file.rdbuf();
            return text.str();
        }
        if (pathOrText.find_first_of(" \t=") == string::npos)
            throw OpenMMException("CoordinationForce.fromPlumedFile: cannot read the file \"" + pathOrText +
                                  "\"; pass the path of a plumed.dat or its text");
    }
    return pathOrText;
}

/**
 * Every COORDINATION action of a PLUMED input, in order, with UNITS applied; the other actions are
 * described in skipped. Throws if a UNITS action follows a COORDINATION action (its lengths would be
 * ambiguous) or if UNITS is given twice.
 */
vector<CoordinationForce*> readActions(const vector<string>& actions, vector<string>& skipped) {
    double nm = 1.0;
    bool unitsGiven = false;
    vector<std::unique_ptr<CoordinationForce>> forces;
    std::map<string, bool> labels;
    for (size_t i = 0; i < actions.size(); i++) {
        string label, name;
        labelAndName(actions[i], label, name);
        if (!label.empty() && !labels.emplace(label, true).second)
            throw inputError(actions[i], "the label \"" + label + "\" is used by two actions; PLUMED's labels are unique");
        if (name == "UNITS") {
            if (unitsGiven)
                throw inputError(actions[i], "UNITS is given twice");
            if (!forces.empty())
                throw inputError(actions[i], "UNITS must come before the COORDINATION actions");
            nm = lengthUnit(actions[i]);
            unitsGiven = true;
        }
        else if (name == "COORDINATION") {
            forces.emplace_back(coordinationFromAction(actions[i], nm));
            if (label.empty())
                forces.back()->setName("@" + std::to_string(i)); // PLUMED's name for an unlabelled action
        }
        else
            skipped.push_back(label.empty() ? name : label + ": " + name);
    }
    vector<CoordinationForce*> result;
    for (auto& force : forces)
        result.push_back(force.release());
    return result;
}

} // namespace

CoordinationForce* CoordinationForce::fromPlumed(const std::string& input) {
    const vector<string> actions = actionsOf(input);
    vector<string> skipped;
    vector<CoordinationForce*> forces = readActions(actions, skipped);
    if (forces.size() == 1 && skipped.empty()) {
        // The name of a force read from one action is its label, if it has one.
        string label, name;
        for (const string& action : actions) {
            labelAndName(action, label, name);
            if (name == "COORDINATION" && label.empty())
                forces[0]->setName(CoordinationForce().getName());
        }
        return forces[0];
    }
    for (CoordinationForce* force : forces)
        delete force;
    string what;
    for (const string& action : skipped)
        what += (what.empty() ? "" : ", ") + action;
    if (forces.empty())
        throw inputError(trimmed(input), "not a COORDINATION action (expected \"[label:] COORDINATION keywords...\"" +
                                             (what.empty() ? string(")") : "; found " + what + ")"));
    throw inputError(trimmed(input), "fromPlumed reads one COORDINATION action (and an optional UNITS); this input has " +
                                         std::to_string(forces.size()) + " COORDINATION action" +
                                         (forces.size() > 1 ? "s" : "") +
                                         (what.empty() ? string() : " and " + what) +
                                         ": read a whole plumed.dat with CoordinationForce.fromPlumedFile");
}

std::vector<CoordinationForce*> CoordinationForce::fromPlumedFile(const std::string& pathOrText,
                                                                 std::vector<std::string>& skipped) {
    skipped.clear();
    return readActions(actionsOf(inputText(pathOrText)), skipped);
}

std::string CoordinationForce::toPlumed(const std::string& label) const {
    string line = (label.empty() ? string("c") : label) + ": COORDINATION GROUPA=" + atomList(getGroupA());
    if (getMode() != Self)
        line += " GROUPB=" + atomList(getGroupB());
    if (getMode() == Pair)
        line += " PAIR";
    if (!usesPeriodicBoundaryConditions())
        line += " NOPBC";
    // D_0, MM, BETA and LAMBDA only where they differ from PLUMED's defaults, so that the line reads back
    // to the same settings.
    const SwitchingFunction type = getSwitchingFunction();
    string parameters = (type == Cubic ? string() : "R_0=" + number(getR0()));
    if (getD0() != 0.0)
        parameters += " D_0=" + number(getD0());
    if (type == Rational) {
        parameters += " NN=" + std::to_string(getN());
        if (getM() != 0)
            parameters += " MM=" + std::to_string(getM());
        if (getDMax() == 0.0 && getStretch())
            return line + " " + parameters; // the keyword form: automatic dmax, stretched
    }
    else if (type == Smap)
        parameters += " A=" + std::to_string(getSmapA()) + " B=" + std::to_string(getSmapB());
    else if (type == NativeQ) {
        if (getNativeQBeta() != 50.0)
            parameters += " BETA=" + number(getNativeQBeta());
        if (getNativeQLambda() != 1.8)
            parameters += " LAMBDA=" + number(getNativeQLambda());
        parameters += " REF=" + number(getNativeQReference());
    }
    else if (type == Custom)
        parameters += " FUNC=" + getCustomSwitchingFunction();
    // In SWITCH={...} no D_MAX means no cutoff: an automatic cutoff (Rational's, Cosinus' d0 + r0) is
    // written out.
    if (std::isfinite(getEffectiveDMax()))
        parameters += " D_MAX=" + number(getEffectiveDMax());
    if (!getStretch())
        parameters += " NOSTRETCH";
    if (parameters.front() == ' ')
        parameters.erase(0, 1);
    return line + " SWITCH={" + SwitchNames[type] + " " + parameters + "}";
}
