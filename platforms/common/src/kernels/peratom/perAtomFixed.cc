/**
 * The per-atom engine's fixed-point numbers and pair tests, shared by its pair passes (perAtomPairs.cc) and the local
 * step's (localPairs.cc): each entry's sums are 64-bit fixed point (hi = v * 2^20, lo the fraction * 2^32), so that
 * they are the same in any order of the tiles.
 */
/**
 * Whether lane `lane` meets a pair at step k of a tile (see includePair; no same-atom rule: r^2 decides). diagonal:
 * 0 off Self's diagonal; 1 on it, the lane a row meeting column lane + k (counts where column > row); 2 on it, the
 * lane a column meeting row lane + k (vectorSweepLocal's second sweep: counts where that row < the column).
 */
DEVICE bool includeNumberPair(const bool checked, const int diagonal, const int lane, const int k,
        const real columnValid, const bool validRow) {
    bool include = true;
    if (checked) {
        include = validRow && columnValid != 0;
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


/** The number at a fixed-point row (hi at row, lo NUM_A rows later), cleared for the next evaluation. */
DEVICE mixed takeFixedNumber(GLOBAL volatile mm_long* rows, int row) {
    const mixed value = fixedToNumber(rows[row], rows[row + NUM_A]);
    rows[row] = 0;
    rows[row + NUM_A] = 0;
    return value;
}
