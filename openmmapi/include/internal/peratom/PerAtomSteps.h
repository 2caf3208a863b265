#ifndef OPENMM_COORDINATION_PERATOMSTEPS_H_
#define OPENMM_COORDINATION_PERATOMSTEPS_H_

#include "internal/peratom/ResolvedPerAtom.h"
#include "internal/peratom/SphericalHarmonics.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ExpressionProgram.h"
#include "openmm/Vec3.h"
#include <memory>
#include <vector>

namespace CoordinationPlugin {

/**
 * The host platforms' evaluation of a composition's per-pair and per-atom steps (ResolvedPerAtom), in double
 * precision: the pair term of one direction of a pair and its gradient, and the per-atom step q_i of an entry's
 * values and its gradient. The Reference engine and the CPU kernels call it; the GPU kernels have the same steps in
 * kernels/peratom/perAtomTerms.cc.
 */
class OPENMM_EXPORT_COORDINATION PerAtomSteps {
public:
    explicit PerAtomSteps(const ResolvedPerAtom& perAtom);
    ~PerAtomSteps();
    PerAtomSteps(PerAtomSteps&&) noexcept;
    PerAtomSteps& operator=(PerAtomSteps&&) noexcept;
    int getNumComponents() const { return numComponents; }
    /**
     * The pair term of one direction of a pair: d from the entry to its neighbour, r = |d| (> 0), sigma(r) and its
     * r-derivative; term[c] receives component c and, if gradient is not null, gradient[c] its gradient with
     * respect to d (the neighbour's position; the entry's is its negative).
     */
    void pairTerm(const OpenMM::Vec3& d, double r, double sigma, double dSigmaDr, double* term,
                  OpenMM::Vec3* gradient) const;
    /**
     * The gradient with respect to d of sum_c weights[c] term_c(d) (the same arguments as pairTerm), without the
     * terms' own gradients (SphericalHarmonics::weightedGradient); a component whose weight is 0 adds nothing.
     */
    OpenMM::Vec3 pairGradient(const OpenMM::Vec3& d, double r, double sigma, double dSigmaDr,
                              const double* weights) const;
    /**
     * The sign s_c with term_c(-d) = s_c term_c(d): -1 for the harmonics of odd degree (Y_lm(-d) = (-1)^l Y_lm(d)),
     * 1 for the weight sigma and for the other terms. A pair's neighbour's terms are its entry's times these.
     */
    double componentParity(int component) const;
    /**
     * q of an entry's values v (numComponents of them); if gradient is not null, dq/dv into it (NormOverWeight: 0
     * where q is 0 for lack of neighbours or of a vector).
     */
    double atomStep(const double* v, double* gradient) const;
    /**
     * SphericalHarmonics: an entry's vector u = q_lm / N of its values v (ResolvedPerAtom::vectorComponents() numbers,
     * the real components of the orders m >= 0; 0 where N = 0), which VectorMean, VectorSum and the local step's
     * Average take.
     */
    void averageVector(const double* v, double* u) const;
    /** SphericalHarmonics: dE/dv of an entry (added to dEdv) from dE/du of its averageVector() and its values v. */
    void averageVectorBackward(const double* v, const double* dEdu, double* dEdv) const;

private:
    ResolvedPerAtom::PairTerm kind;
    ResolvedPerAtom::AtomStep step;
    int numComponents;
    double rPower;
    std::unique_ptr<SphericalHarmonics> harmonics;
    /**
     * A Lepton program of the shell variables (x, y, z, r) evaluated from an array of them: each variable's place in
     * the array resolved once, so that no map of names is built or searched per pair.
     */
    class ShellExpression {
    public:
        explicit ShellExpression(const Lepton::ParsedExpression& expression);
        double evaluate(const double* variables) const;

    private:
        Lepton::ExpressionProgram program;
        std::vector<int> variableOf; // per operation: the variable's index, or -1 for another operation
    };
    /** ShellFunction: each part's value and partial derivatives (x, y, z, r), its parity, and the weight's place. */
    struct ShellProgram {
        ShellExpression value, dx, dy, dz, dr;
        double parity;
    };
    std::vector<ShellProgram> shellParts;
    int firstPart = 0;
    /** ShellFunction: the parts' values g_p(d) and, if gradients is not null, their gradients with respect to d. */
    void shellValues(const OpenMM::Vec3& d, double r, double* values, OpenMM::Vec3* gradients) const;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PERATOMSTEPS_H_*/
