#ifndef CPU_LOCAL_STEP_H_
#define CPU_LOCAL_STEP_H_

#include "CpuPairEngine.h"
#include "internal/forces/ResolvedPerAtomForce.h"
#include "internal/peratom/LocalSteps.h"
#include "internal/peratom/PerAtomSteps.h"
#include "openmm/Vec3.h"
#include "openmm/internal/ContextImpl.h"
#include <memory>
#include <vector>

namespace CoordinationPlugin {

/**
 * The local step of a per-atom force on the CPU platform (ResolvedPerAtom::LocalStep): its own pair engine over the
 * pairs of group A (ResolvedPerAtomForce::localPairs) with the local term (src/CpuLocalTerm.h), the local vectors
 * and s_i from LocalSteps. Per slot of A: the force's values in, s_i out; backward, dE/ds_i in, the forces of the
 * local pass applied and dE/dv per slot out for the force's own pair pass.
 */
class CpuLocalStep {
public:
    /**
     * The step of force (which has one); steps are the force's (kept by reference); repeated: (slot of A, the earlier
     * slot of the same member), whose sums are copied from that slot's.
     */
    void setParameters(const ResolvedPerAtomForce& force, const PerAtomSteps& steps,
                       const std::vector<std::pair<int, int>>& repeated);
    /**
     * s of each central slot of A (all of A, or those before the local neighbours) from the slots' values (the
     * force's components each, slot-major); false (s untouched) where a coordinate is not finite. Only the
     * neighbours' x = [1, u] enter the sums (with local neighbours, the central slots' x are 0).
     */
    bool computeValues(OpenMM::ContextImpl& context, const std::vector<double>& values, std::vector<double>& s);
    /**
     * After computeValues(): from dE/ds per central slot, the local pass's forces added to forces, and dE/dv per
     * slot of A (the force's components each) into dEdValues.
     */
    void applyForces(OpenMM::ContextImpl& context, const std::vector<double>& dEds, std::vector<double>& dEdValues,
                     std::vector<OpenMM::Vec3>& forces);

private:
    /** One local pass with data per entry (Forces: the gradient, else the per-entry sums of t x). */
    template <bool Forces>
    void localPass(OpenMM::ContextImpl& context, const std::vector<double>& data);
    CpuPairEngine engine;
    std::unique_ptr<LocalSteps> localSteps;
    int numComponents = 1; // the force's values per slot
    int numCentral = 0;    // the slots with an s_i (ResolvedPerAtomForce::numCentral)
    int firstNeighbor = 0; // the first slot that is a neighbour of the local step (0: every slot is one)
    int numSlots = 0;      // the slots of A (the local neighbours after the central slots)
    bool isNeighbor(long long slot) const { return slot >= firstNeighbor; }
    std::vector<double> values, local, sums; // per slot: v, u and [W, P] of the last computeValues()
    std::vector<double> entryData;           // per entry of the local engine: what a pass reads
    std::vector<std::pair<int, int>> repeatedSlots; // (slot of A, the earlier slot of the same member)
};

} // namespace CoordinationPlugin

#endif /*CPU_LOCAL_STEP_H_*/
