#include "CpuCalcCoordinationForceKernel.h"
#include "internal/MinimumImage.h"
#include "openmm/cpu/CpuPlatform.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/ThreadPool.h"
#include "openmm/reference/ReferencePlatform.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

/** Pairs per work item when all pairs are visited, and in Pair mode. */
const long long PairsPerAllPairsItem = 1 << 15;
const int PairsPerPairItem = 4096;
/** Self and Dual with fewer entries than this visit all pairs (a grid would not pay). */
const int MinEntriesForGrid = 256;
/** Cells are about cutoff / this wide ... */
const double CellsPerCutoff = 4.0;
/** ... but the grid has at most (entries / this) cells (atoms far apart: coarser cells). */
const int MinEntriesPerCell = 2;
/**
 * The vectorized loops need every displacement component and its square finite (a masked-out term is
 * still computed, and inf * 0 would be NaN): coordinates of an axis must span less than this.
 */
const double MaxVectorizedSpan = 1e150;

const double Infinity = std::numeric_limits<double>::infinity();

ReferencePlatform::PlatformData& referenceData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

/*
 * Switching functions as the pair loops call them, of r^2: value(r2) = sigma and scale(r2) = (dsigma/dr)/r,
 * so that dsigma/d(x_second - x_first) = delta * scale. Simd says whether value() and scale() are plain
 * arithmetic that `omp simd` can evaluate for every candidate of a range, masked; operator() is the
 * scalar form.
 */

/**
 * PLUMED's rational function with m = 2n, n = 2 HalfN and d0 = 0 (the default, 6/12) as a function of
 * y = r^2/r0^2: sigma = 1/(1 + y^HalfN), no square root. Where y^HalfN is not finite (r^2 overflowing
 * it, or NaN) sigma is its limit 0, stretched, and the scale 0, by selects rather than branches.
 */
template <int HalfN>
class EvenRationalOfSquare {
public:
    static constexpr bool Simd = true;
    EvenRationalOfSquare(double r0, double stretchFactor, double shift)
        : inverseR0Squared(1.0 / (r0 * r0)), stretchFactor(stretchFactor), shift(shift),
          slopeFactor(-2.0 * HalfN * stretchFactor / (r0 * r0)) {}
    // value() and scale() are plain functions of r2 (no address taken, which is what omp simd
    // vectorizes); inlined side by side, the compiler shares their common work. Every member is read
    // unconditionally and only the results are selected: a member read in one arm of a select is a
    // conditional load, which GCC will not if-convert, and the loop would stay scalar.
    inline double value(double r2) const {
        const double yHalfN = power(r2 * inverseR0Squared) * (r2 * inverseR0Squared);
        // stretchFactor * (1 / (1 + y^HalfN)): the same division as scale()'s, shared when both are inlined.
        const double offset = shift, sigma = stretchFactor * (1.0 / (1.0 + yHalfN)) + offset;
        return (yHalfN < Infinity ? sigma : offset);
    }
    /** dsigma/dr / r = -n y^(HalfN - 1) sigma^2 / r0^2 */
    inline double scale(double r2) const {
        const double y = r2 * inverseR0Squared, yPower = power(y), yHalfN = yPower * y;
        const double inverse = 1.0 / (1.0 + yHalfN);
        const double slope = slopeFactor * yPower * inverse * inverse;
        return (yHalfN < Infinity ? slope : 0.0);
    }
    inline double operator()(double r2, double& dSigmaDrOverR) const {
        dSigmaDrOverR = scale(r2);
        return value(r2);
    }

private:
    /** y^(HalfN - 1) */
    static inline double power(double y) {
        double result = 1.0;
        for (int k = 1; k < HalfN; k++)
            result *= y;
        return result;
    }
    double inverseR0Squared, stretchFactor, shift, slopeFactor;
};

