#ifndef COMMON_COORDINATION_PROGRAM_H_
#define COMMON_COORDINATION_PROGRAM_H_

#include "CommonCoordinationPlan.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeProgram.h"

namespace CoordinationPlugin {

/**
 * The GPU kernel's program for one plan: the kernel source with the plan's sizes and modes, the cutoff,
 * culling and neighbour-list settings and the switching function's constants compiled in as defines, and
 * E(s), dE/ds and dE/dlambda generated from the energy expression.
 */
class CommonCoordinationProgram {
public:
    /**
     * Compile the program (one compileProgram call); path receives the SwitchingPath its switching function
     * code takes. Throws if the force cannot be evaluated in the context's precision.
     */
    static OpenMM::ComputeProgram compile(OpenMM::ComputeContext& cc, const CommonCoordinationPlan& plan,
                                          const ResolvedCoordinationForce& force, SwitchingPath& path);
};

} // namespace CoordinationPlugin

#endif /*COMMON_COORDINATION_PROGRAM_H_*/
