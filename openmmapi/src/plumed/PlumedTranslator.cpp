#include "PlumedTranslator.h"
#include "internal/plumed/PlumedForceOf.h"
#include "ContactMapForce.h"
#include "internal/plumed/PlumedAction.h"
#include "internal/plumed/PlumedCenters.h"
#include "internal/plumed/PlumedContactMap.h"
#include "internal/plumed/PlumedCoordination.h"
#include "internal/plumed/PlumedLocalSteps.h"
#include "internal/plumed/PlumedPerAtom.h"
#include "internal/plumed/PlumedVectorFunctions.h"
#include "SteinhardtForce.h"
#include <algorithm>
#include <map>
#include <memory>
#include <set>

using namespace CoordinationPlugin;
using OpenMM::Force;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

/** PLUMED's UNITS action: the length unit in nm (LENGTH=nm, A, um, Bohr or a number of nm). */
double lengthUnit(PlumedAction& action) {
    PlumedKeywords& keywords = action.keywords();
    const string length = keywords.take("LENGTH");
    double nm = 1.0;
    if (length == "A")
        nm = 0.1;
    else if (length == "um")
        nm = 1000.0;
    else if (length == "Bohr")
        nm = 0.052917721067;
    else if (!length.empty() && length != "nm")
        nm = keywords.number(length, "LENGTH");
    if (!(nm > 0))
        throw keywords.error("LENGTH=" + length + " must be positive");
    if (keywords.takeFlag("NATURAL"))
        throw keywords.error("UNITS NATURAL is not supported: give LENGTH=nm, A, um, Bohr or a number of nm");
    // Energy, time, mass and charge units change no coordination number (a force's energy is its own
    // expression, in kJ/mol).
    keywords.ignore({"ENERGY", "TIME", "MASS", "CHARGE"});
    keywords.rejectLeftovers("the PLUMED translator", " in UNITS");
    return nm;
}

/**
 * The force an action becomes, or null if the translator does not read that action; functions knows the earlier
 * per-atom actions by label, and sources are set to those a local action reads (its SPECIES, or SPECIESA and SPECIESB).
 */
Force* forceOf(PlumedAction& action, double nm, const PlumedVectorFunctions& functions,
               vector<const PerAtomForce*>& sources) {
    sources.clear();
    if (action.getName() == PlumedCoordination::Name)
        return PlumedCoordination::read(action, nm);
    if (PlumedPerAtom::isAction(action.getName()))
        return PlumedPerAtom::read(action, nm);
    if (PlumedLocalSteps::isAction(action.getName()))
        return PlumedLocalSteps::read(action, nm, [&](const string& label) {
            const PerAtomForce* source = functions.vectorOf(label);
            sources.push_back(source);
            return source;
        });
    if (action.getName() == PlumedContactMap::Name)
        return PlumedContactMap::read(action, nm);
    return nullptr;
}

/** PLUMED's GROUP action: its atoms (ATOMS, less REMOVE, then SORT or UNIQUE), which later atom lists name by its label. */
vector<int> groupAtoms(PlumedAction& action) {
    PlumedKeywords& keywords = action.keywords();
    if (keywords.has("NDX_FILE") || keywords.has("NDX_GROUP"))
        throw keywords.error("NDX_FILE and NDX_GROUP (a GROMACS index file) are not supported; list the atoms with ATOMS=");
    vector<int> atoms = keywords.takeAtoms("ATOMS");
    if (keywords.has("REMOVE"))
        for (int atom : keywords.takeAtoms("REMOVE")) {
            const auto found = std::find(atoms.begin(), atoms.end(), atom);
            if (found != atoms.end())
                atoms.erase(found);
        }
    const bool sort = keywords.takeFlag("SORT"), unique = keywords.takeFlag("UNIQUE");
    // PLUMED numbers its virtual atoms after the system's atoms, in the order they are defined: centre k (-1 - k
    // here) sorts after every atom and after centre k - 1.
    if (sort || unique)
        std::sort(atoms.begin(), atoms.end(), [](int a, int b) {
            if ((a < 0) != (b < 0))
                return b < 0;
            return (a < 0 ? a > b : a < b);
        });
    if (unique)
        atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
    keywords.rejectLeftovers("the PLUMED translator", " in GROUP");
    return atoms;
}

/**
 * The forces of PLUMED input's actions, in order, with UNITS applied; the other actions are described in
 * skipped. GROUP actions, the centres (COM, CENTER) that a force uses and the functions folded into a
 * CoordinationNumberForce are read, not skipped. fileForm is fromPlumedFile's reading: a force whose action has no
 * label is named "@N" as PLUMED names it (N counting every action from 0), and gets the centres it uses. Otherwise
 * (fromPlumed's one force) it keeps its class's default name and gets every centre of the input.
 */
