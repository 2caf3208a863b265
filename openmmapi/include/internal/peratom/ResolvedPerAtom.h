#ifndef OPENMM_COORDINATION_RESOLVEDPERATOM_H_
#define OPENMM_COORDINATION_RESOLVEDPERATOM_H_

#include "PerAtomForce.h"
#include "lepton/ParsedExpression.h"
#include <cfloat>
#include <cmath>
#include <limits>
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
 *
 * Min, Max and AltMin (logSumExp) are PLUMED's R = f(L), L = log sum_i exp(u(q_i)), with u(q) = beta/q, q/beta and
 * -beta q, and f(L) = beta/L, beta L and -L/beta. They are evaluated shifted by the entry m of the largest u (the
 * first entry of the highest q where lseHighest, else of the lowest; the numbers are never negative), so nothing
 * overflows where R is finite: d_i = u(q_i) - u(q_m) <= 0 written without u itself (lseShift), S = sum_i exp(d_i)
 * (>= 1), l = log S, and R = q_m + beta l (Max), q_m - l/beta (AltMin), q_m/(1 + q_m l/beta) (Min; beta/(l +
 * beta/q_m) where q_m l/beta overflows). dR/dq_i = p_i h_i with p_i = exp(d_i)/S, h_i = 1 (Max, AltMin) or
 * (R/q_i)^2 (Min; 1 where q_i = 0, its limit: then q_i = q_m and R = 0). A non-finite q gives a NaN R.
 *
 * VectorMean and VectorSum (vector) are of the entries' vectors u_i (ResolvedPerAtom::vectorComponents() numbers each,
 * ResolvedPerAtom::vectorMetric() weighing them): S = |V| = sqrt(sum_c metric_c V_c^2) with V = sum_i u_i, and R =
 * outer(S) (S / N or S). dR/du_i,c = outer'(S) metric_c V_c / S, the same for every entry (0 where S = 0); they do
 * not depend on the q_i.
 */
struct ResolvedReduction {
    PerAtomForce::ReductionType type = PerAtomForce::Sum;
    std::string name;                                ///< the variable's name in the energy expression
    bool centred = false;                            ///< Moment: the term is of q_i - mean(q)
    bool extreme = false;                            ///< Highest or Lowest
    bool highest = false;                            ///< Highest (with extreme)
    bool logSumExp = false;                          ///< Min, Max or AltMin (beta; term and outer are unused)
    double beta = 0.0;                               ///< BETA of Min, Max and AltMin
    bool lseHighest = false;                         ///< logSumExp: the largest u is at the highest q
    bool vector = false;                             ///< VectorMean or VectorSum (of the vectors u_i; term unused)
    /** term(v), term'(v) of termVariable(); outer(S), outer'(S) of outerVariable() (N substituted). */
    Lepton::ParsedExpression term, termDerivative, outer, outerDerivative;
    static const char* termVariable() { return "v"; }
    static const char* outerVariable() { return "S"; }
    /** logSumExp: u(a) - u(b), written so that it does not overflow where the difference is finite. */
    double lseShift(double a, double b) const {
        if (a == b)
            return 0.0;
        switch (type) {
        case PerAtomForce::Max:
            return (a - b) / beta;
        case PerAtomForce::AltMin:
            return beta * (b - a);
        default: // Min: beta/a - beta/b
            return beta * ((b - a) / b) / a;
        }
    }
    /** logSumExp: R from q_m and l = log S. */
    double lseValue(double qm, double l) const {
        switch (type) {
        case PerAtomForce::Max:
            return qm + beta * l;
        case PerAtomForce::AltMin:
            return qm - l / beta;
        default: {
            const double t = qm * l / beta;
            return (std::isfinite(t) ? qm / (1 + t) : beta / (l + beta / qm));
        }
        }
    }
    /** logSumExp: h_i of entry q (dR/dq_i = exp(d_i)/S h_i) for the value R (called where exp(d_i) > 0). */
    double lseFactor(double q, double R) const {
        if (type != PerAtomForce::Min)
            return 1.0;
        const double ratio = (q == 0 ? 1.0 : R / q);
        return ratio * ratio;
    }
};

