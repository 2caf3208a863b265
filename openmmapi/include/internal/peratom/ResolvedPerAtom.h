#ifndef OPENMM_COORDINATION_RESOLVEDCOORDINATIONNUMBERS_H_
#define OPENMM_COORDINATION_RESOLVEDCOORDINATIONNUMBERS_H_

#include "CoordinationNumberForce.h"
#include "lepton/ParsedExpression.h"
#include <cfloat>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * One reduction of a CoordinationNumberForce, resolved: every platform evaluates it from these expressions.
 *
 * Apart from Highest and Lowest, a reduction is R = outer(S) with S = sum over the entries i of group A of
 * term(v_i), where v_i = c_i, or c_i - mean(c) where centred (Moment). So
 * dR/dc_i = outer'(S) * term'(v_i), and where centred
 * dR/dc_i = outer'(S) * (term'(v_i) - T / N) with T = sum_j term'(v_j) (the mean depends on every c_j).
 * Highest and Lowest: R = max_i c_i (min_i c_i), dR/dc_i = 1 for the first entry holding it, 0 for the others.
 */
struct ResolvedReduction {
    CoordinationNumberForce::ReductionType type = CoordinationNumberForce::Sum;
    std::string name;                                ///< the variable's name in the energy expression
    bool centred = false;                            ///< Moment: the term is of c_i - mean(c)
    bool extreme = false;                            ///< Highest or Lowest
    bool highest = false;                            ///< Highest (with extreme)
    /** term(v), term'(v) of the variable VariableName; outer(S), outer'(S) of OuterVariableName (N substituted). */
    Lepton::ParsedExpression term, termDerivative, outer, outerDerivative;
    static const char* termVariable() { return "v"; }
    static const char* outerVariable() { return "S"; }
};

/**
 * The per-atom part of a resolved CoordinationNumberForce (enabled is false for a CoordinationForce).
 * The pair rule, on every platform: for each pair of entries (Self: k < l of A, the pair adds to c_k and c_l;
 * Dual: k of A, l of B, the pair adds to c_k) with r^2 >= minimumDistanceSquared and sigma(r) >=
 * minimumSwitch, v = sigma(r) r^rPower is added; its r-derivative is sigma'(r) r^p + p sigma(r) r^(p-1).
 */
struct ResolvedCoordinationNumbers {
    bool enabled = false;
    double rPower = 0.0;
    std::vector<ResolvedReduction> reductions;
    /** dE/dR of each reduction, in the reductions' order (the energy itself is the force's energy). */
    std::vector<Lepton::ParsedExpression> energyDerivatives;
    /** PLUMED's CONTACT_MATRIX drops a pair with r^2 (nm^2) below DBL_EPSILON... */
    static constexpr double minimumDistanceSquared = DBL_EPSILON;
    /** ...and a pair whose switching function is below DBL_EPSILON. */
    static constexpr double minimumSwitch = DBL_EPSILON;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDCOORDINATIONNUMBERS_H_*/
