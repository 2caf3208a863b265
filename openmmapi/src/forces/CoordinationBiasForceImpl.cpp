#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/forces/ForceInContext.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

double CoordinationBiasForceImpl::calcForcesAndEnergy(ContextImpl& context, bool includeForces, bool includeEnergy,
                                                      int groups) {
    if ((groups & (1 << owner.getForceGroup())) == 0)
        return 0.0;
    return kernel.getAs<CalcCoordinationBiasKernel>().execute(context, includeForces, includeEnergy);
}

std::map<string, double> CoordinationBiasForceImpl::getDefaultParameters() {
    std::map<string, double> parameters;
    for (int i = 0; i < owner.getNumGlobalParameters(); i++)
        parameters[owner.getGlobalParameterName(i)] = owner.getGlobalParameterDefaultValue(i);
    return parameters;
}

void CoordinationBiasForceImpl::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    kernel.getAs<CalcCoordinationBiasKernel>().getCollectiveVariableValues(context, values);
}

CoordinationBiasForceImpl& CoordinationBiasForceImpl::find(Context& context, const CoordinationBiasForce& owner,
                                                           const string& method, ContextImpl*& contextImpl) {
    Context* where;
    CoordinationBiasForce* copy;
    if (!ForceInContext::find(context, owner, true, where, copy))
        throw ForceInContext::notFound(owner.getForceClassName(), method);
    const CoordinationBiasForce& force = (copy == nullptr ? owner : *copy);
    contextImpl = &force.getContextImpl(*where);
    return dynamic_cast<CoordinationBiasForceImpl&>(force.getImplInContext(*where));
}
