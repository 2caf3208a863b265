#ifndef OPENMM_COORDINATION_COMMONSWITCHINGDEFINES_H_
#define OPENMM_COORDINATION_COMMONSWITCHINGDEFINES_H_

#include "internal/ResolvedCoordinationForce.h"
#include "openmm/common/ComputeContext.h"
#include <map>
#include <string>

namespace CoordinationPlugin {

/**
 * The switching function's part of the GPU program: the defines that select its type's device code in
 * platforms/common/src/kernels/switching.cc (SWITCH_RATIONAL, SWITCH_EXPONENTIAL, ...) and its constants,
 * printed by cc.doubleToString, all read from the resolved constants (nothing is derived here): the
 * resolved SwitchingPath (R2_PATH, SWITCH_OF_X2), and for the context's precision the resolved bands
 * (R2_BAND, NEAR_ONE_BAND in single and mixed) and the resolved reason single precision cannot be used
 * (an OpenMMException); for a Custom type, the Lepton-generated expression (replacement
 * CUSTOM_SWITCHING_FUNCTION). Returns the path the defines select.
 */
SwitchingPath addSwitchingFunctionDefines(OpenMM::ComputeContext& cc, const SwitchingFunctionConstants& sigma,
                                 std::map<std::string, std::string>& defines,
                                 std::map<std::string, std::string>& replacements);
/**
 * The same for a program whose "real" is double (useDouble) or float whatever the context's precision (a
 * ContactMapForce evaluates its contacts in double in mixed precision).
 */
SwitchingPath addSwitchingFunctionDefines(OpenMM::ComputeContext& cc, const SwitchingFunctionConstants& sigma, bool useDouble,
                                 std::map<std::string, std::string>& defines,
                                 std::map<std::string, std::string>& replacements);

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_COMMONSWITCHINGDEFINES_H_*/
