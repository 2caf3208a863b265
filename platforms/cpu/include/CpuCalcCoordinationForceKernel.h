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

namespace CoordinationPlugin {

/**
 * The CPU platform's CoordinationForce kernel: double precision, on OpenMM's thread pool (the
 * platform's Threads property), with a cell list for a finite cutoff.
 *
 * The pairs are cut into fixed chunks (rows of group A, or cells of the cell list) that do not depend
 * on the number of threads; s is summed per chunk and the chunks' sums are added in chunk order, so s is
 * the same for any number of threads. Thread t takes chunks t, t + T, t + 2T, ... (static: run to run
 * the same thread adds the same pairs), and adds ds/dx into its own buffer over the force's atoms; the
 * buffers are summed in thread order. Results are bitwise reproducible for a given thread count.
 *
 * Cell list: a periodic rectangular box with at least 3 cells of width >= dmax along each axis, or no
 * PBC (cells over the atoms' bounding box), and at least 64 cells. Otherwise (triclinic boxes, cutoffs
 * longer than a third of the box, positions that are not finite) every pair is tested, with the exact
 * minimum image of the Reference kernel (in a rectangular box by one conditional shift per axis). The
 * default rational function (m = 2n, n even, d0 = 0) is evaluated from r^2, without a square root.
 */
class CpuCalcCoordinationForceKernel : public CalcCoordinationForceKernel {
public:
    CpuCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcCoordinationForceKernel(name, platform) {}
    ~CpuCalcCoordinationForceKernel();
    void initialize(const OpenMM::System& system, const CoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    double getCoordination(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const CoordinationForce& force) override;

private:
    void setPairParameters(const CoordinationForce& force);
    /** s at the positions; with computeGradient, ds/dx of the force's atoms in the threads' buffers. */
    double computeCoordination(OpenMM::ContextImpl& context, bool computeGradient);

    CoordinationForce::Mode mode;
    std::vector<int> groupA, groupB;
    std::vector<int> uniqueAtoms;          // every atom of the groups, once
    std::vector<int> uniqueA, uniqueB;     // slot -> index into uniqueAtoms
    bool periodic;
    double cutoff;
    std::unique_ptr<SwitchingFunctionEvaluator> switchingFunction;
    std::unique_ptr<RationalSwitchingFunction> rational; // the Rational type's inline path
    bool evenRational;                     // m = 2n, n even, d0 = 0: sigma of r^2 (no square root)
    double r0;
    int n;
    CoordinationEnergyFunction energyFunction;
    std::vector<std::vector<OpenMM::Vec3>> threadGradients; // per thread, over uniqueAtoms
    std::vector<double> chunkSums;
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_KERNEL_H_*/
