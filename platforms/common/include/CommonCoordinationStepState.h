#ifndef COMMON_COORDINATION_STEP_STATE_H_
#define COMMON_COORDINATION_STEP_STATE_H_

#include "CommonCoordinationPlan.h"
#include "openmm/Vec3.h"
#include "openmm/common/ComputeVectorTypes.h"
#include <algorithm>
#include <vector>

namespace CoordinationPlugin {

/** What the GPU kernel's host code carries from one evaluation to the next; starts afresh at every build. */
struct CommonCoordinationStepState {
    explicit CommonCoordinationStepState(const CommonCoordinationPlan& plan)
        : listCapacity(plan.firstListCapacity),
          hostCellOffsets(std::max(plan.numUnique, 1) + (plan.centerOffsets ? plan.numCenterEntries : 0),
                          OpenMM::mm_int4(0, 0, 0, 0)) {}
    // Spatial order (culling): re-sorted every SortInterval evaluations and at the first.
    int evaluationsSinceSort = 0;
    bool needSort = true;
    // Neighbour list (culling).
    int listCapacity;                  // chunks the list has room for (grown by growList)
    int listParity = 0;                // the evaluation's parity: which list rebuild flag and non-finite flag it uses
    bool forceListRebuild = true;      // the next evaluation must rebuild (first use, list left unused)
    bool checkListSize = false;        // download the list's size at the next evaluation
    bool firstListBuild = true;        // read the size of the context's first list as soon as it is built
    OpenMM::Vec3 lastBox[3];           // the box the list was built in
    bool listUsed = false;             // whether the last evaluation's tile kernel was told to use the list
    // Energy-parameter derivatives: whether the kernels point at OpenMM's buffer yet (set at the first
    // evaluation: the buffer exists only once the context is initialized).
    bool parameterDerivativeArgsSet = false;
    // Non-periodic forces (and centres' entries, where plan.centerOffsets): the periodic cells OpenMM wrapped each
    // unique particle by (what the device's cellOffsets holds), and the host copy of the current order (updated
    // when atoms are reordered).
    std::vector<OpenMM::mm_int4> hostCellOffsets;
    std::vector<int> hostPositionOfParticle;
};

} // namespace CoordinationPlugin

#endif /*COMMON_COORDINATION_STEP_STATE_H_*/
