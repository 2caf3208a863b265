#include "CpuCoordinationKernels.h"
#include "CpuCoordinationNumberTerm.h"
#include "CpuPerAtomVectorTerm.h"
#include "openmm/cpu/CpuPlatform.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/reference/ReferencePlatform.h"
#include <algorithm>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

template <class Interface>
void CpuPerAtomForceKernel<Interface>::initialize(const System& system, const ResolvedPerAtomForce& force) {
    setParameters(force);
}

template <class Interface>
void CpuPerAtomForceKernel<Interface>::copyParametersToContext(ContextImpl& context,
                                                               const ResolvedPerAtomForce& force) {
    setParameters(force);
}

template <class Interface> void CpuPerAtomForceKernel<Interface>::setParameters(const ResolvedPerAtomForce& force) {
    engine.setGroups(force);
    numCentral = force.numCentral;
    numOwnB = force.partnerBoundary();
    reductions = PerAtomReductions(force);
    steps.reset(new PerAtomSteps(force.perAtom));
    numComponents = force.perAtom.numComponents;
    rPower = force.perAtom.rPower;
    powerTerm = (force.perAtom.pairTerm == ResolvedPerAtom::PairTerm::SwitchTimesPower);
    parity.resize(numComponents);
    for (int c = 0; c < numComponents; c++)
        parity[c] = steps->componentParity(c);
    repeatedSlots.clear();
    // A repeated atom's values are its first slot's, where the two slots have the same pairs (with the neighbours'
    // own partners, a central slot and a neighbour's do not).
    const int numUnique = force.uniqueParticles.size();
    vector<int> firstSlot(2 * numUnique, -1);
    for (int slot = 0; slot < (int)force.groupA.size(); slot++) {
        const bool ownPairs = (numOwnB < 0 || slot < numCentral);
        int& first = firstSlot[force.uniqueA[slot] + (ownPairs ? 0 : numUnique)];
        if (first < 0)
            first = slot;
        else
            repeatedSlots.push_back({slot, first});
    }
    local.reset(force.perAtom.localStep == ResolvedPerAtom::LocalStep::None ? nullptr : new CpuLocalStep());
    if (local)
        local->setParameters(force, *steps, repeatedSlots);
}

template <class Interface>
template <bool Forces>
void CpuPerAtomForceKernel<Interface>::runNumberPass(ContextImpl& context) {
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    const ResolvedPairGroups& groups = engine.getGroups();
    const bool self = (groups.mode == PairSwitchingForce::Self);
    // Oriented pairs matter where the minimum image can meet a half-box tie: Self's forces in a periodic box.
    const bool oriented = (Forces && self && groups.periodic);
    withForms(engine, context, [&](const auto& sigma, const auto& image) {
        using Sigma = std::decay_t<decltype(sigma)>;
        using Image = std::decay_t<decltype(image)>;
        // CpuCoordinationNumberTerm is sigma r^p alone; every other pair term goes through PerAtomSteps.
        if (numComponents > 1 || !powerTerm || numOwnB >= 0) {
            withFlags(
                [&](auto selfPairs, auto orientedPairs) {
                    constexpr bool Self = decltype(selfPairs)::value;
                    using Term = CpuPerAtomVectorTerm<Forces, Self, Forces && Self&& decltype(orientedPairs)::value>;
                    runPass(engine, threads,
                            Term{steps.get(), parity.data(), entryWeights.data(), numComponents, numCentral, numOwnB},
                            sigma, image);
                },
                self, oriented);
            return;
        }
        // The power is a template argument only where the vectorized loop could run (it takes p = 0).
        constexpr bool SimdForms = (Sigma::Simd && Image::Simd);
        withFlags(
            [&](auto selfPairs, auto orientedPairs, auto withPower) {
                constexpr bool Self = decltype(selfPairs)::value;
                using Term = CpuCoordinationNumberTerm<Forces, Self, Forces && Self&& decltype(orientedPairs)::value,
                                                       SimdForms&& decltype(withPower)::value>;
                runPass(engine, threads, Term{rPower, entryWeights.data()}, sigma, image);
            },
            self, oriented, SimdForms && rPower != 0.0);
    });
}

