#ifndef COMMON_PAIR_PROGRAM_H_
#define COMMON_PAIR_PROGRAM_H_

#include "pairs/CommonPairArrays.h"
#include "pairs/CommonPairBody.h"
#include "pairs/CommonPairPlan.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeProgram.h"

namespace CoordinationPlugin {

/**
 * The pair traversal's program for one plan: the kernel sources with the plan's sizes and modes, the cutoff, culling
 * and neighbour-list settings, the centres' and the switching function's constants compiled in as defines, and the
 * body's defines, code and source (CommonPairBody).
 */
class CommonPairProgram {
public:
    /**
     * Compile the program (one compileProgram call); path receives the SwitchingPath its switching function code
     * takes. Throws if the force cannot be evaluated in the context's precision.
     */
    static OpenMM::ComputeProgram compile(OpenMM::ComputeContext& cc, const CommonPairPlan& plan,
                                          const ResolvedPairGroups& groups, const CommonPairArrays& arrays,
                                          CommonPairBody& body, SwitchingPath& path);
};

} // namespace CoordinationPlugin

#endif /*COMMON_PAIR_PROGRAM_H_*/
