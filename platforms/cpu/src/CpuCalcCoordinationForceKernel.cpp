#include "CpuCalcCoordinationForceKernel.h"
#include "CpuCoordinationNumberLoops.h"
#include "CpuCoordinationPairLoops.h"
#include "openmm/cpu/CpuPlatform.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/ThreadPool.h"
#include "openmm/reference/ReferencePlatform.h"
#include <algorithm>
#include <cmath>
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
/** The largest n of the vectorized default rational function (EvenRationalOfSquare<n / 2>). */
const int MaxVectorizedN = 12;

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
        const double span = highest - lowest; // the positions are finite (computeCoordination checked them)
        if (!(span < MaxVectorizedSpan) || (periodic && !minimumImage.isNear(span, axis)))
            return false;
    }
    return true;
}

} // namespace

CpuCalcCoordinationForceKernel::~CpuCalcCoordinationForceKernel() {}

void CpuCalcCoordinationForceKernel::initialize(const System& system, const ResolvedCoordinationForce& force) {
#if COORDINATION_CPU_AVX2
    __builtin_cpu_init();
    useAvx2 = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               std::getenv("COORDINATION_CPU_NO_AVX2") == nullptr);
#endif
    energyFunction = CoordinationEnergyFunction(force);
    setPairParameters(force);
}

void CpuCalcCoordinationForceKernel::setPairParameters(const ResolvedCoordinationForce& resolved) {
    force.reset(new ResolvedCoordinationForce(resolved));
    const SwitchingFunctionConstants& sigma = resolved.switching;
    switchingFunction.reset(new SwitchingFunctionEvaluator(sigma));
    rational.reset();
    if (sigma.type == CoordinationForce::Rational)
        rational.reset(new RationalSwitchingFunction(sigma));
    repeatedSlots.clear();
    if (resolved.numbers.enabled) {
        reductions = CoordinationNumberReductions(resolved);
        vector<int> firstSlot(resolved.uniqueParticles.size(), -1);
        for (int slot = 0; slot < (int) resolved.groupA.size(); slot++) {
            int& first = firstSlot[resolved.uniqueA[slot]];
            if (first < 0)
                first = slot;
            else
                repeatedSlots.push_back({slot, first});
        }
    }

    // Work items of all pairs (or of Pair mode's pairs): about the same number of pairs each.
    allPairItems.clear();
    const int sizeA = resolved.groupA.size(), sizeB = resolved.groupB.size();
    if (resolved.mode == CoordinationForce::Pair) {
        for (int begin = 0; begin < sizeA; begin += PairsPerPairItem)
            allPairItems.push_back({begin, std::min(begin + PairsPerPairItem, sizeA)});
    }
    else {
        long long pairs = 0;
        int begin = 0;
        for (int row = 0; row < sizeA; row++) {
            pairs += (resolved.mode == CoordinationForce::Self ? sizeA - 1 - row : sizeB);
            if (pairs >= PairsPerAllPairsItem || row == sizeA - 1) {
                allPairItems.push_back({begin, row + 1});
                begin = row + 1;
                pairs = 0;
            }
        }
    }
}

void CpuCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context,
                                                             const ResolvedCoordinationForce& force) {
    setPairParameters(force);
}

template <class Sigma, class Image>
double CpuCalcCoordinationForceKernel::runItems(ThreadPool& threads, const Sigma& sigma, const Image& image,
                                               bool computeGradient) {
    lastPath = Sigma::Path;
    const int numItems = items.size();
    const int numThreads = threads.getNumThreads();
    const bool self = (force->mode == CoordinationForce::Self);
    const long long numEntries = entriesA.size() + (self ? 0 : entriesB.size());
    const long long length = 3 * numEntries;
    const Sweep sweep = {self, force->mode == CoordinationForce::Pair, force->switching.cutoffSquared, entriesA,
                         entriesB, useCells ? &grid : nullptr, items};
    itemSums.assign(numItems, 0.0);
    itemPairs.assign(numItems, 0);
    if (computeGradient)
        threadGradients.resize(numThreads);
    // Oriented pairs matter where the minimum image can meet a half-box tie: Self in a periodic box.
    const bool oriented = (self && force->periodic);
    threadCandidates.resize(numThreads);
    threads.execute([&](ThreadPool& pool, int thread) {
        CpuCoordinationCandidates& candidates = threadCandidates[thread];
        double* gradient = nullptr;
        if (computeGradient) {
            threadGradients[thread].assign(length, 0.0);
            gradient = threadGradients[thread].data();
        }
        auto process = [&](auto withGradient, auto orientedPairs) {
            constexpr bool WithGradient = decltype(withGradient)::value, Oriented = decltype(orientedPairs)::value;
#if COORDINATION_CPU_AVX2
            if constexpr (Sigma::Simd && Image::Simd)
                if (useAvx2) {
                    processItemsAvx2<WithGradient, Oriented>(sweep, thread, numThreads, sigma, image, gradient,
                                                             candidates, itemSums.data(), itemPairs.data());
                    return;
                }
#endif
            processItems<WithGradient, Oriented>(sweep, thread, numThreads, sigma, image, gradient, candidates,
                                                 itemSums.data(), itemPairs.data());
        };
        if (computeGradient && oriented)
            process(std::true_type(), std::true_type());
        else if (computeGradient)
            process(std::true_type(), std::false_type());
        else if (oriented)
            process(std::false_type(), std::true_type());
        else
            process(std::false_type(), std::false_type());
    });
    threads.waitForThreads();
    double s = 0.0;
    for (int item = 0; item < numItems; item++)
        s += itemSums[item];
    if (computeGradient)
        sumGradients(threads, numEntries);
    return s;
}

void CpuCalcCoordinationForceKernel::sumGradients(ThreadPool& threads, long long numEntries) {
    const int numThreads = threads.getNumThreads();
    const long long length = 3 * numEntries;
    const bool self = (force->mode == CoordinationForce::Self);
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
    atomGradient.assign(force->uniqueParticles.size(), Vec3());
    for (int group = 0; group < (self ? 1 : 2); group++) {
        const CpuCoordinationEntries& entries = (group == 0 ? entriesA : entriesB);
        const long long offset = (group == 0 ? 0 : entriesA.size());
        for (int e = 0; e < entries.size(); e++)
            atomGradient[entries.unique[e]] +=
                Vec3(total[offset + e], total[numEntries + offset + e], total[2 * numEntries + offset + e]);
    }
}

bool CpuCalcCoordinationForceKernel::prepareEntries(ContextImpl& context) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    const Vec3* box = data.periodicBoxVectors;
    if (force->hasNonFinitePosition(*data.positions))
        return false;
    // The member ids index the particles' positions, followed by the centres' where there are centres (only the
    // groups' own entries are copied: the System may be far larger than the force).
    const ResolvedCenters& centers = force->centers;
    if (centers.size() > 0) {
        memberPositions.resize(centers.numParticles + centers.size());
        for (int member : force->uniqueParticles)
            if (!centers.isCenter(member))
                memberPositions[member] = (*data.positions)[member];
        const vector<Vec3> centerPositions = centers.computePositions(*data.positions, box);
        std::copy(centerPositions.begin(), centerPositions.end(), memberPositions.begin() + centers.numParticles);
    }
    const vector<Vec3>& positions = (centers.size() > 0 ? memberPositions : *data.positions);
    useCells = grid.build(*force, positions, box, entriesA, entriesB, items);
    if (!useCells) {
        // Entries in group order.
        auto fill = [&](const vector<int>& group, const vector<int>& uniqueOf, CpuCoordinationEntries& entries) {
            entries.resize(group.size());
            for (int i = 0; i < (int) group.size(); i++)
                entries.set(i, positions[group[i]], group[i], i, uniqueOf[i]);
        };
        fill(force->groupA, force->uniqueA, entriesA);
        fill(force->groupB, force->uniqueB, entriesB);
        items = allPairItems;
    }
    simdImage = vectorizable(entriesA, entriesB, MinimumImage(box), force->periodic);
    return true;
}

template <class Run>
void CpuCalcCoordinationForceKernel::withForms(ContextImpl& context, Run&& run) {
    const MinimumImage minimumImage(referenceData(context).periodicBoxVectors);
    const bool periodic = force->periodic;
    auto withImage = [&](const auto& sigma) {
        if (!simdImage)
            run(sigma, ExactImage(minimumImage, periodic));
        else if (periodic)
            run(sigma, RectangularImage(minimumImage));
        else
            run(sigma, NoImage());
    };
    const SwitchingFunctionConstants& c = force->switching;
    if (c.path == SwitchingPath::SquaredDistance) {
        if (c.type == CoordinationForce::Rational && c.mIsTwiceN && c.n <= MaxVectorizedN) {
            switch (c.n / 2) {
            case 1: return withImage(EvenRationalOfSquare<1>(c));
            case 2: return withImage(EvenRationalOfSquare<2>(c));
            case 3: return withImage(EvenRationalOfSquare<3>(c));
            case 4: return withImage(EvenRationalOfSquare<4>(c));
            case 5: return withImage(EvenRationalOfSquare<5>(c));
            default: return withImage(EvenRationalOfSquare<6>(c));
            }
        }
        return withImage(OfSquare(*switchingFunction));
    }
    if (rational)
        return withImage(OfDistance<RationalSwitchingFunction>(*rational));
    withImage(OfDistance<SwitchingFunctionEvaluator>(*switchingFunction));
}

double CpuCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, bool computeGradient) {
    if (!prepareEntries(context)) {
        itemPairs.clear();
        return std::numeric_limits<double>::quiet_NaN();
    }
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    double s = 0.0;
    withForms(context, [&](const auto& sigma, const auto& image) {
        s = runItems(threads, sigma, image, computeGradient);
    });
    return s;
}

template <bool Forces, class Sigma, class Image>
void CpuCalcCoordinationForceKernel::runNumberItems(ThreadPool& threads, const Sigma& sigma, const Image& image) {
    lastPath = Sigma::Path;
    const int numItems = items.size();
    const int numThreads = threads.getNumThreads();
    const bool self = (force->mode == CoordinationForce::Self);
    const int sizeA = entriesA.size();
    const long long numEntries = sizeA + (self ? 0 : entriesB.size());
    const Sweep sweep = {self, false, force->switching.cutoffSquared, entriesA,
                         entriesB, useCells ? &grid : nullptr, items};
    const double power = force->numbers.rPower;
    const NumberTerms terms = {power, entryWeights.data()};
    itemPairs.assign(numItems, 0);
    (Forces ? threadGradients : threadNumbers).resize(numThreads);
    threadCandidates.resize(numThreads);
    // Oriented pairs matter where the minimum image can meet a half-box tie: Self's forces in a periodic box.
    const bool oriented = (Forces && self && force->periodic);
    threads.execute([&](ThreadPool& pool, int thread) {
        CpuCoordinationCandidates& candidates = threadCandidates[thread];
        double *numbers = nullptr, *gradient = nullptr;
        if (Forces) {
            threadGradients[thread].assign(3 * numEntries, 0.0);
            gradient = threadGradients[thread].data();
        }
        else {
            threadNumbers[thread].assign(sizeA, 0.0);
            numbers = threadNumbers[thread].data();
        }
        auto process = [&](auto selfPairs, auto orientedPairs, auto withPower) {
            constexpr bool Self = decltype(selfPairs)::value, Oriented = decltype(orientedPairs)::value,
                           WithPower = decltype(withPower)::value;
#if COORDINATION_CPU_AVX2
            if constexpr (Sigma::Simd && Image::Simd && !WithPower)
                if (useAvx2) {
                    processNumberItemsAvx2<Forces, Self, Oriented, WithPower>(
                        sweep, terms, thread, numThreads, sigma, image, numbers, gradient, candidates,
                        itemPairs.data());
                    return;
                }
#endif
            processNumberItems<Forces, Self, Oriented, WithPower>(sweep, terms, thread, numThreads, sigma, image,
                                                                  numbers, gradient, candidates, itemPairs.data());
        };
        // The power is a template argument only where the vectorized loop could run (it takes p = 0).
        auto withPower = [&](auto selfPairs, auto orientedPairs) {
            if constexpr (Sigma::Simd && Image::Simd) {
                if (power != 0.0)
                    return process(selfPairs, orientedPairs, std::true_type());
            }
            process(selfPairs, orientedPairs, std::false_type());
        };
        if (!self)
            withPower(std::false_type(), std::false_type());
        else if constexpr (Forces) {
            if (oriented)
                withPower(std::true_type(), std::true_type());
            else
                withPower(std::true_type(), std::false_type());
        }
        else
            withPower(std::true_type(), std::false_type());
    });
    threads.waitForThreads();
    if (Forces) {
        sumGradients(threads, numEntries);
        return;
    }
    // The threads' numbers in thread order.
    entryNumbers.assign(sizeA, 0.0);
    for (int thread = 0; thread < numThreads; thread++) {
        const double* add = threadNumbers[thread].data();
        for (int e = 0; e < sizeA; e++)
            entryNumbers[e] += add[e];
    }
}

