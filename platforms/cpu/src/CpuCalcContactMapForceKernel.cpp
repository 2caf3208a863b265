#include "CpuCoordinationKernels.h"
#include "openmm/cpu/CpuPlatform.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/ThreadPool.h"
#include "openmm/reference/ReferencePlatform.h"
#include <algorithm>
#include <atomic>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

/** Contacts per work item: below this a thread's start costs more than it saves. */
const int ContactsPerItem = 2048;

ReferencePlatform::PlatformData& referenceData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

} // namespace

void CpuCalcContactMapForceKernel::initialize(const System& system, const ResolvedContactMap& force) {
    evaluator.reset(new ContactMapHostEvaluator(force));
}

void CpuCalcContactMapForceKernel::copyParametersToContext(ContextImpl& context, const ResolvedContactMap& force) {
    evaluator.reset(new ContactMapHostEvaluator(force));
}

bool CpuCalcContactMapForceKernel::computeContacts(ContextImpl& context, vector<double>& values,
                                                   vector<Vec3>* gradients) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    const int numContacts = evaluator->getNumContacts();
    if (evaluator->hasNonFinitePosition(*data.positions)) {
        values.assign(numContacts, std::numeric_limits<double>::quiet_NaN());
        return false;
    }
    const Vec3* box = data.periodicBoxVectors;
    const vector<Vec3>& members = evaluator->memberPositions(*data.positions, box, memberStorage);
    values.resize(numContacts);
    if (gradients != nullptr)
        gradients->resize(numContacts);
    double* valueData = values.data();
    Vec3* gradientData = (gradients == nullptr ? nullptr : gradients->data());
    const int numItems = (numContacts + ContactsPerItem - 1) / ContactsPerItem;
    if (numItems <= 1) {
        evaluator->computeContacts(members, box, 0, numContacts, valueData, gradientData);
        return true;
    }
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    std::atomic<int> nextItem(0);
    threads.execute([&](ThreadPool& pool, int thread) {
        for (int item = nextItem++; item < numItems; item = nextItem++) {
            const int first = item * ContactsPerItem;
            evaluator->computeContacts(members, box, first, std::min(first + ContactsPerItem, numContacts), valueData,
                                       gradientData);
        }
    });
    threads.waitForThreads();
    return true;
}

double CpuCalcContactMapForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    if (!computeContacts(context, valueStorage, &gradientStorage))
        return evaluator->nonFiniteEnergy(data.energyParameterDerivatives);
    return evaluator->computeEnergy(context, valueStorage, gradientStorage, includeForces ? data.forces : nullptr,
                                    data.energyParameterDerivatives);
}

void CpuCalcContactMapForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    computeContacts(context, valueStorage, nullptr);
    evaluator->computeVariables(valueStorage, values);
}

void CpuCalcContactMapForceKernel::getContactValues(ContextImpl& context, vector<double>& values) {
    computeContacts(context, values, nullptr);
}
