#include "internal/peratom/ReductionResolution.h"
#include "internal/switching/SwitchingExpression.h"
#include "internal/switching/SwitchingFunctionConstants.h"
#include "internal/NumberText.h"
#include "internal/energy/ExpressionConstants.h"
#include "internal/plumed/PlumedAction.h"
#include "internal/plumed/PlumedCoordination.h"
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <set>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

bool isIdentifier(const string& name) {
    if (name.empty() || !(std::isalpha((unsigned char) name[0]) || name[0] == '_'))
        return false;
    for (char c : name)
        if (!(std::isalnum((unsigned char) c) || c == '_'))
            return false;
    return true;
}

struct ReductionText {
    string forceClass, type, parameters, name;
    OpenMMException error(const string& what) const {
        return OpenMMException(forceClass + ": reduction \"" + name + "\" (" + type +
                               (parameters.empty() ? "" : " \"" + parameters + "\"") + "): " + what);
    }
};

/** BETA=b of Min, Max and AltMin: a finite number other than 0. */
double beta(const ReductionText& text) {
    PlumedKeywords keywords(PlumedKeywords::splitWords(text.parameters, text.parameters), 0, text.parameters);
    if (!keywords.has("BETA"))
        throw text.error("needs its parameter as \"BETA=b\"");
    const double value = keywords.takeNumber("BETA", 0.0);
    keywords.rejectLeftovers(text.forceClass, "");
    if (!(value != 0.0) || !std::isfinite(value))
        throw text.error("BETA must be a finite number other than 0, got " + numberText(value));
    return value;
}

/** LESS_THAN's and MORE_THAN's switching function of v. */
string valueSwitch(const ReductionText& text, const string& v) {
    SwitchingSettings settings;
    try {
        PlumedKeywords outside(vector<string>(), 0, text.type + "={" + text.parameters + "}");
        PlumedCoordination::readSwitch("{" + text.parameters + "}", outside, settings, 1.0);
    } catch (const OpenMMException& error) {
        throw text.error(string("its switching function is not one PLUMED reads: ") + error.what());
    }
    SwitchingFunctionConstants c;
    try {
        c = SwitchingFunctionConstants::resolve(settings, "");
    } catch (const OpenMMException& error) {
        throw text.error(error.what());
    }
    return SwitchingExpression::of(c, v);
}

/** Between's histogram bead (PLUMED's HistogramBead::calculate, without a cutoff). */
string bead(const ReductionText& text, const string& v) {
    vector<string> words = PlumedKeywords::splitWords(text.parameters, text.parameters);
    if (words.empty() || (words[0] != "GAUSSIAN" && words[0] != "TRIANGULAR"))
        throw text.error("the parameters are \"GAUSSIAN LOWER=a UPPER=b SMEAR=s\" or \"TRIANGULAR LOWER=a UPPER=b SMEAR=s\"");
    PlumedKeywords keywords(words, 1, text.parameters);
    if (!keywords.has("LOWER") || !keywords.has("UPPER"))
        throw text.error("needs LOWER= and UPPER=");
    const double lower = keywords.takeNumber("LOWER", 0.0), upper = keywords.takeNumber("UPPER", 0.0);
    const double smear = keywords.takeNumber("SMEAR", 0.5);
    keywords.rejectLeftovers(text.forceClass, " in a BETWEEN bead");
    if (!(lower < upper))
        throw text.error("LOWER (" + numberText(lower) + ") must be below UPPER (" + numberText(upper) + ")");
    const double width = smear * (upper - lower);
    if (!(width > 0.0) || !std::isfinite(width))
        throw text.error("SMEAR must be > 0, got " + numberText(smear));
    // The bead divides by its width: a width whose inverse overflows has no finite slope anywhere.
    if (!std::isfinite(1.0 / (std::sqrt(2.0) * width)))
        throw text.error("its width SMEAR*(UPPER-LOWER) = " + numberText(width) + " is below " +
                         numberText(1.0 / DBL_MAX / std::sqrt(2.0)) + ", the smallest whose inverse a double holds; "
                         "give a larger SMEAR or a wider range");
    if (words[0] == "GAUSSIAN") {
        const string scale = exactNumberText(1.0 / (std::sqrt(2.0) * width));
        return "0.5*(erf((" + exactNumberText(upper) + "-" + v + ")*" + scale + ")-erf((" + exactNumberText(lower) + "-" + v + ")*" + scale + "))";
    }
    const string low = "((" + exactNumberText(lower) + "-" + v + ")/" + exactNumberText(width) + ")";
    const string high = "((" + exactNumberText(upper) + "-" + v + ")/" + exactNumberText(width) + ")";
    const string ia = "max(" + low + ",-1)", ib = "min(" + high + ",1)";
    return "select(step(-1-" + high + ")+step(" + low + "-1), 0, 0.5*(" + ib + "*(2-abs(" + ib + "))-" + ia + "*(2-abs(" +
           ia + "))))";
}

