#ifndef CPU_COORDINATION_KERNELS_H_
#define CPU_COORDINATION_KERNELS_H_

#include "CoordinationKernels.h"
#include "CpuPairEngine.h"
#include "internal/contactmap/ContactMapHostKernel.h"
#include "internal/energy/EnergyEvaluator.h"
#include "CpuLocalStep.h"
#include "internal/peratom/PerAtomReductions.h"
#include "internal/peratom/PerAtomSteps.h"
#include "openmm/Vec3.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

/* The CPU platform's kernels, one per force (the sources in src/, one per kernel). */

namespace CoordinationPlugin {

/**
 * The CPU platform's CoordinationForce kernel: s = the sum over the pairs of sigma(r), in one pass of the pair
 * engine (CpuPairEngine, whose comment gives the work items, the dispatch and the minimum image) with the term
 * CpuSwitchSumTerm; s is summed per work item and the items' sums added in item order, so it is the same for any
 * number of threads, and its gradient is taken in the same pass. E(s) and dE/ds come from the EnergyEvaluator.
 */
class CpuCalcCoordinationForceKernel : public CalcCoordinationForceKernel {
public:
    CpuCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcCoordinationForceKernel(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    /** {s} */
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    long long getNumCandidatePairs(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) override;
    SwitchingPath getSwitchingPath() const override { return engine.getSwitchingPath(); }

private:
    /** s at the positions (NaN for a non-finite coordinate); with computeGradient, ds/dx in the engine. */
    double computeCoordination(OpenMM::ContextImpl& context, bool computeGradient);
    CpuPairEngine engine;
    EnergyEvaluator energy;
};

/**
 * The CPU platform's kernel of a per-atom force (Interface: CalcCoordinationNumberForceKernel,
 * CalcSteinhardtForceKernel): the per-atom engine's steps (ResolvedPerAtom) on the pair engine (CpuPairEngine, whose
 * comment gives the work items, the dispatch and the minimum image), in two passes over the same work items: the
 * values of A's entries (the term CpuCoordinationNumberTerm for one component, vectorized where it can be;
 * CpuPerAtomVectorTerm for several, scalar; per-thread buffers summed in thread order; an atom listed more than once in
 * A takes its first entry's values in every entry, the same sums that another order of the pairs would round
 * differently), the per-atom step (PerAtomSteps), then PerAtomReductions gives the reductions, the energy and each
 * entry's weights dE/dv, then the forces of the weighted pair terms (per-thread gradient buffers summed in thread
 * order). A non-finite coordinate gives NaN values, a NaN energy and no force.
 */
template <class Interface>
class CpuPerAtomForceKernel : public Interface {
public:
    CpuPerAtomForceKernel(const std::string& name, const OpenMM::Platform& platform) : Interface(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedPerAtomForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    /** The reductions' values. */
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void getPerAtomValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedPerAtomForce& force) override;
    SwitchingPath getSwitchingPath() const override { return engine.getSwitchingPath(); }

private:
    void setParameters(const ResolvedPerAtomForce& force);
    /**
     * q of A's entries in group order, or s with a local step (all NaN for a non-finite position); the entries'
     * values in entryValues; with vector reductions, the vectors u_i in group order into vectors.
     */
    void computeNumbers(OpenMM::ContextImpl& context, std::vector<double>& numbers, std::vector<double>& vectors);
    /**
     * The forces of the weighted pair terms (after computeNumbers), from dE/dq (or dE/ds) per slot of A and dE/du
     * (vectorWeights, the same for every entry), added to forces.
     */
    void applyForces(OpenMM::ContextImpl& context, const std::vector<double>& weights,
                     const std::vector<double>& vectorWeights, std::vector<OpenMM::Vec3>& forces);
    /** One pass over the prepared work items (Forces: the gradient of the weighted terms; else the values). */
    template <bool Forces>
    void runNumberPass(OpenMM::ContextImpl& context);

    CpuPairEngine engine;
    PerAtomReductions reductions;
    std::unique_ptr<PerAtomSteps> steps;            // the pair term and the per-atom step
    int numComponents = 1;                          // values per entry
    int numCentral = 0;                             // the slots of A with a number (ResolvedPerAtomForce)
    int numOwnB = -1; // with the local neighbours' own partners, B's slots of the centrals' pairs; else -1
    double rPower = 0.0;                            // p of the one-component term sigma(r) r^p
    bool powerTerm = true;                          // the pair term is sigma(r) r^p (CpuCoordinationNumberTerm)
    std::vector<double> parity;                     // PerAtomSteps::componentParity of each component
    std::vector<double> entryValues;                // the values of A's entries (numComponents each), entry order
    std::vector<double> entryWeights;               // dE/dv over A's entries (numComponents each), entry order
    std::vector<std::pair<int, int>> repeatedSlots; // (slot of A, the earlier slot of the same atom)
    std::unique_ptr<CpuLocalStep> local;            // the local step, if the force has one
    std::vector<double> slotValues;                 // with a local step: the values per slot of A (slot-major)
};

/** The CPU platform's CoordinationNumberForce kernel. */
using CpuCalcCoordinationNumberForceKernel = CpuPerAtomForceKernel<CalcCoordinationNumberForceKernel>;
/** The CPU platform's SteinhardtForce kernel. */
using CpuCalcSteinhardtForceKernel = CpuPerAtomForceKernel<CalcSteinhardtForceKernel>;
/** The CPU platform's ShellFunctionForce kernel. */
using CpuCalcShellFunctionForceKernel = CpuPerAtomForceKernel<CalcShellFunctionForceKernel>;

/**
 * The CPU platform's ContactMapForce kernel: the host platforms' kernel (ContactMapHostKernel) with the contacts
 * split into fixed ranges run on OpenMM's thread pool. Each contact's value and gradient are written to its
 * own slot, and the sums and forces are then taken in contact order, so the results are bitwise the Reference
 * platform's, for any number of threads.
 */
class CpuCalcContactMapForceKernel : public ContactMapHostKernel {
public:
    CpuCalcContactMapForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : ContactMapHostKernel(name, platform) {}

protected:
    /** The contacts in fixed ranges on OpenMM's thread pool (one range in this thread where there is one). */
    void computeRange(OpenMM::ContextImpl& context, const std::vector<OpenMM::Vec3>& members, const OpenMM::Vec3* box,
                      int numContacts, double* values, OpenMM::Vec3* gradients) override;
};

} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_KERNELS_H_*/