vector<Force*> readActions(const vector<string>& actions, vector<string>& skipped, bool fileForm) {
    double nm = 1.0;
    bool unitsGiven = false;
    vector<std::unique_ptr<Force>> forces;
    std::set<string> labels;
    std::map<string, vector<int>> groups;
    PlumedVectorFunctions functions;
    std::set<const PerAtomForce*> localSources;
    PlumedCenters centers(!fileForm);
    vector<std::pair<size_t, string>> notRead;
    for (size_t i = 0; i < actions.size(); i++) {
        string label, name;
        PlumedAction::labelAndName(actions[i], label, name);
        if (!label.empty() && !labels.insert(label).second)
            throw plumedInputError(actions[i], "the label \"" + label + "\" is used by two actions; PLUMED's labels "
                                               "are unique");
        if (name == "UNITS") {
            PlumedAction units(actions[i]);
            if (unitsGiven)
                throw units.keywords().error("UNITS is given twice");
            if (!forces.empty())
                throw units.keywords().error("UNITS must come before the actions it applies to");
            nm = lengthUnit(units);
            unitsGiven = true;
            continue;
        }
        PlumedAction action(actions[i]);
        action.keywords().setGroups(&groups);
        action.keywords().setCenters(&centers);
        if (PlumedCenters::isCenter(name)) {
            centers.define(action, i);
            continue;
        }
        if (name == "GROUP") {
            const vector<int> atoms = groupAtoms(action);
            if (!action.getLabel().empty())
                groups[action.getLabel()] = atoms;
            continue;
        }
        if (functions.read(action, i))
            continue;
        vector<const PerAtomForce*> sources;
        std::unique_ptr<Force> force(forceOf(action, nm, functions, sources));
        if (!force) {
            notRead.emplace_back(i, label.empty() ? name : label + ": " + name);
            continue;
        }
        for (const PerAtomForce* source : sources)
            if (source != nullptr)
                localSources.insert(source);
        if (action.getLabel().empty() && fileForm)
            force->setName("@" + std::to_string(i));
        if (auto* perAtom = dynamic_cast<PerAtomForce*>(force.get()))
            if (!action.getLabel().empty())
                functions.addVector(action.getLabel(), perAtom);
        forces.push_back(std::move(force));
    }
    // A per-atom function (MORE_THAN ARG=c) that no SUM read is an action not read, in its place.
    for (const auto& function : functions.unused())
        notRead.push_back(function);
    // So is a centre that no force uses.
    for (const auto& center : centers.unused())
        notRead.push_back(center);
    std::stable_sort(notRead.begin(), notRead.end(),
                     [](const std::pair<size_t, string>& a, const std::pair<size_t, string>& b) { return a.first < b.first; });
    for (const auto& action : notRead)
        skipped.push_back(action.second);
    // fromPlumed's one force may be a local action with the per-atom action it reads (toPlumed's two lines): that
    // action, if it has no reductions, is part of the local force.
    vector<Force*> result;
    for (auto& force : forces) {
        auto* perAtom = dynamic_cast<const PerAtomForce*>(force.get());
        if (!fileForm && perAtom != nullptr && localSources.count(perAtom) != 0 && perAtom->getNumReductions() == 0)
            continue;
        result.push_back(force.release());
    }
    return result;
}

} // namespace

vector<Force*> PlumedTranslator::fromPlumedFile(const string& pathOrText, vector<string>& skipped) {
    skipped.clear();
    return readActions(PlumedAction::split(PlumedAction::readText(pathOrText)), skipped, true);
}

Force* PlumedTranslator::fromPlumed(const string& input) {
    vector<string> skipped;
    vector<Force*> forces = readActions(PlumedAction::split(input), skipped, false);
    if (forces.size() == 1 && skipped.empty())
        return forces[0];
    for (Force* force : forces)
        delete force;
    string found;
    for (const string& action : skipped)
        found += (found.empty() ? "" : ", ") + action;
    if (forces.empty())
        throw plumedInputError(input, "no action here becomes a force (the translator reads COORDINATION, COORDINATIONNUMBER, "
                                          "COORDINATION_MOMENTS, Q1, Q3, Q4, Q6, LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6, "
                                          "LOCAL_AVERAGE, SIMPLECUBIC, TETRAHEDRAL, FCCUBIC, "
                                          "COORDINATION_SHELL_FUNCTION and CONTACTMAP" +
                                          (found.empty() ? string(")") : "; found " + found + ")"));
    const string count = std::to_string(forces.size()) +
                         (forces.size() > 1 ? " actions that become forces" : " action that becomes a force");
    throw plumedInputError(input, "fromPlumed reads one action (and an optional UNITS, its GROUP, COM and CENTER actions); "
                                  "this input has " + count +
                                      (found.empty() ? string() : " and " + found) +
                                      ": read a whole plumed.dat with fromPlumedFile");
}

string PlumedTranslator::toPlumed(const Force& force, const string& label) {
    if (auto* contactMap = dynamic_cast<const ContactMapForce*>(&force))
        return PlumedContactMap::write(*contactMap, label);
    if (auto* perAtom = dynamic_cast<const PerAtomForce*>(&force))
        return PlumedPerAtom::write(*perAtom, label);
    if (auto* coordination = dynamic_cast<const CoordinationForce*>(&force))
        return PlumedCoordination::write(*coordination, label);
    throw OpenMMException("PLUMED input: toPlumed writes CoordinationForce, CoordinationNumberForce, SteinhardtForce, "
                          "ShellFunctionForce and ContactMapForce; this force (\"" + force.getName() +
                          "\") is of another class");
}

string CoordinationPlugin::plumedActionOf(const Force& force) {
    string name = "a force of another class";
    if (dynamic_cast<const ContactMapForce*>(&force) != nullptr)
        name = PlumedContactMap::Name;
    else if (auto* perAtom = dynamic_cast<const PerAtomForce*>(&force))
        name = (perAtom->getLocalStep() != PerAtomForce::NoLocalStep ? PlumedLocalSteps::actionName(*perAtom)
                                                                     : PlumedPerAtom::actionName(*perAtom));
    else if (dynamic_cast<const CoordinationForce*>(&force) != nullptr)
        name = PlumedCoordination::Name;
    return force.getName() + ": " + name;
}
