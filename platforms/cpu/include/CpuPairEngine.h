#ifndef CPU_PAIR_ENGINE_H_
#define CPU_PAIR_ENGINE_H_

#include "CpuCoordinationCandidates.h"
#include "CpuCoordinationCellGrid.h"
#include "CpuCoordinationEntries.h"
#include "internal/groups/ResolvedPairGroups.h"
#include "internal/switching/RationalSwitchingFunction.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"
#include "openmm/Vec3.h"
#include "openmm/internal/ContextImpl.h"
#include <memory>
#include <vector>

namespace OpenMM {
class ThreadPool;
}

namespace CoordinationPlugin {

/**
 * The CPU platform's traversal of the pairs of a PairSwitchingForce (ResolvedPairGroups), in double precision on
 * OpenMM's thread pool (the platform's Threads property), shared by the kernels of CoordinationForce and
 * CoordinationNumberForce: the entries and work items of an evaluation, the per-thread buffers and their sums, and
 * the gradient applied to the atoms and centres. What a pair adds is the kernel's (a term of src/CpuPairLoops.h); the
 * cell grid is CpuCoordinationCellGrid, the loops over items, rows and pairs and the dispatch of the forms of sigma and
 * of the image are src/CpuPairLoops.h.
 *
 * Work items: cells of a cell grid (Self and Dual with a cutoff, rectangular or no PBC, enough entries),
 * ranges of rows of about the same number of pairs (all pairs: no cutoff, triclinic boxes, non-finite
 * positions), or ranges of pairs (Pair mode). They depend on the positions and the groups, never on the
 * number of threads; sums are taken per item and the items' sums added in item order, so they are the same for
 * any number of threads. Thread t takes items t, t + T, t + 2T, ... and adds its gradient (or per-entry values)
 * into its own buffer over the entries; the buffers are summed in thread order, then the entries into their atoms
 * in entry order: forces are bitwise reproducible for a given thread count.
 *
 * Dispatch: sigma's form follows the resolved SwitchingPath. The SquaredDistance path of the default
 * rational function (m = 2n, n <= 12) and displacements the comparisons can wrap (finite, within 1.5
 * boxes of a rectangular box, or no PBC) take the vectorized loop (omp simd, masked), built on x86-64 for
 * the baseline (SSE2) and for AVX2 + FMA, the CPU choosing at construction (COORDINATION_CPU_NO_AVX2,
 * set, keeps the baseline: the tests run both); everything else takes the scalar loop.
 *
 * Minimum image in a rectangular box: d >= L/2 -> d - L, d < -L/2 -> d + L, exactly the Reference
 * kernel's half-box ties (PLUMED's rt42 lattice has atoms exactly half a box apart), with Self pairs
 * oriented as the Reference kernel orients them (the lower slot first) wherever forces are computed.
 * Displacements that may exceed 1.5 boxes and triclinic boxes go through the exact scalar minimum image.
 */
class CpuPairEngine {
public:
    /** What one evaluation's pair loops read: the mode, the entries, the grid (if used) and the work items. */
    struct Sweep {
        bool self, pairMode;
        double cutoffSquared;
        const CpuCoordinationEntries& entriesA;
        const CpuCoordinationEntries& entriesB;
        const CpuCoordinationCellGrid* grid; // null: items are ranges of rows (all pairs) or of pairs (Pair mode)
        const std::vector<CpuCoordinationWorkItem>& items;
    };

    /** Chooses the vectorized loops' build: AVX2 + FMA where the CPU has them, unless COORDINATION_CPU_NO_AVX2. */
    CpuPairEngine();
    ~CpuPairEngine();
    /** The pairs to traverse (a copy), with the switching function's evaluators and the work items of all pairs. */
    void setGroups(const ResolvedPairGroups& groups);
    const ResolvedPairGroups& getGroups() const { return *groups; }
    /**
     * This evaluation's entries and work items (the cell grid, or the groups in order); false, preparing
     * nothing and counting no candidate pairs, where a particle of the groups has a non-finite coordinate.
     */
    bool prepare(OpenMM::ContextImpl& context);

