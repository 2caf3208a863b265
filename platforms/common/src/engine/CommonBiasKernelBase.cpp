#include "engine/CommonBiasKernelBase.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

class CommonBiasKernelBase::ReorderListener : public ComputeContext::ReorderListener {
public:
    explicit ReorderListener(CommonBiasKernelBase& owner) : owner(owner) {}
    void execute() override {
        owner.followAtomOrder();
    }

private:
    CommonBiasKernelBase& owner;
};

CommonBiasKernelBase::CommonBiasKernelBase(ComputeContext& cc, const string& forceName) : cc(cc), forceName(forceName) {}

CommonBiasKernelBase::~CommonBiasKernelBase() {}

void CommonBiasKernelBase::initializeBase(const ResolvedEnergy& energy) {
    globalParameterNames = energy.globalParameterNames;
    parameterDerivativeNames = energy.parameterDerivativeNames;
    for (const string& name : parameterDerivativeNames)
        cc.addEnergyParameterDerivative(name);
    cc.addReorderListener(new ReorderListener(*this));
}

void CommonBiasKernelBase::startBuild() {
    globalParameterValues.clear();
    parameterDerivativesConnected = false;
}

bool CommonBiasKernelBase::mixedIsDouble() const {
    return cc.getUseDoublePrecision() || cc.getUseMixedPrecision();
}

void CommonBiasKernelBase::beginEvaluation(ContextImpl& context, CommonEnergyArrays& energy, bool connectDerivatives) {
    updateGlobalParameters(context, energy);
    if (connectDerivatives)
        connectParameterDerivatives(energy);
    if (cc.getNumContexts() > 1) {
        // With several devices OpenMM clears this device's force and energy buffers from a worker thread: let that
        // finish before our kernels are queued, or it could erase their results.
        cc.getWorkThread().flush();
    }
}

void CommonBiasKernelBase::updateGlobalParameters(ContextImpl& context, CommonEnergyArrays& energy) {
    vector<double> values;
    for (const string& name : globalParameterNames)
        values.push_back(context.getParameter(name));
    if (values == globalParameterValues || values.empty())
        return;
    if (!mixedIsDouble())
        for (int i = 0; i < (int) values.size(); i++)
            if (std::isfinite(values[i]) && std::fabs(values[i]) > std::numeric_limits<float>::max())
                throw OpenMMException(forceName + ": global parameter '" + globalParameterNames[i] + "' is " +
                                      numberText(values[i]) + ", beyond single precision's range (" +
                                      numberText(std::numeric_limits<float>::max()) +
                                      "); use a smaller value, or the platform's mixed or double precision");
    globalParameterValues = values;
    if (mixedIsDouble())
        energy.globals.upload(values);
    else
        energy.globals.upload(vector<float>(values.begin(), values.end()));
}

void CommonBiasKernelBase::connectParameterDerivatives(CommonEnergyArrays& energy) {
    // OpenMM's buffer of energy-parameter derivatives exists once the context is initialized; each of ours goes to
    // its name's entry of the first row (like the energy, which goes to energyBuffer[0]).
    if (parameterDerivativesConnected || parameterDerivativeNames.empty())
        return;
    const vector<string>& allNames = cc.getEnergyParamDerivNames();
    vector<int> indices;
    for (const string& name : parameterDerivativeNames)
        indices.push_back((int) (std::find(allNames.begin(), allNames.end(), name) - allNames.begin()));
    energy.parameterDerivativeIndices.upload(indices);
    for (auto& user : energy.parameterDerivativeUsers)
        user.first->setArg(user.second, cc.getEnergyParamDerivBuffer());
    parameterDerivativesConnected = true;
}

void CommonBiasKernelBase::downloadMixed(ComputeArray& array, size_t count, vector<double>& values) {
    if (mixedIsDouble())
        array.download(values);
    else {
        vector<float> floats;
        array.download(floats);
        values.assign(floats.begin(), floats.end());
    }
    values.resize(count);
}
