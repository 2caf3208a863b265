#ifndef CPU_COORDINATION_CANDIDATES_H_
#define CPU_COORDINATION_CANDIDATES_H_

#include "CpuCoordinationEntries.h"
#include <utility>
#include <vector>

namespace CoordinationPlugin {

/**
 * A thread's scratch for one home cell: the column entries of the cells within the cutoff, gathered into
 * contiguous arrays, so that each row of the home cell is one long vectorized loop rather than a short
 * one per row of cells; what the pass adds to each gathered entry (its gradient, or its per-entry value), what it
 * reads of it (its weight), and the entry it came from (for scattering back). Sized by the largest stencil met;
 * reused from cell to cell and evaluation to evaluation.
 */
struct CpuCoordinationCandidates {
    std::vector<double> x, y, z, particle, slot;
    std::vector<double> gx, gy, gz;
    // Per gathered entry, `components` numbers each (entry-major):
    std::vector<double> value;  // a per-entry pass (Self): its sums of pair terms
    std::vector<double> weight; // a weighted gradient pass (Self): its weights
    int components = 1;
    std::vector<int> source;
    std::vector<std::pair<int, int>> ranges; // the home cell's column ranges, before they are gathered
    int count = 0;
    void clear() { count = 0; }
    /** Appends the entries [begin, end). */
    void append(const CpuCoordinationEntries& entries, int begin, int end);
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_CANDIDATES_H_*/
