#ifndef CPU_COORDINATION_CELL_GRID_H_
#define CPU_COORDINATION_CELL_GRID_H_

#include "CpuCoordinationEntries.h"
#include "internal/groups/ResolvedPairGroups.h"
#include "openmm/Vec3.h"
#include <utility>
#include <vector>

namespace CoordinationPlugin {

/**
 * The CPU pair engine's cell grid: cells about a quarter of the cutoff wide over a periodic rectangular box or
 * the entries' bounding box (coarser where there would be more than half as many cells as entries), each
 * group's entries sorted by cell (a stable counting sort: group order within a cell), and for a home cell
 * the cells that can hold a point within the cutoff (a spherical stencil; Self visits each pair of cells
 * once).
 */
class CpuCoordinationCellGrid {
public:
    /**
     * Sort the groups' entries into a grid for this evaluation's positions and list one work item per cell
     * that holds rows (entries of A). Returns false, changing nothing, where a grid does not apply: no
     * cutoff, Pair mode, fewer than MinEntries entries, a triclinic box, positions that are not finite.
     */
    bool build(const ResolvedPairGroups& groups, const std::vector<OpenMM::Vec3>& positions,
               const OpenMM::Vec3* box, CpuCoordinationEntries& entriesA, CpuCoordinationEntries& entriesB,
               std::vector<CpuCoordinationWorkItem>& items);
    /**
     * The ranges of column entries (A's for Self, B's otherwise) in the cells that can hold a point within
     * the cutoff of a home cell's points. Self: only the later cells (the later entries of the home cell
     * itself are the caller's), so that each pair of entries is visited once.
     */
    void columnRanges(int cell, bool self, std::vector<std::pair<int, int>>& ranges) const;
    /** The entries of group A's (rows) cell c: [rowStart(c), rowStart(c + 1)). */
    int rowStart(int cell) const { return cellStartA[cell]; }

    /** Self and Dual with fewer entries than this visit all pairs (a grid would not pay). */
    static const int MinEntries = 256;

private:
    int numCells() const { return size[0] * size[1] * size[2]; }
    int size[3];
    double width[3];
    int radius[3];     // cells farther apart than this along an axis hold no pair within the cutoff ...
    bool wholeAxis[3]; // ... or every cell of the axis is a neighbour (each counted once)
    bool periodic;
    double cutoff;
    std::vector<int> cellStartA, cellStartB; // entries of cell c: [cellStart[c], cellStart[c + 1])
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_CELL_GRID_H_*/
