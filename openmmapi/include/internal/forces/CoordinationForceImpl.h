#ifndef OPENMM_COORDINATIONFORCEIMPL_H_
#define OPENMM_COORDINATIONFORCEIMPL_H_

#include "CoordinationForce.h"
#include "CoordinationKernels.h"
#include "internal/ResolvedCoordinationForce.h"
#include "openmm/Kernel.h"
#include "openmm/internal/ForceImpl.h"
#include "lepton/ParsedExpression.h"
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace CoordinationPlugin {

/**
 * The internal implementation of CoordinationForce: validates the force and drives the platform's kernel.
 */
class OPENMM_EXPORT_COORDINATION CoordinationForceImpl : public OpenMM::ForceImpl {
public:
    CoordinationForceImpl(const CoordinationForce& owner);
    void initialize(OpenMM::ContextImpl& context) override;
    const CoordinationForce& getOwner() const override {
        return owner;
    }
    void updateContextState(OpenMM::ContextImpl& context, bool& forcesInvalid) override {}
    double calcForcesAndEnergy(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy,
                               int groups) override;
    std::map<std::string, double> getDefaultParameters() override;
    std::vector<std::string> getKernelNames() override;
    double getCoordination(OpenMM::ContextImpl& context);
    long long getNumCandidatePairs(OpenMM::ContextImpl& context);
    /** The collective variables' values (CoordinationForce::getCollectiveVariableValues). */
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values);
    /** A CoordinationNumberForce's c_i, in group A's order. */
    void getCoordinationNumbers(OpenMM::ContextImpl& context, std::vector<double>& values);
    /**
     * The Impl that evaluates owner in context: its own, or that of the inner System's copy of owner where it is
     * a collective variable of a CustomCVForce (with syncState, the inner contexts first get the outer state).
     * Throws an OpenMMException naming method if neither holds the force.
     */
    static CoordinationForceImpl& inContext(OpenMM::Context& context, const CoordinationForce& owner, bool syncState,
                                            const std::string& method, OpenMM::ContextImpl*& contextImpl);
    void updateParametersInContext(OpenMM::ContextImpl& context);
    /** The platform's kernel (tests check which SwitchingPath it follows). */
    CalcCoordinationForceKernel& getKernel();
    /**
     * Check every setting of a force against a System (throws an OpenMMException that names the bad value and
     * what is allowed) and resolve it: the description every kernel is initialized from, with each setting
     * derived and each expression parsed once. The System gives the number of particles, the masses of centres
     * of mass and whether centres are made whole (its periodic boundary conditions).
     */
    static ResolvedCoordinationForce resolve(const CoordinationForce& force, const OpenMM::System& system);
    /**
     * The same check without a System (the PLUMED translator's check of its input): numParticles particles, each
     * of mass 1, in a System without periodic boundary conditions.
     */
    static ResolvedCoordinationForce resolve(const CoordinationForce& force, int numParticles);
    /**
     * Check the switching-function settings of force (type, r0, d0, dmax, stretch and the type's own parameters;
     * an OpenMMException names a bad one) and return their constants: the pair function of resolve(), and the
     * value functions of a CoordinationNumberForce's MoreThan and LessThan reductions.
     */
    static SwitchingFunctionConstants resolveSwitching(const CoordinationForce& force);

private:
    /** resolve(), with the force's centres resolved (against the System or without one) by resolveCenters. */
    static ResolvedCoordinationForce resolveWith(const CoordinationForce& force, int numParticles,
                                                 const std::function<ResolvedCenters(const CoordinationForce&)>& resolveCenters);
    /**
     * Parse the energy expression, check that it uses only "s" and the force's global parameters,
     * and return it optimized (the derivative with respect to s in derivative).
     */
    static Lepton::ParsedExpression parseEnergy(const CoordinationForce& force, Lepton::ParsedExpression& derivative);
    /**
     * Throw if the energy expression, global parameter names or requested energy-parameter derivatives
     * differ (updateParametersInContext() cannot change them: a GPU kernel compiles them).
     */
    static void checkEnergyUnchanged(const ResolvedCoordinationForce& before, const ResolvedCoordinationForce& after);
    const CoordinationForce& owner;
    ResolvedCoordinationForce resolved;
    OpenMM::Kernel kernel;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATIONFORCEIMPL_H_*/
