#ifndef OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_
#define OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_

#include "CoordinationForce.h"
#include "internal/ResolvedCoordinationNumbers.h"
#include "internal/SwitchingFunctionConstants.h"
#include "lepton/ParsedExpression.h"
#include "openmm/Vec3.h"
#include <cmath>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A validated CoordinationForce with everything its kernels need resolved once, by
 * CoordinationForceImpl::resolve at context creation and in updateParametersInContext: the groups and
 * their unique-atom map, the switching function's constants, the parsed energy expression and its
 * derivatives. Every platform's kernel is initialized from it (as TorchForceImpl hands its kernel the
 * loaded module), so no kernel re-derives a setting.
 *
 * Copy it by construction or move it: Lepton's copy assignment of an empty ParsedExpression (the Custom
 * members of another type) dereferences a null operation.
 */
struct ResolvedCoordinationForce {
    CoordinationForce::Mode mode = CoordinationForce::Self;
    bool periodic = false;
    std::vector<int> groupA, groupB;    ///< the user's particle indices, one per slot (B empty in Self mode)
    std::vector<int> uniqueParticles;   ///< every particle in a group, once, in increasing order
    std::vector<int> uniqueA, uniqueB;  ///< each slot's index into uniqueParticles
    /** Whether two slots other than Self's diagonal can hold the same atom (such a pair counts 0). */
    bool sameAtomPossible = false;
    SwitchingFunctionConstants switching;
    std::string energyExpression;                       ///< the user's text
    std::vector<std::string> globalParameterNames;
    Lepton::ParsedExpression energy, energyDerivative;  ///< E(s) and dE/ds, optimized
    std::vector<std::string> energyParameterDerivativeNames;
    std::vector<Lepton::ParsedExpression> energyParameterDerivatives; ///< dE/dlambda, same order
    /**
     * A CoordinationNumberForce's per-atom numbers and reductions (numbers.enabled). The energy is then a
     * function of the reductions' names and energyDerivative is unused (numbers.energyDerivatives instead).
     */
    ResolvedCoordinationNumbers numbers;
    /** The cutoff (nm): infinity for none. */
    double getCutoff() const { return switching.dmax; }
    /**
     * Whether any particle of the groups has a coordinate that is infinite or NaN. Such a configuration has no
     * coordination number: every platform then reports s and the energy as NaN and applies no force.
     */
    bool hasNonFinitePosition(const std::vector<OpenMM::Vec3>& positions) const {
        for (int particle : uniqueParticles)
            for (int axis = 0; axis < 3; axis++)
                if (!std::isfinite(positions[particle][axis]))
                    return true;
        return false;
    }
    /** The pairs of slots the sum runs over: Self n(n-1)/2, Dual nA*nB, Pair nA (same-atom pairs included). */
    long long getNumSlotPairs() const {
        const long long a = groupA.size(), b = groupB.size();
        return (mode == CoordinationForce::Self ? a * (a - 1) / 2 : (mode == CoordinationForce::Dual ? a * b : a));
    }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_*/
