// The hardware ceiling for "a minimal kernel that evaluates the same sigma on all unique pairs".
//
// N random points (float4, or a 32-byte double4 for the double variant) at 100 atoms/nm^3; all N(N-1)/2
// unique pairs, visited in 32x32 tiles of the upper triangle. A warp owns a task: one row block of 32
// atoms (one per lane) against up to TILES_PER_TASK consecutive column blocks. For every column block
// the warp loads the 32 column atoms into shared memory once; each lane then walks them and, per pair,
// computes
//     r2, y = r2/r0^2, y3 = y^3, sigma = 1/(1+y3), (dsigma/dr)/r = -6 y^2 sigma^2 / r0^2
// and accumulates s and its row atom's gradient in registers (no column gradient, no atomics). Each task
// writes its lanes' gradients (so nothing is optimized away); s is reduced once per block and the host
// sums the block partials.
//
//     nvcc -O3 -arch=sm_90 --use_fast_math benchmarks/pair_ceiling.cu -o pair_ceiling
//     ./pair_ceiling            # single precision
//     ./pair_ceiling double     # the same kernel in double precision
//
// Prints `CHECK relative_error=...` (s of a 4096-atom set against a double-precision CPU sum; exits 1 if
// above 1e-4) and `CEILING pairs_per_second=<value> N=<N> ms=<ms> precision=<single|double>` (the mean
// of TIMED_LAUNCHES launches after a warm-up, timed with CUDA events).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr int TILE = 32;
constexpr int WARPS_PER_BLOCK = 4;
constexpr int TILES_PER_TASK = 64;
constexpr int TIMED_LAUNCHES = 10;
constexpr int CEILING_ATOMS = 131072;
constexpr int CHECK_ATOMS = 4096;
constexpr double R0 = 0.3;          // nm
constexpr double DENSITY = 100.0;   // atoms per nm^3
constexpr double MAX_RELATIVE_ERROR = 1e-4;

#define CUDA_CHECK(call)                                                                          \
    do {                                                                                          \
        cudaError_t status_ = (call);                                                             \
        if (status_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(status_), __FILE__, \
                         __LINE__);                                                               \
            std::exit(2);                                                                         \
        }                                                                                         \
    } while (0)

/** A 32-byte-aligned four-double vector (CUDA 13 deprecates double4). */
struct __align__(32) Double4 {
    double x, y, z, w;
};

template <typename Real> struct Vector4;
template <> struct Vector4<float> { using Type = float4; };
template <> struct Vector4<double> { using Type = Double4; };

/** One pair: add sigma to s and the row atom's gradient of sigma (scale * delta) to g. */
template <typename Real, typename Real4>
__device__ __forceinline__ void addPair(const Real4& row, const Real4& column, Real invR0Squared,
                                        Real derivativeScale, Real& s, Real& gx, Real& gy, Real& gz) {
    Real dx = column.x - row.x;
    Real dy = column.y - row.y;
    Real dz = column.z - row.z;
    Real r2 = dx * dx + dy * dy + dz * dz;
    Real y = r2 * invR0Squared;
    Real y3 = y * y * y;
    Real sigma = Real(1) / (Real(1) + y3);
    Real dSigmaDrOverR = derivativeScale * y * y * sigma * sigma;  // -6 y^2 sigma^2 / r0^2
    s += sigma;
    // d sigma / d x_row = (d sigma / dr) (x_row - x_column) / r = -(dsigma/dr / r) * delta
    gx -= dSigmaDrOverR * dx;
    gy -= dSigmaDrOverR * dy;
    gz -= dSigmaDrOverR * dz;
}

/**
 * tasks[t] = (row block, first column block); a task covers column blocks [first, first + TILES_PER_TASK)
 * clipped to numBlocks. Row blocks only pair with column blocks >= themselves (upper triangle); in the
 * diagonal tile a lane takes only the columns after its own atom.
 */
