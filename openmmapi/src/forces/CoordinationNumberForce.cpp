#include "CoordinationNumberForce.h"
#include "PlumedTranslator.h"
#include "internal/forces/CoordinationNumberForceImpl.h"

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

CoordinationNumberForce::CoordinationNumberForce(const string& energy) : PerAtomForce(energy), rPower(0.0) {}

string CoordinationNumberForce::toPlumed(const string& label) const {
    return PlumedTranslator::toPlumed(*this, label);
}

void CoordinationNumberForce::getCoordinationNumbers(Context& context, vector<double>& values) const {
    perAtomValues(context, "getCoordinationNumbers", values);
}

ForceImpl* CoordinationNumberForce::createImpl() const {
    return new CoordinationNumberForceImpl(*this);
}
