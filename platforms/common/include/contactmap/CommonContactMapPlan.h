#ifndef COMMON_CONTACTMAP_PLAN_H_
#define COMMON_CONTACTMAP_PLAN_H_

#include "CoordinationKernels.h"
#include "centres/CommonCenterLayout.h"
#include "openmm/common/ComputeContext.h"
#include <vector>

namespace CoordinationPlugin {

/**
 * What the GPU kernel of a ContactMapForce builds, decided once from the resolved map and the ComputeContext (no
 * device arrays): the sizes, one launch or several, the kinds of switching function (the switching settings that
 * need code of their own: the type and its compile-time numbers) and the contacts' device order, sorted by kind
 * so that each kind's contacts are one range of slots.
 */
struct CommonContactMapPlan {
    /**
     * Maps of at most this many contacts (and every Components map) are evaluated by one block in one launch:
     * such a map is latency-bound, and a second launch would cost more than the contacts.
     */
    static constexpr int SmallMapMaxContacts = 2048;
    /**
     * The small map's block: as many threads as contacts, up to this (and the device's limit), so that a thread
     * evaluates at most a few contacts one after another (the kernel is latency-bound: each contact waits on its
     * members' positions). The kernel is compiled for blocks of its size (__launch_bounds__ on CUDA), so its
     * registers fit: 512 threads leave it 128 each, above the 110 that single precision's program takes on an H200.
     * Not more: with 1,024 threads the double-precision contacts would spill their registers (a block of 1,024
     * threads without the bound failed with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
     */
    static constexpr int MaxSmallBlockSize = 512;
    /** The blocks of the large map's kernels (a thread per contact). */
    static constexpr int ContactBlockSize = 256;

    /** Decide everything for `force` on `cc`. */
    static CommonContactMapPlan create(const ResolvedContactMap& force, OpenMM::ComputeContext& cc);

    ContactMapForce::Reduction reduction = ContactMapForce::Sum;
    bool periodic = false;          // the contacts' distances are minimum images
    bool unwrapPositions = false;   // positions as the user gave them (non-periodic force, or a centre not made whole)
    bool useDouble = false;         // the kernel's "real" is double (in every precision, where the device has double)
    bool mixedIsDouble = false;     // the kernel's "mixed" type (sums, energy, global parameters) is double
    int numContacts = 0, numCenters = 0, numCenterEntries = 0, numUnique = 0;
    CommonCenterLayout centers;     // small centres: the small map's block computes them
    bool smallMap = false;          // one launch of one block
    int blockSize = 0;              // threads per block (the small map's one block, or the large map's kernels')
    int contactWorkUnits = 0;       // large map: threads of computeContacts
    int numPartials = 0;            // large map: blocks of computeContacts, a partial sum each
    int finishWorkUnits = 0;        // large map: threads of finishContacts
    // The kinds: kindOf[switching index], a representative switching of each kind, each kind's end slot.
    std::vector<int> kindOf, kindRepresentative, kindEnd;
    /** The user's contact index of each device slot (sorted by kind, stably). */
    std::vector<int> slotContact;
    bool inUserOrder = true;        // slotContact is the identity
};

} // namespace CoordinationPlugin

#endif /*COMMON_CONTACTMAP_PLAN_H_*/
