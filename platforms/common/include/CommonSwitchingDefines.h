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
 * printed by cc.doubleToString, all taken from the resolved constants (nothing is recomputed here); for a
 * Custom type, the Lepton-generated expression (replacement CUSTOM_SWITCHING_FUNCTION). The choices that
 * depend on the context's precision are made here too: the Rational r^2 path (R2_PATH), NEAR_ONE_BAND in
 * single and mixed precision, and an r0 too small for single precision (an OpenMMException).
 */
void addSwitchingFunctionDefines(OpenMM::ComputeContext& cc, const SwitchingFunctionConstants& sigma,
                                 std::map<std::string, std::string>& defines,
                                 std::map<std::string, std::string>& replacements);

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_COMMONSWITCHINGDEFINES_H_*/
