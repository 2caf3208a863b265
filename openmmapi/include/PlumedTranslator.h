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
 * COORDINATIONNUMBER, COORDINATION_MOMENTS
 *                CoordinationNumberForce with the energy "0": SPECIES (Self mode) or SPECIESA and
 *                SPECIESB (Dual); the switching function as for COORDINATION; NOPBC; R_POWER (required
 *                in COORDINATION_MOMENTS; with UNITS LENGTH other than nm it is refused, as the c_i of
 *                the force are in nm^k); LOWMEM accepted and ignored; MASK refused. The reduction keywords
 *                become reductions in the order of the line, named as PLUMED names the components
 *                ("-" written "_"): SUM, MEAN, HIGHEST, LOWEST (flags), MORE_THAN={switch},
 *                LESS_THAN={switch}, BETWEEN={GAUSSIAN LOWER= UPPER= SMEAR=}, their numbered forms
 *                MORE_THAN1=, LESS_THAN2=, BETWEEN1= ("morethan_1", ...; numbered from 1 without gaps),
 *                MIN={BETA=b}, MAX={BETA=b}, ALT_MIN={BETA=b}, MOMENTS=2-3 (a list or range: one Moment
 *                reduction per power, "moment_2", ...) and HISTOGRAM={GAUSSIAN NBINS=n LOWER= UPPER=
 *                SMEAR=} (n Between reductions "between_1" ... "between_n"). The text inside the braces is
 *                the parameters of the reduction, unchanged: a switching function of a number, which UNITS
 *                does not scale.
 * Q1, Q3, Q4, Q6 SteinhardtForce of degree 1, 3, 4 or 6 with the energy "0": the keywords of
 *                COORDINATIONNUMBER (without R_POWER), the same reductions, and the flags VMEAN and VSUM
 *                (VectorMean "vmean", VectorSum "vsum": the components q6_vmean and q6_vsum of PLUMED).
 * SIMPLECUBIC, TETRAHEDRAL, FCCUBIC, COORDINATION_SHELL_FUNCTION
 *                ShellFunctionForce (SimpleCubic, Tetrahedral, FCCubic with ALPHA, Custom with FUNCTION)
 *                with the energy "0": the keywords and reductions of COORDINATIONNUMBER; PHI, THETA and
 *                PSI are accepted and ignored (they change nothing in PLUMED).
 * LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6, LOCAL_AVERAGE
 *                a force of the class of the action SPECIES=label names (LOCAL_Q_l: a Q_l action of that
 *                degree; LOCAL_AVERAGE: any action above), with its groups, switching function, centres
 *                and periodicity, the local step (LocalDotProduct, LocalAverage) with the switching
 *                function of this line (SWITCH={...} or the keyword form), and its reductions; energy
 *                "0". NOPBC only where the SPECIES action has it. SPECIESA=a SPECIESB=b: the force of
 *                a with the central atoms of b as its local neighbours (setLocalNeighbors), where b differs
 *                from a only in its central atoms (otherwise refused, saying so); refused for LOCAL_AVERAGE
 *                of two different Q_l actions (in PLUMED the own term of atom i is then the i-th SPECIESB
 *                vector; the same action twice is the SPECIES form). One label each (a list of actions is
 *                refused).
 * CONTACTMAP     ContactMapForce with the energy "s" (SUM: Sum; CMDIST: Distance) or "0" (neither: Components,
 *                one variable contact_n per contact, the components contact-n of PLUMED). ATOMS1=a,b, ATOMS2=...
 *                (numbered from 1; PLUMED stops at the first missing number, so a later one is refused), each
 *                two atoms or centres; SWITCH={...} for every contact or SWITCH1={...}, SWITCH2=... for each
 *                (one per contact; any type, read as the SWITCH of COORDINATION, UNITS scaling its lengths; the
 *                CUSTOM contacts must share one FUNC, the one expression of the force); REFERENCE1=, REFERENCE2=
 *                (up to the first missing number, the others 0) or REFERENCE= for all (default 0); WEIGHT1=,
 *                ... or WEIGHT= likewise (default 1); NOPBC; SERIAL and NUMERICAL_DERIVATIVES accepted and
 *                ignored. Refused as PLUMED refuses them: SUM with CMDIST, an ATOMSn that is not two atoms, no
 *                switching function, a missing SWITCHn, SWITCH with SWITCH1 (REFERENCE with REFERENCE1,
 *                WEIGHT with WEIGHT1), CMDIST of one contact without REFERENCE1 (the check of PLUMED counts the
 *                numbered references); also a map without contacts. CONTACTMAP has no R_0/NN/MM keyword
 *                form: R_0= is refused with the SWITCH spelling.
 * GROUP          no force: its atoms (ATOMS, less REMOVE, then SORT or UNIQUE) for every later atom
 *                list that names its label (GROUPA, GROUPB, SPECIES, SPECIESA, SPECIESB, ATOMSn, the ATOMS and
 *                REMOVE of GROUP), alone or in a list ("g1,20-25"); it may hold centres (SORT puts them after
 *                the atoms, in the order of their definitions, as PLUMED numbers its virtual atoms). NDX_FILE
 *                is refused.
 * COM, CENTER    no force: a centre (a virtual atom) for every later atom list that names its label (GROUPA,
 *                GROUPB, SPECIES, SPECIESA, SPECIESB, ATOMSn of CONTACTMAP, the ATOMS of GROUP), alone or in a list
 *                ("GROUPA=c1,5-7"). "c1: COM ATOMS=..." is CoordinationForce::CenterOfMass; "CENTER ATOMS=..."
 *                GeometricCenter, with MASS (or WEIGHTS naming the masses) CenterOfMass, with WEIGHTS=w1,w2,... (one per
 *                atom, sum not 0) WeightedCenter; NOPBC is makeWhole false (PLUMED makes the group whole
 *                otherwise). ATOMS may name GROUPs but not other centres. SET_MASS and SET_CHARGE are accepted
 *                and ignored. Refused: PHASES, SAFE_PHASES, WEIGHTS naming the charges or an action, MASS with
 *                WEIGHTS, a weight count other than the atom count.
 * @endcode
 *
 * A force gets its own centre (addCenter()) for each COM or CENTER label its atom lists name, through a GROUP or
 * directly; a label named twice is one centre. fromPlumedFile() gives each force the centres it names, in the
 * order of their actions; a COM or CENTER action that no force names is listed as skipped (it may be meant
 * for an action the translator does not read, such as DISTANCE), and what would be refused in it is refused only
 * where a force (or a GROUP) names it. fromPlumed() reads one force and its centres: the force gets every centre
 * of the input, named or not, in the input's order (so that toPlumed()'s text reads back to the same ids).
 *
 * PLUMED 2.10's functions of a vector written as actions of their own fold into the CoordinationNumberForce
 * of a labelled COORDINATIONNUMBER (or COORDINATION_MOMENTS) action c, each as a reduction named by its
 * action's label ('-' and '.' written '_'): "s: SUM ARG=mt" of "mt: MORE_THAN ARG=c SWITCH={...}" (or
 * MORE_THAN's keyword form R_0, NN, MM, D_0, written as the RATIONAL switch with PLUMED's cutoff D_MAX
 * where it is 1e-5, stretched), of "lt: LESS_THAN ARG=c ..." and of "bt: BETWEEN ARG=c SWITCH={GAUSSIAN
 * ...}" (or LOWER, UPPER, SMEAR) are MoreThan, LessThan and Between reductions named "s"; "m: MEAN ARG=c",
 * "s2: SUM ARG=c", "h: HIGHEST ARG=c" and "l: LOWEST ARG=c" are Mean, Sum, Highest and Lowest reductions;
 * "mo: MOMENTS ARG=c POWERS=2,3" gives Moment reductions "mo_moment_2" and "mo_moment_3". PERIODIC=NO is
 * accepted. An unlabelled function, one of several arguments or of another action's value is not folded.
 *
 * GROUP actions, the centres a force uses and the folded functions are read, and not listed as skipped; a
 * per-atom MORE_THAN, LESS_THAN or BETWEEN of a vector that no SUM folds is listed as skipped.
 *
 * Anything the translator does not understand in an action it reads (an unknown keyword, \@mdatoms, a
 * label that names no earlier GROUP, COM or CENTER, a malformed number) throws an OpenMMException that names it and the
 * action. Biases and other actions (RESTRAINT, METAD, DISTANCE, PRINT, ...) are not read: fromPlumedFile()
 * lists them, and a bias is written as the force's energy expression.
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
     * before it, GROUP actions, the COM and CENTER actions of its centres and the functions folded into the
     * force), on one line or in PLUMED's multi-line form: what toPlumed() writes. The force is named by the
     * action's label if it has one; it gets every centre of the input, in order.
     *
     * @param input   the action's text
     * @return a new force; the caller owns it
     */
    static OpenMM::Force* fromPlumed(const std::string& input);
    /**
     * A force's settings as PLUMED input, which fromPlumed() reads back to the same settings (the energy
     * expression and global parameters are not part of it): one line, preceded by a COM or CENTER line per
     * centre (COM for CenterOfMass, CENTER otherwise, NOPBC where it is not made whole), labelled
     * "<label>_c1", "<label>_c2", ... and named so in the atom lists. What PLUMED cannot express, or a Context
     * would refuse, throws an OpenMMException: a WeightedCenter of one particle (PLUMED reads a one-entry
     * WEIGHTS as an action's label: make it a GeometricCenter, the same point), a contact map without contacts.
     *
     * @param force   a force of a class the translator reads (a CoordinationForce; a CoordinationNumberForce:
     *                a COORDINATIONNUMBER line, COORDINATION_MOMENTS with an R power, its reductions as
     *                keywords; the Moment reductions as one MOMENTS list where the first is; a reduction whose
     *                name is not PLUMED's component name, "sum" or "lessthan_1" say, throws an
     *                OpenMMException; a SteinhardtForce: a Q1, Q3, Q4 or Q6 line as for a
     *                CoordinationNumberForce (another degree throws an OpenMMException); a force with a local
     *                step: its per-atom action labelled "<label>_species" without reductions, then the LOCAL_Q_l
     *                or LOCAL_AVERAGE line of that SPECIES with the reductions (fromPlumed() reads the two lines
     *                back as one force); with local neighbours, also their action "<label>_neighbors" (the same
     *                settings, the neighbours as SPECIESA) and SPECIESA=, SPECIESB= on the local line (LocalAverage
     *                of a SteinhardtForce with local neighbours throws: PLUMED's own term differs); a
     *                ContactMapForce: CONTACTMAP in PLUMED's multi-line form, one line per contact, one SWITCH where every contact has the same switching function, REFERENCEn
     *                and WEIGHTn for every contact where one differs from the default (REFERENCEn always
     *                with CMDIST), an automatic cutoff written as its value (D_MAX), Cubic's unused r0 not
     *                written)
     * @param label   the action's label (default "c")
     * @return the text, e.g. "c: COORDINATION GROUPA=1-10 R_0=0.3 NN=6 MM=12", after the centres' lines (each
     *         ending in a line break); a contact map's text ends in a line break
     */
    static std::string toPlumed(const OpenMM::Force& force, const std::string& label = "c");
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_PLUMEDTRANSLATOR_H_*/
