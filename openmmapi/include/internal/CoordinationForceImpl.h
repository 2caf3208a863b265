#ifndef OPENMM_COORDINATIONFORCEIMPL_H_
#define OPENMM_COORDINATIONFORCEIMPL_H_

#include "CoordinationForce.h"
#include "CoordinationKernels.h"
#include "internal/ResolvedCoordinationForce.h"
#include "openmm/Kernel.h"
#include "openmm/internal/ForceImpl.h"
#include "lepton/ParsedExpression.h"
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
    void updateParametersInContext(OpenMM::ContextImpl& context);
    /** The platform's kernel (tests check which SwitchingPath it follows). */
    CalcCoordinationForceKernel& getKernel();
    /**
     * Check every setting of a force against a system with numParticles particles (throws an
     * OpenMMException that names the bad value and what is allowed) and resolve it: the description
     * every kernel is initialized from, with each setting derived and each expression parsed once.
     */
    static ResolvedCoordinationForce resolve(const CoordinationForce& force, int numParticles);

private:
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
