#ifndef OPENMM_COORDINATION_RESOLVEDENERGY_H_
#define OPENMM_COORDINATION_RESOLVEDENERGY_H_

#include "CoordinationBiasForce.h"
#include "internal/windowsExportCoordination.h"
#include "lepton/ParsedExpression.h"
#include <functional>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The energy of a force of this plugin, resolved once: E as a Lepton expression of the force's collective
 * variables and global parameters, its derivative by each variable (the chain rule's first link on every platform)
 * and by each requested global parameter. The one place where an energy expression is parsed and checked, and the
 * global parameters with it, for every force class; the host evaluates it with EnergyEvaluator, the GPU platforms
 * generate code from it (platforms/common: CommonEnergyCode).
 */
struct OPENMM_EXPORT_COORDINATION ResolvedEnergy {
    /** How the messages of resolve() speak of a force's variables. */
    struct Words {
        /** The variables, after "which is neither ": "s", "a reduction's name", "a variable of this map (s)". */
        std::string variables;
        /** What to do about a variable that is neither (given its name): "add it with addGlobalParameter()". */
        std::function<std::string(const std::string& variable)> unknownVariableHint;
        /** Words whose hint is the same for every unknown variable. */
        Words(const std::string& variables, const std::string& hint)
            : variables(variables), unknownVariableHint([hint](const std::string&) { return hint; }) {}
        /** Words whose hint depends on the unknown variable. */
        Words(const std::string& variables, const std::function<std::string(const std::string&)>& hint)
            : variables(variables), unknownVariableHint(hint) {}
    };
    std::string expression;                                     ///< the user's text
    std::vector<std::string> variableNames;                     ///< the force's collective variables, in order
    std::vector<std::string> globalParameterNames;              ///< in the force's order
    Lepton::ParsedExpression energy;                            ///< E, optimized
    std::vector<Lepton::ParsedExpression> variableDerivatives;  ///< dE/dv per variable (0 where E does not use v)
    std::vector<std::string> parameterDerivativeNames;          ///< the requested ones, in the force's order
    std::vector<Lepton::ParsedExpression> parameterDerivatives; ///< dE/dlambda, in that order
    /**
     * Check and resolve force's energy and global parameters (the variables are the force's
     * getCollectiveVariableName()s). An OpenMMException, starting with the force's class name, names what is wrong
     * and how to fix it: an empty, repeated or variable's name of a global parameter, an expression that does not
     * parse, a variable that is neither the force's nor a global parameter (words), a derivative requested for
     * something that is not a global parameter, or twice.
     */
    static ResolvedEnergy resolve(const CoordinationBiasForce& force, const Words& words);
    /**
     * Throw an OpenMMException, starting with className, if what updateParametersInContext() cannot change differs
     * between two resolutions (a GPU kernel compiles the energy): the expression, the global parameters, the
     * requested derivatives, or the variables (variablesChange then says which: "cannot add, remove or rename
     * reductions (the energy's variables)").
     */
    static void checkUpdatable(const ResolvedEnergy& before, const ResolvedEnergy& after, const std::string& className,
                               const std::string& variablesChange);
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_RESOLVEDENERGY_H_*/
