#include "CoordinationNumberForce.h"
#include "PlumedTranslator.h"
#include "internal/CoordinationForceImpl.h"
#include "openmm/OpenMMException.h"
#include <cctype>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

CoordinationNumberForce::CoordinationNumberForce(const string& energy) : CoordinationForce(energy), rPower(0.0) {}

namespace {

void checkReductionIndex(const string& method, int index, size_t size) {
    if (index >= 0 && (size_t) index < size)
        return;
    const string has = (size == 0 ? "no reductions" : std::to_string(size) + (size == 1 ? " reduction" : " reductions"));
    throw OpenMMException("CoordinationNumberForce::" + method + ": index " + std::to_string(index) +
                          " is out of range; this force has " + has +
                          (size == 0 ? "" : " (use an index from 0 to " + std::to_string(size - 1) + ")"));
}

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
    checkReductionIndex("getReductionParameters", index, reductions.size());
    type = reductions[index].type;
    parameters = reductions[index].parameters;
    name = reductions[index].name;
}

void CoordinationNumberForce::setReductionParameters(int index, ReductionType type, const string& parameters, const string& name) {
    checkReductionIndex("setReductionParameters", index, reductions.size());
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
    checkReductionIndex("getCollectiveVariableName", index, reductions.size());
    const ReductionInfo& reduction = reductions[index];
    return (reduction.name.empty() ? getDefaultReductionName(reduction.type, reduction.parameters) : reduction.name);
}

string CoordinationNumberForce::toPlumed(const string& label) const {
    return PlumedTranslator::toPlumed(*this, label);
}
