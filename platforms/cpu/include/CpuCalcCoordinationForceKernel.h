#ifndef CPU_COORDINATION_KERNEL_H_
#define CPU_COORDINATION_KERNEL_H_

#include "CoordinationKernels.h"
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

/** GCC and Clang on x86-64: the vectorized pair loops are also built for AVX2 + FMA, chosen at run time. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define COORDINATION_CPU_AVX2 1
#else
#define COORDINATION_CPU_AVX2 0
#endif

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
    std::vector<int> unique;      // index into the kernel's uniqueAtoms
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
    std::vector<int> source;
    std::vector<std::pair<int, int>> ranges; // the home cell's column ranges, before they are gathered
    int count = 0;
    void clear() { count = 0; }
    /** Appends the entries [begin, end). */
    void append(const CpuCoordinationEntries& entries, int begin, int end);
};

/**
 * A grid of cells a fraction of the cutoff wide, over a periodic rectangular box or the entries'
 * bounding box, with each group's entries sorted by cell (buildCellGrid says how it is sized).
 */
struct CpuCoordinationCellGrid {
    int size[3];
    double width[3];
    int radius[3];       // cells farther apart than this along an axis hold no pair within the cutoff ...
    bool wholeAxis[3];   // ... or every cell of the axis is a neighbour (each counted once)
    bool periodic;
    std::vector<int> cellStartA, cellStartB; // entries of cell c: [cellStart[c], cellStart[c + 1])
    int numCells() const { return size[0] * size[1] * size[2]; }
};

/**
 * The CPU platform's CoordinationForce kernel: double precision, on OpenMM's thread pool (the
 * platform's Threads property).
 *
 * Work items: cells of a cell grid (Self and Dual with a finite cutoff, rectangular or no PBC, enough
 * entries), ranges of rows of about the same number of pairs (all pairs: no cutoff, triclinic boxes,
 * non-finite positions), or ranges of pairs (Pair mode). They depend on the positions and the groups,
 * never on the number of threads; s is summed per item and the items' sums added in item order, so s is
 * the same for any number of threads. Thread t takes items t, t + T, t + 2T, ... and adds ds/dx into its
 * own buffer over the entries; the buffers are summed in thread order, then the entries into their
 * atoms in entry order: forces are bitwise reproducible for a given thread count.
 *
 * Cells are about cutoff/4 wide and each home cell visits only the cells that can hold a point within
 * the cutoff (a spherical stencil; Self visits each pair of cells once). Those cells' entries are
 * gathered into one contiguous thread-local array per home cell, and each row runs over all of them in
 * one loop (the gradient scattered back after the home cell's rows). For the default rational function
 * (m = 2n, n even, d0 = 0: sigma of r^2, no square root) and displacements the comparisons below can
 * wrap, that loop is vectorized (omp simd, masked); on x86-64 it is built twice, for the baseline (SSE2)
 * and for AVX2 + FMA, and the CPU picks at initialization (COORDINATION_CPU_NO_AVX2, set, keeps the
 * baseline: the tests run both).
 *
 * Minimum image in a rectangular box: d >= L/2 -> d - L, d < -L/2 -> d + L, exactly the Reference
 * kernel's half-box ties (PLUMED's rt42 lattice has atoms exactly half a box apart), with Self pairs
 * oriented as the Reference kernel orients them (the lower slot first). Displacements that may exceed
 * 1.5 boxes and triclinic boxes go through the exact scalar minimum image.
 */
class CpuCalcCoordinationForceKernel : public CalcCoordinationForceKernel {
public:
    CpuCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcCoordinationForceKernel(name, platform) {}
    ~CpuCalcCoordinationForceKernel();
    void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    double getCoordination(OpenMM::ContextImpl& context) override;
    long long getNumCandidatePairs(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) override;

    /** A work item: a range of rows (all pairs), of pairs (Pair mode) or one home cell [begin, begin + 1). */
    struct WorkItem {
        int begin, end;
    };

private:
    void setPairParameters(const ResolvedCoordinationForce& force);
    /** s at the positions; with computeGradient, ds/dx of uniqueAtoms in atomGradient. */
    double computeCoordination(OpenMM::ContextImpl& context, bool computeGradient);
    /** Sorts the entries into a cell grid (one work item per cell); false where a grid does not apply. */
    bool buildCellGrid(const std::vector<OpenMM::Vec3>& positions, const OpenMM::Vec3* box);
    /** Runs the work items on the thread pool; returns s. */
    template <class Sigma, class Image>
    double runItems(OpenMM::ThreadPool& threads, const Sigma& sigma, const Image& image, bool computeGradient);
    /** Work items first, first + stride, ... into itemSums (the AVX2 + FMA build where the CPU has it). */
    template <bool WithGradient, bool Oriented, class Sigma, class Image>
    void processItems(int first, int stride, const Sigma& sigma, const Image& image, double* gradient,
                      CpuCoordinationCandidates& candidates);
#if COORDINATION_CPU_AVX2
    template <bool WithGradient, bool Oriented, class Sigma, class Image>
    void processItemsAvx2(int first, int stride, const Sigma& sigma, const Image& image, double* gradient,
                          CpuCoordinationCandidates& candidates);
#endif
    template <bool WithGradient, bool Oriented, class Sigma, class Image>
    double processItem(int item, const Sigma& sigma, const Image& image, double* gradient,
                       CpuCoordinationCandidates& candidates, long long& candidatePairs) const;

    CoordinationForce::Mode mode;
    std::vector<int> groupA, groupB;
    std::vector<int> uniqueAtoms;          // every atom of the groups, once
    std::vector<int> uniqueA, uniqueB;     // slot -> index into uniqueAtoms
    bool periodic;
    double cutoff;
    bool useAvx2 = false;                  // the CPU has AVX2 and FMA (and COORDINATION_CPU_NO_AVX2 is not set)
    std::unique_ptr<SwitchingFunctionEvaluator> switchingFunction;
    std::unique_ptr<RationalSwitchingFunction> rational; // the Rational type's inline path
    bool evenRational;                     // m = 2n, n even, d0 = 0: sigma of r^2 (no square root)
    double r0;
    int n;
    CoordinationEnergyFunction energyFunction;
    std::vector<WorkItem> allPairItems;    // all pairs or Pair mode: depend on the group sizes only

    // Per evaluation.
    bool useCells;
    CpuCoordinationEntries entriesA, entriesB; // by cell, or in group order
    CpuCoordinationCellGrid grid;
    std::vector<WorkItem> items;
    std::vector<double> itemSums;
    std::vector<long long> itemPairs;      // the pairs each work item tested against the cutoff
    std::vector<std::vector<double>> threadGradients; // per thread: x, y, z over the entries (A's, then B's)
    std::vector<CpuCoordinationCandidates> threadCandidates; // per thread
    std::vector<OpenMM::Vec3> atomGradient;             // over uniqueAtoms
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_KERNEL_H_*/
