#ifndef OPENMM_COORDINATION_PLUMEDACTION_H_
#define OPENMM_COORDINATION_PLUMEDACTION_H_

#include "openmm/OpenMMException.h"
#include <map>
#include <string>
#include <vector>

namespace CoordinationPlugin {

class PlumedCenters;

/**
 * The keywords of a PLUMED action (or of the inside of a SWITCH={...}), read with PLUMED's rules:
 * KEY=value words and flags (words without '='), a {...} group kept in its word. A reader takes what it
 * understands, then rejectLeftovers() names anything else. Every error is an OpenMMException that quotes
 * the action it is in.
 */
class PlumedKeywords {
public:
    /** Words separated by blanks, a {...} group (SWITCH={RATIONAL R_0=1}) in its word; line is quoted in errors. */
    static std::vector<std::string> splitWords(const std::string& text, const std::string& line);
    /**
     * The keywords of words[first...]; a keyword given twice, or KEY= without a value, is an error.
     *
     * @param line   the action, quoted in errors
     */
    PlumedKeywords(const std::vector<std::string>& words, size_t first, const std::string& line);
    /** Whether KEY=value is present (not yet taken). */
    bool has(const std::string& key) const { return values.count(key) > 0; }
    /** The value of KEY=value, removed; "" if absent. */
    std::string take(const std::string& key);
    /** Whether the flag is present; removed. */
    bool takeFlag(const std::string& flag);
    /** A number (PLUMED's lengths, exponents, ...), or defaultValue if the keyword is absent. */
    double takeNumber(const std::string& key, double defaultValue);
    /** An integer, or defaultValue if the keyword is absent. */
    int takeInteger(const std::string& key, int defaultValue);
    /** An integer from minimum to maximum (another is an error naming the range), or defaultValue if absent. */
    int takeInteger(const std::string& key, int defaultValue, int minimum, int maximum);
    /**
     * A required atom list (PLUMED's 1-based serial numbers, ranges, the labels of GROUP actions given by
     * setGroups() and of COM/CENTER actions given by setCenters()) as 0-based particle indices, a centre k of
     * the input (its definitions' order) as -1 - k. PlumedCenters::attach() turns those into a force's own centres.
     */
    std::vector<int> takeAtoms(const std::string& key);
    /**
     * The GROUP labels an atom list may name, each with its entries as takeAtoms() gives them (not owned; null for
     * none).
     */
    void setGroups(const std::map<std::string, std::vector<int>>* labelled) { groups = labelled; }
    /** The COM and CENTER actions an atom list may name (not owned; null for none). */
    void setCenters(PlumedCenters* defined) { centers = defined; }
    /** The centres set by setCenters() (null for none). */
    PlumedCenters* getCenters() const { return centers; }
    /** The keywords and flags not yet taken, in alphabetical order. */
    std::vector<std::string> remainingKeys() const;
    /** Removes the keywords and flags that are accepted and ignored. */
    void ignore(const std::vector<std::string>& keys);
    /** UNITS given as a keyword of action (PLUMED's UNITS is an action of its own) is an error that says so. */
    void rejectUnits(const std::string& action);
    /** Throws if anything was not taken, naming it: "X is not a keyword <reader> understands<where>". */
    void rejectLeftovers(const std::string& reader, const std::string& where) const;
    /** The action these keywords belong to (quoted in errors). */
    const std::string& getLine() const { return line; }
    /** An OpenMMException that quotes the action. */
    OpenMM::OpenMMException error(const std::string& what) const;
    /** The text parsed as a number (finite), or an error naming key. */
    double number(const std::string& text, const std::string& key) const;
    /** The text parsed as an int, or an error naming key. */
    int integer(const std::string& text, const std::string& key) const;
    /** The text parsed as an int from minimum to maximum, or an error naming key (and the range). */
    int integer(const std::string& text, const std::string& key, int minimum, int maximum) const;

private:
    /** A PLUMED atom number (1 to INT_MAX; 0 is left to the caller's "below 1" message), or an error naming key. */
    int atomNumber(const std::string& text, const std::string& key) const;
    std::map<std::string, std::string> values;
    std::map<std::string, bool> flags;
    std::string line;
    const std::map<std::string, std::vector<int>>* groups = nullptr;
    PlumedCenters* centers = nullptr;
};

/**
 * One PLUMED action on one line: its label ("c:" or LABEL=c; "" if none), its name (COORDINATION, UNITS,
 * ...) and its keywords. split() turns PLUMED input into such lines.
 */
class PlumedAction {
public:
    /**
     * The actions of PLUMED input, each on one line, in order: '#' starts a comment, an action whose first
     * line ends with "..." goes on to a line that starts with "..." (optionally followed by the action's
     * name or label), ENDPLUMED ends the input.
     */
    static std::vector<std::string> split(const std::string& text);
    /** The text of PLUMED input: the file at pathOrText if there is one, else pathOrText itself. */
    static std::string readText(const std::string& pathOrText);
    /** The label and name of an action line, without reading its keywords (split's continuation rule). */
    static void labelAndName(const std::string& text, std::string& label, std::string& name);
    /** Parse an action line (a label given both as "c:" and LABEL= is an error). */
    explicit PlumedAction(const std::string& text);
    /** Throws if the text holds a NUL byte, naming its position (an error message would end at it). */
    static void rejectNulBytes(const std::string& text);
    const std::string& getText() const { return text; }
    const std::string& getLabel() const { return label; }
    const std::string& getName() const { return name; }
    PlumedKeywords& keywords() { return actionKeywords; }

private:
    PlumedAction(const std::string& text, const std::vector<std::string>& words);
    std::string text, label, name;
    PlumedKeywords actionKeywords;
};

/** An error in PLUMED input: "PLUMED input: <what> (in "<the action, trimmed>")". */
OpenMM::OpenMMException plumedInputError(const std::string& action, const std::string& what);
/** Text that reads back to the same double (without an exponent where the value does not need one). */
std::string plumedNumber(double value);
/** PLUMED's atom list for 0-based indices: runs of consecutive atoms as ranges ("1-4,7"). */
std::string plumedAtomList(const std::vector<int>& atoms);
/**
 * PLUMED's atom list for 0-based indices and centres (an entry -1 - k is written centerLabels[k]): runs of
 * consecutive atoms as ranges ("c_c1,1-4,7").
 */
std::string plumedAtomList(const std::vector<int>& atoms, const std::vector<std::string>& centerLabels);

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDACTION_H_*/
