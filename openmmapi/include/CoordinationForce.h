#ifndef OPENMM_COORDINATIONFORCE_H_
#define OPENMM_COORDINATIONFORCE_H_

#include "PairSwitchingForce.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
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
 * by default (n = 6, m = 2n, r0 = 0.3 nm, PLUMED's automatic cutoff, stretched), or any other of PLUMED's SWITCH
 * types: SwitchingSettings defines each, with the cutoff and the stretch, and PairSwitchingForce lists the setters
 * and their PLUMED keywords (GROUPA/GROUPB/PAIR -> setGroupA/setGroupB/setMode).
 *
 * Centres (PLUMED's COM and CENTER virtual atoms in GROUPA/GROUPB) stand in a group where a particle may
 * (CoordinationBiasForce::addCenter()):
 * @code
 * int ligand = force.addCenter(ligandAtoms, CoordinationForce::CenterOfMass);   // PLUMED: c1: COM ATOMS=...
 * force.setGroupA({ligand});                                                  // GROUPA=c1
 * force.setGroupB(waterOxygens);
 * @endcode
 */
class OPENMM_EXPORT_COORDINATION CoordinationForce : public PairSwitchingForce {
public:
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
     * form. The same as PlumedTranslator::fromPlumed(), which lists the keywords, for a COORDINATION action
     * (another action throws an OpenMMException that names PlumedTranslator::fromPlumed, which reads every class).
     *
     * @param input   PLUMED input holding one COORDINATION action
     * @return a new CoordinationForce (energy "s"); the caller owns it (in Python, the returned object does)
     */
    static CoordinationForce* fromPlumed(const std::string& input);
    /**
     * Read every COORDINATION action of a PLUMED input file (a plumed.dat): the CoordinationForces that
     * PlumedTranslator::fromPlumedFile() reads, each named by its action's label. The forces of other classes that
     * the translator reads (COORDINATIONNUMBER, CONTACTMAP, ...) are listed in skipped after the actions it does not
     * read: read them with PlumedTranslator::fromPlumedFile() (Python: openmmcoordination.fromPlumedFile()). In
     * Python it returns a PlumedInput named tuple.
     *
     * @param pathOrText   the path of a PLUMED input file, or its text (any text with a line break is read as text)
     * @param skipped      set to the actions that were not read as a CoordinationForce ("label: NAME"): those the
     *                     translator does not read in the order of the file, then those of other classes' forces
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
    std::string toPlumed(const std::string& label = "c") const override;
    /**
     * Get the number of collective variables: one, the coordination number s.
     *
     * @return 1
     */
    int getNumCollectiveVariables() const override { return 1; }
    /**
     * Get the name of a collective variable.
     *
     * @param index   0 (another index throws an OpenMMException)
     * @return "s"
     */
    std::string getCollectiveVariableName(int index) const override;
    /**
     * Get the coordination number s at the context's current positions, computed by the context's platform (on a
     * GPU, one number is downloaded): getCollectiveVariableValues()'s one value. For a force added to a
     * CustomCVForce as a collective variable (app.Metadynamics does so), pass the Context of the CustomCVForce's
     * System: s is computed in the CustomCVForce's inner context.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @return s (unitless)
     */
    double getCoordination(OpenMM::Context& context) const;
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
     * The class's name in messages.
     *
     * @return "CoordinationForce"
     */
    std::string getForceClassName() const override { return "CoordinationForce"; }

protected:
    /**
     * Create the ForceImpl (called by OpenMM when a Context is created).
     *
     * @return a new CoordinationForceImpl
     */
    OpenMM::ForceImpl* createImpl() const override;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONFORCE_H_*/
