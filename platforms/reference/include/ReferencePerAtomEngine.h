#ifndef REFERENCE_PER_ATOM_ENGINE_H_
#define REFERENCE_PER_ATOM_ENGINE_H_

#include "internal/forces/ResolvedPerAtomForce.h"
#include "internal/peratom/PerAtomSteps.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"
#include "openmm/Vec3.h"
#include "openmm/reference/ReferencePlatform.h"
#include <memory>
#include <vector>

namespace CoordinationPlugin {

/**
 * The per-atom engine on the Reference platform (the oracle): the steps of a ResolvedPerAtom, each a plain
 * double-precision loop.
 *
 * - pairPass: every counted pair of entries (k of A with l of B, or of A in Self mode, where the pair adds to both
 *   entries) adds the pair term to its entries' values: numComponents numbers per entry of A, functions of the
 *   bond vector d (from the entry to its neighbour) weighted by sigma(r). With dEdValues it is the backward pass:
 *   the forces -sum_k sum_c dE/dv_kc dv_kc/dx instead.
 * - atomStep: each entry's number q_i from its values; atomStepBackward: dE/dv_i from dE/dq_i.
 *
 * The reductions and the energy of the q_i are PerAtomReductions'.
 */
class ReferencePerAtomEngine {
public:
    explicit ReferencePerAtomEngine(const ResolvedPerAtomForce& force);
    /** The values per entry of A (numComponents each, entry-major) at the positions; all NaN if one is not finite. */
    std::vector<double> pairPass(OpenMM::ReferencePlatform::PlatformData& data) const;
    /** The backward pair pass: -sum_k sum_c dEdValues[k][c] dv_kc/dx added to data's forces. */
    void applyForces(OpenMM::ReferencePlatform::PlatformData& data, const std::vector<double>& dEdValues) const;
    /** q_i of each entry from its values. */
    std::vector<double> atomStep(const std::vector<double>& values) const;
    /** dE/dv_i of each entry (numComponents each) from dE/dq_i. */
    std::vector<double> atomStepBackward(const std::vector<double>& values, const std::vector<double>& dEdq) const;

private:
    /**
     * The pair pass: with dEdValues null the values (into values), else the forces (into memberForces, over the
     * members: particles, then centres).
     */
    void visitPairs(OpenMM::ReferencePlatform::PlatformData& data, std::vector<double>* values,
                    const std::vector<double>* dEdValues, std::vector<OpenMM::Vec3>* memberForces) const;
    std::unique_ptr<ResolvedPerAtomForce> force;
    std::unique_ptr<SwitchingFunctionEvaluator> switching;
    /** The pair term and the per-atom step. */
    std::unique_ptr<PerAtomSteps> steps;
};

} // namespace CoordinationPlugin

#endif /*REFERENCE_PER_ATOM_ENGINE_H_*/
