#ifndef OPENMM_COORDINATIONFORCE_H_
#define OPENMM_COORDINATIONFORCE_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
#include "openmm/Force.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A bias on the coordination number of PLUMED's COORDINATION collective variable.
 *
 * The coordination number is a sum of a switching function over pairs of atoms,
 *
 *     s = sum over pairs (i, j) of sigma(r_ij),
 *
 * and the force's energy is a user-supplied function E(s) of it (a Lepton expression of the variable
 * "s" and of global parameters, for example "0.5*k*(s-s0)^2"). The force on atom i is
 * -dE/ds * ds/dx_i. Units: nm and kJ/mol.
 *
 * Which pairs are summed depends on the mode:
 * - Self (PLUMED: GROUPA only): all pairs (i, j), i < j, of the slots of group A.
 * - Dual (PLUMED: GROUPA and GROUPB): every (a, b) with a in group A and b in group B.
 * - Pair (PLUMED: GROUPA, GROUPB and PAIR): A[k] with B[k] for every k; the groups must be the same size.
 * As in PLUMED, groups are lists of slots: an atom listed twice counts once per entry, a pair whose
 * two entries are the same atom contributes 0, and in Dual mode a pair of atoms found in both groups
 * counts twice.
 *
 * The switching function is PLUMED's rational function
 *
 *     sigma(r) = (1 - x^n) / (1 - x^m),   x = (r - d0) / r0,
 *
 * with sigma = 1 (and zero derivative) for r <= d0. Near x = 1 (where m != 2n has a removable
 * singularity) the second-order Taylor expansion about x = 1 is used for |x - 1| < 1.1e-5, as PLUMED does.
 * With a finite cutoff dmax, sigma = 0 for r > dmax and, if stretching is on (the default), the function
 * is shifted and scaled so that it reaches zero continuously at dmax:
 *
 *     sigma'(r) = (sigma(r) - sigma(dmax)) / (sigma(0) - sigma(dmax)).
 *
 * PLUMED keyword correspondence:
 *
 *     R_0 -> setR0 (nm)      NN -> setN        MM -> setM (0 means 2n)     D_0 -> setD0 (nm)
 *     D_MAX -> setDMax       NOSTRETCH -> setStretch(false)                 NOPBC -> setUsesPeriodicBoundaryConditions(false)
 *     GROUPA/GROUPB/PAIR -> setGroupA/setGroupB/setMode
 *
 * PLUMED's keyword form (COORDINATION R_0=... NN=... MM=... D_0=..., no SWITCH) is the default here:
 * dmax = 0 ("automatic") means dmax = d0 + r0 * (1e-5)^(1/(n - m)), with stretching. PLUMED's
 * SWITCH={RATIONAL ...} form without D_MAX has no cutoff: use setDMax(infinity).
 *
 * The other switching functions of PLUMED's SWITCH={...} are chosen with setSwitchingFunction(), with
 * PLUMED's definitions (x = (r - d0) / r0; sigma = 1 for r <= d0; the same cutoff and stretch rules):
 *
 *     Rational     (1 - x^n) / (1 - x^m)                       SWITCH={RATIONAL R_0 D_0 NN MM}
 *     Exponential  exp(-x)                                     SWITCH={EXP R_0 D_0}
 *     Gaussian     exp(-x^2 / 2)                               SWITCH={GAUSSIAN R_0 D_0}
 *     Smap         (1 + (2^(a/b) - 1) x^a)^(-b/a)              SWITCH={SMAP R_0 D_0 A B}: setSmapExponents(a, b)
 *     Cubic        (x - 1)^2 (1 + 2x), x = (r - d0)/(dmax - d0) SWITCH={CUBIC D_0 D_MAX}: needs a finite dmax; r0 unused
 *     Tanh         1 - tanh(x)                                 SWITCH={TANH R_0 D_0}
 *     Cosinus      (cos(pi x) + 1) / 2 for x <= 1, else 0      SWITCH={COSINUS R_0 D_0}
 *     NativeQ      1 / (1 + exp(beta (r - lambda ref)))        SWITCH={Q BETA LAMBDA REF D_0}: setNativeQParameters(); r0 unused
 *     Custom       f(x), any Lepton expression of x            SWITCH={CUSTOM FUNC=... R_0 D_0}: setCustomSwitchingFunction()
 *                  or f(x2), x2 = r^2 / r0^2 (d0 is then ignored, as in PLUMED: no clamp, stretch uses f(0))
 *
 * The automatic dmax (0) is PLUMED's default for the type: the keyword form's cutoff for Rational,
 * d0 + r0 for Cosinus (where it reaches 0), none for the others (Cubic needs an explicit dmax).
 */
