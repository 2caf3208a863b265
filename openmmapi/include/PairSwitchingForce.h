#ifndef OPENMM_COORDINATION_PAIRSWITCHINGFORCE_H_
#define OPENMM_COORDINATION_PAIRSWITCHINGFORCE_H_

#include "CoordinationBiasForce.h"
#include "SwitchingSettings.h"
#include "internal/windowsExportCoordination.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * What the forces over the pairs of one or two groups of atoms share: the groups (PLUMED's GROUPA/GROUPB,
 * SPECIES/SPECIESA/SPECIESB), which pairs of them count (the mode), and the one switching function sigma(r) that
 * weighs each pair (SwitchingSettings; the setters below edit it). CoordinationForce sums sigma over the pairs;
 * CoordinationNumberForce sums it per atom. It is not created itself.
 *
 * As in PLUMED, groups are lists of slots: an atom listed twice counts once per entry, a pair whose two entries are
 * the same atom (or the same centre) contributes 0, and in Dual mode a pair of atoms found in both groups counts
 * twice. A group entry is a particle index, or a centre's id (addCenter()).
 *
 * PLUMED keyword correspondence:
 *
 * @code
 * R_0 -> setR0 (nm)      NN -> setN        MM -> setM (0 means 2n)     D_0 -> setD0 (nm)
 * D_MAX -> setDMax       NOSTRETCH -> setStretch(false)                 NOPBC -> setUsesPeriodicBoundaryConditions(false)
 * SWITCH={TYPE ...} -> setSwitchingSettings (or setSwitchingFunction and the setters of the type)
 * @endcode
 *
 * PLUMED's keyword form (R_0=... NN=... MM=... D_0=..., no SWITCH) is the default: dmax = 0 ("automatic") means
 * dmax = d0 + r0 * (1e-5)^(1/(n - m)), with stretching. PLUMED's SWITCH={RATIONAL ...} form without D_MAX has no
 * cutoff: use setDMax(infinity).
 */
