#include "contactmap/CommonCalcContactMapForceKernel.h"
#include "engine/CommonCellOffsets.h"
#include "contactmap/CommonContactMapArrays.h"
#include "contactmap/CommonContactMapKernelSet.h"
#include "contactmap/CommonContactMapPlan.h"
#include "contactmap/CommonContactMapProgram.h"
#include "engine/CommonPeriodicBox.h"
#include "openmm/common/ContextSelector.h"
#include "openmm/internal/ContextImpl.h"
#include <algorithm>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

/**
 * GEOMETRY_PARAMS of a kernel from index first: the box (CommonPeriodicBox) and what rounding its vectors to
 * float left out (0 in double precision), so that differences of positions do not round at the box's size.
 */
void setGeometryArgs(ComputeKernelImpl& kernel, int first, const CommonPeriodicBox& box, bool useDouble) {
    box.setArgs(kernel, first, useDouble);
    const Vec3* vectors[] = {&box.a, &box.b, &box.c};
    for (int i = 0; i < 3; i++) {
        const Vec3& v = *vectors[i];
        if (useDouble)
            kernel.setArg(first + CommonPeriodicBox::NumArgs + i, mm_double4(0, 0, 0, 0));
        else
            kernel.setArg(first + CommonPeriodicBox::NumArgs + i,
                          mm_float4((float) (v[0] - (float) v[0]), (float) (v[1] - (float) v[1]), (float) (v[2] - (float) v[2]), 0.0f));
    }
}

/**
 * The particle of each row of cellOffsets where positions are used as the user gave them: the unique particles, then
 * the centres' member entries where the centres' positions are unwrapped (CENTER_OFFSET_BASE on).
 */
vector<int> offsetParticlesOf(const CommonContactMapPlan& plan, const ResolvedContactMap& force) {
    vector<int> particles;
    if (!plan.unwrapPositions)
        return particles;
    particles = force.uniqueParticles;
    if (plan.centers.unwrapped) {
        particles.resize(std::max(plan.numUnique, 1), -1);
        for (const vector<int>& centerParticles : force.centers.particles)
            particles.insert(particles.end(), centerParticles.begin(), centerParticles.end());
    }
    return particles;
}

} // namespace

struct CommonCalcContactMapForceKernel::Built {
    Built(ComputeContext& cc, const ResolvedContactMap& force)
        : plan(CommonContactMapPlan::create(force, cc)),
          cellOffsets(offsetParticlesOf(plan, force), std::max(plan.numUnique, 1) +
                                                          (plan.centers.unwrapped ? plan.centers.numEntries : 0)) {
        energy.initialize(cc, force.energy, "contactMap");
        arrays.initialize(cc, plan, force);
        programText = CommonContactMapProgram::create(cc, plan, force, arrays.centers);
    }
    const CommonContactMapPlan plan;
    CommonCellOffsets cellOffsets;      // positions as the user gave them: the unique particles', the centres' entries'
    CommonEnergyArrays energy;
    CommonContactMapArrays arrays;
    CommonContactMapProgram programText;
    ComputeProgram program;
    CommonContactMapKernelSet kernels;
};

CommonCalcContactMapForceKernel::CommonCalcContactMapForceKernel(const string& name, const Platform& platform,
                                                                 ComputeContext& cc)
    : CalcContactMapForceKernel(name, platform), CommonBiasKernelBase(cc, "ContactMapForce") {}

CommonCalcContactMapForceKernel::~CommonCalcContactMapForceKernel() {}

void CommonCalcContactMapForceKernel::initialize(const System& system, const ResolvedContactMap& force) {
    ContextSelector selector(cc);
    initializeBase(force.energy);
    build(force);
}

void CommonCalcContactMapForceKernel::build(const ResolvedContactMap& force) {
    // Built afresh and swapped in only when complete: if anything throws, the previous build stays. The program is
    // compiled again only if its text changed (new kinds of switching function, a new number of contacts).
    std::unique_ptr<Built> next(new Built(cc, force));
    if (built && built->programText == next->programText)
        next->program = built->program;
    else
        next->program = next->programText.compile(cc);
    next->kernels.create(cc, next->program, next->plan, next->arrays, next->energy);
    built = std::move(next);
    startBuild();
    followAtomOrder();
}

void CommonCalcContactMapForceKernel::followAtomOrder() {
    if (!built)
        return;
    ContextSelector selector(cc);
    built->cellOffsets.followAtomOrder(cc);
    CommonContactMapKernelSet& k = built->kernels;
    k.invertKernel->execute(cc.getNumAtoms());
    k.translateKernel->execute(std::max({built->plan.numContacts, built->plan.numCenterEntries, 1}));
}

void CommonCalcContactMapForceKernel::launch(bool computeGradient, bool storeValues, bool addEnergy) {
    const CommonContactMapPlan& plan = built->plan;
    CommonContactMapKernelSet& k = built->kernels;
    built->cellOffsets.update(cc, built->arrays.cellOffsets);
    const CommonPeriodicBox box = CommonPeriodicBox::current(cc);
    built->arrays.centers.computePositions(box); // where no block of the map computes them itself
    if (plan.smallMap) {
        k.mapKernel->setArg(k.mapComputeGradientArg, computeGradient ? 1 : 0);
        k.mapKernel->setArg(k.mapStoreValuesArg, storeValues ? 1 : 0);
        k.mapKernel->setArg(k.mapAddEnergyArg, addEnergy ? 1 : 0);
        setGeometryArgs(*k.mapKernel, k.mapBoxArg, box, plan.useDouble);
        k.mapKernel->execute(plan.blockSize, plan.blockSize);
        return;
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
    beginEvaluation(context, built->energy, true);
    launch(includeForces, false, true);
    return 0.0; // the energy was added to the context's energy buffer on the device
}

void CommonCalcContactMapForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    ContextSelector selector(cc);
    beginEvaluation(context, built->energy, false);
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
    beginEvaluation(context, built->energy, false);
    launch(false, true, false);
    downloadMixed(built->arrays.contactValues, built->plan.numContacts, values);
}

void CommonCalcContactMapForceKernel::copyParametersToContext(ContextImpl& context, const ResolvedContactMap& force) {
    ContextSelector selector(cc);
    build(force);
}