/** sigma(r) of a switching function with an evaluate(r, dSigmaDr) method, as a function of r^2 (scalar). */
template <class Sigma>
class OfDistance {
public:
    static constexpr bool Simd = false;
    explicit OfDistance(const Sigma& sigma) : sigma(sigma) {}
    inline double operator()(double r2, double& scale) const {
        const double r = std::sqrt(r2);
        double dSigmaDr;
        const double value = sigma.evaluate(r, dSigmaDr);
        scale = (r > 0.0 ? dSigmaDr / r : 0.0);
        return value;
    }

private:
    const Sigma& sigma;
};

/*
 * Minimum images of a displacement (second - first), all from MinimumImage. Simd images apply
 * wrap(d, axis) per component in the vectorized loops; every image has operator()(delta) on the whole
 * vector for the scalar loop.
 */

/** No periodicity. */
struct NoImage {
    static constexpr bool Simd = true;
    inline double wrap(double d, int axis) const { return d; }
    inline Vec3 operator()(const Vec3& delta) const { return delta; }
};

/**
 * A rectangular box where every displacement component is shorter than 1.5 boxes (checked per
 * evaluation): MinimumImage::wrapNear, on a copy of the image that the simd loop reads.
 */
class RectangularImage {
public:
    static constexpr bool Simd = true;
    explicit RectangularImage(const MinimumImage& minimumImage) : minimumImage(minimumImage) {}
    inline double wrap(double d, int axis) const { return minimumImage.wrapNear(d, axis); }
    inline Vec3 operator()(Vec3 delta) const {
        for (int axis = 0; axis < 3; axis++)
            delta[axis] = wrap(delta[axis], axis);
        return delta;
    }

private:
    const MinimumImage minimumImage;
};

/** Any box, any displacement, scalar: MinimumImage::shortest, or without PBC the displacement as it is. */
class ExactImage {
public:
    static constexpr bool Simd = false;
    ExactImage(const MinimumImage& minimumImage, bool periodic) : minimumImage(minimumImage), periodic(periodic) {}
    inline Vec3 operator()(const Vec3& delta) const { return (periodic ? minimumImage.shortest(delta) : delta); }

private:
    const MinimumImage& minimumImage;
    const bool periodic;
};

/** A thread's gradient over the entries: x, y and z arrays. */
struct GradientView {
    double *x, *y, *z;
};

/** Column entries as the pair loop reads them: the group's sorted entries, or a home cell's gathered candidates. */
struct ColumnView {
    const double *x, *y, *z, *particle, *slot;
};

ColumnView viewOf(const CpuCoordinationEntries& entries) {
    return {entries.x.data(), entries.y.data(), entries.z.data(), entries.particle.data(), entries.slot.data()};
}

ColumnView viewOf(const CpuCoordinationCandidates& candidates) {
    return {candidates.x.data(), candidates.y.data(), candidates.z.data(), candidates.particle.data(),
            candidates.slot.data()};
}

/**
 * The terms of row entry (xi, yi, zi) with the column entries [begin, end): returns their sum of sigma;
 * with a gradient, adds ds/dx to the columns' gradient and to (gx, gy, gz) for the row. Terms beyond
 * the cutoff and of the same atom are 0. Oriented (Self in a periodic box): each pair's displacement is
 * taken from its lower slot to its higher one, as the Reference kernel does, because the minimum image
 * of an exact half-box tie depends on the sign. Vectorized and branch-free where the switching function
 * and the image allow it; otherwise the scalar loop, which (like the Reference kernel) evaluates sigma
 * for anything not beyond the cutoff, NaN included.
 */
