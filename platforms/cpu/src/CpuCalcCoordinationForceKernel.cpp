#include "CpuCalcCoordinationForceKernel.h"
#include "internal/CoordinationForceImpl.h"
#include "internal/MinimumImage.h"
#include "openmm/cpu/CpuPlatform.h"
#include "openmm/internal/ContextImpl.h"
#include "openmm/internal/ThreadPool.h"
#include "openmm/reference/ReferencePlatform.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <type_traits>

using namespace CoordinationPlugin;
using namespace OpenMM;
using std::vector;

namespace {

/** Rows of group A per chunk when every pair is visited, and pairs per chunk in Pair mode. */
const int RowsPerChunk = 16;
const int PairsPerChunk = 512;

ReferencePlatform::PlatformData& referenceData(ContextImpl& context) {
    return *static_cast<ReferencePlatform::PlatformData*>(context.getPlatformData());
}

/**
 * A grid of cells at least dmax wide: periodic over a rectangular box (at least 3 cells per axis), or
 * over a bounding box of the atoms. Atoms within dmax of each other are in the same or adjacent cells.
 */
class CellGrid {
public:
    /** A grid for the periodic rectangular box; false if the box is too small for 3 cells per axis. */
    bool setPeriodic(const Vec3* box, double cutoff) {
        periodic = true;
        for (int axis = 0; axis < 3; axis++) {
            length[axis] = box[axis][axis];
            dims[axis] = (int) std::floor(length[axis] / cutoff);
            if (dims[axis] < 3)
                return false;
            dims[axis] = std::min(dims[axis], 1024);
            inverseWidth[axis] = dims[axis] / length[axis];
        }
        return true;
    }
    /** A grid over the bounding box of the given atoms (at most about maxCells cells); false if a position is not finite. */
    bool setBounded(const vector<Vec3>& positions, const vector<int>& atoms, double cutoff, long long maxCells) {
        periodic = false;
        Vec3 low(INFINITY, INFINITY, INFINITY), high(-INFINITY, -INFINITY, -INFINITY);
        for (int atom : atoms)
            for (int axis = 0; axis < 3; axis++) {
                const double x = positions[atom][axis];
                if (!std::isfinite(x))
                    return false;
                low[axis] = std::min(low[axis], x);
                high[axis] = std::max(high[axis], x);
            }
        long long total = 1;
        for (int axis = 0; axis < 3; axis++) {
            origin[axis] = low[axis];
            dims[axis] = (int) std::max(1.0, std::min(1024.0, std::floor((high[axis] - low[axis]) / cutoff)));
            total *= dims[axis];
        }
        while (total > maxCells) {
            // Too sparse for this many cells (atoms far apart): coarser along the longest axis.
            int axis = (int) (std::max_element(dims, dims + 3) - dims);
            total = total / dims[axis] * ((dims[axis] + 1) / 2);
            dims[axis] = (dims[axis] + 1) / 2;
        }
        for (int axis = 0; axis < 3; axis++)
            inverseWidth[axis] = 1.0 / std::max((high[axis] - low[axis]) / dims[axis], cutoff);
        return true;
    }
    int numCells() const { return dims[0] * dims[1] * dims[2]; }
    /** The cell coordinates of a position. */
    void coordinates(const Vec3& position, int cell[3]) const {
        for (int axis = 0; axis < 3; axis++) {
            double scaled;
            if (periodic) {
                const double fraction = position[axis] / length[axis];
                scaled = (fraction - std::floor(fraction)) * dims[axis];
            }
            else
                scaled = (position[axis] - origin[axis]) * inverseWidth[axis];
            cell[axis] = std::min(std::max((int) scaled, 0), dims[axis] - 1);
        }
    }
    int index(const int cell[3]) const { return (cell[2] * dims[1] + cell[1]) * dims[0] + cell[0]; }
    /** The distinct cells adjacent to (and including) a cell. */
    int neighbors(const int cell[3], int* result) const {
        int count = 0;
        int range[3][3], rangeSize[3];
        for (int axis = 0; axis < 3; axis++) {
            rangeSize[axis] = 0;
            for (int offset = -1; offset <= 1; offset++) {
                int c = cell[axis] + offset;
                if (periodic)
                    c = (c + dims[axis]) % dims[axis];
                else if (c < 0 || c >= dims[axis])
                    continue;
                range[axis][rangeSize[axis]++] = c;
            }
        }
        for (int i = 0; i < rangeSize[0]; i++)
            for (int j = 0; j < rangeSize[1]; j++)
                for (int k = 0; k < rangeSize[2]; k++) {
                    const int c[3] = {range[0][i], range[1][j], range[2][k]};
                    result[count++] = index(c);
                }
        return count;
    }
    /** Sort slots into cells (counting sort: stable, so slots stay in increasing order within a cell). */
    void bin(const vector<Vec3>& positions, const vector<int>& atoms, vector<int>& cellStart, vector<int>& slots) const {
        vector<int> cellOfSlot(atoms.size());
        cellStart.assign(numCells() + 1, 0);
        for (int slot = 0; slot < (int) atoms.size(); slot++) {
            int cell[3];
            coordinates(positions[atoms[slot]], cell);
            cellOfSlot[slot] = index(cell);
            cellStart[cellOfSlot[slot] + 1]++;
        }
        for (int c = 0; c < numCells(); c++)
            cellStart[c + 1] += cellStart[c];
        slots.resize(atoms.size());
        vector<int> next(cellStart.begin(), cellStart.end() - 1);
        for (int slot = 0; slot < (int) atoms.size(); slot++)
            slots[next[cellOfSlot[slot]]++] = slot;
    }

private:
    bool periodic = false;
    int dims[3] = {1, 1, 1};
    double origin[3] = {0, 0, 0}, length[3] = {0, 0, 0}, inverseWidth[3] = {1, 1, 1};
};

/**
 * PLUMED's rational function with m = 2n, n even and d0 = 0 (the default, 6/12) as a function of
 * y = r^2/r0^2: sigma = 1/(1 + y^(n/2)), no square root. Same value and derivative as
 * RationalSwitchingFunction, to rounding.
 */
class EvenRationalOfSquare {
public:
    EvenRationalOfSquare(double r0, int n, double stretchFactor, double shift)
        : inverseR0Squared(1.0 / (r0 * r0)), halfN(n / 2), stretchFactor(stretchFactor), shift(shift),
          slopeFactor(-n * stretchFactor / (r0 * r0)) {}
    /** sigma (stretched) at squared distance r2; scale receives dsigma/dr / r. */
    inline double evaluateSquared(double r2, double& scale) const {
        const double y = r2 * inverseR0Squared;
        const double yHalfNMinus1 = RationalSwitchingFunction::integerPower(y, halfN - 1);
        const double yHalfN = yHalfNMinus1 * y;
        if (!std::isfinite(yHalfN)) {
            scale = 0.0;
            return shift; // far beyond any cutoff: the limit 0, stretched
        }
        const double inverse = 1.0 / (1.0 + yHalfN);
        scale = slopeFactor * yHalfNMinus1 * inverse * inverse;
        return inverse * stretchFactor + shift;
    }

private:
    double inverseR0Squared;
    int halfN;
    double stretchFactor, shift, slopeFactor;
};

/** sigma(r) of a switching function with an evaluate(r, dSigmaDr) method, as a function of r^2. */
template <class Sigma>
class OfDistance {
public:
    explicit OfDistance(const Sigma& sigma) : sigma(sigma) {}
    inline double evaluateSquared(double r2, double& scale) const {
        const double r = std::sqrt(r2);
        double dSigmaDr;
        const double value = sigma.evaluate(r, dSigmaDr);
        scale = (r > 0.0 ? dSigmaDr / r : 0.0);
        return value;
    }

private:
    const Sigma& sigma;
};

/**
 * The displacement between two atoms: the minimum image in a rectangular box by one conditional shift
 * per axis (ties at half a box resolved as the Reference kernel's floor(d/L + 0.5) does; displacements
 * longer than 1.5 boxes go through it), the exact search in a triclinic one, or none.
 */
class Displacement {
public:
    Displacement(const vector<Vec3>& positions, const MinimumImage& minimumImage, const Vec3* box, bool periodic)
        : positions(positions), minimumImage(minimumImage), periodic(periodic),
          rectangular(periodic && !minimumImage.isTriclinic()) {
        for (int axis = 0; axis < 3; axis++) {
            length[axis] = box[axis][axis];
            half[axis] = 0.5 * length[axis];
            far[axis] = 1.5 * length[axis];
        }
    }
    inline Vec3 operator()(int first, int second) const {
        Vec3 delta = positions[second] - positions[first];
        if (!periodic)
            return delta;
        if (!rectangular)
            return minimumImage(delta);
        for (int axis = 0; axis < 3; axis++) {
            if (delta[axis] >= half[axis] && delta[axis] < far[axis])
                delta[axis] -= length[axis];
            else if (delta[axis] < -half[axis] && delta[axis] > -far[axis])
                delta[axis] += length[axis];
            else if (!(std::fabs(delta[axis]) < far[axis]))
                delta[axis] -= length[axis] * std::floor(delta[axis] / length[axis] + 0.5);
        }
        return delta;
    }

private:
    const vector<Vec3>& positions;
    const MinimumImage& minimumImage;
    const bool periodic, rectangular;
    double length[3], half[3], far[3];
};

/** The pairs' terms for a switching function Sigma of r^2 (inline for the Rational type). */
template <class Sigma>
class PairSum {
public:
    PairSum(const Sigma& sigma, double cutoff, const Displacement& displacement)
        : sigma(sigma), cutoff2(cutoff * cutoff), displacement(displacement) {}
    /** One term: first and second are particle indices (the same atom counts 0), u* their gradient rows. */
    inline void add(int first, int second, int uniqueFirst, int uniqueSecond, double& sum, Vec3* gradient) const {
        if (first == second)
            return;
        const Vec3 delta = displacement(first, second);
        const double r2 = delta.dot(delta);
        if (r2 > cutoff2)
            return;
        double scale;
        sum += sigma.evaluateSquared(r2, scale);
        if (gradient != nullptr && scale != 0.0) {
            const Vec3 dSigmaDSecond = delta * scale;
            gradient[uniqueSecond] += dSigmaDSecond;
            gradient[uniqueFirst] -= dSigmaDSecond;
        }
    }

private:
    const Sigma& sigma;
    const double cutoff2;
    const Displacement& displacement;
};

} // namespace

