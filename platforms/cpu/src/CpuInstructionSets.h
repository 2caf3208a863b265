#ifndef CPU_INSTRUCTION_SETS_H_
#define CPU_INSTRUCTION_SETS_H_

/*
 * Which instruction sets the CPU platform's pair loops are built for, and how their callees are compiled into each
 * build.
 *
 * The loops (src/CpuPairLoops.h) have internal linkage and the functions they call are always inlined, so that each
 * build of an item loop gets every callee compiled for its own instruction set: with external linkage, a compiler
 * (GCC 13) may keep a callee out of line and compiled for the baseline instruction set, and the AVX2 build then loses
 * most of its vector arithmetic.
 */

/** GCC and Clang on x86-64: the vectorized pair loops are also built for AVX2 + FMA, chosen at run time. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define COORDINATION_CPU_AVX2 1
#else
#define COORDINATION_CPU_AVX2 0
#endif

/** Always inlined (GCC, Clang): the vectorized loop's callees, compiled into each instruction set's build. */
#if defined(__GNUC__) || defined(__clang__)
#define COORDINATION_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define COORDINATION_ALWAYS_INLINE inline
#endif

#endif /*CPU_INSTRUCTION_SETS_H_*/
