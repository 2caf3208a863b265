#include "CpuCoordinationEntries.h"
#include <algorithm>

using namespace CoordinationPlugin;
using std::vector;

void CpuCoordinationEntries::resize(int size) {
    x.resize(size);
    y.resize(size);
    z.resize(size);
    particle.resize(size);
    slot.resize(size);
    unique.resize(size);
}

void CpuCoordinationEntries::set(int entry, const OpenMM::Vec3& position, int particleIndex, int slotIndex,
                                 int uniqueIndex) {
    x[entry] = position[0];
    y[entry] = position[1];
    z[entry] = position[2];
    particle[entry] = particleIndex;
    slot[entry] = slotIndex;
    unique[entry] = uniqueIndex;
}

void CpuCoordinationCandidates::append(const CpuCoordinationEntries& entries, int begin, int end) {
    const int needed = count + (end - begin);
    if (needed > (int) x.size()) {
        const int size = std::max(needed, 2 * (int) x.size());
        for (vector<double>* array : {&x, &y, &z, &particle, &slot, &gx, &gy, &gz, &weight})
            array->resize(size);
        source.resize(size);
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
