#include "internal/forces/SteinhardtForceImpl.h"
#include "openmm/OpenMMException.h"
#include "openmm/System.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

namespace {

ResolvedPerAtomForce resolveWith(const SteinhardtForce& force, ResolvedCenters centers) {
    const int l = force.getDegree();
    if (l < 1 || l > SteinhardtForce::MaxDegree)
        throw OpenMMException("SteinhardtForce: the degree l must be an integer from 1 to " +
                              std::to_string(SteinhardtForce::MaxDegree) + " (PLUMED's Q1, Q3, Q4, Q6 are 1, 3, 4, 6), got " +
                              std::to_string(l));
    ResolvedPerAtom perAtom;
    perAtom.pairTerm = ResolvedPerAtom::PairTerm::SphericalHarmonics;
    perAtom.degree = l;
    perAtom.numComponents = ResolvedPerAtom::sphericalHarmonicsComponents(l);
    perAtom.atomStep = ResolvedPerAtom::AtomStep::NormOverWeight;
    return PerAtomForceResolution::resolve(force, std::move(centers), std::move(perAtom), "order parameters");
}

} // namespace

ResolvedPerAtomForce SteinhardtForceImpl::resolve(const SteinhardtForce& force, const System& system) {
    return resolveWith(force, ResolvedCenters::resolve(system, force));
}

ResolvedPerAtomForce SteinhardtForceImpl::resolve(const SteinhardtForce& force, int numParticles) {
    return resolveWith(force, ResolvedCenters::resolve(numParticles, force));
}

void SteinhardtForceImpl::checkUpdatable(const ResolvedPerAtomForce& before, const ResolvedPerAtomForce& after) {
    ResolvedEnergy::checkUpdatable(before.energy, after.energy, "SteinhardtForce",
                                   "cannot add, remove or rename reductions (the energy's variables)");
}
