#ifndef CPU_PAIR_LOOPS_H_
#define CPU_PAIR_LOOPS_H_

/*
 * The CPU pair engine's loops, included by the kernels' sources only: the loop over one row's columns (vectorized
 * where the forms of sigma and of the image and the term allow it), the loop over a work item's rows and the loop
 * over a thread's work items, built for the baseline instruction set and for AVX2 + FMA; the dispatch of the forms of
 * sigma and of the image; a pass over the work items on the thread pool. Everything here has internal linkage and
 * the functions the loops call are always inlined (src/CpuInstructionSets.h says why).
 *
 * What a pair adds is the kernel's, a term (CpuSwitchSumTerm, CpuCoordinationNumberTerm) that the loops are
 * instantiated with:
 * - Simd: whether its rows may take the vectorized loop (where the forms of sigma and of the image are Simd too);
 * - Oriented: each pair's displacement taken from its lower slot to its higher one, as the Reference kernel does
 *   (Self in a periodic box where forces are computed: the minimum image of an exact half-box tie depends on the
 *   sign);
 * - Gradient: the pass adds a gradient to the thread's buffer (x, y, z arrays over the entries, A's then B's unless
 *   Self), factor * delta per pair (delta the oriented displacement);
 * - Sums: what the sums of a row's terms are (RowSums);
 * - Weighted: the term reads a weight per entry of A (columnWeights()), which a Self cell gathers with its columns;
 * - isSelf(sweep), isPairMode(sweep): the sweep's mode, or the constants the term is built for;
 * - row(rows, i, columns, cutoff2): the term of row entry i of A with the columns, an object with
 *   - keeps(j, r2, sigma): the mask of the vectorized loop, which computes every candidate's terms and selects,
 *   - value(j, sigma, keep): the term of column j that the row sums (vectorized),
 *   - scale(j, r2, sigma, keep, orientation, form): the pair's factor times orientation (vectorized),
 *   - skips(j), beyond(r2) and add(j, r2, sigma, dSigmaDrOverR, sum, factor) -> whether the pair exerts a force
 *     (the scalar loop, which skips pairs as the Reference kernel does);
 * - Vector and components(): several numbers per entry (CpuPerAtomVectorTerm; scalar loop only); its rows have
 *   addVector(j, d, r2, sigma, dSigmaDrOverR, gradient) instead of add(): it adds the pair's components to the row's
 *   values (and in Self mode the column's) itself, or sets the gradient with respect to d (the oriented row-to-column
 *   displacement) of its weighted components and returns whether the pair exerts a force. The per-entry buffers and
 *   the gathered columns' values and weights then hold components() numbers per entry.
 */

#include "CpuCoordinationCandidates.h"
#include "CpuInstructionSets.h"
#include "CpuMinimumImages.h"
#include "CpuPairEngine.h"
#include "CpuSwitchingForms.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/ThreadPool.h"
#include "openmm/reference/ReferencePlatform.h"
#include <algorithm>
#include <type_traits>
#include <utility>

