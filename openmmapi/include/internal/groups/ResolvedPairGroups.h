#ifndef OPENMM_COORDINATION_RESOLVEDPAIRGROUPS_H_
#define OPENMM_COORDINATION_RESOLVEDPAIRGROUPS_H_

#include "PairSwitchingForce.h"
#include "internal/centres/ResolvedCenters.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Vec3.h"
#include <cmath>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The pairs of a PairSwitchingForce (a CoordinationForce's, a CoordinationNumberForce's), resolved: the groups as
 * member ids, their unique members, the centres, the periodic flag and the switching function's constants. Part of
 * every such force's resolved description (ResolvedCoordinationForce, ResolvedPerAtomForce), from which
 * the platforms' pair loops are built.
 *
 * Copy it by construction or move it: Lepton's copy assignment of an empty ParsedExpression (the Custom members of
 * another type) dereferences a null operation.
 */
struct OPENMM_EXPORT_COORDINATION ResolvedPairGroups {
    PairSwitchingForce::Mode mode = PairSwitchingForce::Self;
    bool periodic = false;
    /**
     * The member ids of the slots, one per slot (B empty in Self mode): a particle index, or numParticles + k for
     * centre k (ResolvedCenters; the user's id -1 - k).
     */
    std::vector<int> groupA, groupB;
    std::vector<int> uniqueParticles;   ///< every member id of a group, once, in increasing order (centres last)
    std::vector<int> uniqueA, uniqueB;  ///< each slot's index into uniqueParticles (the gradient rows)
    /**
     * Whether two slots other than Self's diagonal can hold the same member (such a pair counts 0): the same
     * particle, or the same centre. A centre and one of its own particles are two members.
     */
    bool sameAtomPossible = false;
    /** The centres that group entries refer to (every centre of the force, used or not). */
    ResolvedCenters centers;
    /**
     * Every particle whose coordinates the force reads, once, in increasing order: the groups' particles and the
     * particles of the centres in a group.
     */
    std::vector<int> inputParticles;
    SwitchingFunctionConstants switching;
    /**
     * Check the groups, the mode and the switching function of force (messages start with its class's name, and
     * name the bad value and what is allowed) and resolve them, with its centres already resolved.
     */
    static ResolvedPairGroups resolve(const PairSwitchingForce& force, ResolvedCenters centers);
    /**
     * Append entries (particle indices or centre ids, checked as group entries, named groupName in the messages after
     * prefix) to group A, a Self mode becoming Dual mode with group B the former group A (the same pairs for the
     * former entries; an entry never pairs with its own member).
     */
    void appendToGroupA(const std::vector<int>& entries, const std::string& prefix, const std::string& groupName);
    /**
     * Append entries (checked as appendToGroupA checks them) to group B of a Dual mode (appendToGroupA makes a Self
     * mode one first).
     */
    void appendToGroupB(const std::vector<int>& entries, const std::string& prefix, const std::string& groupName);
    /** The cutoff (nm): infinity for none. */
    double getCutoff() const { return switching.dmax; }
    /**
     * Whether any particle of the groups, or of a centre in a group, has a coordinate that is infinite or NaN.
     * Such a configuration has no coordination number: every platform then reports the variables and the energy as
     * NaN and applies no force.
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
        return (mode == PairSwitchingForce::Self ? a * (a - 1) / 2 : (mode == PairSwitchingForce::Dual ? a * b : a));
    }

private:
    /** uniqueParticles, uniqueA, uniqueB, sameAtomPossible and inputParticles from the mode, groups and centres. */
    void indexMembers();
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDPAIRGROUPS_H_*/
