/**
 * Reductions over a block, written once for every program (after common.cc). Every one has a fixed order, so the same
 * values give the same bits in every block and every evaluation; every thread of the block calls it at the same
 * place (it holds barriers) and gets the result. Two orders:
 *   tree         (every platform) in local memory: sumOverBlockTree, longSumOverBlockTree. CoordinationForce's pair
 *                kernel and finish sum s in this order.
 *   by warps     (CUDA) shuffles within each warp, then the warps' results in order; the tree elsewhere:
 *                sumOverBlock, longSumOverBlock, maxOverBlock, minOverBlock, minIndexOverBlock (the per-atom
 *                engine's finish, the contact map).
 */

/** The tree in local memory: thread t adds t + step for step = 1, 2, 4, ... (COMBINE of first and second). */
#define DEFINE_TREE_OVER_BLOCK(NAME, TYPE, COMBINE) \
DEVICE TYPE NAME(TYPE value, LOCAL_ARG volatile TYPE* temp) { \
    const int thread = LOCAL_ID; \
    SYNC_THREADS; \
    temp[thread] = value; \
    SYNC_THREADS; \
    for (int step = 1; step < LOCAL_SIZE; step *= 2) { \
        if (thread + step < LOCAL_SIZE && thread % (2 * step) == 0) { \
            const TYPE first = temp[thread], second = temp[thread + step]; \
            temp[thread] = (COMBINE); \
        } \
        SYNC_THREADS; \
    } \
    return temp[0]; \
}

#ifdef USE_WARP_SHUFFLE
/** By warps (CUDA): each warp's lanes by shuffles (offsets 16, 8, ..., 1), then the warps' results in order. */
#define DEFINE_COMBINE_OVER_BLOCK(NAME, TYPE, COMBINE) \
DEVICE TYPE NAME(TYPE value, LOCAL_ARG volatile TYPE* temp) { \
    for (int offset = 16; offset > 0; offset /= 2) { \
        const TYPE first = value, second = __shfl_down_sync(0xffffffff, value, offset); \
        value = (COMBINE); \
    } \
    SYNC_THREADS; \
    if (LOCAL_ID % 32 == 0) \
        temp[LOCAL_ID / 32] = value; \
    SYNC_THREADS; \
    value = temp[0]; \
    for (int warp = 1; warp < LOCAL_SIZE / 32; warp++) { \
        const TYPE first = value, second = temp[warp]; \
        value = (COMBINE); \
    } \
    return value; \
}
#else
#define DEFINE_COMBINE_OVER_BLOCK(NAME, TYPE, COMBINE) DEFINE_TREE_OVER_BLOCK(NAME, TYPE, COMBINE)
#endif

DEFINE_TREE_OVER_BLOCK(sumOverBlockTree, mixed, first + second)
DEFINE_TREE_OVER_BLOCK(longSumOverBlockTree, mm_long, first + second)
DEFINE_COMBINE_OVER_BLOCK(sumOverBlock, mixed, first + second)
DEFINE_COMBINE_OVER_BLOCK(longSumOverBlock, mm_long, first + second)
DEFINE_COMBINE_OVER_BLOCK(maxOverBlock, mixed, first >= second ? first : second)
DEFINE_COMBINE_OVER_BLOCK(minOverBlock, mixed, first <= second ? first : second)
DEFINE_COMBINE_OVER_BLOCK(minIndexOverBlock, int, first <= second ? first : second)

/**
 * The sums over the block of count 64-bit fixed-point partials (hi at partials[2 p], lo at partials[2 p + 1]), into
 * *hi and *lo in every thread: integers, so exact in any order (the tree's here).
 */
DEVICE void fixedPartialsOverBlock(GLOBAL volatile const mm_long* partials, int count, mm_long* hi, mm_long* lo,
        LOCAL_ARG volatile mm_long* temp) {
    mm_long hiSum = 0, loSum = 0;
    for (int p = LOCAL_ID; p < count; p += LOCAL_SIZE) {
        hiSum += partials[2 * p];
        loSum += partials[2 * p + 1];
    }
    *hi = longSumOverBlockTree(hiSum, temp);
    *lo = longSumOverBlockTree(loSum, temp);
}

#ifdef MIXED_IS_DOUBLE
#define LARGEST_MIXED 1.0e308
#else
#define LARGEST_MIXED 3.0e38f
#endif
#define NO_ENTRY 0x7fffffff

/**
 * The first entry holding the highest (lowest) value over the block, from each thread's best and its entry
 * (NO_ENTRY: none); its value in *extreme.
 */
DEVICE int extremeOverBlock(mixed best, int bestIndex, const bool highest, mixed* extreme,
        LOCAL_ARG volatile mixed* valueTemp, LOCAL_ARG volatile int* indexTemp) {
    if (bestIndex == NO_ENTRY)
        best = (highest ? (mixed) -LARGEST_MIXED : (mixed) LARGEST_MIXED);
    const mixed value = (highest ? maxOverBlock(best, valueTemp) : minOverBlock(best, valueTemp));
    *extreme = value;
    return minIndexOverBlock(best == value ? bestIndex : NO_ENTRY, indexTemp);
}

/** Keep (value, index) if it beats (*best, *bestIndex): higher (lower), or as good at a lower entry. */
DEVICE void keepExtreme(mixed value, int index, const bool highest, mixed* best, int* bestIndex) {
    if (index == NO_ENTRY)
        return;
    if (*bestIndex == NO_ENTRY || (highest ? value > *best : value < *best) || (value == *best && index < *bestIndex)) {
        *best = value;
        *bestIndex = index;
    }
}

/**
 * The inclusive prefix sum of scan[0, size) in local memory, in place: thread `index` (< size) owns entry
 * index. Holds barriers, so every thread of the block calls it, at one place of its kernel.
 */
DEVICE void inclusiveScan(LOCAL_ARG int* scan, int index, int size) {
    for (int offset = 1; offset < size; offset *= 2) {
        const int add = (index >= offset ? scan[index - offset] : 0);
        SYNC_THREADS;
        scan[index] += add;
        SYNC_THREADS;
    }
}
