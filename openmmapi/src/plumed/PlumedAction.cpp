#include "internal/plumed/PlumedAction.h"
#include "internal/plumed/PlumedCenters.h"
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

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

/** Where the action's name is among its words: after the label "c:", if there is one. */
size_t nameIndex(const vector<string>& words) {
    return (!words.empty() && words[0].size() > 1 && words[0].back() == ':' ? 1 : 0);
}

} // namespace

OpenMMException CoordinationPlugin::plumedInputError(const string& action, const string& what) {
    return OpenMMException("PLUMED input: " + what + " (in \"" + trimmed(action) + "\")");
}

vector<string> PlumedKeywords::splitWords(const string& text, const string& line) {
    vector<string> words;
    string word;
    int depth = 0;
    for (char c : text) {
        if (c == '{')
            depth++;
        else if (c == '}' && --depth < 0)
            throw plumedInputError(line, "a '}' without its '{'");
        if (depth == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
            if (!word.empty())
                words.push_back(word);
            word.clear();
        }
        else
            word += c;
    }
    if (depth != 0)
        throw plumedInputError(line, "a '{' without its '}'");
    if (!word.empty())
        words.push_back(word);
    return words;
}

PlumedKeywords::PlumedKeywords(const vector<string>& words, size_t first, const string& line) : line(line) {
    for (size_t i = first; i < words.size(); i++) {
        const string& word = words[i];
        const size_t equals = word.find('=');
        const string key = (equals == string::npos ? word : word.substr(0, equals));
        if (values.count(key) || flags.count(key))
            throw error(key + " is given twice");
        if (equals == string::npos)
            flags[key] = true;
        else if (equals + 1 == word.size())
            throw error(key + "= has no value");
        else
            values[key] = word.substr(equals + 1);
    }
}

string PlumedKeywords::take(const string& key) {
    auto found = values.find(key);
    if (found == values.end())
        return "";
    const string value = found->second;
    values.erase(found);
    return value;
}

bool PlumedKeywords::takeFlag(const string& flag) {
    return flags.erase(flag) > 0;
}

double PlumedKeywords::takeNumber(const string& key, double defaultValue) {
    const string text = take(key);
    return (text.empty() ? defaultValue : number(text, key));
}

int PlumedKeywords::takeInteger(const string& key, int defaultValue) {
    const string text = take(key);
    return (text.empty() ? defaultValue : integer(text, key));
}

double PlumedKeywords::number(const string& text, const string& key) const {
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    // strtod reports ERANGE for a subnormal value too, which is a number; an overflow is refused with its bound.
    if (!text.empty() && *end == '\0' && std::isinf(value) && errno == ERANGE)
        throw error(key + "=" + text + " is beyond the largest double (1.8e308)");
    if (text.empty() || *end != '\0' || !std::isfinite(value))
        throw error(key + "=" + text + " is not a number");
    return value;
}

int PlumedKeywords::takeInteger(const string& key, int defaultValue, int minimum, int maximum) {
    const string text = take(key);
    return (text.empty() ? defaultValue : integer(text, key, minimum, maximum));
}

int PlumedKeywords::integer(const string& text, const string& key) const {
    return integer(text, key, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
}

int PlumedKeywords::integer(const string& text, const string& key, int minimum, int maximum) const {
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || (errno != 0 && errno != ERANGE))
        throw error(key + "=" + text + " is not an integer");
    if (errno == ERANGE || value < minimum || value > maximum)
        throw error(key + "=" + text + " is out of range; use an integer from " + std::to_string(minimum) + " to " +
                    std::to_string(maximum));
    return (int) value;
}

