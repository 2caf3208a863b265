#ifndef REFERENCE_COORDINATION_KERNELS_H_
#define REFERENCE_COORDINATION_KERNELS_H_

#include "CoordinationKernels.h"
#include "ReferencePairLoop.h"
#include "ReferencePerAtomEngine.h"
#include "internal/energy/EnergyEvaluator.h"
#include "internal/peratom/PerAtomReductions.h"
#include "internal/switching/SwitchingFunctionEvaluator.h"
#include "openmm/Vec3.h"
#include <memory>
#include <string>
#include <vector>

/*
 * The Reference platform's kernels, one per force (the sources in src/, one per kernel); its ContactMapForce kernel is
 * the host platforms' ContactMapHostKernel.
 */

namespace CoordinationPlugin {

/**
 * The Reference platform's CoordinationForce kernel: a plain double-precision loop over the pairs
 * (ReferencePairLoop), the oracle the other platforms are tested against.
 */
class ReferenceCalcCoordinationForceKernel : public CalcCoordinationForceKernel {
public:
    ReferenceCalcCoordinationForceKernel(const std::string& name, const OpenMM::Platform& platform)
        : CalcCoordinationForceKernel(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedCoordinationForce& force) override;
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override;
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override;
    long long getNumCandidatePairs(OpenMM::ContextImpl& context) override;
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedCoordinationForce& force) override;
    /** Always Distance: the oracle evaluates sigma(r) as defined, whatever the resolved path. */
    SwitchingPath getSwitchingPath() const override { return SwitchingPath::Distance; }

private:
    void setParameters(const ResolvedCoordinationForce& force);
    /** s at the positions; if gradient is not null, ds/dx of every member (particles, then centres) is added to it. */
    double computeCoordination(OpenMM::ContextImpl& context, std::vector<OpenMM::Vec3>* gradient) const;
    std::unique_ptr<ResolvedCoordinationForce> resolved;
    std::unique_ptr<SwitchingFunctionEvaluator> switchingFunction;
    EnergyEvaluator energy;
    std::vector<OpenMM::Vec3> gradient;
};

/**
 * The Reference platform's kernel of a per-atom force (Interface: CalcCoordinationNumberForceKernel,
 * CalcSteinhardtForceKernel): the per-atom engine's steps (ReferencePerAtomEngine) and the reductions and energy of
 * their numbers (PerAtomReductions), the oracle of the other platforms.
 */
template <class Interface>
class ReferencePerAtomForceKernel : public Interface {
public:
    ReferencePerAtomForceKernel(const std::string& name, const OpenMM::Platform& platform) : Interface(name, platform) {}
    void initialize(const OpenMM::System& system, const ResolvedPerAtomForce& force) override {
        engine.reset(new ReferencePerAtomEngine(force));
        reductions = PerAtomReductions(force);
    }
    void copyParametersToContext(OpenMM::ContextImpl& context, const ResolvedPerAtomForce& force) override {
        initialize(context.getSystem(), force);
    }
    double execute(OpenMM::ContextImpl& context, bool includeForces, bool includeEnergy) override {
        OpenMM::ReferencePlatform::PlatformData& data = ReferencePairLoop::dataOf(context);
        const ReferencePerAtomEngine::Evaluation evaluation = engine->evaluate(data);
        std::vector<double> weights, vectorWeights;
        const double energy = reductions.evaluateEnergy(context, evaluation.numbers, evaluation.vectors, weights,
                                                        vectorWeights, data.energyParameterDerivatives);
        if (includeForces)
            engine->applyForces(data, evaluation, weights, vectorWeights);
        return energy;
    }
    void getCollectiveVariableValues(OpenMM::ContextImpl& context, std::vector<double>& values) override {
        const ReferencePerAtomEngine::Evaluation evaluation = engine->evaluate(ReferencePairLoop::dataOf(context));
        reductions.evaluate(evaluation.numbers, evaluation.vectors, values);
    }
    void getPerAtomValues(OpenMM::ContextImpl& context, std::vector<double>& values) override {
        values = engine->evaluate(ReferencePairLoop::dataOf(context)).numbers;
    }
    /** Always Distance: the oracle evaluates sigma(r) as defined, whatever the resolved path. */
    SwitchingPath getSwitchingPath() const override { return SwitchingPath::Distance; }

private:
    std::unique_ptr<ReferencePerAtomEngine> engine;
    PerAtomReductions reductions;
};

} // namespace CoordinationPlugin

#endif /*REFERENCE_COORDINATION_KERNELS_H_*/
