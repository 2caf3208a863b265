#ifndef COMMON_SWITCHING_DEFINES_H_
#define COMMON_SWITCHING_DEFINES_H_

#include "internal/switching/SwitchingFunctionConstants.h"
#include "openmm/common/ComputeContext.h"
#include <map>
#include <string>

namespace CoordinationPlugin {

/**
 * The switching function's part of a GPU program: the defines that select its type's device code in
 * kernels/switching/switching.cc (SWITCH_RATIONAL, SWITCH_EXPONENTIAL, ...) and its constants, printed by
 * cc.doubleToString, all read from the resolved constants (nothing is derived here): the resolved SwitchingPath
 * (R2_PATH, SWITCH_OF_X2), and for the context's precision the resolved bands (R2_BAND, NEAR_ONE_BAND in single and
 * mixed) and the resolved reason single precision cannot be used (an OpenMMException); for a Custom type, the
 * Lepton-generated expression (replacement CUSTOM_SWITCHING_FUNCTION).
 */
struct CommonSwitchingDefines {
    /** The defines for the context's precision; returns the path they select. */
    static SwitchingPath add(OpenMM::ComputeContext& cc, const SwitchingFunctionConstants& sigma,
                             std::map<std::string, std::string>& defines,
                             std::map<std::string, std::string>& replacements);
    /**
     * The same for a program whose "real" is double (useDouble) or float whatever the context's precision (a
     * ContactMapForce evaluates its contacts in double in mixed precision).
     */
    static SwitchingPath add(OpenMM::ComputeContext& cc, const SwitchingFunctionConstants& sigma, bool useDouble,
                             std::map<std::string, std::string>& defines,
                             std::map<std::string, std::string>& replacements);
};

} // namespace CoordinationPlugin

#endif /*COMMON_SWITCHING_DEFINES_H_*/
