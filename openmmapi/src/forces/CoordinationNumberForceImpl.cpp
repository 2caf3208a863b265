#include "internal/forces/CoordinationNumberForceImpl.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include <cmath>

using namespace CoordinationPlugin;
using namespace OpenMM;

ResolvedPerAtom CoordinationNumberForceImpl::composition(const CoordinationNumberForce& force) {
    ResolvedPerAtom perAtom;
    perAtom.pairTerm = ResolvedPerAtom::PairTerm::SwitchTimesPower;
    perAtom.numComponents = 1;
    perAtom.atomStep = ResolvedPerAtom::AtomStep::Identity;
    perAtom.rPower = force.getRPower();
    if (!(perAtom.rPower >= 0.0) || !std::isfinite(perAtom.rPower))
        throw OpenMMException(
            "CoordinationNumberForce: the R power must be a finite number >= 0 (PLUMED's R_POWER), got " +
            numberText(perAtom.rPower));
    return perAtom;
}
