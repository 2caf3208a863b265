#ifndef OPENMM_COORDINATION_SWITCHINGFUNCTIONCONSTANTS_H_
#define OPENMM_COORDINATION_SWITCHINGFUNCTIONCONSTANTS_H_

#include "SwitchingSettings.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ParsedExpression.h"
#include <string>

namespace CoordinationPlugin {

/**
 * How the pair loops of the CPU and GPU platforms evaluate sigma, decided once in the resolution
 * (SwitchingFunctionConstants::resolve) and followed by both:
 *
 * - Distance: sigma(r) from r = sqrt(r^2), as defined.
 * - SquaredDistance: sigma as a function of y = r^2 / r0^2, with no square root for most pairs. Taken by
 *   the Rational type with d0 = 0 and n and m even (x^n = y^(n/2); within SquaredTaylorBand of y = 1, where
 *   m != 2n needs the Taylor expansion or the cancellation-free form, the pair falls back to r), unless
 *   1/r0^2 exceeds SinglePrecisionLimit (r0 below 1e-15 nm: the decision is then the same in every
 *   precision); and by every Custom function of x2, which has no other form.
 *
 * The Reference platform is the oracle the others are tested against: it evaluates sigma(r) as defined,
 * whatever the path.
 */
enum class SwitchingPath { Distance = 0, SquaredDistance = 1 };

/**
 * Every constant of a validated force's switching function, computed once, by resolve(), when a Context is
 * created or updateParametersInContext() is called: what any platform needs to evaluate sigma(r), on the
 * host (SwitchingFunctionEvaluator, the CPU platform's loops) or in kernel source (the GPU platforms print
 * these numbers as defines). No platform derives a constant of its own.
 *
 * PLUMED's rules: sigma = 0 for r > dmax; for the types of x = (r - d0) * invLength, sigma = 1 for x <= 0;
 * stretched, sigma' = sigma * stretchFactor + shift.
 */
struct OPENMM_EXPORT_COORDINATION SwitchingFunctionConstants {
    /** The largest value single-precision kernels take for 1/r0 and 1/r0^2 (a float holds up to 3.4e38). */
    static constexpr double SinglePrecisionLimit = 1e30;
    /** Rational: half-width of the band around x = 1 where the Taylor expansion replaces the ratio (PLUMED's). */
    static constexpr double TaylorBand = 1.1e-5;
    /**
     * Rational in single precision: within this of x = 1 the direct ratio loses digits to cancellation, so the
     * GPU kernel evaluates G_n(x) / G_m(x) (G_k = 1 + x + ... + x^(k-1)), the same function without it.
     */
    static constexpr double SinglePrecisionNearOneBand = 0.25;
    /**
     * SquaredDistance (Rational, m != 2n): within this of y = x^2 = 1 the pair is evaluated from r. It holds every
     * x of the band |x - 1| < TaylorBand, with a margin (double precision) ...
     */
    static constexpr double SquaredTaylorBand = 3e-5;
    /** ... or of |x - 1| < SinglePrecisionNearOneBand ((1 + 0.25)^2 - 1 = 0.5625; single and mixed precision). */
    static constexpr double SquaredNearOneBand = 0.57;

    /**
     * Check a switching function's settings and return its constants: the one rule of every force (a
     * CoordinationForce's or CoordinationNumberForce's pair function, a contact's, a MoreThan reduction's). An
     * OpenMMException whose message starts with where ("CoordinationForce: ", "ContactMapForce: contact 3 (particles
     * 4, 9): ") names a bad setting and what is allowed: r0 (at least 1e-300 nm), d0, dmax, the type's own parameters,
     * a Custom expression (parsed here), a stretch that would multiply sigma by more than 1e6, and every constant
     * that would overflow a double (the GPU platforms print them into kernel source, which has no spelling for
     * infinity).
     */
    static SwitchingFunctionConstants resolve(const SwitchingSettings& settings, const std::string& where);

    CoordinationBiasForce::SwitchingFunction type = CoordinationBiasForce::Rational;
    double r0 = 0.3;                     ///< the user's r0 (nm)
    double d0 = 0.0;                     ///< nm
    double dmax = 0.0;                   ///< the effective cutoff (nm); infinity for none
    double cutoffSquared = 0.0;          ///< dmax^2 (nm^2); infinity for none
    /** Whether the cutoff excludes anything: below 1e15 nm (beyond, nothing is that far and dmax^2 overflows a float). */
    bool hasCutoff = false;
    /** 1 / the length that scales x: 1/r0, or 1/(dmax - d0) for Cubic (1/nm). */
    double invLength = 0.0;
    double inverseR0Squared = 0.0;       ///< 1/r0^2 (1/nm^2): y = r^2/r0^2 and x2
    bool stretch = false;                ///< whether the stretch was requested (and dmax is finite)
    double stretchFactor = 1.0, shift = 0.0;
    /** Why single and mixed precision cannot evaluate this function ("" if they can): an r0 too small for a float. */
    std::string singlePrecisionProblem;
    SwitchingPath path = SwitchingPath::Distance;
    // Rational: (1 - x^n) / (1 - x^m), with a second-order Taylor expansion in |x - 1| < TaylorBand.
    int n = 6, m = 12;                   ///< m resolved (0 means 2n)
    bool mIsTwiceN = true;               ///< m = 2n: sigma = 1 / (1 + x^n), no removable singularity
    double taylorValue = 0.0, taylorFirst = 0.0, taylorSecond = 0.0;
    /**
     * Whether x^n and x^m stay within RationalSwitchingFunction::DirectPowerLimit up to the cutoff, so that the
     * powers of x serve every pair and the form in 1/x is never needed (the GPU kernel then compiles without it).
     */
    bool directPowersSuffice = false;
    // Smap: (1 + smapC x^a)^(smapExponent), smapC = 2^(a/b) - 1, smapExponent = -b/a.
    int smapA = 0, smapB = 0;
    double smapC = 0.0, smapExponent = 0.0;
    // Cosinus: (cos(cosinusFrequency x) + 1) / 2, derivative cosinusSlope sin(cosinusFrequency x): pi and -pi/2.
    double cosinusFrequency = 0.0, cosinusSlope = 0.0;
    // NativeQ: 1 / (1 + exp(beta (r - centre))), centre = lambda * reference.
    double qBeta = 0.0, qCentre = 0.0;
    // Custom: the expression with PLUMED's named constants substituted, its derivative, and its variable.
    std::string customExpression;
    std::string customVariable;          ///< "x" or "x2" (Custom only)
    Lepton::ParsedExpression customValue, customDerivative;
    /** Whether sigma is a function of x2 = r^2/r0^2 (a Custom expression in x2: no d0, no clamp). */
    bool isFunctionOfX2() const { return type == CoordinationBiasForce::Custom && customVariable == "x2"; }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SWITCHINGFUNCTIONCONSTANTS_H_*/