template <typename Real>
__global__ void __launch_bounds__(TILE * WARPS_PER_BLOCK)
    pairTiles(const typename Vector4<Real>::Type* __restrict__ positions, const int2* __restrict__ tasks,
              int numTasks, int numBlocks, Real invR0Squared, typename Vector4<Real>::Type* __restrict__ gradients,
              double* __restrict__ blockSums) {
    using Real4 = typename Vector4<Real>::Type;
    __shared__ Real4 columns[WARPS_PER_BLOCK][TILE];
    __shared__ double warpSums[WARPS_PER_BLOCK];
    const int lane = threadIdx.x % TILE;
    const int warp = threadIdx.x / TILE;
    const int totalWarps = gridDim.x * WARPS_PER_BLOCK;
    const Real derivativeScale = Real(-6) * invR0Squared;
    double threadSum = 0.0;
    for (int task = blockIdx.x * WARPS_PER_BLOCK + warp; task < numTasks; task += totalWarps) {
        const int2 range = tasks[task];
        const int rowBlock = range.x;
        const int lastColumnBlock = min(numBlocks, range.y + TILES_PER_TASK);
        const Real4 row = positions[rowBlock * TILE + lane];
        Real s = 0, gx = 0, gy = 0, gz = 0;
        for (int columnBlock = range.y; columnBlock < lastColumnBlock; columnBlock++) {
            __syncwarp();  // the previous tile's reads are done
            columns[warp][lane] = positions[columnBlock * TILE + lane];
            __syncwarp();
            if (columnBlock == rowBlock) {
                for (int k = lane + 1; k < TILE; k++)
                    addPair(row, columns[warp][k], invR0Squared, derivativeScale, s, gx, gy, gz);
            } else {
#pragma unroll
                for (int k = 0; k < TILE; k++)
                    addPair(row, columns[warp][k], invR0Squared, derivativeScale, s, gx, gy, gz);
            }
        }
        Real4 gradient;
        gradient.x = gx;
        gradient.y = gy;
        gradient.z = gz;
        gradient.w = s;
        gradients[task * TILE + lane] = gradient;
        threadSum += s;
    }
    for (int offset = TILE / 2; offset > 0; offset /= 2)
        threadSum += __shfl_down_sync(0xffffffffu, threadSum, offset);
    if (lane == 0)
        warpSums[warp] = threadSum;
    __syncthreads();
    if (threadIdx.x == 0) {
        double blockSum = 0.0;
        for (int w = 0; w < WARPS_PER_BLOCK; w++)
            blockSum += warpSums[w];
        blockSums[blockIdx.x] = blockSum;
    }
}

/** Uniform random points in a cube at DENSITY atoms/nm^3 (w = 0). */
template <typename Real>
std::vector<typename Vector4<Real>::Type> randomPositions(int numAtoms, unsigned seed) {
    std::mt19937_64 generator(seed);
    const double edge = std::cbrt(numAtoms / DENSITY);
    std::uniform_real_distribution<double> uniform(0.0, edge);
    std::vector<typename Vector4<Real>::Type> positions(numAtoms);
    for (auto& p : positions) {
        p.x = (Real) uniform(generator);
        p.y = (Real) uniform(generator);
        p.z = (Real) uniform(generator);
        p.w = 0;
    }
    return positions;
}

/** The tasks of the upper triangle of numBlocks x numBlocks tiles, row block by row block. */
std::vector<int2> upperTriangleTasks(int numBlocks) {
    std::vector<int2> tasks;
    for (int row = 0; row < numBlocks; row++)
        for (int first = row; first < numBlocks; first += TILES_PER_TASK)
            tasks.push_back(make_int2(row, first));
    return tasks;
}

/** The device buffers and launch shape of one point set; run() launches the kernel once. */
template <typename Real>
class PairProblem {
public:
    using Real4 = typename Vector4<Real>::Type;

