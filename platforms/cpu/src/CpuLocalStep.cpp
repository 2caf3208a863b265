#include "CpuLocalStep.h"
#include "CpuLocalTerm.h"
#include "openmm/cpu/CpuPlatform.h"
#include <algorithm>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

void CpuLocalStep::setParameters(const ResolvedPerAtomForce& force, const PerAtomSteps& steps,
                                 const vector<std::pair<int, int>>& repeated) {
    engine.setGroups(force.localPairs);
    localSteps.reset(new LocalSteps(force.perAtom, steps));
    numComponents = force.perAtom.numComponents;
    repeatedSlots = repeated;
    numCentral = force.numCentral;
    numSlots = force.groupA.size();
    firstNeighbor = (force.hasLocalNeighbors() ? numCentral : 0);
}

template <bool Forces> void CpuLocalStep::localPass(ContextImpl& context, const vector<double>& data) {
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    const int n = localSteps->getNumSums();
    // Oriented pairs matter where the minimum image can meet a half-box tie: the forces in a periodic box.
    withForms(engine, context, [&](const auto& sigma, const auto& image) {
        withFlags(
            [&](auto orientedPairs) {
                using Term = CpuLocalTerm<Forces, Forces && decltype(orientedPairs)::value>;
                runPass(engine, threads, Term{data.data(), n}, sigma, image);
            },
            Forces && engine.getGroups().periodic);
    });
}

bool CpuLocalStep::computeValues(ContextImpl& context, const vector<double>& slotValues, vector<double>& s) {
    if (!engine.prepare(context))
        return false;
    const int d = localSteps->getNumComponents(), n = localSteps->getNumSums();
    const int slots = slotValues.size() / numComponents;
    values = slotValues;
    local.resize((long long)slots * d);
    for (int slot = 0; slot < slots; slot++)
        localSteps->localVector(&values[(long long)slot * numComponents], &local[(long long)slot * d]);
    // The local sums [W, P] of the local vectors x = [1, u] (0 for a slot that is not a neighbour).
    const CpuCoordinationEntries& entries = engine.getEntriesA();
    entryData.assign((long long)slots * n, 0.0);
    for (int e = 0; e < slots; e++) {
        const int slot = (int)entries.slot[e];
        if (!isNeighbor(slot))
            continue;
        entryData[(long long)e * n] = 1.0;
        std::copy_n(&local[(long long)slot * d], d, &entryData[(long long)e * n + 1]);
    }
    localPass<false>(context, entryData);
    const vector<double>& entrySums = engine.getEntryValues();
    sums.resize((long long)slots * n);
    for (int e = 0; e < slots; e++)
        std::copy_n(&entrySums[(long long)e * n], n, &sums[(long long)entries.slot[e] * n]);
    for (const std::pair<int, int>& repeated : repeatedSlots)
        std::copy_n(&sums[(long long)repeated.second * n], n, &sums[(long long)repeated.first * n]);
    ResolvedPerAtom::applyNonFiniteRule(sums);
    s.resize(numCentral); // the central slots' s_i (the local neighbours after them have none)
    for (int slot = 0; slot < numCentral; slot++)
        s[slot] = localSteps->localValue(&local[(long long)slot * d], &sums[(long long)slot * n], nullptr, nullptr);
    ResolvedPerAtom::applyNonFiniteRule(s);
    return true;
}

void CpuLocalStep::applyForces(ContextImpl& context, const vector<double>& dEds, vector<double>& dEdValues,
                               vector<Vec3>& forces) {
    const int d = localSteps->getNumComponents(), n = localSteps->getNumSums();
    const int slots = numSlots;
    // dE/ds through s: dE/du (direct) and G = dE/d[W, P], of the central slots (the others' stay 0).
    vector<double> dEdLocal((long long)slots * d, 0.0), gradient((long long)slots * n, 0.0), dsdu(d);
    for (int slot = 0; slot < numCentral; slot++) {
        if (dEds[slot] == 0.0)
            continue; // no force from this entry
        double* g = &gradient[(long long)slot * n];
        localSteps->localValue(&local[(long long)slot * d], &sums[(long long)slot * n], dsdu.data(), g);
        for (int c = 0; c < n; c++)
            g[c] *= dEds[slot];
        for (int c = 0; c < d; c++)
            dEdLocal[(long long)slot * d + c] = dEds[slot] * dsdu[c];
    }
    // The local pass's forces, the gradient of t, from [1, u, G] per entry ([1, u] 0 for a slot that is not a
    // neighbour, G 0 for one that is not central).
    const CpuCoordinationEntries& entries = engine.getEntriesA();
    entryData.assign((long long)slots * 2 * n, 0.0);
    for (int e = 0; e < slots; e++) {
        const long long slot = (long long)entries.slot[e];
        double* data = &entryData[(long long)e * 2 * n];
        if (isNeighbor(slot)) {
            data[0] = 1.0;
            std::copy_n(&local[slot * d], d, data + 1);
        }
        std::copy_n(&gradient[slot * n], n, data + n);
    }
    localPass<true>(context, entryData);
    engine.applyGradient(forces, 1.0);
    // dE/du of the neighbours' sums, sum_j t_ij G_j (the P part), which the force pass added up (of a neighbour).
    const vector<double>& entrySums = engine.getEntryValues();
    for (int e = 0; e < slots; e++) {
        const long long slot = (long long)entries.slot[e];
        if (!isNeighbor(slot))
            continue;
        for (int c = 0; c < d; c++)
            dEdLocal[slot * d + c] += entrySums[(long long)e * 2 * n + 1 + c];
    }
    dEdValues.assign((long long)slots * numComponents, 0.0);
    for (int slot = 0; slot < slots; slot++)
        localSteps->localVectorBackward(&values[(long long)slot * numComponents], &dEdLocal[(long long)slot * d],
                                        &dEdValues[(long long)slot * numComponents]);
}
