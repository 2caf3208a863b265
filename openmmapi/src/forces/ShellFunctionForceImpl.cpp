#include "internal/forces/ShellFunctionForceImpl.h"
#include "internal/NumberText.h"
#include "internal/energy/ExpressionConstants.h"
#include "internal/energy/ExpressionVariables.h"
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <set>

using namespace CoordinationPlugin;
using namespace OpenMM;
using Lepton::ExpressionTreeNode;
using Lepton::Operation;
using Lepton::ParsedExpression;
using std::string;

namespace {

const char* const ClassName = "ShellFunctionForce: ";

/** The tree of f(-x, -y, -z, r): every x, y and z negated. */
ExpressionTreeNode reflected(const ExpressionTreeNode& node) {
    const Operation& operation = node.getOperation();
    if (operation.getId() == Operation::VARIABLE) {
        const string& name = operation.getName();
        if (name == "x" || name == "y" || name == "z")
            return ExpressionTreeNode(new Operation::Negate(), node);
        return node;
    }
    std::vector<ExpressionTreeNode> children;
    for (const ExpressionTreeNode& child : node.getChildren())
        children.push_back(reflected(child));
    return ExpressionTreeNode(operation.clone(), children);
}

/** A part of value g with its parity, differentiated. */
ResolvedPerAtom::ShellPart part(const ParsedExpression& g, int parity, const string& expression) {
    ResolvedPerAtom::ShellPart result;
    try {
        result.value = optimizedExpression(g);
    } catch (const std::exception& error) {
        throw OpenMMException(string(ClassName) + "the function \"" + expression + "\": " + error.what());
    }
    result.parity = parity;
    ParsedExpression* derivatives[] = {&result.dx, &result.dy, &result.dz, &result.dr};
    for (int k = 0; k < 4; k++) {
        const char* variable = ResolvedPerAtom::shellVariables()[k];
        try {
            *derivatives[k] = optimizedExpression(result.value.differentiate(variable));
        } catch (const std::exception& error) {
            throw OpenMMException(string(ClassName) + "the function \"" + expression +
                                  "\" cannot be differentiated with respect to " + variable + ": " + error.what());
        }
    }
    return result;
}

} // namespace

ResolvedPerAtom ShellFunctionForceImpl::composition(const ShellFunctionForce& force) {
    const ShellFunctionForce::ShellFunction function = force.getShellFunction();
    int parity; // 0: not known
    switch (function) {
    case ShellFunctionForce::SimpleCubic:
    case ShellFunctionForce::FCCubic:
        parity = 1;
        break;
    case ShellFunctionForce::Tetrahedral:
        parity = -1;
        break;
    case ShellFunctionForce::Custom:
        parity = 0;
        break;
    default:
        throw OpenMMException(string(ClassName) + "the function must be SimpleCubic, Tetrahedral, FCCubic or Custom, "
                              "got " + std::to_string((int) function));
    }
    if (function == ShellFunctionForce::FCCubic) {
        const double alpha = force.getAlpha(), denominator = 2717.0 + 16.0 * alpha;
        if (!std::isfinite(alpha) || denominator == 0.0 || !std::isfinite(80080.0 / denominator) ||
            !std::isfinite(16.0 * (alpha - 143.0) / denominator))
            throw OpenMMException(string(ClassName) + "FCCubic's alpha must be a finite number with 2717 + 16 alpha "
                                  "!= 0 (alpha != -169.8125; PLUMED's ALPHA, default 3), got " + numberText(alpha));
    }
    const string expression = force.getFunctionExpression();
    if (function == ShellFunctionForce::Custom && expression.empty())
        throw OpenMMException(string(ClassName) + "the function is Custom but has no expression; set it with "
                              "setCustomFunction(), e.g. \"(x^4+y^4+z^4)/r^4\" (a function of x, y, z and r)");
    ParsedExpression f;
    try {
        f = optimizedExpression(Lepton::Parser::parse(expression), plumedNamedConstants());
    } catch (const std::exception& error) {
        throw OpenMMException(string(ClassName) + "the function \"" + expression + "\" cannot be parsed: " +
                              error.what());
    }
    std::set<string> variables;
    collectVariables(f.getRootNode(), variables);
    for (const string& variable : variables)
        if (variable != "x" && variable != "y" && variable != "z" && variable != "r")
            throw OpenMMException(string(ClassName) + "the function \"" + expression + "\" uses \"" + variable +
                                  "\"; it may use only the bond vector's components x, y, z and its length r (nm), "
                                  "as PLUMED's COORDINATION_SHELL_FUNCTION");
    ResolvedPerAtom perAtom;
    perAtom.pairTerm = ResolvedPerAtom::PairTerm::ShellFunction;
    perAtom.shellNormalised = (function != ShellFunctionForce::Custom || force.getNormalizeCustomFunction());
    if (parity == 0 && force.getMode() == PairSwitchingForce::Self) {
        // The neighbour's term is the entry's at -d: split f into its even and odd parts, whose terms there are the
        // entry's times 1 and -1.
        const ExpressionTreeNode mirror = reflected(f.getRootNode());
        const ExpressionTreeNode sum(new Operation::Add(), f.getRootNode(), mirror);
        const ExpressionTreeNode difference(new Operation::Subtract(), f.getRootNode(), mirror);
        perAtom.shellParts.push_back(
            part(ParsedExpression(ExpressionTreeNode(new Operation::MultiplyConstant(0.5), sum)), 1, expression));
        perAtom.shellParts.push_back(
            part(ParsedExpression(ExpressionTreeNode(new Operation::MultiplyConstant(0.5), difference)), -1, expression));
    }
    else
        perAtom.shellParts.push_back(part(f, parity == 0 ? 1 : parity, expression));
    perAtom.numComponents = (perAtom.shellNormalised ? 1 : 0) + (int) perAtom.shellParts.size();
    perAtom.atomStep = (perAtom.shellNormalised ? ResolvedPerAtom::AtomStep::SumOverWeight : ResolvedPerAtom::AtomStep::Sum);
    return perAtom;
}