    explicit PairProblem(const std::vector<Real4>& positions) : numAtoms((int) positions.size()) {
        const int numBlocks = numAtoms / TILE;
        const std::vector<int2> tasks = upperTriangleTasks(numBlocks);
        numTasks = (int) tasks.size();
        int device, multiprocessors, blocksPerMultiprocessor;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerMultiprocessor, pairTiles<Real>,
                                                                 TILE * WARPS_PER_BLOCK, 0));
        const int blocksForTasks = (numTasks + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
        gridSize = std::min(blocksForTasks, multiprocessors * blocksPerMultiprocessor);
        CUDA_CHECK(cudaMalloc(&devicePositions, sizeof(Real4) * numAtoms));
        CUDA_CHECK(cudaMalloc(&deviceTasks, sizeof(int2) * numTasks));
        CUDA_CHECK(cudaMalloc(&deviceGradients, sizeof(Real4) * (size_t) numTasks * TILE));
        CUDA_CHECK(cudaMalloc(&deviceBlockSums, sizeof(double) * gridSize));
        CUDA_CHECK(cudaMemcpy(devicePositions, positions.data(), sizeof(Real4) * numAtoms, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(deviceTasks, tasks.data(), sizeof(int2) * numTasks, cudaMemcpyHostToDevice));
    }

    ~PairProblem() {
        cudaFree(devicePositions);
        cudaFree(deviceTasks);
        cudaFree(deviceGradients);
        cudaFree(deviceBlockSums);
    }

    PairProblem(const PairProblem&) = delete;
    PairProblem& operator=(const PairProblem&) = delete;

    void launch() const {
        pairTiles<Real><<<gridSize, TILE * WARPS_PER_BLOCK>>>(devicePositions, deviceTasks, numTasks,
                                                               numAtoms / TILE, (Real) (1.0 / (R0 * R0)),
                                                               deviceGradients, deviceBlockSums);
        CUDA_CHECK(cudaGetLastError());
    }

    /** s of the last launch (the block partials summed on the host). */
    double coordination() const {
        std::vector<double> sums(gridSize);
        CUDA_CHECK(cudaMemcpy(sums.data(), deviceBlockSums, sizeof(double) * gridSize, cudaMemcpyDeviceToHost));
        double total = 0.0;
        for (double value : sums)
            total += value;
        return total;
    }

    /** Mean milliseconds per launch over TIMED_LAUNCHES launches after one warm-up launch. */
    double millisecondsPerLaunch() const {
        launch();
        CUDA_CHECK(cudaDeviceSynchronize());
        cudaEvent_t start, stop;
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
        CUDA_CHECK(cudaEventRecord(start));
        for (int i = 0; i < TIMED_LAUNCHES; i++)
            launch();
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float milliseconds = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start, stop));
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        return milliseconds / TIMED_LAUNCHES;
    }

private:
    int numAtoms, numTasks, gridSize;
    Real4* devicePositions = nullptr;
    int2* deviceTasks = nullptr;
    Real4* deviceGradients = nullptr;
    double* deviceBlockSums = nullptr;
};

/** s = sum over i < j of 1/(1 + (r/r0)^6), in double precision on the CPU. */
template <typename Real4>
double referenceCoordination(const std::vector<Real4>& positions) {
    double total = 0.0;
    for (size_t i = 0; i < positions.size(); i++)
        for (size_t j = i + 1; j < positions.size(); j++) {
            double dx = (double) positions[j].x - positions[i].x;
            double dy = (double) positions[j].y - positions[i].y;
            double dz = (double) positions[j].z - positions[i].z;
            double y = (dx * dx + dy * dy + dz * dz) / (R0 * R0);
            total += 1.0 / (1.0 + y * y * y);
        }
    return total;
}

/** The check and the timing for one precision; returns the process exit status. */
template <typename Real>
int run(const char* precisionName) {
    const auto checkPositions = randomPositions<Real>(CHECK_ATOMS, 7);
    double gpuSum;
    {
        PairProblem<Real> check(checkPositions);
        check.launch();
        gpuSum = check.coordination();
    }
    const double cpuSum = referenceCoordination(checkPositions);
    const double relativeError = std::fabs(gpuSum - cpuSum) / std::fabs(cpuSum);
    std::printf("CHECK relative_error=%.3e N=%d s_gpu=%.9g s_cpu=%.9g precision=%s\n", relativeError, CHECK_ATOMS,
                gpuSum, cpuSum, precisionName);
    if (!(relativeError <= MAX_RELATIVE_ERROR))
        return 1;
    PairProblem<Real> problem(randomPositions<Real>(CEILING_ATOMS, 11));
    const double milliseconds = problem.millisecondsPerLaunch();
    const double pairs = 0.5 * (double) CEILING_ATOMS * (CEILING_ATOMS - 1);
    std::printf("CEILING pairs_per_second=%.4e N=%d ms=%.4f precision=%s\n", pairs / (milliseconds * 1e-3),
                CEILING_ATOMS, milliseconds, precisionName);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "double") == 0)
        return run<double>("double");
    if (argc > 1 && std::strcmp(argv[1], "single") != 0) {
        std::fprintf(stderr, "usage: %s [single|double]\n", argv[0]);
        return 2;
    }
    return run<float>("single");
}
