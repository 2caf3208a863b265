#ifndef REFERENCE_PER_ATOM_ENGINE_H_
#define REFERENCE_PER_ATOM_ENGINE_H_

#include "internal/forces/ResolvedPerAtomForce.h"
#include "internal/peratom/LocalSteps.h"
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
 * - the pair pass: every counted pair of entries (k of A with l of B, or of A in Self mode, where the pair adds to
 *   both entries) adds the pair term to its entries' values: numComponents numbers per entry of A, functions of the
 *   bond vector d (from the entry to its neighbour) weighted by sigma(r);
 * - the per-atom step: each entry's number q_i from its values;
 * - with a local step, each entry's local vector u_i, the local pass (every pair of distinct entries of A adds
 *   [t, t u_j] to entry i's local sums and [t, t u_i] to entry j's) and s_i (LocalSteps);
 * - with VectorMean or VectorSum, each entry's vector u_i = q_lm / N_i (PerAtomSteps::averageVector);
 * - backward (applyForces): from dE/dq_i (or dE/ds_i) and dE/du back through each step to -dE/dx.
 *
 * The reductions and the energy of the q_i (or s_i) are PerAtomReductions'.
 */
class ReferencePerAtomEngine {
public:
    explicit ReferencePerAtomEngine(const ResolvedPerAtomForce& force);
    /** What one evaluation keeps for its backward passes. */
    struct Evaluation {
        /** The pair pass's values per entry of A (numComponents each, entry-major); all NaN if one is not finite. */
        std::vector<double> values;
        /** With a local step: u_i (the local vectors) and [W_i, P_i] (the local sums), entry-major. */
        std::vector<double> local, sums;
        /** What the reductions take: q_i, or s_i with a local step... */
        std::vector<double> numbers;
        /** ...and with VectorMean or VectorSum, the vectors u_i (entry-major; else empty). */
        std::vector<double> vectors;
    };
    /** One evaluation at the positions. */
    Evaluation evaluate(OpenMM::ReferencePlatform::PlatformData& data) const;
    /**
     * The backward passes: -sum_i (dE/dnumbers_i dnumbers_i/dx + dE/du du_i/dx) added to data's forces (dEdVectors:
     * dE/du, the same for every entry, empty without vector reductions).
     */
    void applyForces(OpenMM::ReferencePlatform::PlatformData& data, const Evaluation& evaluation,
                     const std::vector<double>& dEdNumbers, const std::vector<double>& dEdVectors) const;

private:
    /**
     * The pair pass: with dEdValues null the values (into values), else the forces (into memberForces, over the
     * members: particles, then centres).
     */
    void visitPairs(const std::vector<OpenMM::Vec3>& positions, const OpenMM::Vec3* boxVectors,
                    std::vector<double>* values, const std::vector<double>* dEdValues,
                    std::vector<OpenMM::Vec3>* memberForces) const;
    /**
     * The local pass: with dEdSums null the local sums of the local vectors (into sums), else its backward pass:
     * the forces into memberForces and dE/du into dEdLocal.
     */
    void visitLocalPairs(const std::vector<OpenMM::Vec3>& positions, const OpenMM::Vec3* boxVectors,
                         const std::vector<double>& local, std::vector<double>* sums, const std::vector<double>* dEdSums,
                         std::vector<double>* dEdLocal, std::vector<OpenMM::Vec3>* memberForces) const;
    std::unique_ptr<ResolvedPerAtomForce> force;
    std::unique_ptr<SwitchingFunctionEvaluator> switching;
    /** The pair term and the per-atom step. */
    std::unique_ptr<PerAtomSteps> steps;
    /** The local step's switching function and its steps; null without one. */
    std::unique_ptr<SwitchingFunctionEvaluator> localSwitching;
    std::unique_ptr<LocalSteps> localSteps;
};

} // namespace CoordinationPlugin

#endif /*REFERENCE_PER_ATOM_ENGINE_H_*/
