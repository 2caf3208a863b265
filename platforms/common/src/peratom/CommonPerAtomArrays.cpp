#include "peratom/CommonPerAtomArrays.h"
#include <algorithm>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

void CommonPerAtomArrays::initialize(ComputeContext& cc, const CommonPerAtomPlan& plan, bool local) {
    const int numA = plan.numA, numB = plan.numB;
    const int mixedSize = (plan.mixedIsDouble ? sizeof(double) : sizeof(float));
    const int realSize = (plan.useDouble ? sizeof(double) : sizeof(float));
    const int components = plan.numComponents;
    numbersFixed.initialize<long long>(cc, 2 * components * std::max(numA, 1), "coordinationNumbersFixed");
    numbersFixed.upload(vector<long long>(numbersFixed.getSize(), 0));
    numberValues.initialize(cc, std::max(numA, 1), mixedSize, "coordinationNumberValues");
    numberComponents.initialize(cc, (components > 1 || local ? components * std::max(numA, 1) : 1), mixedSize,
                                "coordinationNumberComponents");
    numberWeights.initialize(cc, components * std::max(numA, 1), realSize, "coordinationNumberWeights");
    vector<int> identity(std::max({numA, numB, 1}));
    for (int i = 0; i < (int)identity.size(); i++)
        identity[i] = i;
    rowOfSlotA.initialize<int>(cc, std::max(numA, 1), "coordinationRowOfSlotA");
    rowOfSlotA.upload(vector<int>(identity.begin(), identity.begin() + rowOfSlotA.getSize()));
    rowOfSlotB.initialize<int>(cc, std::max(numB, 1), "coordinationRowOfSlotB");
    rowOfSlotB.upload(vector<int>(identity.begin(), identity.begin() + rowOfSlotB.getSize()));
    if (plan.hasNeighborPartners()) {
        auto classes = [](int size, int boundary) {
            vector<int> classOf(std::max(size, 1));
            for (int i = 0; i < (int)classOf.size(); i++)
                classOf[i] = (i < boundary ? 1 : 2);
            return classOf;
        };
        slotClassA.initialize<int>(cc, std::max(numA, 1), "coordinationSlotClassA");
        slotClassA.upload(classes(numA, plan.numCentral));
        slotClassB.initialize<int>(cc, std::max(numB, 1), "coordinationSlotClassB");
        slotClassB.upload(classes(numB, plan.numOwnB));
    }
    numberResults.initialize(cc, plan.numReductions + 1, mixedSize, "coordinationNumberResults");
    const int parts = plan.numParts, reductions = std::max(plan.numReductions, 1);
    numberPartialFixed.initialize<long long>(cc, 2 * parts, "coordinationNumberPartialFixed");
    // Two rows per reduction, then one per component of the vector sum (perAtomFinish.cc).
    numberPartialSums.initialize(cc, (2 * reductions + plan.numVectorComponents) * parts, mixedSize,
                                 "coordinationNumberPartialSums");
    numberPartialIndices.initialize<int>(cc, reductions * parts, "coordinationNumberPartialIndices");
    // Three per reduction, the parameter derivatives, the mean, and G of the vector reductions (perAtomFinish.cc).
    numberCoefficients.initialize(cc, 3 * reductions + plan.numParameterDerivatives + 1 + plan.numVectorComponents,
                                  mixedSize, "coordinationNumberCoefficients");
    numberIndices.initialize<int>(cc, reductions, "coordinationNumberIndices");
    numberState.initialize<int>(cc, 3, "coordinationNumberState");
    numberState.upload(vector<int>(3, 0));
}
