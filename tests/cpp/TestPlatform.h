#ifndef COORDINATION_TEST_PLATFORM_H_
#define COORDINATION_TEST_PLATFORM_H_

/*
 * The platform the suite runs on (COORDINATION_TEST_PLATFORM), whether the setting matrices run in full, and every
 * tolerance of the suite by precision.
 */

#include <cstdlib>
#include <limits>
#include <map>
#include <string>

namespace CoordinationTest {

/**
 * The platform the whole suite runs on, from the environment variable COORDINATION_TEST_PLATFORM:
 * "Reference" (the default), "CPU", or a GPU platform with its precision, "OpenCL:single",
 * "CUDA:mixed", ... tools/run-tests.sh runs the program once per case.
 */
struct PlatformCase {
    std::string platform;
    std::string precision; // empty for Reference and CPU (double precision)
    int threads = 0;       // the CPU platform's Threads property; 0: the platform's default

    bool isDoublePrecision() const { return precision.empty() || precision == "double"; }
    std::map<std::string, std::string> properties() const {
        std::map<std::string, std::string> result;
        if (!precision.empty())
            result["Precision"] = precision;
        if (threads > 0)
            result["Threads"] = std::to_string(threads);
        return result;
    }
    std::string label() const { return precision.empty() ? platform : platform + ":" + precision; }
    /** Whether the platform is a GPU's (OpenCL, CUDA): fixed-point force sums, kernels compiled per setting. */
    bool isGpu() const { return platform != "Reference" && platform != "CPU"; }
    static PlatformCase fromEnvironment() {
        const char* text = std::getenv("COORDINATION_TEST_PLATFORM");
        std::string value = (text != nullptr && *text != 0 ? text : "Reference");
        size_t colon = value.find(':');
        if (colon == std::string::npos)
            return {value, ""};
        return {value.substr(0, colon), value.substr(colon + 1)};
    }
};

inline const PlatformCase& testPlatform() {
    static const PlatformCase platformCase = PlatformCase::fromEnvironment();
    return platformCase;
}

/** The Reference platform, the oracle the other platforms are compared with. */
inline const PlatformCase ReferenceCase = {"Reference", ""};

/**
 * Whether the systematic setting matrices run in full (COORDINATION_TEST_QUICK unset) or as their covering designs
 * (COORDINATION_TEST_QUICK=1: the platforms where every setting is a kernel source to compile, OpenCL on the CPU in
 * CI). A matrix runs its settings in each of nine instances (three modes x three boxes); its covering design gives
 * each instance a share instead, chosen so that every setting (or every function with every kind of cutoff) and
 * every mode and box meet, without every combination: each instance compiles a ninth to a third of the sources.
 */
inline bool quickMatrices() {
    const char* text = std::getenv("COORDINATION_TEST_QUICK");
    return text != nullptr && std::string(text) == "1";
}

/**
 * Whether share `share` of a matrix that checks the engine's logic rather than arithmetic in one precision runs on this
 * platform case. With COORDINATION_TEST_QUICK=1 on a GPU platform, the shares are spread over the two precisions
 * tools/run-tests.sh runs this suite in there (share mod 2: single, double), so that each runs on one of them; mixed
 * precision (float pair terms, double sums), which that script leaves to the Python suite, runs every share, as does
 * every precision without the quick mode (tools/gpu-check.sh). Every switching type is still checked against the
 * Reference platform in every precision (GpuSwitchingMatrix).
 */
inline bool onThisPrecision(int share) {
    const PlatformCase& platformCase = testPlatform();
    if (!quickMatrices() || !platformCase.isGpu() || platformCase.precision.empty() || platformCase.precision == "mixed")
        return true;
    return share % 2 == (platformCase.precision == "single" ? 0 : 1);
}

/**
 * Every tolerance of the suite, by precision. In double precision (Reference, CPU, GPU double) the
 * brute-force oracle (long double) differs by rounding in a sum of ~1000 terms; in single and mixed
 * precision the GPU kernels must give s, energies and forces within 1e-5 relative (issue #3).
 */
namespace Tolerance {
inline const bool Double = testPlatform().isDoublePrecision();
/** s and energies against the brute force: relative to max(|expected|, 1). */
inline const double Coordination = (Double ? 1e-9 : 1e-5);
/**
 * Forces against the brute force: relative to the root mean square of the expected forces. Most
 * forces agree to ~1e-11; just outside the Taylor band (|x - 1| ~ 1e-5 to 1e-4) the closed-form
 * derivative loses digits to cancellation and is good to ~4e-8 only.
 */
inline const double ForceRelativeToRms = (Double ? 1e-7 : 1e-5);
/**
 * Rational's derivative just outside PLUMED's Taylor band, 1.1e-5 <= |x - 1| < 1e-3, where its double-precision
 * closed form (1 - x^n)/(1 - x^m), or the same of y = x^2, loses digits to cancellation: relative to the
 * slope (the Python suite's NEAR_ONE_BAND; measured against an 80-bit evaluation: 2.6e-8).
 */
constexpr double NearOneSlopeRelative = 1e-7;
constexpr double NearOneBandEnd = 1e-3;
/** Values that should agree to the last bits (the same computation done twice, exact numbers). */
inline const double Exact = (Double ? 1e-12 : 1e-6);
/**
 * GPU platforms accumulate forces in 64-bit fixed point with a resolution of 2^-32 kJ/mol/nm per
 * addition, in every precision; the CPU-side platforms have no such floor.
 */
inline const double ForceResolution = (testPlatform().isGpu() ? 1.0 / 4294967296.0 : 0.0);
/** Displacement (nm) of the central finite differences of the energy. */
constexpr double FiniteDifferenceStep = 1e-5;
/**
 * Forces against finite differences: truncation O(h^2) plus rounding O(eps |E| / h), relative to the
 * RMS force; the systems used show ~3e-9.
 */
constexpr double FiniteDifferenceRelativeToRms = 1e-7;
} // namespace Tolerance

const double Infinity = std::numeric_limits<double>::infinity();

} // namespace CoordinationTest

#endif /*COORDINATION_TEST_PLATFORM_H_*/
