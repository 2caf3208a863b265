#ifndef OPENMM_COORDINATION_CUTOFFANDSTRETCH_H_
#define OPENMM_COORDINATION_CUTOFFANDSTRETCH_H_

namespace CoordinationPlugin {

/**
 * PLUMED's cutoff and stretch, the same for every switching function and every C++ form of one
 * (SwitchingFunctionEvaluator, RationalSwitchingFunction): sigma = 0 for r > dmax; otherwise the
 * unstretched value scaled and shifted, sigma' = sigma * stretchFactor + shift (1 and 0 without stretch).
 * dSigmaDr receives d sigma' / dr.
 */
template <class Unstretched>
inline double cutoffAndStretch(const Unstretched& sigma, double r, double dmax, double stretchFactor, double shift,
                               double& dSigmaDr) {
    if (r > dmax) {
        dSigmaDr = 0.0;
        return 0.0;
    }
    double value = sigma.evaluateUnstretched(r, dSigmaDr);
    dSigmaDr *= stretchFactor;
    return value * stretchFactor + shift;
}

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_CUTOFFANDSTRETCH_H_*/
