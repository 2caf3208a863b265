#ifndef OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_
#define OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_

#include "internal/energy/ResolvedEnergy.h"
#include "internal/groups/ResolvedPairGroups.h"

namespace CoordinationPlugin {

/**
 * A validated CoordinationForce with everything its kernels need resolved once (CoordinationForceImpl::resolve, at
 * context creation and in updateParametersInContext): its pairs (ResolvedPairGroups) and its energy E(s). Every
 * platform's kernel is initialized from it (as TorchForceImpl hands its kernel the loaded module), so no kernel
 * re-derives a setting. Copy it by construction or move it (see ResolvedPairGroups).
 */
struct ResolvedCoordinationForce : ResolvedPairGroups {
    /** E(s): one variable, "s". */
    ResolvedEnergy energy;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_*/
