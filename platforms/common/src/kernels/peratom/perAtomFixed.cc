/**
 * The per-atom engine's fixed-point numbers and pair tests, shared by its pair passes (perAtomPairs.cc) and the local
 * step's (localPairs.cc): each entry's sums are 64-bit fixed point (hi = v * 2^20, lo the fraction * 2^32), so that
 * they are the same in any order of the tiles.
 */
#ifdef NEIGHBOR_PARTNERS
/** A row's class where the local neighbours have their own partners (perAtomPairs.cc): 0 no row, 1 or 2. */
typedef int RowClass;
#else
/** Whether a row is there: a bool (with an int, Q6's pair passes take 7 % longer on an H200; docs/DESIGN.md). */
typedef bool RowClass;
#endif

/**
 * Whether lane `lane` meets a pair at step k of a tile (see includePair; no same-atom rule: r^2 decides). diagonal:
 * 0 off Self's diagonal; 1 on it, the lane a row meeting column lane + k (counts where column > row); 2 on it, the
 * lane a column meeting row lane + k (vectorSweepLocal's second sweep: counts where that row < the column).
 */
DEVICE bool includeNumberPair(const bool checked, const int diagonal, const int lane, const int k,
        const real columnValid, const RowClass validRow) {
    bool include = true;
    if (checked) {
#ifdef NEIGHBOR_PARTNERS
        include = validRow != 0 && columnValid == (real) validRow; // both of the same class (perAtomPairs.cc)
#else
        include = validRow && columnValid != 0;
#endif
        if (diagonal == 1)
            include = include && k > 0 && lane + k < TILE_SIZE;
        else if (diagonal == 2)
            include = include && k > 0 && lane + k >= TILE_SIZE;
    }
    return include;
}

/**
 * Add v to a fixed-point number: v * 2^20 = hi + lo * 2^-32, both integers (as addFixedPoint): c is then the same sum
 * in any order of the tiles.
 */
DEVICE void addFixedNumber(mm_long* hi, mm_long* lo, real value) {
    const real scaled = value * (real) 1048576;
    const real whole = floor(scaled);
    *hi += (mm_long) whole;
    *lo += (mm_long) ((scaled - whole) * (real) 4294967296.0);
}

/**
 * Whether a value that becomes fixed point (a pair's v, or a tile's sum of them) is NaN or not below NUMBER_PAIR_LIMIT
 * in magnitude.
 */
DEVICE bool beyondNumberRange(mixed value) {
    return !(fabs(value) < (mixed) NUMBER_PAIR_LIMIT);
}

/** Add a fixed-point sum to row `row` of the numbers (hi rows, then lo rows). */
DEVICE void addNumber(GLOBAL mm_long* RESTRICT numbersFixed, int row, mm_long hi, mm_long lo) {
    ATOMIC_ADD((GLOBAL mm_ulong*) &numbersFixed[row], (mm_ulong) hi);
    ATOMIC_ADD((GLOBAL mm_ulong*) &numbersFixed[row + NUM_A], (mm_ulong) lo);
}

DEVICE mixed fixedToNumber(mm_long hi, mm_long lo) {
    return (mixed) hi * (mixed) (1.0 / 1048576.0) + (mixed) lo * (mixed) (1.0 / 4503599627370496.0);
}

/** A sum as fixed point (as addFixedNumber), once per tile: *hi, *lo. */
DEVICE void sumToFixed(mixed sum, mm_long* hi, mm_long* lo) {
    const mixed scaled = sum * (mixed) 1048576;
    const mixed whole = floor(scaled);
    *hi = (mm_long) whole;
    *lo = (mm_long) ((scaled - whole) * (mixed) 4294967296.0);
}

/** Add an entry's tile sum of component c (a sum that becomes fixed point once per tile) to its rows at `slot`. */
DEVICE void addSumToNumber(GLOBAL mm_long* RESTRICT numbersFixed, const int c, const int slot, const mixed sum) {
    mm_long hi, lo;
    sumToFixed(sum, &hi, &lo);
    addNumber(numbersFixed + 2 * c * NUM_A, slot, hi, lo);
}

/**
 * The fixed-point rows as the finish reads them: volatile where pass 1's last block reads the other blocks' sums
 * (FUSED_FINISH), plain in a kernel of its own (the launch makes the sums visible), so that its loads overlap.
 */
#ifdef FUSED_FINISH
#define FIXED_ROWS GLOBAL volatile mm_long*
#else
#define FIXED_ROWS GLOBAL mm_long*
#endif

/**
 * The numbers of `count` fixed-point rows of an entry (number c: hi at 2 c NUM_A + row, lo NUM_A rows later) into
 * values, cleared for the next evaluation: every load first, then the stores, so that the loads are in flight
 * together (one after another, an entry of 14 numbers waited for 28 memory round trips in turn).
 */
DEVICE void takeFixedNumbers(FIXED_ROWS rows, int row, int count, mixed* values) {
    for (int c = 0; c < count; c++)
        values[c] = fixedToNumber(rows[2 * c * NUM_A + row], rows[(2 * c + 1) * NUM_A + row]);
    for (int c = 0; c < count; c++) {
        rows[2 * c * NUM_A + row] = 0;
        rows[(2 * c + 1) * NUM_A + row] = 0;
    }
}
