#include "SteinhardtForce.h"
#include "PlumedTranslator.h"
#include "internal/forces/SteinhardtForceImpl.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

SteinhardtForce::SteinhardtForce(int degree, const string& energy) : PerAtomForce(energy), degree(degree) {}

string SteinhardtForce::toPlumed(const string& label) const {
    return PlumedTranslator::toPlumed(*this, label);
}

void SteinhardtForce::getOrderParameters(Context& context, vector<double>& values) const {
    perAtomValues(context, "getOrderParameters", values);
}

ForceImpl* SteinhardtForce::createImpl() const {
    return new SteinhardtForceImpl(*this);
}
