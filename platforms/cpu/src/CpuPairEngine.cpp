#include "CpuPairEngine.h"
#include "CpuInstructionSets.h"
#include "internal/geometry/MinimumImage.h"
#include "openmm/internal/ThreadPool.h"
#include "openmm/reference/ReferencePlatform.h"
#include <algorithm>
#include <cstdlib>
#include <limits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

/** Pairs per work item when all pairs are visited, and in Pair mode. */
const long long PairsPerAllPairsItem = 1 << 15;
const int PairsPerPairItem = 4096;
/**
 * The vectorized loops need every displacement component and its square finite (a masked-out term is
 * still computed, and inf * 0 would be NaN): coordinates of an axis must span less than this.
 */
const double MaxVectorizedSpan = 1e150;

const double Infinity = std::numeric_limits<double>::infinity();

ReferencePlatform::PlatformData& referenceData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

/**
 * Whether the vectorized loops may run: every displacement (of finite positions) shorter than MaxVectorizedSpan
 * and, in a rectangular box, shorter than 1.5 boxes (the comparisons of MinimumImage::wrapNear); no triclinic box.
 */
bool vectorizable(const CpuCoordinationEntries& entriesA, const CpuCoordinationEntries& entriesB,
                  const MinimumImage& minimumImage, bool periodic) {
    if (minimumImage.isTriclinic() && periodic)
        return false;
    for (int axis = 0; axis < 3; axis++) {
        double lowest = Infinity, highest = -Infinity;
        for (const CpuCoordinationEntries* entries : {&entriesA, &entriesB}) {
            const vector<double>& coordinate = (axis == 0 ? entries->x : axis == 1 ? entries->y : entries->z);
            for (double value : coordinate) {
                lowest = std::min(lowest, value);
                highest = std::max(highest, value);
            }
        }
        const double span = highest - lowest; // the positions are finite (prepare() checked them)
        if (!(span < MaxVectorizedSpan) || (periodic && !minimumImage.isNear(span, axis)))
            return false;
    }
    return true;
}

} // namespace

CpuPairEngine::CpuPairEngine() {
#if COORDINATION_CPU_AVX2
    __builtin_cpu_init();
    useAvx2 = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               std::getenv("COORDINATION_CPU_NO_AVX2") == nullptr);
#endif
}

CpuPairEngine::~CpuPairEngine() {}

void CpuPairEngine::setGroups(const ResolvedPairGroups& resolved) {
    groups.reset(new ResolvedPairGroups(resolved));
    const SwitchingFunctionConstants& sigma = resolved.switching;
    switchingFunction.reset(new SwitchingFunctionEvaluator(sigma));
    rational.reset();
    if (sigma.type == CoordinationBiasForce::Rational)
        rational.reset(new RationalSwitchingFunction(sigma));

    // Work items of all pairs (or of Pair mode's pairs): about the same number of pairs each.
    allPairItems.clear();
    const int sizeA = resolved.groupA.size(), sizeB = resolved.groupB.size();
    if (resolved.mode == PairSwitchingForce::Pair) {
        for (int begin = 0; begin < sizeA; begin += PairsPerPairItem)
            allPairItems.push_back({begin, std::min(begin + PairsPerPairItem, sizeA)});
    }
    else {
        long long pairs = 0;
        int begin = 0;
        for (int row = 0; row < sizeA; row++) {
            pairs += (resolved.mode == PairSwitchingForce::Self ? sizeA - 1 - row : sizeB);
            if (pairs >= PairsPerAllPairsItem || row == sizeA - 1) {
                allPairItems.push_back({begin, row + 1});
                begin = row + 1;
                pairs = 0;
            }
        }
    }
}

bool CpuPairEngine::prepare(ContextImpl& context) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    const Vec3* box = data.periodicBoxVectors;
    if (groups->hasNonFinitePosition(*data.positions)) {
        itemPairs.clear();
        return false;
    }
    // The member ids index the particles' positions, followed by the centres' where there are centres (only the
    // groups' own entries are copied: the System may be far larger than the force).
    const ResolvedCenters& centers = groups->centers;
    if (centers.size() > 0) {
        memberPositions.resize(centers.numParticles + centers.size());
        for (int member : groups->uniqueParticles)
            if (!centers.isCenter(member))
                memberPositions[member] = (*data.positions)[member];
        const vector<Vec3> centerPositions = centers.computePositions(*data.positions, box);
        std::copy(centerPositions.begin(), centerPositions.end(), memberPositions.begin() + centers.numParticles);
    }
    const vector<Vec3>& positions = (centers.size() > 0 ? memberPositions : *data.positions);
    useCells = grid.build(*groups, positions, box, entriesA, entriesB, items);
    if (!useCells) {
        // Entries in group order.
        auto fill = [&](const vector<int>& group, const vector<int>& uniqueOf, CpuCoordinationEntries& entries) {
            entries.resize(group.size());
            for (int i = 0; i < (int) group.size(); i++)
                entries.set(i, positions[group[i]], group[i], i, uniqueOf[i]);
        };
        fill(groups->groupA, groups->uniqueA, entriesA);
        fill(groups->groupB, groups->uniqueB, entriesB);
        items = allPairItems;
    }
    simdImage = vectorizable(entriesA, entriesB, MinimumImage(box), groups->periodic);
    return true;
}

