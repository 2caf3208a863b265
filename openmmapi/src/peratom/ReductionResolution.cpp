#include "internal/CoordinationNumberResolution.h"
#include "internal/CoordinationForceImpl.h"
#include "internal/NumberText.h"
#include "internal/PlumedAction.h"
#include "internal/PlumedCoordination.h"
#include "lepton/Parser.h"
#include "openmm/OpenMMException.h"
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

using namespace CoordinationPlugin;
using OpenMM::OpenMMException;
using std::string;
using std::vector;

namespace {

/** A number as Lepton reads it back exactly. */
string exact(double value) {
    char text[64];
    std::snprintf(text, sizeof(text), "(%.17g)", value);
    return text;
}

string integer(int value) {
    return std::to_string(value);
}

bool isIdentifier(const string& name) {
    if (name.empty() || !(std::isalpha((unsigned char) name[0]) || name[0] == '_'))
        return false;
    for (char c : name)
        if (!(std::isalnum((unsigned char) c) || c == '_'))
            return false;
    return true;
}

/** sigma of x as Lepton text, unclamped, unstretched (the types of x; a Custom function is internalCustom). */
string ofX(const SwitchingFunctionConstants& c, const string& x) {
    switch (c.type) {
    case CoordinationForce::Rational: {
        if (c.mIsTwiceN)
            return "1/(1+" + x + "^" + integer(c.n) + ")";
        // Beyond x = 1 the same function in y = 1/x keeps the powers finite; within TaylorBand of 1, the expansion.
        const string ratio = "(1-" + x + "^" + integer(c.n) + ")/(1-" + x + "^" + integer(c.m) + ")";
        const string y = "(1/" + x + ")";
        const string inverse = y + "^" + integer(c.m - c.n) + "*(1-" + y + "^" + integer(c.n) + ")/(1-" + y + "^" +
                               integer(c.m) + ")";
        const string d = "(" + x + "-1)";
        const string taylor = exact(c.taylorValue) + "+" + exact(c.taylorFirst) + "*" + d + "+" + exact(c.taylorSecond) +
                              "*" + d + "^2";
        return "select(step(" + exact(SwitchingFunctionConstants::TaylorBand) + "-abs(" + d + ")), " + taylor +
               ", select(step(" + x + "-1), " + inverse + ", " + ratio + "))";
    }
    case CoordinationForce::Exponential:
        return "exp(-" + x + ")";
    case CoordinationForce::Gaussian:
        return "exp(-0.5*" + x + "^2)";
    case CoordinationForce::Smap:
        return "(1+" + exact(c.smapC) + "*" + x + "^" + integer(c.smapA) + ")^" + exact(c.smapExponent);
    case CoordinationForce::Cubic:
        return "(" + x + "-1)^2*(1+2*" + x + ")";
    case CoordinationForce::Tanh:
        return "1-tanh(" + x + ")";
    case CoordinationForce::Cosinus:
        return "select(step(1-" + x + "), 0.5*(cos(" + exact(c.cosinusFrequency) + "*" + x + ")+1), 0)";
    case CoordinationForce::Custom:
        return "internalCustom";
    default:
        throw OpenMMException("CoordinationNumberForce: internal error: switching function " + integer(c.type));
    }
}

/** A Custom function's text as a definition (with PLUMED's named constants), after the other definitions. */
string customDefinitions(const SwitchingFunctionConstants& c) {
    string definitions = "; internalCustom=" + c.customExpression;
    const double pi = 3.14159265358979323846;
    const std::pair<const char*, double> constants[] = {
        {"e", std::exp(1.0)}, {"log2e", 1.0 / std::log(2.0)}, {"log10e", 1.0 / std::log(10.0)}, {"ln2", std::log(2.0)},
        {"ln10", std::log(10.0)}, {"pi", pi}, {"pi_2", 0.5 * pi}, {"pi_4", 0.25 * pi}, {"sqrt2", std::sqrt(2.0)},
        {"sqrt1_2", std::sqrt(0.5)}};
    for (const auto& constant : constants)
        definitions += string("; ") + constant.first + "=" + exact(constant.second);
    return definitions;
}

struct ReductionText {
    string type, parameters, name;
    OpenMMException error(const string& what) const {
        return OpenMMException("CoordinationNumberForce: reduction \"" + name + "\" (" + type +
                               (parameters.empty() ? "" : " \"" + parameters + "\"") + "): " + what);
    }
};

/** BETA=b of Min, Max and AltMin: a finite number other than 0. */
double beta(const ReductionText& text) {
    PlumedKeywords keywords(PlumedKeywords::splitWords(text.parameters, text.parameters), 0, text.parameters);
    if (!keywords.has("BETA"))
        throw text.error("needs its parameter as \"BETA=b\"");
    const double value = keywords.takeNumber("BETA", 0.0);
    keywords.rejectLeftovers("CoordinationNumberForce", "");
    if (!(value != 0.0) || !std::isfinite(value))
        throw text.error("BETA must be a finite number other than 0, got " + numberText(value));
    return value;
}

/** LESS_THAN's and MORE_THAN's switching function of v. */
string valueSwitch(const ReductionText& text, const string& v) {
    CoordinationForce settings("s");
    try {
        PlumedKeywords outside(vector<string>(), 0, text.type + "={" + text.parameters + "}");
        PlumedCoordination::readSwitch("{" + text.parameters + "}", outside, settings, 1.0);
    } catch (const OpenMMException& error) {
        throw text.error(string("its switching function is not one PLUMED reads: ") + error.what());
    }
    SwitchingFunctionConstants c;
    try {
        c = CoordinationForceImpl::resolveSwitching(settings);
    } catch (const OpenMMException& error) {
        throw text.error(error.what());
    }
    return CoordinationNumberResolution::switchingExpression(c, v);
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
    keywords.rejectLeftovers("CoordinationNumberForce", " in a BETWEEN bead");
    if (!(lower < upper))
        throw text.error("LOWER (" + numberText(lower) + ") must be below UPPER (" + numberText(upper) + ")");
    const double width = smear * (upper - lower);
    if (!(width > 0.0) || !std::isfinite(width))
        throw text.error("SMEAR must be > 0, got " + numberText(smear));
    if (words[0] == "GAUSSIAN") {
        const string scale = exact(1.0 / (std::sqrt(2.0) * width));
        return "0.5*(erf((" + exact(upper) + "-" + v + ")*" + scale + ")-erf((" + exact(lower) + "-" + v + ")*" + scale + "))";
    }
    const string low = "((" + exact(lower) + "-" + v + ")/" + exact(width) + ")";
    const string high = "((" + exact(upper) + "-" + v + ")/" + exact(width) + ")";
    const string ia = "max(" + low + ",-1)", ib = "min(" + high + ",1)";
    return "select(step(-1-" + high + ")+step(" + low + "-1), 0, 0.5*(" + ib + "*(2-abs(" + ib + "))-" + ia + "*(2-abs(" +
           ia + "))))";
}

Lepton::ParsedExpression parsed(const ReductionText& text, const string& expression, const string& variable,
                                Lepton::ParsedExpression& derivative) {
    try {
        Lepton::ParsedExpression value = Lepton::Parser::parse(expression).optimize();
        derivative = value.differentiate(variable).optimize();
        return value;
    } catch (const std::exception& error) {
        throw text.error(string("internal error: cannot parse its expression: ") + error.what());
    }
}

} // namespace

