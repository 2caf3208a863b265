/**
 * CoordinationForce::fromPlumed() and toPlumed(): PLUMED's COORDINATION input line <-> a force's settings.
 */
#include "CoordinationForce.h"
#include "openmm/OpenMMException.h"
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

/** The rational switching function's settings, from the keyword form or the inside of SWITCH={...}. */
void readRational(std::map<string, string>& values, std::map<string, bool>& flags, CoordinationForce& force,
                  bool switchForm, const string& line) {
    const string r0 = take(values, "R_0");
    if (r0.empty())
        throw inputError(line, switchForm ? "SWITCH={RATIONAL ...} needs R_0" : "R_0 is required (or give SWITCH={...})");
    force.setR0(parseNumber(r0, "R_0", line));
    const string d0 = take(values, "D_0"), nn = take(values, "NN"), mm = take(values, "MM");
    force.setD0(d0.empty() ? 0.0 : parseNumber(d0, "D_0", line));
    force.setN(nn.empty() ? 6 : parseInteger(nn, "NN", line));
    force.setM(mm.empty() ? 0 : parseInteger(mm, "MM", line));
    if (switchForm) {
        const string dmax = take(values, "D_MAX");
        force.setDMax(dmax.empty() ? std::numeric_limits<double>::infinity() : parseNumber(dmax, "D_MAX", line));
        force.setStretch(!flags.erase("NOSTRETCH"));
    }
    else {
        force.setDMax(0.0);
        force.setStretch(true);
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

/** Shortest text that reads back to the same double. */
string number(double value) {
    char buffer[32];
    for (int digits = 1; digits <= 17; digits++) {
        std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
        if (std::strtod(buffer, nullptr) == value)
            break;
    }
    return buffer;
}

} // namespace

CoordinationForce* CoordinationForce::fromPlumed(const std::string& input) {
    string line = input;
    const size_t comment = line.find('#');
    if (comment != string::npos)
        line = line.substr(0, comment);
    vector<string> words = splitWords(line, input);
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
        throw inputError(input, "UNITS is not supported: CoordinationForce uses nm (PLUMED's default length unit)");

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
        force->setMode(pair ? Pair : Dual);
    }
    else if (pair)
        throw inputError(input, "PAIR needs GROUPB");
    else
        force->setMode(Self);
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
        if (inner[0] != "RATIONAL")
            throw inputError(input, "SWITCH type " + inner[0] + " is not supported yet (only RATIONAL)");
        for (const char* keyword : {"R_0", "D_0", "NN", "MM"})
            if (values.count(keyword))
                throw inputError(input, string(keyword) + " is given both outside and inside SWITCH={...}");
        std::map<string, string> switchValues;
        std::map<string, bool> switchFlags;
        collect(inner, 1, switchValues, switchFlags, input);
        for (const auto& value : switchValues)
            if (value.second.empty())
                throw inputError(input, value.first + "= has no value");
        readRational(switchValues, switchFlags, *force, true, input);
        rejectLeftovers(switchValues, switchFlags, " inside SWITCH={RATIONAL ...}", input);
    }
    else
        readRational(values, flags, *force, false, input);
    rejectLeftovers(values, flags, " in COORDINATION", input);
    return force.release();
}

std::string CoordinationForce::toPlumed(const std::string& label) const {
    string line = (label.empty() ? string("c") : label) + ": COORDINATION GROUPA=" + atomList(getGroupA());
    if (getMode() != Self)
        line += " GROUPB=" + atomList(getGroupB());
    if (getMode() == Pair)
        line += " PAIR";
    if (!usesPeriodicBoundaryConditions())
        line += " NOPBC";
    // D_0 and MM only where they differ from PLUMED's defaults (0, and 0 meaning 2 NN), so that the line
    // reads back to the same settings.
    string rational = "R_0=" + number(getR0());
    if (getD0() != 0.0)
        rational += " D_0=" + number(getD0());
    rational += " NN=" + std::to_string(getN());
    if (getM() != 0)
        rational += " MM=" + std::to_string(getM());
    if (getDMax() == 0.0 && getStretch())
        return line + " " + rational; // the keyword form: automatic dmax, stretched
    line += " SWITCH={RATIONAL " + rational;
    if (std::isfinite(getEffectiveDMax()))
        line += " D_MAX=" + number(getEffectiveDMax());
    if (!getStretch())
        line += " NOSTRETCH";
    return line + "}";
}
