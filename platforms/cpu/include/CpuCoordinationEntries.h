#ifndef CPU_COORDINATION_ENTRIES_H_
#define CPU_COORDINATION_ENTRIES_H_

#include "openmm/Vec3.h"
#include <vector>

namespace CoordinationPlugin {

/**
 * The group entries in the order the pair loops visit them (by cell, or in group order), as structure
 * of arrays so that the loops over a range of entries vectorize. Positions are the user's, not wrapped:
 * displacements are differences of these, as in the Reference kernel.
 */
struct CpuCoordinationEntries {
    std::vector<double> x, y, z;
    std::vector<double> particle; // particle index, as a double for the vectorized same-atom mask
    std::vector<double> slot;     // index in the group, as a double: which atom of a Self pair comes first
    std::vector<int> unique;      // index into the resolved groups' uniqueParticles
    void resize(int size);
    int size() const { return x.size(); }
    void set(int entry, const OpenMM::Vec3& position, int particleIndex, int slotIndex, int uniqueIndex);
};

/** A work item: a range of rows (all pairs), of pairs (Pair mode) or one home cell [begin, begin + 1). */
struct CpuCoordinationWorkItem {
    int begin, end;
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_ENTRIES_H_*/
