#ifndef OPENMM_COORDINATION_SWITCHINGEXPRESSION_H_
#define OPENMM_COORDINATION_SWITCHINGEXPRESSION_H_

#include "internal/switching/SwitchingFunctionConstants.h"
#include "internal/windowsExportCoordination.h"
#include <string>

namespace CoordinationPlugin {

/**
 * A switching function as a Lepton expression: the form of sigma that expressions of other things use (the
 * MoreThan and LessThan reductions apply one to a number), written from the same resolved constants as the pair
 * functions, so that every platform evaluates the one definition.
 */
class OPENMM_EXPORT_COORDINATION SwitchingExpression {
public:
    /**
     * sigma of variable as Lepton text, with definitions after ';': PLUMED's sigma (1 at or below d0, 0 beyond dmax,
     * stretched); the Rational's removable singularity at x = 1 is its Taylor expansion within
     * SwitchingFunctionConstants::TaylorBand, and beyond x = 1 it is written in 1/x, as everywhere.
     */
    static std::string of(const SwitchingFunctionConstants& constants, const std::string& variable);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SWITCHINGEXPRESSION_H_*/