namespace CoordinationPlugin {
namespace {

using Sweep = CpuPairEngine::Sweep;

/** What the sums of a row's terms are. */
enum class RowSums {
    None,    // nothing (a pass that only adds a gradient)
    Items,   // each work item's sum (CpuPairEngine::sumItems(): s)
    Entries  // each entry of A's value: its rows' sums, and in Self mode its sums as a column
};

/** A gradient over entries: x, y and z arrays. */
struct GradientView {
    double *x, *y, *z;
};

/**
 * Column entries as the pair loop reads them, the group's sorted entries or a home cell's gathered candidates: their
 * coordinates, particles and slots, and what the pass adds to them or reads of them.
 */
struct ColumnView {
    const double *x, *y, *z, *particle, *slot;
    GradientView gradient; // Gradient terms
    double* values;        // RowSums::Entries in Self mode
    const double* weight;  // Weighted terms in Self mode
    double* rowValues;     // RowSums::Entries: the rows' values (the thread's buffer over A's entries)
};

/** A thread's buffers in one pass. */
struct ThreadOutputs {
    double* gradient; // Gradient terms: x, y, z arrays over the entries (A's, then B's unless Self)
    double* values;   // RowSums::Entries: a value per entry of A
};

/**
 * The terms of row entry i of A with the column entries [begin, end): returns the sum of their values; with a
 * gradient, adds each pair's factor * delta to its column's gradient and subtracts it from (gx, gy, gz) for the row.
 * Vectorized and branch-free where the term and the forms of sigma and of the image allow it; otherwise the scalar
 * loop, which (like the Reference kernel) evaluates sigma for anything not beyond the cutoff, NaN included.
 */
template <class Term, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE double addRow(const CpuCoordinationEntries& rows, int i, const ColumnView& columns,
                                         int begin, int end, const Term& term, const Sigma& sigma, const Image& image,
                                         double cutoff2, double& gx, double& gy, double& gz) {
    const double xi = rows.x[i], yi = rows.y[i], zi = rows.z[i], slotI = rows.slot[i];
    const auto pair = term.row(rows, i, columns, cutoff2);
    const double* x = columns.x;
    const double* y = columns.y;
    const double* z = columns.z;
    const double* slot = columns.slot;
    double* cx = columns.gradient.x;
    double* cy = columns.gradient.y;
    double* cz = columns.gradient.z;
    double sum = 0.0;
    if constexpr (Term::Simd && Sigma::Simd && Image::Simd) {
        double sx = 0.0, sy = 0.0, sz = 0.0;
#pragma omp simd reduction(+ : sum, sx, sy, sz)
        for (int j = begin; j < end; j++) {
            const double orientation = (Term::Oriented ? (slot[j] > slotI ? 1.0 : -1.0) : 1.0);
            const double dx = image.wrap(orientation * (x[j] - xi), 0);
            const double dy = image.wrap(orientation * (y[j] - yi), 1);
            const double dz = image.wrap(orientation * (z[j] - zi), 2);
            const double r2 = dx * dx + dy * dy + dz * dz;
            // sigma computed for every candidate and then selected (a call in one arm would be a
            // conditional load of its members: not if-converted, the loop would not vectorize).
            const double value = sigma.value(r2);
            const bool keep = pair.keeps(j, r2, value);
            if (Term::Sums != RowSums::None)
                sum += pair.value(j, value, keep);
            if (Term::Gradient) {
                // The column is the pair's second atom (orientation 1) or its first (-1).
                const double scale = pair.scale(j, r2, value, keep, orientation, sigma);
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
        if (pair.skips(j))
            continue;
        const double orientation = (Term::Oriented && slot[j] < slotI ? -1.0 : 1.0);
        const Vec3 delta = image(Vec3(x[j] - xi, y[j] - yi, z[j] - zi) * orientation);
        const double r2 = delta.dot(delta);
        if (pair.beyond(r2))
            continue;
        double scale; // dsigma/dr / r
        const double value = sigma(r2, scale);
        double factor = 0.0;
        Vec3 force;
        bool exertsForce;
        if constexpr (Term::Vector)
            exertsForce = pair.addVector(j, delta * orientation, r2, value, scale, force);
        else
            exertsForce = pair.add(j, r2, value, scale, sum, factor);
        if (Term::Gradient && exertsForce) {
            if constexpr (!Term::Vector)
                force = delta * (factor * orientation);
            cx[j] += force[0];
            cy[j] += force[1];
            cz[j] += force[2];
            gx -= force[0];
            gy -= force[1];
            gz -= force[2];
        }
    }
    return sum;
}

/**
 * One work item: returns its rows' sum; adds the gradient (Gradient) and the per-entry values (RowSums::Entries)
 * into the thread's buffers and counts the pairs tested in candidatePairs. Inlined into both builds of processItems
 * (the AVX2 one compiles it, and addRow's loop, for AVX2 + FMA).
 */
template <class Term, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE double processItem(const Sweep& sweep, const Term& term, int item, const Sigma& sigma,
                                              const Image& image, const ThreadOutputs& outputs,
                                              CpuCoordinationCandidates& candidates, long long& candidatePairs) {
    constexpr bool PerEntry = (Term::Sums == RowSums::Entries);
    const CpuCoordinationWorkItem work = sweep.items[item];
    const bool self = term.isSelf(sweep);
    const CpuCoordinationEntries& entriesA = sweep.entriesA;
    const CpuCoordinationEntries& columns = (self ? entriesA : sweep.entriesB);
    const double cutoff2 = sweep.cutoffSquared;
    GradientView rows = {nullptr, nullptr, nullptr}, columnGradient = {nullptr, nullptr, nullptr};
    if (Term::Gradient) {
        const long long numEntries = entriesA.size() + (self ? 0 : sweep.entriesB.size());
        rows = {outputs.gradient, outputs.gradient + numEntries, outputs.gradient + 2 * numEntries};
        const int columnOffset = (self ? 0 : entriesA.size());
        columnGradient = {rows.x + columnOffset, rows.y + columnOffset, rows.z + columnOffset};
    }
    // Row entry i (of group A) with the columns [begin, end) of a view (the group's entries, or a home
    // cell's gathered candidates); the row's own gradient and value into the thread's buffers.
    auto addRowOf = [&](int i, const ColumnView& view, int begin, int end) __attribute__((always_inline)) {
        double gx = 0.0, gy = 0.0, gz = 0.0;
        const double rowSum = addRow(entriesA, i, view, begin, end, term, sigma, image, cutoff2, gx, gy, gz);
        if (Term::Gradient) {
            rows.x[i] += gx;
            rows.y[i] += gy;
            rows.z[i] += gz;
        }
        if (PerEntry && !Term::Vector)
            outputs.values[i] += rowSum;
        return rowSum;
    };
    const double* weights = term.columnWeights();
    double sum = 0.0;
    if (sweep.grid == nullptr) {
        // Pair mode: pair k is row k with column k; all pairs: each row with every column (Self: later ones).
        const bool pairMode = term.isPairMode(sweep);
        const ColumnView view = {columns.x.data(),    columns.y.data(), columns.z.data(), columns.particle.data(),
                                 columns.slot.data(), columnGradient,   outputs.values,   weights,
                                 outputs.values};
        for (int i = work.begin; i < work.end; i++) {
            const int begin = (pairMode ? i : (self ? i + 1 : 0));
            const int end = (pairMode ? i + 1 : columns.size());
            sum += addRowOf(i, view, begin, end);
            candidatePairs += end - begin;
        }
        return sum;
    }
    // A home cell's rows against the candidates of its stencil, gathered into one array (Self: the home
    // cell's own entries first; row k of the home cell takes the candidates after it), each row one loop
    // over them, then what the rows added to them back to their entries.
    const int cell = work.begin;
    const int homeBegin = sweep.grid->rowStart(cell), homeEnd = sweep.grid->rowStart(cell + 1);
    sweep.grid->columnRanges(cell, self, candidates.ranges);
    candidates.clear();
    if (self)
        candidates.append(columns, homeBegin, homeEnd);
    for (const std::pair<int, int>& range : candidates.ranges)
        candidates.append(columns, range.first, range.second);
    const int count = candidates.count;
    const int* source = candidates.source.data();
    const ColumnView gathered = {candidates.x.data(),
                                 candidates.y.data(),
                                 candidates.z.data(),
                                 candidates.particle.data(),
                                 candidates.slot.data(),
                                 {candidates.gx.data(), candidates.gy.data(), candidates.gz.data()},
                                 candidates.value.data(),
                                 candidates.weight.data(),
                                 outputs.values};
    if (Term::Gradient)
        for (double* array : {gathered.gradient.x, gathered.gradient.y, gathered.gradient.z})
            std::fill(array, array + count, 0.0);
    const int components = term.components(); // per-entry values and weights per entry
    if (PerEntry && self)
        std::fill(candidates.value.begin(), candidates.value.begin() + (long long) count * components, 0.0);
    if (Term::Weighted && self)
        for (int k = 0; k < count; k++)
            for (int c = 0; c < components; c++)
                candidates.weight[(long long) k * components + c] = weights[(long long) source[k] * components + c];
    for (int i = homeBegin; i < homeEnd; i++) {
        const int begin = (self ? i - homeBegin + 1 : 0);
        sum += addRowOf(i, gathered, begin, count);
        candidatePairs += count - begin;
    }
    if (Term::Gradient)
        for (int k = 0; k < count; k++) {
            columnGradient.x[source[k]] += gathered.gradient.x[k];
            columnGradient.y[source[k]] += gathered.gradient.y[k];
            columnGradient.z[source[k]] += gathered.gradient.z[k];
        }
    if (PerEntry && self)
        for (int k = 0; k < count; k++)
            for (int c = 0; c < components; c++)
                outputs.values[(long long) source[k] * components + c] += gathered.values[(long long) k * components + c];
    return sum;
}

/**
 * Work items first, first + stride, ...: their tested pairs into itemPairs, their sums into itemSums
 * (RowSums::Items). Inlined where it is called: the baseline build of runPass, and processItemsAvx2.
 */
template <class Term, class Sigma, class Image>
COORDINATION_ALWAYS_INLINE void processItems(const Sweep& sweep, const Term& term, int first, int stride,
                                             const Sigma& sigma, const Image& image, const ThreadOutputs& outputs,
                                             CpuCoordinationCandidates& candidates, double* itemSums,
                                             long long* itemPairs) {
    for (int item = first; item < (int) sweep.items.size(); item += stride) {
        const double sum = processItem(sweep, term, item, sigma, image, outputs, candidates, itemPairs[item]);
        if (Term::Sums == RowSums::Items)
            itemSums[item] = sum;
    }
}

#if COORDINATION_CPU_AVX2
/** processItems built for AVX2 + FMA (runPass calls it where the CPU has them). */
template <class Term, class Sigma, class Image>
__attribute__((target("avx2,fma"))) void
processItemsAvx2(const Sweep& sweep, const Term& term, int first, int stride, const Sigma& sigma, const Image& image,
                 const ThreadOutputs& outputs, CpuCoordinationCandidates& candidates, double* itemSums,
                 long long* itemPairs) {
    processItems(sweep, term, first, stride, sigma, image, outputs, candidates, itemSums, itemPairs);
}
#endif

/**
 * One pass of a term over the engine's prepared work items on the thread pool, with one form of sigma and of the
 * image: thread t takes items t, t + T, ...; the threads' gradients (Gradient) and per-entry values
 * (RowSums::Entries) are then summed in thread order.
 */
template <class Term, class Sigma, class Image>
void runPass(CpuPairEngine& engine, OpenMM::ThreadPool& threads, const Term& term, const Sigma& sigma,
             const Image& image) {
    constexpr bool PerEntry = (Term::Sums == RowSums::Entries);
    const int numThreads = threads.getNumThreads();
    engine.startPass(numThreads, Sigma::Path, Term::Gradient, PerEntry, term.components());
    const Sweep sweep = engine.getSweep();
    double* itemSums = engine.getItemSums();
    long long* itemPairs = engine.getItemPairs();
    threads.execute([&](OpenMM::ThreadPool& pool, int thread) {
        const ThreadOutputs outputs = {(Term::Gradient ? engine.startThreadGradient(thread) : nullptr),
                                       (PerEntry ? engine.startThreadValues(thread) : nullptr)};
        CpuCoordinationCandidates& candidates = engine.getCandidates(thread);
#if COORDINATION_CPU_AVX2
        if constexpr (Term::Simd && Sigma::Simd && Image::Simd)
            if (engine.usesAvx2()) {
                processItemsAvx2(sweep, term, thread, numThreads, sigma, image, outputs, candidates, itemSums,
                                 itemPairs);
                return;
            }
#endif
        processItems(sweep, term, thread, numThreads, sigma, image, outputs, candidates, itemSums, itemPairs);
    });
    threads.waitForThreads();
    if (Term::Gradient)
        engine.sumThreadGradients(threads);
    if (PerEntry)
        engine.sumThreadValues(numThreads);
}

/** Calls run(sigma, image) with the forms of sigma and of the image that the engine's prepared entries take. */
template <class Run>
void withForms(const CpuPairEngine& engine, OpenMM::ContextImpl& context, Run&& run) {
    const OpenMM::ReferencePlatform::PlatformData& data =
        *static_cast<OpenMM::ReferencePlatform::PlatformData*>(context.getPlatformData());
    const MinimumImage minimumImage(data.periodicBoxVectors);
    const bool periodic = engine.getGroups().periodic;
    auto withImage = [&](const auto& sigma) {
        if (!engine.takesVectorizedImage())
            run(sigma, ExactImage(minimumImage, periodic));
        else if (periodic)
            run(sigma, RectangularImage(minimumImage));
        else
            run(sigma, NoImage());
    };
    const SwitchingFunctionConstants& c = engine.getGroups().switching;
    if (c.path == SwitchingPath::SquaredDistance) {
        if (c.type == CoordinationBiasForce::Rational && c.mIsTwiceN && c.n <= MaxVectorizedN) {
            switch (c.n / 2) {
            case 1: return withImage(EvenRationalOfSquare<1>(c));
            case 2: return withImage(EvenRationalOfSquare<2>(c));
            case 3: return withImage(EvenRationalOfSquare<3>(c));
            case 4: return withImage(EvenRationalOfSquare<4>(c));
            case 5: return withImage(EvenRationalOfSquare<5>(c));
            default: return withImage(EvenRationalOfSquare<6>(c));
            }
        }
        return withImage(OfSquare(engine.getSwitchingFunction()));
    }
    if (engine.getRationalFunction() != nullptr)
        return withImage(OfDistance<RationalSwitchingFunction>(*engine.getRationalFunction()));
    withImage(OfDistance<SwitchingFunctionEvaluator>(engine.getSwitchingFunction()));
}

/** Calls run(std::bool_constant<flags>()...) with the flags' run-time values: a template instance per combination. */
template <class Run>
void withFlags(Run&& run) {
    run();
}

template <class Run, class... Flags>
void withFlags(Run&& run, bool flag, Flags... flags) {
    auto next = [&](auto value) { withFlags([&](auto... rest) { run(value, rest...); }, flags...); };
    if (flag)
        next(std::true_type());
    else
        next(std::false_type());
}

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_PAIR_LOOPS_H_*/
