#ifndef CPU_COORDINATION_PAIR_LOOPS_H_
#define CPU_COORDINATION_PAIR_LOOPS_H_

/*
 * The CPU kernel's pair loops, included by CpuCalcCoordinationForceKernel.cpp only: the forms of sigma and of the
 * minimum image they are instantiated with, the loop over one row's columns (vectorized where both forms allow
 * it), and the loop over work items, built for the baseline ISA and for AVX2 + FMA.
 *
 * Everything here has internal linkage (an unnamed namespace) and the functions the vectorized loop calls are
 * always inlined, so that each build of processItems gets the loop compiled for its own ISA: with external
 * linkage, a compiler (GCC 13) may keep a callee out of line and compiled for the baseline ISA, which halved the
 * AVX2 build's speed.
 */

#include "CpuCoordinationCellGrid.h"
#include "CpuCoordinationEntries.h"
#include "internal/MinimumImage.h"
#include "internal/RationalSwitchingFunction.h"
#include "internal/SwitchingFunctionEvaluator.h"
#include <cmath>
#include <limits>
#include <vector>

/** GCC and Clang on x86-64: the vectorized pair loops are also built for AVX2 + FMA, chosen at run time. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define COORDINATION_CPU_AVX2 1
#else
#define COORDINATION_CPU_AVX2 0
#endif

/** Always inlined (GCC, Clang): the vectorized loop's callees, compiled into each ISA's build of the loop. */
#if defined(__GNUC__) || defined(__clang__)
#define COORDINATION_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define COORDINATION_ALWAYS_INLINE inline
#endif

