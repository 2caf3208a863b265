#ifndef OPENMM_COORDINATION_RESOLVEDPERATOM_H_
#define OPENMM_COORDINATION_RESOLVEDPERATOM_H_

#include "CoordinationNumberForce.h"
#include "lepton/ParsedExpression.h"
#include <cfloat>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * One reduction of the per-atom values, resolved: every platform evaluates it from these expressions.
 *
 * Apart from Highest and Lowest, a reduction is R = outer(S) with S = sum over the entries i of group A of
 * term(v_i), where v_i = q_i, or q_i - mean(q) where centred (Moment). So dR/dq_i = outer'(S) * term'(v_i), and where
 * centred dR/dq_i = outer'(S) * (term'(v_i) - T / N) with T = sum_j term'(v_j) (the mean depends on every q_j).
 * Highest and Lowest: R = max_i q_i (min_i q_i), dR/dq_i = 1 for the first entry holding it, 0 for the others.
 */
struct ResolvedReduction {
    CoordinationNumberForce::ReductionType type = CoordinationNumberForce::Sum;
    std::string name;                                ///< the variable's name in the energy expression
    bool centred = false;                            ///< Moment: the term is of q_i - mean(q)
    bool extreme = false;                            ///< Highest or Lowest
    bool highest = false;                            ///< Highest (with extreme)
    /** term(v), term'(v) of termVariable(); outer(S), outer'(S) of outerVariable() (N substituted). */
    Lepton::ParsedExpression term, termDerivative, outer, outerDerivative;
    static const char* termVariable() { return "v"; }
    static const char* outerVariable() { return "S"; }
};

/**
 * The per-atom engine's composition for one force, resolved: the steps every platform runs, in order.
 *
 * 1. The pair pass: each counted pair of entries (Self: k < l of A, adding to both; Dual: k of A, l of B, adding to
 *    k) adds pairTerm to the per-atom value of its entries: numComponents numbers per entry, functions of the bond
 *    vector weighted by the switching function. A pair counts where r^2 >= minimumDistanceSquared and
 *    sigma(r) >= minimumSwitch (PLUMED's CONTACT_MATRIX).
 * 2. The per-atom step: q_i, the number each entry's value reduces to (atomStep).
 * 3. The reductions of the q_i (reductions), and the energy of the reductions (the force's ResolvedEnergy).
 * 4. The backward passes: w_i = dE/dq_i, through the per-atom step to dE/dv_i, and the pair pass again, which applies
 *    -sum_i dE/dv_i dv_i/dx.
 *
 * PLUMED's COORDINATIONNUMBER is the simplest composition: one component, sigma(r) r^p (p = rPower; 0 gives the
 * coordination number), and q_i = v_i.
 */
struct ResolvedPerAtom {
    /** What a counted pair adds to its entries' values. */
    enum class PairTerm {
        /** One component: sigma(r) r^rPower (COORDINATIONNUMBER, COORDINATION_MOMENTS). */
        SwitchTimesPower
    };
    /** How an entry's value becomes its number q_i. */
    enum class AtomStep {
        /** q_i = v_i (one component). */
        Identity
    };
    PairTerm pairTerm = PairTerm::SwitchTimesPower;
    int numComponents = 1;
    double rPower = 0.0;
    AtomStep atomStep = AtomStep::Identity;
    std::vector<ResolvedReduction> reductions;
    /** PLUMED's CONTACT_MATRIX drops a pair with r^2 (nm^2) below DBL_EPSILON... */
    static constexpr double minimumDistanceSquared = DBL_EPSILON;
    /** ...and a pair whose switching function is below DBL_EPSILON. */
    static constexpr double minimumSwitch = DBL_EPSILON;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDPERATOM_H_*/