template <bool WithGradient, bool Oriented, class Sigma, class Image>
__attribute__((always_inline)) inline double
addRow(double xi, double yi, double zi, double particleI, double slotI, const ColumnView& columns, int begin, int end,
       const Sigma& sigma, const Image& image, double cutoff2, GradientView columnGradient, double& gx, double& gy,
       double& gz) {
    const double* x = columns.x;
    const double* y = columns.y;
    const double* z = columns.z;
    const double* particle = columns.particle;
    const double* slot = columns.slot;
    double sum = 0.0;
    if constexpr (Sigma::Simd && Image::Simd) {
        double* cx = columnGradient.x;
        double* cy = columnGradient.y;
        double* cz = columnGradient.z;
        double sx = 0.0, sy = 0.0, sz = 0.0;
#pragma omp simd reduction(+ : sum, sx, sy, sz)
        for (int j = begin; j < end; j++) {
            const double orientation = (Oriented ? (slot[j] > slotI ? 1.0 : -1.0) : 1.0);
            const double dx = image.wrap(orientation * (x[j] - xi), 0);
            const double dy = image.wrap(orientation * (y[j] - yi), 1);
            const double dz = image.wrap(orientation * (z[j] - zi), 2);
            const double r2 = dx * dx + dy * dy + dz * dz;
            const bool keep = (r2 <= cutoff2) & (particle[j] != particleI);
            // sigma computed for every candidate and then selected (a call in one arm would be a
            // conditional load of its members: not if-converted, the loop would not vectorize).
            const double value = sigma.value(r2);
            sum += (keep ? value : 0.0);
            if (WithGradient) {
                // The column is the pair's second atom (orientation 1) or its first (-1).
                const double slope = orientation * sigma.scale(r2);
                const double scale = (keep ? slope : 0.0);
                const double fx = dx * scale, fy = dy * scale, fz = dz * scale;
                cx[j] += fx;
                cy[j] += fy;
                cz[j] += fz;
                sx += fx;
                sy += fy;
                sz += fz;
            }
        }
        gx -= sx;
        gy -= sy;
        gz -= sz;
        return sum;
    }
    for (int j = begin; j < end; j++) {
        if (particle[j] == particleI)
            continue;
        const double orientation = (Oriented && slot[j] < slotI ? -1.0 : 1.0);
        const Vec3 delta = image(Vec3(x[j] - xi, y[j] - yi, z[j] - zi) * orientation);
        const double r2 = delta.dot(delta);
        if (r2 > cutoff2)
            continue;
        double scale;
        sum += sigma(r2, scale);
        if (WithGradient && scale != 0.0) {
            const Vec3 force = delta * (scale * orientation);
            columnGradient.x[j] += force[0];
            columnGradient.y[j] += force[1];
            columnGradient.z[j] += force[2];
            gx -= force[0];
            gy -= force[1];
            gz -= force[2];
        }
    }
    return sum;
}

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

void CpuCoordinationEntries::resize(int size) {
    x.resize(size);
    y.resize(size);
    z.resize(size);
    particle.resize(size);
    slot.resize(size);
    unique.resize(size);
}