Lepton::ParsedExpression parsed(const ReductionText& text, const string& expression, const string& variable,
                                Lepton::ParsedExpression& derivative, const string& fix) {
    Lepton::ParsedExpression value;
    try {
        value = optimizedExpression(Lepton::Parser::parse(expression));
        derivative = optimizedExpression(value.differentiate(variable));
    } catch (const std::exception& error) {
        throw text.error(string("internal error: cannot parse its expression: ") + error.what());
    }
    // A tiny length makes the derivative's constants (1/length^2 and beyond) overflow: refused on every platform.
    for (const Lepton::ParsedExpression* tree : {&value, &derivative})
        forEachConstant(tree->getRootNode(), [&](double constant) {
            if (!std::isfinite(constant))
                throw text.error("its function or its derivative has a constant that overflows a double (" +
                                 numberText(constant) + "); " + fix);
        });
    return value;
}

} // namespace

vector<ResolvedReduction> ReductionResolution::resolve(const PerAtomForce& force, int numEntries) {
    static const char* const typeNames[] = {"Sum", "Mean", "MoreThan", "LessThan", "Between", "Min",
                                            "Max", "AltMin", "Highest", "Lowest", "Moment",
                                            "VectorMean", "VectorSum"};
    vector<ResolvedReduction> reductions;
    const string v = ResolvedReduction::termVariable(), S = ResolvedReduction::outerVariable();
    const string count = exactNumberText(numEntries);
    std::set<string> globals, names;
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        globals.insert(force.getGlobalParameterName(i));
    for (int index = 0; index < force.getNumReductions(); index++) {
        PerAtomForce::ReductionType type;
        ReductionText text;
        text.forceClass = force.getForceClassName();
        force.getReductionParameters(index, type, text.parameters, text.name);
        text.type = typeNames[type];
        text.name = force.getCollectiveVariableName(index);
        ResolvedReduction reduction;
        reduction.type = type;
        reduction.name = text.name;
        if (!isIdentifier(text.name))
            throw text.error("a name must be letters, digits and underscores, starting with a letter or an underscore");
        if (globals.count(text.name) > 0)
            throw text.error("its name is also a global parameter's; rename one of them");
        if (!names.insert(text.name).second)
            throw text.error("another reduction has this name; give each reduction its own name (the third argument "
                             "of addReduction)");
        const bool noParameters = (type == PerAtomForce::Sum || type == PerAtomForce::Mean ||
                                   type == PerAtomForce::Highest || type == PerAtomForce::Lowest ||
                                   type == PerAtomForce::VectorMean || type == PerAtomForce::VectorSum);
        string parameters = text.parameters;
        parameters.erase(0, parameters.find_first_not_of(" \t"));
        if (noParameters && !parameters.empty())
            throw text.error("takes no parameters; pass \"\"");
        string term = v, outer = S;
        switch (type) {
        case PerAtomForce::Sum:
            break;
        case PerAtomForce::Mean:
            outer = S + "/" + count;
            break;
        case PerAtomForce::MoreThan:
            term = "1-internalSigma; internalSigma=" + valueSwitch(text, v);
            break;
        case PerAtomForce::LessThan:
            term = valueSwitch(text, v);
            break;
        case PerAtomForce::Between:
            term = bead(text, v);
            break;
        case PerAtomForce::Min:
        case PerAtomForce::Max:
        case PerAtomForce::AltMin:
            // The shifted log-sum-exp (ResolvedReduction); term and outer stay v and S, unused.
            reduction.logSumExp = true;
            reduction.beta = beta(text);
            reduction.lseHighest = (type == PerAtomForce::Max ? reduction.beta > 0 : reduction.beta < 0);
            break;
        case PerAtomForce::Highest:
        case PerAtomForce::Lowest:
            reduction.extreme = true;
            reduction.highest = (type == PerAtomForce::Highest);
            break;
        case PerAtomForce::VectorMean:
        case PerAtomForce::VectorSum:
            // S is the norm of the vector sum (ResolvedReduction); term is unused.
            reduction.vector = true;
            if (type == PerAtomForce::VectorMean)
                outer = S + "/" + count;
            break;
        case PerAtomForce::Moment: {
            int power = 0;
            char rest = 0;
            if (std::sscanf(parameters.c_str(), "%d %c", &power, &rest) != 1 || power < 2 || power > 64)
                throw text.error("the parameter is the moment's power, an integer from 2 to 64 (PLUMED's MOMENTS=2)");
            reduction.centred = true;
            term = v + "^" + std::to_string(power);
            outer = S + "/" + count;
            break;
        }
        }
        const string fix = (type == PerAtomForce::Between ? "give a larger SMEAR or a wider range"
                                                                      : "use a larger R_0 (or D_MAX - D_0)");
        reduction.term = parsed(text, term, v, reduction.termDerivative, fix);
        reduction.outer = parsed(text, outer, S, reduction.outerDerivative, fix);
        reductions.push_back(std::move(reduction));
    }
    return reductions;
}
