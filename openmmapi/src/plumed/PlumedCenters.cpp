#include "internal/plumed/PlumedCenters.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <sstream>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

const char* const ComName = "COM";
const char* const CenterName = "CENTER";

/** WEIGHTS=w1,w2,... of CENTER: one finite number per atom, their sum not 0. */
vector<double> readWeights(PlumedKeywords& keywords, const string& text, size_t numAtoms) {
    vector<string> items;
    std::stringstream stream(text);
    string item;
    while (std::getline(stream, item, ','))
        items.push_back(item);
    if (items.size() == 1) {
        if (text == "@Charges")
            throw keywords.error("WEIGHTS=@Charges (the centre of charge) is not supported; give the charges as numbers, "
                                 "WEIGHTS=q1,q2,..., one per atom");
        throw keywords.error("WEIGHTS=" + text + " has one entry, which PLUMED reads as the label of an action that "
                             "computes the weights; give one weight per atom (" + std::to_string(numAtoms) + " here), "
                             "or leave WEIGHTS out for the geometric centre");
    }
    if (items.size() != numAtoms)
        throw keywords.error("WEIGHTS has " + std::to_string(items.size()) + " entries and ATOMS " +
                             std::to_string(numAtoms) + " atoms (PLUMED: the number of elements in the weight vector "
                             "does not match the number of atoms); give one weight per atom");
    vector<double> weights;
    double sum = 0.0;
    for (const string& weight : items) {
        weights.push_back(keywords.number(weight, "WEIGHTS"));
        sum += weights.back();
    }
    if (sum == 0.0)
        throw keywords.error("the WEIGHTS sum to 0, so the centre (sum w_i x_i / sum w_i) is not defined; give weights "
                             "with a sum other than 0");
    return weights;
}

} // namespace

bool PlumedCenters::isCenter(const string& name) {
    return name == ComName || name == CenterName;
}

PlumedCenter PlumedCenters::read(PlumedAction& action) {
    PlumedKeywords& keywords = action.keywords();
    const string& name = action.getName();
    PlumedCenter center;
    center.particles = keywords.takeAtoms("ATOMS");
    for (int atom : center.particles)
        if (atom < 0)
            throw keywords.error("ATOMS names a COM or CENTER: a centre of centres is not supported; list its atoms");
    for (const char* phases : {"PHASES", "SAFE_PHASES"})
        if (keywords.takeFlag(phases))
            throw keywords.error(string(phases) + " (a centre from the atoms' trigonometric phases in the box) is not "
                                 "supported; remove it for the centre of the group made whole (PLUMED's default)");
    center.makeWhole = !keywords.takeFlag("NOPBC");
    // The virtual atom's own mass and charge: no force here uses them.
    keywords.ignore({"SET_MASS", "SET_CHARGE"});
    if (name == ComName)
        center.weighting = CoordinationBiasForce::CenterOfMass;
    else {
        const bool mass = keywords.takeFlag("MASS");
        const string weights = keywords.take("WEIGHTS");
        if (mass && !weights.empty())
            throw keywords.error("WEIGHTS and MASS cannot be used together; give one of them");
        if (mass || weights == "@Masses")
            center.weighting = CoordinationBiasForce::CenterOfMass;
        else if (!weights.empty()) {
            center.weighting = CoordinationBiasForce::WeightedCenter;
            center.weights = readWeights(keywords, weights, center.particles.size());
        }
    }
    keywords.rejectLeftovers("the PLUMED translator", " in " + name);
    return center;
}

void PlumedCenters::define(PlumedAction& action, size_t index) {
    Definition definition;
    definition.label = action.getLabel();
    definition.description = (definition.label.empty() ? action.getName() : definition.label + ": " + action.getName());
    definition.index = index;
    try {
        definition.center = read(action);
    } catch (const OpenMMException& refused) {
        definition.error = refused.what();
    }
    if (!definition.label.empty())
        byLabel[definition.label] = definitions.size();
    definitions.push_back(definition);
}

int PlumedCenters::indexOf(const string& label) const {
    const auto found = byLabel.find(label);
    if (found == byLabel.end())
        return -1;
    if (!definitions[found->second].error.empty())
        throw OpenMMException(definitions[found->second].error);
    return found->second;
}