vector<int> PlumedKeywords::takeAtoms(const string& key) {
    const string text = take(key);
    if (text.empty())
        throw error(key + " is required");
    vector<int> atoms;
    std::stringstream items(text);
    string item;
    while (std::getline(items, item, ',')) {
        if (item.empty())
            throw error(key + "=" + text + " has an empty entry");
        if (item.find('@') != string::npos)
            throw error(key + ": " + item + " (an @ group of PLUMED's MOLINFO) is not supported; list the atoms");
        // A group of 1e8 entries is 400 MB of indices, 70 times the atoms a GPU Self-mode force takes.
        const long maxEntries = 100000000;
        if (groups != nullptr && groups->count(item) > 0) {
            const vector<int>& members = groups->at(item);
            if ((long) atoms.size() + (long) members.size() > maxEntries)
                throw error(key + ": the GROUP " + item + " makes the group " + std::to_string(atoms.size() + members.size()) +
                            " atoms long; a group may list at most " + std::to_string(maxEntries) + " atoms");
            atoms.insert(atoms.end(), members.begin(), members.end());
            continue;
        }
        const int center = (centers == nullptr ? -1 : centers->indexOf(item));
        if (center >= 0) {
            if ((long) atoms.size() + 1 > maxEntries)
                throw error(key + ": " + item + " makes the group " + std::to_string(atoms.size() + 1) +
                            " atoms long; a group may list at most " + std::to_string(maxEntries) + " atoms");
            atoms.push_back(-1 - center);
            continue;
        }
        if (item.find_first_not_of("0123456789-:") != string::npos)
            throw error(key + ": " + item + " is not an atom number, a range or the label of a GROUP, COM or CENTER "
                                            "action before this one; list the atoms, or define it first (\"" + item +
                        ": GROUP ATOMS=...\")");
        if (item[0] == '-')
            throw error(key + ": " + item + " is a negative atom number; PLUMED numbers atoms from 1");
        const size_t dash = item.find('-');
        int first, last, stride = 1;
        if (dash == string::npos)
            first = last = atomNumber(item, key);
        else {
            const size_t colon = item.find(':', dash);
            const string end = item.substr(dash + 1, colon == string::npos ? string::npos : colon - dash - 1);
            if (!end.empty() && end[0] == '-')
                throw error(key + ": the range " + item + " ends at a negative atom number; PLUMED numbers atoms from 1");
            first = atomNumber(item.substr(0, dash), key);
            last = atomNumber(end, key);
            if (colon != string::npos)
                stride = integer(item.substr(colon + 1), key);
            if (stride < 1)
                throw error(key + ": the stride of " + item + " must be at least 1");
            if (last < first)
                throw error(key + ": the range " + item + " ends before it starts");
        }
        if (first < 1)
            throw error(key + ": " + item + " has an atom number below 1 (PLUMED numbers atoms from 1)");
        const long entries = ((long) last - first) / stride + 1;
        if ((long) atoms.size() + entries > maxEntries)
            throw error(key + ": " + item + " makes the group " + std::to_string(atoms.size() + entries) +
                        " atoms long; a group may list at most " + std::to_string(maxEntries) + " atoms");
        for (long atom = first; atom <= last; atom += stride)
            atoms.push_back((int) atom - 1);
    }
    return atoms;
}

int PlumedKeywords::atomNumber(const string& text, const string& key) const {
    if (text.empty() || text.find_first_not_of("0123456789") != string::npos)
        throw error(key + ": " + text + " is not an atom number (PLUMED's atom numbers are integers from 1)");
    // Atom i is particle index i - 1, an int.
    return integer(text, key, 0, std::numeric_limits<int>::max());
}

void PlumedKeywords::ignore(const vector<string>& keys) {
    for (const string& key : keys) {
        values.erase(key);
        flags.erase(key);
    }
}

vector<string> PlumedKeywords::remainingKeys() const {
    vector<string> keys;
    for (const auto& value : values)
        keys.push_back(value.first);
    for (const auto& flag : flags)
        keys.push_back(flag.first);
    std::sort(keys.begin(), keys.end());
    return keys;
}

void PlumedKeywords::rejectLeftovers(const string& reader, const string& where) const {
    for (const auto& value : values)
        throw error(value.first + " is not a keyword " + reader + " understands" + where);
    for (const auto& flag : flags)
        throw error(flag.first + " is not a keyword " + reader + " understands" + where);
}

OpenMMException PlumedKeywords::error(const string& what) const {
    return plumedInputError(line, what);
}

void PlumedAction::labelAndName(const string& text, string& label, string& name) {
    const vector<string> words = blankWords(text);
    const size_t next = nameIndex(words);
    label = (next == 1 ? words[0].substr(0, words[0].size() - 1) : string());
    name.clear();
    if (next < words.size())
        name = words[next];
    for (size_t i = next + 1; i < words.size() && label.empty(); i++)
        if (words[i].compare(0, 6, "LABEL=") == 0)
            label = words[i].substr(6);
}

