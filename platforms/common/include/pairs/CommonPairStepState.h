#ifndef COMMON_PAIR_STEP_STATE_H_
#define COMMON_PAIR_STEP_STATE_H_

#include "pairs/CommonPairPlan.h"
#include "openmm/Vec3.h"

namespace CoordinationPlugin {

/** What the pair traversal's host code carries from one evaluation to the next; starts afresh at every build. */
struct CommonPairStepState {
    CommonPairStepState() = default;
    explicit CommonPairStepState(const CommonPairPlan& plan) : listCapacity(plan.firstListCapacity) {}
    // Spatial order (culling): re-sorted every SortInterval evaluations and at the first.
    int evaluationsSinceSort = 0;
    bool needSort = true;
    // Neighbour list (culling).
    int listCapacity = 1;              // chunks the list has room for (grown by growList)
    int listParity = 0;                // the evaluation's parity: which list rebuild flag and non-finite flag it uses
    bool forceListRebuild = true;      // the next evaluation must rebuild (first use, list left unused)
    bool checkListSize = false;        // download the list's size at the next evaluation
    bool firstListBuild = true;        // read the size of the context's first list as soon as it is built
    OpenMM::Vec3 lastBox[3];           // the box the list was built in
    bool listUsed = false;             // whether the last evaluation's tile kernel was told to use the list
};

} // namespace CoordinationPlugin

#endif /*COMMON_PAIR_STEP_STATE_H_*/
