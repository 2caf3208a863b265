#include "internal/forces/CoordinationNumberForceImpl.h"
#include "internal/NumberText.h"
#include "internal/peratom/ReductionResolution.h"
#include "openmm/OpenMMException.h"
#include "openmm/System.h"
#include <cmath>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

namespace {

ResolvedCoordinationNumberForce resolveWith(const CoordinationNumberForce& force, ResolvedCenters centers) {
    ResolvedCoordinationNumberForce resolved;
    static_cast<ResolvedPairGroups&>(resolved) = ResolvedPairGroups::resolve(force, std::move(centers));
    ResolvedPerAtom& perAtom = resolved.perAtom;
    perAtom.pairTerm = ResolvedPerAtom::PairTerm::SwitchTimesPower;
    perAtom.numComponents = 1;
    perAtom.atomStep = ResolvedPerAtom::AtomStep::Identity;
    perAtom.rPower = force.getRPower();
    if (!(perAtom.rPower >= 0.0) || !std::isfinite(perAtom.rPower))
        throw OpenMMException(
            "CoordinationNumberForce: the R power must be a finite number >= 0 (PLUMED's R_POWER), got " +
            numberText(perAtom.rPower));
    if (force.getMode() == PairSwitchingForce::Pair)
        throw OpenMMException("CoordinationNumberForce: Pair mode has no per-atom coordination numbers; use Self mode "
                              "(PLUMED's SPECIES) or Dual mode (SPECIESA and SPECIESB)");
    perAtom.reductions = ReductionResolution::resolve(force, force.getGroupA().size());
    resolved.energy = ResolvedEnergy::resolve(
        force, {"a reduction's name",
                "add a reduction of that name with addReduction(), or a global parameter with addGlobalParameter()"});
    return resolved;
}

} // namespace

ResolvedCoordinationNumberForce CoordinationNumberForceImpl::resolve(const CoordinationNumberForce& force,
                                                                     const System& system) {
    return resolveWith(force, ResolvedCenters::resolve(system, force));
}

ResolvedCoordinationNumberForce CoordinationNumberForceImpl::resolve(const CoordinationNumberForce& force,
                                                                     int numParticles) {
    return resolveWith(force, ResolvedCenters::resolve(numParticles, force));
}

void CoordinationNumberForceImpl::checkUpdatable(const ResolvedCoordinationNumberForce& before,
                                                 const ResolvedCoordinationNumberForce& after) {
    ResolvedEnergy::checkUpdatable(before.energy, after.energy, "CoordinationNumberForce",
                                   "cannot add, remove or rename reductions (the energy's variables)");
}