/**
 * The per-atom engine's composition for one force, resolved: the steps every platform runs, in order.
 *
 * 1. The pair pass: each counted pair of entries (Self: k < l of A, adding to both; Dual: k of A, l of B, adding to
 *    k) adds pairTerm to the per-atom value of its entries: numComponents numbers per entry, functions of the bond
 *    vector weighted by the switching function. A pair counts where r^2 >= minimumDistanceSquared and
 *    sigma(r) is not below minimumSwitch (PLUMED's CONTACT_MATRIX; a Custom function's NaN counts: applyNonFiniteRule).
 * 2. The per-atom step: q_i, the number each entry's value reduces to (atomStep).
 * 3. The reductions of the q_i (reductions), and the energy of the reductions (the force's ResolvedEnergy).
 * 4. The backward passes: w_i = dE/dq_i, through the per-atom step to dE/dv_i, and the pair pass again, which applies
 *    -sum_i dE/dv_i dv_i/dx.
 *
 * PLUMED's COORDINATIONNUMBER is the simplest composition: one component, sigma(r) r^p (p = rPower; 0 gives the
 * coordination number), and q_i = v_i. PLUMED's Q_l is SphericalHarmonics with NormOverWeight; its cubic functions
 * and COORDINATION_SHELL_FUNCTION are ShellFunction with SumOverWeight or Sum.
 */
