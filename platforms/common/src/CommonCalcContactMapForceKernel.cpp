#include "CommonCalcContactMapForceKernel.h"
#include "CommonContactMapArrays.h"
#include "CommonContactMapKernelSet.h"
#include "CommonContactMapPlan.h"
#include "CommonContactMapProgram.h"
#include "CommonCoordinationBox.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include "openmm/common/ContextSelector.h"
#include "openmm/internal/ContextImpl.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

/**
 * GEOMETRY_PARAMS of a kernel from index first: the box (CommonCoordinationBox) and what rounding its vectors to
 * float left out (0 in double precision), so that differences of positions do not round at the box's size.
 */
void setGeometryArgs(ComputeKernelImpl& kernel, int first, const CommonCoordinationBox& box, bool useDouble) {
    box.setArgs(kernel, first, useDouble);
    const Vec3* vectors[] = {&box.a, &box.b, &box.c};
    for (int i = 0; i < 3; i++) {
        const Vec3& v = *vectors[i];
        if (useDouble)
            kernel.setArg(first + CommonCoordinationBox::NumArgs + i, mm_double4(0, 0, 0, 0));
        else
            kernel.setArg(first + CommonCoordinationBox::NumArgs + i,
                          mm_float4((float) (v[0] - (float) v[0]), (float) (v[1] - (float) v[1]), (float) (v[2] - (float) v[2]), 0.0f));
    }
}

} // namespace

struct CommonCalcContactMapForceKernel::Built {
    Built(const CommonContactMapPlan& plan, const ResolvedContactMap& force)
        : plan(plan), uniqueParticles(force.uniqueParticles), hostCellOffsets(uniqueParticles.size(), mm_int4(0, 0, 0, 0)) {}
    const CommonContactMapPlan plan;
    const vector<int> uniqueParticles;  // every particle the map uses, once (updateCellOffsets looks them up)
    CommonContactMapArrays arrays;
    CommonContactMapProgram programText;
    ComputeProgram program;
    CommonContactMapKernelSet kernels;
    vector<int> hostPositionOfParticle; // unwrapped positions: each particle's current atom (host copy)
    vector<mm_int4> hostCellOffsets;    // per unique particle, as last uploaded
    bool parameterDerivativeArgsSet = false;
};

class CommonCalcContactMapForceKernel::ReorderListener : public ComputeContext::ReorderListener {
public:
    explicit ReorderListener(CommonCalcContactMapForceKernel& owner) : owner(owner) {}
    void execute() override {
        owner.followAtomOrder();
    }

private:
    CommonCalcContactMapForceKernel& owner;
};

CommonCalcContactMapForceKernel::CommonCalcContactMapForceKernel(const string& name, const Platform& platform,
                                                                 ComputeContext& cc)
    : CalcContactMapForceKernel(name, platform), cc(cc) {}

CommonCalcContactMapForceKernel::~CommonCalcContactMapForceKernel() {}

void CommonCalcContactMapForceKernel::initialize(const System& system, const ResolvedContactMap& force) {
    ContextSelector selector(cc);
    globalParameterNames = force.globalParameterNames;
    energyParameterDerivativeNames = force.energyParameterDerivativeNames;
    for (const string& name : energyParameterDerivativeNames)
        cc.addEnergyParameterDerivative(name);
    build(force);
    cc.addReorderListener(new ReorderListener(*this));
}

void CommonCalcContactMapForceKernel::build(const ResolvedContactMap& force) {
    // Built afresh and swapped in only when complete: if anything throws, the previous build stays. The program is
    // compiled again only if its text changed (new kinds of switching function, a new number of contacts).
    const CommonContactMapPlan plan = CommonContactMapPlan::create(force, cc);
    std::unique_ptr<Built> next(new Built(plan, force));
    next->arrays.initialize(cc, next->plan, force);
    next->programText = CommonContactMapProgram::create(cc, next->plan, force);
    if (built && built->programText == next->programText)
        next->program = built->program;
    else
        next->program = next->programText.compile(cc);
    next->kernels.create(cc, next->program, next->plan, next->arrays);
    built = std::move(next);
    followAtomOrder();
    globalParameterValues.clear(); // upload at the next evaluation
}

