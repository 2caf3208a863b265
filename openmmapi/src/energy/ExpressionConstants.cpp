#include "internal/energy/ExpressionConstants.h"
#include "openmm/OpenMMException.h"
#include <cmath>
#include <sstream>

using std::map;
using std::string;
using Lepton::ExpressionTreeNode;
using Lepton::ParsedExpression;

namespace {

/** Whether the tree holds a variable other than the named constants. */
bool hasVariable(const ExpressionTreeNode& node, const map<string, double>& constants) {
    if (node.getOperation().getId() == Lepton::Operation::VARIABLE && constants.count(node.getOperation().getName()) == 0)
        return true;
    for (const ExpressionTreeNode& child : node.getChildren())
        if (hasVariable(child, constants))
            return true;
    return false;
}

/** The first largest part without a variable whose value is NaN (what Lepton folds into a NaN constant), or null. */
const ExpressionTreeNode* notANumberPart(const ExpressionTreeNode& node, const map<string, double>& constants) {
    if (!hasVariable(node, constants)) {
        double value = 0.0;
        try {
            value = ParsedExpression(node).evaluate(constants);
        } catch (const std::exception&) {
            return nullptr; // Lepton's own error, where it evaluates it
        }
        return std::isnan(value) ? &node : nullptr;
    }
    for (const ExpressionTreeNode& child : node.getChildren())
        if (const ExpressionTreeNode* part = notANumberPart(child, constants))
            return part;
    return nullptr;
}

} // namespace

ParsedExpression CoordinationPlugin::optimizedExpression(const ParsedExpression& expression,
                                                         const map<string, double>& constants) {
    if (const ExpressionTreeNode* part = notANumberPart(expression.getRootNode(), constants)) {
        std::stringstream text;
        text << ParsedExpression(*part);
        throw OpenMM::OpenMMException("its part " + text.str() + " is not a number (as 0/0, inf - inf or sqrt(-1) " +
                                      "are): write the expression without it");
    }
    return constants.empty() ? expression.optimize() : expression.optimize(constants);
}

const std::map<string, double>& CoordinationPlugin::plumedNamedConstants() {
    const double pi = 3.14159265358979323846;
    static const std::map<string, double> constants = {
        {"e", std::exp(1.0)}, {"log2e", 1.0 / std::log(2.0)}, {"log10e", 1.0 / std::log(10.0)},
        {"ln2", std::log(2.0)}, {"ln10", std::log(10.0)}, {"pi", pi}, {"pi_2", 0.5 * pi}, {"pi_4", 0.25 * pi},
        {"sqrt2", std::sqrt(2.0)}, {"sqrt1_2", std::sqrt(0.5)}};
    return constants;
}
