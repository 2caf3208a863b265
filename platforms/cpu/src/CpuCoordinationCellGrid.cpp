#include "CpuCoordinationCellGrid.h"
#include "internal/geometry/MinimumImage.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace CoordinationPlugin;
using OpenMM::Vec3;
using std::vector;

namespace {

/** Cells are about cutoff / this wide ... */
const double CellsPerCutoff = 4.0;
/** ... but the grid has at most (entries / this) cells (atoms far apart: coarser cells). */
const int MinEntriesPerCell = 2;
const double Infinity = std::numeric_limits<double>::infinity();

/** The cells along one axis of the grid within radius of cell c: up to two intervals [first, second). */
int axisIntervals(int c, int cells, int radius, bool wholeAxis, bool periodic, int intervals[2][2]) {
    if (wholeAxis) {
        intervals[0][0] = 0;
        intervals[0][1] = cells;
        return 1;
    }
    const int low = c - radius, high = c + radius + 1;
    if (!periodic) {
        intervals[0][0] = std::max(low, 0);
        intervals[0][1] = std::min(high, cells);
        return 1;
    }
    if (low < 0) {
        intervals[0][0] = low + cells;
        intervals[0][1] = cells;
        intervals[1][0] = 0;
        intervals[1][1] = high;
        return 2;
    }
    if (high > cells) {
        intervals[0][0] = low;
        intervals[0][1] = cells;
        intervals[1][0] = 0;
        intervals[1][1] = high - cells;
        return 2;
    }
    intervals[0][0] = low;
    intervals[0][1] = high;
    return 1;
}

/** A coordinate wrapped into [0, length) (for choosing its cell only). */
inline double wrapIntoBox(double x, double length) {
    double u = x - length * std::floor(x / length);
    if (u >= length)
        u -= length;
    return (u < 0.0 ? 0.0 : u);
}

} // namespace

bool CpuCoordinationCellGrid::build(const ResolvedPairGroups& groups, const vector<Vec3>& positions,
                                    const Vec3* box, CpuCoordinationEntries& entriesA, CpuCoordinationEntries& entriesB,
                                    vector<CpuCoordinationWorkItem>& items) {
    const vector<int>& groupA = groups.groupA;
    const vector<int>& groupB = groups.groupB;
    const int numEntries = groupA.size() + groupB.size();
    const bool isPeriodic = groups.periodic;
    if (!groups.switching.hasCutoff || groups.mode == PairSwitchingForce::Pair || numEntries < MinEntries)
        return false;
    if (isPeriodic && MinimumImage(box).isTriclinic())
        return false;
    // The region the grid covers: the box, or the entries' bounding box.
    double low[3] = {0.0, 0.0, 0.0}, extent[3];
    for (int axis = 0; axis < 3; axis++) {
        if (isPeriodic)
            extent[axis] = box[axis][axis];
        else {
            double lowest = Infinity, highest = -Infinity;
            for (const vector<int>* group : {&groupA, &groupB})
                for (int particle : *group) {
                    lowest = std::min(lowest, positions[particle][axis]);
                    highest = std::max(highest, positions[particle][axis]);
                }
            low[axis] = lowest;
            extent[axis] = highest - lowest;
        }
        if (!std::isfinite(extent[axis]))
            return false; // too far apart for a grid (the positions are finite: the engine checked them)
    }
    // Cells of a fraction of the cutoff, and not many more cells than entries.
    cutoff = groups.switching.dmax;
    periodic = isPeriodic;
    const double maxCells = std::max(1.0, numEntries / (double) MinEntriesPerCell);
    double cellWidth = cutoff / CellsPerCutoff;
    while (true) {
        double cells = 1.0;
        for (int axis = 0; axis < 3; axis++)
            cells *= std::max(1.0, std::floor(extent[axis] / cellWidth));
        if (cells <= maxCells)
            break;
        cellWidth *= 1.25;
    }
    for (int axis = 0; axis < 3; axis++) {
        size[axis] = (int) std::max(1.0, std::floor(extent[axis] / cellWidth));
        width[axis] = (size[axis] > 1 ? extent[axis] / size[axis] : std::max(extent[axis], 1.0));
        // Points of cells d apart are at least (d - 1) widths apart: beyond the cutoff for d > radius (with a margin).
        const double cells = std::floor(cutoff / width[axis] * (1.0 + 1e-10)) + 1.0;
        wholeAxis[axis] = (size[axis] == 1 || (periodic && 2.0 * cells + 1.0 >= size[axis]));
        radius[axis] = (int) std::min(cells, (double) size[axis]);
    }
    const int cellCount = numCells();

    // Counting sort of each group's entries by cell (stable: group order within a cell).
    auto sortGroup = [&](const vector<int>& group, const vector<int>& uniqueOf, CpuCoordinationEntries& entries,
                         vector<int>& cellStart) {
        const int groupSize = group.size();
        vector<int> cellOf(groupSize);
        cellStart.assign(cellCount + 1, 0);
        for (int i = 0; i < groupSize; i++) {
            const Vec3& position = positions[group[i]];
            int cell[3];
            for (int axis = 0; axis < 3; axis++) {
                const double u = (periodic ? wrapIntoBox(position[axis], extent[axis]) : position[axis] - low[axis]);
                cell[axis] = std::min(std::max((int) (u / width[axis]), 0), size[axis] - 1);
            }
            cellOf[i] = cell[0] + size[0] * (cell[1] + size[1] * cell[2]);
            cellStart[cellOf[i] + 1]++;
        }
        for (int c = 0; c < cellCount; c++)
            cellStart[c + 1] += cellStart[c];
        vector<int> next(cellStart.begin(), cellStart.end() - 1);
        entries.resize(groupSize);
        for (int i = 0; i < groupSize; i++)
            entries.set(next[cellOf[i]]++, positions[group[i]], group[i], i, uniqueOf[i]);
    };
    sortGroup(groupA, groups.uniqueA, entriesA, cellStartA);
    if (groups.mode == PairSwitchingForce::Dual)
        sortGroup(groupB, groups.uniqueB, entriesB, cellStartB);
    // One item per cell with rows.
    items.clear();
    for (int c = 0; c < cellCount; c++)
        if (cellStartA[c + 1] > cellStartA[c])
            items.push_back({c, c + 1});
    return true;
}

