#include "energy/CommonEnergyArrays.h"
#include <algorithm>

using namespace CoordinationPlugin;
using namespace OpenMM;

void CommonEnergyArrays::initialize(ComputeContext& cc, const ResolvedEnergy& energy, const std::string& prefix) {
    const int mixedSize = (cc.getUseDoublePrecision() || cc.getUseMixedPrecision() ? sizeof(double) : sizeof(float));
    numGlobals = energy.globalParameterNames.size();
    numParameterDerivatives = energy.parameterDerivatives.size();
    globals.initialize(cc, std::max(numGlobals, 1), mixedSize, prefix + "Globals");
    if (numParameterDerivatives > 0) {
        parameterDerivativeIndices.initialize<int>(cc, numParameterDerivatives, prefix + "ParameterDerivativeIndices");
        parameterDerivativePlaceholder.initialize(cc, numParameterDerivatives, mixedSize, prefix + "ParameterDerivatives");
    }
}