CpuCalcCoordinationForceKernel::~CpuCalcCoordinationForceKernel() {}

void CpuCalcCoordinationForceKernel::initialize(const System& system, const CoordinationForce& force) {
    energyFunction = CoordinationEnergyFunction(force);
    setPairParameters(force);
}

void CpuCalcCoordinationForceKernel::setPairParameters(const CoordinationForce& force) {
    mode = force.getMode();
    groupA = force.getGroupA();
    groupB = force.getGroupB();
    periodic = force.usesPeriodicBoundaryConditions();
    std::set<int> unique(groupA.begin(), groupA.end());
    unique.insert(groupB.begin(), groupB.end());
    uniqueAtoms.assign(unique.begin(), unique.end());
    std::map<int, int> uniqueIndex;
    for (int i = 0; i < (int) uniqueAtoms.size(); i++)
        uniqueIndex[uniqueAtoms[i]] = i;
    uniqueA.clear();
    uniqueB.clear();
    for (int atom : groupA)
        uniqueA.push_back(uniqueIndex[atom]);
    for (int atom : groupB)
        uniqueB.push_back(uniqueIndex[atom]);
    switchingFunction.reset(new SwitchingFunctionEvaluator(CoordinationForceImpl::createSwitchingFunction(force)));
    cutoff = switchingFunction->getCutoff();
    rational.reset();
    if (force.getSwitchingFunction() == CoordinationForce::Rational)
        rational.reset(new RationalSwitchingFunction(force.getR0(), force.getD0(), force.getN(), force.getEffectiveM(),
                                                     cutoff, force.getStretch()));
    r0 = force.getR0();
    n = force.getN();
    evenRational = (rational && force.getEffectiveM() == 2 * n && n % 2 == 0 && force.getD0() == 0.0);
}