struct ResolvedPerAtom {
    /**
     * One part of a ShellFunction pair term: a function g of the bond vector d = (x, y, z) and r = |d|, with its
     * partial derivatives (the gradient with respect to d is (dx, dy, dz) + dr d/r), and its parity: g(-d) =
     * parity g(d). A function f of no known parity is two parts in Self mode, its even part (f(d) + f(-d))/2 and its
     * odd part (f(d) - f(-d))/2, so that a pair's neighbour's term is its entry's times the parity.
     */
    struct ShellPart {
        Lepton::ParsedExpression value, dx, dy, dz, dr;
        int parity = 1;
    };
    /** The most parts a ShellFunction has. */
    static constexpr int MaxShellParts = 2;
    /** The variables of a ShellPart's expressions. */
    static const char* const* shellVariables() {
        static const char* const names[] = {"x", "y", "z", "r"};
        return names;
    }
    /** What a counted pair adds to its entries' values. */
    enum class PairTerm {
        /** One component: sigma(r) r^rPower (COORDINATIONNUMBER, COORDINATION_MOMENTS). */
        SwitchTimesPower,
        /**
         * 2l + 2 components (l = degree): sigma(r), then sigma(r) Y_lm(d) for m = 0 .. l as Re Y_l0, Re Y_l1, Im Y_l1,
         * ..., Re Y_ll, Im Y_ll (SphericalHarmonics; Im Y_l0 = 0, and the negative orders follow from the positive
         * ones). PLUMED's Q_l.
         */
        SphericalHarmonics,
        /**
         * sigma(r) (component 0, where shellNormalised), then sigma(r) g_p(d) for each part p of shellParts:
         * PLUMED's SIMPLECUBIC, TETRAHEDRAL, FCCUBIC and COORDINATION_SHELL_FUNCTION.
         */
        ShellFunction
    };
    /** How an entry's value becomes its number q_i. */
    enum class AtomStep {
        /** q_i = v_i (one component). */
        Identity,
        /**
         * Of SphericalHarmonics' components (N, then q_lm): q_i = sqrt(|q_l0|^2 + 2 sum_m>0 |q_lm|^2) / N, the norm
         * over all 2l + 1 orders divided by the weight; 0 where N = 0 (no neighbour) or the norm is 0, with a
         * gradient of 0 there.
         */
        NormOverWeight,
        /** q_i = the sum of the components (ShellFunction's parts, without the weight). */
        Sum,
        /**
         * Of ShellFunction's components (N, then the parts): q_i = (sum of the parts) / N; 0 where N = 0 (no
         * neighbour), with a gradient of 0 there.
         */
        SumOverWeight
    };
    /**
     * The step over each entry's neighbourhood between the q_i and the reductions (PerAtomForce::LocalStep). Each
     * entry has a local vector u_i of localComponents() numbers (localVector: q_i itself, or of SphericalHarmonics
     * q_lm / N (Average) or q_lm / |q_l| (DotProduct), as the real components of the orders m >= 0, which
     * vectorMetric() weighs 1 for m = 0 and 2 for m > 0 in a dot product, counting the negative orders); the local
     * pass adds, for each counted pair of distinct entries of A (both ways), [t, t u_j] to entry i's local sums
     * [W_i, P_i], t the local switching function; then s_i = (u_i + P_i) / (1 + W_i) (Average of one number),
     * |u_i + P_i| / (1 + W_i) (Average of vectors), or u_i . P_i / W_i (DotProduct; 0 where W_i = 0).
     */
    enum class LocalStep { None, Average, DotProduct };
    LocalStep localStep = LocalStep::None;
    /** The size of the local vector u_i: 2l + 1 for SphericalHarmonics, else 1 (q_i). */
    int localComponents() const { return pairTerm == PairTerm::SphericalHarmonics ? vectorComponents() : 1; }
    /**
     * The size of an entry's vector u_i = q_lm(i) / N_i of SphericalHarmonics (0 where N_i = 0), which VectorMean and
     * VectorSum sum, and LocalStep::Average averages: the real components of the orders m >= 0, 2l + 1 numbers.
     */
    int vectorComponents() const { return 2 * degree + 1; }
    /** The weight of vector component c in a norm or dot product: 1 for c = 0 (m = 0), 2 for the others (m and -m). */
    static double vectorMetric(int c) { return c == 0 ? 1.0 : 2.0; }
    /** sqrt(sum_c vectorMetric(c) a_c^2): the norm over all 2l + 1 orders of n components of the orders m >= 0. */
    static double vectorNorm(const double* a, int n) {
        double sum = 0.0;
        for (int c = 0; c < n; c++)
            sum += vectorMetric(c) * a[c] * a[c];
        return std::sqrt(sum);
    }
    /** Whether a reduction is of the vectors u_i (VectorMean, VectorSum). */
    bool hasVectorReductions() const {
        for (const ResolvedReduction& reduction : reductions)
            if (reduction.vector)
                return true;
        return false;
    }
    PairTerm pairTerm = PairTerm::SwitchTimesPower;
    int numComponents = 1;
    double rPower = 0.0;
    /** l of SphericalHarmonics. */
    int degree = 0;
    /** The number of components of SphericalHarmonics of degree l. */
    static int sphericalHarmonicsComponents(int l) { return 2 * l + 2; }
    /** ShellFunction: the parts (one, or an even and an odd part) and whether component 0 is the weight sigma. */
    std::vector<ShellPart> shellParts;
    bool shellNormalised = false;
    AtomStep atomStep = AtomStep::Identity;
    std::vector<ResolvedReduction> reductions;
    /**
     * Whether the pair term, its components and the per-atom step are one of the compositions every engine runs
     * (COORDINATIONNUMBER's, Q_l's, a shell function's); the engines refuse any other.
     */
    bool isKnownComposition() const {
        switch (pairTerm) {
        case PairTerm::SwitchTimesPower:
            return atomStep == AtomStep::Identity && numComponents == 1 && localStep != LocalStep::DotProduct;
        case PairTerm::SphericalHarmonics:
            return atomStep == AtomStep::NormOverWeight && numComponents == sphericalHarmonicsComponents(degree);
        case PairTerm::ShellFunction: {
            const int numParts = shellParts.size();
            return localStep != LocalStep::DotProduct && numParts > 0 && numParts <= MaxShellParts && numComponents == (shellNormalised ? 1 : 0) + numParts &&
                   atomStep == (shellNormalised ? AtomStep::SumOverWeight : AtomStep::Sum);
        }
        }
        return false;
    }
    /** PLUMED's CONTACT_MATRIX drops a pair with r^2 (nm^2) below DBL_EPSILON... */
    static constexpr double minimumDistanceSquared = DBL_EPSILON;
    /** ...and a pair whose switching function is below DBL_EPSILON. */
    static constexpr double minimumSwitch = DBL_EPSILON;
    /**
     * The rule of every platform: a pair pass that meets a value that is not finite (a non-finite coordinate, a
     * Custom function's NaN, an overflow; on a GPU also a term beyond its fixed point, limitations.md) makes every
     * per-atom value of that evaluation NaN, hence NaN reductions, a NaN energy and no force.
     */
    static void applyNonFiniteRule(std::vector<double>& values) {
        for (double value : values)
            if (!std::isfinite(value)) {
                values.assign(values.size(), std::numeric_limits<double>::quiet_NaN());
                return;
            }
    }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDPERATOM_H_*/
