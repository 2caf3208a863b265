#include "contactmap/CommonContactMapPlan.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

/**
 * What makes a switching function's device code differ (switching.cc's compile-time defines): the type, and
 * Rational's exponents and forms, Smap's exponents, a Custom function's variable. Every other constant is a
 * number of the contact's own.
 */
typedef std::tuple<int, int, int, int, int, int, int> KindKey;

KindKey kindKey(const SwitchingFunctionConstants& sigma) {
    const int type = sigma.type;
    if (sigma.type == CoordinationBiasForce::Rational)
        return KindKey(type, sigma.n, sigma.m, (int) sigma.path, sigma.directPowersSuffice ? 1 : 0, 0, 0);
    if (sigma.type == CoordinationBiasForce::Smap)
        return KindKey(type, 0, 0, 0, 0, sigma.smapA, sigma.smapB);
    if (sigma.type == CoordinationBiasForce::Custom)
        return KindKey(type, 0, 0, sigma.isFunctionOfX2() ? 1 : 0, 0, 0, 0);
    return KindKey(type, 0, 0, 0, 0, 0, 0);
}

} // namespace

CommonContactMapPlan CommonContactMapPlan::create(const ResolvedContactMap& force, ComputeContext& cc) {
    typedef CommonContactMapPlan Plan;
    Plan plan;
    plan.reduction = force.reduction;
    plan.periodic = force.periodic;
    // The contacts are evaluated in double wherever the device has it (CommonContactMapProgram's doubleMath).
    plan.useDouble = cc.getUseDoublePrecision() || cc.getSupportsDoublePrecision();
    plan.mixedIsDouble = cc.getUseDoublePrecision() || cc.getUseMixedPrecision();
    plan.numContacts = force.getNumContacts();
    plan.numCenters = force.centers.size();
    for (const vector<int>& particles : force.centers.particles)
        plan.numCenterEntries += particles.size();
    plan.numUnique = force.uniqueParticles.size();
    // A centre that is not made whole is the weighted sum of its particles' positions as the user gave them.
    plan.unwrapPositions = !force.periodic;
    for (int k = 0; k < plan.numCenters; k++)
        plan.unwrapPositions = plan.unwrapPositions || !force.centers.makeWhole[k];

    std::map<KindKey, int> kinds;
    for (int i = 0; i < (int) force.switchings.size(); i++) {
        const KindKey key = kindKey(force.switchings[i]);
        auto found = kinds.find(key);
        if (found == kinds.end()) {
            found = kinds.emplace(key, (int) plan.kindRepresentative.size()).first;
            plan.kindRepresentative.push_back(i);
        }
        plan.kindOf.push_back(found->second);
    }
    const int numKinds = std::max((int) plan.kindRepresentative.size(), 1);
    vector<vector<int>> contactsOfKind(numKinds);
    for (int n = 0; n < plan.numContacts; n++)
        contactsOfKind[plan.kindOf[force.switchingIndex[n]]].push_back(n);
    for (const vector<int>& contacts : contactsOfKind) {
        plan.slotContact.insert(plan.slotContact.end(), contacts.begin(), contacts.end());
        plan.kindEnd.push_back(plan.slotContact.size());
    }
    for (int slot = 0; slot < plan.numContacts; slot++)
        plan.inUserOrder = plan.inUserOrder && plan.slotContact[slot] == slot;

    plan.smallMap = (plan.numContacts <= SmallMapMaxContacts || plan.reduction == ContactMapForce::Components);
    plan.centers = CommonCenterLayout::create(force.centers, force.periodic, plan.smallMap);
    if (plan.smallMap) {
        // One block with a thread per contact, or per centre entry if there are more: a power of two of at least 32
        // threads (PoCL summed over blocks of other sizes wrongly, from the second launch on).
        const int limit = std::min(MaxSmallBlockSize, (int) cc.getMaxThreadBlockSize());
        const int wanted = std::max({plan.numContacts, plan.numCenterEntries, 1});
        plan.blockSize = 32;
        while (plan.blockSize < wanted && 2 * plan.blockSize <= limit)
            plan.blockSize *= 2;
    }
    else {
        plan.blockSize = std::min(ContactBlockSize, (int) cc.getMaxThreadBlockSize());
        // The platforms launch min(ceil(workUnits/blockSize), numThreadBlocks) blocks; threads loop over the rest.
        plan.numPartials = std::min(cc.getNumThreadBlocks(), (plan.numContacts + plan.blockSize - 1) / plan.blockSize);
        plan.contactWorkUnits = plan.numPartials * plan.blockSize;
        plan.finishWorkUnits = (plan.numContacts + plan.blockSize - 1) / plan.blockSize * plan.blockSize;
    }
    return plan;
}
