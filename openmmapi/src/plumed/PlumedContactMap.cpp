#include "internal/plumed/PlumedContactMap.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include "internal/plumed/PlumedCenters.h"
#include "internal/plumed/PlumedCoordination.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <functional>
#include <memory>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

const char* const Reader = "ContactMapForce";

/** One contact's settings (ContactMapForce::addContact()'s). */
struct Contact {
    int particle1 = 0, particle2 = 0;
    SwitchingSettings switching;
    double reference = 0.0, weight = 1.0;
};

/** How many of KEY1, KEY2, ... are given, counting from 1 up to the first that is missing (PLUMED's rule), at most limit. */
int countNumbered(const PlumedKeywords& keywords, const string& key, int limit) {
    int count = 0;
    while (count < limit && keywords.has(key + std::to_string(count + 1)))
        count++;
    return count;
}

/**
 * A contact's switching settings with the map's Custom expression where it has none of its own, checked as a Context
 * checks them: what it refuses is named with the contact, through error.
 */
SwitchingSettings switchOf(const Contact& contact, const string& customExpression, const string& which,
                           const std::function<OpenMMException(const string&)>& error) {
    SwitchingSettings switching = contact.switching;
    if (switching.getType() == CoordinationBiasForce::Custom && switching.getCustomExpression().empty())
        switching.setCustomExpression(customExpression);
    try {
        SwitchingFunctionConstants::resolve(switching, "");
    } catch (const OpenMMException& refused) {
        throw error(which + ": " + refused.what());
    }
    return switching;
}

/**
 * REFERENCE1, REFERENCE2, ... (or WEIGHT...) as PLUMED reads them: the numbered values up to the first missing
 * number, the others defaultValue; without REFERENCE1 the bare REFERENCE= (or defaultValue) for every contact.
 * Returns how many numbered values were given.
 */
int readNumbered(PlumedKeywords& keywords, const string& key, vector<double>& values, double defaultValue) {
    const int given = countNumbered(keywords, key, values.size());
    for (size_t i = 0; i < values.size(); i++)
        values[i] = defaultValue;
    if (given == 0) {
        const double all = keywords.takeNumber(key, defaultValue);
        for (double& value : values)
            value = all;
    }
    else {
        if (keywords.has(key))
            throw keywords.error(key + "= and " + key + "1= are two forms; give one " + key + " for every contact or " +
                                 key + "1, " + key + "2, ...");
        for (int i = 0; i < given; i++)
            values[i] = keywords.takeNumber(key + std::to_string(i + 1), defaultValue);
    }
    return given;
}

/** A numbered keyword left over (KEY7 with 5 contacts, or after a gap), named with PLUMED's rule; else nothing. */
void rejectNumberedLeftovers(const PlumedKeywords& keywords, int numContacts) {
    for (const string& key : keywords.remainingKeys())
        for (const char* numbered : {"ATOMS", "SWITCH", "REFERENCE", "WEIGHT"}) {
            const string stem = numbered;
            if (key.size() > stem.size() && key.compare(0, stem.size(), stem) == 0 &&
                key.find_first_not_of("0123456789", stem.size()) == string::npos)
                throw keywords.error(key + " is not read: PLUMED reads " + stem + "1, " + stem + "2, ... up to the first "
                                     "missing number, and this CONTACTMAP has " + std::to_string(numContacts) +
                                     " contact" + (numContacts == 1 ? "" : "s") + " (ATOMS1 to ATOMS" +
                                     std::to_string(numContacts) + "); number them from 1 without gaps");
        }
}

} // namespace

const char* const PlumedContactMap::Name = "CONTACTMAP";