void CpuCalcCoordinationForceKernel::copyParametersToContext(ContextImpl& context, const CoordinationForce& force) {
    energyFunction.checkUnchanged(force);
    setPairParameters(force);
}

double CpuCalcCoordinationForceKernel::computeCoordination(ContextImpl& context, bool computeGradient) {
    ReferencePlatform::PlatformData& data = referenceData(context);
    const vector<Vec3>& positions = *data.positions;
    const MinimumImage minimumImage(data.periodicBoxVectors);
    ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
    const int numThreads = threads.getNumThreads();
    const int numA = groupA.size(), numB = groupB.size();

    // The cell list, where it applies.
    CellGrid grid;
    bool useCells = std::isfinite(cutoff) && mode != CoordinationForce::Pair;
    if (useCells) {
        if (periodic)
            useCells = !minimumImage.isTriclinic() && grid.setPeriodic(data.periodicBoxVectors, cutoff);
        else
            useCells = grid.setBounded(positions, uniqueAtoms, cutoff, 2LL * (long long) uniqueAtoms.size() + 64);
    }
    vector<int> cellStartA, slotsA, cellStartB, slotsB;
    if (useCells) {
        grid.bin(positions, groupA, cellStartA, slotsA);
        if (mode == CoordinationForce::Dual)
            grid.bin(positions, groupB, cellStartB, slotsB);
    }

    // Chunks: blocks of rows of A (with cells: of the rows in one cell, in cell order), or blocks of pairs.
    int numChunks;
    vector<int> chunkCell, chunkFirstRow; // cell list: each chunk's cell and first entry of slotsA
    if (mode == CoordinationForce::Pair)
        numChunks = (numA + PairsPerChunk - 1) / PairsPerChunk;
    else if (useCells) {
        for (int cell = 0; cell < grid.numCells(); cell++)
            for (int row = cellStartA[cell]; row < cellStartA[cell + 1]; row += RowsPerChunk) {
                chunkCell.push_back(cell);
                chunkFirstRow.push_back(row);
            }
        numChunks = chunkCell.size();
    }
    else
        numChunks = (numA + RowsPerChunk - 1) / RowsPerChunk;
    chunkSums.assign(numChunks, 0.0);
    if (computeGradient) {
        threadGradients.resize(numThreads);
        for (vector<Vec3>& gradient : threadGradients)
            gradient.assign(uniqueAtoms.size(), Vec3());
    }

    const Displacement displacement(positions, minimumImage, data.periodicBoxVectors, periodic);
    auto run = [&](const auto& sigma) {
        PairSum<std::decay_t<decltype(sigma)>> pairs(sigma, cutoff, displacement);
        threads.execute([&](ThreadPool& pool, int thread) {
            Vec3* gradient = (computeGradient ? threadGradients[thread].data() : nullptr);
            int neighborCells[27];
            for (int chunk = thread; chunk < numChunks; chunk += numThreads) {
                double sum = 0.0;
                if (mode == CoordinationForce::Pair) {
                    const int end = std::min(numA, (chunk + 1) * PairsPerChunk);
                    for (int k = chunk * PairsPerChunk; k < end; k++)
                        pairs.add(groupA[k], groupB[k], uniqueA[k], uniqueB[k], sum, gradient);
                }
                else if (useCells) {
                    int cell[3];
                    const int firstRow = chunkFirstRow[chunk];
                    const int endRow = std::min(firstRow + RowsPerChunk, cellStartA[chunkCell[chunk] + 1]);
                    grid.coordinates(positions[groupA[slotsA[firstRow]]], cell);
                    const int numNeighbors = grid.neighbors(cell, neighborCells);
                    const vector<int>& cellStart = (mode == CoordinationForce::Self ? cellStartA : cellStartB);
                    const vector<int>& slots = (mode == CoordinationForce::Self ? slotsA : slotsB);
                    const vector<int>& other = (mode == CoordinationForce::Self ? groupA : groupB);
                    const vector<int>& otherUnique = (mode == CoordinationForce::Self ? uniqueA : uniqueB);
                    for (int a = firstRow; a < endRow; a++) {
                        const int i = slotsA[a];
                        for (int n = 0; n < numNeighbors; n++)
                            for (int b = cellStart[neighborCells[n]]; b < cellStart[neighborCells[n] + 1]; b++) {
                                const int j = slots[b];
                                if (mode == CoordinationForce::Self && j <= i)
                                    continue; // each pair of slots once
                                pairs.add(groupA[i], other[j], uniqueA[i], otherUnique[j], sum, gradient);
                            }
                    }
                }
                else {
                    const int end = std::min(numA, (chunk + 1) * RowsPerChunk);
                    for (int i = chunk * RowsPerChunk; i < end; i++) {
                        if (mode == CoordinationForce::Self) {
                            for (int j = i + 1; j < numA; j++)
                                pairs.add(groupA[i], groupA[j], uniqueA[i], uniqueA[j], sum, gradient);
                        }
                        else {
                            for (int j = 0; j < numB; j++)
                                pairs.add(groupA[i], groupB[j], uniqueA[i], uniqueB[j], sum, gradient);
                        }
                    }
                }
                chunkSums[chunk] = sum;
            }
        });
        threads.waitForThreads();
    };
    if (evenRational)
        run(EvenRationalOfSquare(r0, n, switchingFunction->getStretchFactor(), switchingFunction->getShift()));
    else if (rational)
        run(OfDistance<RationalSwitchingFunction>(*rational));
    else
        run(OfDistance<SwitchingFunctionEvaluator>(*switchingFunction));
    double s = 0.0;
    for (double sum : chunkSums)
        s += sum;
    return s;
}

