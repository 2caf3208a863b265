#!/usr/bin/env python
"""The benchmark suite: CoordinationForce against OpenMM's own route, OpenMM's pair loops and PLUMED's published
numbers.

One command builds the same systems for every contender, runs them in one process, prints Markdown
tables and writes results.md, results.csv and results.png (if matplotlib imports) into --out.

Contenders
  openmm-coordination   this plugin on --platform, at each of --precisions (default single, mixed)
  OpenMM CustomCVForce  the way cvpack builds it: a CustomCVForce with the same energy of s, whose
                        collective variable s is a CustomNonbondedForce (interaction group A x A for
                        Self, A x B for Dual; cutoff dmax) or, in Pair mode, a CustomBondForce
  anchors (Self and Dual cases with a cutoff; OpenMM's pair loop on the same pairs):
    OpenMM CustomNonbondedForce      energy sigma(r) per pair (sums to s), cutoff dmax, no interaction groups
                                     (per-particle flags zero the pairs outside the groups: a1*b2+a2*b1 in Dual)
    OpenMM CustomCVForce, no groups  a CustomCVForce of the same energy of s over that CustomNonbondedForce
    OpenMM NonbondedForce LJ+RF      a real MD pair loop on the groups' particles (sigma 0.3 nm, epsilon
                                     0.5 kJ/mol, charges +-0.1, reaction field, cutoff dmax); it has no s
  Reference, CPU        this plugin on OpenMM's CPU-side platforms, for small cases (pairs <= --small-pairs)
  PLUMED (published)    PLUMED's own numbers for its COORDINATION benchmark (case S0), on an H100

Timing: the System's particles are massless, so a VerletIntegrator leaves them in place and every step
sees the same pairs. For each contender the same System is built once with the biasing force and once
with a do-nothing force instead; each repetition times integrator.step(K) followed by
context.getState(getEnergy=True, groups={31}) (an empty force group: it drains the GPU queue without a
further force evaluation), K chosen so that one repetition takes >= --min-rep-ms. Repetitions of the
two contexts alternate; the medians of the per-step times are subtracted: "ms per evaluation" IS that
added time per MD step. A contender is skipped (with the reason) when a first single step says its
repetitions would take longer than --max-seconds-per-case, or when OpenMM's route would need longer than
that (or > 16 GB) just to build its interaction-group tiles, and work stops when --budget-seconds is
spent (results.* are rewritten after every row, so an interrupted run leaves what it measured). Order: the
plugin on every case (S2's moving rows with it), S6, then the anchors, OpenMM's routes and the CPU platforms.

Cases (r0 = 0.3 nm, n = 6, m = 12, energy 0.5*k*(s-s0)^2, random boxes at 100 atoms/nm^3 with PBC,
automatic dmax (PLUMED's keyword form, stretched), unless said):
  S0  PLUMED's benchmark: simple-cubic 1 nm lattice, Self, r0 = 1 nm (dmax 6.81 nm), no PBC; N = 1k, 16k, 128k
  S1  Self, all pairs (no cutoff, no PBC: a random cube); N = 1k, 4k, 16k, 32k, 64k, 128k (powers of two)
  S2  Self, dmax = 1 nm without stretch and automatic (2.04 nm); N = 10k, 100k, 1M;
      "moving" rows at dmax = 1 nm, N = 100k, 1M: the particles are an LJ fluid in MD (18 amu, sigma 0.2 nm,
      Langevin 1 fs, 300 K), with and without the plugin, so its neighbour list is rebuilt as in MD
  S3  Dual, disjoint groups: 1k x 1k, 100 x 100k, 1 x 100k, 100k x 1, 10k x 10k
  S4  Pair: 1k, 100k, 1M pairs (2 particles per pair; each partner 0.1-0.6 nm from its first atom)
  S5  slow branches on S2's 10k box: (n=6, m=10), d0 = 0.1 nm, (n=5, m=11)
  N   per-atom numbers: CoordinationNumberForce SPECIES (MoreThan + Mean) at 1k, 10k, 100k atoms (S2's box
      density, dmax = 1 nm), each next to CoordinationForce Self on the same atoms (the plugin only)
  Q   Steinhardt's Q6: SteinhardtForce SPECIES (Mean + MoreThan R_0=0.5) on N's atoms and function, the same with
      PLUMED's LOCAL_Q6 and LOCAL_AVERAGE steps (local switching function the Q6's), SIMPLECUBIC and TETRAHEDRAL,
      next to N's CoordinationNumberForce rows (the plugin only)
  M   contact maps: ContactMapForce SUM of 1k, 10k, 100k rational contacts (r0 = 0.3 nm, no cutoff) on S4's pairs
      (the plugin only)
  S6  MD: a 23.6k-atom TIP3P box (PME, 0.9 nm, HBonds, Langevin 2 fs); no bias, + a 1k x 1k Dual
      restraint on water oxygens, + a 100-oxygen Self restraint; ns/day and slowdown
  T   every switching type (Rational 6/12, 6/10, 5/11 with d0, Exponential, Gaussian, Smap, Tanh, Cosinus, NativeQ,
      Custom of x and of x2, Cubic), Self over 16,384 atoms, no cutoff and dmax = 1 nm; the plugin only
  C   the CPU-side platforms: the plugin on Reference and on CPU at 1, 2, 4, ... threads (--cpu-threads): Self over
      20,000 atoms at dmax = 1 nm and automatic (2.04 nm), Dual 2k x 18k automatic, PLUMED's lattice 1k and 16k
"pairs" is the number of unique pairs in the sum: all pairs without a cutoff; with one, the pairs
within dmax, counted exactly (cKDTree or brute force) where cheap, else the uniform-density estimate
(column "pairs from"). "candidates/pairs" divides the pairs the plugin's kernel tests against the cutoff per
evaluation (CoordinationForce.getNumCandidatePairsInContext) by "pairs". "% ceiling"
divides pairs/s by benchmarks/pair_ceiling.cu's measured ceiling (single precision for single and mixed;
double for double), on CUDA when nvcc is found. Targets: see benchmarks/README.md.

    python3 benchmarks/benchmark_suite.py --platform CUDA --out /tmp/benchmarks
    python3 benchmarks/benchmark_suite.py --platform OpenCL --precisions single --quick --out /tmp/bench-quick
    python3 benchmarks/benchmark_suite.py --plot-only docs/benchmarks/results.csv
    python3 benchmarks/benchmark_suite.py --report-only docs/benchmarks/results.csv --out docs/benchmarks
    python3 benchmarks/benchmark_suite.py --cases T,C --resume --out docs/benchmarks   # add families to a page
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the package suite/ next to this script

from suite.cases import define_cases  # noqa: E402
from suite.common import ALL_FAMILIES, CUSTOM_NONBONDED, NONBONDED, OPENMM, OPENMM_NO_GROUPS, PLUGIN, log  # noqa: E402
from suite.contenders import add_published  # noqa: E402
from suite.md import run_md  # noqa: E402
from suite.report import (Results, ceilings_from_rows, check_agreement, evaluate_targets, header_lines,  # noqa: E402
                          read_csv, run_description, write_plot)
from suite.runner import Prepared, run_cpu_platforms, run_on_platform, supported_cases  # noqa: E402
from suite.timing import Budget, measure_ceiling  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--platform", default="CUDA", help="platform of the plugin and OpenMM's route (CUDA)")
    parser.add_argument("--precisions", nargs="+", default=["single", "mixed"],
                        help="precisions on --platform (space- or comma-separated; default single mixed)")
    parser.add_argument("--cases", default=",".join(ALL_FAMILIES), help="case families, e.g. S0,S1,S6 (default all)")
    parser.add_argument("--match", help="only the cases whose label matches this regular expression, e.g. 'dmax=1 nm'")
    parser.add_argument("--contenders", default="all",
                        help="comma-separated contenders on --platform: plugin, custom-nonbonded, nonbonded, openmm, "
                             "openmm-no-groups, cpu (default all)")
    parser.add_argument("--no-ceiling", action="store_true", help="do not compile and run the pair-kernel ceiling")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (N <= 2000) for a smoke test")
    parser.add_argument("--out", default="docs/benchmarks", help="folder for results.md/.csv/.png")
    parser.add_argument("--max-seconds-per-case", type=float, default=60.0,
                        help="skip a contender whose timing (or OpenMM's set-up) would take longer (60)")
    parser.add_argument("--budget-seconds", type=float, default=450.0,
                        help="stop starting new work after this many seconds (450)")
    parser.add_argument("--reps", type=int, default=7, help="repetitions on --platform (7)")
    parser.add_argument("--runs", type=int, default=1,
                        help="measure every chosen row this many times, one run of all the chosen families after "
                             "another, and report each row's median (its note lists the runs; default 1)")
    parser.add_argument("--cpu-reps", type=int, default=3, help="repetitions on Reference and CPU (3)")
    parser.add_argument("--min-rep-ms", type=float, default=20.0, help="minimum length of one repetition (20 ms)")
    parser.add_argument("--small-pairs", type=float, default=5e6,
                        help="run Reference and CPU when the groups have at most this many pairs (5e6)")
    parser.add_argument("--cpu-platforms", default="Reference,CPU", help="CPU-side platforms for small cases")
    parser.add_argument("--md-precision", default="mixed", help="precision of case S6 (mixed)")
    parser.add_argument("--nvcc", help="nvcc for the pair-kernel ceiling (default: PATH, /usr/local/cuda/bin)")
    parser.add_argument("--targets", action=argparse.BooleanOptionalAction, default=True,
                        help="print the performance targets with PASS/MISS at the end (default on)")
    parser.add_argument("--cpu-threads", help="case C's CPU thread counts, e.g. 1,16 (default 1, 2, 4, ... the cores)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the rows of --out's results.csv; a row measured again replaces its old one")
    parser.add_argument("--report-only", metavar="CSV", help="only rewrite results.md and results.png (into --out) "
                                                               "from a results.csv")
    parser.add_argument("--plot-only", metavar="CSV", help="only redraw results.png (into --out) from a results.csv")
    options = parser.parse_args()
    options.precisions = [p for item in options.precisions for p in item.split(",") if p]
    if options.runs < 1:
        parser.error("--runs: at least 1")
    options.families = [f.strip() for f in options.cases.split(",") if f.strip()]
    unknown = set(options.families) - set(ALL_FAMILIES)
    if unknown:
        parser.error(f"unknown case families {sorted(unknown)}; choose from {','.join(ALL_FAMILIES)}")
    contenders = {"plugin": PLUGIN, "custom-nonbonded": CUSTOM_NONBONDED, "nonbonded": NONBONDED, "openmm": OPENMM,
                  "openmm-no-groups": OPENMM_NO_GROUPS, "cpu": "cpu"}
    chosen = list(contenders) if options.contenders == "all" else [c.strip() for c in options.contenders.split(",")]
    unknown = set(chosen) - set(contenders)
    if unknown:
        parser.error(f"unknown contenders {sorted(unknown)}; choose from {','.join(contenders)}")
    options.contenders = {contenders[c] for c in chosen}
    if options.match:
        try:
            options.match = re.compile(options.match)
        except re.error as error:
            parser.error(f"--match: {error}")
    return options


def run_all(cases, options, prepared, results, budget, state):
    """One run of the chosen contenders over the cases, in the order the budget cuts last first."""
    if PLUGIN in options.contenders:
        run_on_platform(cases, PLUGIN, options, prepared, results, budget, state)
    if "S6" in options.families and PLUGIN in options.contenders:
        run_md(options, results, budget)
    if "cpu" in options.contenders:  # case C, before the contenders the budget cuts first
        run_cpu_platforms([case for case in cases if case.family == "C"], options, prepared, results, budget, state)
    for contender in (CUSTOM_NONBONDED, NONBONDED, OPENMM, OPENMM_NO_GROUPS):  # the budget cuts the last first
        if contender in options.contenders:
            run_on_platform(cases, contender, options, prepared, results, budget, state)
    if "cpu" in options.contenders:
        run_cpu_platforms([case for case in cases if not case.moving and case.family not in ("C", "T")], options,
                          prepared, results, budget, state)


def main():
    options = parse_arguments()
    if options.plot_only:
        os.makedirs(options.out, exist_ok=True)
        print(write_plot(read_csv(options.plot_only), os.path.join(options.out, "results.png")))
        return
    if options.report_only:
        rows = read_csv(options.report_only)
        results = Results(options.out, header_lines, ceilings_from_rows(rows), "", lambda: "", rows)
        if options.targets:
            results.target_lines = evaluate_targets(rows, options.platform)
        results.write()
        print(write_plot(rows, os.path.join(options.out, "results.png")))
        return
    budget = Budget(options.budget_seconds)
    state = {}
    ceilings, ceiling_note = ({}, "No pair-kernel ceiling: --no-ceiling.") if options.no_ceiling \
        else measure_ceiling(options)
    log(ceiling_note)
    previous_csv = os.path.join(options.out, "results.csv")
    previous = read_csv(previous_csv) if options.resume and os.path.exists(previous_csv) else []
    results = Results(options.out, header_lines, ceilings, ceiling_note, lambda: run_description(options, state),
                      previous)
    cases = [case for case in define_cases(options.quick) if case.family in options.families
             and (options.match is None or options.match.search(case.label))]
    cases = supported_cases(cases, options, results)  # what the imported plugin lacks: one line per case skipped
    prepared = Prepared()
    add_published(cases, prepared, results)
    log(f"cases: {', '.join(case.label for case in cases)}")
    for run in range(options.runs):
        if options.runs > 1:
            log(f"run {run + 1} of {options.runs}")
        run_all(cases, options, prepared, results, budget, state)
    check_agreement(results)
    if options.targets:
        results.target_lines = evaluate_targets(results.rows, options.platform)
    results.write()
    plot_note = write_plot(results.rows, os.path.join(options.out, "results.png"))
    log(plot_note)
    print(results.markdown(full=False))
    print(plot_note)
    log(f"done: {len(results.rows)} rows in {options.out}")


if __name__ == "__main__":
    main()
