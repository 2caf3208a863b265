#include "internal/forces/PerAtomForceImpl.h"
#include "internal/peratom/ReductionResolution.h"
#include "openmm/OpenMMException.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;

ResolvedPerAtomForce PerAtomForceResolution::resolve(const PerAtomForce& force, ResolvedCenters centers,
                                                     ResolvedPerAtom perAtom, const string& values) {
    ResolvedPerAtomForce resolved;
    static_cast<ResolvedPairGroups&>(resolved) = ResolvedPairGroups::resolve(force, std::move(centers));
    if (force.getMode() == PairSwitchingForce::Pair)
        throw OpenMMException(force.getForceClassName() + ": Pair mode has no per-atom " + values +
                              "; use Self mode (PLUMED's SPECIES) or Dual mode (SPECIESA and SPECIESB)");
    resolved.forceClass = force.getForceClassName();
    resolved.perAtom = std::move(perAtom);
    resolved.perAtom.reductions = ReductionResolution::resolve(force, force.getGroupA().size());
    resolved.energy = ResolvedEnergy::resolve(
        force, {"a reduction's name",
                "add a reduction of that name with addReduction(), or a global parameter with addGlobalParameter()"});
    return resolved;
}


void PerAtomForceResolution::checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after) {
    ResolvedEnergy::checkUpdatable(before.energy, after.energy, before.forceClass,
                                   "cannot add, remove or rename reductions (the energy's variables)");
}
