#ifndef COMMON_CONTACTMAP_ARRAYS_H_
#define COMMON_CONTACTMAP_ARRAYS_H_

#include "CommonContactMapPlan.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The device arrays of a ContactMapForce's GPU kernel, allocated and uploaded once per resolved map (at context
 * creation and in copyParametersToContext); every array has at least one entry. Per device slot (the plan's order):
 * the members, their current atoms, the switching function's numbers, the gradient; per contact (user order) its
 * value; per centre and centre entry what the centres need (contactmap.cc describes each layout).
 */
struct CommonContactMapArrays {
    /**
     * Allocate and upload. In single and mixed precision a contact's number beyond float's range is refused (an
     * OpenMMException naming the contact), and one below float's smallest normal number is 0, as the
     * CoordinationForce kernel prints its constants.
     */
    void initialize(OpenMM::ComputeContext& cc, const CommonContactMapPlan& plan, const ResolvedContactMap& force);

    OpenMM::ComputeArray contactParticles;   // int4 per slot: the user's particles (centre k: -1 - k), their unique indices
    OpenMM::ComputeArray contactAtoms;       // int4 per slot: the same with current atoms (translateContactMembers)
    OpenMM::ComputeArray contactParams0, contactParams1; // real4 per slot
    OpenMM::ComputeArray contactOrder;       // int per slot: the user's index
    OpenMM::ComputeArray contactGradients;   // real4 per slot
    OpenMM::ComputeArray contactValues;      // mixed per contact
    OpenMM::ComputeArray variableDerivatives; // mixed per contact (Components: dE/dcontact_n)
    OpenMM::ComputeArray centerRanges;       // int4 per centre: first entry, end, made whole
    OpenMM::ComputeArray centerEntries;      // int4 per entry: particle, unique index, centre
    OpenMM::ComputeArray centerEntryAtoms;   // int per entry: current atom
    OpenMM::ComputeArray centerWeights;      // real2 per entry: w_j / W, T_j / W
    OpenMM::ComputeArray centerPositions;    // real4 per centre: its anchor's hi (w: a particle not finite)
    OpenMM::ComputeArray centerOffsets;      // real4 per centre: the anchor's lo plus the centre's offset
    OpenMM::ComputeArray centerCells;        // real4 per centre: the anchor's cell
    OpenMM::ComputeArray centerForces;       // long long, 3 per centre (fixed point)
    OpenMM::ComputeArray positionOfParticle; // int per atom (invertAtomOrder)
    OpenMM::ComputeArray cellOffsets;        // int4 per unique particle
    OpenMM::ComputeArray partialSums;        // mixed per block of computeContacts
    OpenMM::ComputeArray partialFlags;       // int per block of computeContacts
    OpenMM::ComputeArray globals;            // mixed per global parameter
    OpenMM::ComputeArray results;            // mixed: s, dE/ds, E
    OpenMM::ComputeArray parameterDerivativeIndices, parameterDerivativePlaceholder;
};

} // namespace CoordinationPlugin

#endif /*COMMON_CONTACTMAP_ARRAYS_H_*/
