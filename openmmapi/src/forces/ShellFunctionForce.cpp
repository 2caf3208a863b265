#include "ShellFunctionForce.h"
#include "PlumedTranslator.h"
#include "internal/NumberText.h"
#include "internal/forces/ShellFunctionForceImpl.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

ShellFunctionForce::ShellFunctionForce(ShellFunction function, const string& energy)
    : PerAtomForce(energy), function(function), normalizeCustom(false), alpha(3.0) {}

string ShellFunctionForce::getFunctionExpression() const {
    switch (function) {
    case SimpleCubic:
        return "(x^4+y^4+z^4)/r^4";
    case Tetrahedral:
        return "((x+y+z)/r)^3+((x-y-z)/r)^3+((-x+y-z)/r)^3+((-x-y+z)/r)^3";
    case FCCubic: {
        // PLUMED's FCCUBIC: a = 80080/(2717 + 16 alpha), b = 16 (alpha - 143)/(2717 + 16 alpha).
        const double denominator = 2717.0 + 16.0 * alpha;
        return exactNumberText(80080.0 / denominator) + "*((x^4*y^4+x^4*z^4+y^4*z^4)/r^8-" + exactNumberText(alpha) +
               "*x^4*y^4*z^4/r^12)+" + exactNumberText(16.0 * (alpha - 143.0) / denominator);
    }
    default:
        return customFunction;
    }
}

string ShellFunctionForce::toPlumed(const string& label) const {
    return PlumedTranslator::toPlumed(*this, label);
}

void ShellFunctionForce::getShellValues(Context& context, vector<double>& values) const {
    perAtomValues(context, "getShellValues", values);
}

ForceImpl* ShellFunctionForce::createImpl() const {
    return new ShellFunctionForceImpl(*this);
}
