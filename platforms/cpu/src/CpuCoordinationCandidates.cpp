#include "CpuCoordinationCandidates.h"
#include <algorithm>

using namespace CoordinationPlugin;
using std::vector;

void CpuCoordinationCandidates::append(const CpuCoordinationEntries& entries, int begin, int end) {
    const int needed = count + (end - begin);
    if (needed > (int) x.size()) {
        const int size = std::max(needed, 2 * (int) x.size());
        for (vector<double>* array : {&x, &y, &z, &particle, &slot, &gx, &gy, &gz})
            array->resize(size);
        source.resize(size);
    }
    if (value.size() < x.size() * components) {
        value.resize(x.size() * components);
        weight.resize(x.size() * components);
    }
    for (int e = begin; e < end; e++, count++) {
        x[count] = entries.x[e];
        y[count] = entries.y[e];
        z[count] = entries.z[e];
        particle[count] = entries.particle[e];
        slot[count] = entries.slot[e];
        source[count] = e;
    }
}
