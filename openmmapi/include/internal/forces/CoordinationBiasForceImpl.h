#ifndef OPENMM_COORDINATION_COORDINATIONBIASFORCEIMPL_H_
#define OPENMM_COORDINATION_COORDINATIONBIASFORCEIMPL_H_

#include "CoordinationBiasForce.h"
#include "CoordinationKernels.h"
#include "internal/windowsExportCoordination.h"
#include "openmm/Kernel.h"
#include "openmm/OpenMMException.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/ForceImpl.h"
#include <map>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

namespace CoordinationPlugin {

/**
 * The ForceImpl of every force of this plugin: it drives the force's kernel (a CalcCoordinationBiasKernel), adds
 * the energy of its force group, gives the global parameters' defaults and the collective variables, and finds the
 * force in a Context. ResolvedForceImpl adds the resolution that each force's Impl defines.
 */
class OPENMM_EXPORT_COORDINATION CoordinationBiasForceImpl : public OpenMM::ForceImpl {
public:
    explicit CoordinationBiasForceImpl(const CoordinationBiasForce& owner) : owner(owner) {}
    const CoordinationBiasForce& getOwner() const override { return owner; }
    void updateContextState(OpenMM::ContextImpl& context, bool& forcesInvalid) override {}
    double calcForcesAndEnergy(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy,
                               int groups) override;
    std::map<std::string, double> getDefaultParameters() override;
    /** The collective variables' values (CoordinationBiasForce::getCollectiveVariableValues). */
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values);
    /**
     * Resolve the force again and copy it into the kernel (CoordinationBiasForce::updateParametersInContext); an
     * OpenMMException if what a Context cannot change has changed.
     */
    virtual void updateParametersInContext(OpenMM::ContextImpl& context) = 0;
    /**
     * Copy every setting of from into to, two forces of this Impl's class (updateParametersInContext() of a force
     * whose copy in a CustomCVForce's inner System evaluates it).
     */
    virtual void copySettings(const CoordinationBiasForce& from, CoordinationBiasForce& to) const = 0;
    /**
     * The Impl of class ImplType that evaluates owner in context: its own, or that of the inner System's copy of
     * owner where it is a collective variable of a CustomCVForce (whose inner contexts first get the outer state).
     * Throws an OpenMMException naming method if neither holds the force.
     */
    template <class ImplType>
    static ImplType& inContextAs(OpenMM::Context& context, const CoordinationBiasForce& owner,
                                 const std::string& method, OpenMM::ContextImpl*& contextImpl) {
        return dynamic_cast<ImplType&>(find(context, owner, method, contextImpl));
    }

protected:
    OpenMM::Kernel kernel;

private:
    static CoordinationBiasForceImpl& find(OpenMM::Context& context, const CoordinationBiasForce& owner,
                                           const std::string& method, OpenMM::ContextImpl*& contextImpl);
    const CoordinationBiasForce& owner;
};

/**
 * The ForceImpl of a force of class ForceClass, resolved into a description of type Resolved and evaluated by a kernel
 * of type Kernel; Derived (the force's Impl, CRTP) defines `static Resolved resolve(const ForceClass&, const
 * OpenMM::System&)`, called at context creation and at every updateParametersInContext(), and `static void
 * checkUpdatable(const Resolved& before, const Resolved& after)`, the check of what a context cannot change. The kernel
 * is initialized from the description and takes the new ones.
 */
template <class Derived, class ForceClass, class Resolved, class Kernel>
class ResolvedForceImpl : public CoordinationBiasForceImpl {
public:
    explicit ResolvedForceImpl(const ForceClass& owner) : CoordinationBiasForceImpl(owner), owner(owner) {}
    void initialize(OpenMM::ContextImpl& context) override {
        const OpenMM::System& system = context.getSystem();
        resolved = Derived::resolve(owner, system);
        kernel = context.getPlatform().createKernel(kernelName(), context);
        getKernel().initialize(system, resolved);
    }
    std::vector<std::string> getKernelNames() override { return {kernelName()}; }
    void updateParametersInContext(OpenMM::ContextImpl& context) override {
        Resolved next = Derived::resolve(owner, context.getSystem());
        Derived::checkUpdatable(resolved, next);
        getKernel().copyParametersToContext(context, next);
        resolved = std::move(next);
        context.systemChanged();
    }
    void copySettings(const CoordinationBiasForce& from, CoordinationBiasForce& to) const override {
        if (typeid(from) != typeid(ForceClass) || typeid(to) != typeid(ForceClass))
            throw OpenMM::OpenMMException(from.getForceClassName() + ": internal error: settings copied between forces "
                                                                     "of different classes");
        static_cast<ForceClass&>(to) = static_cast<const ForceClass&>(from);
    }
    /** The platform's kernel. */
    Kernel& getKernel() { return kernel.getAs<Kernel>(); }

protected:
    /** The name of the kernel that evaluates the force as it is set (Kernel::Name() unless Derived says otherwise). */
    virtual std::string kernelName() const { return Kernel::Name(); }
    /** The force. */
    const ForceClass& getOwner() const { return owner; }

private:
    const ForceClass& owner;
    Resolved resolved;
};

} // namespace CoordinationPlugin

#endif /*OPENMM_COORDINATION_COORDINATIONBIASFORCEIMPL_H_*/
