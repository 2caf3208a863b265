#include "internal/contactmap/ContactMapHostKernel.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/reference/ReferencePlatform.h"
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

ReferencePlatform::PlatformData& referenceData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

} // namespace

void ContactMapHostKernel::initialize(const System& system, const ResolvedContactMap& force) {
    evaluator.reset(new ContactMapHostEvaluator(force));
}

void ContactMapHostKernel::copyParametersToContext(ContextImpl& context, const ResolvedContactMap& force) {
    evaluator.reset(new ContactMapHostEvaluator(force));
}

void ContactMapHostKernel::computeRange(ContextImpl& context, const vector<Vec3>& members, const Vec3* box,
                                        int numContacts, double* values, Vec3* gradients) {
    evaluator->computeContacts(members, box, 0, numContacts, values, gradients);
}

bool ContactMapHostKernel::computeContacts(ContextImpl& context, vector<double>& values, vector<Vec3>* gradients) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    const int numContacts = evaluator->getNumContacts();
    if (evaluator->hasNonFinitePosition(*data.positions)) {
        values.assign(numContacts, std::numeric_limits<double>::quiet_NaN());
        return false;
    }
    const vector<Vec3>& members = evaluator->memberPositions(*data.positions, data.periodicBoxVectors, memberStorage);
    values.resize(numContacts);
    if (gradients != nullptr)
        gradients->resize(numContacts);
    computeRange(context, members, data.periodicBoxVectors, numContacts, values.data(),
                 gradients == nullptr ? nullptr : gradients->data());
    return true;
}

double ContactMapHostKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    if (!computeContacts(context, valueStorage, &gradientStorage))
        return evaluator->nonFiniteEnergy(data.energyParameterDerivatives);
    return evaluator->computeEnergy(context, valueStorage, gradientStorage, includeForces ? data.forces : nullptr,
                                    data.energyParameterDerivatives);
}

void ContactMapHostKernel::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    computeContacts(context, valueStorage, nullptr);
    evaluator->computeVariables(valueStorage, values);
}

void ContactMapHostKernel::getContactValues(ContextImpl& context, vector<double>& values) {
    computeContacts(context, values, nullptr);
}