template <class Interface>
void CpuPerAtomForceKernel<Interface>::computeNumbers(ContextImpl& context, vector<double>& numbers,
                                                      vector<double>& vectors) {
    const int sizeA = engine.getGroups().groupA.size();
    const int d = reductions.getNumVectorComponents();
    if (!engine.prepare(context)) {
        numbers.assign(numCentral, std::numeric_limits<double>::quiet_NaN());
        vectors.assign((long long)sizeA * d, std::numeric_limits<double>::quiet_NaN());
        entryValues.assign((long long)sizeA * numComponents, std::numeric_limits<double>::quiet_NaN());
        return;
    }
    runNumberPass<false>(context);
    const CpuCoordinationEntries& entriesA = engine.getEntriesA();
    entryValues = engine.getEntryValues();
    ResolvedPerAtom::applyNonFiniteRule(entryValues);
    numbers.resize(sizeA);
    if (local) {
        // The values per slot (a repeated atom's copied from its first slot), then s of the local step.
        slotValues.resize((long long)sizeA * numComponents);
        for (int e = 0; e < sizeA; e++)
            std::copy_n(&entryValues[(long long)e * numComponents], numComponents,
                        &slotValues[(long long)entriesA.slot[e] * numComponents]);
        for (const std::pair<int, int>& repeated : repeatedSlots)
            std::copy_n(&slotValues[(long long)repeated.second * numComponents], numComponents,
                        &slotValues[(long long)repeated.first * numComponents]);
        if (!local->computeValues(context, slotValues, numbers))
            numbers.assign(numCentral, std::numeric_limits<double>::quiet_NaN());
        return;
    }
    for (int e = 0; e < sizeA; e++)
        numbers[(int)entriesA.slot[e]] = steps->atomStep(&entryValues[(long long)e * numComponents], nullptr);
    for (const std::pair<int, int>& repeated : repeatedSlots)
        numbers[repeated.first] = numbers[repeated.second];
    ResolvedPerAtom::applyNonFiniteRule(numbers);
    vectors.resize((long long)sizeA * d);
    if (d == 0)
        return;
    for (int e = 0; e < sizeA; e++)
        steps->averageVector(&entryValues[(long long)e * numComponents], &vectors[(long long)entriesA.slot[e] * d]);
    for (const std::pair<int, int>& repeated : repeatedSlots)
        std::copy_n(&vectors[(long long)repeated.second * d], d, &vectors[(long long)repeated.first * d]);
}

template <class Interface>
void CpuPerAtomForceKernel<Interface>::applyForces(ContextImpl& context, const vector<double>& weights,
                                                   const vector<double>& vectorWeights, vector<Vec3>& forces) {
    const CpuCoordinationEntries& entriesA = engine.getEntriesA();
    const int sizeA = entriesA.size();
    entryWeights.assign((long long)sizeA * numComponents, 0.0);
    if (local) {
        // The local step's own forces, and dE/dv per slot from it.
        vector<double> dEdValues;
        local->applyForces(context, weights, dEdValues, forces);
        for (int e = 0; e < sizeA; e++)
            std::copy_n(&dEdValues[(long long)entriesA.slot[e] * numComponents], numComponents,
                        &entryWeights[(long long)e * numComponents]);
    }
    else
        for (int e = 0; e < sizeA; e++) {
            // dE/dq dq/dv (none where dE/dq is 0), then dE/du du/dv of the vector reductions; an entry repeated in A
            // has a slot each, and each slot adds its own share.
            const double* values = &entryValues[(long long)e * numComponents];
            double* entryWeight = &entryWeights[(long long)e * numComponents];
            const double weight = weights[(int)entriesA.slot[e]];
            if (weight != 0.0) {
                steps->atomStep(values, entryWeight);
                for (int c = 0; c < numComponents; c++)
                    entryWeight[c] *= weight;
            }
            if (!vectorWeights.empty())
                steps->averageVectorBackward(values, vectorWeights.data(), entryWeight);
        }
    runNumberPass<true>(context);
    engine.applyGradient(forces, 1.0);
}

template <class Interface>
double CpuPerAtomForceKernel<Interface>::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    ReferencePlatform::PlatformData& data = *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
    vector<double> numbers, vectors, weights, vectorWeights;
    computeNumbers(context, numbers, vectors);
    const double energy =
        reductions.evaluateEnergy(context, numbers, vectors, weights, vectorWeights, data.energyParameterDerivatives);
    // No weight: no force (also where the energy is not finite, or a position).
    const auto nonZero = [](double w) { return w != 0.0; };
    if (includeForces && (std::any_of(weights.begin(), weights.end(), nonZero) ||
                          std::any_of(vectorWeights.begin(), vectorWeights.end(), nonZero))) {
        applyForces(context, weights, vectorWeights, *data.forces);
    }
    return energy;
}

template <class Interface>
void CpuPerAtomForceKernel<Interface>::getPerAtomValues(ContextImpl& context, vector<double>& values) {
    vector<double> vectors;
    computeNumbers(context, values, vectors);
}

template <class Interface>
void CpuPerAtomForceKernel<Interface>::getCollectiveVariableValues(ContextImpl& context, vector<double>& values) {
    vector<double> numbers, vectors;
    computeNumbers(context, numbers, vectors);
    reductions.evaluate(numbers, vectors, values);
}

template class CoordinationPlugin::CpuPerAtomForceKernel<CalcCoordinationNumberForceKernel>;
template class CoordinationPlugin::CpuPerAtomForceKernel<CalcSteinhardtForceKernel>;
template class CoordinationPlugin::CpuPerAtomForceKernel<CalcShellFunctionForceKernel>;
