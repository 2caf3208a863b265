#include "CoordinationNumberForce.h"
#include "PlumedTranslator.h"
#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/forces/CoordinationNumberForceImpl.h"
#include "openmm/OpenMMException.h"
#include <cctype>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

CoordinationNumberForce::CoordinationNumberForce(const string& energy) : PairSwitchingForce(energy), rPower(0.0) {}

namespace {

void checkReductionType(const string& method, CoordinationNumberForce::ReductionType type) {
    if ((int) type < CoordinationNumberForce::Sum || (int) type > CoordinationNumberForce::Moment)
        throw OpenMMException("CoordinationNumberForce::" + method + ": unknown reduction type " + std::to_string((int) type) +
                              "; use Sum, Mean, MoreThan, LessThan, Between, Min, Max, AltMin, Highest, Lowest or Moment");
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

int CoordinationNumberForce::addReduction(ReductionType type, const string& parameters, const string& name) {
    checkReductionType("addReduction", type);
    reductions.push_back(ReductionInfo(type, parameters, name));
    return reductions.size() - 1;
}

void CoordinationNumberForce::getReductionParameters(int index, ReductionType& type, string& parameters, string& name) const {
    checkIndex("getReductionParameters", index, reductions.size(), "reduction", "reductions");
    type = reductions[index].type;
    parameters = reductions[index].parameters;
    name = reductions[index].name;
}

void CoordinationNumberForce::setReductionParameters(int index, ReductionType type, const string& parameters, const string& name) {
    checkIndex("setReductionParameters", index, reductions.size(), "reduction", "reductions");
    checkReductionType("setReductionParameters", type);
    reductions[index] = ReductionInfo(type, parameters, name);
}

string CoordinationNumberForce::getDefaultReductionName(ReductionType type, const string& parameters) {
    static const char* const names[] = {"sum", "mean", "morethan", "lessthan", "between", "min",
                                        "max", "altmin", "highest", "lowest", "moment"};
    checkReductionType("getDefaultReductionName", type);
    if (type == Moment)
        return string("moment_") + trimmed(parameters);
    return names[type];
}

string CoordinationNumberForce::getCollectiveVariableName(int index) const {
    checkIndex("getCollectiveVariableName", index, reductions.size(), "reduction", "reductions");
    const ReductionInfo& reduction = reductions[index];
    return (reduction.name.empty() ? getDefaultReductionName(reduction.type, reduction.parameters) : reduction.name);
}

string CoordinationNumberForce::toPlumed(const string& label) const {
    return PlumedTranslator::toPlumed(*this, label);
}

void CoordinationNumberForce::getCoordinationNumbers(Context& context, vector<double>& values) const {
    ContextImpl* contextImpl;
    CoordinationBiasForceImpl::inContextAs<CoordinationNumberForceImpl>(context, *this, "getCoordinationNumbers", contextImpl)
        .getKernel()
        .getPerAtomValues(*contextImpl, values);
}

ForceImpl* CoordinationNumberForce::createImpl() const {
    return new CoordinationNumberForceImpl(*this);
}
