#ifndef OPENMM_COORDINATION_EXPRESSIONCONSTANTS_H_
#define OPENMM_COORDINATION_EXPRESSIONCONSTANTS_H_

#include "lepton/ExpressionTreeNode.h"
#include "lepton/Operation.h"
#include "lepton/ParsedExpression.h"
#include "internal/windowsExportCoordination.h"
#include <map>
#include <string>

namespace CoordinationPlugin {

/**
 * Calls visit(value) for every constant of a Lepton expression tree, also those that Lepton's optimize() folds into
 * an operation (AddConstant, MultiplyConstant, PowerConstant): the numbers a platform prints into a kernel or
 * evaluates, which the callers check against what a double (or a float) holds.
 */
template <class Visit>
void forEachConstant(const Lepton::ExpressionTreeNode& node, const Visit& visit) {
    const Lepton::Operation& operation = node.getOperation();
    switch (operation.getId()) {
    case Lepton::Operation::CONSTANT:
        visit(dynamic_cast<const Lepton::Operation::Constant&>(operation).getValue());
        break;
    case Lepton::Operation::ADD_CONSTANT:
        visit(dynamic_cast<const Lepton::Operation::AddConstant&>(operation).getValue());
        break;
    case Lepton::Operation::MULTIPLY_CONSTANT:
        visit(dynamic_cast<const Lepton::Operation::MultiplyConstant&>(operation).getValue());
        break;
    case Lepton::Operation::POWER_CONSTANT:
        visit(dynamic_cast<const Lepton::Operation::PowerConstant&>(operation).getValue());
        break;
    default:
        break;
    }
    for (const Lepton::ExpressionTreeNode& child : node.getChildren())
        forEachConstant(child, visit);
}

/**
 * The named constants PLUMED's Lepton knows in expressions (its lepton::Constants(): e, log2e, log10e, ln2, ln10, pi,
 * pi_2, pi_4, sqrt2, sqrt1_2), for Lepton's optimize() of the expressions PLUMED input may hold (a Custom switching
 * function, a shell function).
 */
OPENMM_EXPORT_COORDINATION const std::map<std::string, double>& plumedNamedConstants();

/**
 * Lepton's optimize() of an expression (with `constants` as its named constants, optimize(constants)), where that
 * returns: Lepton folds each part without a variable into a constant and then simplifies until the tree stops
 * changing, which it never does once a constant is NaN (NaN != NaN), so an expression with a part such as 0/0 made
 * optimize() loop for ever. Such an expression throws an OpenMMException that names the part (the callers add what
 * the expression is) instead.
 */
OPENMM_EXPORT_COORDINATION Lepton::ParsedExpression optimizedExpression(
    const Lepton::ParsedExpression& expression,
    const std::map<std::string, double>& constants = std::map<std::string, double>());

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_EXPRESSIONCONSTANTS_H_*/
