#include "internal/forces/CoordinationNumberForceImpl.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include "openmm/System.h"
#include <cmath>

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

ResolvedPerAtomForce resolveWith(const CoordinationNumberForce& force, ResolvedCenters centers) {
    ResolvedPerAtom perAtom;
    perAtom.pairTerm = ResolvedPerAtom::PairTerm::SwitchTimesPower;
    perAtom.numComponents = 1;
    perAtom.atomStep = ResolvedPerAtom::AtomStep::Identity;
    perAtom.rPower = force.getRPower();
    if (!(perAtom.rPower >= 0.0) || !std::isfinite(perAtom.rPower))
        throw OpenMMException(
            "CoordinationNumberForce: the R power must be a finite number >= 0 (PLUMED's R_POWER), got " +
            numberText(perAtom.rPower));
    return PerAtomForceResolution::resolve(force, std::move(centers), std::move(perAtom), "coordination numbers");
}

} // namespace

ResolvedPerAtomForce CoordinationNumberForceImpl::resolve(const CoordinationNumberForce& force, const System& system) {
    return resolveWith(force, ResolvedCenters::resolve(system, force));
}

ResolvedPerAtomForce CoordinationNumberForceImpl::resolve(const CoordinationNumberForce& force, int numParticles) {
    return resolveWith(force, ResolvedCenters::resolve(numParticles, force));
}

void CoordinationNumberForceImpl::checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after) {
    ResolvedEnergy::checkUpdatable(before.energy, after.energy, "CoordinationNumberForce",
                                   "cannot add, remove or rename reductions (the energy's variables)");
}
