#ifndef CPU_COORDINATION_KERNEL_H_
#define CPU_COORDINATION_KERNEL_H_

#include "CoordinationKernels.h"
#include "CpuCoordinationCellGrid.h"
#include "CpuCoordinationEntries.h"
#include "internal/CoordinationNumberReductions.h"
#include "internal/CoordinationEnergyFunction.h"
#include "internal/RationalSwitchingFunction.h"
#include "internal/SwitchingFunctionEvaluator.h"
#include "openmm/Vec3.h"
#include <memory>
#include <string>
#include <vector>

namespace OpenMM {
class ThreadPool;
}

namespace CoordinationPlugin {

/**
 * The CPU platform's CoordinationForce kernel: double precision, on OpenMM's thread pool (the
 * platform's Threads property). This file schedules and dispatches; the cell grid is
 * CpuCoordinationCellGrid, the pair loops are src/CpuCoordinationPairLoops.h.
 *
 * Work items: cells of a cell grid (Self and Dual with a cutoff, rectangular or no PBC, enough entries),
 * ranges of rows of about the same number of pairs (all pairs: no cutoff, triclinic boxes, non-finite
 * positions), or ranges of pairs (Pair mode). They depend on the positions and the groups, never on the
 * number of threads; s is summed per item and the items' sums added in item order, so s is the same for
 * any number of threads. Thread t takes items t, t + T, t + 2T, ... and adds ds/dx into its own buffer
 * over the entries; the buffers are summed in thread order, then the entries into their atoms in entry
 * order: forces are bitwise reproducible for a given thread count.
 *
 * Dispatch: sigma's form follows the resolved SwitchingPath. The SquaredDistance path of the default
 * rational function (m = 2n, n <= 12) and displacements the comparisons can wrap (finite, within 1.5
 * boxes of a rectangular box, or no PBC) take the vectorized loop (omp simd, masked), built on x86-64 for
 * the baseline (SSE2) and for AVX2 + FMA, the CPU choosing at initialization (COORDINATION_CPU_NO_AVX2,
 * set, keeps the baseline: the tests run both); everything else takes the scalar loop.
 *
 * Minimum image in a rectangular box: d >= L/2 -> d - L, d < -L/2 -> d + L, exactly the Reference
 * kernel's half-box ties (PLUMED's rt42 lattice has atoms exactly half a box apart), with Self pairs
 * oriented as the Reference kernel orients them (the lower slot first). Displacements that may exceed
 * 1.5 boxes and triclinic boxes go through the exact scalar minimum image.
 *
 * A CoordinationNumberForce (numbers.enabled) takes two passes over the same work items
 * (src/CpuCoordinationNumberLoops.h): the coordination numbers c of A's entries (per-thread buffers summed in
 * thread order; an atom listed more than once in A takes its first entry's number in every entry, the same
 * sum that another order of the pairs would round differently), then CoordinationNumberReductions gives the energy and each entry's weight dE/dc, then the
 * forces of the weighted pair terms (gradient buffers as above). The vectorized loop takes p = 0 (rPower);
 * any other power takes the scalar loop.
 */
class CpuCalcCoordinationForceKernel : public CalcCoordinationForceKernel {
public:
    CpuCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcCoordinationForceKernel(name, platform) {}
    ~CpuCalcCoordinationForceKernel();
    void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    double getCoordination(OpenMM::ContextImpl& context) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getCoordinationNumbers(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    long long getNumCandidatePairs(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) override;
    SwitchingPath getSwitchingPath() const override { return lastPath; }

private:
    void setPairParameters(const ResolvedCoordinationForce& force);
    /** s at the positions; with computeGradient, ds/dx of the unique particles in atomGradient. */
    double computeCoordination(OpenMM::ContextImpl& context, bool computeGradient);
    /**
     * This evaluation's entries and work items (the cell grid, or the groups in order); false, preparing
     * nothing, where a particle of the groups has a non-finite coordinate.
     */
    bool prepareEntries(OpenMM::ContextImpl& context);
    /** Calls run(sigma, image) with the forms of sigma and of the image the prepared entries take. */
    template <class Run>
    void withForms(OpenMM::ContextImpl& context, Run&& run);
    /** Runs the work items on the thread pool with one form of sigma and of the image; returns s. */
    template <class Sigma, class Image>
    double runItems(OpenMM::ThreadPool& threads, const Sigma& sigma, const Image& image, bool computeGradient);
    /** threadGradients summed in thread order into thread 0's, then the entries into atomGradient. */
    void sumGradients(OpenMM::ThreadPool& threads, long long numEntries);
    /** CoordinationNumberForce: c of A's entries in group order (all NaN for a non-finite position). */
    void computeNumbers(OpenMM::ContextImpl& context, std::vector<double>& numbers);
    /** CoordinationNumberForce: -gradient of the weights' pair terms into atomGradient (after computeNumbers). */
    void computeNumberGradient(OpenMM::ContextImpl& context, const std::vector<double>& weights);
    /**
     * forces -= scale * atomGradient: a particle's row into its force, a centre's spread to its particles by weight.
     */
    void applyGradient(std::vector<OpenMM::Vec3>& forces, double scale) const;
    /** One pass of a CoordinationNumberForce over the work items (Forces: the gradient; else the numbers). */
    template <bool Forces, class Sigma, class Image>
    void runNumberItems(OpenMM::ThreadPool& threads, const Sigma& sigma, const Image& image);

    std::unique_ptr<ResolvedCoordinationForce> force;
    std::unique_ptr<SwitchingFunctionEvaluator> switchingFunction;
    std::unique_ptr<RationalSwitchingFunction> rational; // the Rational type's Distance path
    bool useAvx2 = false;                  // the CPU has AVX2 and FMA (and COORDINATION_CPU_NO_AVX2 is not set)
    CoordinationEnergyFunction energyFunction;
    CoordinationNumberReductions reductions; // a CoordinationNumberForce's
    std::vector<CpuCoordinationWorkItem> allPairItems; // all pairs or Pair mode: depend on the group sizes only
    SwitchingPath lastPath = SwitchingPath::Distance;

    // Per evaluation.
    bool useCells = false;
    bool simdImage = false;                // the displacements the vectorized images can wrap
    CpuCoordinationEntries entriesA, entriesB; // by cell, or in group order
    CpuCoordinationCellGrid grid;
    std::vector<CpuCoordinationWorkItem> items;
    std::vector<double> itemSums;
    std::vector<long long> itemPairs;      // the pairs each work item tested against the cutoff
    std::vector<std::vector<double>> threadGradients; // per thread: x, y, z over the entries (A's, then B's)
    std::vector<CpuCoordinationCandidates> threadCandidates; // per thread
    std::vector<OpenMM::Vec3> atomGradient;             // over the unique members (particles, then centres)
    std::vector<OpenMM::Vec3> memberPositions;          // the particles' positions and the centres' (with centres)
    std::vector<std::vector<double>> threadNumbers;      // per thread: c over A's entries
    std::vector<double> entryNumbers, entryWeights;      // c and dE/dc over A's entries, in entry order
    std::vector<std::pair<int, int>> repeatedSlots;     // (slot of A, the earlier slot of the same atom)
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_KERNEL_H_*/