void CommonCalcContactMapForceKernel::followAtomOrder() {
    if (!built)
        return;
    ContextSelector selector(cc);
    if (built->plan.unwrapPositions) {
        // updateCellOffsets() looks up the map's particles in OpenMM's host-side cell offsets.
        const vector<int>& order = cc.getAtomIndex();
        vector<int>& positionOfParticle = built->hostPositionOfParticle;
        positionOfParticle.assign(order.size(), 0);
        for (int i = 0; i < (int) order.size(); i++)
            positionOfParticle[order[i]] = i;
    }
    CommonContactMapKernelSet& k = built->kernels;
    k.invertKernel->execute(cc.getNumAtoms());
    k.translateKernel->execute(std::max({built->plan.numContacts, built->plan.numCenterEntries, 1}));
}

void CommonCalcContactMapForceKernel::updateCellOffsets() {
    // Positions as the user gave them: OpenMM's cell offsets change when it wraps atoms (at reorders, on
    // setPositions). Compared on the host, uploaded only on a change.
    if (!built->plan.unwrapPositions || built->uniqueParticles.empty())
        return;
    const vector<mm_int4>& offsets = cc.getPosCellOffsets();
    const vector<int>& uniqueParticles = built->uniqueParticles;
    bool changed = false;
    for (int i = 0; i < (int) uniqueParticles.size(); i++) {
        const mm_int4& now = offsets[built->hostPositionOfParticle[uniqueParticles[i]]];
        mm_int4& stored = built->hostCellOffsets[i];
        if (now.x != stored.x || now.y != stored.y || now.z != stored.z) {
            stored = mm_int4(now.x, now.y, now.z, 0);
            changed = true;
        }
    }
    if (changed)
        built->arrays.cellOffsets.upload(built->hostCellOffsets);
}

void CommonCalcContactMapForceKernel::updateGlobalParameters(ContextImpl& context) {
    vector<double> values;
    for (const string& name : globalParameterNames)
        values.push_back(context.getParameter(name));
    if (values == globalParameterValues || values.empty())
        return;
    if (!built->plan.mixedIsDouble)
        for (int i = 0; i < (int) values.size(); i++)
            if (std::isfinite(values[i]) && std::fabs(values[i]) > std::numeric_limits<float>::max())
                throw OpenMMException("ContactMapForce: global parameter '" + globalParameterNames[i] + "' is " +
                                      numberText(values[i]) + ", beyond single precision's range (" +
                                      numberText(std::numeric_limits<float>::max()) +
                                      "); use a smaller value, or the platform's mixed or double precision");
    globalParameterValues = values;
    if (built->plan.mixedIsDouble)
        built->arrays.globals.upload(values);
    else
        built->arrays.globals.upload(vector<float>(values.begin(), values.end()));
}

void CommonCalcContactMapForceKernel::connectParameterDerivatives() {
    // OpenMM's buffer of energy-parameter derivatives exists once the context is initialized; each of ours goes to
    // its name's entry of the first row (like the energy, which goes to energyBuffer[0]).
    CommonContactMapKernelSet& k = built->kernels;
    if (built->parameterDerivativeArgsSet || energyParameterDerivativeNames.empty())
        return;
    const vector<string>& allNames = cc.getEnergyParamDerivNames();
    vector<int> indices;
    for (const string& name : energyParameterDerivativeNames)
        indices.push_back((int) (std::find(allNames.begin(), allNames.end(), name) - allNames.begin()));
    built->arrays.parameterDerivativeIndices.upload(indices);
    if (k.mapParameterDerivativesArg >= 0)
        k.mapKernel->setArg(k.mapParameterDerivativesArg, cc.getEnergyParamDerivBuffer());
    if (k.finishParameterDerivativesArg >= 0)
        k.finishKernel->setArg(k.finishParameterDerivativesArg, cc.getEnergyParamDerivBuffer());
    built->parameterDerivativeArgsSet = true;
}

