#ifndef OPENMM_COORDINATION_RESOLVEDCONTACTMAP_H_
#define OPENMM_COORDINATION_RESOLVEDCONTACTMAP_H_

#include "ContactMapForce.h"
#include "internal/centres/ResolvedCenters.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include "internal/energy/ResolvedEnergy.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A validated ContactMapForce with everything its kernels need resolved once (ContactMapForceImpl::resolve, at
 * context creation and in updateParametersInContext). Contacts with the same switching settings share one entry of
 * switchings. Copy it by construction or move it (Lepton's copy assignment of an empty ParsedExpression
 * dereferences null).
 */
struct ResolvedContactMap {
    /**
     * Members closer than this (squared, nm^2: 1e-8 nm) have r = 0: the contact counts sigma(0) and has no force (a
     * zero-length distance has no direction), as PLUMED's CONTACTMAP, which evaluates sigma at the distance.
     */
    static constexpr double zeroDistanceSquared = 1e-16;
    ContactMapForce::Reduction reduction = ContactMapForce::Sum;
    bool periodic = false;
    /** Per contact: the member ids (a particle index, or centers.numParticles + k for centre k). */
    std::vector<int> particle1, particle2;
    /** Per contact: ref_n and w_n. */
    std::vector<double> reference, weight;
    /** Per contact: its index into switchings. */
    std::vector<int> switchingIndex;
    /** The distinct switching functions' constants (SwitchingFunctionConstants::resolve). */
    std::vector<SwitchingFunctionConstants> switchings;
    /** The Custom expression the contacts of type Custom share ("" if no contact is Custom). */
    std::string customExpression;
    ResolvedCenters centers;
    /** Every particle that a contact or a centre uses, once, in increasing order. */
    std::vector<int> uniqueParticles;
    /** The energy of the variables: s (Sum, Distance) or contact_1 .. contact_N (Components). */
    ResolvedEnergy energy;
    int getNumContacts() const { return particle1.size(); }
    /** "contact k (particles a, b)" (the user's ids), as every message about a contact names it. */
    static std::string contactName(int index, int particle1, int particle2) {
        return "contact " + std::to_string(index) + " (particles " + std::to_string(particle1) + ", " +
               std::to_string(particle2) + ")";
    }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDCONTACTMAP_H_*/
