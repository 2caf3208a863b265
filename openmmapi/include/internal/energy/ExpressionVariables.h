#ifndef OPENMM_COORDINATION_EXPRESSIONVARIABLES_H_
#define OPENMM_COORDINATION_EXPRESSIONVARIABLES_H_

#include "lepton/ExpressionTreeNode.h"
#include "lepton/Operation.h"
#include <set>
#include <string>

namespace CoordinationPlugin {

/**
 * The variables a parsed Lepton expression uses (for the checks of the energy expression and of a Custom
 * switching function). Lepton's CompiledExpression, which can list them, is not used: its class layout
 * depends on whether the OpenMM library was built with Lepton's JIT (the PyPI wheel's is), and its JIT
 * headers are not shipped.
 */
inline void collectVariables(const Lepton::ExpressionTreeNode& node, std::set<std::string>& variables) {
    if (node.getOperation().getId() == Lepton::Operation::VARIABLE)
        variables.insert(node.getOperation().getName());
    for (const Lepton::ExpressionTreeNode& child : node.getChildren())
        collectVariables(child, variables);
}

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_EXPRESSIONVARIABLES_H_*/
