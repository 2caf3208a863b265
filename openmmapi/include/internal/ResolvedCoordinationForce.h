#ifndef OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_
#define OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_

#include "CoordinationForce.h"
#include "lepton/ParsedExpression.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * Every constant of a validated force's switching function, computed once (by
 * CoordinationForceImpl::resolve): what any platform needs to evaluate sigma(r), on the host
 * (SwitchingFunctionEvaluator) or in kernel source (the GPU platforms turn it into defines).
 *
 * PLUMED's rules: sigma = 0 for r > dmax; for the types of x = (r - d0) * invLength, sigma = 1 for x <= 0;
 * stretched, sigma' = sigma * stretchFactor + shift.
 */
struct SwitchingFunctionConstants {
    CoordinationForce::SwitchingFunction type = CoordinationForce::Rational;
    double r0 = 0.3;                    ///< the user's r0 (nm)
    double d0 = 0.0;                    ///< nm
    double dmax = 0.0;                  ///< the effective cutoff (nm); infinity for none
    /** 1 / the length that scales x: 1/r0, or 1/(dmax - d0) for Cubic (1/nm). */
    double invLength = 0.0;
    bool stretch = false;               ///< whether the stretch was requested (and dmax is finite)
    double stretchFactor = 1.0, shift = 0.0;
    // Rational: (1 - x^n) / (1 - x^m), with a second-order Taylor expansion in |x - 1| < taylorBand.
    int n = 6, m = 12;                  ///< m resolved (0 means 2n)
    double taylorBand = 0.0, taylorValue = 0.0, taylorFirst = 0.0, taylorSecond = 0.0;
    // Smap: (1 + smapC x^a)^(smapExponent), smapC = 2^(a/b) - 1, smapExponent = -b/a.
    int smapA = 0, smapB = 0;
    double smapC = 0.0, smapExponent = 0.0;
    // NativeQ: 1 / (1 + exp(beta (r - centre))), centre = lambda * reference.
    double qBeta = 0.0, qCentre = 0.0;
    // Custom: the expression with PLUMED's named constants substituted, its derivative, and its variable.
    std::string customExpression;
    std::string customVariable;         ///< "x" or "x2" (Custom only)
    Lepton::ParsedExpression customValue, customDerivative;
    /** Whether sigma is a function of r alone (NativeQ), not of x. */
    bool isFunctionOfR() const { return type == CoordinationForce::NativeQ; }
    /** Whether sigma is a function of x2 = r^2/r0^2 (a Custom expression in x2: no d0, no clamp). */
    bool isFunctionOfX2() const { return type == CoordinationForce::Custom && customVariable == "x2"; }
};

/**
 * A validated CoordinationForce with everything its kernels need resolved once, by
 * CoordinationForceImpl::resolve at context creation and in updateParametersInContext: the groups and
 * their unique-atom map, the switching function's constants, the parsed energy expression and its
 * derivatives. Every platform's kernel is initialized from it (as TorchForceImpl hands its kernel the
 * loaded module), so no kernel re-derives a setting.
 *
 * Copy it by construction or move it: Lepton's copy assignment of an empty ParsedExpression (the Custom
 * members of another type) dereferences a null operation.
 */
struct ResolvedCoordinationForce {
    CoordinationForce::Mode mode = CoordinationForce::Self;
    bool periodic = false;
    std::vector<int> groupA, groupB;    ///< the user's particle indices, one per slot (B empty in Self mode)
    std::vector<int> uniqueParticles;   ///< every particle in a group, once, in increasing order
    std::vector<int> uniqueA, uniqueB;  ///< each slot's index into uniqueParticles
    /** Whether two slots other than Self's diagonal can hold the same atom (such a pair counts 0). */
    bool sameAtomPossible = false;
    SwitchingFunctionConstants switching;
    std::string energyExpression;                       ///< the user's text
    std::vector<std::string> globalParameterNames;
    Lepton::ParsedExpression energy, energyDerivative;  ///< E(s) and dE/ds, optimized
    std::vector<std::string> energyParameterDerivativeNames;
    std::vector<Lepton::ParsedExpression> energyParameterDerivatives; ///< dE/dlambda, same order
    /** The cutoff (nm): infinity for none. */
    double getCutoff() const { return switching.dmax; }
    /** The pairs of slots the sum runs over: Self n(n-1)/2, Dual nA*nB, Pair nA (same-atom pairs included). */
    long long getNumSlotPairs() const {
        const long long a = groupA.size(), b = groupB.size();
        return (mode == CoordinationForce::Self ? a * (a - 1) / 2 : (mode == CoordinationForce::Dual ? a * b : a));
    }
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDCOORDINATIONFORCE_H_*/
