#ifndef CPU_LOCAL_TERM_H_
#define CPU_LOCAL_TERM_H_

/*
 * The per-atom engine's local step in the CPU pair loops (src/CpuPairLoops.h): the local pass over the pairs of
 * group A, weighted by the local switching function t. Included by CpuLocalStep.cpp only.
 */

#include "CpuPairLoops.h"
#include "internal/peratom/ResolvedPerAtom.h"

namespace CoordinationPlugin {
namespace {

/**
 * The local pass's term (Self mode). The values pass (Forces false) reads x = [1, u] per entry of A (n numbers, entry
 * order) and adds t x_column to each counted pair's row's values and t x_row to its column's: the local sums [W, P].
 * The force pass reads [1, u, G] per entry (2n numbers, G = dE/d[W, P]), sets the gradient of t from dE/dt =
 * G_row . [1, u_column] + G_column . [1, u_row], and adds t G_column's P part to the row's values (from 1, of 2n per
 * entry) and t G_row's to the column's: the sums dE/du takes. A pair counts as on the Reference platform
 * (ResolvedPerAtom's minimum distance and switch).
 */
template <bool Forces, bool OrientedPairs> struct CpuLocalTerm {
    static constexpr bool Simd = false, Oriented = OrientedPairs, Gradient = Forces, Weighted = true;
    static constexpr bool Vector = true;
    static constexpr RowSums Sums = RowSums::Entries;

    const double* data; // per entry of A: x (n numbers; the force pass: [1, u, G], 2n numbers)
    int n;

    /** A row's terms: the cutoff, the row's values and the columns' (values pass), the row's data and the columns'. */
    struct Row {
        const CpuLocalTerm* term;
        double cutoff2;
        double* rowValues;
        double* columnValues;
        const double* rowData;
        const double* columnData;
        inline bool skips(int j) const { return false; }
        inline bool beyond(double r2) const { return r2 < ResolvedPerAtom::minimumDistanceSquared || r2 > cutoff2; }
        inline bool addVector(int j, const Vec3& d, double r2, double t, double dtDrOverR, Vec3& gradient) const {
            if (t < ResolvedPerAtom::minimumSwitch)
                return false;
            const int n = term->n;
            if constexpr (!Forces) {
                const double* column = columnData + (long long)j * n;
                double* values = columnValues + (long long)j * n;
                for (int c = 0; c < n; c++) {
                    rowValues[c] += t * column[c];
                    values[c] += t * rowData[c];
                }
                return false;
            }
            const double* column = columnData + (long long)j * 2 * n;
            double* values = columnValues + (long long)j * 2 * n;
            double dEdt = 0.0;
            for (int c = 0; c < n; c++)
                dEdt += rowData[n + c] * column[c] + column[n + c] * rowData[c];
            for (int c = 1; c < n; c++) {
                rowValues[c] += t * column[n + c];
                values[c] += t * rowData[n + c];
            }
            if (dEdt == 0.0)
                return false;
            gradient = d * (dEdt * dtDrOverR);
            return true;
        }
    };

    COORDINATION_ALWAYS_INLINE int components() const { return Forces ? 2 * n : n; }
    COORDINATION_ALWAYS_INLINE bool isSelf(const Sweep& sweep) const { return true; }
    COORDINATION_ALWAYS_INLINE bool isPairMode(const Sweep& sweep) const { return false; }
    COORDINATION_ALWAYS_INLINE const double* columnWeights() const { return data; }
    COORDINATION_ALWAYS_INLINE Row row(const CpuCoordinationEntries& rows, int i, const ColumnView& columns,
                                       double cutoff2) const {
        return {this,
                cutoff2,
                columns.rowValues + (long long)i * components(),
                columns.values,
                data + (long long)i * components(),
                columns.weight};
    }
};

} // namespace
} // namespace CoordinationPlugin

#endif /*CPU_LOCAL_TERM_H_*/