string CoordinationNumberResolution::switchingExpression(const SwitchingFunctionConstants& c, const string& v) {
    string sigma, definitions;
    if (c.isFunctionOfX2()) {
        sigma = "internalCustom";
        definitions = customDefinitions(c) + "; x2=" + v + "^2*" + exact(c.inverseR0Squared);
    }
    else if (c.type == CoordinationForce::NativeQ)
        sigma = "select(step(" + exact(c.d0) + "-" + v + "), 1, 1/(1+exp(" + exact(c.qBeta) + "*(" + v + "-" +
                exact(c.qCentre) + "))))";
    else {
        sigma = "select(step(-x), 1, " + ofX(c, "x") + ")";
        if (c.type == CoordinationForce::Custom)
            definitions = customDefinitions(c);
        definitions += "; x=(" + v + "-" + exact(c.d0) + ")*" + exact(c.invLength);
    }
    if (c.stretch)
        sigma = "(" + sigma + ")*" + exact(c.stretchFactor) + "+" + exact(c.shift);
    if (std::isfinite(c.dmax))
        sigma = "select(step(" + exact(c.dmax) + "-" + v + "), " + sigma + ", 0)";
    return sigma + definitions;
}

ResolvedCoordinationNumbers CoordinationNumberResolution::resolve(const CoordinationNumberForce& force, int numEntries,
                                                                  const Lepton::ParsedExpression& energy) {
    static const char* const typeNames[] = {"Sum", "Mean", "MoreThan", "LessThan", "Between", "Min",
                                            "Max", "AltMin", "Highest", "Lowest", "Moment"};
    ResolvedCoordinationNumbers numbers;
    numbers.enabled = true;
    numbers.rPower = force.getRPower();
    if (!(numbers.rPower >= 0.0) || !std::isfinite(numbers.rPower))
        throw OpenMMException("CoordinationNumberForce: the R power must be a finite number >= 0 (PLUMED's R_POWER), got " +
                              numberText(numbers.rPower));
    if (force.getMode() == CoordinationForce::Pair)
        throw OpenMMException("CoordinationNumberForce: Pair mode has no per-atom coordination numbers; use Self mode "
                              "(PLUMED's SPECIES) or Dual mode (SPECIESA and SPECIESB)");
    const string v = ResolvedReduction::termVariable(), S = ResolvedReduction::outerVariable();
    const string count = exact(numEntries);
    std::set<string> globals, names;
    for (int i = 0; i < force.getNumGlobalParameters(); i++)
        globals.insert(force.getGlobalParameterName(i));
    for (int index = 0; index < force.getNumReductions(); index++) {
        CoordinationNumberForce::ReductionType type;
        ReductionText text;
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
        const bool noParameters = (type == CoordinationNumberForce::Sum || type == CoordinationNumberForce::Mean ||
                                   type == CoordinationNumberForce::Highest || type == CoordinationNumberForce::Lowest);
        string parameters = text.parameters;
        parameters.erase(0, parameters.find_first_not_of(" \t"));
        if (noParameters && !parameters.empty())
            throw text.error("takes no parameters; pass \"\"");
        string term = v, outer = S;
        switch (type) {
        case CoordinationNumberForce::Sum:
            break;
        case CoordinationNumberForce::Mean:
            outer = S + "/" + count;
            break;
        case CoordinationNumberForce::MoreThan:
            term = "1-internalSigma; internalSigma=" + valueSwitch(text, v);
            break;
        case CoordinationNumberForce::LessThan:
            term = valueSwitch(text, v);
            break;
        case CoordinationNumberForce::Between:
            term = bead(text, v);
            break;
        case CoordinationNumberForce::Min: {
            const string b = exact(beta(text));
            term = "exp(" + b + "/" + v + ")";
            outer = b + "/log(" + S + ")";
            break;
        }
        case CoordinationNumberForce::Max: {
            const string b = exact(beta(text));
            term = "exp(" + v + "/" + b + ")";
            outer = b + "*log(" + S + ")";
            break;
        }
        case CoordinationNumberForce::AltMin: {
            const string b = exact(beta(text));
            term = "exp(-" + b + "*" + v + ")";
            outer = "-log(" + S + ")/" + b;
            break;
        }
        case CoordinationNumberForce::Highest:
        case CoordinationNumberForce::Lowest:
            reduction.extreme = true;
            reduction.highest = (type == CoordinationNumberForce::Highest);
            break;
        case CoordinationNumberForce::Moment: {
            int power = 0;
            char rest = 0;
            if (std::sscanf(parameters.c_str(), "%d %c", &power, &rest) != 1 || power < 2 || power > 64)
                throw text.error("the parameter is the moment's power, an integer from 2 to 64 (PLUMED's MOMENTS=2)");
            reduction.centred = true;
            term = v + "^" + integer(power);
            outer = S + "/" + count;
            break;
        }
        }
        reduction.term = parsed(text, term, v, reduction.termDerivative);
        reduction.outer = parsed(text, outer, S, reduction.outerDerivative);
        numbers.reductions.push_back(std::move(reduction));
        try {
            numbers.energyDerivatives.push_back(energy.differentiate(text.name).optimize());
        } catch (const std::exception& error) {
            throw OpenMMException(string("CoordinationNumberForce: cannot differentiate the energy expression with respect "
                                         "to \"") + text.name + "\": " + error.what());
        }
    }
    return numbers;
}