class OPENMM_EXPORT_COORDINATION PairSwitchingForce : public CoordinationBiasForce {
public:
    /**
     * Which pairs of the groups count.
     */
    enum Mode {
        /** All pairs i < j of group A (group B must be empty): PLUMED's GROUPA alone, SPECIES. */
        Self = 0,
        /** Every pair (a, b) with a in group A and b in group B: GROUPA and GROUPB, SPECIESA and SPECIESB. */
        Dual = 1,
        /** A[k] with B[k]; both groups have the same length (PLUMED's PAIR; CoordinationForce only). */
        Pair = 2
    };
    /**
     * Get the mode.
     *
     * @return Self, Dual or Pair; default Self
     */
    Mode getMode() const { return mode; }
    /**
     * Set which pairs count. An unknown mode throws an OpenMMException here.
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
     * Set group A (PLUMED's GROUPA, SPECIES or SPECIESA). An index may appear more than once (it counts once per
     * entry).
     *
     * @param atoms   0-based particle indices, or centres (the ids addCenter() returned); must be non-empty and
     *                within the System when a Context is created
     */
    void setGroupA(const std::vector<int>& atoms) { groupA = atoms; }
    /**
     * Get group B.
     *
     * @return the 0-based particle indices (and centre ids) of group B, in the order given; default empty
     */
    const std::vector<int>& getGroupB() const { return groupB; }
    /**
     * Set group B (PLUMED's GROUPB or SPECIESB): used by Dual and Pair modes, must be empty in Self mode.
     *
     * @param atoms   0-based particle indices, or centres (the ids addCenter() returned); Pair mode: as many as
     *                group A
     */
    void setGroupB(const std::vector<int>& atoms) { groupB = atoms; }
    /**
     * Get the switching function.
     *
     * @return a copy of its settings (to edit and set back with setSwitchingSettings(), or to give a contact)
     */
    SwitchingSettings getSwitchingSettings() const { return switching; }
    /**
     * Set the switching function: every setting at once (PLUMED's SWITCH={...}).
     *
     * @param switching   the settings
     */
    void setSwitchingSettings(const SwitchingSettings& switching) { this->switching = switching; }
    /**
     * Get r0, the switching function's length scale.
     *
     * @return r0 in nm; default 0.3 nm
     */
    double getR0() const { return switching.getR0(); }
    /**
     * Set r0, the switching function's length scale (PLUMED's R_0). Unused by Cubic and NativeQ.
     *
     * @param r0   in nm; must be > 0
     */
    void setR0(double r0) { switching.setR0(r0); }
    /**
     * Get the exponent n of the Rational function's numerator.
     *
     * @return n; default 6
     */
    int getN() const { return switching.getN(); }
    /**
     * Set the exponent n of the Rational function's numerator (PLUMED's NN). A value outside 1 to MaxExponent
     * (16777216) throws an OpenMMException here.
     *
     * @param n   1 to MaxExponent (16777216)
     */
    void setN(int n);
    /**
     * Get the exponent m of the Rational function's denominator, as set.
     *
     * @return m; 0 (the default) means 2n
     */
    int getM() const { return switching.getM(); }
    /**
     * Set the exponent m of the Rational function's denominator (PLUMED's MM). A value outside 0 to MaxExponent
     * (16777216) throws an OpenMMException here; m equal to n (after the substitution of 2n for 0) is refused when a
     * Context is created.
     *
     * @param m   0 to MaxExponent (16777216); 0 means 2n
     */
    void setM(int m);
    /**
     * Get the exponent m actually used.
     *
     * @return 2n if getM() is 0, else getM()
     */
    int getEffectiveM() const { return switching.getEffectiveM(); }
    /**
     * Get d0: sigma = 1 for r <= d0.
     *
     * @return d0 in nm; default 0
     */
    double getD0() const { return switching.getD0(); }
    /**
     * Set d0 (PLUMED's D_0): x = (r - d0) / r0, and sigma = 1 for r <= d0.
     *
     * @param d0   in nm; must be >= 0 (and < dmax if dmax is finite)
     */
    void setD0(double d0) { switching.setD0(d0); }
    /**
     * Get dmax as set.
     *
     * @return dmax in nm: 0 (the default) means automatic, infinity means no cutoff, a positive value is the cutoff
     */
    double getDMax() const { return switching.getDMax(); }
    /**
     * Set the cutoff dmax (PLUMED's D_MAX). 0 (the default): automatic, dmax = d0 + r0 * (1e-5)^(1/(n - m)) for
     * Rational, as PLUMED's keyword form (Cosinus: d0 + r0; other types: no cutoff). A positive finite value: that
     * cutoff (must be > d0). Infinity (std::numeric_limits<double>::infinity(), Python float('inf')): no cutoff, no
     * stretching.
     *
     * @param dmax   in nm: 0, a value > d0, or infinity
     */
    void setDMax(double dmax) { switching.setDMax(dmax); }
    /**
     * Get the cutoff actually used.
     *
     * @return in nm: the type's automatic value if getDMax() is 0, infinity if there is no cutoff
     */
    double getEffectiveDMax() const { return switching.getEffectiveDMax(); }
    /**
     * Get whether the switching function is stretched to reach 0 at a finite dmax.
     *
     * @return default true (PLUMED's default)
     */
    bool getStretch() const { return switching.getStretch(); }
    /**
     * Set whether the switching function is stretched to reach 0 at a finite dmax. Has no effect without a cutoff.
     *
     * @param stretch   true: PLUMED's default; false: PLUMED's NOSTRETCH
     */
    void setStretch(bool stretch) { switching.setStretch(stretch); }
    /**
     * Get the type of switching function.
     *
     * @return default Rational
     */
    CoordinationBiasForce::SwitchingFunction getSwitchingFunction() const { return switching.getType(); }
    /**
     * Set the type of switching function. Its own parameters are set with setN/setM (Rational), setSmapExponents
     * (Smap), setNativeQParameters (NativeQ) or setCustomSwitchingFunction (Custom); r0, d0, dmax and stretch are
     * shared by all types.
     *
     * @param type   one of the SwitchingFunction values (PLUMED's SWITCH types)
     */
    void setSwitchingFunction(CoordinationBiasForce::SwitchingFunction type);
    /**
     * Get the exponent a of the Smap function.
     *
     * @return PLUMED's A; default 0 (unset: a Smap force needs setSmapExponents)
     */
    int getSmapA() const { return switching.getSmapA(); }
    /**
     * Get the exponent b of the Smap function.
     *
     * @return PLUMED's B; default 0 (unset)
     */
    int getSmapB() const { return switching.getSmapB(); }
    /**
     * Set the exponents of the Smap function sigma = (1 + (2^(a/b) - 1) x^a)^(-b/a). Each must be 1 to MaxExponent
     * (16777216), or both 0 (unset, the default: a force of another type keeps them so); anything else throws an
     * OpenMMException here. A Smap force with unset exponents is refused when a Context is created.
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
    double getNativeQBeta() const { return switching.getNativeQBeta(); }
    /**
     * Get lambda of the NativeQ function.
     *
     * @return unitless; default 1.8 (PLUMED's)
     */
    double getNativeQLambda() const { return switching.getNativeQLambda(); }
    /**
     * Get the reference distance of the NativeQ function.
     *
     * @return in nm; default 0 (unset: a NativeQ force needs setNativeQParameters)
     */
    double getNativeQReference() const { return switching.getNativeQReference(); }
    /**
     * Set the parameters of the NativeQ function sigma(r) = 1 / (1 + exp(beta (r - lambda * reference))).
     *
     * @param beta        PLUMED's BETA, in 1/nm, > 0 (PLUMED's default 50)
     * @param lambda      PLUMED's LAMBDA, unitless, > 0 (PLUMED's default 1.8)
     * @param reference   PLUMED's REF, in nm, > 0
     */
    void setNativeQParameters(double beta, double lambda, double reference) {
        switching.setNativeQParameters(beta, lambda, reference);
    }
    /**
     * Get the expression of the Custom switching function.
     *
     * @return the expression; "" if none was set
     */
    const std::string& getCustomSwitchingFunction() const { return switching.getCustomExpression(); }
    /**
     * Use a Custom switching function (PLUMED's SWITCH={CUSTOM FUNC=...}) and set the type to Custom: a Lepton
     * expression of x = (r - d0) / r0 or of x2 = r^2 / r0^2 (SwitchingSettings::setCustomExpression()). Checked when
     * a Context is created.
     *
     * @param expression   sigma as a function of x or of x2 (unitless)
     */
    void setCustomSwitchingFunction(const std::string& expression) { switching.setCustomExpression(expression); }

protected:
    /**
     * A force in Self mode with empty groups and the default switching function.
     *
     * @param energy   the energy expression
     */
    explicit PairSwitchingForce(const std::string& energy);

private:
    Mode mode;
    std::vector<int> groupA, groupB;
    SwitchingSettings switching;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PAIRSWITCHINGFORCE_H_*/