class OPENMM_EXPORT_COORDINATION CoordinationForce : public OpenMM::Force {
public:
    /**
     * Which pairs of atoms are summed.
     */
    enum Mode {
        /** All pairs i < j of group A (group B must be empty). */
        Self = 0,
        /** Every pair (a, b) with a in group A and b in group B. */
        Dual = 1,
        /** A[k] with B[k]; both groups have the same length. */
        Pair = 2
    };
    /**
     * The switching function sigma(r) (PLUMED's SWITCH types; see the class comment for each definition).
     */
    enum SwitchingFunction {
        /** PLUMED's RATIONAL: (1 - x^n) / (1 - x^m) (the default). */
        Rational = 0,
        /** PLUMED's EXP: exp(-x). */
        Exponential = 1,
        /** PLUMED's GAUSSIAN: exp(-x^2 / 2). */
        Gaussian = 2,
        /** PLUMED's SMAP: (1 + (2^(a/b) - 1) x^a)^(-b/a). */
        Smap = 3,
        /** PLUMED's CUBIC: (x - 1)^2 (1 + 2x) with x = (r - d0) / (dmax - d0). */
        Cubic = 4,
        /** PLUMED's TANH: 1 - tanh(x). */
        Tanh = 5,
        /** PLUMED's COSINUS: (cos(pi x) + 1) / 2 for x <= 1, 0 beyond. */
        Cosinus = 6,
        /** PLUMED's Q (native contacts): 1 / (1 + exp(beta (r - lambda ref))). */
        NativeQ = 7,
        /** PLUMED's CUSTOM: a Lepton expression of x or of x2 = r^2 / r0^2. */
        Custom = 8
    };
    /**
     * Create a CoordinationForce.
     *
     * @param energy   the energy as a function of the coordination number: a Lepton expression of the
     *                 variable "s" and of this force's global parameters (kJ/mol). Default "s".
     */
    explicit CoordinationForce(const std::string& energy = "s");
    /**
     * Build a CoordinationForce from one line of PLUMED input: a COORDINATION action such as
     * "c: COORDINATION GROUPA=1-10 GROUPB=11-20 R_0=0.3 NN=6 MM=12". Atoms are PLUMED's 1-based serial
     * numbers (lists "1,5,9", ranges "a-b" and "a-b:stride"; they become 0-based particle indices). No
     * GROUPB: Self mode; GROUPB: Dual; PAIR: Pair. Periodic boundary conditions are on, as in PLUMED,
     * unless NOPBC is given. The keyword form (R_0 required, D_0, NN, MM) has PLUMED's automatic dmax with
     * stretch; SWITCH={TYPE ...} is any of PLUMED's switching functions (RATIONAL R_0 D_0 NN MM, EXP, GAUSSIAN,
     * SMAP A B, CUBIC D_0 D_MAX, TANH, COSINUS, Q BETA LAMBDA REF, CUSTOM FUNC=... (or MATHEVAL), each with
     * R_0 (not CUBIC), D_0, D_MAX and NOSTRETCH), with no cutoff without D_MAX, as in PLUMED. NLIST,
     * NL_CUTOFF, NL_STRIDE, SERIAL and NUMERICAL_DERIVATIVES are accepted and ignored (the neighbour list is
     * automatic, derivatives are analytic). The label ("c:" or LABEL=c) becomes the force's name; the
     * energy is "s". Anything else (@mdatoms, group labels, UNITS, unknown keywords) throws an
     * OpenMMException that names it. The caller owns the returned force.
     */
    static CoordinationForce* fromPlumed(const std::string& line);
    /**
     * This force's settings as one line of PLUMED input, which fromPlumed() reads back to the same
     * settings (the energy expression and global parameters are not part of it; an automatic dmax of a
     * type other than Rational is written as its value, D_MAX=d0+r0 for Cosinus and none otherwise).
     *
     * @param label    the action's label (default "c")
     */
    std::string toPlumed(const std::string& label = "c") const;
    /** Get the energy expression E(s). */
    const std::string& getEnergyFunction() const;
    /** Set the energy expression E(s): a Lepton expression of "s" and of the global parameters (kJ/mol). */
    void setEnergyFunction(const std::string& energy);
    /** Get the mode (Self, Dual or Pair). Default Self. */
    Mode getMode() const;
    /** Set the mode (Self, Dual or Pair). */
    void setMode(Mode mode);
    /** Get the indices of the atoms in group A. */
    const std::vector<int>& getGroupA() const;
    /** Set the indices (0-based particle indices) of the atoms in group A. */
    void setGroupA(const std::vector<int>& atoms);
    /** Get the indices of the atoms in group B. */
    const std::vector<int>& getGroupB() const;
    /** Set the indices (0-based particle indices) of the atoms in group B (Dual and Pair modes). */
    void setGroupB(const std::vector<int>& atoms);
    /** Get r0, the switching function's length scale (nm). Default 0.3 nm. */
    double getR0() const;
    /** Set r0, the switching function's length scale (nm); must be > 0. Default 0.3 nm. */
    void setR0(double r0);
    /** Get the exponent n of the numerator (Rational). Default 6. */
    int getN() const;
    /** Set the exponent n of the numerator; must be >= 1. */
    void setN(int n);
    /** Get the exponent m of the denominator as set: 0 (the default) means 2n. */
    int getM() const;
    /** Set the exponent m of the denominator; 0 means 2n; must be >= 0 and (after 0 -> 2n) differ from n. */
    void setM(int m);
    /** Get the exponent m actually used: 2n if getM() is 0, else getM(). */
    int getEffectiveM() const;
    /** Get d0 (nm): sigma = 1 for r <= d0. Default 0. */
    double getD0() const;
    /** Set d0 (nm); must be >= 0. */
    void setD0(double d0);
    /**
     * Get dmax (nm) as set: 0 (the default) means automatic, infinity means no cutoff, a positive value
     * is the cutoff.
     */
    double getDMax() const;
    /**
     * Set the cutoff dmax (nm). 0 (the default): automatic, dmax = d0 + r0 * (1e-5)^(1/(n - m)) for
     * Rational, as PLUMED's keyword form (Cosinus: d0 + r0; other types: no cutoff). A positive finite value: that cutoff (must be > d0). Infinity
     * (std::numeric_limits<double>::infinity(), Python float('inf')): no cutoff, no stretching.
     */
    void setDMax(double dmax);
    /**
     * Get the cutoff actually used (nm): the automatic value of the type if getDMax() is 0, infinity if
     * there is no cutoff.
     */
    double getEffectiveDMax() const;
    /** Get whether the switching function is stretched to reach 0 at a finite dmax. Default true. */
    bool getStretch() const;
    /**
     * Set whether the switching function is stretched to reach 0 at a finite dmax (PLUMED's default;
     * false is PLUMED's NOSTRETCH). Has no effect without a cutoff.
     */
    void setStretch(bool stretch);
    /** Get the type of switching function. Default Rational. */
    SwitchingFunction getSwitchingFunction() const;
    /**
     * Set the type of switching function. Its own parameters are set with setN/setM (Rational),
     * setSmapExponents (Smap), setNativeQParameters (NativeQ) or setCustomSwitchingFunction (Custom);
     * r0, d0, dmax and stretch are shared by all types.
     */
    void setSwitchingFunction(SwitchingFunction type);
    /** Get the exponent a of the Smap function (PLUMED's A). Default 0 (unset). */
    int getSmapA() const;
    /** Get the exponent b of the Smap function (PLUMED's B). Default 0 (unset). */
    int getSmapB() const;
    /** Set the exponents a and b of the Smap function (PLUMED's A and B; both required, both >= 1). */
    void setSmapExponents(int a, int b);
    /** Get beta (1/nm) of the NativeQ function. Default 50 /nm (PLUMED's). */
    double getNativeQBeta() const;
    /** Get lambda (unitless) of the NativeQ function. Default 1.8 (PLUMED's). */
    double getNativeQLambda() const;
    /** Get the reference distance (nm) of the NativeQ function. Default 0 (unset). */
    double getNativeQReference() const;
    /**
     * Set the parameters of the NativeQ function sigma(r) = 1 / (1 + exp(beta (r - lambda * reference))):
     * beta (1/nm, PLUMED's BETA, > 0), lambda (PLUMED's LAMBDA, > 0) and reference (nm, PLUMED's REF, > 0).
     */
    void setNativeQParameters(double beta, double lambda, double reference);
    /** Get the expression of the Custom switching function ("" if none was set). */
    const std::string& getCustomSwitchingFunction() const;
    /**
     * Use a Custom switching function: a Lepton expression of x = (r - d0) / r0 (sigma = 1 for r <= d0),
     * or of x2 = r^2 / r0^2 (PLUMED's fast form: d0 is ignored and sigma = f(x2) down to r = 0), but not
     * both, and of no other variable (PLUMED's SWITCH={CUSTOM FUNC=...}); PLUMED's named constants (pi,
     * pi_2, pi_4, e, ln2, ln10, log2e, log10e, sqrt2, sqrt1_2) may be used. Sets the type to Custom.
     */
    void setCustomSwitchingFunction(const std::string& expression);
    /**
     * Set whether distances use the minimum image convention with the context's periodic box
     * (rectangular or triclinic). Default false (PLUMED's NOPBC).
     */
    void setUsesPeriodicBoundaryConditions(bool periodic);
    /** Get whether distances use periodic boundary conditions. */
    bool usesPeriodicBoundaryConditions() const override;
    /** Get the number of global parameters the energy expression may use. */
    int getNumGlobalParameters() const;
    /**
     * Add a global parameter the energy expression may use. Its value in a Context is changed with
     * Context::setParameter().
     *
     * @param name           the parameter's name (must not be "s" and must be unique)
     * @param defaultValue   its value in a new Context
     * @return the index of the parameter
     */
    int addGlobalParameter(const std::string& name, double defaultValue);
    /** Get the name of global parameter index. */
    const std::string& getGlobalParameterName(int index) const;
    /** Set the name of global parameter index. */
    void setGlobalParameterName(int index, const std::string& name);
    /** Get the default value of global parameter index. */
    double getGlobalParameterDefaultValue(int index) const;
    /** Set the default value of global parameter index. */
    void setGlobalParameterDefaultValue(int index, double defaultValue);
    /**
     * Request the derivative of the energy with respect to a global parameter: it is reported by
     * State::getEnergyParameterDerivatives() when a State is created with getEnergy = true (as with
     * OpenMM's custom forces). The parameter must be one of this force's global parameters.
     */
    void addEnergyParameterDerivative(const std::string& name);
    /** Get the number of global parameters whose energy derivative is requested. */
    int getNumEnergyParameterDerivatives() const;
    /** Get the name of the global parameter of energy derivative index. */
    const std::string& getEnergyParameterDerivativeName(int index) const;
    /**
     * Get the coordination number s at the context's current positions, computed by the context's
     * platform.
     */
    double getCoordination(OpenMM::Context& context) const;
    /**
     * Copy the mode, the groups, the switching function parameters and the periodic boundary flag into
     * an existing Context, as if it had been created anew. The energy expression and the global
     * parameters (names and number) cannot be changed this way: create a new Context for that (an
     * OpenMMException says so if they differ). Parameter values are changed with Context::setParameter().
     */
    void updateParametersInContext(OpenMM::Context& context);

protected:
    OpenMM::ForceImpl* createImpl() const override;

private:
    class GlobalParameterInfo;
    std::string energyExpression;
    Mode mode;
    std::vector<int> groupA, groupB;
    double r0, d0, dmax;
    int n, m;
    bool stretch, periodic;
    std::vector<GlobalParameterInfo> globalParameters;
    std::vector<std::string> energyParameterDerivatives;
    SwitchingFunction switchingFunction;
    int smapA, smapB;
    double nativeQBeta, nativeQLambda, nativeQReference;
    std::string customSwitchingFunction;
};

/**
 * A global parameter of a CoordinationForce: a name and its default value.
 */
class CoordinationForce::GlobalParameterInfo {
public:
    std::string name;
    double defaultValue;
    GlobalParameterInfo() : defaultValue(0.0) {}
    GlobalParameterInfo(const std::string& name, double defaultValue) : name(name), defaultValue(defaultValue) {}
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONFORCE_H_*/
