#include "internal/forces/SteinhardtForceImpl.h"
#include "internal/peratom/SphericalHarmonics.h"
#include "openmm/OpenMMException.h"

using namespace CoordinationPlugin;
using namespace OpenMM;

static_assert(SteinhardtForce::MaxDegree <= SphericalHarmonics::MaxDegree,
              "every degree a SteinhardtForce accepts has its spherical harmonics");

ResolvedPerAtom SteinhardtForceImpl::composition(const SteinhardtForce& force) {
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
    return perAtom;
}
