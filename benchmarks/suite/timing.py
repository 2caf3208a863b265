"""Contexts and timing (the added time per step, with and without the bias), the suite's time budget, and the
pair-kernel ceiling (benchmarks/pair_ceiling.cu)."""
import dataclasses
import math
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

import openmm as mm

from .common import NATIVE_PRECISION, Skip, log

DRAIN_GROUP = 31  # a force group with no forces: getState on it only drains the queue
CEILING_SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pair_ceiling.cu")


class Budget:
    """The suite's wall-clock allowance."""

    def __init__(self, seconds):
        self.deadline = time.perf_counter() + seconds

    def check(self):
        """Raise Skip once the allowance is spent."""
        if time.perf_counter() > self.deadline:
            raise Skip("suite time budget (--budget-seconds) spent")


def platform_and_threads(platform_spec):
    """A platform name and its thread count: "CPU:16" is the CPU platform with Threads = 16 (None: its default)."""
    name, _, threads = platform_spec.partition(":")
    return name, (int(threads) if threads else None)


def platform_label(platform_spec):
    """A platform as the tables show it: "CPU (16 threads)"."""
    name, threads = platform_and_threads(platform_spec)
    return name if threads is None else f"{name} ({threads} thread{'s' if threads > 1 else ''})"


def platform_precisions(platform_spec, requested):
    """The precisions a platform can run: the requested ones, or its only one."""
    name, _ = platform_and_threads(platform_spec)
    if "Precision" in mm.Platform.getPlatformByName(name).getPropertyNames():
        return list(requested)
    return [NATIVE_PRECISION]


def make_context(system, positions, platform_spec, precision, integrator=None):
    """A Context on the platform ("CPU:16": with 16 threads) at the precision (where it has that property)."""
    name, threads = platform_and_threads(platform_spec)
    platform = mm.Platform.getPlatformByName(name)
    properties = {"Precision": precision} if "Precision" in platform.getPropertyNames() else {}
    if threads is not None:
        properties["Threads"] = str(threads)
    integrator = integrator or mm.VerletIntegrator(0.001)
    context = mm.Context(system, integrator, platform, properties)
    context.setPositions(positions)
    return context, integrator


def device_name(context):
    """The device a context runs on, where the platform says."""
    platform = context.getPlatform()
    if "DeviceName" in platform.getPropertyNames():
        return f"{platform.getName()}: {platform.getPropertyValue(context, 'DeviceName')}"
    return platform.getName()


def drain(context):
    """Wait until the queue is empty, without evaluating any force (DRAIN_GROUP has none)."""
    context.getState(getEnergy=True, groups={DRAIN_GROUP})


def seconds_per_step(context, integrator, steps):
    """Wall time of `steps` steps (queue drained), per step."""
    start = time.perf_counter()
    integrator.step(steps)
    drain(context)
    return (time.perf_counter() - start) / steps


def steps_for(context, integrator, min_rep_seconds, min_steps=1):
    """(K, first single step's seconds): K >= min_steps steps take about min_rep_seconds (one calibration run)."""
    first = seconds_per_step(context, integrator, 1)
    steps = max(min_steps, math.ceil(min_rep_seconds / first))
    if steps > 1:
        steps = max(min_steps, math.ceil(min_rep_seconds / seconds_per_step(context, integrator, steps)))
    return min(steps, 200000), first


@dataclasses.dataclass
class Measurement:
    """Medians of per-step seconds with and without the bias, over `reps` alternating repetitions."""

    base: float
    biased: float
    steps: int
    reps: int

    @property
    def added(self):
        """Added seconds per step: with minus without the bias."""
        return self.biased - self.base


def measure_added(base, biased, options, reps, min_rep_seconds, min_steps=1):
    """Time two (context, integrator) pairs alternately, K >= min_steps steps a repetition; raises Skip if it
    would exceed the time limit."""
    for context, integrator in (base, biased):
        integrator.step(2)  # warm-up (kernels compiled, buffers allocated)
        drain(context)
    base_steps, base_first = steps_for(*base, min_rep_seconds, min_steps)
    biased_steps, biased_first = steps_for(*biased, min_rep_seconds, min_steps)
    per_rep = max(min_rep_seconds, min_steps * base_first) + max(min_rep_seconds, min_steps * biased_first)
    affordable = int(options.max_seconds_per_case / per_rep)
    if affordable < min(3, reps):
        raise Skip(f"a first step takes {biased_first:.3g} s: {min(3, reps)} repetitions of {per_rep:.3g} s "
                   f"(with and without the bias) would exceed --max-seconds-per-case {options.max_seconds_per_case:g}")
    reps = min(reps, affordable)
    base_times, biased_times = [], []
    for _ in range(reps):
        base_times.append(seconds_per_step(*base, base_steps))
        biased_times.append(seconds_per_step(*biased, biased_steps))
    return Measurement(statistics.median(base_times), statistics.median(biased_times), biased_steps, reps)


# ---------------------------------------------------------------------------------------------------
# The pair-kernel ceiling
# ---------------------------------------------------------------------------------------------------

def find_nvcc(path):
    """nvcc: the given path, the PATH's, or /usr/local/cuda/bin/nvcc; None if none."""
    for candidate in (path, shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def measure_ceiling(options):
    """{precision: pairs/s} from benchmarks/pair_ceiling.cu, and a note saying what happened."""
    if options.platform != "CUDA":
        return {}, "No pair-kernel ceiling: it is measured only with --platform CUDA."
    nvcc = find_nvcc(options.nvcc)
    if nvcc is None:
        return {}, "No pair-kernel ceiling: nvcc not found."
    try:
        return compile_and_run_ceiling(nvcc)
    except (OSError, subprocess.SubprocessError) as error:
        return {}, f"No pair-kernel ceiling: {error}"


def compile_and_run_ceiling(nvcc):
    """Compile pair_ceiling.cu into a temporary folder and run it in single and double precision."""
    with tempfile.TemporaryDirectory() as folder:
        binary = os.path.join(folder, "pair_ceiling")
        compiled = subprocess.run([nvcc, "-O3", "-arch=sm_90", "--use_fast_math", CEILING_SOURCE, "-o", binary],
                                  capture_output=True, text=True, timeout=300)
        if compiled.returncode != 0:
            return {}, f"No pair-kernel ceiling: nvcc failed: {compiled.stderr.strip()[-300:]}"
        ceilings, notes = {}, []
        for precision in ("single", "double"):
            run = subprocess.run([binary, precision], capture_output=True, text=True, timeout=300)
            log(f"pair ceiling ({precision}): {run.stdout.strip()} {run.stderr.strip()}")
            match = re.search(r"CEILING pairs_per_second=(\S+) N=(\d+) ms=(\S+)", run.stdout)
            check = re.search(r"CHECK relative_error=(\S+)", run.stdout)
            if run.returncode == 0 and match:
                ceilings[precision] = float(match.group(1))
                notes.append(f"{precision} {float(match.group(1)):.3e} pairs/s (N = {match.group(2)}, "
                             f"{match.group(3)} ms; check relative error {check.group(1) if check else '?'})")
            else:
                notes.append(f"{precision} failed (exit {run.returncode}): {(run.stdout + run.stderr).strip()[-200:]}")
    return ceilings, "Pair-kernel ceiling (`benchmarks/pair_ceiling.cu`): " + "; ".join(notes) + "."