ContactMapForce* PlumedContactMap::read(PlumedAction& action, double nm) {
    PlumedKeywords& keywords = action.keywords();
    keywords.rejectUnits("CONTACTMAP");
    for (const char* keyword : {"R_0", "D_0", "NN", "MM", "D_MAX"})
        if (keywords.has(keyword))
            throw keywords.error(string(keyword) + " is not a keyword of CONTACTMAP: PLUMED reads its switching functions "
                                 "only as SWITCH={TYPE ...} (every contact) or SWITCH1={...}, SWITCH2={...}, ...; "
                                 "write e.g. SWITCH={RATIONAL R_0=0.5}");
    if (keywords.has("ATOMS"))
        throw keywords.error("ATOMS is not a keyword of CONTACTMAP: a contact is a numbered pair, ATOMS1=a,b ATOMS2=c,d ...");
    const bool sum = keywords.takeFlag("SUM"), distance = keywords.takeFlag("CMDIST");
    if (sum && distance)
        throw keywords.error("SUM and CMDIST cannot be used together (PLUMED: \"You cannot use SUM and CMDIST "
                             "together\"); give SUM for the sum of the contacts or CMDIST for the distance from the "
                             "REFERENCE map");
    const bool periodic = !keywords.takeFlag("NOPBC");
    // PLUMED's parallelization and numerical derivatives: accepted, not needed.
    keywords.ignore({"SERIAL", "NUMERICAL_DERIVATIVES"});

    // The contacts: ATOMS1, ATOMS2, ... up to the first missing number.
    vector<Contact> contacts;
    vector<int*> entries;
    for (int n = 1; keywords.has("ATOMS" + std::to_string(n)); n++) {
        const string key = "ATOMS" + std::to_string(n);
        const vector<int> atoms = keywords.takeAtoms(key);
        if (atoms.size() != 2)
            throw keywords.error(key + " lists " + std::to_string(atoms.size()) + " atom" + (atoms.size() == 1 ? "" : "s") +
                                 " (PLUMED: \"" + key + " keyword has the wrong number of atoms\"); a contact is two "
                                 "atoms, " + key + "=a,b");
        contacts.emplace_back();
        contacts.back().particle1 = atoms[0];
        contacts.back().particle2 = atoms[1];
    }
    const int numContacts = contacts.size();
    if (numContacts == 0)
        throw keywords.error("CONTACTMAP needs at least one contact: ATOMS1=a,b (then ATOMS2, ATOMS3, ...)");
    for (Contact& contact : contacts) {
        entries.push_back(&contact.particle1);
        entries.push_back(&contact.particle2);
    }

    // The switching functions: SWITCH1, SWITCH2, ... for every contact, or one SWITCH for all.
    const int numSwitches = countNumbered(keywords, "SWITCH", numContacts);
    if (numSwitches == 0 && !keywords.has("SWITCH"))
        throw keywords.error("no switching function: give SWITCH={TYPE ...} for every contact, or SWITCH1={...} to "
                             "SWITCH" + std::to_string(numContacts) + "={...}");
    if (numSwitches > 0 && numSwitches < numContacts)
        throw keywords.error("SWITCH" + std::to_string(numSwitches + 1) + " is missing: with numbered switching "
                             "functions every contact needs its own (SWITCH1 to SWITCH" + std::to_string(numContacts) +
                             "), or give one SWITCH={...} for all");
    if (numSwitches > 0 && keywords.has("SWITCH"))
        throw keywords.error("SWITCH= and SWITCH1= are two forms; give one SWITCH for every contact or SWITCH1, "
                             "SWITCH2, ...");
    string customExpression;
    int customContact = -1;
    const string shared = (numSwitches == 0 ? keywords.take("SWITCH") : string());
    for (int i = 0; i < numContacts; i++) {
        const string key = (numSwitches == 0 ? string("SWITCH") : "SWITCH" + std::to_string(i + 1));
        SwitchingSettings& read = contacts[i].switching;
        PlumedCoordination::readSwitch(numSwitches == 0 ? shared : keywords.take(key), keywords, read, nm, key, Reader);
        if (read.getType() != CoordinationBiasForce::Custom)
            continue;
        if (customContact < 0) {
            customExpression = read.getCustomExpression();
            customContact = i;
        }
        else if (read.getCustomExpression() != customExpression)
            throw keywords.error(key + "'s FUNC=" + read.getCustomExpression() + " differs from SWITCH" +
                                 std::to_string(customContact + 1) + "'s FUNC=" + customExpression +
                                 ": a ContactMapForce has one CUSTOM expression for all its contacts (each keeps "
                                 "its own R_0, D_0 and D_MAX); give every CUSTOM contact the same FUNC");
    }

    // References (default 0) and weights (default 1).
    vector<double> references(numContacts), weights(numContacts);
    const int numReferences = readNumbered(keywords, "REFERENCE", references, 0.0);
    // PLUMED's check counts REFERENCE1, REFERENCE2, ..., and a bare REFERENCE= as one less than the contacts.
    if (distance && numReferences == 0 && numContacts <= 1)
        throw keywords.error("with CMDIST one must use REFERENCE to set up the reference contact map (PLUMED's rule; "
                             "with one contact write REFERENCE1=)");
    readNumbered(keywords, "WEIGHT", weights, 1.0);
    rejectNumberedLeftovers(keywords, numContacts);
    keywords.rejectLeftovers(Reader, " in CONTACTMAP");

    const ContactMapForce::Reduction reduction = (sum ? ContactMapForce::Sum
                                                      : distance ? ContactMapForce::Distance : ContactMapForce::Components);
    std::unique_ptr<ContactMapForce> force(new ContactMapForce(reduction == ContactMapForce::Components ? "0" : "s", reduction));
    if (!action.getLabel().empty())
        force->setName(action.getLabel());
    force->setUsesPeriodicBoundaryConditions(periodic);
    force->setCustomSwitchingFunction(customExpression);
    if (PlumedCenters* centers = keywords.getCenters())
        centers->attach(entries, [&](const PlumedCenter& center) {
            return force->addCenter(center.particles, center.weighting, center.weights, center.makeWhole);
        });
    for (int i = 0; i < numContacts; i++) {
        Contact& contact = contacts[i];
        contact.reference = references[i];
        contact.weight = weights[i];
        switchOf(contact, customExpression, "contact " + std::to_string(i + 1),
                 [&](const string& what) { return keywords.error(what); });
        force->addContact(contact.particle1, contact.particle2, contact.switching, contact.reference, contact.weight);
    }
    return force.release();
}

