#include "contactmap/CommonContactMapArrays.h"
#include "internal/NumberText.h"
#include "openmm/OpenMMException.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::string;
using std::vector;

namespace {

/**
 * A contact's number as the kernel's "real" holds it: in single and mixed precision 0 below float's smallest
 * normal number and refused beyond its range (CommonSwitchingDefines' rule for the CoordinationForce's constants).
 */
double realNumber(bool useDouble, int contact, const string& name, double value) {
    if (useDouble)
        return value;
    if (std::fabs(value) < std::numeric_limits<float>::min())
        return 0.0;
    if (std::fabs(value) > std::numeric_limits<float>::max())
        throw OpenMMException("ContactMapForce: contact " + std::to_string(contact) + ": its " + name + " = " +
                              numberText(value) + " is beyond single precision's range (" +
                              numberText(std::numeric_limits<float>::max()) +
                              "); use the platform's double precision, or other settings");
    return value;
}

/** Upload values, 4 per entry, as the kernel's real4. */
void uploadReal4(ComputeArray& array, const vector<double>& values, bool useDouble) {
    const size_t count = array.getSize();
    if (useDouble) {
        vector<mm_double4> data(count, mm_double4(0, 0, 0, 0));
        for (size_t i = 0; 4 * i < values.size(); i++)
            data[i] = mm_double4(values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3]);
        array.upload(data);
    }
    else {
        vector<mm_float4> data(count, mm_float4(0, 0, 0, 0));
        for (size_t i = 0; 4 * i < values.size(); i++)
            data[i] = mm_float4((float) values[4 * i], (float) values[4 * i + 1], (float) values[4 * i + 2],
                                (float) values[4 * i + 3]);
        array.upload(data);
    }
}

} // namespace

void CommonContactMapArrays::initialize(ComputeContext& cc, const CommonContactMapPlan& plan, const ResolvedContactMap& force) {
    // The contacts' numbers and gradients are stored in OpenMM's precision (contactmap.cc's STORAGE4), the centres'
    // weights in the kernel's real.
    const bool useDouble = plan.useDouble, storeDouble = cc.getUseDoublePrecision();
    const int storage4Size = (storeDouble ? sizeof(mm_double4) : sizeof(mm_float4));
    const int mixedSize = (plan.mixedIsDouble ? sizeof(double) : sizeof(float));
    const int numContacts = std::max(plan.numContacts, 1), numCenters = std::max(plan.numCenters, 1);
    const int numParticles = force.centers.numParticles;
    const vector<int>& unique = force.uniqueParticles;
    auto uniqueIndex = [&](int particle) { return (int) (std::lower_bound(unique.begin(), unique.end(), particle) - unique.begin()); };
    auto uniqueOf = [&](int id) { return id < numParticles ? uniqueIndex(id) : 0; };

    vector<mm_int4> particles(numContacts, mm_int4(0, 0, 0, 0));
    vector<int> order(numContacts, 0);
    vector<double> params0, params1;
    for (int slot = 0; slot < plan.numContacts; slot++) {
        const int n = plan.slotContact[slot];
        const int p1 = force.particle1[n], p2 = force.particle2[n];
        particles[slot] = mm_int4(p1, p2, uniqueOf(p1), uniqueOf(p2));
        order[slot] = n;
        const SwitchingFunctionConstants& sigma = force.switchings[force.switchingIndex[n]];
        if (!storeDouble && !sigma.singlePrecisionProblem.empty())
            throw OpenMMException("ContactMapForce: contact " + std::to_string(n) + ": " + sigma.singlePrecisionProblem);
        // switching.cc's per-contact constants (contactmap.cc: switchParams0, switchParams1).
        const bool nativeQ = (sigma.type == CoordinationBiasForce::NativeQ);
        const bool squared = (sigma.path == SwitchingPath::SquaredDistance);
        const double length = (nativeQ ? sigma.qBeta : sigma.isFunctionOfX2() ? 0.0 : sigma.invLength);
        const double second = (nativeQ ? sigma.qCentre : squared ? sigma.inverseR0Squared : 0.0);
        params0.push_back(realNumber(storeDouble, n, "d0", sigma.d0));
        params0.push_back(realNumber(storeDouble, n, nativeQ ? "beta" : "1/r0", length));
        params0.push_back(sigma.hasCutoff ? realNumber(storeDouble, n, "dmax^2", sigma.cutoffSquared) : -1.0);
        params0.push_back(realNumber(storeDouble, n, "stretch factor", sigma.stretchFactor));
        params1.push_back(realNumber(storeDouble, n, "stretch shift", sigma.shift));
        params1.push_back(realNumber(storeDouble, n, nativeQ ? "NativeQ centre" : "1/r0^2", second));
        params1.push_back(realNumber(storeDouble, n, "weight", force.weight[n]));
        params1.push_back(realNumber(storeDouble, n, "reference", force.reference[n]));
    }
    contactParticles.initialize<mm_int4>(cc, numContacts, "contactMapParticles");
    contactParticles.upload(particles);
    contactAtoms.initialize<mm_int4>(cc, numContacts, "contactMapAtoms");
    contactAtoms.upload(particles);
    contactOrder.initialize<int>(cc, numContacts, "contactMapOrder");
    contactOrder.upload(order);
    contactParams0.initialize(cc, numContacts, storage4Size, "contactMapParams0");
    contactParams1.initialize(cc, numContacts, storage4Size, "contactMapParams1");
    uploadReal4(contactParams0, params0, storeDouble);
    uploadReal4(contactParams1, params1, storeDouble);
    contactGradients.initialize(cc, numContacts, storage4Size, "contactMapGradients");
    contactValues.initialize(cc, numContacts, mixedSize, "contactMapValues");
    variableDerivatives.initialize(cc, plan.reduction == ContactMapForce::Components ? numContacts : 1, mixedSize,
                                   "contactMapVariableDerivatives");

    // The centres in the program's real, from posq plus posqCorrection in mixed precision (USE_POSQ_CORRECTION).
    centers.initialize(cc, plan.centers, force.centers, useDouble, cc.getUseMixedPrecision(), "contactMap");
    centerForces.initialize<long long>(cc, 3 * numCenters, "contactMapCenterForces");
    centerForces.upload(vector<long long>(centerForces.getSize(), 0));

    positionOfParticle.initialize<int>(cc, cc.getPaddedNumAtoms(), "contactMapPositionOfParticle");
    cellOffsets.initialize<mm_int4>(cc, std::max(plan.numUnique, 1) + (plan.centers.unwrapped ? plan.centers.numEntries : 0),
                                    "contactMapCellOffsets");
    cellOffsets.upload(vector<mm_int4>(cellOffsets.getSize(), mm_int4(0, 0, 0, 0)));
    partialSums.initialize(cc, std::max(plan.numPartials, 1), mixedSize, "contactMapPartialSums");
    partialFlags.initialize<int>(cc, std::max(plan.numPartials, 1), "contactMapPartialFlags");
    results.initialize(cc, 3, mixedSize, "contactMapResults");
}
