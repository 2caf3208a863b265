#include "CoordinationForce.h"
#include "PlumedTranslator.h"
#include "internal/forces/CoordinationBiasForceImpl.h"
#include "internal/forces/CoordinationForceImpl.h"
#include "internal/plumed/PlumedForceOf.h"
#include "openmm/OpenMMException.h"
#include <memory>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

CoordinationForce::CoordinationForce(const string& energy) : PairSwitchingForce(energy) {}

string CoordinationForce::getCollectiveVariableName(int index) const {
    checkIndex("getCollectiveVariableName", index, 1, "collective variable", "collective variables");
    return "s";
}

double CoordinationForce::getCoordination(Context& context) const {
    ContextImpl* contextImpl;
    vector<double> values;
    CoordinationBiasForceImpl::inContextAs<CoordinationBiasForceImpl>(context, *this, "getCoordination", contextImpl)
        .getCollectiveVariableValues(*contextImpl, values);
    return values[0];
}

long long CoordinationForce::getNumCandidatePairsInContext(Context& context) const {
    ContextImpl* contextImpl;
    return CoordinationBiasForceImpl::inContextAs<CoordinationForceImpl>(context, *this,
                                                                         "getNumCandidatePairsInContext", contextImpl)
        .getKernel()
        .getNumCandidatePairs(*contextImpl);
}

CoordinationForce* CoordinationForce::fromPlumed(const string& input) {
    return plumedForceOf<CoordinationForce>(input, "CoordinationForce::fromPlumed", "COORDINATION");
}

vector<CoordinationForce*> CoordinationForce::fromPlumedFile(const string& pathOrText, vector<string>& skipped) {
    vector<CoordinationForce*> coordination;
    for (Force* force : PlumedTranslator::fromPlumedFile(pathOrText, skipped)) {
        // The translator's forces of other classes are listed as skipped, after the actions it did not read.
        auto* read = dynamic_cast<CoordinationForce*>(force);
        if (read == nullptr) {
            skipped.push_back(plumedActionOf(*force));
            delete force;
        } else
            coordination.push_back(read);
    }
    return coordination;
}

string CoordinationForce::toPlumed(const string& label) const { return PlumedTranslator::toPlumed(*this, label); }

ForceImpl* CoordinationForce::createImpl() const { return new CoordinationForceImpl(*this); }