void CpuCoordinationCellGrid::columnRanges(int cell, bool self, vector<std::pair<int, int>>& ranges) const {
    const int nx = size[0], ny = size[1], nz = size[2];
    const int cx = cell % nx, cy = (cell / nx) % ny, cz = cell / (nx * ny);
    const vector<int>& columnStart = (self ? cellStartA : cellStartB);
    int yIntervals[2][2], zIntervals[2][2];
    const int numY = axisIntervals(cy, ny, radius[1], wholeAxis[1], periodic, yIntervals);
    const int numZ = axisIntervals(cz, nz, radius[2], wholeAxis[2], periodic, zIntervals);
    const int homeRow = cy + ny * cz;
    // The least distance along an axis between points of cells d apart (the shorter way round if periodic).
    auto separation = [&](int axis, int from, int to) {
        int d = std::abs(to - from);
        if (periodic)
            d = std::min(d, size[axis] - d);
        return std::max(d - 1, 0) * width[axis];
    };
    ranges.clear();
    for (int iz = 0; iz < numZ; iz++)
        for (int z = zIntervals[iz][0]; z < zIntervals[iz][1]; z++) {
            const double zSeparation = separation(2, cz, z);
            for (int iy = 0; iy < numY; iy++)
                for (int y = yIntervals[iy][0]; y < yIntervals[iy][1]; y++) {
                    const int row = y + ny * z;
                    if (self && row < homeRow)
                        continue;
                    // Only the cells of this row that can hold a point within the cutoff (a spherical stencil).
                    const double ySeparation = separation(1, cy, y);
                    const double residual2 = cutoff * cutoff - ySeparation * ySeparation - zSeparation * zSeparation;
                    if (residual2 < -1e-10 * cutoff * cutoff)
                        continue;
                    const double rowRadius =
                        std::floor(std::sqrt(std::max(residual2, 0.0)) / width[0] * (1.0 + 1e-10) + 1e-10) + 1.0;
                    const bool wholeRow = wholeAxis[0] || (periodic && 2.0 * rowRadius + 1.0 >= nx);
                    int rowIntervals[2][2];
                    const int numX = axisIntervals(cx, nx, (int) std::min(rowRadius, (double) nx), wholeRow, periodic,
                                                   rowIntervals);
                    for (int ix = 0; ix < numX; ix++) {
                        int first = rowIntervals[ix][0];
                        const int last = rowIntervals[ix][1];
                        if (self && row == homeRow)
                            first = std::max(first, cx + 1);
                        if (first >= last)
                            continue;
                        const int begin = columnStart[row * nx + first], end = columnStart[row * nx + last];
                        if (begin < end)
                            ranges.push_back({begin, end});
                    }
                }
        }
}
