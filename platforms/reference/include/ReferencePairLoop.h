#ifndef REFERENCE_PAIR_LOOP_H_
#define REFERENCE_PAIR_LOOP_H_

#include "internal/geometry/MinimumImage.h"
#include "internal/groups/ResolvedPairGroups.h"
#include "openmm/Vec3.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/reference/ReferencePlatform.h"
#include <vector>

namespace CoordinationPlugin {

/**
 * The pairs of a PairSwitchingForce on the Reference platform: plain double-precision loops over the slots of the
 * mode, shared by the CoordinationForce and CoordinationNumberForce kernels (the oracle the other platforms are
 * tested against, so it stays simple).
 */
class ReferencePairLoop {
public:
    /** The Reference platform's data of a context. */
    static OpenMM::ReferencePlatform::PlatformData& dataOf(OpenMM::ContextImpl& context) {
        return *static_cast<OpenMM::ReferencePlatform::PlatformData*>(context.getPlatformData());
    }
    /**
     * The positions the member ids index: the particles' own, followed by the centres' (computed into extended)
     * where the force has centres.
     */
    static const std::vector<OpenMM::Vec3>& memberPositions(const ResolvedPairGroups& groups,
                                                            OpenMM::ReferencePlatform::PlatformData& data,
                                                            std::vector<OpenMM::Vec3>& extended) {
        if (groups.centers.size() == 0)
            return *data.positions;
        extended = groups.centers.extendPositions(*data.positions, data.periodicBoxVectors);
        return extended;
    }
    /**
     * visit(k, l, delta) for every pair of slots of the mode, in order (Self: slots k < l of A; Dual: k of A, l of B;
     * Pair: k with k), with delta = x(B's or A's slot l) - x(A's slot k), its minimum image where the force is
     * periodic (the exact one in any box: MinimumImage).
     */
    template <class Visit>
    static void forEachPair(const ResolvedPairGroups& groups, const std::vector<OpenMM::Vec3>& positions,
                            const OpenMM::Vec3* boxVectors, Visit&& visit) {
        const MinimumImage minimumImage(boxVectors);
        const std::vector<int>& groupA = groups.groupA;
        const bool self = (groups.mode == PairSwitchingForce::Self);
        const std::vector<int>& groupB = (self ? groups.groupA : groups.groupB);
        auto pair = [&](int k, int l) {
            OpenMM::Vec3 delta = positions[groupB[l]] - positions[groupA[k]];
            if (groups.periodic)
                delta = minimumImage(delta);
            visit(k, l, delta);
        };
        if (groups.mode == PairSwitchingForce::Pair) {
            for (int k = 0; k < (int)groupA.size(); k++)
                pair(k, k);
            return;
        }
        for (int k = 0; k < (int)groupA.size(); k++)
            for (int l = (self ? k + 1 : 0); l < (int)groupB.size(); l++)
                pair(k, l);
    }
};

} // namespace CoordinationPlugin

#endif /*REFERENCE_PAIR_LOOP_H_*/
