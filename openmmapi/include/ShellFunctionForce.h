#ifndef OPENMM_COORDINATION_SHELLFUNCTIONFORCE_H_
#define OPENMM_COORDINATION_SHELLFUNCTIONFORCE_H_

#include "PerAtomForce.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Context.h"
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * A bias on functions of the coordination shell of single atoms: PLUMED's SIMPLECUBIC, TETRAHEDRAL, FCCUBIC and
 * COORDINATION_SHELL_FUNCTION with their reductions (SUM, MEAN, MORE_THAN, LESS_THAN, BETWEEN, MIN, MAX, ALT_MIN,
 * HIGHEST, LOWEST, MOMENTS: PerAtomForce's, which also holds the modes, centres and the rules every per-atom force
 * follows). Each entry i of group A has
 * @code
 * s_i = sum over j of sigma(r_ij) f(x, y, z, r) / sum over j of sigma(r_ij)   (SimpleCubic, Tetrahedral, FCCubic)
 * s_i = sum over j of sigma(r_ij) f(x, y, z, r)                              (Custom: COORDINATION_SHELL_FUNCTION)
 * @endcode
 *
 * over the entries j of group B (group A in Self mode), j != i, with (x, y, z) the bond vector r_ij from i to j (the
 * minimum image, nm), r its length and sigma the force's switching function (the setters of PairSwitchingForce). The
 * functions are PLUMED's:
 * @code
 * SimpleCubic   f = (x^4 + y^4 + z^4) / r^4
 * Tetrahedral   f = ((x+y+z)/r)^3 + ((x-y-z)/r)^3 + ((-x+y-z)/r)^3 + ((-x-y+z)/r)^3   (odd: i -> j matters)
 * FCCubic       f = a [(x^4 y^4 + x^4 z^4 + y^4 z^4)/r^8 - alpha x^4 y^4 z^4/r^12] + b,
 *               a = 80080/(2717 + 16 alpha), b = 16 (alpha - 143)/(2717 + 16 alpha)   (alpha: setAlpha(), default 3)
 * Custom        f = any Lepton expression of x, y, z and r (setCustomFunction())
 * @endcode
 *
 * A normalised s_i of an atom with no neighbour (every sigma(r_ij) below DBL_EPSILON) is 0, with no force, as in
 * PLUMED. PLUMED's PHI, THETA and PSI (a rotation of the axes) change nothing in PLUMED; this force has no such
 * setting. s_i is the q_i of the reductions; the force on atom k is -sum_i dE/ds_i ds_i/dx_k.
 * getCollectiveVariableValues() reports the reductions and getShellValues() (or getPerAtomValues()) the s_i.
 */
class OPENMM_EXPORT_COORDINATION ShellFunctionForce : public PerAtomForce {
public:
    /** The function f of the bond vector. */
    enum ShellFunction {
        /** PLUMED's SIMPLECUBIC (normalised). */
        SimpleCubic = 0,
        /** PLUMED's TETRAHEDRAL (normalised). */
        Tetrahedral = 1,
        /** PLUMED's FCCUBIC (normalised; its ALPHA is setAlpha()). */
        FCCubic = 2,
        /** Any Lepton expression of x, y, z and r (setCustomFunction()): PLUMED's COORDINATION_SHELL_FUNCTION. */
        Custom = 3
    };
    /**
     * Create a ShellFunctionForce: Self mode, no reductions, the default switching function.
     *
     * @param function   the function f (default SimpleCubic)
     * @param energy   the energy: a Lepton expression of the reductions' names and of global parameters
     *                 (kJ/mol). Default "0".
     */
    explicit ShellFunctionForce(ShellFunction function = SimpleCubic, const std::string& energy = "0");
    /**
     * Get the function f.
     *
     * @return SimpleCubic, Tetrahedral, FCCubic or Custom
     */
    ShellFunction getShellFunction() const { return function; }
    /**
     * Set the function f (checked when a Context is created).
     *
     * @param function   SimpleCubic, Tetrahedral, FCCubic or Custom (then setCustomFunction() gives its expression)
     */
    void setShellFunction(ShellFunction function) { this->function = function; }
    /**
     * Get the expression of the Custom function.
     *
     * @return the expression; "" if none was set
     */
    const std::string& getCustomFunction() const { return customFunction; }
    /**
     * Set the expression of the Custom function and make the function Custom: a Lepton expression of the bond
     * vector's components x, y, z and its length r (nm), for example "(x^4+y^4+z^4)/r^4"; PLUMED's named constants
     * (pi, e, ...) may appear. It must be finite and differentiable where pairs count.
     *
     * @param expression   f(x, y, z, r) (unitless, or in units of its own: s_i carries them)
     */
    void setCustomFunction(const std::string& expression) {
        customFunction = expression;
        function = Custom;
    }
    /**
     * Get whether the Custom function's s_i is divided by sum_j sigma(r_ij).
     *
     * @return false (PLUMED's COORDINATION_SHELL_FUNCTION) unless set
     */
    bool getNormalizeCustomFunction() const { return normalizeCustom; }
    /**
     * Set whether the Custom function's s_i is divided by sum_j sigma(r_ij), as SimpleCubic, Tetrahedral and FCCubic
     * always are (0 for an atom without neighbours). PLUMED has no action for a normalised Custom function: toPlumed()
     * refuses it.
     *
     * @param normalize   true to divide; false (default) for PLUMED's COORDINATION_SHELL_FUNCTION
     */
    void setNormalizeCustomFunction(bool normalize) { normalizeCustom = normalize; }
    /**
     * Get FCCubic's alpha.
     *
     * @return alpha; default 3 (PLUMED's ALPHA)
     */
    double getAlpha() const { return alpha; }
    /**
     * Set FCCubic's alpha (PLUMED's ALPHA; the other functions ignore it). Checked when a Context is created.
     *
     * @param alpha   a finite number with 2717 + 16 alpha != 0
     */
    void setAlpha(double alpha) { this->alpha = alpha; }
    /**
     * The function f of the force's settings as the Lepton expression every platform evaluates (SimpleCubic,
     * Tetrahedral, FCCubic with its a and b written out, or the Custom expression).
     *
     * @return f(x, y, z, r)
     */
    std::string getFunctionExpression() const;
    /**
     * Get the s_i at the context's current positions (getPerAtomValues()), computed by the context's platform: one
     * per entry of group A, in its order. For a force inside a CustomCVForce, pass the Context of the CustomCVForce's
     * System.
     *
     * @param context   a Context whose System contains this force, or a CustomCVForce that holds it
     * @param values    the s_i
     */
    void getShellValues(OpenMM::Context& context, std::vector<double>& values) const;
    /**
     * This force's settings as one line of PLUMED input (PlumedTranslator::toPlumed()): a SIMPLECUBIC, TETRAHEDRAL,
     * FCCUBIC or COORDINATION_SHELL_FUNCTION action with its reductions as PLUMED's keywords (a normalised Custom
     * function has no PLUMED action: an OpenMMException).
     *
     * @param label    the action's label (default "s")
     * @return the line
     */
    std::string toPlumed(const std::string& label = "s") const override;
    /**
     * The class's name in messages.
     *
     * @return "ShellFunctionForce"
     */
    std::string getForceClassName() const override { return "ShellFunctionForce"; }

protected:
    /**
     * Create the ForceImpl (called by OpenMM when a Context is created).
     *
     * @return a new ShellFunctionForceImpl
     */
    OpenMM::ForceImpl* createImpl() const override;

private:
    ShellFunction function;
    std::string customFunction;
    bool normalizeCustom;
    double alpha;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_SHELLFUNCTIONFORCE_H_*/