void PlumedCenters::attach(const vector<int*>& entries, const std::function<int(const PlumedCenter&)>& addCenter) {
    vector<bool> named(definitions.size(), attachEvery);
    for (int* entry : entries)
        if (*entry < 0)
            named[-1 - *entry] = true;
    vector<int> forceIds(definitions.size(), 0);
    for (size_t k = 0; k < definitions.size(); k++)
        if (named[k]) {
            if (!definitions[k].error.empty())
                throw OpenMMException(definitions[k].error);
            forceIds[k] = addCenter(definitions[k].center);
            definitions[k].used = true;
        }
    for (int* entry : entries)
        if (*entry < 0)
            *entry = forceIds[-1 - *entry];
}

void PlumedCenters::attachTo(const PlumedKeywords& keywords, PairSwitchingForce& force) {
    PlumedCenters* centers = keywords.getCenters();
    if (centers == nullptr)
        return;
    vector<int> groupA = force.getGroupA(), groupB = force.getGroupB();
    vector<int*> entries;
    for (int& entry : groupA)
        entries.push_back(&entry);
    for (int& entry : groupB)
        entries.push_back(&entry);
    centers->attach(entries, [&](const PlumedCenter& center) {
        return force.addCenter(center.particles, center.weighting, center.weights, center.makeWhole);
    });
    force.setGroupA(groupA);
    force.setGroupB(groupB);
}

vector<std::pair<size_t, string>> PlumedCenters::unused() const {
    vector<std::pair<size_t, string>> notRead;
    for (const Definition& definition : definitions)
        if (!definition.used)
            notRead.emplace_back(definition.index, definition.description);
    return notRead;
}

vector<PlumedCenter> PlumedCenters::centersOf(const CoordinationBiasForce& force) {
    vector<PlumedCenter> centers(force.getNumCenters());
    for (int k = 0; k < force.getNumCenters(); k++)
        force.getCenterParameters(k, centers[k].particles, centers[k].weighting, centers[k].weights, centers[k].makeWhole);
    return centers;
}

string PlumedCenters::write(const vector<PlumedCenter>& centers, const string& label, vector<string>& labels,
                            const std::function<OpenMMException(const string&)>& error) {
    string lines;
    labels.clear();
    for (size_t k = 0; k < centers.size(); k++) {
        const PlumedCenter& center = centers[k];
        const string which = "centre " + std::to_string(k) + " (id " + std::to_string(-1 - (long) k) + ")";
        if (center.particles.empty())
            throw error(which + " has no particles; give it at least one");
        for (int particle : center.particles)
            if (particle < 0)
                throw error(which + " lists the particle index " + std::to_string(particle) +
                            "; a centre's particles are particle indices (0 or more)");
        const bool weighted = (center.weighting == CoordinationBiasForce::WeightedCenter);
        if (!weighted && !center.weights.empty())
            throw error(which + " has weights but is not a WeightedCenter; use CoordinationBiasForce::WeightedCenter or no "
                                "weights");
        if (weighted) {
            if (center.weights.size() != center.particles.size())
                throw error(which + " has " + std::to_string(center.weights.size()) + " weights for " +
                            std::to_string(center.particles.size()) + " particles; give one weight per particle");
            if (center.particles.size() == 1)
                throw error(which + " is a WeightedCenter of one particle, which PLUMED cannot write (it reads WEIGHTS= "
                                    "with one entry as an action's label); make it a GeometricCenter, the same point");
            double sum = 0.0;
            for (double weight : center.weights) {
                if (!std::isfinite(weight))
                    throw error(which + " has the weight " + plumedNumber(weight) + "; weights must be finite");
                sum += weight;
            }
            if (sum == 0.0)
                throw error(which + "'s weights sum to 0; give weights with a sum other than 0");
        }
        labels.push_back(label + "_c" + std::to_string(k + 1));
        string line = labels.back() + ": " +
                      (center.weighting == CoordinationBiasForce::CenterOfMass ? ComName : CenterName) +
                      " ATOMS=" + plumedAtomList(center.particles);
        if (weighted) {
            line += " WEIGHTS=";
            for (size_t j = 0; j < center.weights.size(); j++)
                line += (j == 0 ? "" : ",") + plumedNumber(center.weights[j]);
        }
        if (!center.makeWhole)
            line += " NOPBC";
        lines += line + "\n";
    }
    return lines;
}
