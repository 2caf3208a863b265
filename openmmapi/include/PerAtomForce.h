#ifndef OPENMM_COORDINATION_PERATOMFORCE_H_
#define OPENMM_COORDINATION_PERATOMFORCE_H_

#include "PairSwitchingForce.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * What the per-atom forces share (CoordinationNumberForce: PLUMED's COORDINATIONNUMBER; SteinhardtForce: its Q_l):
 * each entry i of group A has a number q_i computed from its switched pairs (the subclass says which), and the
 * reductions turn the q_i into named collective variables (the names are PLUMED's component names with "-" written
 * "_"); the energy is a Lepton expression of them and of global parameters (default "0": the force only reports its
 * values). Each reduction's parameters are the text PLUMED's keyword holds:
 * @code
 * type      default name   parameters                                     value (N entries of group A)
 * Sum       sum            ""                                             sum_i q_i
 * Mean      mean           ""                                             sum_i q_i / N
 * MoreThan  morethan       a switching function: "RATIONAL R_0=4 NN=6"    sum_i 1 - s(q_i)
 * LessThan  lessthan       a switching function: "EXP R_0=4"              sum_i s(q_i)
 * Between   between        "GAUSSIAN LOWER=a UPPER=b SMEAR=0.5"           sum_i 0.5 (erf((b - q_i)/(sqrt(2) w)) - erf((a - q_i)/(sqrt(2) w))),
 *                          or "TRIANGULAR ..." (w = SMEAR (b - a))          the histogram bead of PLUMED
 * Min       min            "BETA=b"                                       b / log(sum_i exp(b / q_i))
 * Max       max            "BETA=b"                                       b log(sum_i exp(q_i / b))
 * AltMin    altmin         "BETA=b"                                       -log(sum_i exp(-b q_i)) / b
 * Highest   highest        ""                                             max_i q_i
 * Lowest    lowest         ""                                             min_i q_i
 * Moment    moment_k       "k", an integer >= 2                           sum_i (q_i - mean)^k / N
 * VectorMean vmean         ""                                             |sum_i u_i| / N   (SteinhardtForce only)
 * VectorSum vsum           ""                                             |sum_i u_i|       (SteinhardtForce only)
 * @endcode
 *
 * VectorMean and VectorSum are PLUMED's VMEAN and VSUM of a Q_l action, the global order parameter: the norm (over
 * all 2l + 1 orders) of the mean or the sum of the entries' vectors u_i = q_lm(i) / N_i (u_i = 0 for an entry with
 * no neighbours, where PLUMED has 0/0). They are of a SteinhardtForce without a local step (PLUMED's LOCAL_Q_l and
 * LOCAL_AVERAGE have no VMEAN); a Context refuses them elsewhere. Where the vector sum is 0 their value is 0 and
 * its gradient, which the norm lacks there, is taken as 0.
 *
 * The switching function s of MoreThan and LessThan is PLUMED's SWITCH={...} of any type (RATIONAL, EXP,
 * GAUSSIAN, SMAP, CUBIC, TANH, COSINUS, Q, CUSTOM), applied to the number q_i with no units; RATIONAL without
 * D_MAX has no cutoff there (PLUMED's SWITCH form). Highest and Lowest pass their derivative to the first
 * entry holding the extreme value. PLUMED's numbered keywords (LESS_THAN1=, LESS_THAN2=) are reductions named
 * "lessthan_1", "lessthan_2". Min, Max and AltMin are evaluated shifted by their largest exponent, so they overflow
 * nowhere their value is finite (BETA from the smallest to the largest double); Min of numbers one of which is 0 is
 * 0, its derivative the limit (1 shared by the entries holding 0), PLUMED's 0/0 there.
 *
 * Modes: Self (PLUMED's SPECIES=A: B is A) and Dual (SPECIESA=A SPECIESB=B); Pair mode has no per-atom values and is
 * refused when a Context is created. Centres (addCenter()) may stand in either group: a centre in group A has its own
 * q_i, and a centre in group B counts as a neighbour. As in PLUMED's CONTACT_MATRIX, a pair closer than DBL_EPSILON in
 * r^2 (1.5e-8 nm: the same atom, or two atoms at one place) contributes 0, and so does a pair whose sigma is below
 * DBL_EPSILON (2.2e-16). Where there is no finite answer (a non-finite coordinate or pair term, which makes every
 * q_i NaN, or a reduction, the energy or a dE/dq_i that is not finite) the energy is NaN and no force is applied, on
 * every platform. It is not created itself.
 */
class OPENMM_EXPORT_COORDINATION PerAtomForce : public PairSwitchingForce {
public:
    /**
     * How the per-atom values q_i are reduced to a collective variable (see the class comment for each).
     */
    enum ReductionType {
        /** PLUMED's SUM: the sum of the q_i. */
        Sum = 0,
        /** PLUMED's MEAN: the mean of the q_i. */
        Mean = 1,
        /** PLUMED's MORE_THAN: the number of q_i above a threshold, sum of 1 - s(q_i). */
        MoreThan = 2,
        /** PLUMED's LESS_THAN: the number of q_i below a threshold, sum of s(q_i). */
        LessThan = 3,
        /** PLUMED's BETWEEN: the number of q_i in an interval (a histogram bead). */
        Between = 4,
        /** PLUMED's MIN: the smooth minimum b / log(sum exp(b / q_i)). */
        Min = 5,
        /** PLUMED's MAX: the smooth maximum b log(sum exp(q_i / b)). */
        Max = 6,
        /** PLUMED's ALT_MIN: the smooth minimum -log(sum exp(-b q_i)) / b. */
        AltMin = 7,
        /** PLUMED's HIGHEST: the largest q_i. */
        Highest = 8,
        /** PLUMED's LOWEST: the smallest q_i. */
        Lowest = 9,
        /** PLUMED's MOMENTS: a central moment of the q_i. */
        Moment = 10,
        /** PLUMED's VMEAN (SteinhardtForce): the norm of the mean of the vectors q_lm(i) / N_i. */
        VectorMean = 11,
        /** PLUMED's VSUM (SteinhardtForce): the norm of the sum of the vectors q_lm(i) / N_i. */
        VectorSum = 12
    };
    /**
     * Get the number of reductions.
     *
     * @return default 0
     */
    int getNumReductions() const { return reductions.size(); }
    /**
     * Add a reduction: a collective variable of the q_i that the energy expression may use by its name.
     * Checked when a Context is created (an OpenMMException names a bad parameter or a repeated name).
     *
     * @param type         one of the ReductionType values
     * @param parameters   the text of PLUMED's keyword (see the class comment): "" for Sum, Mean, Highest,
     *                     Lowest, VectorMean and VectorSum; a switching function for MoreThan and LessThan ("RATIONAL R_0=4");
     *                     "GAUSSIAN LOWER=a UPPER=b SMEAR=s" for Between; "BETA=b" for Min, Max and AltMin;
     *                     the power ("2") for Moment
     * @param name         the variable's name in the energy expression; "" (the default) means the type's
     *                     PLUMED component name (getDefaultReductionName())
     * @return the index of the reduction
     */
    int addReduction(ReductionType type, const std::string& parameters = "", const std::string& name = "");
    /**
     * Get a reduction's settings.
     *
     * @param index        0 .. getNumReductions() - 1 (another index throws an OpenMMException)
     * @param type        its type
     * @param parameters  its parameters, as set
     * @param name        its name, as set ("" for the default)
     */
    void getReductionParameters(int index, ReductionType& type, std::string& parameters, std::string& name) const;
    /**
     * Change a reduction's settings (in a Context: with updateParametersInContext(), which cannot change the
     * names or the number of reductions).
     *
     * @param index        0 .. getNumReductions() - 1 (another index throws an OpenMMException)
     * @param type         its type
     * @param parameters   its parameters (see addReduction())
     * @param name         its name ("" for the default)
     */
    void setReductionParameters(int index, ReductionType type, const std::string& parameters, const std::string& name);
    /**
     * The name a reduction has when none is given: PLUMED's component name ("sum", "mean", "morethan",
     * "lessthan", "between", "min", "max", "altmin", "highest", "lowest", "moment_k", "vmean", "vsum").
     *
     * @param type         the reduction's type
     * @param parameters   its parameters (Moment's power is part of its name)
     * @return the name
     */
    static std::string getDefaultReductionName(ReductionType type, const std::string& parameters);
    /**
     * Get the number of collective variables: one per reduction.
     *
     * @return getNumReductions()
     */
    int getNumCollectiveVariables() const override { return reductions.size(); }
    /**
     * Get the name of a collective variable: the reduction's name (its default if it was given none).
     *
     * @param index   0 .. getNumCollectiveVariables() - 1 (another index throws an OpenMMException)
     * @return the name the energy expression uses
     */
    std::string getCollectiveVariableName(int index) const override;
    /**
     * Get the per-atom values q_i at the context's current positions (with a local step, its s_i: what the reductions
     * take), computed by the context's platform: one per entry of group A, in its order (on a GPU, they are
     * downloaded). For a force inside a CustomCVForce, pass the Context of the CustomCVForce's System.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    the q_i (the s_i with a local step)
     */
    void getPerAtomValues(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * A step over each entry's neighbourhood between the q_i and the reductions (PLUMED's LOCAL_AVERAGE and
     * LOCAL_Q_l). With one, the reductions and getPerAtomValues() are of its s_i, and the pairs of the step are the
     * pairs of distinct entries of group A (in either mode), weighted by the step's own switching function t
     * (setLocalSwitchingSettings()), with the same rules as the force's pairs (a pair closer than DBL_EPSILON in r^2,
     * or whose t is below DBL_EPSILON, counts 0).
     */
    enum LocalStep {
        /** No step: the reductions are of the q_i. */
        NoLocalStep = 0,
        /**
         * PLUMED's LOCAL_AVERAGE: s_i = (q_i + sum_j t(r_ij) q_j) / (1 + sum_j t(r_ij)). For a SteinhardtForce, of
         * the vectors q_lm(i) / N_i (all 2l + 1 orders; 0 for an entry with no neighbours), and s_i is the norm of that
         * average.
         */
        LocalAverage = 1,
        /**
         * PLUMED's LOCAL_Q_l, of a SteinhardtForce only: s_i = sum_j t(r_ij) Re(qhat_i . conj(qhat_j)) / sum_j
         * t(r_ij), with the unit vectors qhat = q_lm / norm(q_l), the norm over all 2l + 1 orders (qhat is 0 where q_l
         * is the zero vector: an entry with no neighbours, or odd l at a centre of inversion; such an entry still
         * counts in its neighbours' denominators); 0 where no pair counts.
         */
        LocalDotProduct = 2
    };
    /**
     * Get the step over each entry's neighbourhood.
     *
     * @return default NoLocalStep
     */
    LocalStep getLocalStep() const { return localStep; }
    /**
     * Set the step over each entry's neighbourhood (LocalDotProduct is for a SteinhardtForce; a Context refuses it
     * for another class). In a Context, updateParametersInContext() cannot change it.
     *
     * @param step   NoLocalStep, LocalAverage or LocalDotProduct
     */
    void setLocalStep(LocalStep step);
    /**
     * Get the switching function t of the local step's pairs.
     *
     * @return default SwitchingSettings(), as the force's own default (RATIONAL, r0 = 0.3 nm, the automatic cutoff)
     */
    SwitchingSettings getLocalSwitchingSettings() const { return localSwitching; }
    /**
     * Set the switching function t of the local step's pairs (checked where a Context is created, as the force's
     * own; PLUMED's SWITCH={...} of LOCAL_AVERAGE and LOCAL_Q_l).
     *
     * @param switching   its settings
     */
    void setLocalSwitchingSettings(const SwitchingSettings& switching) { localSwitching = switching; }
    /**
     * Get the local step's neighbours (PLUMED's SPECIESB of LOCAL_Q_l and LOCAL_AVERAGE).
     *
     * @return the 0-based particle indices (and centre ids), in the order given; default empty: the step's pairs are
     *         the pairs of distinct entries of group A
     */
    const std::vector<int>& getLocalNeighbors() const { return localNeighbors; }
    /**
     * Set the local step's neighbours: with atoms listed here, the step's pairs are (entry i of group A, entry j of
     * this list), and only they. Each neighbour j has its own q_j (its vector q_lm(j) for a SteinhardtForce) from the
     * same pairs as an entry of group A would: with group B's atoms in Dual mode, with group A's in Self mode (or with
     * setLocalNeighborPartners()'s atoms), and the same switching function; s_i, the reductions and
     * getPerAtomValues() stay those of group A's entries. A
     * neighbour that is also an entry of group A pairs with the other entries (an atom never with itself: such a pair
     * counts 0, as every pair closer than DBL_EPSILON in r^2). This is PLUMED's LOCAL_Q_l or LOCAL_AVERAGE with
     * SPECIESA=a SPECIESB=b where the actions a and b differ only in their central atoms (and, with
     * setLocalNeighborPartners(), in the atoms they pair them with). LocalAverage's own term is
     * the entry's own q_i (PLUMED's LOCAL_AVERAGE of a Q_l action adds the vector of the i-th atom of SPECIESB instead:
     * a difference the user guide states).
     *
     * @param atoms   0-based particle indices, or centres (the ids addCenter() returned); empty for the pairs of
     *                group A; a non-empty list needs a local step (checked where a Context is created)
     */
    void setLocalNeighbors(const std::vector<int>& atoms) { localNeighbors = atoms; }
    /**
     * Get the atoms whose pairs give each local neighbour its q_j (PLUMED: the atoms that the SPECIESB action counts
     * around its central atoms).
     *
     * @return the 0-based particle indices (and centre ids), in the order given; default empty: a neighbour's pairs
     *         are the force's own (group B's atoms in Dual mode, group A's in Self mode)
     */
    const std::vector<int>& getLocalNeighborPartners() const { return localNeighborPartners; }
    /**
     * Set the atoms whose pairs give each local neighbour its q_j: with atoms listed here, neighbour j's q_j (its
     * vector q_lm(j) for a SteinhardtForce) is of its pairs with these atoms, and only them, with the force's own
     * switching function and pair term (an atom never pairs with itself: such a pair counts 0; an atom listed twice
     * counts twice); the entries of group A keep their own pairs. This is PLUMED's LOCAL_Q_l or LOCAL_AVERAGE with
     * SPECIESA=a SPECIESB=b where b counts other atoms than a: for example a = COORDINATIONNUMBER SPECIES=1-5 and
     * b = COORDINATIONNUMBER SPECIES=1-64 with the same switching function give group A 1-5 (Self mode), local
     * neighbours 1-64 and partners 1-64.
     *
     * @param atoms   0-based particle indices, or centres (the ids addCenter() returned); empty for the force's own
     *                pairs; a non-empty list needs local neighbours (setLocalNeighbors(); checked where a Context is
     *                created)
     */
    void setLocalNeighborPartners(const std::vector<int>& atoms) { localNeighborPartners = atoms; }

protected:
    /**
     * A force in Self mode with empty groups, no reductions and the default switching function.
     *
     * @param energy   the energy expression
     */
    explicit PerAtomForce(const std::string& energy);
    /**
     * getPerAtomValues() for a method of a subclass (getCoordinationNumbers(), getOrderParameters()).
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @param method    the method, named in the message where the force is in no such Context
     * @param values    the q_i
     */
    void perAtomValues(OpenMM::Context& context, const std::string& method, std::vector<double>& values) const;

private:
    class ReductionInfo;
    std::vector<ReductionInfo> reductions;
    LocalStep localStep;
    SwitchingSettings localSwitching;
    std::vector<int> localNeighbors;
    std::vector<int> localNeighborPartners;
};

// Declared private in PerAtomForce: left out of the API reference.
/// @cond INTERNAL
/**
 * A reduction of a PerAtomForce, as set.
 */
class PerAtomForce::ReductionInfo {
public:
    /** Its type. */
    ReductionType type;
    /** Its parameters (PLUMED's keyword text). */
    std::string parameters;
    /** Its name; "" for the type's default. */
    std::string name;
    /** A Sum with no parameters and the default name. */
    ReductionInfo() : type(Sum) {}
    /**
     * A reduction.
     *
     * @param type         its type
     * @param parameters   its parameters
     * @param name         its name
     */
    ReductionInfo(ReductionType type, const std::string& parameters, const std::string& name)
        : type(type), parameters(parameters), name(name) {}
};
/// @endcond

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PERATOMFORCE_H_*/