void CpuCoordinationCandidates::append(const CpuCoordinationEntries& entries, int begin, int end) {
    const int needed = count + (end - begin);
    if (needed > (int) x.size()) {
        const int size = std::max(needed, 2 * (int) x.size());
        for (vector<double>* array : {&x, &y, &z, &particle, &slot, &gx, &gy, &gz})
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

void CpuCoordinationEntries::set(int entry, const Vec3& position, int particleIndex, int slotIndex, int uniqueIndex) {
    x[entry] = position[0];
    y[entry] = position[1];
    z[entry] = position[2];
    particle[entry] = particleIndex;
    slot[entry] = slotIndex;
    unique[entry] = uniqueIndex;
}

CpuCalcCoordinationForceKernel::~CpuCalcCoordinationForceKernel() {}

void CpuCalcCoordinationForceKernel::initialize(const System& system, const ResolvedCoordinationForce& force) {
#if COORDINATION_CPU_AVX2
    __builtin_cpu_init();
    useAvx2 = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               std::getenv("COORDINATION_CPU_NO_AVX2") == nullptr);
#endif
    energyFunction = CoordinationEnergyFunction(force);
    setPairParameters(force);
}

void CpuCalcCoordinationForceKernel::setPairParameters(const ResolvedCoordinationForce& force) {
    mode = force.mode;
    groupA = force.groupA;
    groupB = force.groupB;
    periodic = force.periodic;
    uniqueAtoms = force.uniqueParticles;
    uniqueA = force.uniqueA;
    uniqueB = force.uniqueB;
    const SwitchingFunctionConstants& sigma = force.switching;
    switchingFunction.reset(new SwitchingFunctionEvaluator(sigma));
    cutoff = sigma.dmax;
    rational.reset();
    if (sigma.type == CoordinationForce::Rational)
        rational.reset(new RationalSwitchingFunction(sigma));
    r0 = sigma.r0;
    n = sigma.n;
    evenRational = (rational && sigma.m == 2 * n && n % 2 == 0 && n <= 12 && sigma.d0 == 0.0);

    // Work items of all pairs (or of Pair mode's pairs): about the same number of pairs each.
    allPairItems.clear();
    const int sizeA = groupA.size(), sizeB = groupB.size();
    if (mode == CoordinationForce::Pair) {
        for (int begin = 0; begin < sizeA; begin += PairsPerPairItem)
            allPairItems.push_back({begin, std::min(begin + PairsPerPairItem, sizeA)});
    }
    else {
        long long pairs = 0;
        int begin = 0;
        for (int row = 0; row < sizeA; row++) {
            pairs += (mode == CoordinationForce::Self ? sizeA - 1 - row : sizeB);
            if (pairs >= PairsPerAllPairsItem || row == sizeA - 1) {
                allPairItems.push_back({begin, row + 1});
                begin = row + 1;
                pairs = 0;
            }
        }
    }
}

void CpuCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                             const ResolvedCoordinationForce& force) {
    setPairParameters(force);
}

bool CpuCalcCoordinationForceKernel::buildCellGrid(const vector<Vec3>& positions, const Vec3* box) {
    const int sizeA = groupA.size(), sizeB = groupB.size();
    const int numEntries = sizeA + sizeB;
    if (!std::isfinite(cutoff) || mode == CoordinationForce::Pair || numEntries < MinEntriesForGrid)
        return false;
    if (periodic && MinimumImage(box).isTriclinic())
        return false;
    // The region the grid covers: the box, or the entries' bounding box.
    double low[3] = {0.0, 0.0, 0.0}, extent[3];
    for (int axis = 0; axis < 3; axis++) {
        if (periodic)
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
            return false; // positions not finite, or too far apart for a grid
    }
    if (periodic)
        for (const vector<int>* group : {&groupA, &groupB})
            for (int particle : *group)
                if (!(std::isfinite(positions[particle][0]) && std::isfinite(positions[particle][1]) &&
                      std::isfinite(positions[particle][2])))
                    return false;
    // Cells of a fraction of the cutoff, and not many more cells than entries.
    const double maxCells = std::max(1.0, numEntries / (double) MinEntriesPerCell);
    double width = cutoff / CellsPerCutoff;
    while (true) {
        double cells = 1.0;
        for (int axis = 0; axis < 3; axis++)
            cells *= std::max(1.0, std::floor(extent[axis] / width));
        if (cells <= maxCells)
            break;
        width *= 1.25;
    }
    grid.periodic = periodic;
    for (int axis = 0; axis < 3; axis++) {
        grid.size[axis] = (int) std::max(1.0, std::floor(extent[axis] / width));
        grid.width[axis] = (grid.size[axis] > 1 ? extent[axis] / grid.size[axis] : std::max(extent[axis], 1.0));
        // Points of cells d apart are at least (d - 1) widths apart: beyond the cutoff for d > radius (with a margin).
        const double radius = std::floor(cutoff / grid.width[axis] * (1.0 + 1e-10)) + 1.0;
        grid.wholeAxis[axis] = (grid.size[axis] == 1 || (periodic && 2.0 * radius + 1.0 >= grid.size[axis]));
        grid.radius[axis] = (int) std::min(radius, (double) grid.size[axis]);
    }
    const int numCells = grid.numCells();

    // Counting sort of each group's entries by cell (stable: group order within a cell).
    auto sortGroup = [&](const vector<int>& group, const vector<int>& uniqueOf, CpuCoordinationEntries& entries,
                         vector<int>& cellStart) {
        const int size = group.size();
        vector<int> cellOf(size);
        cellStart.assign(numCells + 1, 0);
        for (int i = 0; i < size; i++) {
            const Vec3& position = positions[group[i]];
            int cell[3];
            for (int axis = 0; axis < 3; axis++) {
                const double u = (periodic ? wrapIntoBox(position[axis], extent[axis]) : position[axis] - low[axis]);
                cell[axis] = std::min(std::max((int) (u / grid.width[axis]), 0), grid.size[axis] - 1);
            }
            cellOf[i] = cell[0] + grid.size[0] * (cell[1] + grid.size[1] * cell[2]);
            cellStart[cellOf[i] + 1]++;
        }
        for (int c = 0; c < numCells; c++)
            cellStart[c + 1] += cellStart[c];
        vector<int> next(cellStart.begin(), cellStart.end() - 1);
        entries.resize(size);
        for (int i = 0; i < size; i++)
            entries.set(next[cellOf[i]]++, positions[group[i]], group[i], i, uniqueOf[i]);
    };
    sortGroup(groupA, uniqueA, entriesA, grid.cellStartA);
    if (mode == CoordinationForce::Dual)
        sortGroup(groupB, uniqueB, entriesB, grid.cellStartB);
    // One item per cell with rows.
    items.clear();
    for (int c = 0; c < numCells; c++)
        if (grid.cellStartA[c + 1] > grid.cellStartA[c])
            items.push_back({c, c + 1});
    return true;
}

