#ifndef COMMON_CONTACTMAP_ARRAYS_H_
#define COMMON_CONTACTMAP_ARRAYS_H_

#include "centres/CommonCenters.h"
#include "contactmap/CommonContactMapPlan.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The device arrays of a ContactMapForce's GPU kernel, allocated and uploaded once per resolved map (at context
 * creation and in copyParametersToContext); every array has at least one entry. Per device slot (the plan's order):
 * the members, their current atoms, the switching function's numbers, the gradient; per contact (user order) its
 * value; the centres (CommonCenters) and the force on each.
 */
struct CommonContactMapArrays {
    /**
     * Allocate and upload. In single and mixed precision a contact's number beyond float's range is refused (an
     * OpenMMException naming the contact), and one below float's smallest normal number is 0, as the
     * CoordinationForce kernel prints its constants.
     */
    void initialize(OpenMM::ComputeContext& cc, const CommonContactMapPlan& plan, const ResolvedContactMap& force);

    OpenMM::ComputeArray contactParticles;   // int4 per slot: the members' ids (centre k: NUM_ATOMS + k), unique indices
    OpenMM::ComputeArray contactAtoms;       // int4 per slot: the same with current atoms (translateContactMembers)
    OpenMM::ComputeArray contactParams0, contactParams1; // real4 per slot
    OpenMM::ComputeArray contactOrder;       // int per slot: the user's index
    OpenMM::ComputeArray contactGradients;   // real4 per slot
    OpenMM::ComputeArray contactValues;      // mixed per contact
    OpenMM::ComputeArray variableDerivatives; // mixed per contact (Components: dE/dcontact_n)
    CommonCenters centers;
    OpenMM::ComputeArray centerForces;       // long long, 3 per centre (fixed point)
    OpenMM::ComputeArray positionOfParticle; // int per atom (invertAtomOrder)
    OpenMM::ComputeArray cellOffsets;        // int4 per unique particle, then (unwrapped centres) per centre entry
    OpenMM::ComputeArray partialSums;        // mixed per block of computeContacts
    OpenMM::ComputeArray partialFlags;       // int per block of computeContacts
    OpenMM::ComputeArray results;            // mixed: s, dE/ds, E
};

} // namespace CoordinationPlugin

#endif /*COMMON_CONTACTMAP_ARRAYS_H_*/
