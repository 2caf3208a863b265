"""Running the contenders of cases S0-S5 (and S2's moving rows): the shared geometries and Systems, one row per
(case, contender, platform, precision), skipped or failed rows recorded with the reason."""
import math
import os
import time

from . import fluid
from .cases import count_unique_pairs, make_geometry
from .common import NATIVE_PRECISION, OPENMM, PLUGIN, Skip, log
from .contenders import (build_system, coordination_of, kernel_candidates, openmm_setup_problem,
                         periodic_cutoff_problem, runs_on)
from .plugin import unsupported
from .report import case_fields, measured_fields
from .timing import device_name, make_context, measure_added, platform_label, platform_precisions


class Prepared:
    """Geometry, pair count and Systems of the cases, built once and shared by the contenders."""

    def __init__(self):
        self.geometries, self.counts, self.systems = {}, {}, {}

    def geometry(self, case):
        key = (case.geometry, case.particles, case.mode, case.seed)
        if key not in self.geometries:
            self.geometries[key] = make_geometry(case)
        return self.geometries[key]

    def pairs(self, case):
        """(pairs in the sum, how counted)."""
        if case not in self.counts:
            start = time.perf_counter()
            self.counts[case] = count_unique_pairs(case, self.geometry(case))
            log(f"{case.label}: {self.counts[case][0]:.4g} pairs in the sum ({self.counts[case][1]}, "
                f"{time.perf_counter() - start:.1f} s)")
        return self.counts[case]

    def system(self, case, contender):
        """The System of a contender (None: the baseline)."""
        key = (case, contender)
        if key not in self.systems:
            self.systems[key] = build_system(case, contender, self.geometry(case))
        return self.systems[key]


def check_setup(case, contender, geometry, options):
    """Raise Skip where OpenMM refuses the case's cutoff or its route's set-up would take too long."""
    if contender == PLUGIN:
        return
    problem = openmm_setup_problem(case, geometry) if contender == OPENMM else periodic_cutoff_problem(case, geometry)
    if isinstance(problem, str):
        raise Skip(problem)
    if problem is not None and problem > options.max_seconds_per_case:
        raise Skip(f"OpenMM's interaction-group set-up would take about {problem:.0f} s "
                   f"(checks every atom pair of the groups) > --max-seconds-per-case")


def start_context(case, system, positions, platform, precision, options):
    """A context whose particles stay in place, or in the moving rows an equilibrated moving one."""
    if case.moving:
        return fluid.fluid_context(system, positions, platform, precision, fluid.steps(options.quick))
    return make_context(system, positions, platform, precision)


def run_contender(case, contender, platform, precision, prepared, options, reps, state):
    """Measure one contender on one case; returns the row fields beyond the case's. In the moving rows both
    contexts run the LJ fluid's MD, at least fluid.steps() steps a repetition."""
    geometry = prepared.geometry(case)
    pairs, _ = prepared.pairs(case)
    check_setup(case, contender, geometry, options)
    base = start_context(case, prepared.system(case, None), geometry.positions, platform, precision, options)
    start = time.perf_counter()
    biased_system = prepared.system(case, contender)
    biased = start_context(case, biased_system, geometry.positions, platform, precision, options)
    state.setdefault("device", device_name(biased[0]))
    setup = time.perf_counter() - start
    measurement = measure_added(base, biased, options, reps, options.min_rep_ms / 1e3,
                                fluid.steps(options.quick) if case.moving else 1)
    s = coordination_of(contender, case, biased[0], biased_system)
    fields = measured_fields(measurement, pairs, s)
    fields["kernel_candidates"] = kernel_candidates(contender, case, biased[0], biased_system)
    log(f"{case.label} | {contender} | {platform} {precision}: {measurement.added * 1e3:.4g} ms/eval, "
        f"s = {'none' if s is None else f'{s:.7g}'} (set-up {setup:.1f} s, K = {measurement.steps}, "
        f"{measurement.reps} reps)")
    if contender == OPENMM and case.pbc and math.isinf(case.effective_dmax):
        fields["note"] = (fields["note"] + "; " if fields["note"] else "") + "NoCutoff: OpenMM ignores PBC, s differs"
    return fields