// Inlined into both builds of processItems (the AVX2 one compiles it, and addRow's loop, for AVX2 + FMA).
template <bool WithGradient, bool Oriented, class Sigma, class Image>
__attribute__((always_inline)) inline double
CpuCalcCoordinationForceKernel::processItem(int item, const Sigma& sigma, const Image& image, double* gradient,
                                            CpuCoordinationCandidates& candidates, long long& candidatePairs) const {
    const WorkItem work = items[item];
    const bool self = (mode == CoordinationForce::Self);
    const CpuCoordinationEntries& columns = (self ? entriesA : entriesB);
    const double cutoff2 = cutoff * cutoff;
    // The thread's gradient: x, y, z arrays over the entries (A's, then B's unless Self).
    const long long numEntries = entriesA.size() + (self ? 0 : entriesB.size());
    const GradientView rows = {gradient, gradient + numEntries, gradient + 2 * numEntries};
    const int columnOffset = (self ? 0 : entriesA.size());
    const GradientView columnGradient = {rows.x + columnOffset, rows.y + columnOffset, rows.z + columnOffset};
    // Row entry i (of group A) with the columns [begin, end) of a view (the group's entries, or a home
    // cell's gathered candidates) and their gradient; the row's own gradient into the thread's buffer.
    auto addRowOf = [&](int i, const ColumnView& view, GradientView viewGradient, int begin, int end)
        __attribute__((always_inline)) {
        double gx = 0.0, gy = 0.0, gz = 0.0;
        const double rowSum = addRow<WithGradient, Oriented>(entriesA.x[i], entriesA.y[i], entriesA.z[i],
                                                             entriesA.particle[i], entriesA.slot[i], view, begin, end,
                                                             sigma, image, cutoff2, viewGradient, gx, gy, gz);
        if (WithGradient) {
            rows.x[i] += gx;
            rows.y[i] += gy;
            rows.z[i] += gz;
        }
        return rowSum;
    };
    double sum = 0.0;
    if (!useCells) {
        // Pair mode: pair k is row k with column k; all pairs: each row with every column (Self: later ones).
        const ColumnView view = viewOf(columns);
        for (int i = work.begin; i < work.end; i++) {
            const int begin = (mode == CoordinationForce::Pair ? i : (self ? i + 1 : 0));
            const int end = (mode == CoordinationForce::Pair ? i + 1 : columns.size());
            sum += addRowOf(i, view, columnGradient, begin, end);
            candidatePairs += end - begin;
        }
        return sum;
    }
    // A home cell's rows against the columns of the cells that can hold a point within the cutoff (Self:
    // the cells after the home cell, and the later entries of the home cell itself: each pair of entries once).
    const int cell = work.begin;
    const int nx = grid.size[0], ny = grid.size[1], nz = grid.size[2];
    const int cx = cell % nx, cy = (cell / nx) % ny, cz = cell / (nx * ny);
    const int homeBegin = grid.cellStartA[cell], homeEnd = grid.cellStartA[cell + 1];
    const vector<int>& columnStart = (self ? grid.cellStartA : grid.cellStartB);
    int yIntervals[2][2], zIntervals[2][2];
    const int numY = axisIntervals(cy, ny, grid.radius[1], grid.wholeAxis[1], grid.periodic, yIntervals);
    const int numZ = axisIntervals(cz, nz, grid.radius[2], grid.wholeAxis[2], grid.periodic, zIntervals);
    const int homeRow = cy + ny * cz;
    // The least distance along an axis between points of cells d apart (the shorter way round if periodic).
    auto separation = [&](int axis, int from, int to) {
        int d = std::abs(to - from);
        if (grid.periodic)
            d = std::min(d, grid.size[axis] - d);
        return std::max(d - 1, 0) * grid.width[axis];
    };
    vector<std::pair<int, int>>& ranges = candidates.ranges;
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
                    const double radius =
                        std::floor(std::sqrt(std::max(residual2, 0.0)) / grid.width[0] * (1.0 + 1e-10) + 1e-10) + 1.0;
                    const bool wholeRow = grid.wholeAxis[0] || (grid.periodic && 2.0 * radius + 1.0 >= nx);
                    int rowIntervals[2][2];
                    const int numX = axisIntervals(cx, nx, (int) std::min(radius, (double) nx), wholeRow, grid.periodic,
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
    // The candidates in one array (Self: the home cell's own entries first; row k of the home cell takes
    // the candidates after it), each row one loop over them, then their gradient back to the entries.
    candidates.clear();
    if (self)
        candidates.append(columns, homeBegin, homeEnd);
    for (const std::pair<int, int>& range : ranges)
        candidates.append(columns, range.first, range.second);
    const int count = candidates.count;
    const ColumnView gathered = viewOf(candidates);
    const GradientView gatheredGradient = {candidates.gx.data(), candidates.gy.data(), candidates.gz.data()};
    if (WithGradient)
        for (double* array : {gatheredGradient.x, gatheredGradient.y, gatheredGradient.z})
            std::fill(array, array + count, 0.0);
    for (int i = homeBegin; i < homeEnd; i++) {
        const int begin = (self ? i - homeBegin + 1 : 0);
        sum += addRowOf(i, gathered, gatheredGradient, begin, count);
        candidatePairs += count - begin;
    }
    if (WithGradient) {
        const int* source = candidates.source.data();
        for (int k = 0; k < count; k++) {
            columnGradient.x[source[k]] += gatheredGradient.x[k];
            columnGradient.y[source[k]] += gatheredGradient.y[k];
            columnGradient.z[source[k]] += gatheredGradient.z[k];
        }
    }
    return sum;
}

template <bool WithGradient, bool Oriented, class Sigma, class Image>
void CpuCalcCoordinationForceKernel::processItems(int first, int stride, const Sigma& sigma, const Image& image,
                                                  double* gradient, CpuCoordinationCandidates& candidates) {
#if COORDINATION_CPU_AVX2
    if constexpr (Sigma::Simd && Image::Simd)
        if (useAvx2) {
            processItemsAvx2<WithGradient, Oriented>(first, stride, sigma, image, gradient, candidates);
            return;
        }
#endif
    for (int item = first; item < (int) items.size(); item += stride)
        itemSums[item] = processItem<WithGradient, Oriented>(item, sigma, image, gradient, candidates, itemPairs[item]);
}

#if COORDINATION_CPU_AVX2
template <bool WithGradient, bool Oriented, class Sigma, class Image>
__attribute__((target("avx2,fma"))) void
CpuCalcCoordinationForceKernel::processItemsAvx2(int first, int stride, const Sigma& sigma, const Image& image,
                                                 double* gradient, CpuCoordinationCandidates& candidates) {
    for (int item = first; item < (int) items.size(); item += stride)
        itemSums[item] = processItem<WithGradient, Oriented>(item, sigma, image, gradient, candidates, itemPairs[item]);
}
#endif

template <class Sigma, class Image>
double CpuCalcCoordinationForceKernel::runItems(ThreadPool& threads, const Sigma& sigma, const Image& image,
                                               bool computeGradient) {
    const int numItems = items.size();
    const int numThreads = threads.getNumThreads();
    const bool self = (mode == CoordinationForce::Self);
    const long long numEntries = entriesA.size() + (self ? 0 : entriesB.size());
    const long long length = 3 * numEntries;
    itemSums.assign(numItems, 0.0);
    itemPairs.assign(numItems, 0);
    if (computeGradient)
        threadGradients.resize(numThreads);
    // Oriented pairs matter where the minimum image can meet a half-box tie: Self in a periodic box.
    const bool oriented = (self && periodic);
    threadCandidates.resize(numThreads);
    threads.execute([&](ThreadPool& pool, int thread) {
        CpuCoordinationCandidates& candidates = threadCandidates[thread];
        double* gradient = nullptr;
        if (computeGradient) {
            threadGradients[thread].assign(length, 0.0);
            gradient = threadGradients[thread].data();
        }
        if (computeGradient && oriented)
            processItems<true, true>(thread, numThreads, sigma, image, gradient, candidates);
        else if (computeGradient)
            processItems<true, false>(thread, numThreads, sigma, image, gradient, candidates);
        else if (oriented)
            processItems<false, true>(thread, numThreads, sigma, image, gradient, candidates);
        else
            processItems<false, false>(thread, numThreads, sigma, image, gradient, candidates);
    });
    threads.waitForThreads();
    double s = 0.0;
    for (int item = 0; item < numItems; item++)
        s += itemSums[item];
    if (computeGradient) {
        // Thread 0's buffer += the others', in thread order (each thread a fixed range of the buffer) ...
        threads.execute([&](ThreadPool& pool, int thread) {
            const long long begin = length * thread / numThreads, end = length * (thread + 1) / numThreads;
            double* total = threadGradients[0].data();
            for (int other = 1; other < numThreads; other++) {
                const double* add = threadGradients[other].data();
                for (long long i = begin; i < end; i++)
                    total[i] += add[i];
            }
        });
        threads.waitForThreads();
        // ... then the entries into their atoms, in entry order.
        const double* total = threadGradients[0].data();
        atomGradient.assign(uniqueAtoms.size(), Vec3());
        for (int group = 0; group < (self ? 1 : 2); group++) {
            const CpuCoordinationEntries& entries = (group == 0 ? entriesA : entriesB);
            const long long offset = (group == 0 ? 0 : entriesA.size());
            for (int e = 0; e < entries.size(); e++)
                atomGradient[entries.unique[e]] +=
                    Vec3(total[offset + e], total[numEntries + offset + e], total[2 * numEntries + offset + e]);
        }
    }
    return s;
}

double CpuCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, bool computeGradient) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    const vector<Vec3>& positions = *data.positions;
    const Vec3* box = data.periodicBoxVectors;
    const MinimumImage minimumImage(box);
    useCells = buildCellGrid(positions, box);
    if (!useCells) {
        // Entries in group order.
        auto fill = [&](const vector<int>& group, const vector<int>& uniqueOf, CpuCoordinationEntries& entries) {
            entries.resize(group.size());
            for (int i = 0; i < (int) group.size(); i++)
                entries.set(i, positions[group[i]], group[i], i, uniqueOf[i]);
        };
        fill(groupA, uniqueA, entriesA);
        fill(groupB, uniqueB, entriesB);
        items = allPairItems;
    }

    // The vectorized loops need finite displacements (and, in a rectangular box, shorter than 1.5 boxes).
    bool vectorizable = true;
    for (int axis = 0; axis < 3; axis++) {
        double lowest = Infinity, highest = -Infinity;
        for (const CpuCoordinationEntries* entries : {&entriesA, &entriesB}) {
            const vector<double>& coordinate = (axis == 0 ? entries->x : axis == 1 ? entries->y : entries->z);
            for (double value : coordinate) {
                lowest = std::min(lowest, value);
                highest = std::max(highest, value);
            }
        }
        const double span = highest - lowest; // NaN coordinates: min/max skip them, so test them below
        if (!(span < MaxVectorizedSpan) || (periodic && !minimumImage.isNear(span, axis)))
            vectorizable = false;
    }
    if (vectorizable)
        for (const CpuCoordinationEntries* entries : {&entriesA, &entriesB})
            for (int e = 0; e < entries->size() && vectorizable; e++)
                vectorizable = std::isfinite(entries->x[e]) && std::isfinite(entries->y[e]) && std::isfinite(entries->z[e]);
    if (minimumImage.isTriclinic() && periodic)
        vectorizable = false;

    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    auto run = [&](const auto& sigma) {
        if (!vectorizable)
            return runItems(threads, sigma, ExactImage(minimumImage, periodic), computeGradient);
        if (periodic)
            return runItems(threads, sigma, RectangularImage(minimumImage), computeGradient);
        return runItems(threads, sigma, NoImage(), computeGradient);
    };
    if (evenRational) {
        const double stretchFactor = switchingFunction->getStretchFactor(), shift = switchingFunction->getShift();
        switch (n / 2) {
        case 1: return run(EvenRationalOfSquare<1>(r0, stretchFactor, shift));
        case 2: return run(EvenRationalOfSquare<2>(r0, stretchFactor, shift));
        case 3: return run(EvenRationalOfSquare<3>(r0, stretchFactor, shift));
        case 4: return run(EvenRationalOfSquare<4>(r0, stretchFactor, shift));
        case 5: return run(EvenRationalOfSquare<5>(r0, stretchFactor, shift));
        default: return run(EvenRationalOfSquare<6>(r0, stretchFactor, shift));
        }
    }
    if (rational)
        return run(OfDistance<RationalSwitchingFunction>(*rational));
    return run(OfDistance<SwitchingFunctionEvaluator>(*switchingFunction));
}

double CpuCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    const double s = computeCoordination(context, includeForces);
    double dEnergyDs;
    const double energy = energyFunction.evaluate(context, s, dEnergyDs, referenceData(context).energyParameterDerivatives);
    if (includeForces && dEnergyDs != 0.0) {
        vector<Vec3>& forces = *referenceData(context).forces;
        for (int u = 0; u < (int) uniqueAtoms.size(); u++)
            forces[uniqueAtoms[u]] -= atomGradient[u] * dEnergyDs;
    }
    return energy;
}

double CpuCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    return computeCoordination(context, false);
}

long long CpuCalcCoordinationForceKernel::getNumCandidatePairs(ContextImpl& context) {
    computeCoordination(context, false);
    long long pairs = 0;
    for (long long itemCount : itemPairs)
        pairs += itemCount;
    return pairs;
}
