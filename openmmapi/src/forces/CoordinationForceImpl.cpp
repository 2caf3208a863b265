#include "internal/forces/CoordinationForceImpl.h"
#include "openmm/System.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

namespace {

ResolvedCoordinationForce resolveWith(const CoordinationForce& force, ResolvedCenters centers) {
    ResolvedCoordinationForce resolved;
    static_cast<ResolvedPairGroups&>(resolved) = ResolvedPairGroups::resolve(force, std::move(centers));
    resolved.energy = ResolvedEnergy::resolve(force, {"s", "add it with addGlobalParameter()"});
    return resolved;
}

} // namespace

ResolvedCoordinationForce CoordinationForceImpl::resolve(const CoordinationForce& force, const System& system) {
    return resolveWith(force, ResolvedCenters::resolve(system, force));
}

ResolvedCoordinationForce CoordinationForceImpl::resolve(const CoordinationForce& force, int numParticles) {
    return resolveWith(force, ResolvedCenters::resolve(numParticles, force));
}

void CoordinationForceImpl::checkUpdatable(const ResolvedCoordinationForce& before,
                                           const ResolvedCoordinationForce& after) {
    ResolvedEnergy::checkUpdatable(before.energy, after.energy, "CoordinationForce", "cannot change the variables");
}