def attempt(results, base_fields, work):
    """Run work() -> fields; record the row as ok, skipped or failed."""
    try:
        fields = work()
    except Skip as reason:
        fields = {"status": "skipped", "note": str(reason)}
        log(f"{base_fields.get('label')} | {base_fields.get('contender')} | {base_fields.get('platform')}: "
            f"skipped: {reason}")
    except Exception as error:  # an OpenMMException or a memory error: record it and go on
        message = " ".join(str(error).split())[:300]
        fields = {"status": "failed", "note": f"{type(error).__name__}: {message}"}
        log(f"{base_fields.get('label')} | {base_fields.get('contender')} | {base_fields.get('platform')}: "
            f"FAILED: {message}")
    results.add({**base_fields, **fields})


def row_fields(case, contender, platform, precision):
    """The fields that name a row: its case, contender, platform and precision."""
    return {"case": case.family, "label": case.label, "mode": case.mode, "atoms": case.atoms,
            "contender": contender, "platform": platform_label(platform), "precision": precision}


def supported_cases(cases, options, results):
    """The cases the imported plugin can build. Each case it cannot (a tree without ContactMapForce, say, timed by
    tools/compare-trees.sh) gets one line in the log and a skipped row of the plugin per precision, and is left out
    for every contender, so that two trees are compared on the cases both have."""
    kept = []
    for case in cases:
        reason = unsupported(case)
        if reason is None:
            kept.append(case)
            continue
        log(f"{case.label}: skipped: {reason}")
        for precision in platform_precisions(options.platform, options.precisions):
            results.add({**row_fields(case, PLUGIN, options.platform, precision), "status": "skipped", "note": reason})
    return kept


def run_case_contender(case, contender, platform, precision, prepared, options, reps, results, budget, state):
    """One (case, contender, platform, precision) row."""
    base_fields = row_fields(case, contender, platform, precision)

    def work():
        budget.check()
        fields = case_fields(case, *prepared.pairs(case))
        fields.update(run_contender(case, contender, platform, precision, prepared, options, reps, state))
        return fields

    attempt(results, base_fields, work)


def run_on_platform(cases, contender, options, prepared, results, budget, state):
    """One contender on --platform over the cases it runs on, at every precision."""
    for case in cases:
        if not runs_on(contender, case):
            continue
        for precision in platform_precisions(options.platform, options.precisions):
            run_case_contender(case, contender, options.platform, precision, prepared, options, options.reps,
                               results, budget, state)


def cpu_thread_counts(options):
    """The CPU platform's thread counts of case C: --cpu-threads, or 1, 2, 4, ... up to the cores (and the cores)."""
    if options.cpu_threads:
        return [int(count) for count in options.cpu_threads.split(",") if count]
    cores = os.cpu_count() or 1
    counts = [1]
    while counts[-1] * 2 <= cores:
        counts.append(counts[-1] * 2)
    return counts if counts[-1] == cores else counts + [cores]


def run_cpu_platforms(cases, options, prepared, results, budget, state):
    """The plugin on Reference and CPU: case C at every thread count, and the other cases up to --small-pairs
    pairs on --cpu-platforms."""
    platforms = [p for p in options.cpu_platforms.split(",") if p and p != options.platform]
    for case in cases:
        if case.family == "C":
            chosen = ["Reference"] + [f"CPU:{count}" for count in cpu_thread_counts(options)]
        elif case.candidate_pairs <= options.small_pairs:
            chosen = platforms
        else:
            continue
        for platform in chosen:
            run_case_contender(case, PLUGIN, platform, NATIVE_PRECISION, prepared, options,
                               options.cpu_reps, results, budget, state)
