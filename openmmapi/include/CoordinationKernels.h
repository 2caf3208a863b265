#ifndef COORDINATION_KERNELS_H_
#define COORDINATION_KERNELS_H_

#include "internal/contactmap/ResolvedContactMap.h"
#include "internal/forces/ResolvedCoordinationForce.h"
#include "internal/forces/ResolvedPerAtomForce.h"
#include "openmm/KernelImpl.h"
#include "openmm/Platform.h"
#include "openmm/System.h"
#include "openmm/internal/ContextImpl.h"
#include <string>
#include <vector>

/*
 * The kernel interfaces every platform implements (as OpenMM's own kernels.h): one per force class, each on the
 * resolved description of its force.
 */

namespace CoordinationPlugin {

/**
 * What every force kernel of this plugin does, whatever its force (CalcCoordinationForceKernel,
 * the per-atom forces' CalcPerAtomForceKernel, CalcContactMapForceKernel): evaluate the energy and forces, and report the
 * collective variables. Each force's kernel adds its initialize() and copyParametersToContext(), which take the
 * force's resolved description (validated, every setting derived once by its ForceImpl), so no kernel reads the
 * force itself.
 */
class CalcCoordinationBiasKernel : public OpenMM::KernelImpl {
public:
    CalcCoordinationBiasKernel(const std::string& name, const OpenMM::Platform& platform)
        : OpenMM::KernelImpl(name, platform) {}
    /**
     * Add the force's forces to the context's force buffer (if includeForces) and return its energy (if
     * includeEnergy; otherwise the return value is unspecified; the GPU platforms add it to the context's energy
     * buffer and return 0).
     */
    virtual double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) = 0;
    /**
     * The collective variables' values at the context's current positions, in the order of the force's
     * getCollectiveVariableName(); NaN where there is no finite answer (a coordinate that is not finite).
     */
    virtual void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
};

/**
 * The part of a force's kernel interface that takes its resolved description (of type Resolved): initialize() from it,
 * and copyParametersToContext() with a new one (what a context cannot change, the ForceImpl has checked).
 */
template <class Resolved>
class CalcResolvedForceKernel : public CalcCoordinationBiasKernel {
public:
    CalcResolvedForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcCoordinationBiasKernel(name, platform) {}
    /** Initialize the kernel from the force's resolved description (its ForceImpl's resolve()). */
    virtual void initialize(const OpenMM::System& system, const Resolved& force) = 0;
    /** Copy changed settings into the kernel, from the force's new resolved description. */
    virtual void copyParametersToContext(OpenMM::ContextImpl& context, const Resolved& force) = 0;
};

/**
 * The kernel a platform implements to evaluate a CoordinationForce: s = sum over the pairs of sigma(r), its one
 * collective variable.
 */
class CalcCoordinationForceKernel : public CalcResolvedForceKernel<ResolvedCoordinationForce> {
public:
    static std::string Name() {
        return "CalcCoordinationForce";
    }
    CalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcResolvedForceKernel(name, platform) {}
    /**
     * Evaluate s once at the context's current positions and return how many pairs of group entries that
     * evaluation tested against the cutoff (CoordinationForce::getNumCandidatePairsInContext).
     */
    virtual long long getNumCandidatePairs(OpenMM::ContextImpl& context) = 0;
    /**
     * How the kernel's pair loop evaluates sigma: the SwitchingPath it compiled (GPU) or took in its last
     * evaluation (CPU), which must be the resolved description's; the Reference platform, the oracle, always
     * evaluates sigma(r) as defined (Distance). For tests and diagnostics.
     */
    virtual SwitchingPath getSwitchingPath() const = 0;
};

/**
 * The kernel a platform implements to evaluate a per-atom force (a PerAtomForce): the per-atom engine
 * (ResolvedPerAtom: a pass over the switched pairs into per-atom values, the per-atom step, the reductions of them
 * and the energy, the passes that apply the forces), its collective variables the reductions. Each force class has
 * its kernel name (below), and another for a force with a local step (LocalName()), so that a platform whose engine
 * lacks a force's composition does not offer it and OpenMM chooses one that does.
 */
class CalcPerAtomForceKernel : public CalcResolvedForceKernel<ResolvedPerAtomForce> {
public:
    CalcPerAtomForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcResolvedForceKernel(name, platform) {}
    /**
     * The per-atom values q_i at the context's current positions, one per entry of group A in its order; all NaN
     * where a coordinate is not finite.
     */
    virtual void getPerAtomValues(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
    /**
     * How the kernel's pair loop evaluates sigma (see CalcCoordinationForceKernel::getSwitchingPath()).
     */
    virtual SwitchingPath getSwitchingPath() const = 0;
};

/**
 * The per-atom kernel of a CoordinationNumberForce (its q_i the coordination numbers c_i).
 */
class CalcCoordinationNumberForceKernel : public CalcPerAtomForceKernel {
public:
    static std::string Name() {
        return "CalcCoordinationNumberForce";
    }
    /** The name of the kernel of a force with a local step (PerAtomForce::setLocalStep()). */
    static std::string LocalName() {
        return "CalcLocalCoordinationNumberForce";
    }
    CalcCoordinationNumberForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcPerAtomForceKernel(name, platform) {}
};

/**
 * The per-atom kernel of a SteinhardtForce (its q_i PLUMED's Q_l).
 */
class CalcSteinhardtForceKernel : public CalcPerAtomForceKernel {
public:
    static std::string Name() {
        return "CalcSteinhardtForce";
    }
    /** The name of the kernel of a force with a local step (PerAtomForce::setLocalStep()). */
    static std::string LocalName() {
        return "CalcLocalSteinhardtForce";
    }
    CalcSteinhardtForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcPerAtomForceKernel(name, platform) {}
};

/**
 * The per-atom kernel of a ShellFunctionForce (its q_i the s_i of PLUMED's SIMPLECUBIC, TETRAHEDRAL, FCCUBIC and
 * COORDINATION_SHELL_FUNCTION).
 */
class CalcShellFunctionForceKernel : public CalcPerAtomForceKernel {
public:
    static std::string Name() {
        return "CalcShellFunctionForce";
    }
    /** The name of the kernel of a force with a local step (PerAtomForce::setLocalStep()). */
    static std::string LocalName() {
        return "CalcLocalShellFunctionForce";
    }
    CalcShellFunctionForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcPerAtomForceKernel(name, platform) {}
};

/**
 * The kernel of a ContactMapForce, implemented by each platform from a ResolvedContactMap.
 */
class CalcContactMapForceKernel : public CalcResolvedForceKernel<ResolvedContactMap> {
public:
    static std::string Name() {
        return "CalcContactMapForce";
    }
    CalcContactMapForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcResolvedForceKernel(name, platform) {}
    /**
     * Every contact's value coord_n at the context's positions (ContactMapForce::getContactValues).
     */
    virtual void getContactValues(OpenMM::ContextImpl& context, std::vector<double>& values) = 0;
};

} // namespace CoordinationPlugin

#endif /*COORDINATION_KERNELS_H_*/
