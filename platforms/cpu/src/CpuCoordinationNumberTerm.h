#ifndef CPU_COORDINATION_NUMBER_TERM_H_
#define CPU_COORDINATION_NUMBER_TERM_H_

/*
 * The CoordinationNumberForce's terms of the CPU pair loops (src/CpuPairLoops.h), for its two passes over the same
 * work items. Included by CpuCalcCoordinationNumberForceKernel.cpp only.
 */

#include "CpuPairLoops.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include <cmath>

namespace CoordinationPlugin {
namespace {

/**
 * The per-atom engine's pair term (ResolvedPerAtom::PairTerm::SwitchTimesPower), v = sigma(r) r^p. The numbers pass
 * (Forces false) adds v of every pair to c of its row (an entry of A) and, in Self mode, of its column; the force
 * pass adds (w_row + w_column) dv/dr (Self) or w_row dv/dr (Dual) along the pair to the gradient, w being dE/dc. A
 * pair counts where minimumDistanceSquared <= r^2 <= dmax^2 and sigma(r) >= minimumSwitch (ResolvedPerAtom). The
 * vectorized loop takes p = 0 (WithPower false); any other power takes the scalar loop. Oriented: Self's forces in a
 * periodic box.
 */
template <bool Forces, bool SelfPairs, bool OrientedPairs, bool WithPower>
struct CpuCoordinationNumberTerm {
    static constexpr bool Simd = !WithPower, Oriented = OrientedPairs, Gradient = Forces, Weighted = Forces;
    static constexpr bool Vector = false;
    static constexpr RowSums Sums = (Forces ? RowSums::None : RowSums::Entries);
    static constexpr double MinimumR2 = ResolvedPerAtom::minimumDistanceSquared;
    static constexpr double MinimumSwitch = ResolvedPerAtom::minimumSwitch;

    double rPower;         // p of r^p (0: v = sigma)
    const double* weights; // the force pass: dE/dc of each entry of A, in entry order

    /** A row's terms: the cutoff, the power, the row's weight and the columns' weights (Self) or numbers (Self). */
    struct Row {
        double cutoff2, power, weightI;
        bool usePower;
        const double* columnWeight;
        double* columnNumbers;
        /** The numbers pass: the pair counts; the force pass: r^2 is in range (sigma is selected by scale()). */
        COORDINATION_ALWAYS_INLINE bool keeps(int j, double r2, double sigma) const {
            if (Forces)
                return (r2 <= cutoff2) & (r2 >= MinimumR2);
            return (r2 <= cutoff2) & (r2 >= MinimumR2) & (sigma >= MinimumSwitch);
        }
        COORDINATION_ALWAYS_INLINE double value(int j, double sigma, bool keep) const {
            const double term = (keep ? sigma : 0.0);
            if (SelfPairs)
                columnNumbers[j] += term;
            return term;
        }
        template <class Sigma>
        COORDINATION_ALWAYS_INLINE double scale(int j, double r2, double sigma, bool inRange, double orientation,
                                                const Sigma& form) const {
            // Two selects of doubles: with one of a combined mask, GCC pushes the comparison of sigma into
            // sigma's own select, a select of booleans, and the loop does not vectorize with AVX2.
            const double weight = (SelfPairs ? weightI + columnWeight[j] : weightI);
            const double slope = orientation * weight * form.scale(r2);
            const double slopeAboveMinimum = (sigma >= MinimumSwitch ? slope : 0.0);
            return (inRange ? slopeAboveMinimum : 0.0);
        }
        inline bool skips(int j) const { return false; }
        inline bool beyond(double r2) const { return r2 < MinimumR2 || r2 > cutoff2; }
        inline bool add(int j, double r2, double sigma, double dSigmaDrOverR, double& sum, double& factor) const {
            if (sigma < MinimumSwitch)
                return false;
            const double rToPower = (usePower ? std::pow(std::sqrt(r2), power) : 1.0);
            if constexpr (!Forces) {
                const double term = sigma * rToPower;
                sum += term;
                if (SelfPairs)
                    columnNumbers[j] += term;
                return false;
            }
            // dv/dr / r = (dsigma/dr r^p + p sigma r^(p - 1)) / r
            const double slope = dSigmaDrOverR * rToPower + (usePower ? power * sigma * rToPower / r2 : 0.0);
            const double weight = (SelfPairs ? weightI + columnWeight[j] : weightI);
            factor = weight * slope;
            return true;
        }
    };

    COORDINATION_ALWAYS_INLINE int components() const { return 1; }
    COORDINATION_ALWAYS_INLINE bool isSelf(const Sweep& sweep) const { return SelfPairs; }
    COORDINATION_ALWAYS_INLINE bool isPairMode(const Sweep& sweep) const { return false; }
    COORDINATION_ALWAYS_INLINE const double* columnWeights() const { return (Forces ? weights : nullptr); }
    COORDINATION_ALWAYS_INLINE Row row(const CpuCoordinationEntries& rows, int i, const ColumnView& columns,
                                       double cutoff2) const {
        return {cutoff2, rPower, (Forces ? weights[i] : 0.0), rPower != 0.0, columns.weight, columns.values};
    }
};

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_COORDINATION_NUMBER_TERM_H_*/
