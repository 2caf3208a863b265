#ifndef CPU_COORDINATION_NUMBER_LOOPS_H_
#define CPU_COORDINATION_NUMBER_LOOPS_H_

/*
 * The CPU kernel's pair loops for a CoordinationNumberForce (per-atom coordination numbers), included by
 * CpuCalcCoordinationForceKernel.cpp only, on the forms of sigma and of the image of CpuCoordinationPairLoops.h
 * (internal linkage and always-inlined callees for the same reason: each ISA's build compiles its own loop).
 *
 * Two passes over the same work items: the numbers pass adds v = sigma(r) r^p of every pair to c of its row
 * (an entry of A) and, in Self mode, of its column; the force pass adds (w_row + w_column) dv/dr (Self) or
 * w_row dv/dr (Dual) along the pair to the gradient, w being dE/dc. A pair counts where
 * minimumDistanceSquared <= r^2 <= dmax^2 and sigma(r) >= minimumSwitch (ResolvedCoordinationNumbers).
 */

#include "CpuCoordinationPairLoops.h"
#include "internal/ResolvedCoordinationNumbers.h"
#include <algorithm>
#include <cmath>

namespace CoordinationPlugin {
namespace {

/** What the numbers' passes read besides the Sweep. */
struct NumberTerms {
    double rPower;          // p of r^p (0: v = sigma)
    const double* weights;  // the force pass: dE/dc of each entry of A, in entry order
};

/**
 * Row entry i of A with the column entries [begin, end). Numbers pass (Forces false): returns the row's sum of
 * v and, in Self mode, adds each pair's v to columnNumbers. Force pass: adds the pairs' weighted dv/dx to the
 * columns' gradient and to (gx, gy, gz) for the row. The vectorized loop (sigma and image Simd, p = 0) computes
 * every candidate's terms and selects; the scalar loop (any form, any p) skips pairs as the Reference kernel does.
 */
template <bool Forces, bool Self, bool Oriented, bool WithPower, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE double
addNumberRow(double xi, double yi, double zi, double slotI, double weightI, const ColumnView& columns,
             const double* columnWeight, int begin, int end, const Sigma& sigma, const Image& image, double cutoff2,
             double power, double* columnNumbers, GradientView columnGradient, double& gx, double& gy, double& gz) {
    const double* x = columns.x;
    const double* y = columns.y;
    const double* z = columns.z;
    const double* slot = columns.slot;
    const double minimumR2 = ResolvedCoordinationNumbers::minimumDistanceSquared;
    const double minimumSwitch = ResolvedCoordinationNumbers::minimumSwitch;
    double sum = 0.0;
    if constexpr (Sigma::Simd && Image::Simd && !WithPower && !Forces) {
#pragma omp simd reduction(+ : sum)
        for (int j = begin; j < end; j++) {
            const double dx = image.wrap(x[j] - xi, 0);
            const double dy = image.wrap(y[j] - yi, 1);
            const double dz = image.wrap(z[j] - zi, 2);
            const double r2 = dx * dx + dy * dy + dz * dz;
            const double value = sigma.value(r2);
            const bool keep = (r2 <= cutoff2) & (r2 >= minimumR2) & (value >= minimumSwitch);
            const double term = (keep ? value : 0.0);
            sum += term;
            if (Self)
                columnNumbers[j] += term;
        }
        return sum;
    }
    if constexpr (Sigma::Simd && Image::Simd && !WithPower && Forces) {
        double* cx = columnGradient.x;
        double* cy = columnGradient.y;
        double* cz = columnGradient.z;
        double sx = 0.0, sy = 0.0, sz = 0.0;
#pragma omp simd reduction(+ : sx, sy, sz)
        for (int j = begin; j < end; j++) {
            const double orientation = (Oriented ? (slot[j] > slotI ? 1.0 : -1.0) : 1.0);
            const double dx = image.wrap(orientation * (x[j] - xi), 0);
            const double dy = image.wrap(orientation * (y[j] - yi), 1);
            const double dz = image.wrap(orientation * (z[j] - zi), 2);
            const double r2 = dx * dx + dy * dy + dz * dz;
            // Two selects of doubles: with one of a combined mask, GCC pushes the comparison of sigma into
            // sigma's own select, a select of booleans, and the loop no longer vectorizes with AVX2.
            const double value = sigma.value(r2);
            const bool inRange = (r2 <= cutoff2) & (r2 >= minimumR2);
            const double weight = (Self ? weightI + columnWeight[j] : weightI);
            const double slope = orientation * weight * sigma.scale(r2);
            const double slopeAboveMinimum = (value >= minimumSwitch ? slope : 0.0);
            const double scale = (inRange ? slopeAboveMinimum : 0.0);
            const double fx = dx * scale, fy = dy * scale, fz = dz * scale;
            cx[j] += fx;
            cy[j] += fy;
            cz[j] += fz;
            sx += fx;
            sy += fy;
            sz += fz;
        }
        gx -= sx;
        gy -= sy;
        gz -= sz;
        return 0.0;
    }
    const bool usePower = (power != 0.0);
    for (int j = begin; j < end; j++) {
        const double orientation = (Oriented && slot[j] < slotI ? -1.0 : 1.0);
        const Vec3 delta = image(Vec3(x[j] - xi, y[j] - yi, z[j] - zi) * orientation);
        const double r2 = delta.dot(delta);
        if (r2 < minimumR2 || r2 > cutoff2)
            continue;
        double scale; // dsigma/dr / r
        const double value = sigma(r2, scale);
        if (value < minimumSwitch)
            continue;
        const double rToPower = (usePower ? std::pow(std::sqrt(r2), power) : 1.0);
        if constexpr (!Forces) {
            const double term = value * rToPower;
            sum += term;
            if (Self)
                columnNumbers[j] += term;
        }
        else {
            // dv/dr / r = (dsigma/dr r^p + p sigma r^(p - 1)) / r
            const double slope = scale * rToPower + (usePower ? power * value * rToPower / r2 : 0.0);
            const double weight = (Self ? weightI + columnWeight[j] : weightI);
            const Vec3 force = delta * (weight * slope * orientation);
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

/**
 * One work item of a numbers pass: the numbers pass adds c into the thread's buffer over A's entries (numbers),
 * the force pass the gradient into the thread's buffer (x, y, z arrays over the entries, A's then B's unless
 * Self); the pairs tested are counted in candidatePairs.
 */
template <bool Forces, bool Self, bool Oriented, bool WithPower, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE void processNumberItem(const Sweep& sweep, const NumberTerms& terms, int item,
                                                  const Sigma& sigma, const Image& image, double* numbers,
                                                  double* gradient, CpuCoordinationCandidates& candidates,
                                                  long long& candidatePairs) {
    const CpuCoordinationWorkItem work = sweep.items[item];
    const CpuCoordinationEntries& entriesA = sweep.entriesA;
    const CpuCoordinationEntries& columns = (Self ? entriesA : sweep.entriesB);
    const double cutoff2 = sweep.cutoffSquared;
    const long long numEntries = entriesA.size() + (Self ? 0 : sweep.entriesB.size());
    GradientView rows = {nullptr, nullptr, nullptr}, columnGradient = {nullptr, nullptr, nullptr};
    if (Forces) {
        rows = {gradient, gradient + numEntries, gradient + 2 * numEntries};
        const int columnOffset = (Self ? 0 : entriesA.size());
        columnGradient = {rows.x + columnOffset, rows.y + columnOffset, rows.z + columnOffset};
    }
    const double* weights = terms.weights;
    auto addRowOf = [&](int i, const ColumnView& view, const double* viewWeight, double* viewNumbers,
                        GradientView viewGradient, int begin, int end) __attribute__((always_inline)) {
        double gx = 0.0, gy = 0.0, gz = 0.0;
        const double rowSum = addNumberRow<Forces, Self, Oriented, WithPower>(
            entriesA.x[i], entriesA.y[i], entriesA.z[i], entriesA.slot[i], (Forces ? weights[i] : 0.0), view,
            viewWeight, begin, end, sigma, image, cutoff2, terms.rPower, viewNumbers, viewGradient, gx, gy, gz);
        if (Forces) {
            rows.x[i] += gx;
            rows.y[i] += gy;
            rows.z[i] += gz;
        }
        else
            numbers[i] += rowSum;
    };
    if (sweep.grid == nullptr) {
        // All pairs: each row with every column (Self: the later ones).
        const ColumnView view = viewOf(columns);
        for (int i = work.begin; i < work.end; i++) {
            const int begin = (Self ? i + 1 : 0), end = columns.size();
            addRowOf(i, view, weights, numbers, columnGradient, begin, end);
            candidatePairs += end - begin;
        }
        return;
    }
    // A home cell's rows against its stencil's entries, gathered (Self: the home cell's own entries first),
    // then the columns' numbers or gradient back to their entries.
    const int cell = work.begin;
    const int homeBegin = sweep.grid->rowStart(cell), homeEnd = sweep.grid->rowStart(cell + 1);
    sweep.grid->columnRanges(cell, Self, candidates.ranges);
    candidates.clear();
    if (Self)
        candidates.append(columns, homeBegin, homeEnd);
    for (const std::pair<int, int>& range : candidates.ranges)
        candidates.append(columns, range.first, range.second);
    const int count = candidates.count;
    const int* source = candidates.source.data();
    const ColumnView gathered = viewOf(candidates);
    // The numbers pass keeps the columns' c in gx; the force pass gathers the columns' weights (Self).
    const GradientView gatheredGradient = {candidates.gx.data(), candidates.gy.data(), candidates.gz.data()};
    double* gatheredWeight = candidates.weight.data();
    if (Forces) {
        for (double* array : {gatheredGradient.x, gatheredGradient.y, gatheredGradient.z})
            std::fill(array, array + count, 0.0);
        if (Self)
            for (int k = 0; k < count; k++)
                gatheredWeight[k] = weights[source[k]];
    }
    else if (Self)
        std::fill(gatheredGradient.x, gatheredGradient.x + count, 0.0);
    for (int i = homeBegin; i < homeEnd; i++) {
        const int begin = (Self ? i - homeBegin + 1 : 0);
        addRowOf(i, gathered, gatheredWeight, gatheredGradient.x, gatheredGradient, begin, count);
        candidatePairs += count - begin;
    }
    if (Forces) {
        for (int k = 0; k < count; k++) {
            columnGradient.x[source[k]] += gatheredGradient.x[k];
            columnGradient.y[source[k]] += gatheredGradient.y[k];
            columnGradient.z[source[k]] += gatheredGradient.z[k];
        }
    }
    else if (Self)
        for (int k = 0; k < count; k++)
            numbers[source[k]] += gatheredGradient.x[k];
}

/** Work items first, first + stride, ... of a numbers pass; their tested pairs into itemPairs. */
template <bool Forces, bool Self, bool Oriented, bool WithPower, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE void processNumberItems(const Sweep& sweep, const NumberTerms& terms, int first,
                                                   int stride, const Sigma& sigma, const Image& image,
                                                   double* numbers, double* gradient,
                                                   CpuCoordinationCandidates& candidates, long long* itemPairs) {
    for (int item = first; item < (int) sweep.items.size(); item += stride)
        processNumberItem<Forces, Self, Oriented, WithPower>(sweep, terms, item, sigma, image, numbers, gradient,
                                                             candidates, itemPairs[item]);
}

#if COORDINATION_CPU_AVX2
/** processNumberItems built for AVX2 + FMA. */
template <bool Forces, bool Self, bool Oriented, bool WithPower, class Sigma, class Image>
__attribute__((target("avx2,fma"))) void
processNumberItemsAvx2(const Sweep& sweep, const NumberTerms& terms, int first, int stride, const Sigma& sigma,
                       const Image& image, double* numbers, double* gradient, CpuCoordinationCandidates& candidates,
                       long long* itemPairs) {
    processNumberItems<Forces, Self, Oriented, WithPower>(sweep, terms, first, stride, sigma, image, numbers,
                                                          gradient, candidates, itemPairs);
}
#endif

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_NUMBER_LOOPS_H_*/
