#ifndef OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_
#define OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_

#include "CoordinationForce.h"
#include "internal/ResolvedCenters.h"
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
    /**
     * The member ids of the slots, one per slot (B empty in Self mode): a particle index, or numParticles + k for
     * centre k (ResolvedCenters; the user's id -1 - k).
     */
    std::vector<int> groupA, groupB;
    std::vector<int> uniqueParticles;   ///< every member id of a group, once, in increasing order (centres last)
    std::vector<int> uniqueA, uniqueB;  ///< each slot's index into uniqueParticles (the CPU's gradient rows)
    /**
     * Whether two slots other than Self's diagonal can hold the same member (such a pair counts 0): the same
     * particle, or the same centre. A centre and one of its own particles are two members.
     */
    bool sameAtomPossible = false;
    /** The centres that group entries refer to (every centre of the force, used or not). */
    ResolvedCenters centers;
    /**
     * Every particle whose coordinates the force reads, once, in increasing order: the groups' particles and
     * the particles of the centres in a group.
     */
    std::vector<int> inputParticles;
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
     * Whether any particle of the groups, or of a centre in a group, has a coordinate that is infinite or NaN.
     * Such a configuration has no coordination number: every platform then reports s and the energy as NaN and
     * applies no force.
     */
    bool hasNonFinitePosition(const std::vector<OpenMM::Vec3>& positions) const {
        for (int particle : inputParticles)
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