PlumedAction::PlumedAction(const string& text) : PlumedAction(text, PlumedKeywords::splitWords(text, text)) {}

PlumedAction::PlumedAction(const string& text, const vector<string>& words)
    : text(text), actionKeywords(words, nameIndex(words) + 1, text) {
    const size_t next = nameIndex(words);
    if (next == 1)
        label = words[0].substr(0, words[0].size() - 1);
    if (next < words.size())
        name = words[next];
    const string labelKeyword = actionKeywords.take("LABEL");
    if (!labelKeyword.empty()) {
        if (!label.empty())
            throw actionKeywords.error("the label is given twice (\"" + label + ":\" and LABEL=)");
        label = labelKeyword;
    }
}

void PlumedAction::rejectNulBytes(const string& text) {
    const size_t nul = text.find('\0');
    if (nul != string::npos)
        throw OpenMMException("PLUMED input: a NUL byte at position " + std::to_string(nul) +
                              " (counting from 0); PLUMED input is text: remove it");
}

vector<string> PlumedAction::split(const string& text) {
    rejectNulBytes(text);
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
                throw OpenMMException("PLUMED input: line " + std::to_string(lineNumber) + " closes the \"" + opening +
                                      " ...\" of line " + std::to_string(openedAt) + " with \"" + line +
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
                throw OpenMMException("PLUMED input: line " + std::to_string(lineNumber) +
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
        throw OpenMMException("PLUMED input: the action \"" + opening + " ...\" of line " + std::to_string(openedAt) +
                              " is not closed; end it with a line \"...\"");
    return actions;
}

string PlumedAction::readText(const string& pathOrText) {
    rejectNulBytes(pathOrText); // a path with a NUL byte would open the file named by its beginning
    if (pathOrText.find('\n') == string::npos) {
        std::ifstream file(pathOrText);
        if (file) {
            std::stringstream text;
            text << file.rdbuf();
            return text.str();
        }
        if (pathOrText.find_first_of(" \t=") == string::npos)
            throw OpenMMException("PLUMED input: cannot read the file \"" + pathOrText +
                                  "\"; pass the path of a plumed.dat or its text");
    }
    return pathOrText;
}

string CoordinationPlugin::plumedNumber(double value) {
    char buffer[32];
    const bool plain = (std::fabs(value) >= 1e-4 && std::fabs(value) < 1e15);
    for (int digits = 1; digits <= 17; digits++) {
        std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
        if (std::strtod(buffer, nullptr) == value && !(plain && string(buffer).find('e') != string::npos))
            break;
    }
    return buffer;
}

string CoordinationPlugin::plumedAtomList(const vector<int>& atoms) {
    return plumedAtomList(atoms, vector<string>());
}

string CoordinationPlugin::plumedAtomList(const vector<int>& atoms, const vector<string>& centerLabels) {
    string text;
    for (size_t i = 0; i < atoms.size();) {
        if (!text.empty())
            text += ",";
        if (atoms[i] < 0) {
            const size_t center = -1 - (long) atoms[i];
            if (center >= centerLabels.size())
                throw OpenMMException("PLUMED input: the atom list entry " + std::to_string(atoms[i]) +
                                      " names no centre (the force has " + std::to_string(centerLabels.size()) +
                                      "); use a particle index or an id addCenter() returned");
            text += centerLabels[center];
            i++;
            continue;
        }
        size_t j = i;
        while (j + 1 < atoms.size() && atoms[j + 1] == atoms[j] + 1)
            j++;
        text += std::to_string(atoms[i] + 1);
        if (j > i)
            text += "-" + std::to_string(atoms[j] + 1);
        i = j + 1;
    }
    return text;
}

void PlumedKeywords::rejectUnits(const std::string& action) {
    if (has("UNITS") || takeFlag("UNITS"))
        throw error("UNITS is an action of its own in PLUMED: put \"UNITS LENGTH=A\" (or nm, um, Bohr) on a line "
                    "before " + action);
}