namespace CoordinationPlugin {
namespace {

using OpenMM::Vec3;

/*
 * The forms of sigma, as the pair loops call them, of r^2: value(r2) = sigma and scale(r2) = (dsigma/dr)/r,
 * so that dsigma/d(x_second - x_first) = delta * scale. Path is the SwitchingPath the form takes; Simd says
 * whether value() and scale() are plain arithmetic that `omp simd` can evaluate for every candidate of a
 * range, masked; operator() is the scalar form.
 */

/**
 * The SquaredDistance path of the default rational function (m = 2n, n = 2 HalfN <= 12, d0 = 0), vectorized:
 * sigma = 1/(1 + y^HalfN), y = r^2/r0^2. Where y^HalfN is not finite (r^2 overflowing it, or NaN) sigma is
 * its limit 0, stretched, and the scale 0, by selects rather than branches. That is exact here, unlike for
 * RationalSwitchingFunction's general forms (which take powers of 1/y instead): this path has 1/r0^2 < 1e30 and
 * n <= 12, so y^HalfN overflows only beyond r = r0 (1.8e308)^(1/n) > 3e10 nm, where sigma < 6e-309 and the force
 * n sigma / r are both below the smallest normal double; and the slope's product, formed from its largest
 * factor down, cannot underflow before its value does.
 */
template <int HalfN>
class EvenRationalOfSquare {
public:
    static constexpr SwitchingPath Path = SwitchingPath::SquaredDistance;
    static constexpr bool Simd = true;
    explicit EvenRationalOfSquare(const SwitchingFunctionConstants& c)
        : inverseR0Squared(c.inverseR0Squared), stretchFactor(c.stretchFactor), shift(c.shift),
          slopeFactor(-2.0 * HalfN * c.stretchFactor * c.inverseR0Squared) {}
    // value() and scale() are plain functions of r2 (no address taken, which is what omp simd
    // vectorizes); inlined side by side, the compiler shares their common work. Every member is read
    // unconditionally and only the results are selected: a member read in one arm of a select is a
    // conditional load, which GCC will not if-convert, and the loop would stay scalar.
    COORDINATION_ALWAYS_INLINE double value(double r2) const {
        const double yHalfN = power(r2 * inverseR0Squared) * (r2 * inverseR0Squared);
        // stretchFactor * (1 / (1 + y^HalfN)): the same division as scale()'s, shared when both are inlined.
        const double offset = shift, sigma = stretchFactor * (1.0 / (1.0 + yHalfN)) + offset;
        return (yHalfN < Infinity ? sigma : offset);
    }
    /** dsigma/dr / r = -n y^(HalfN - 1) sigma^2 / r0^2 */
    COORDINATION_ALWAYS_INLINE double scale(double r2) const {
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
    static constexpr double Infinity = std::numeric_limits<double>::infinity();
    /** y^(HalfN - 1) */
    static COORDINATION_ALWAYS_INLINE double power(double y) {
        double result = 1.0;
        for (int k = 1; k < HalfN; k++)
            result *= y;
        return result;
    }
    double inverseR0Squared, stretchFactor, shift, slopeFactor;
};

/** The SquaredDistance path of any other setting (SwitchingFunctionEvaluator::evaluateSquared), scalar. */
class OfSquare {
public:
    static constexpr SwitchingPath Path = SwitchingPath::SquaredDistance;
    static constexpr bool Simd = false;
    explicit OfSquare(const SwitchingFunctionEvaluator& sigma) : sigma(sigma) {}
    inline double operator()(double r2, double& scale) const { return sigma.evaluateSquared(r2, scale); }

private:
    const SwitchingFunctionEvaluator& sigma;
};

/** The Distance path: sigma(r) of a form with an evaluate(r, dSigmaDr) method, from r = sqrt(r^2), scalar. */
template <class Sigma>
class OfDistance {
public:
    static constexpr SwitchingPath Path = SwitchingPath::Distance;
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
    COORDINATION_ALWAYS_INLINE double wrap(double d, int axis) const { return d; }
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
    COORDINATION_ALWAYS_INLINE double wrap(double d, int axis) const { return minimumImage.wrapNear(d, axis); }
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

inline ColumnView viewOf(const CpuCoordinationEntries& entries) {
    return {entries.x.data(), entries.y.data(), entries.z.data(), entries.particle.data(), entries.slot.data()};
}

inline ColumnView viewOf(const CpuCoordinationCandidates& candidates) {
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
COORDINATION_ALWAYS_INLINE double
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

/** What one evaluation's pair loops read: the mode, the entries, the grid (if used) and the work items. */
struct Sweep {
    bool self, pairMode;
    double cutoffSquared;
    const CpuCoordinationEntries& entriesA;
    const CpuCoordinationEntries& entriesB;
    const CpuCoordinationCellGrid* grid; // null: items are ranges of rows (all pairs) or of pairs (Pair mode)
    const std::vector<CpuCoordinationWorkItem>& items;
};

/**
 * One work item: returns its sum of sigma; with a gradient, adds ds/dx into the thread's buffer (x, y, z
 * arrays over the entries, A's then B's unless Self) and counts the pairs tested in candidatePairs.
 * Inlined into both builds of processItems (the AVX2 one compiles it, and addRow's loop, for AVX2 + FMA).
 */
template <bool WithGradient, bool Oriented, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE double processItem(const Sweep& sweep, int item, const Sigma& sigma, const Image& image,
                                              double* gradient, CpuCoordinationCandidates& candidates,
                                              long long& candidatePairs) {
    const CpuCoordinationWorkItem work = sweep.items[item];
    const bool self = sweep.self;
    const CpuCoordinationEntries& entriesA = sweep.entriesA;
    const CpuCoordinationEntries& columns = (self ? entriesA : sweep.entriesB);
    const double cutoff2 = sweep.cutoffSquared;
    const long long numEntries = entriesA.size() + (self ? 0 : sweep.entriesB.size());
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
    if (sweep.grid == nullptr) {
        // Pair mode: pair k is row k with column k; all pairs: each row with every column (Self: later ones).
        const ColumnView view = viewOf(columns);
        for (int i = work.begin; i < work.end; i++) {
            const int begin = (sweep.pairMode ? i : (self ? i + 1 : 0));
            const int end = (sweep.pairMode ? i + 1 : columns.size());
            sum += addRowOf(i, view, columnGradient, begin, end);
            candidatePairs += end - begin;
        }
        return sum;
    }
    // A home cell's rows against the candidates of its stencil, gathered into one array (Self: the home
    // cell's own entries first; row k of the home cell takes the candidates after it), each row one loop
    // over them, then their gradient back to the entries.
    const int cell = work.begin;
    const int homeBegin = sweep.grid->rowStart(cell), homeEnd = sweep.grid->rowStart(cell + 1);
    sweep.grid->columnRanges(cell, self, candidates.ranges);
    candidates.clear();
    if (self)
        candidates.append(columns, homeBegin, homeEnd);
    for (const std::pair<int, int>& range : candidates.ranges)
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

/**
 * Work items first, first + stride, ...: their sums into itemSums, their tested pairs into itemPairs. Inlined
 * where it is called: the kernel's baseline build, and processItemsAvx2.
 */
template <bool WithGradient, bool Oriented, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE void processItems(const Sweep& sweep, int first, int stride, const Sigma& sigma, const Image& image, double* gradient,
                  CpuCoordinationCandidates& candidates, double* itemSums, long long* itemPairs) {
    for (int item = first; item < (int) sweep.items.size(); item += stride)
        itemSums[item] = processItem<WithGradient, Oriented>(sweep, item, sigma, image, gradient, candidates,
                                                             itemPairs[item]);
}

#if COORDINATION_CPU_AVX2
/** processItems built for AVX2 + FMA (the kernel calls it where the CPU has them). */
template <bool WithGradient, bool Oriented, class Sigma, class Image>
__attribute__((target("avx2,fma"))) void processItemsAvx2(const Sweep& sweep, int first, int stride, const Sigma& sigma,
                                                          const Image& image, double* gradient,
                                                          CpuCoordinationCandidates& candidates, double* itemSums,
                                                          long long* itemPairs) {
    processItems<WithGradient, Oriented>(sweep, first, stride, sigma, image, gradient, candidates, itemSums, itemPairs);
}
#endif

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_PAIR_LOOPS_H_*/