double CpuCalcCoordinationForceKernel::execute(ContextImpl& context, bool includeForces, bool includeEnergy) {
    const double s = computeCoordination(context, includeForces);
    double dEnergyDs;
    const double energy = energyFunction.evaluate(context, s, dEnergyDs, referenceData(context).energyParameterDerivatives);
    if (includeForces && dEnergyDs != 0.0) {
        // The threads' gradients, summed in thread order (each thread a fixed range of atoms).
        vector<Vec3>& forces = *referenceData(context).forces;
        ThreadPool& threads = CpuPlatform::getPlatformData(context).threads;
        const int numThreads = threads.getNumThreads(), numUnique = uniqueAtoms.size();
        threads.execute([&](ThreadPool& pool, int thread) {
            const int end = (int) ((long long) numUnique * (thread + 1) / numThreads);
            for (int u = (int) ((long long) numUnique * thread / numThreads); u < end; u++) {
                Vec3 gradient;
                for (const vector<Vec3>& threadGradient : threadGradients)
                    gradient += threadGradient[u];
                forces[uniqueAtoms[u]] -= gradient * dEnergyDs;
            }
        });
        threads.waitForThreads();
    }
    return energy;
}

double CpuCalcCoordinationForceKernel::getCoordination(ContextImpl& context) {
    return computeCoordination(context, false);
}
