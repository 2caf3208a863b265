#ifndef CPU_COORDINATION_ENTRIES_H_
#define CPU_COORDINATION_ENTRIES_H_

#include "openmm/Vec3.h"
#include <utility>
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
    std::vector<int> unique;      // index into the resolved force's uniqueParticles
    void resize(int size);
    int size() const { return x.size(); }
    void set(int entry, const OpenMM::Vec3& position, int particleIndex, int slotIndex, int uniqueIndex);
};

/**
 * A thread's scratch for one home cell: the column entries of the cells within the cutoff, gathered into
 * contiguous arrays, so that each row of the home cell is one long vectorized loop rather than a short
 * one per row of cells; the gradient of each gathered entry, and the entry it came from (for scattering
 * the gradient back). Sized by the largest stencil met; reused from cell to cell and evaluation to evaluation.
 */
struct CpuCoordinationCandidates {
    std::vector<double> x, y, z, particle, slot;
    std::vector<double> gx, gy, gz;
    std::vector<double> weight; // a CoordinationNumberForce's force pass: each gathered entry's dE/dc
    std::vector<int> source;
    std::vector<std::pair<int, int>> ranges; // the home cell's column ranges, before they are gathered
    int count = 0;
    void clear() { count = 0; }
    /** Appends the entries [begin, end). */
    void append(const CpuCoordinationEntries& entries, int begin, int end);
};

/** A work item: a range of rows (all pairs), of pairs (Pair mode) or one home cell [begin, begin + 1). */
struct CpuCoordinationWorkItem {
    int begin, end;
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_ENTRIES_H_*/