void CommonCalcContactMapForceKernel::launch(bool computeGradient, bool storeValues, bool addEnergy) {
    const CommonContactMapPlan& plan = built->plan;
    CommonContactMapKernelSet& k = built->kernels;
    if (cc.getNumContexts() > 1) {
        // With several devices OpenMM clears this device's force and energy buffers from a worker thread: let
        // that finish before our kernels are queued, or it could erase their results.
        cc.getWorkThread().flush();
    }
    updateCellOffsets();
    const CommonCoordinationBox box = CommonCoordinationBox::current(cc);
    if (plan.smallMap) {
        k.mapKernel->setArg(k.mapComputeGradientArg, computeGradient ? 1 : 0);
        k.mapKernel->setArg(k.mapStoreValuesArg, storeValues ? 1 : 0);
        k.mapKernel->setArg(k.mapAddEnergyArg, addEnergy ? 1 : 0);
        setGeometryArgs(*k.mapKernel, k.mapBoxArg, box, plan.useDouble);
        k.mapKernel->execute(plan.blockSize, plan.blockSize);
        return;
    }
    if (plan.numCenters > 0) {
        setGeometryArgs(*k.centersKernel, k.centersBoxArg, box, plan.useDouble);
        k.centersKernel->execute(plan.numCenters);
    }
    k.contactsKernel->setArg(k.contactsComputeGradientArg, computeGradient ? 1 : 0);
    k.contactsKernel->setArg(k.contactsStoreValuesArg, storeValues ? 1 : 0);
    setGeometryArgs(*k.contactsKernel, k.contactsBoxArg, box, plan.useDouble);
    k.contactsKernel->execute(plan.contactWorkUnits, plan.blockSize);
    k.finishKernel->setArg(k.finishAddEnergyArg, addEnergy ? 1 : 0);
    k.finishKernel->setArg(k.finishComputeGradientArg, computeGradient ? 1 : 0);
    k.finishKernel->setArg(k.finishStoreValuesArg, storeValues ? 1 : 0);
    // Without forces one block finds the results (and stores the values' NaN where a position is not finite).
    k.finishKernel->execute(computeGradient || storeValues ? plan.finishWorkUnits : plan.blockSize, plan.blockSize);
    if (computeGradient && plan.numCenters > 0)
        k.spreadKernel->execute(plan.numCenterEntries);
}

double CommonCalcContactMapForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    connectParameterDerivatives();
    launch(includeForces, false, true);
    return 0.0; // the energy was added to the context's energy buffer on the device
}

void CommonCalcContactMapForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    if (built->plan.reduction == ContactMapForce::Components) {
        launch(false, true, false);
        downloadMixed(built->arrays.contactValues, built->plan.numContacts, values);
        return;
    }
    launch(false, false, false);
    downloadMixed(built->arrays.results, 1, values);
}

void CommonCalcContactMapForceKernel::getContactValues(ContextImpl& context, vector<double>& values) {
    ContextSelector selector(cc);
    updateGlobalParameters(context);
    launch(false, true, false);
    downloadMixed(built->arrays.contactValues, built->plan.numContacts, values);
}

void CommonCalcContactMapForceKernel::copyParametersToContext(ContextImpl& context, const ResolvedContactMap& force) {
    ContextSelector selector(cc);
    build(force);
}

void CommonCalcContactMapForceKernel::downloadMixed(ComputeArray& array, int count, vector<double>& values) {
    if (built->plan.mixedIsDouble) {
        array.download(values);
    }
    else {
        vector<float> floats;
        array.download(floats);
        values.assign(floats.begin(), floats.end());
    }
    values.resize(count);
}
