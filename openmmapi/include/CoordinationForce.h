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
 * @code
 * s = sum over pairs (i, j) of sigma(r_ij),
 * @endcode
 *
 * and the force's energy is a user-supplied function E(s) of it (a Lepton expression of the variable
 * "s" and of global parameters, for example "0.5*k*(s-s0)^2"). The force on atom i is
 * -dE/ds * ds/dx_i. Units: nm and kJ/mol.
 *
 * Which pairs are summed depends on the mode:
 *
 * - Self (PLUMED: GROUPA only): all pairs (i, j), i < j, of the slots of group A.
 * - Dual (PLUMED: GROUPA and GROUPB): every (a, b) with a in group A and b in group B.
 * - Pair (PLUMED: GROUPA, GROUPB and PAIR): A[k] with B[k] for every k; the groups must be the same size.
 *
 * As in PLUMED, groups are lists of slots: an atom listed twice counts once per entry, a pair whose
 * two entries are the same atom contributes 0, and in Dual mode a pair of atoms found in both groups
 * counts twice.
 *
 * The switching function is PLUMED's rational function
 *
 * @code
 * sigma(r) = (1 - x^n) / (1 - x^m),   x = (r - d0) / r0,
 * @endcode
 *
 * with sigma = 1 (and zero derivative) for r <= d0. Near x = 1 (where m != 2n has a removable
 * singularity) the second-order Taylor expansion about x = 1 is used where x is within 1.1e-5 of 1, as PLUMED
 * does.
 * With a finite cutoff dmax, sigma = 0 for r > dmax and, if stretching is on (the default), the function
 * is shifted and scaled so that it reaches zero continuously at dmax:
 *
 * @code
 * stretched sigma(r) = (sigma(r) - sigma(dmax)) / (sigma(0) - sigma(dmax))
 * @endcode
 *
 * PLUMED keyword correspondence:
 *
 * @code
 * R_0 -> setR0 (nm)      NN -> setN        MM -> setM (0 means 2n)     D_0 -> setD0 (nm)
 * D_MAX -> setDMax       NOSTRETCH -> setStretch(false)                 NOPBC -> setUsesPeriodicBoundaryConditions(false)
 * GROUPA/GROUPB/PAIR -> setGroupA/setGroupB/setMode
 * @endcode
 *
 * PLUMED's keyword form (COORDINATION R_0=... NN=... MM=... D_0=..., no SWITCH) is the default here:
 * dmax = 0 ("automatic") means dmax = d0 + r0 * (1e-5)^(1/(n - m)), with stretching. PLUMED's
 * SWITCH={RATIONAL ...} form without D_MAX has no cutoff: use setDMax(infinity).
 *
 * The other switching functions of PLUMED's SWITCH={...} are chosen with setSwitchingFunction(), with
 * PLUMED's definitions (x = (r - d0) / r0; sigma = 1 for r <= d0; the same cutoff and stretch rules):
 *
 * @code
 * Rational     (1 - x^n) / (1 - x^m)                       SWITCH={RATIONAL R_0 D_0 NN MM}
 * Exponential  exp(-x)                                     SWITCH={EXP R_0 D_0}
 * Gaussian     exp(-x^2 / 2)                               SWITCH={GAUSSIAN R_0 D_0}
 * Smap         (1 + (2^(a/b) - 1) x^a)^(-b/a)              SWITCH={SMAP R_0 D_0 A B}: setSmapExponents(a, b)
 * Cubic        (x - 1)^2 (1 + 2x), x = (r - d0)/(dmax - d0) SWITCH={CUBIC D_0 D_MAX}: needs a finite dmax; r0 unused
 * Tanh         1 - tanh(x)                                 SWITCH={TANH R_0 D_0}
 * Cosinus      (cos(pi x) + 1) / 2 for x <= 1, else 0      SWITCH={COSINUS R_0 D_0}
 * NativeQ      1 / (1 + exp(beta (r - lambda ref)))        SWITCH={Q BETA LAMBDA REF D_0}: setNativeQParameters(); r0 unused
 * Custom       f(x), any Lepton expression of x            SWITCH={CUSTOM FUNC=... R_0 D_0}: setCustomSwitchingFunction()
 *              or f(x2), x2 = r^2 / r0^2 (d0 is then ignored, as in PLUMED: no clamp, stretch uses f(0))
 * @endcode
 *
 * Centres (PLUMED's COM and CENTER virtual atoms in GROUPA/GROUPB): addCenter() defines a point computed from the
 * positions of a list of particles at every evaluation, and returns the id (-1 for the first centre, -2 for the
 * second, ...) that stands for it in a group, wherever a particle index may:
 * @code
 * int ligand = force.addCenter(ligandAtoms, CoordinationForce::CenterOfMass);   // PLUMED: c1: COM ATOMS=...
 * force.setGroupA({ligand});                                                  // GROUPA=c1
 * force.setGroupB(waterOxygens);
 * @endcode
 *
 * The centre is sum_k w_k x_k / sum_k w_k with w_k = 1 (GeometricCenter, PLUMED's CENTER), the System's masses
 * (CenterOfMass: COM, or CENTER MASS) or given weights (WeightedCenter: CENTER WEIGHTS=). As PLUMED does unless
 * NOPBC, when the System uses periodic boundary conditions (System::usesPeriodicBoundaryConditions(): one of its
 * forces does) the group is first made whole: each particle is placed at the minimum image of the one before it in
 * the list; a centre not made whole takes the positions as the Context holds them. The force on the centre is spread
 * back to its particles, w_k / sum w of it to particle k. A centre is one member of the groups wherever its id
 * appears: listed in both groups (or twice), its pair with itself counts 0, as an atom's does; a centre and one of
 * its own particles are two members. A non-finite coordinate of a centre's particle is a non-finite position of the
 * force (NaN energy and no force, as for the groups' atoms).
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
     * How a centre (addCenter()) weighs its particles.
     */
    enum CenterWeighting {
        /** Weights 1: the geometric centre (PLUMED's CENTER). */
        GeometricCenter = 0,
        /** The System's particle masses: the centre of mass (PLUMED's COM, or CENTER MASS). */
        CenterOfMass = 1,
        /** Weights given per particle (PLUMED's CENTER WEIGHTS=). */
        WeightedCenter = 2
    };
    /**
     * Create a CoordinationForce.
     *
     * @param energy   the energy as a function of the coordination number: a Lepton expression of the
     *                 variable "s" and of this force's global parameters (kJ/mol). Default "s".
     */
    explicit CoordinationForce(const std::string& energy = "s");
    /**
     * Read PLUMED input holding one COORDINATION action (and optionally a UNITS action before it), such as
     * "c: COORDINATION GROUPA=1-10 GROUPB=11-20 R_0=0.3 NN=6 MM=12", on one line or in PLUMED's multi-line
     * form. The same as PlumedTranslator::fromPlumed(), which lists the keywords, for a COORDINATION action.
     *
     * @param input   PLUMED input holding one COORDINATION action
     * @return a new CoordinationForce (energy "s"); the caller owns it (in Python, the returned object does)
     */
    static CoordinationForce* fromPlumed(const std::string& input);
    /**
     * Read every COORDINATION, COORDINATIONNUMBER and COORDINATION_MOMENTS action of a PLUMED input file (a
     * plumed.dat): the CoordinationForces (and CoordinationNumberForces) that PlumedTranslator::fromPlumedFile()
     * reads, each named by its action's label. In Python it returns a
     * PlumedInput named tuple, as openmmcoordination.fromPlumedFile() does.
     *
     * @param pathOrText   the path of a PLUMED input file, or its text (any text with a line break is read as text)
     * @param skipped      set to the actions that were not read as a CoordinationForce, in order ("label: NAME")
     * @return the new forces in the order of the file; the caller owns them
     */
    static std::vector<CoordinationForce*> fromPlumedFile(const std::string& pathOrText, std::vector<std::string>& skipped);
    /**
     * This force's settings as one line of PLUMED input (PlumedTranslator::toPlumed()), which fromPlumed()
     * reads back to the same settings; the energy expression and global parameters are not part of it. An
     * automatic dmax of a type other than Rational is written as its value (D_MAX=d0+r0 for Cosinus, none
     * otherwise).
     *
     * @param label    the action's label (default "c")
     * @return the line, e.g. "c: COORDINATION GROUPA=1-10 R_0=0.3 NN=6 MM=12"
     */
    virtual std::string toPlumed(const std::string& label = "c") const;
    /**
     * Get the energy expression E(s).
     *
     * @return a Lepton expression of "s" and of the global parameters (kJ/mol); default "s"
     */
    const std::string& getEnergyFunction() const { return energyExpression; }
    /**
     * Set the energy expression E(s). Checked when a Context is created (an unknown variable or a
     * syntax error throws an OpenMMException there).
     *
     * @param energy   a Lepton expression of "s" and of the global parameters, in kJ/mol
     */
    void setEnergyFunction(const std::string& energy) { energyExpression = energy; }
    /**
     * Get the mode.
     *
     * @return Self, Dual or Pair; default Self
     */
    Mode getMode() const { return mode; }
    /**
     * Set which pairs are summed.
     *
     * @param mode   Self (group A with itself), Dual (A x B) or Pair (A[k] with B[k])
     */
    void setMode(Mode mode);
    /**
     * Get group A.
     *
     * @return the 0-based particle indices (and centre ids) of group A, in the order given; default empty
     */
    const std::vector<int>& getGroupA() const { return groupA; }
    /**
     * Set group A (PLUMED's GROUPA). An index may appear more than once (it counts once per entry).
     *
     * @param atoms   0-based particle indices, or centres (the ids addCenter() returned); must be non-empty and
     *                within the System when a Context is created
     */
    void setGroupA(const std::vector<int>& atoms) { groupA = atoms; }
    /**
     * Get group B.
     *
     * @return the 0-based particle indices of group B, in the order given; default empty
     */
    const std::vector<int>& getGroupB() const { return groupB; }
    /**
     * Set group B (PLUMED's GROUPB): used by Dual and Pair modes, must be empty in Self mode.
     *
     * @param atoms   0-based particle indices, or centres (the ids addCenter() returned); Pair mode: as many as
     *                group A
     */
    void setGroupB(const std::vector<int>& atoms) { groupB = atoms; }
    /**
     * Add a centre: a point that stands in a group where a particle may (PLUMED's CENTER and COM virtual atoms),
     * computed from its particles' positions at every evaluation, its force spread back to them by weight (see
     * the class comment).
     *
     * @param particles   the particle indices, at least one (a particle listed twice counts per entry)
     * @param weighting   GeometricCenter (weights 1, the default), CenterOfMass (the System's masses) or
     *                    WeightedCenter
     * @param weights     WeightedCenter only (empty otherwise): one weight per particle, their sum not 0
     * @param makeWhole   whether the group is first made whole (each particle at its minimum image from the one
     *                    before it) when the System uses periodic boundary conditions: true (the default) as PLUMED
     *                    does, false is PLUMED's NOPBC
     * @return the id that stands for the centre in a group: -1 - its index (-1 for the first centre)
     */
    int addCenter(const std::vector<int>& particles, CenterWeighting weighting = GeometricCenter,
                  const std::vector<double>& weights = std::vector<double>(), bool makeWhole = true);
    /**
     * Get the number of centres.
     *
     * @return default 0
     */
    int getNumCenters() const { return centers.size(); }
    /**
     * Get a centre's settings.
     *
     * @param index             0 .. getNumCenters() - 1: the centre whose id is -1 - index
     * @param particles        its particle indices
     * @param weighting        its weighting
     * @param weights          its weights (WeightedCenter; empty otherwise)
     * @param makeWhole        whether the group is made whole under periodic boundary conditions
     */
    void getCenterParameters(int index, std::vector<int>& particles, CenterWeighting& weighting,
                             std::vector<double>& weights, bool& makeWhole) const;
    /**
     * Change a centre's settings (in a Context: with updateParametersInContext()).
     *
     * @param index       0 .. getNumCenters() - 1: the centre whose id is -1 - index
     * @param particles   as in addCenter()
     * @param weighting   as in addCenter()
     * @param weights     as in addCenter()
     * @param makeWhole   as in addCenter()
     */
    void setCenterParameters(int index, const std::vector<int>& particles, CenterWeighting weighting,
                             const std::vector<double>& weights, bool makeWhole);
    /**
     * Get r0, the switching function's length scale.
     *
     * @return r0 in nm; default 0.3 nm
     */
    double getR0() const { return r0; }
    /**
     * Set r0, the switching function's length scale (PLUMED's R_0). Unused by Cubic and NativeQ.
     *
     * @param r0   in nm; must be > 0
     */
    void setR0(double r0) { this->r0 = r0; }
    /**
     * Get the exponent n of the Rational function's numerator.
     *
     * @return n; default 6
     */
    int getN() const { return n; }
    /**
     * The largest exponent setN(), setM() and setSmapExponents() accept: 2^24 = 16777216. Twice it (m = 0
     * means 2n) fits an int with room to spare, and x^n already underflows to 0 for x < 1 far below it.
     */
    static const int MaxExponent = 16777216;
    /**
     * Set the exponent n of the Rational function's numerator (PLUMED's NN). A value outside 1 to
     * MaxExponent (16777216) throws an OpenMMException here.
     *
     * @param n   1 to MaxExponent (16777216)
     */
    void setN(int n);
    /**
     * Get the exponent m of the Rational function's denominator, as set.
     *
     * @return m; 0 (the default) means 2n
     */
    int getM() const { return m; }
    /**
     * Set the exponent m of the Rational function's denominator (PLUMED's MM). A value outside 0 to
     * MaxExponent (16777216) throws an OpenMMException here; m equal to n (after the substitution of 2n
     * for 0) is refused when a Context is created.
     *
     * @param m   0 to MaxExponent (16777216); 0 means 2n
     */
    void setM(int m);
    /**
     * Get the exponent m actually used.
     *
     * @return 2n if getM() is 0, else getM()
     */
    int getEffectiveM() const;
    /**
     * Get d0: sigma = 1 for r <= d0.
     *
     * @return d0 in nm; default 0
     */
    double getD0() const { return d0; }
    /**
     * Set d0 (PLUMED's D_0): x = (r - d0) / r0, and sigma = 1 for r <= d0.
     *
     * @param d0   in nm; must be >= 0 (and < dmax if dmax is finite)
     */
    void setD0(double d0) { this->d0 = d0; }
    /**
     * Get dmax as set.
     *
     * @return dmax in nm: 0 (the default) means automatic, infinity means no cutoff, a positive value is the cutoff
     */
    double getDMax() const { return dmax; }
    /**
     * Set the cutoff dmax (PLUMED's D_MAX). 0 (the default): automatic, dmax = d0 + r0 * (1e-5)^(1/(n - m))
     * for Rational, as PLUMED's keyword form (Cosinus: d0 + r0; other types: no cutoff). A positive finite
     * value: that cutoff (must be > d0). Infinity (std::numeric_limits<double>::infinity(), Python
     * float('inf')): no cutoff, no stretching.
     *
     * @param dmax   in nm: 0, a value > d0, or infinity
     */
    void setDMax(double dmax) { this->dmax = dmax; }
    /**
     * Get the cutoff actually used.
     *
     * @return in nm: the type's automatic value if getDMax() is 0, infinity if there is no cutoff
     */
    double getEffectiveDMax() const;
    /**
     * Get whether the switching function is stretched to reach 0 at a finite dmax.
     *
     * @return default true (PLUMED's default)
     */
    bool getStretch() const { return stretch; }
    /**
     * Set whether the switching function is stretched to reach 0 at a finite dmax. Has no effect without
     * a cutoff.
     *
     * @param stretch   true: PLUMED's default; false: PLUMED's NOSTRETCH
     */
    void setStretch(bool stretch) { this->stretch = stretch; }
    /**
     * Get the type of switching function.
     *
     * @return default Rational
     */
    SwitchingFunction getSwitchingFunction() const { return switchingFunction; }
    /**
     * Set the type of switching function. Its own parameters are set with setN/setM (Rational),
     * setSmapExponents (Smap), setNativeQParameters (NativeQ) or setCustomSwitchingFunction (Custom);
     * r0, d0, dmax and stretch are shared by all types.
     *
     * @param type   one of the SwitchingFunction values (PLUMED's SWITCH types)
     */
    void setSwitchingFunction(SwitchingFunction type);
    /**
     * Get the exponent a of the Smap function.
     *
     * @return PLUMED's A; default 0 (unset: a Smap force needs setSmapExponents)
     */
    int getSmapA() const { return smapA; }
    /**
     * Get the exponent b of the Smap function.
     *
     * @return PLUMED's B; default 0 (unset)
     */
    int getSmapB() const { return smapB; }
    /**
     * Set the exponents of the Smap function sigma = (1 + (2^(a/b) - 1) x^a)^(-b/a). Each must be 1 to
     * MaxExponent (16777216), or both 0 (unset, the default: a force of another type keeps them so);
     * anything else throws an OpenMMException here. A Smap force with unset exponents is refused when a
     * Context is created.
     *
     * @param a   PLUMED's A, 1 to MaxExponent (16777216)
     * @param b   PLUMED's B, 1 to MaxExponent (16777216)
     */
    void setSmapExponents(int a, int b);
    /**
     * Get beta of the NativeQ function.
     *
     * @return in 1/nm; default 50 /nm (PLUMED's)
     */
    double getNativeQBeta() const { return nativeQBeta; }
    /**
     * Get lambda of the NativeQ function.
     *
     * @return unitless; default 1.8 (PLUMED's)
     */
    double getNativeQLambda() const { return nativeQLambda; }
    /**
     * Get the reference distance of the NativeQ function.
     *
     * @return in nm; default 0 (unset: a NativeQ force needs setNativeQParameters)
     */
    double getNativeQReference() const { return nativeQReference; }
    /**
     * Set the parameters of the NativeQ function sigma(r) = 1 / (1 + exp(beta (r - lambda * reference))).
     *
     * @param beta        PLUMED's BETA, in 1/nm, > 0 (PLUMED's default 50)
     * @param lambda      PLUMED's LAMBDA, unitless, > 0 (PLUMED's default 1.8)
     * @param reference   PLUMED's REF, in nm, > 0
     */
    void setNativeQParameters(double beta, double lambda, double reference);
    /**
     * Get the expression of the Custom switching function.
     *
     * @return the expression; "" if none was set
     */
    const std::string& getCustomSwitchingFunction() const { return customSwitchingFunction; }
    /**
     * Use a Custom switching function (PLUMED's SWITCH={CUSTOM FUNC=...}) and set the type to Custom.
     * The expression is a Lepton expression of x = (r - d0) / r0 (sigma = 1 for r <= d0), or of
     * x2 = r^2 / r0^2 (PLUMED's fast form: d0 is ignored and sigma = f(x2) down to r = 0), but not both,
     * and of no other variable; PLUMED's named constants (pi, pi_2, pi_4, e, ln2, ln10, log2e, log10e,
     * sqrt2, sqrt1_2) may be used. Checked when a Context is created.
     *
     * @param expression   sigma as a function of x or of x2 (unitless)
     */
    void setCustomSwitchingFunction(const std::string& expression);
    /**
     * Set whether distances use the minimum image convention with the context's periodic box
     * (rectangular or triclinic).
     *
     * @param periodic   default false (PLUMED's NOPBC); fromPlumed() sets true unless NOPBC is given
     */
    void setUsesPeriodicBoundaryConditions(bool periodic) { this->periodic = periodic; }
    /**
     * Get whether distances use periodic boundary conditions.
     *
     * @return default false
     */
    bool usesPeriodicBoundaryConditions() const override { return periodic; }
    /**
     * Get the number of global parameters the energy expression may use.
     *
     * @return default 0
     */
    int getNumGlobalParameters() const { return globalParameters.size(); }
    /**
     * Add a global parameter the energy expression may use. Its value in a Context is changed with
     * Context::setParameter().
     *
     * @param name           the parameter's name (must not be "s" and must be unique)
     * @param defaultValue   its value in a new Context
     * @return the index of the parameter
     */
    int addGlobalParameter(const std::string& name, double defaultValue);
    /**
     * Get the name of a global parameter.
     *
     * @param index   0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @return its name
     */
    const std::string& getGlobalParameterName(int index) const;
    /**
     * Rename a global parameter (before a Context is created).
     *
     * @param index   0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @param name    the new name (not "s", unique)
     */
    void setGlobalParameterName(int index, const std::string& name);
    /**
     * Get the default value of a global parameter.
     *
     * @param index   0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @return its value in a new Context
     */
    double getGlobalParameterDefaultValue(int index) const;
    /**
     * Set the default value of a global parameter (its value in Contexts created afterwards).
     *
     * @param index          0 .. getNumGlobalParameters() - 1 (another index throws an OpenMMException)
     * @param defaultValue   the value
     */
    void setGlobalParameterDefaultValue(int index, double defaultValue);
    /**
     * Request the derivative of the energy with respect to a global parameter: it is reported by
     * State::getEnergyParameterDerivatives() when a State is created with getEnergy = true (as with
     * OpenMM's custom forces), in kJ/mol per unit of the parameter. Fixed when a Context is created.
     *
     * @param name   one of this force's global parameters, requested at most once
     */
    void addEnergyParameterDerivative(const std::string& name) { energyParameterDerivatives.push_back(name); }
    /**
     * Get the number of global parameters whose energy derivative is requested.
     *
     * @return default 0
     */
    int getNumEnergyParameterDerivatives() const { return energyParameterDerivatives.size(); }
    /**
     * Get the name of a requested energy parameter derivative.
     *
     * @param index   0 .. getNumEnergyParameterDerivatives() - 1 (another index throws an OpenMMException)
     * @return the global parameter's name
     */
    const std::string& getEnergyParameterDerivativeName(int index) const;
    /**
     * Get the coordination number s at the context's current positions (a CoordinationNumberForce, which has no
     * single s, throws: read it with getCollectiveVariableValues()), computed by the context's
     * platform (on a GPU, one number is downloaded). For a force added to a CustomCVForce as a collective
     * variable (app.Metadynamics does so), pass the Context of the CustomCVForce's System: s is computed
     * in the CustomCVForce's inner context.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @return s (unitless)
     */
    double getCoordination(OpenMM::Context& context) const;
    /**
     * Get the number of collective variables this force computes, as OpenMM's CustomCVForce counts its own:
     * one, the coordination number s (a CoordinationNumberForce has one per reduction).
     * @return 1
     */
    virtual int getNumCollectiveVariables() const { return 1; }
    /**
     * Get the name of a collective variable: the variable the energy expression uses for it.
     * @param index   0 .. getNumCollectiveVariables() - 1 (another index throws an OpenMMException)
     * @return "s"
     */
    virtual std::string getCollectiveVariableName(int index) const;
    /**
     * Get the values of the collective variables at the context's current positions, computed by the
     * context's platform, in the order of getCollectiveVariableName() (as CustomCVForce's method of this name).
     * For a force added to a CustomCVForce, pass the Context of the CustomCVForce's System.
     * @param context        a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    the values (for a CoordinationForce, {s})
     */
    void getCollectiveVariableValues(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * Get the number of candidate pairs: the pairs of group entries that the context's platform tests
     * against the cutoff in one evaluation of this force. Without a cutoff it is every pair of the sum
     * (Self n(n-1)/2, Dual nA*nB, Pair nA); with one it is what remains after the platform's own pruning
     * (the CUDA and OpenCL platforms' neighbour list, the CPU platform's cell grid; the Reference platform
     * tests every pair). Divided by the pairs within dMax, it tells how much work the cutoff saves.
     * Pairs of an atom with itself are counted where they fall among the candidates (they count 0 to s).
     *
     * This evaluates s once, as getCoordination() does, and on a GPU downloads the neighbour list:
     * meant for tuning and benchmarks, not for every step.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @return the number of candidate pairs
     */
    long long getNumCandidatePairsInContext(OpenMM::Context& context) const;
    /**
     * Copy the mode, the groups, the switching function parameters and the periodic boundary flag into
     * an existing Context, as if it had been created anew. The energy expression and the global
     * parameters (names and number) cannot be changed this way: create a new Context for that (an
     * OpenMMException says so if they differ). Parameter values are changed with Context::setParameter().
     * For a collective variable of a CustomCVForce, the settings go to the CustomCVForce's inner context.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     */
    void updateParametersInContext(OpenMM::Context& context);

protected:
    /**
     * Create the ForceImpl (called by OpenMM when a Context is created).
     *
     * @return a new CoordinationForceImpl
     */
    OpenMM::ForceImpl* createImpl() const override;

private:
    friend class CoordinationForceImpl; // finds the force's Impl in a Context (or a CustomCVForce's inner one)
    class GlobalParameterInfo;
    class CenterInfo;
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
    std::vector<CenterInfo> centers;
};

// Declared private in CoordinationForce: left out of the API reference.
/// @cond INTERNAL
/**
 * A global parameter of a CoordinationForce: a name and its default value.
 */
class CoordinationForce::GlobalParameterInfo {
public:
    /** The parameter's name. */
    std::string name;
    /** Its value in a new Context. */
    double defaultValue;
    /** An unnamed parameter with default value 0. */
    GlobalParameterInfo() : defaultValue(0.0) {}
    /**
     * A parameter.
     *
     * @param name           its name
     * @param defaultValue   its value in a new Context
     */
    GlobalParameterInfo(const std::string& name, double defaultValue) : name(name), defaultValue(defaultValue) {}
};
/**
 * A centre of a CoordinationForce (addCenter()).
 */
class CoordinationForce::CenterInfo {
public:
    /** The particle indices. */
    std::vector<int> particles;
    /** How they are weighed. */
    CenterWeighting weighting = GeometricCenter;
    /** WeightedCenter's weights. */
    std::vector<double> weights;
    /** Whether the group is made whole under periodic boundary conditions. */
    bool makeWhole = true;
};
/// @endcond

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONFORCE_H_*/
