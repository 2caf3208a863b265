#ifndef CPU_SWITCH_SUM_TERM_H_
#define CPU_SWITCH_SUM_TERM_H_

/*
 * The CoordinationForce's term of the CPU pair loops (src/CpuPairLoops.h): s = the sum over the pairs of sigma(r),
 * and with a gradient ds/dx. Included by CpuCalcCoordinationForceKernel.cpp only.
 */

#include "CpuPairLoops.h"

namespace CoordinationPlugin {
namespace {

/**
 * Each pair adds sigma(r) to the item's sum and, WithGradient, dsigma/dr delta / r to the gradient. Terms beyond the
 * cutoff and of the same atom are 0. Oriented: Self in a periodic box (the mode is the sweep's, known at run time).
 */
template <bool WithGradient, bool OrientedPairs>
struct CpuSwitchSumTerm {
    static constexpr bool Simd = true, Oriented = OrientedPairs, Gradient = WithGradient, Weighted = false;
    static constexpr bool Vector = false;
    static constexpr RowSums Sums = RowSums::Items;

    /** A row's terms: the row's particle (a column of the same atom adds nothing) and the cutoff. */
    struct Row {
        const double* particle;
        double particleI, cutoff2;
        COORDINATION_ALWAYS_INLINE bool keeps(int j, double r2, double sigma) const {
            return (r2 <= cutoff2) & (particle[j] != particleI);
        }
        COORDINATION_ALWAYS_INLINE double value(int j, double sigma, bool keep) const { return (keep ? sigma : 0.0); }
        template <class Sigma>
        COORDINATION_ALWAYS_INLINE double scale(int j, double r2, double sigma, bool keep, double orientation,
                                                const Sigma& form) const {
            const double slope = orientation * form.scale(r2);
            return (keep ? slope : 0.0);
        }
        inline bool skips(int j) const { return particle[j] == particleI; }
        inline bool beyond(double r2) const { return r2 > cutoff2; }
        inline bool add(int j, double r2, double sigma, double dSigmaDrOverR, double& sum, double& factor) const {
            sum += sigma;
            factor = dSigmaDrOverR;
            return dSigmaDrOverR != 0.0;
        }
    };

    COORDINATION_ALWAYS_INLINE int components() const { return 1; }
    COORDINATION_ALWAYS_INLINE bool isSelf(const Sweep& sweep) const { return sweep.self; }
    COORDINATION_ALWAYS_INLINE bool isPairMode(const Sweep& sweep) const { return sweep.pairMode; }
    COORDINATION_ALWAYS_INLINE const double* columnWeights() const { return nullptr; }
    COORDINATION_ALWAYS_INLINE Row row(const CpuCoordinationEntries& rows, int i, const ColumnView& columns,
                                       double cutoff2) const {
        return {columns.particle, rows.particle[i], cutoff2};
    }
};

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_SWITCH_SUM_TERM_H_*/
