#include "peratom/CommonLocalStepArrays.h"
#include <algorithm>
#include <vector>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

void CommonLocalStepArrays::initialize(ComputeContext& cc, const ResolvedPerAtom& perAtom, int entries) {
    numA = entries;
    numComponents = perAtom.localComponents();
    numSums = 1 + numComponents;
    const int rows = std::max(numA, 1);
    const int mixedSize = (cc.getUseDoublePrecision() || cc.getUseMixedPrecision() ? sizeof(double) : sizeof(float));
    const int realSize = (cc.getUseDoublePrecision() ? sizeof(double) : sizeof(float));
    fixed.initialize<long long>(cc, 2 * numSums * rows, "coordinationLocalFixed");
    fixed.upload(vector<long long>(fixed.getSize(), 0));
    data.initialize(cc, numSums * rows, realSize, "coordinationLocalData");
    forceData.initialize(cc, 2 * numSums * rows, realSize, "coordinationLocalForceData");
    vector<int> identity(rows);
    for (int i = 0; i < rows; i++)
        identity[i] = i;
    rowOfSlot.initialize<int>(cc, rows, "coordinationLocalRowOfSlot");
    rowOfSlot.upload(identity);
    vectors.initialize(cc, numComponents * rows, mixedSize, "coordinationLocalVectors");
    sums.initialize(cc, numSums * rows, mixedSize, "coordinationLocalSums");
    dEdLocal.initialize(cc, numComponents * rows, mixedSize, "coordinationLocalGradient");
}
