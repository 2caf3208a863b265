#include "PerAtomForce.h"
#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/forces/PerAtomForceImpl.h"
#include "openmm/OpenMMException.h"
#include <cctype>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

PerAtomForce::PerAtomForce(const string& energy) : PairSwitchingForce(energy), localStep(NoLocalStep) {}

void PerAtomForce::setLocalStep(LocalStep step) {
    if ((int) step < NoLocalStep || (int) step > LocalDotProduct)
        throw OpenMMException(getForceClassName() + "::setLocalStep: unknown step " + std::to_string((int) step) +
                              "; use NoLocalStep, LocalAverage or LocalDotProduct");
    localStep = step;
}

namespace {

void checkReductionType(const string& where, PerAtomForce::ReductionType type) {
    if ((int) type < PerAtomForce::Sum || (int) type > PerAtomForce::VectorSum)
        throw OpenMMException(where + ": unknown reduction type " + std::to_string((int) type) +
                              "; use Sum, Mean, MoreThan, LessThan, Between, Min, Max, AltMin, Highest, Lowest, "
                              "Moment, VectorMean or VectorSum");
}

string trimmed(const string& text) {
    size_t first = 0, last = text.size();
    while (first < last && std::isspace((unsigned char) text[first]))
        first++;
    while (last > first && std::isspace((unsigned char) text[last - 1]))
        last--;
    return text.substr(first, last - first);
}

} // namespace

int PerAtomForce::addReduction(ReductionType type, const string& parameters, const string& name) {
    checkReductionType(getForceClassName() + "::addReduction", type);
    reductions.push_back(ReductionInfo(type, parameters, name));
    return reductions.size() - 1;
}

void PerAtomForce::getReductionParameters(int index, ReductionType& type, string& parameters, string& name) const {
    checkIndex("getReductionParameters", index, reductions.size(), "reduction", "reductions");
    type = reductions[index].type;
    parameters = reductions[index].parameters;
    name = reductions[index].name;
}

void PerAtomForce::setReductionParameters(int index, ReductionType type, const string& parameters, const string& name) {
    checkIndex("setReductionParameters", index, reductions.size(), "reduction", "reductions");
    checkReductionType(getForceClassName() + "::setReductionParameters", type);
    reductions[index] = ReductionInfo(type, parameters, name);
}

string PerAtomForce::getDefaultReductionName(ReductionType type, const string& parameters) {
    static const char* const names[] = {"sum", "mean", "morethan", "lessthan", "between", "min",
                                        "max", "altmin", "highest", "lowest", "moment", "vmean", "vsum"};
    checkReductionType("PerAtomForce::getDefaultReductionName", type);
    if (type == Moment)
        return string("moment_") + trimmed(parameters);
    return names[type];
}

string PerAtomForce::getCollectiveVariableName(int index) const {
    checkIndex("getCollectiveVariableName", index, reductions.size(), "reduction", "reductions");
    const ReductionInfo& reduction = reductions[index];
    return (reduction.name.empty() ? getDefaultReductionName(reduction.type, reduction.parameters) : reduction.name);
}

void PerAtomForce::getPerAtomValues(Context& context, vector<double>& values) const {
    perAtomValues(context, "getPerAtomValues", values);
}

void PerAtomForce::perAtomValues(Context& context, const string& method, vector<double>& values) const {
    ContextImpl* contextImpl;
    CoordinationBiasForceImpl::inContextAs<PerAtomValuesSource>(context, *this, method, contextImpl)
        .getPerAtomValues(*contextImpl, values);
}
