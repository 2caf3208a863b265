#ifndef OPENMM_COORDINATION_STEINHARDTFORCE_H_
#define OPENMM_COORDINATION_STEINHARDTFORCE_H_

#include "PerAtomForce.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A bias on Steinhardt's bond-order parameters of single atoms: PLUMED's Q_l actions (Q1, Q3, Q4, Q6) with their
 * reductions (SUM, MEAN, MORE_THAN, LESS_THAN, BETWEEN, MIN, MAX, ALT_MIN, HIGHEST, LOWEST, MOMENTS: PerAtomForce's,
 * which also holds the modes, centres and the rules every per-atom force follows). Each entry i of group A has
 * @code
 * q_lm(i) = sum over entries j of group B (group A in Self mode), j != i, of sigma(r_ij) Y_lm(r_ij),   m = -l .. l
 * N_i     = sum over the same j of sigma(r_ij)
 * Q_l(i)  = sqrt(sum_m |q_lm(i)|^2) / N_i
 * @endcode
 *
 * with r_ij the bond vector from i to j (the minimum image), sigma the force's switching function (the setters of
 * PairSwitchingForce) and Y_lm the orthonormal complex spherical harmonics with the Condon-Shortley phase (their
 * squared moduli summed over m are (2l+1)/(4 pi)), as PLUMED defines them: PLUMED's Q_l is Steinhardt's (with its
 * factor 4 pi/(2l+1) under the root) times sqrt((2l+1)/(4 pi)). Q_l(i) is the q_i of the reductions.
 *
 * An atom with no neighbour (N_i = 0, every sigma(r_ij) below DBL_EPSILON) has Q_l(i) = 0 and no force here; PLUMED
 * gives it 0/0 = NaN, which under the non-finite rule would switch a whole bias off the moment one atom of a vapour is
 * alone. Where q_l(i) = 0 with neighbours (e.g. Q_l of odd l at a centre of inversion), Q_l(i) = 0 and its gradient
 * with respect to q_l(i), which the norm lacks there, is taken as 0.
 *
 * The force on atom k is -sum_i dE/dQ_l(i) dQ_l(i)/dx_k. getCollectiveVariableValues() reports the reductions and
 * getOrderParameters() (or getPerAtomValues()) the Q_l(i).
 */
class OPENMM_EXPORT_COORDINATION SteinhardtForce : public PerAtomForce {
public:
    /** The largest degree l. */
    static const int MaxDegree = 12;
    /**
     * Create a SteinhardtForce: Self mode, no reductions, the default switching function.
     *
     * @param degree   the degree l of the spherical harmonics (setDegree()); default 6 (PLUMED's Q6)
     * @param energy   the energy: a Lepton expression of the reductions' names and of global parameters
     *                 (kJ/mol). Default "0".
     */
    explicit SteinhardtForce(int degree = 6, const std::string& energy = "0");
    /**
     * Get the degree l.
     *
     * @return l; default 6
     */
    int getDegree() const { return degree; }
    /**
     * Set the degree l of the spherical harmonics (PLUMED's Q1, Q3, Q4 and Q6 are l = 1, 3, 4 and 6). Checked when a
     * Context is created.
     *
     * @param degree   an integer from 1 to MaxDegree (12)
     */
    void setDegree(int degree) { this->degree = degree; }
    /**
     * Get the order parameters Q_l(i) at the context's current positions (getPerAtomValues()), computed by the
     * context's platform: one per entry of group A, in its order. For a force inside a CustomCVForce, pass the Context
     * of the CustomCVForce's System.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    the Q_l(i) (unitless)
     */
    void getOrderParameters(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * This force's settings as one line of PLUMED input (PlumedTranslator::toPlumed()): a Q1, Q3, Q4 or Q6 action
     * with its reductions as PLUMED's keywords (another degree has no PLUMED action: an OpenMMException).
     *
     * @param label    the action's label (default "q")
     * @return the line
     */
    std::string toPlumed(const std::string& label = "q") const override;
    /**
     * The class's name in messages.
     *
     * @return "SteinhardtForce"
     */
    std::string getForceClassName() const override { return "SteinhardtForce"; }

protected:
    /**
     * Create the ForceImpl (called by OpenMM when a Context is created).
     *
     * @return a new SteinhardtForceImpl
     */
    OpenMM::ForceImpl* createImpl() const override;

private:
    int degree;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_STEINHARDTFORCE_H_*/