    // What the loops of src/CpuPairLoops.h read and write.
    Sweep getSweep() const;
    const CpuCoordinationEntries& getEntriesA() const { return entriesA; }
    const SwitchingFunctionEvaluator& getSwitchingFunction() const { return *switchingFunction; }
    /** The Rational type's Distance path; null for the other types. */
    const RationalSwitchingFunction* getRationalFunction() const { return rational.get(); }
    /** Whether the prepared displacements are ones the vectorized images can wrap. */
    bool takesVectorizedImage() const { return simdImage; }
    bool usesAvx2() const { return useAvx2; }
    /**
     * Before a pass over the work items on numThreads threads with sigma's form of the given path: the items' sums
     * and tested pairs cleared, a gradient buffer (withGradient) or a buffer of per-entry values of A (withValues,
     * `components` per entry, entry-major) and the scratch of each thread.
     */
    void startPass(int numThreads, SwitchingPath path, bool withGradient, bool withValues, int components = 1);
    /** Thread's gradient buffer, zeroed: x, y, z arrays over the entries (A's, then B's unless Self). */
    double* startThreadGradient(int thread);
    /** Thread's buffer of per-entry values over A's entries (the pass's components each), zeroed. */
    double* startThreadValues(int thread);
    CpuCoordinationCandidates& getCandidates(int thread) { return threadCandidates[thread]; }
    double* getItemSums() { return itemSums.data(); }
    long long* getItemPairs() { return itemPairs.data(); }
    /** After the pass: the threads' gradients summed in thread order, then the entries into atomGradient. */
    void sumThreadGradients(OpenMM::ThreadPool& threads);
    /** After the pass: the threads' per-entry values summed in thread order, in entry order (getEntryValues()). */
    void sumThreadValues(int numThreads);

    // The results of a pass.
    /** The items' sums, added in item order. */
    double sumItems() const;
    /** The per-entry values over A's entries, in entry order, the pass's components each (after sumThreadValues()). */
    const std::vector<double>& getEntryValues() const { return entryValues; }
    /**
     * forces -= scale * the summed gradient: a particle's row into its force, a centre's spread to its particles by
     * weight.
     */
    void applyGradient(std::vector<OpenMM::Vec3>& forces, double scale) const;
    /** The pairs of entries the last pass tested against the cutoff (0 after a non-finite coordinate). */
    long long getNumCandidatePairs() const;
    /** The SwitchingPath of the last pass's form of sigma. */
    SwitchingPath getSwitchingPath() const { return lastPath; }

private:
    std::unique_ptr<ResolvedPairGroups> groups;
    std::unique_ptr<SwitchingFunctionEvaluator> switchingFunction;
    std::unique_ptr<RationalSwitchingFunction> rational; // the Rational type's Distance path
    bool useAvx2 = false; // the CPU has AVX2 and FMA, and COORDINATION_CPU_NO_AVX2 is not set
    std::vector<CpuCoordinationWorkItem> allPairItems; // all pairs or Pair mode: depend on the group sizes only
    SwitchingPath lastPath = SwitchingPath::Distance;

    // Per evaluation.
    bool useCells = false;
    bool simdImage = false;                    // the displacements the vectorized images can wrap
    CpuCoordinationEntries entriesA, entriesB; // by cell, or in group order
    CpuCoordinationCellGrid grid;
    std::vector<CpuCoordinationWorkItem> items;
    std::vector<double> itemSums;
    std::vector<long long> itemPairs;                        // the pairs each work item tested against the cutoff
    long long numEntries = 0;                                // the gradient's entries: A's, then B's unless Self
    int numComponents = 1;                                   // the per-entry values of the pass, per entry
    std::vector<std::vector<double>> threadGradients;        // per thread: x, y, z over the entries
    std::vector<std::vector<double>> threadValues;           // per thread: a value per entry of A
    std::vector<CpuCoordinationCandidates> threadCandidates; // per thread
    std::vector<double> entryValues;                         // the threads' values summed, over A's entries
    std::vector<OpenMM::Vec3> atomGradient;                  // over the unique members (particles, then centres)
    std::vector<OpenMM::Vec3> memberPositions;               // the particles' positions and the centres'
};

} // namespace CoordinationPlugin

#endif /*CPU_PAIR_ENGINE_H_*/
