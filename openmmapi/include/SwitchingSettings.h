#ifndef OPENMM_COORDINATION_SWITCHINGSETTINGS_H_
#define OPENMM_COORDINATION_SWITCHINGSETTINGS_H_

#include "CoordinationBiasForce.h"
#include "internal/windowsExportCoordination.h"
#include <string>

namespace CoordinationPlugin {

/**
 * A switching function sigma(r), as PLUMED's SWITCH={...} describes it: its type, r0, d0, the cutoff dmax,
 * the stretch, and the type's own parameters. A plain value (copy it, compare it, pass it by value): a
 * CoordinationForce or CoordinationNumberForce has one (getSwitchingSettings(); its setters setR0(), setN(), ...
 * edit it), each contact of a ContactMapForce has its own.
 *
 * With x = (r - d0) / r0, sigma = 1 for r <= d0 (x <= 0), and PLUMED's definitions:
 *
 * @code
 * Rational     (1 - x^n) / (1 - x^m)                        SWITCH={RATIONAL R_0 D_0 NN MM}   (the default: n 6, m 2n)
 * Exponential  exp(-x)                                      SWITCH={EXP R_0 D_0}
 * Gaussian     exp(-x^2 / 2)                                SWITCH={GAUSSIAN R_0 D_0}
 * Smap         (1 + (2^(a/b) - 1) x^a)^(-b/a)               SWITCH={SMAP R_0 D_0 A B}: setSmapExponents(a, b)
 * Cubic        (x - 1)^2 (1 + 2x), x = (r - d0)/(dmax - d0)  SWITCH={CUBIC D_0 D_MAX}: needs a finite dmax; r0 unused
 * Tanh         1 - tanh(x)                                  SWITCH={TANH R_0 D_0}
 * Cosinus      (cos(pi x) + 1) / 2 for x <= 1, else 0       SWITCH={COSINUS R_0 D_0}
 * NativeQ      1 / (1 + exp(beta (r - lambda ref)))         SWITCH={Q BETA LAMBDA REF D_0}: setNativeQParameters(); r0 unused
 * Custom       f(x), any Lepton expression of x             SWITCH={CUSTOM FUNC=... R_0 D_0}: setCustomExpression()
 *              or f(x2), x2 = r^2 / r0^2 (d0 is then ignored, as in PLUMED: no clamp, stretch uses f(0))
 * @endcode
 *
 * Near x = 1, where the Rational function with m != 2n has a removable singularity, its second-order Taylor
 * expansion about x = 1 is used within 1.1e-5 of 1, as PLUMED does.
 *
 * The cutoff dmax: 0 (the default) is the type's automatic cutoff: d0 + r0 * (1e-5)^(1/(n - m)) for Rational
 * (PLUMED's keyword form R_0 NN MM), d0 + r0 for Cosinus (where it reaches 0), none for the others (Cubic needs an
 * explicit one); a positive finite value is that cutoff (> d0); infinity is none (PLUMED's SWITCH={...} without
 * D_MAX). sigma = 0 beyond the cutoff and, with stretch (the default; PLUMED's NOSTRETCH turns it off), the function
 * is shifted and scaled so that it reaches 0 continuously there:
 *
 * @code
 * stretched sigma(r) = (sigma(r) - sigma(dmax)) / (sigma(0) - sigma(dmax))
 * @endcode
 *
 * The setters refuse an exponent outside its range, or an unknown type, where they are called; everything else
 * (r0 > 0, d0 >= 0, dmax > d0, n != m, a parseable Custom expression, constants that a double can hold) is checked
 * when a Context is created, by one rule for every force, with a message that names the setting and what is
 * allowed.
 */
class OPENMM_EXPORT_COORDINATION SwitchingSettings {
public:
    /**
     * The largest exponent setN(), setM() and setSmapExponents() accept: 2^24 = 16777216. Twice it (m = 0 means
     * 2n) fits an int with room to spare, and x^n already underflows to 0 for x < 1 far below it.
     */
    static const int MaxExponent = 16777216;
    /**
     * The default switching function: Rational with r0 = 0.3 nm, n = 6, m = 2n, d0 = 0, the automatic cutoff,
     * stretched (PLUMED's COORDINATION R_0=0.3).
     */
    SwitchingSettings();
    /**
     * A switching function of the given type with the given lengths; the type's own parameters keep their
     * defaults (n = 6 and m = 2n; Smap unset; NativeQ beta = 50/nm, lambda = 1.8, reference unset; no Custom
     * expression).
     *
     * @param type      one of CoordinationBiasForce::SwitchingFunction (Rational ... Custom)
     * @param r0        r0 in nm (unused by Cubic and NativeQ)
     * @param d0        d0 in nm; default 0
     * @param dmax      the cutoff in nm: 0 (default) automatic, infinity none, or a value > d0
     * @param stretch   whether sigma is stretched to reach 0 at a finite cutoff; default true
     */
    explicit SwitchingSettings(CoordinationBiasForce::SwitchingFunction type, double r0 = 0.3, double d0 = 0.0,
                               double dmax = 0.0, bool stretch = true);
    /**
     * PLUMED's RATIONAL: (1 - x^n) / (1 - x^m).
     *
     * @param r0     r0 in nm
     * @param n      n, 1 to MaxExponent; default 6
     * @param m      m, 0 to MaxExponent (0, the default, means 2n)
     * @param d0     d0 in nm; default 0
     * @param dmax   the cutoff in nm: 0 (default) PLUMED's automatic cutoff, infinity none, or a value > d0
     * @return the settings (stretched)
     */
    static SwitchingSettings rational(double r0, int n = 6, int m = 0, double d0 = 0.0, double dmax = 0.0);
    /**
     * PLUMED's SMAP: (1 + (2^(a/b) - 1) x^a)^(-b/a).
     *
     * @param r0     r0 in nm
     * @param a      PLUMED's A, 1 to MaxExponent
     * @param b      PLUMED's B, 1 to MaxExponent
     * @param d0     d0 in nm; default 0
     * @param dmax   the cutoff in nm: 0 or infinity (default 0: none for Smap), or a value > d0
     * @return the settings (stretched)
     */
    static SwitchingSettings smap(double r0, int a, int b, double d0 = 0.0, double dmax = 0.0);
    /**
     * PLUMED's Q (native contacts): 1 / (1 + exp(beta (r - lambda reference))).
     *
     * @param beta        PLUMED's BETA, in 1/nm
     * @param lambda      PLUMED's LAMBDA, unitless
     * @param reference   PLUMED's REF, in nm
     * @param d0          d0 in nm; default 0
     * @param dmax        the cutoff in nm: 0 or infinity (default 0: none), or a value > d0
     * @return the settings (stretched where there is a cutoff)
     */
    static SwitchingSettings nativeQ(double beta, double lambda, double reference, double d0 = 0.0, double dmax = 0.0);
    /**
     * PLUMED's CUSTOM: a Lepton expression of x = (r - d0) / r0, or of x2 = r^2 / r0^2 (see setCustomExpression()).
     *
     * @param expression   sigma as a function of x or of x2
     * @param r0           r0 in nm
     * @param d0           d0 in nm; default 0
     * @param dmax         the cutoff in nm: 0 or infinity (default 0: none), or a value > d0
     * @return the settings (stretched where there is a cutoff)
     */
    static SwitchingSettings custom(const std::string& expression, double r0, double d0 = 0.0, double dmax = 0.0);
    /**
     * Get the type.
     *
     * @return one of CoordinationBiasForce::SwitchingFunction; default Rational
     */
    CoordinationBiasForce::SwitchingFunction getType() const { return type; }
    /**
     * Set the type. Its own parameters are set with setN()/setM() (Rational), setSmapExponents() (Smap),
     * setNativeQParameters() (NativeQ) or setCustomExpression() (Custom); r0, d0, dmax and stretch are shared by
     * every type. An unknown type throws an OpenMMException.
     *
     * @param type   one of CoordinationBiasForce::SwitchingFunction
     */
    void setType(CoordinationBiasForce::SwitchingFunction type);
    /**
     * Get r0.
     *
     * @return in nm; default 0.3
     */
    double getR0() const { return r0; }
    /**
     * Set r0 (PLUMED's R_0), the length that scales x. Unused by Cubic and NativeQ.
     *
     * @param r0   in nm, > 0
     */
    void setR0(double r0) { this->r0 = r0; }
    /**
     * Get d0.
     *
     * @return in nm; default 0
     */
    double getD0() const { return d0; }
    /**
     * Set d0 (PLUMED's D_0): x = (r - d0) / r0, and sigma = 1 for r <= d0.
     *
     * @param d0   in nm, >= 0 (and below a finite dmax)
     */
    void setD0(double d0) { this->d0 = d0; }
    /**
     * Get the cutoff as set.
     *
     * @return in nm: 0 (the default) automatic, infinity none, else the cutoff
     */
    double getDMax() const { return dmax; }
    /**
     * Set the cutoff (PLUMED's D_MAX).
     *
     * @param dmax   in nm: 0 for the type's automatic cutoff (see the class comment), infinity for none
     *               (std::numeric_limits<double>::infinity(), Python's float('inf')), or a cutoff > d0
     */
    void setDMax(double dmax) { this->dmax = dmax; }
    /**
     * Get the cutoff used: the type's automatic one where getDMax() is 0.
     *
     * @return in nm; infinity for none
     */
    double getEffectiveDMax() const;
    /**
     * Get whether sigma is stretched to reach 0 at a finite cutoff.
     *
     * @return default true (PLUMED's default)
     */
    bool getStretch() const { return stretch; }
    /**
     * Set whether sigma is stretched to reach 0 at a finite cutoff (no effect without one).
     *
     * @param stretch   true: PLUMED's default; false: PLUMED's NOSTRETCH
     */
    void setStretch(bool stretch) { this->stretch = stretch; }
    /**
     * Get the Rational function's exponent n.
     *
     * @return default 6
     */
    int getN() const { return n; }
    /**
     * Set the Rational function's exponent n (PLUMED's NN). A value outside 1 to MaxExponent throws an
     * OpenMMException here.
     *
     * @param n   1 to MaxExponent (16777216)
     */
    void setN(int n);
    /**
     * Get the Rational function's exponent m as set.
     *
     * @return default 0, meaning 2n
     */
    int getM() const { return m; }
    /**
     * Set the Rational function's exponent m (PLUMED's MM). A value outside 0 to MaxExponent throws an
     * OpenMMException here; m equal to n (after 0 becomes 2n) is refused when a Context is created.
     *
     * @param m   0 to MaxExponent (16777216); 0 means 2n
     */
    void setM(int m);
    /**
     * Get the exponent m used.
     *
     * @return 2n where getM() is 0, else getM()
     */
    int getEffectiveM() const { return (m == 0 ? 2 * n : m); }
    /**
     * Get the Smap exponent a.
     *
     * @return PLUMED's A; default 0 (unset)
     */
    int getSmapA() const { return smapA; }
    /**
     * Get the Smap exponent b.
     *
     * @return PLUMED's B; default 0 (unset)
     */
    int getSmapB() const { return smapB; }
    /**
     * Set the Smap exponents of (1 + (2^(a/b) - 1) x^a)^(-b/a). Each must be 1 to MaxExponent, or both 0 (unset,
     * the default); anything else throws an OpenMMException here. A Smap function with unset exponents is refused
     * when a Context is created.
     *
     * @param a   PLUMED's A
     * @param b   PLUMED's B
     */
    void setSmapExponents(int a, int b);
    /**
     * Get beta of the NativeQ function.
     *
     * @return in 1/nm; default 50 (PLUMED's)
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
     * @return in nm; default 0 (unset: a NativeQ function needs setNativeQParameters())
     */
    double getNativeQReference() const { return nativeQReference; }
    /**
     * Set the parameters of the NativeQ function 1 / (1 + exp(beta (r - lambda * reference))).
     *
     * @param beta        PLUMED's BETA, in 1/nm, > 0 (PLUMED's default 50)
     * @param lambda      PLUMED's LAMBDA, unitless, > 0 (PLUMED's default 1.8)
     * @param reference   PLUMED's REF, in nm, > 0
     */
    void setNativeQParameters(double beta, double lambda, double reference);
    /**
     * Get the Custom function's expression.
     *
     * @return "" if none was set
     */
    const std::string& getCustomExpression() const { return customExpression; }
    /**
     * Set the Custom function (PLUMED's SWITCH={CUSTOM FUNC=...}) and the type to Custom: a Lepton expression of
     * x = (r - d0) / r0 (sigma = 1 for r <= d0) or of x2 = r^2 / r0^2 (PLUMED's fast form: d0 is ignored and
     * sigma = f(x2) down to r = 0), not both, and of no other variable; PLUMED's named constants (pi, pi_2, pi_4, e,
     * ln2, ln10, log2e, log10e, sqrt2, sqrt1_2) may be used. Checked when a Context is created.
     *
     * @param expression   sigma as a function of x or of x2 (unitless)
     */
    void setCustomExpression(const std::string& expression);
    /**
     * Whether two settings are the same setting by setting (the same switching function).
     *
     * @param other   the other settings
     * @return true if every setting is equal (doubles bit for bit)
     */
    bool operator==(const SwitchingSettings& other) const;
    /**
     * The opposite of operator==.
     *
     * @param other   the other settings
     * @return true if any setting differs
     */
    bool operator!=(const SwitchingSettings& other) const { return !(*this == other); }
    /**
     * The rule of every exponent setter, in one place: an OpenMMException naming the setter, the value and the
     * range if value is outside minimum to MaxExponent.
     *
     * @param setter    the method, as its message names it ("CoordinationForce::setN")
     * @param what      the exponent's name ("n")
     * @param value     the value given
     * @param minimum   the smallest value allowed
     * @param note      what the smallest value means, if anything (" (0 means 2n)")
     */
    static void checkExponent(const std::string& setter, const std::string& what, int value, int minimum,
                              const std::string& note = "");

private:
    CoordinationBiasForce::SwitchingFunction type;
    double r0, d0, dmax;
    bool stretch;
    int n, m, smapA, smapB;
    double nativeQBeta, nativeQLambda, nativeQReference;
    std::string customExpression;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SWITCHINGSETTINGS_H_*/