string PlumedContactMap::write(const ContactMapForce& force, const string& label) {
    const auto error = [&](const string& what) {
        return OpenMMException("PLUMED input: toPlumed cannot write this force (\"" + force.getName() + "\"): " + what);
    };
    const string name = (label.empty() ? string("c") : label);
    if (force.getNumContacts() == 0)
        throw error("it has no contacts, and PLUMED's CONTACTMAP needs at least one (ATOMS1=a,b)");
    vector<string> centerLabels;
    const string centerLines = PlumedCenters::write(PlumedCenters::centersOf(force), name, centerLabels, error);

    vector<string> atoms, switches;
    vector<double> references, weights;
    bool anyReference = false, anyWeight = false, oneSwitch = true;
    for (int i = 0; i < force.getNumContacts(); i++) {
        Contact contact;
        force.getContactParameters(i, contact.particle1, contact.particle2, contact.switching, contact.reference,
                                   contact.weight);
        const string which = "contact " + std::to_string(i);
        for (int particle : {contact.particle1, contact.particle2})
            if (particle < -force.getNumCenters())
                throw error(which + " names the centre " + std::to_string(particle) + ", but the force has " +
                            std::to_string(force.getNumCenters()) + " centres; use a particle index or an id addCenter() "
                            "returned");
        if (!std::isfinite(contact.reference) || !std::isfinite(contact.weight))
            throw error(which + "'s reference " + plumedNumber(contact.reference) + " and weight " +
                        plumedNumber(contact.weight) + " must be finite");
        const SwitchingSettings settings = switchOf(contact, force.getCustomSwitchingFunction(), which, error);
        atoms.push_back(plumedAtomList({contact.particle1}, centerLabels) + "," +
                        plumedAtomList({contact.particle2}, centerLabels));
        // CONTACTMAP has no keyword form: an automatic cutoff is written as its value.
        switches.push_back(PlumedCoordination::writeSwitch(settings, false, "SWITCH"));
        oneSwitch = oneSwitch && switches.back() == switches.front();
        references.push_back(contact.reference);
        weights.push_back(contact.weight);
        anyReference = anyReference || contact.reference != 0.0;
        anyWeight = anyWeight || contact.weight != 1.0;
    }
    // PLUMED reads REFERENCEn and WEIGHTn up to the first missing number: all or none are written. CMDIST
    // always has its references, which PLUMED requires with one contact.
    const bool writeReferences = anyReference || force.getReduction() == ContactMapForce::Distance;
    string text = centerLines + name + ": CONTACTMAP ...\n";
    for (size_t i = 0; i < atoms.size(); i++) {
        const string n = std::to_string(i + 1);
        text += "  ATOMS" + n + "=" + atoms[i];
        if (!oneSwitch)
            text += " SWITCH" + n + switches[i].substr(string(" SWITCH").size());
        if (writeReferences)
            text += " REFERENCE" + n + "=" + plumedNumber(references[i]);
        if (anyWeight)
            text += " WEIGHT" + n + "=" + plumedNumber(weights[i]);
        text += "\n";
    }
    if (oneSwitch)
        text += " " + switches.front() + "\n";
    if (force.getReduction() == ContactMapForce::Sum)
        text += "  SUM\n";
    else if (force.getReduction() == ContactMapForce::Distance)
        text += "  CMDIST\n";
    if (!force.usesPeriodicBoundaryConditions())
        text += "  NOPBC\n";
    return text + "...\n";
}
