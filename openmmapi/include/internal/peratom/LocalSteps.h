#ifndef OPENMM_COORDINATION_LOCALSTEPS_H_
#define OPENMM_COORDINATION_LOCALSTEPS_H_

#include "internal/peratom/PerAtomSteps.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include "internal/windowsExportCoordination.h"

namespace CoordinationPlugin {

/**
 * The host platforms' evaluation of a composition's local step (ResolvedPerAtom::LocalStep), in double precision:
 * each entry's local vector u_i from its values and the backward step, and s_i from u_i and the entry's local sums
 * [W_i, P_i] (what the local pass adds up: t, then t u_j per component) with its gradients. The local pass itself is
 * the engine's: it adds [t, t u_j] to entry i's sums and [t, t u_i] to entry j's.
 */
class OPENMM_EXPORT_COORDINATION LocalSteps {
public:
    /** The steps of perAtom's local step; the q_i of a one-number local vector are steps' (kept by reference). */
    LocalSteps(const ResolvedPerAtom& perAtom, const PerAtomSteps& steps);
    /** The size D of u_i. */
    int getNumComponents() const { return numComponents; }
    /** The size of the local sums [W, P]: 1 + D. */
    int getNumSums() const { return 1 + numComponents; }
    /** u of an entry's values v (the force's numComponents numbers) into u (D numbers). */
    void localVector(const double* v, double* u) const;
    /** dE/dv of an entry (added to dEdv) from dE/du (D numbers) and its values v. */
    void localVectorBackward(const double* v, const double* dEdu, double* dEdv) const;
    /**
     * s of an entry's u and its local sums [W, P]; if dsdu is not null, ds/du into dsdu (D numbers) and ds/d[W, P]
     * into dsdSums (1 + D numbers).
     */
    double localValue(const double* u, const double* sums, double* dsdu, double* dsdSums) const;

private:
    const PerAtomSteps& steps;
    ResolvedPerAtom::LocalStep step;
    /** Whether u is a SteinhardtForce's q_lm (else one number, q_i). */
    bool vectors;
    int numComponents;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_LOCALSTEPS_H_*/