CpuPairEngine::Sweep CpuPairEngine::getSweep() const {
    return {groups->mode == PairSwitchingForce::Self, groups->mode == PairSwitchingForce::Pair,
            groups->switching.cutoffSquared, entriesA, entriesB, useCells ? &grid : nullptr, items};
}

void CpuPairEngine::startPass(int numThreads, SwitchingPath path, bool withGradient, bool withValues, int components) {
    lastPath = path;
    numComponents = components;
    const int numItems = items.size();
    numEntries = entriesA.size() + (groups->mode == PairSwitchingForce::Self ? 0 : entriesB.size());
    itemSums.assign(numItems, 0.0);
    itemPairs.assign(numItems, 0);
    if (withGradient)
        threadGradients.resize(numThreads);
    if (withValues)
        threadValues.resize(numThreads);
    threadCandidates.resize(numThreads);
    for (CpuCoordinationCandidates& candidates : threadCandidates)
        candidates.components = components;
}

double* CpuPairEngine::startThreadGradient(int thread) {
    threadGradients[thread].assign(3 * numEntries, 0.0);
    return threadGradients[thread].data();
}

double* CpuPairEngine::startThreadValues(int thread) {
    threadValues[thread].assign(entriesA.size() * numComponents, 0.0);
    return threadValues[thread].data();
}

void CpuPairEngine::sumThreadGradients(ThreadPool& threads) {
    const int numThreads = threads.getNumThreads();
    const long long length = 3 * numEntries;
    const bool self = (groups->mode == PairSwitchingForce::Self);
    // Thread 0's buffer += the others', in thread order (each thread a fixed range of the buffer) ...
    threads.execute([&](ThreadPool& pool, int thread) {
        const long long begin = length * thread / numThreads, end = length * (thread + 1) / numThreads;
        double* total = threadGradients[0].data();
        for (int other = 1; other < numThreads; other++) {
            const double* add = threadGradients[other].data();
            for (long long i = begin; i < end; i++)
                total[i] += add[i];
        }
    });
    threads.waitForThreads();
    // ... then the entries into their atoms, in entry order.
    const double* total = threadGradients[0].data();
    atomGradient.assign(groups->uniqueParticles.size(), Vec3());
    for (int group = 0; group < (self ? 1 : 2); group++) {
        const CpuCoordinationEntries& entries = (group == 0 ? entriesA : entriesB);
        const long long offset = (group == 0 ? 0 : entriesA.size());
        for (int e = 0; e < entries.size(); e++)
            atomGradient[entries.unique[e]] +=
                Vec3(total[offset + e], total[numEntries + offset + e], total[2 * numEntries + offset + e]);
    }
}

void CpuPairEngine::sumThreadValues(int numThreads) {
    const long long length = (long long) entriesA.size() * numComponents;
    entryValues.assign(length, 0.0);
    for (int thread = 0; thread < numThreads; thread++) {
        const double* add = threadValues[thread].data();
        for (long long e = 0; e < length; e++)
            entryValues[e] += add[e];
    }
}

double CpuPairEngine::sumItems() const {
    double sum = 0.0;
    for (double itemSum : itemSums)
        sum += itemSum;
    return sum;
}

void CpuPairEngine::applyGradient(vector<Vec3>& forces, double scale) const {
    const vector<int>& uniqueParticles = groups->uniqueParticles;
    const ResolvedCenters& centers = groups->centers;
    for (int u = 0; u < (int) uniqueParticles.size(); u++) {
        const int member = uniqueParticles[u];
        if (!centers.isCenter(member)) {
            forces[member] -= atomGradient[u] * scale;
            continue;
        }
        // A centre's force, spread to its particles by weight.
        const int center = member - centers.numParticles;
        const vector<int>& particles = centers.particles[center];
        const vector<double>& weights = centers.forceWeights[center];
        for (size_t j = 0; j < particles.size(); j++)
            forces[particles[j]] -= atomGradient[u] * (scale * weights[j]);
    }
}

long long CpuPairEngine::getNumCandidatePairs() const {
    long long pairs = 0;
    for (long long itemCount : itemPairs)
        pairs += itemCount;
    return pairs;
}