void CpuCalcCoordinationForceKernel::computeNumbers(ContextImpl& context, vector<double>& numbers) {
    const int sizeA = force->groupA.size();
    if (!prepareEntries(context)) {
        itemPairs.clear();
        numbers.assign(sizeA, std::numeric_limits<double>::quiet_NaN());
        return;
    }
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    withForms(context, [&](const auto& sigma, const auto& image) { runNumberItems<false>(threads, sigma, image); });
    numbers.resize(sizeA);
    for (int e = 0; e < sizeA; e++)
        numbers[(int) entriesA.slot[e]] = entryNumbers[e];
    for (const std::pair<int, int>& repeated : repeatedSlots)
        numbers[repeated.first] = numbers[repeated.second];
}

void CpuCalcCoordinationForceKernel::computeNumberGradient(ContextImpl& context, const vector<double>& weights) {
    const int sizeA = entriesA.size();
    entryWeights.resize(sizeA);
    for (int e = 0; e < sizeA; e++)
        entryWeights[e] = weights[(int) entriesA.slot[e]];
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    withForms(context, [&](const auto& sigma, const auto& image) { runNumberItems<true>(threads, sigma, image); });
}

double CpuCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    if (force->numbers.enabled) {
        vector<double> numbers, weights;
        computeNumbers(context, numbers);
        const double energy = reductions.evaluateEnergy(context, numbers, weights,
                                                        referenceData(context).energyParameterDerivatives);
        // No weight: no force (also where the energy is not finite, or a position).
        if (includeForces && std::any_of(weights.begin(), weights.end(), [](double w) { return w != 0.0; })) {
            computeNumberGradient(context, weights);
            applyGradient(*referenceData(context).forces, 1.0);
        }
        return energy;
    }
    const double s = computeCoordination(context, includeForces);
    double dEnergyDs;
    const double energy = energyFunction.evaluate(context, s, dEnergyDs, referenceData(context).energyParameterDerivatives);
    if (includeForces && dEnergyDs != 0.0)
        applyGradient(*referenceData(context).forces, dEnergyDs);
    return energy;
}

void CpuCalcCoordinationForceKernel::applyGradient(vector<Vec3>& forces, double scale) const {
    const vector<int>& uniqueParticles = force->uniqueParticles;
    const ResolvedCenters& centers = force->centers;
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

double CpuCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    return computeCoordination(context, false);
}

long long CpuCalcCoordinationForceKernel::getNumCandidatePairs(ContextImpl& context) {
    if (force->numbers.enabled) {
        vector<double> numbers;
        computeNumbers(context, numbers);
    }
    else
        computeCoordination(context, false);
    long long pairs = 0;
    for (long long itemCount : itemPairs)
        pairs += itemCount;
    return pairs;
}

void CpuCalcCoordinationForceKernel::getCollectiveVariableValues(ContextImpl& context, std::vector<double>& values) {
    if (!force->numbers.enabled) {
        values = {getCoordination(context)};
        return;
    }
    vector<double> numbers;
    computeNumbers(context, numbers);
    reductions.evaluate(numbers, values);
}

void CpuCalcCoordinationForceKernel::getCoordinationNumbers(ContextImpl& context, std::vector<double>& values) {
    if (force->numbers.enabled) {
        computeNumbers(context, values);
        return;
    }
    throw OpenMMException("CoordinationForce: a CoordinationForce has no per-atom coordination numbers; use a "
                          "CoordinationNumberForce");
}
