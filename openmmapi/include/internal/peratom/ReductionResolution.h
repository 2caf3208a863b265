#ifndef OPENMM_COORDINATION_COORDINATIONNUMBERRESOLUTION_H_
#define OPENMM_COORDINATION_COORDINATIONNUMBERRESOLUTION_H_

#include "CoordinationNumberForce.h"
#include "internal/ResolvedCoordinationNumbers.h"
#include "internal/SwitchingFunctionConstants.h"
#include "internal/windowsExportCoordination.h"
#include <string>

namespace CoordinationPlugin {

/**
 * The per-atom part of CoordinationForceImpl::resolve for a CoordinationNumberForce: the R power and each
 * reduction's expressions (every switching function of MoreThan and LessThan written as a Lepton expression,
 * PLUMED's definition with its clamp, cutoff and stretch), checked, with messages that name the reduction.
 */
class OPENMM_EXPORT_COORDINATION CoordinationNumberResolution {
public:
    /**
     * Resolve the reductions and the R power of force (whose group A has numEntries entries).
     * @param energy   the force's energy expression, parsed: its derivative by each reduction goes into the result
     */
    static ResolvedCoordinationNumbers resolve(const CoordinationNumberForce& force, int numEntries,
                                               const Lepton::ParsedExpression& energy);
    /**
     * A switching function as a Lepton expression of the variable: PLUMED's sigma (1 at or below d0, 0 beyond
     * dmax, stretched), for MoreThan and LessThan; the Rational's removable singularity at x = 1 is its Taylor
     * expansion within SwitchingFunctionConstants::TaylorBand, as everywhere.
     */
    static std::string switchingExpression(const SwitchingFunctionConstants& constants, const std::string& variable);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_COORDINATIONNUMBERRESOLUTION_H_*/
