#ifndef COMMON_ENERGY_ARRAYS_H_
#define COMMON_ENERGY_ARRAYS_H_

#include "internal/energy/ResolvedEnergy.h"
#include "openmm/common/ComputeArray.h"
#include "openmm/common/ComputeContext.h"
#include "openmm/common/ComputeKernel.h"
#include <string>
#include <utility>
#include <vector>

namespace CoordinationPlugin {

/**
 * The device side of a ResolvedEnergy, for every GPU kernel: its global parameters' values (uploaded when they change:
 * CommonBiasKernelBase) and where its parameter derivatives go in OpenMM's buffer (indices uploaded at the first
 * evaluation, with the kernels that take the buffer pointed at it then).
 */
struct CommonEnergyArrays {
    /** Allocate for `energy` (array names start with prefix). */
    void initialize(OpenMM::ComputeContext& cc, const ResolvedEnergy& energy, const std::string& prefix);

    int numGlobals = 0, numParameterDerivatives = 0;
    OpenMM::ComputeArray globals;                        // mixed per global parameter (at least one entry)
    OpenMM::ComputeArray parameterDerivativeIndices;     // int per parameter derivative: its index in OpenMM's buffer
    OpenMM::ComputeArray parameterDerivativePlaceholder; // stands for OpenMM's buffer until it exists
    /** The kernels that take OpenMM's buffer, and the index of that argument (CommonKernelArguments records them). */
    std::vector<std::pair<OpenMM::ComputeKernel, int>> parameterDerivativeUsers;
};

} // namespace CoordinationPlugin

#endif /*COMMON_ENERGY_ARRAYS_H_*/
