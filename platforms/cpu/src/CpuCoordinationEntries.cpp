#include "CpuCoordinationEntries.h"

using namespace CoordinationPlugin;

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
