#ifndef COORDINATION_TEST_BRUTEFORCECONTACTMAP_H_
#define COORDINATION_TEST_BRUTEFORCECONTACTMAP_H_

/*
 * An independent oracle for ContactMapForce: PLUMED's CONTACTMAP (src/colvar/ContactMap.cpp) and its COM/CENTER
 * virtual atoms (src/vatom/Center.cpp) written out again in long double, with BruteForceCoordination.h's switching
 * functions. Nothing here uses the plugin's code; the energy is a C++ function the test writes next to its expression.
 */

#include "BruteForceCoordination.h"
#include "ContactMapForce.h"
#include "openmm/Vec3.h"
#include <cmath>
#include <functional>
#include <vector>

namespace CoordinationTest {

/** One contact as the user gives it: members (a particle index, or -1 - k for centre k), settings, ref, weight. */
struct OracleContact {
    int particle1, particle2;
    SwitchingSettings settings;
    double reference = 0.0, weight = 1.0;
};

/** One centre: particles, weights (already the masses for a centre of mass) and whether it is made whole. */
struct OracleCenter {
    std::vector<int> particles;
    std::vector<double> weights;
    bool makeWhole = true;
};

/** An energy: E of the variables, and dE/dv into gradient. */
using OracleEnergy = std::function<long double(const std::vector<long double>& variables, std::vector<long double>& gradient)>;

/** What the oracle computes: every contact's value, the variables, E, and -dE/dx of every particle. */
struct OracleContactMap {
    std::vector<double> contactValues, variables;
    double energy = 0.0;
    std::vector<OpenMM::Vec3> forces;
};

namespace BruteForce {

/** The shape vector of a contact's settings (ContactMapForce::addContact's {n, m}, {a, b}, {beta, lambda, ref}). */
inline std::vector<double> shapeOf(const SwitchingSettings& settings) {
    switch (settings.getType()) {
    case CoordinationForce::Rational:
        return {(double)settings.getN(), (double)settings.getM()};
    case CoordinationForce::Smap:
        return {(double)settings.getSmapA(), (double)settings.getSmapB()};
    case CoordinationForce::NativeQ:
        return {settings.getNativeQBeta(), settings.getNativeQLambda(), settings.getNativeQReference()};
    default:
        return {};
    }
}

/** Adds the contacts and centres to a ContactMapForce. */
inline void addTo(CoordinationPlugin::ContactMapForce& force, const std::vector<OracleContact>& contacts,
                  const std::vector<OracleCenter>& centers = {}) {
    for (const OracleCenter& center : centers)
        force.addCenter(center.particles, CoordinationForce::WeightedCenter, center.weights, center.makeWhole);
    for (const OracleContact& contact : contacts) {
        const SwitchingSettings& s = contact.settings;
        force.addContact(contact.particle1, contact.particle2, s.getType(), s.getR0(), s.getD0(), s.getDMax(),
                         s.getStretch(), shapeOf(s), contact.reference, contact.weight);
    }
}

/**
 * The contact map of PLUMED's definitions at the given positions. periodic: PLUMED's PBC on (the cell's images);
 * a centre made whole puts each particle at the minimum image of the one before it, then takes the weighted mean.
 */
inline OracleContactMap contactMap(const std::vector<OracleContact>& contacts, const std::vector<OracleCenter>& centers,
                                   CoordinationPlugin::ContactMapForce::Reduction reduction, const OracleEnergy& energy,
                                   const std::vector<OpenMM::Vec3>& positions, const Cell& cell) {
    // The members' positions: the particles, then the centres.
    std::vector<LongVec> members(positions.size() + centers.size());
    for (size_t i = 0; i < positions.size(); i++)
        for (int axis = 0; axis < 3; axis++)
            members[i][axis] = positions[i][axis];
    for (size_t k = 0; k < centers.size(); k++) {
        const OracleCenter& center = centers[k];
        const std::vector<long double> weights(center.weights.begin(), center.weights.end());
        members[positions.size() + k] = centerOf(center.particles, weights, center.makeWhole, positions, cell);
    }
    auto memberIndex = [&](int id) { return id >= 0 ? (size_t) id : positions.size() + (size_t) (-1 - id); };
    // Each contact's value and its gradient with respect to its second member.
    const size_t numContacts = contacts.size();
    std::vector<long double> values(numContacts);
    std::vector<LongVec> gradients(numContacts);
    for (size_t n = 0; n < numContacts; n++) {
        const LongVec& a = members[memberIndex(contacts[n].particle1)];
        const LongVec& b = members[memberIndex(contacts[n].particle2)];
        OpenMM::Vec3 delta((double) (b[0] - a[0]), (double) (b[1] - a[1]), (double) (b[2] - a[2]));
        LongVec d;
        if (cell.periodic) {
            // The image shift in double (lattice vectors), applied to the long double difference.
            const OpenMM::Vec3 image = minimumImage(delta, cell) - delta;
            for (int axis = 0; axis < 3; axis++)
                d[axis] = (b[axis] - a[axis]) + image[axis];
        } else
            for (int axis = 0; axis < 3; axis++)
                d[axis] = b[axis] - a[axis];
        const long double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        const SigmaAndSlope term = sigma(contacts[n].settings, r);
        values[n] = contacts[n].weight * (term.value - contacts[n].reference);
        for (int axis = 0; axis < 3; axis++)
            gradients[n][axis] = (r > 0.0L ? contacts[n].weight * term.slope * d[axis] / r : 0.0L);
    }
    // The variables and the energy.
    std::vector<long double> variables;
    if (reduction == CoordinationPlugin::ContactMapForce::Components)
        variables = values;
    else {
        long double s = 0.0L;
        for (long double value : values)
            s += (reduction == CoordinationPlugin::ContactMapForce::Sum ? value : value * value);
        variables = {s};
    }
    std::vector<long double> dEdv(variables.size(), 0.0L);
    OracleContactMap result;
    result.energy = (double) energy(variables, dEdv);
    // Forces on the members, the centres' spread by weight.
    std::vector<LongVec> memberForces(members.size());
    for (size_t n = 0; n < numContacts; n++) {
        long double dEdCoord = dEdv[0];
        if (reduction == CoordinationPlugin::ContactMapForce::Distance)
            dEdCoord = dEdv[0] * 2.0L * values[n];
        else if (reduction == CoordinationPlugin::ContactMapForce::Components)
            dEdCoord = dEdv[n];
        for (int axis = 0; axis < 3; axis++) {
            memberForces[memberIndex(contacts[n].particle2)][axis] -= dEdCoord * gradients[n][axis];
            memberForces[memberIndex(contacts[n].particle1)][axis] += dEdCoord * gradients[n][axis];
        }
    }
    std::vector<LongVec> forces(memberForces.begin(), memberForces.begin() + positions.size());
    for (size_t k = 0; k < centers.size(); k++) {
        long double total = 0.0L;
        for (double weight : centers[k].weights)
            total += weight;
        for (size_t j = 0; j < centers[k].particles.size(); j++)
            for (int axis = 0; axis < 3; axis++)
                forces[centers[k].particles[j]][axis] +=
                    memberForces[positions.size() + k][axis] * centers[k].weights[j] / total;
    }
    for (long double value : values)
        result.contactValues.push_back((double) value);
    for (long double variable : variables)
        result.variables.push_back((double) variable);
    for (const LongVec& force : forces)
        result.forces.push_back(OpenMM::Vec3((double) force[0], (double) force[1], (double) force[2]));
    return result;
}

} // namespace BruteForce
} // namespace CoordinationTest

#endif /*COORDINATION_TEST_BRUTEFORCECONTACTMAP_H_*/
