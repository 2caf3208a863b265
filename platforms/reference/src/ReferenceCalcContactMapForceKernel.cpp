#include "ReferenceCoordinationKernels.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/reference/ReferencePlatform.h"
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

ReferencePlatform::PlatformData& getPlatformData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

} // namespace

void ReferenceCalcContactMapForceKernel::initialize(const System& system, const ResolvedContactMap& force) {
    evaluator.reset(new ContactMapHostEvaluator(force));
}

void ReferenceCalcContactMapForceKernel::copyParametersToContext(ContextImpl& context, const ResolvedContactMap& force) {
    evaluator.reset(new ContactMapHostEvaluator(force));
}

bool ReferenceCalcContactMapForceKernel::computeContacts(ContextImpl& context, vector<double>& values,
                                                         vector<Vec3>* gradients) {
    ReferencePlatform::PlatformData& data = getPlatformData(context);
    const int numContacts = evaluator->getNumContacts();
    if (evaluator->hasNonFinitePosition(*data.positions)) {
        values.assign(numContacts, std::numeric_limits<double>::quiet_NaN());
        return false;
    }
    const vector<Vec3>& members = evaluator->memberPositions(*data.positions, data.periodicBoxVectors, memberStorage);
    values.resize(numContacts);
    if (gradients != nullptr)
        gradients->resize(numContacts);
    evaluator->computeContacts(members, data.periodicBoxVectors, 0, numContacts, values.data(),
                               gradients == nullptr ? nullptr : gradients->data());
    return true;
}

double ReferenceCalcContactMapForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ReferencePlatform::PlatformData& data = getPlatformData(context);
    vector<double> values;
    vector<Vec3> gradients;
    if (!computeContacts(context, values, &gradients))
        return evaluator->nonFiniteEnergy(data.energyParameterDerivatives);
    return evaluator->computeEnergy(context, values, gradients, includeForces ? data.forces : nullptr,
                                    data.energyParameterDerivatives);
}

void ReferenceCalcContactMapForceKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    vector<double> contacts;
    computeContacts(context, contacts, nullptr);
    evaluator->computeVariables(contacts, values);
}

void ReferenceCalcContactMapForceKernel::getContactValues(ContextImpl& context, vector<double>& values) {
    computeContacts(context, values, nullptr);
}
