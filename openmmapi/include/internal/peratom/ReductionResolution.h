#ifndef OPENMM_COORDINATION_REDUCTIONRESOLUTION_H_
#define OPENMM_COORDINATION_REDUCTIONRESOLUTION_H_

#include "PerAtomForce.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include "internal/windowsExportCoordination.h"
#include <vector>

namespace CoordinationPlugin {

/**
 * The reductions of the per-atom values, resolved: each reduction's expressions (every switching function of
 * MoreThan and LessThan written as a Lepton expression, PLUMED's definition with its clamp, cutoff and stretch),
 * checked, with messages that name the reduction.
 */
class OPENMM_EXPORT_COORDINATION ReductionResolution {
public:
    /**
     * Check and resolve the reductions of force, whose group A has numEntries entries: an OpenMMException names a
     * reduction whose parameters PLUMED would refuse, or whose name is not an identifier, is a global parameter's or
     * another reduction's.
     */
    static std::vector<ResolvedReduction> resolve(const PerAtomForce& force, int numEntries);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_REDUCTIONRESOLUTION_H_*/
