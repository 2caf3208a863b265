#ifndef CPU_PER_ATOM_VECTOR_TERM_H_
#define CPU_PER_ATOM_VECTOR_TERM_H_

/*
 * The per-atom engine's terms of several components (SteinhardtForce's sigma and sigma Y_lm) in the CPU pair loops
 * (src/CpuPairLoops.h), for the two passes over the same work items. Included by CpuCalcPerAtomForceKernel.cpp only.
 */

#include "CpuPairLoops.h"
#include "internal/peratom/PerAtomSteps.h"
#include "internal/peratom/ResolvedPerAtom.h"
#include "internal/peratom/SphericalHarmonics.h"
#include <cmath>

namespace CoordinationPlugin {
namespace {

/**
 * A pair term of K components (PerAtomSteps::pairTerm) in the scalar loop. The values pass (Forces false) adds the
 * K terms of each counted pair to its row's values and, in Self mode, its column's (the terms at -d: the row's times
 * PerAtomSteps::componentParity); the force pass sets the gradient of sum_c (w_row,c + s_c w_column,c) term_c (Self;
 * Dual: the row's weights alone), the weights being dE/dv. A pair counts where minimumDistanceSquared <= r^2 <= dmax^2
 * and sigma(r) >= minimumSwitch (ResolvedPerAtom), as on the Reference platform. Oriented: Self's forces in a
 * periodic box.
 */
template <bool Forces, bool SelfPairs, bool OrientedPairs> struct CpuPerAtomVectorTerm {
    static constexpr bool Simd = false, Oriented = OrientedPairs, Gradient = Forces, Weighted = Forces;
    static constexpr bool Vector = true;
    static constexpr RowSums Sums = (Forces ? RowSums::None : RowSums::Entries);
    static constexpr int MaxComponents = 2 * SphericalHarmonics::MaxDegree + 2;

    const PerAtomSteps* steps;
    const double* parity;  // componentParity of each component
    const double* weights; // the force pass: dE/dv of each entry of A, K per entry, in entry order
    int numComponents;
    // With the local neighbours' own partners (ResolvedPerAtomForce::countsPair): the slots of A before numCentral
    // pair with B's slots before numOwnB, the others with the others; numOwnB < 0: every pair counts.
    int numCentral = 0, numOwnB = -1;

    /** A row's terms: the cutoff, the row's values or weights and the columns' (Self). */
    struct Row {
        const CpuPerAtomVectorTerm* term;
        double cutoff2;
        double* rowValues;
        double* columnValues;
        const double* rowWeights;
        const double* columnWeights;
        const double* columnSlot; // B's slot of each column
        bool central;             // whether the row is one of the slots of A before numCentral
        inline bool skips(int j) const { return term->numOwnB >= 0 && (columnSlot[j] < term->numOwnB) != central; }
        inline bool beyond(double r2) const { return r2 < ResolvedPerAtom::minimumDistanceSquared || r2 > cutoff2; }
        inline bool addVector(int j, const Vec3& d, double r2, double sigma, double dSigmaDrOverR,
                              Vec3& gradient) const {
            if (sigma < ResolvedPerAtom::minimumSwitch)
                return false;
            const int K = term->numComponents;
            const double r = std::sqrt(r2);
            if constexpr (!Forces) {
                double terms[MaxComponents];
                term->steps->pairTerm(d, r, sigma, dSigmaDrOverR * r, terms, nullptr);
                for (int c = 0; c < K; c++)
                    rowValues[c] += terms[c];
                if (SelfPairs)
                    for (int c = 0; c < K; c++)
                        columnValues[(long long)j * K + c] += term->parity[c] * terms[c];
                return false;
            }
            double weight[MaxComponents];
            bool any = false;
            for (int c = 0; c < K; c++) {
                weight[c] = rowWeights[c] + (SelfPairs ? term->parity[c] * columnWeights[(long long)j * K + c] : 0.0);
                any = any || weight[c] != 0.0;
            }
            if (!any)
                return false;
            gradient = term->steps->pairGradient(d, r, sigma, dSigmaDrOverR * r, weight);
            return true;
        }
    };

    COORDINATION_ALWAYS_INLINE int components() const { return numComponents; }
    COORDINATION_ALWAYS_INLINE bool isSelf(const Sweep& sweep) const { return SelfPairs; }
    COORDINATION_ALWAYS_INLINE bool isPairMode(const Sweep& sweep) const { return false; }
    COORDINATION_ALWAYS_INLINE const double* columnWeights() const { return (Forces ? weights : nullptr); }
    COORDINATION_ALWAYS_INLINE Row row(const CpuCoordinationEntries& rows, int i, const ColumnView& columns,
                                       double cutoff2) const {
        const long long offset = (long long)i * numComponents;
        return {this,
                cutoff2,
                (Forces ? nullptr : columns.rowValues + offset),
                columns.values,
                (Forces ? weights + offset : nullptr),
                columns.weight,
                columns.slot,
                rows.slot[i] < numCentral};
    }
};

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_PER_ATOM_VECTOR_TERM_H_*/
