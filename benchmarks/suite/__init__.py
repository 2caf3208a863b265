"""The benchmark suite's package; benchmarks/benchmark_suite.py is its command line (and its documentation).

    common      names of the contenders and case families, the progress log, Skip
    cases       Case, define_cases (S0-S5), the geometries and the count of the pairs in the sum
    plugin      every call on the plugin's forces: each case's force, what is read back, what a case needs of the module
    contenders  OpenMM's CustomCVForce route, the anchors, the Systems, PLUMED's published numbers
    timing      contexts, draining the queue, measure_added, the time budget, the pair-kernel ceiling
    runner      the contenders of cases S0-S5 and S2's moving rows (Prepared, attempt, run_case_contender)
    fluid       S2's moving rows: the LJ fluid's constants and its moving contexts
    md          case S6: MD of a TIP3P water box with and without the restraints
    report      Results (results.csv, results.md), the Markdown tables, the targets, the plot
"""
