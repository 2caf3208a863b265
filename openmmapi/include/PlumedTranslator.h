#ifndef OPENMM_COORDINATION_PLUMEDTRANSLATOR_H_
#define OPENMM_COORDINATION_PLUMEDTRANSLATOR_H_

#include "internal/windowsExportCoordination.h"
#include "openmm/Force.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * Reads PLUMED input into forces and writes forces back as PLUMED input.
 *
 * PLUMED's file rules: '#' starts a comment; an action whose first line ends with "..." goes on to a line
 * "..." (or "... NAME", NAME the action's name or label); ENDPLUMED ends the input; a UNITS action
 * (LENGTH=nm, A, um, Bohr or a number of nm) before the other actions converts their lengths, which are
 * nm otherwise (PLUMED's default). Atoms are PLUMED's 1-based serial numbers (lists "1,5,9", ranges
 * "a-b" and "a-b:stride"); they become 0-based particle indices. An action's label ("c:" or LABEL=c)
 * becomes its force's name (Force::getName()); an unlabelled action is named "@N" as PLUMED names it, N
 * counting every action from 0.
 *
 * The actions read, and the force each becomes:
 *
 * @code
 * COORDINATION   CoordinationForce with the energy "s": GROUPA (Self mode), GROUPB (Dual), PAIR (Pair);
 *                the keyword form R_0, D_0, NN, MM (the automatic dmax of PLUMED, stretched) or
 *                SWITCH={TYPE ...} of any type (RATIONAL R_0 D_0 NN MM, EXP, GAUSSIAN, SMAP A B,
 *                CUBIC D_0 D_MAX, TANH, COSINUS, Q BETA LAMBDA REF, CUSTOM FUNC=... or MATHEVAL, each
 *                with R_0 (not CUBIC), D_0, D_MAX and NOSTRETCH; no cutoff without D_MAX); periodic
 *                boundary conditions unless NOPBC. NLIST, NL_CUTOFF, NL_STRIDE, SERIAL and
 *                NUMERICAL_DERIVATIVES are accepted and ignored (the neighbour list is automatic,
 *                derivatives are analytic).
 * @endcode
 *
 * Anything the translator does not understand in an action it reads (an unknown keyword, \@mdatoms, a
 * group label, a malformed number) throws an OpenMMException that names it and the action. Biases and
 * other actions (RESTRAINT, METAD, DISTANCE, PRINT, ...) are not read: fromPlumedFile() lists them, and a
 * bias is written as the force's energy expression.
 */
class OPENMM_EXPORT_COORDINATION PlumedTranslator {
public:
    /**
     * Read every action of PLUMED input that becomes a force (see the class comment), in the order of the
     * input; the other actions are listed in skipped.
     *
     * @param pathOrText   the path of a PLUMED input file (a plumed.dat), or its text (any text with a line
     *                     break is read as text)
     * @param skipped      set to the actions that were not read, in order, as "label: NAME" (or "NAME")
     * @return the new forces, each named by its action's label; the caller owns them
     */
    static std::vector<OpenMM::Force*> fromPlumedFile(const std::string& pathOrText, std::vector<std::string>& skipped);
    /**
     * Read PLUMED input holding exactly one action that becomes a force (and optionally a UNITS action
     * before it), on one line or in PLUMED's multi-line form. The force is named by the action's label if
     * it has one.
     *
     * @param input   the action's text
     * @return a new force; the caller owns it
     */
    static OpenMM::Force* fromPlumed(const std::string& input);
    /**
     * A force's settings as one line of PLUMED input, which fromPlumed() reads back to the same settings
     * (the energy expression and global parameters are not part of it).
     *
     * @param force   a force of a class the translator reads (a CoordinationForce)
     * @param label   the action's label (default "c")
     * @return the line, e.g. "c: COORDINATION GROUPA=1-10 R_0=0.3 NN=6 MM=12"
     */
    static std::string toPlumed(const OpenMM::Force& force, const std::string& label = "c");
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDTRANSLATOR_H_*/
