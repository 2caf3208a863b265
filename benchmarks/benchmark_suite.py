#!/usr/bin/env python
"""The benchmark suite: CoordinationForce against OpenMM's own route and PLUMED's published numbers.

One command builds the same systems for every contender, runs them in one process, prints Markdown
tables and writes results.md, results.csv and results.png (if matplotlib imports) into --out.

Contenders
  openmm-coordination   this plugin on --platform, at each of --precisions (default single, mixed)
  OpenMM CustomCVForce  the way cvpack builds it: a CustomCVForce with the same energy of s, whose
                        collective variable s is a CustomNonbondedForce (interaction group A x A for
                        Self, A x B for Dual; cutoff dmax) or, in Pair mode, a CustomBondForce
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
spent (results.* are rewritten after every row, so an interrupted run leaves what it measured).

Cases (r0 = 0.3 nm, n = 6, m = 12, energy 0.5*k*(s-s0)^2, random boxes at 100 atoms/nm^3 with PBC,
automatic dmax (PLUMED's keyword form, stretched), unless said):
  S0  PLUMED's benchmark: simple-cubic 1 nm lattice, Self, r0 = 1 nm (dmax 6.81 nm), no PBC; N = 1k, 16k, 128k
  S1  Self, all pairs (no cutoff, no PBC: a random cube); N = 1k, 4k, 16k, 32k, 64k, 128k (powers of two)
  S2  Self, dmax = 1 nm and automatic (2.04 nm); N = 10k, 100k, 1M
  S3  Dual, disjoint groups: 1k x 1k, 100 x 100k, 1 x 100k, 100k x 1, 10k x 10k
  S4  Pair: 1k, 100k, 1M pairs (2 particles per pair; each partner 0.1-0.6 nm from its first atom)
  S5  slow branches on S2's 10k box: (n=6, m=10), d0 = 0.1 nm, (n=5, m=11)
  S6  MD: a 23.6k-atom TIP3P box (PME, 0.9 nm, HBonds, Langevin 2 fs); no bias, + a 1k x 1k Dual
      restraint on water oxygens, + a 100-oxygen Self restraint; ns/day and slowdown
"pairs" is the number of unique pairs in the sum: all pairs without a cutoff; with one, the pairs
within dmax, counted exactly (cKDTree or brute force) where cheap, else the uniform-density estimate
(column "pairs from"). "% ceiling" divides pairs/s by benchmarks/pair_ceiling.cu's measured ceiling
(single precision for single and mixed; double for double), on CUDA when nvcc is found.

    python3 benchmarks/benchmark_suite.py --platform CUDA --out /tmp/benchmarks
    python3 benchmarks/benchmark_suite.py --platform OpenCL --precisions single --quick --out /tmp/bench-quick
    python3 benchmarks/benchmark_suite.py --plot-only docs/benchmarks/results.csv
"""
import argparse
import csv
import dataclasses
import importlib.util
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import openmm as mm
from openmm import app, unit

import openmmcoordination
from openmmcoordination import CoordinationForce

DENSITY = 100.0  # atoms per nm^3 (water-like)
ENERGY = "0.5*k*(s-s0)^2"
NATIVE_PRECISION = "double"  # platforms without a Precision property (Reference, CPU) run the plugin in double
DRAIN_GROUP = 31  # a force group with no forces: getState on it only drains the queue
PLUGIN = "openmm-coordination"
OPENMM = "OpenMM CustomCVForce"
PLUMED = "PLUMED (published)"
NO_BIAS = "none (no bias)"
CONTENDER_ORDER = {PLUGIN: 0, OPENMM: 1, PLUMED: 2, NO_BIAS: -1}
PRECISION_ORDER = {"single": 0, "mixed": 1, "double": 2}
ALL_FAMILIES = ("S0", "S1", "S2", "S3", "S4", "S5", "S6")
#: Host set-up cost of OpenMM's interaction groups (CommonCalcCustomNonbondedForceKernel::initInteractionGroups
#: checks every atom pair of the two sets; a binary search when the sets overlap), seconds per pair checked.
OVERLAPPING_SETUP_SECONDS_PER_PAIR = 2e-8
DISJOINT_SETUP_SECONDS_PER_PAIR = 3e-9
#: OpenMM stores 32 int4 per 32 x 32 interaction-group tile, twice with a cutoff (the filtered copy).
GROUP_DATA_BYTES_LIMIT = 16e9
KDTREE_PAIR_LIMIT = 1e8  # count pairs with cKDTree when about this many are expected, or fewer
BRUTE_FORCE_PAIR_LIMIT = 2e7  # without scipy: brute force up to this many candidate pairs
CEILING_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pair_ceiling.cu")
#: PLUMED's published COORDINATION benchmark (case S0) on an H100: atoms -> (platform, precision, ms, note).
PLUMED_PUBLISHED = {
    1000: [("CUDA (H100)", "single", 0.52, "GPU port, CUDACOORDINATIONFLOAT"),
           ("CUDA (H100)", "double", 0.55, "GPU port, double"), ("CPU (16 threads)", "double", 2.2, "")],
    16000: [("CUDA (H100)", "single", 4.1, "GPU port, CUDACOORDINATIONFLOAT"),
            ("CUDA (H100)", "double", 4.1, "GPU port, double"), ("CPU (16 threads)", "double", 178.0, "")],
    128000: [("CUDA (H100)", "single", 24.9, "GPU port, CUDACOORDINATIONFLOAT"),
             ("CUDA (H100)", "double", 25.5, "GPU port, double")],
}
FIELDS = ["case", "label", "mode", "atoms", "particles", "dmax_nm", "pbc", "pairs", "pairs_method", "contender",
          "platform", "precision", "ms_per_evaluation", "pairs_per_second", "ceiling_percent", "added_ms_per_step",
          "base_ms_per_step", "steps_per_rep", "reps", "s", "ns_per_day", "slowdown_percent", "status", "note"]
NUMERIC_FIELDS = ("particles", "pairs", "ms_per_evaluation", "pairs_per_second", "ceiling_percent",
                  "added_ms_per_step", "base_ms_per_step", "steps_per_rep", "reps", "s", "ns_per_day",
                  "slowdown_percent")

START = time.perf_counter()


def log(message):
    """Progress line on stderr, with the seconds since the start."""
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr, flush=True)


class Skip(Exception):
    """A contender that is not run; the message says why."""


# ---------------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Case:
    """One system of cases S0-S5: the pairs of a mode over groups of the given sizes, and the switching function."""

    family: str
    label: str
    mode: str  # "Self", "Dual" or "Pair"
    sizes: tuple  # Self: (N,); Dual: (NA, NB); Pair: (pairs,)
    geometry: str = "random"  # "random" (box at DENSITY) or "lattice" (1 nm simple cubic)
    r0: float = 0.3
    n: int = 6
    m: int = 12
    d0: float = 0.0
    dmax: float = 0.0  # 0: automatic; math.inf: no cutoff
    stretch: bool = True
    pbc: bool = True
    seed: int = 1

    @property
    def particles(self):
        """Particles of the System: disjoint groups, two per pair in Pair mode."""
        return {"Self": self.sizes[0], "Dual": sum(self.sizes), "Pair": 2 * self.sizes[0]}[self.mode]

    @property
    def effective_dmax(self):
        """dmax in nm, PLUMED's automatic value d0 + r0 * 1e-5^(1/(n-m)) for 0."""
        if self.dmax == 0:
            return self.d0 + self.r0 * 1e-5 ** (1.0 / (self.n - self.m))
        return self.dmax

    @property
    def candidate_pairs(self):
        """The pairs of the groups, whatever their distance."""
        if self.mode == "Self":
            return self.sizes[0] * (self.sizes[0] - 1) // 2
        return self.sizes[0] * self.sizes[1] if self.mode == "Dual" else self.sizes[0]

    @property
    def atoms(self):
        """The group sizes as the table shows them."""
        if self.mode == "Dual":
            return f"{self.sizes[0]} x {self.sizes[1]}"
        return f"{self.sizes[0]} pairs" if self.mode == "Pair" else f"{self.sizes[0]}"


def short_count(value):
    """1000 -> 1k, 131072 -> 128k, 1000000 -> 1M."""
    if value >= 1000000 and value % 1000000 == 0:
        return f"{value // 1000000}M"
    if value >= 1000 and value % 1000 == 0:
        return f"{value // 1000}k"
    if value >= 1024 and value % 1024 == 0:
        return f"{value // 1024}k"
    return str(value)


def dmax_label(dmax):
    """'none', 'auto' or the value in nm."""
    return "none" if math.isinf(dmax) else "auto" if dmax == 0 else f"{dmax:g} nm"


def define_cases(quick):
    """Cases S0-S5 in run order.

    --quick: sizes small enough for PoCL and the Reference platform; S3 then uses dmax = 1 nm, so that its
    small boxes (>= 2 nm) still allow OpenMM's periodic cutoff.
    """
    s0 = [125, 1000] if quick else [1000, 16000, 128000]
    s1 = [256, 1024] if quick else [1024, 4096, 16384, 32768, 65536, 131072]
    s2 = [2000] if quick else [10000, 100000, 1000000]
    s3 = ([(1000, 1000), (10, 1000), (1, 1000), (1000, 1), (300, 1000)] if quick
          else [(1000, 1000), (100, 100000), (1, 100000), (100000, 1), (10000, 10000)])
    s4 = [100, 1000] if quick else [1000, 100000, 1000000]
    s5_box = s2[0]
    cases = [Case("S0", f"S0 lattice N={short_count(n)}", "Self", (n,), geometry="lattice", r0=1.0, pbc=False)
             for n in s0]
    cases += [Case("S1", f"S1 all pairs N={short_count(n)}", "Self", (n,), dmax=math.inf, pbc=False) for n in s1]
    cases += [Case("S2", f"S2 N={short_count(n)} dmax={dmax_label(d)}", "Self", (n,), dmax=d)
              for n in s2 for d in (1.0, 0.0)]
    s3_dmax = 1.0 if quick else 0.0
    cases += [Case("S3", f"S3 {short_count(a)} x {short_count(b)}" + (" dmax=1 nm" if quick else ""), "Dual", (a, b),
                   dmax=s3_dmax) for a, b in s3]
    cases += [Case("S4", f"S4 {short_count(p)} pairs", "Pair", (p,)) for p in s4]
    s5 = [dict(n=6, m=10), dict(d0=0.1), dict(n=5, m=11)]
    cases += [Case("S5", f"S5 N={short_count(s5_box)} " + " ".join(f"{k}={v:g}" for k, v in variant.items()),
                   "Self", (s5_box,), **variant) for variant in s5]
    return cases


@dataclasses.dataclass
class Geometry:
    """Positions (nm), the cubic box edge (None: no box) and the two groups of particle indices."""

    positions: np.ndarray
    edge: float
    group_a: list
    group_b: list


def lattice_positions(num_atoms):
    """PLUMED's benchmark lattice: atom k at (i, j, l) nm, i fastest, edge ceil(N^(1/3)) sites."""
    edge = int(round(num_atoms ** (1.0 / 3.0)))
    while edge ** 3 < num_atoms:
        edge += 1
    while (edge - 1) ** 3 >= num_atoms:
        edge -= 1
    k = np.arange(num_atoms)
    return np.stack([k % edge, (k // edge) % edge, k // (edge * edge)], axis=1).astype(float)


def make_geometry(case):
    """Positions and groups of a case (random boxes are seeded, so S5 reuses S2's box)."""
    if case.geometry == "lattice":
        return Geometry(lattice_positions(case.sizes[0]), None, list(range(case.sizes[0])), [])
    rng = np.random.default_rng(case.seed)
    edge = (case.particles / DENSITY) ** (1.0 / 3.0)
    positions = rng.random((case.particles, 3)) * edge
    if case.mode == "Self":
        return Geometry(positions, edge, list(range(case.sizes[0])), [])
    first = case.sizes[0]
    if case.mode == "Dual":
        return Geometry(positions, edge, list(range(first)), list(range(first, case.particles)))
    # Pair: each first atom's partner (a random particle of the second half) sits 0.1-0.6 nm away, as
    # the contacts a pair restraint watches do.
    partners = first + rng.permutation(first)
    directions = rng.normal(size=(first, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    positions[partners] = (positions[:first] + directions * rng.uniform(0.1, 0.6, size=(first, 1))) % edge
    return Geometry(positions, edge, list(range(first)), partners.tolist())


# ---------------------------------------------------------------------------------------------------
# Counting the pairs in the sum
# ---------------------------------------------------------------------------------------------------

def periodic_fraction(distance, edge):
    """Fraction of a periodic cube's minimum-image cell within `distance` of a point."""
    if distance <= edge / 2:
        return 4.0 / 3.0 * math.pi * distance ** 3 / edge ** 3
    if distance >= math.sqrt(3.0) / 2 * edge:
        return 1.0
    grid = (np.arange(64) + 0.5) / 64 - 0.5  # midpoint rule on 64^3 points
    x, y, z = np.meshgrid(grid, grid, grid, indexing="ij", sparse=True)
    return float(np.mean(x * x + y * y + z * z <= (distance / edge) ** 2))


def estimated_pairs(case, geometry, dmax):
    """Pairs within dmax expected at uniform density (no edge correction without PBC)."""
    if geometry.edge is not None and case.pbc:
        fraction = periodic_fraction(dmax, geometry.edge)
    else:
        volume = np.prod(np.ptp(geometry.positions, axis=0) + 1.0)
        fraction = min(1.0, 4.0 / 3.0 * math.pi * dmax ** 3 / volume)
    return case.candidate_pairs * fraction


def minimum_image(delta, edge):
    """Minimum-image displacement in a cube of edge `edge` (None: unchanged)."""
    return delta if edge is None else delta - edge * np.round(delta / edge)


def brute_force_pairs(case, geometry, dmax):
    """Pairs within dmax, by checking every candidate pair in row chunks."""
    points_a = geometry.positions[geometry.group_a]
    others = points_a if case.mode == "Self" else geometry.positions[geometry.group_b]
    edge = geometry.edge if case.pbc else None
    total = 0
    for start in range(0, len(points_a), 256):
        delta = minimum_image(others[None, :, :] - points_a[start:start + 256, None, :], edge)
        within = np.einsum("ijk,ijk->ij", delta, delta) <= dmax * dmax
        if case.mode == "Self":
            within &= np.arange(len(others))[None, :] > np.arange(start, start + len(within))[:, None]
        total += int(np.count_nonzero(within))
    return total


def kdtree_pairs(case, geometry, dmax):
    """Pairs within dmax with scipy's cKDTree (periodic when the case uses PBC)."""
    from scipy.spatial import cKDTree
    box = geometry.edge if case.pbc and geometry.edge is not None else None
    points = geometry.positions if box is None else np.mod(geometry.positions, box)
    tree_a = cKDTree(points[geometry.group_a], boxsize=box)
    if case.mode == "Self":
        return (int(tree_a.count_neighbors(tree_a, dmax)) - len(geometry.group_a)) // 2
    return int(tree_a.count_neighbors(cKDTree(points[geometry.group_b], boxsize=box), dmax))


def have_scipy():
    """Whether scipy (for cKDTree) is installed."""
    return importlib.util.find_spec("scipy") is not None


def count_unique_pairs(case, geometry):
    """(pairs in the sum, how they were counted)."""
    dmax = case.effective_dmax
    if math.isinf(dmax):
        return case.candidate_pairs, "all pairs"
    if case.mode == "Pair":
        delta = minimum_image(geometry.positions[geometry.group_b] - geometry.positions[geometry.group_a],
                              geometry.edge if case.pbc else None)
        return int(np.count_nonzero(np.einsum("ij,ij->i", delta, delta) <= dmax * dmax)), "exact"
    expected = estimated_pairs(case, geometry, dmax)
    if have_scipy() and expected <= KDTREE_PAIR_LIMIT:
        return kdtree_pairs(case, geometry, dmax), "exact (cKDTree)"
    if case.candidate_pairs <= BRUTE_FORCE_PAIR_LIMIT:
        return brute_force_pairs(case, geometry, dmax), "exact (brute force)"
    return int(round(expected)), "estimate (uniform density)"


# ---------------------------------------------------------------------------------------------------
# Forces and Systems
# ---------------------------------------------------------------------------------------------------

def plugin_force(case, geometry, k=1.0):
    """The CoordinationForce of a case."""
    force = CoordinationForce(ENERGY)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("s0", 0.0)
    force.setMode(getattr(CoordinationForce, case.mode))
    force.setGroupA(geometry.group_a)
    if case.mode != "Self":
        force.setGroupB(geometry.group_b)
    force.setR0(case.r0)
    force.setN(case.n)
    force.setM(case.m)
    force.setD0(case.d0)
    force.setDMax(case.dmax)
    force.setStretch(case.stretch)
    force.setUsesPeriodicBoundaryConditions(case.pbc)
    return force


def geometric_sum(terms):
    """1 + x + ... + x^(terms-1) in Horner form, as a Lepton expression of x."""
    expression = "1"
    for _ in range(terms - 1):
        expression = f"1+x*({expression})"
    return expression


def rational_value(case, r):
    """PLUMED's unstretched rational switching function at r (double precision; G_n/G_m has no 0/0)."""
    x = (r - case.d0) / case.r0
    if x <= 0:
        return 1.0
    return sum(x ** i for i in range(case.n)) / sum(x ** i for i in range(case.m))


def switching_expression(case):
    """sigma(r) as a Lepton expression of r: sigma = 1 below d0, the stretch as PLUMED's, no cutoff.

    m = 2n is written 1/(1+x^n); otherwise (1-x^n)/(1-x^m) = G_n(x)/G_m(x) with G_k = 1 + x + ... + x^(k-1),
    the same function without the 0/0 at x = 1.
    """
    x = f"(r-{case.d0!r})/{case.r0!r}" if case.d0 > 0 else f"r/{case.r0!r}"
    rational = f"1/(1+x^{case.n})" if case.m == 2 * case.n else f"({geometric_sum(case.n)})/({geometric_sum(case.m)})"
    sigma = f"select(step({case.d0!r}-r),1,{rational})" if case.d0 > 0 else rational
    dmax = case.effective_dmax
    if case.stretch and math.isfinite(dmax):
        at_dmax = rational_value(case, dmax)
        return f"(sigma-{at_dmax!r})/{1.0 - at_dmax!r}; sigma={sigma}; x={x}"
    return f"sigma; sigma={sigma}; x={x}"


def openmm_setup_problem(case, geometry):
    """Why OpenMM's route cannot run a case in reasonable time and memory, or None."""
    if case.mode == "Pair":
        return None  # a CustomBondForce: no cutoff, no interaction groups
    dmax = case.effective_dmax
    if case.pbc and math.isfinite(dmax) and geometry.edge is not None and 2 * dmax > geometry.edge:
        return f"OpenMM needs a periodic cutoff <= half the box (dmax {dmax:.3g} nm, box {geometry.edge:.3g} nm)"
    size_a = case.sizes[0]
    size_b = size_a if case.mode == "Self" else case.sizes[1]
    width = min(32, size_a, size_b)
    tiles = math.ceil(size_a / width) * math.ceil(size_b / width)
    group_bytes = tiles * 32 * 16 * (2 if math.isfinite(dmax) else 1)
    if group_bytes > GROUP_DATA_BYTES_LIMIT:
        return f"OpenMM's interaction-group tiles would take {group_bytes / 1e9:.0f} GB"
    per_pair = OVERLAPPING_SETUP_SECONDS_PER_PAIR if case.mode == "Self" else DISJOINT_SETUP_SECONDS_PER_PAIR
    return size_a * size_b * per_pair


def openmm_force(case, geometry, num_particles, k=1.0):
    """OpenMM's own route (as cvpack builds it): a CustomCVForce of the same energy, s from a
    CustomNonbondedForce over interaction groups (Self, Dual) or a CustomBondForce (Pair)."""
    dmax = case.effective_dmax
    if case.mode == "Pair":
        expression = switching_expression(case)
        if math.isfinite(dmax):
            head, definitions = expression.split(";", 1)
            expression = f"step({dmax!r}-r)*({head});{definitions}"
        collective = mm.CustomBondForce(expression)
        for a, b in zip(geometry.group_a, geometry.group_b):
            collective.addBond(a, b, [])
        collective.setUsesPeriodicBoundaryConditions(case.pbc)
    else:
        collective = mm.CustomNonbondedForce(switching_expression(case))
        for _ in range(num_particles):
            collective.addParticle([])
        collective.addInteractionGroup(geometry.group_a, geometry.group_a if case.mode == "Self" else geometry.group_b)
        if math.isinf(dmax):
            collective.setNonbondedMethod(mm.CustomNonbondedForce.NoCutoff)
        else:
            collective.setNonbondedMethod(mm.CustomNonbondedForce.CutoffPeriodic if case.pbc
                                          else mm.CustomNonbondedForce.CutoffNonPeriodic)
            collective.setCutoffDistance(dmax)
    force = mm.CustomCVForce(ENERGY)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("s0", 0.0)
    force.addCollectiveVariable("s", collective)
    return force


def particle_system(num_particles, edge):
    """A System of massless particles (they never move) in a cubic box (10 nm when there is none)."""
    system = mm.System()
    for _ in range(num_particles):
        system.addParticle(0.0)
    edge = edge or 10.0
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    return system


def with_force(system_builder, force):
    """A fresh System from system_builder() with `force` added (None: a do-nothing force instead)."""
    system = system_builder()
    system.addForce(force if force is not None else mm.CustomExternalForce("0"))
    return system


# ---------------------------------------------------------------------------------------------------
# Contexts and timing
# ---------------------------------------------------------------------------------------------------

def platform_precisions(platform_name, requested):
    """The precisions a platform can run: the requested ones, or its only one."""
    if "Precision" in mm.Platform.getPlatformByName(platform_name).getPropertyNames():
        return list(requested)
    return [NATIVE_PRECISION]


def make_context(system, positions, platform_name, precision, integrator=None):
    """A Context on the platform at the precision (where the platform has that property)."""
    platform = mm.Platform.getPlatformByName(platform_name)
    properties = {"Precision": precision} if "Precision" in platform.getPropertyNames() else {}
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


def steps_for(context, integrator, min_rep_seconds):
    """(K, first single step's seconds): K steps take about min_rep_seconds (one calibration run)."""
    first = seconds_per_step(context, integrator, 1)
    steps = max(1, math.ceil(min_rep_seconds / first))
    if steps > 1:
        steps = max(1, math.ceil(min_rep_seconds / seconds_per_step(context, integrator, steps)))
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


def measure_added(base, biased, options, reps, min_rep_seconds):
    """Time two (context, integrator) pairs alternately; raises Skip if it would exceed the time limit."""
    for context, integrator in (base, biased):
        integrator.step(2)  # warm-up (kernels compiled, buffers allocated)
        drain(context)
    base_steps, base_first = steps_for(*base, min_rep_seconds)
    biased_steps, biased_first = steps_for(*biased, min_rep_seconds)
    per_rep = max(min_rep_seconds, base_first) + max(min_rep_seconds, biased_first)
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


def ceiling_percent(ceilings, platform, precision, pairs_per_second):
    """pairs/s as % of the ceiling of its precision (single's for mixed), for CUDA rows."""
    if not platform.startswith("CUDA") or pairs_per_second is None:
        return None
    ceiling = ceilings.get("double" if precision == "double" else "single")
    return None if ceiling is None else 100.0 * pairs_per_second / ceiling


# ---------------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------------

class Results:
    """The rows, rewritten to results.csv and results.md after every addition."""

    def __init__(self, out_dir, header, ceilings, ceiling_note):
        self.out_dir = out_dir
        self.header = header  # a function returning the method lines
        self.ceilings = ceilings
        self.ceiling_note = ceiling_note
        self.rows = []
        self.target_lines = []
        os.makedirs(out_dir, exist_ok=True)

    def add(self, row):
        """Add a row (missing fields empty) and rewrite the files."""
        complete = {name: row.get(name) for name in FIELDS}
        pairs_per_second = complete["pairs_per_second"]
        complete["ceiling_percent"] = ceiling_percent(self.ceilings, complete["platform"] or "",
                                                      complete["precision"], pairs_per_second)
        self.rows.append(complete)
        self.write()

    def write(self):
        """results.csv and results.md."""
        with open(os.path.join(self.out_dir, "results.csv"), "w", newline="", encoding="utf-8") as stream:
            writer = csv.DictWriter(stream, fieldnames=FIELDS)
            writer.writeheader()
            writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in self.rows)
        with open(os.path.join(self.out_dir, "results.md"), "w", encoding="utf-8") as stream:
            stream.write(self.markdown(full=True))

    def markdown(self, full):
        """The tables (full: with the method header and the skipped list)."""
        parts = []
        if full:
            parts += self.header() + [""]
        parts += [self.ceiling_note, "", *main_table(self.rows), "", *md_table(self.rows)]
        if full:
            parts += ["", *skipped_list(self.rows)]
        if self.target_lines:
            parts += ["", "## Targets", "", *self.target_lines]
        return "\n".join(parts) + "\n"


def format_value(value, spec):
    """A number for the tables ('' for none)."""
    if value is None or value == "":
        return ""
    return format(value, spec)


def sort_key(row, case_order):
    """Rows by case, then contender, platform and precision."""
    return (case_order.get(row["label"], 99), CONTENDER_ORDER.get(row["contender"], 9), row["platform"] != "CUDA",
            row["platform"], PRECISION_ORDER.get(row["precision"], 9))


def case_order_of(rows):
    """Case label -> its rank: by family, then in the order measured rows appear (the order of the cases)."""
    def family_then_published(row):
        return ALL_FAMILIES.index(row["case"]) if row["case"] in ALL_FAMILIES else 99, row["contender"] == PLUMED

    labels = []
    for row in sorted(rows, key=family_then_published):
        if row["label"] not in labels:
            labels.append(row["label"])
    return {label: index for index, label in enumerate(labels)}


def main_table(rows):
    """Markdown table of cases S0-S5 (measured and published rows)."""
    lines = ["| case | mode | atoms | dmax (nm) | pairs | pairs from | contender | platform | precision | "
             "ms/eval | unique pairs/s | % ceiling | added ms/step | s | note |",
             "|---|---|---:|---:|---:|---|---|---|---|---:|---:|---:|---:|---:|---|"]
    shown = [r for r in rows if r["case"] != "S6" and r["status"] in ("ok", "published")]
    order = case_order_of(shown)
    for r in sorted(shown, key=lambda row: sort_key(row, order)):
        lines.append(f"| {r['label']} | {r['mode']} | {r['atoms']} | {r['dmax_nm']} | "
                     f"{format_value(r['pairs'], '.3g')} | {r['pairs_method']} | {r['contender']} | {r['platform']} | "
                     f"{r['precision']} | "
                     f"{format_value(r['ms_per_evaluation'], '.4g')} | {format_value(r['pairs_per_second'], '.3e')} | "
                     f"{format_value(r['ceiling_percent'], '.1f')} | {format_value(r['added_ms_per_step'], '.4g')} | "
                     f"{format_value(r['s'], '.7g')} | {r['note'] or ''} |")
    return lines


def md_table(rows):
    """Markdown table of case S6 (MD)."""
    shown = [r for r in rows if r["case"] == "S6" and r["status"] == "ok"]
    if not shown:
        return []
    lines = ["| S6 variant | contender | platform | precision | pairs | ms/step | ns/day | added ms/step | "
             "slowdown % | s |", "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in shown:
        step = r["base_ms_per_step"] if r["contender"] == NO_BIAS else r["base_ms_per_step"] + r["added_ms_per_step"]
        lines.append(f"| {r['label']} | {r['contender']} | {r['platform']} | {r['precision']} | "
                     f"{format_value(r['pairs'], '.3g')} | {step:.4g} | {format_value(r['ns_per_day'], '.1f')} | "
                     f"{format_value(r['added_ms_per_step'], '.4g')} | {format_value(r['slowdown_percent'], '.2f')} | "
                     f"{format_value(r['s'], '.7g')} |")
    return lines


def skipped_list(rows):
    """Bulleted list of what was skipped or failed, and why."""
    lines = [f"- {r['label']} | {r['contender']} | {r['platform']} {r['precision']}: {r['status']}: {r['note']}"
             for r in rows if r["status"] in ("skipped", "failed")]
    return ["## Skipped or failed", "", *lines] if lines else []


def case_fields(case, pairs, method):
    """The row fields that describe a case."""
    dmax = case.effective_dmax
    return {"case": case.family, "label": case.label, "mode": case.mode, "atoms": case.atoms,
            "particles": case.particles, "dmax_nm": "inf" if math.isinf(dmax) else f"{dmax:.4g}",
            "pbc": case.pbc, "pairs": pairs, "pairs_method": method}


def measured_fields(measurement, pairs, s):
    """The row fields of a measurement."""
    added = measurement.added
    return {"ms_per_evaluation": added * 1e3, "added_ms_per_step": added * 1e3,
            "pairs_per_second": pairs / added if added > 0 else None, "base_ms_per_step": measurement.base * 1e3,
            "steps_per_rep": measurement.steps, "reps": measurement.reps, "s": s, "status": "ok",
            "note": "" if added > 0 else "added time below the noise"}


# ---------------------------------------------------------------------------------------------------
# Running the contenders of cases S0-S5
# ---------------------------------------------------------------------------------------------------

class Budget:
    """The suite's wall-clock allowance."""

    def __init__(self, seconds):
        self.deadline = time.perf_counter() + seconds

    def check(self):
        """Raise Skip once the allowance is spent."""
        if time.perf_counter() > self.deadline:
            raise Skip("suite time budget (--budget-seconds) spent")


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
            geometry = self.geometry(case)
            builder = lambda: particle_system(case.particles, geometry.edge)  # noqa: E731
            if contender == PLUGIN:
                force = plugin_force(case, geometry)
            elif contender == OPENMM:
                force = openmm_force(case, geometry, case.particles)
            else:
                force = None
            self.systems[key] = with_force(builder, force)
        return self.systems[key]


def coordination_of(contender, context, system):
    """s at the context's positions, from the contender's force (the System's last)."""
    force = system.getForce(system.getNumForces() - 1)
    if contender == PLUGIN:
        return CoordinationForce.cast(force).getCoordination(context)
    return force.getCollectiveVariableValues(context)[0]


def run_contender(case, contender, platform, precision, prepared, options, reps, state):
    """Measure one contender on one case; returns the row fields beyond the case's."""
    geometry = prepared.geometry(case)
    pairs, _ = prepared.pairs(case)
    if contender == OPENMM:
        problem = openmm_setup_problem(case, geometry)
        if isinstance(problem, str):
            raise Skip(problem)
        if problem is not None and problem > options.max_seconds_per_case:
            raise Skip(f"OpenMM's interaction-group set-up would take about {problem:.0f} s "
                       f"(checks every atom pair of the groups) > --max-seconds-per-case")
    base = make_context(prepared.system(case, None), geometry.positions, platform, precision)
    start = time.perf_counter()
    biased_system = prepared.system(case, contender)
    biased = make_context(biased_system, geometry.positions, platform, precision)
    state.setdefault("device", device_name(biased[0]))
    setup = time.perf_counter() - start
    measurement = measure_added(base, biased, options, reps, options.min_rep_ms / 1e3)
    s = coordination_of(contender, biased[0], biased_system)
    fields = measured_fields(measurement, pairs, s)
    log(f"{case.label} | {contender} | {platform} {precision}: {measurement.added * 1e3:.4g} ms/eval, "
        f"s = {s:.7g} (set-up {setup:.1f} s, K = {measurement.steps}, {measurement.reps} reps)")
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


def run_case_contender(case, contender, platform, precision, prepared, options, reps, results, budget, state):
    """One (case, contender, platform, precision) row."""
    base_fields = {"case": case.family, "label": case.label, "mode": case.mode, "atoms": case.atoms,
                   "contender": contender, "platform": platform, "precision": precision}

    def work():
        budget.check()
        fields = case_fields(case, *prepared.pairs(case))
        fields.update(run_contender(case, contender, platform, precision, prepared, options, reps, state))
        return fields

    attempt(results, base_fields, work)


def add_published(cases, prepared, results):
    """PLUMED's published numbers as rows of the S0 cases that are run."""
    for case in cases:
        if case.family != "S0" or case.sizes[0] not in PLUMED_PUBLISHED:
            continue
        pairs, method = prepared.pairs(case)
        for platform, precision, ms, note in PLUMED_PUBLISHED[case.sizes[0]]:
            results.add({**case_fields(case, pairs, method), "contender": PLUMED, "platform": platform,
                         "precision": precision, "ms_per_evaluation": ms, "pairs_per_second": pairs / (ms * 1e-3),
                         "status": "published", "note": note})


# ---------------------------------------------------------------------------------------------------
# S6: a full MD step
# ---------------------------------------------------------------------------------------------------

def water_box(edge_nm):
    """(topology, positions) of a TIP3P box built by Modeller (no downloads)."""
    forcefield = app.ForceField("amber14-all.xml", "amber14/tip3p.xml")
    modeller = app.Modeller(app.Topology(), [])
    modeller.addSolvent(forcefield, boxSize=mm.Vec3(edge_nm, edge_nm, edge_nm) * unit.nanometer)
    return forcefield, modeller.topology, modeller.positions


def md_system(forcefield, topology):
    """PME, 0.9 nm cutoff, HBonds constraints, rigid water."""
    return forcefield.createSystem(topology, nonbondedMethod=app.PME, nonbondedCutoff=0.9 * unit.nanometer,
                                   constraints=app.HBonds, rigidWater=True)


def md_integrator():
    """Langevin middle, 300 K, 1/ps, 2 fs, fixed seed."""
    integrator = mm.LangevinMiddleIntegrator(300 * unit.kelvin, 1 / unit.picosecond, 0.002 * unit.picoseconds)
    integrator.setRandomNumberSeed(1)
    return integrator


def md_context(system, positions, platform, precision):
    """A Langevin context at 300 K with seeded velocities."""
    context, integrator = make_context(system, positions, platform, precision, md_integrator())
    context.setVelocitiesToTemperature(300 * unit.kelvin, 1)
    return context, integrator


def ns_per_day(seconds_per_step_value):
    """ns/day at 2 fs per step."""
    return 86400.0 / seconds_per_step_value * 2e-6


def md_restraints(quick, oxygens):
    """The S6 restraints on water oxygens: (Case, group A, group B) for the Dual and the Self restraint."""
    rng = np.random.default_rng(5)
    dual_size, self_size = (200, 50) if quick else (1000, 100)
    chosen = rng.choice(oxygens, size=2 * dual_size + self_size, replace=False).tolist()
    dual = Case("S6", f"S6 + Dual {dual_size} x {dual_size} O", "Dual", (dual_size, dual_size))
    self_case = Case("S6", f"S6 + Self {self_size} O", "Self", (self_size,))
    return [(dual, chosen[:dual_size], chosen[dual_size:2 * dual_size]), (self_case, chosen[2 * dual_size:], [])]


@dataclasses.dataclass
class WaterBox:
    """Case S6's system: force field, topology, minimized positions (nm), box edge, oxygen indices."""

    forcefield: object
    topology: object
    positions: np.ndarray
    edge: float
    oxygens: list


def prepare_water(options, precision):
    """Build and minimize the water box; returns (WaterBox, the no-bias context and integrator)."""
    edge = 4.2 if options.quick else 6.2
    log(f"S6: building a {edge} nm water box")
    forcefield, topology, positions = water_box(edge)
    positions = minimized(md_system(forcefield, topology), positions)
    base = md_context(md_system(forcefield, topology), positions, options.platform, precision)
    oxygens = [atom.index for atom in topology.atoms() if atom.element is not None and atom.element.symbol == "O"]
    log(f"S6: {topology.getNumAtoms()} atoms, {len(oxygens)} oxygens")
    return WaterBox(forcefield, topology, positions, edge, oxygens), base


def minimized(system, positions):
    """Positions (nm) after 50 minimizer iterations on the CPU platform (Modeller's tiled box has clashes at its
    faces; OpenMM's minimizer crashes on PoCL's OpenCL, so it runs on the CPU platform everywhere)."""
    context, _ = make_context(system, positions, "CPU", NATIVE_PRECISION)
    mm.LocalEnergyMinimizer.minimize(context, 10.0, 50)
    return context.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(unit.nanometer)


def run_md(options, results, budget):
    """Case S6: no bias, then each restraint with the plugin and with OpenMM's route."""
    precision = platform_precisions(options.platform, [options.md_precision])[0]
    min_rep = max(options.min_rep_ms / 1e3, 0.1)
    fields = {"case": "S6", "label": "S6 no bias", "mode": "MD", "contender": NO_BIAS,
              "platform": options.platform, "precision": precision}
    try:
        budget.check()
        water, base = prepare_water(options, precision)
    except Exception as error:  # Skip, or a failure to build the system: one row says so
        status = "skipped" if isinstance(error, Skip) else "failed"
        results.add({**fields, "status": status, "note": " ".join(str(error).split())[:300]})
        log(f"S6: {status}: {error}")
        return
    fields.update({"atoms": f"{water.topology.getNumAtoms()} (water)", "particles": water.topology.getNumAtoms()})
    attempt(results, fields, lambda: md_baseline(base, options, min_rep))
    for case, group_a, group_b in md_restraints(options.quick, water.oxygens):
        geometry = Geometry(water.positions, water.edge, group_a, group_b)
        pairs, method = count_unique_pairs(case, geometry)
        for contender in (PLUGIN, OPENMM):
            row = {**fields, **case_fields(case, pairs, method), "particles": water.topology.getNumAtoms(),
                   "contender": contender}
            attempt(results, row, lambda: md_variant(case, geometry, pairs, contender, water, base, precision,
                                                     options, min_rep, budget))


def md_baseline(base, options, min_rep):
    """The no-bias row: ms per step and ns/day."""
    steps, _ = steps_for(*base, min_rep)
    times = [seconds_per_step(*base, steps) for _ in range(options.reps)]
    step = statistics.median(times)
    log(f"S6 no bias: {step * 1e3:.4g} ms/step, {ns_per_day(step):.1f} ns/day")
    return {"base_ms_per_step": step * 1e3, "ns_per_day": ns_per_day(step), "steps_per_rep": steps,
            "reps": len(times), "status": "ok"}


def md_variant(case, geometry, pairs, contender, water, base, precision, options, min_rep, budget):
    """One restraint (k = 1e-3) with one contender, timed against the no-bias context."""
    budget.check()
    if contender == OPENMM:
        problem = openmm_setup_problem(case, geometry)
        if isinstance(problem, str):
            raise Skip(problem)
    system = md_system(water.forcefield, water.topology)
    if contender == PLUGIN:
        system.addForce(plugin_force(case, geometry, k=1e-3))
    else:
        system.addForce(openmm_force(case, geometry, system.getNumParticles(), k=1e-3))
    biased = md_context(system, water.positions, options.platform, precision)
    s = coordination_of(contender, biased[0], system)  # at the minimized positions, the same for both contenders
    measurement = measure_added(base, biased, options, options.reps, min_rep)
    fields = measured_fields(measurement, pairs, s)
    fields.update({"ms_per_evaluation": None, "pairs_per_second": None, "ns_per_day": ns_per_day(measurement.biased),
                   "slowdown_percent": 100.0 * (measurement.biased / measurement.base - 1.0)})
    log(f"{case.label} | {contender}: {fields['ns_per_day']:.1f} ns/day, {fields['slowdown_percent']:.2f} % slower, "
        f"s = {s:.7g}")
    return fields


# ---------------------------------------------------------------------------------------------------
# Agreement of s, targets, plot
# ---------------------------------------------------------------------------------------------------

def check_agreement(results):
    """Note on OpenMM's rows where its s differs from the plugin's (same case, platform, precision)."""
    plugin = {(r["label"], r["platform"], r["precision"]): r["s"] for r in results.rows
              if r["contender"] == PLUGIN and r["status"] == "ok"}
    for row in results.rows:
        key = (row["label"], row["platform"], row["precision"])
        if row["contender"] != OPENMM or row["status"] != "ok" or key not in plugin:
            continue
        difference = abs(row["s"] - plugin[key]) / max(abs(plugin[key]), 1e-30)
        tolerance = 1e-9 if row["precision"] == "double" else 1e-4
        if difference > tolerance and "NoCutoff" not in (row["note"] or ""):
            note = f"s differs from the plugin's by {difference:.2e}"
            row["note"] = f"{row['note']}; {note}" if row["note"] else note
            log(f"WARNING {row['label']} {row['platform']} {row['precision']}: OpenMM's s {row['s']:.9g} vs the "
                f"plugin's {plugin[key]:.9g} (relative {difference:.2e})")
    results.write()


def find(rows, contender, **criteria):
    """The ok rows of a contender matching every field in criteria."""
    return [r for r in rows if r["contender"] == contender and r["status"] == "ok"
            and all(r[k] == v for k, v in criteria.items())]


def verdict(passed):
    """PASS / MISS."""
    return "PASS" if passed else "MISS"


def target_time(rows, label, limit_ms, **criteria):
    """Lines: the plugin's ms/eval of the matching rows (one per precision) against a limit."""
    matches = find(rows, PLUGIN, **criteria)
    if not matches:
        return [f"- {label} <= {limit_ms} ms per evaluation: not measured"]
    return [f"- {label} <= {limit_ms} ms per evaluation ({r['precision']}): {r['ms_per_evaluation']:.4g} ms -> "
            f"{verdict(r['ms_per_evaluation'] <= limit_ms)}" for r in matches]


def target_throughput(rows):
    """S1 N=128k: single >= 7e11 pairs/s; mixed within 1.5x of single."""
    single = find(rows, PLUGIN, case="S1", atoms="131072", precision="single")
    mixed = find(rows, PLUGIN, case="S1", atoms="131072", precision="mixed")
    if single:
        value = single[0]["pairs_per_second"] or 0.0
        lines = [f"- S1 N=128k single >= 7.0e11 pairs/s: {value:.3e} -> {verdict(value >= 7.0e11)}"]
    else:
        lines = ["- S1 N=128k single >= 7.0e11 pairs/s: not measured"]
    if single and mixed:
        ratio = mixed[0]["ms_per_evaluation"] / single[0]["ms_per_evaluation"]
        lines.append(f"- S1 N=128k mixed within 1.5x of single: {ratio:.2f}x -> {verdict(ratio <= 1.5)}")
    else:
        lines.append("- S1 N=128k mixed within 1.5x of single: not measured")
    return lines


def target_million(rows):
    """The 1M cases (S2 N=1M at both cutoffs, S4 1M pairs) run."""
    wanted = [("S2", "1000000"), ("S4", "1000000 pairs")]
    expected = [r for r in rows if r["contender"] == PLUGIN and (r["case"], r["atoms"]) in wanted]
    if not expected:
        return ["- 1M runs: not run"]
    found = [r for r in expected if r["status"] == "ok"]
    names = ", ".join(f"{r['label']} {r['precision']} {r['ms_per_evaluation']:.3g} ms" for r in found)
    return [f"- 1M runs: {len(found)} of {len(expected)} measured ({names}) -> {verdict(len(found) == len(expected))}"]


def target_small(rows):
    """Small groups (S0 1k, S1 1k, S3 1k x 1k, S4 1k) <= 0.008 ms added per step."""
    wanted = [("S0", "1000"), ("S1", "1024"), ("S3", "1000 x 1000"), ("S4", "1000 pairs")]
    found = [r for family, atoms in wanted for r in find(rows, PLUGIN, case=family, atoms=atoms)]
    if not found:
        return ["- small groups <= 0.008 ms added per step: not measured"]
    worst = max(found, key=lambda r: r["added_ms_per_step"])
    return [f"- small groups <= 0.008 ms added per step: worst {worst['added_ms_per_step']:.4g} ms ({worst['label']} "
            f"{worst['precision']}; {len(found)} rows) -> {verdict(worst['added_ms_per_step'] <= 0.008)}"]


def target_versus_openmm(rows):
    """Every case: >= 5x lower added time than OpenMM's route (same case and precision)."""
    plugin = {(r["label"], r["precision"]): r["added_ms_per_step"] for r in find(rows, PLUGIN) if r["case"] != "S6"}
    ratios = []
    for r in find(rows, OPENMM):
        ours = plugin.get((r["label"], r["precision"]))
        if r["case"] != "S6" and ours is not None and ours > 0:
            ratios.append((r["added_ms_per_step"] / ours, r["label"], r["precision"]))
    if not ratios:
        return ["- >= 5x lower added time than OpenMM's route: no case with both measured"]
    worst = min(ratios)
    return [f"- >= 5x lower added time than OpenMM's route in every case: worst {worst[0]:.1f}x ({worst[1]} "
            f"{worst[2]}; {len(ratios)} cases compared) -> {verdict(worst[0] >= 5.0)}"]


def target_md(rows):
    """S6: the plugin's restraints cost <= 5 % of the no-bias step."""
    found = find(rows, PLUGIN, case="S6")
    if not found:
        return ["- S6 <= 5 % slower than no bias: not measured"]
    return [f"- S6 <= 5 % slower than no bias ({r['label']}, {r['precision']}): {r['slowdown_percent']:.2f} % -> "
            f"{verdict(r['slowdown_percent'] <= 5.0)}" for r in found]


def evaluate_targets(rows, platform):
    """The issue's targets, one line each, with the measured number and PASS/MISS (rows on `platform`)."""
    rows = [r for r in rows if r["platform"] == platform]
    lines = target_throughput(rows)
    lines += target_time(rows, "S2 N=100k dmax=1 nm", 0.075, case="S2", atoms="100000", dmax_nm="1")
    lines += target_million(rows) + target_small(rows) + target_versus_openmm(rows) + target_md(rows)
    for atoms, limit in (("1000", 0.052), ("16000", 0.41), ("128000", 2.5)):
        lines += target_time(rows, f"S0 N={short_count(int(atoms))}", limit, case="S0", atoms=atoms)
    return lines


def write_plot(rows, path):
    """results.png: ms per evaluation and unique pairs/s against the pairs in the sum. Returns a note."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no plot: matplotlib is not importable"
    shown = [r for r in rows if r["case"] != "S6" and r["status"] in ("ok", "published") and r["pairs"]
             and r["ms_per_evaluation"] and r["ms_per_evaluation"] > 0]
    figure, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5))
    series = {}
    for r in shown:
        series.setdefault(f"{r['contender']} | {r['platform']} | {r['precision']}", []).append(r)
    for name, members in sorted(series.items()):
        members.sort(key=lambda r: r["pairs"])
        pairs = [r["pairs"] for r in members]
        marker = "*" if members[0]["contender"] == PLUMED else "o" if members[0]["contender"] == PLUGIN else "s"
        left.plot(pairs, [r["ms_per_evaluation"] for r in members], marker, label=name, alpha=0.8)
        right.plot(pairs, [r["pairs_per_second"] for r in members], marker, label=name, alpha=0.8)
    for precision, ceiling in ceilings_from_rows(rows).items():
        right.axhline(ceiling, linestyle="--", color="gray")
        right.annotate(f"pair-kernel ceiling ({precision})", (1.0, ceiling), xycoords=("axes fraction", "data"),
                       ha="right", va="bottom", fontsize=8, color="gray")
    for axis, label in ((left, "ms per evaluation (added per MD step)"), (right, "unique pairs per second")):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("unique pairs in the sum")
        axis.set_ylabel(label)
        axis.grid(True, which="both", alpha=0.3)
    right.legend(fontsize=7, loc="lower right")
    figure.suptitle("CoordinationForce benchmark suite (cases S0-S5)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return f"plot: {path}"


def ceilings_from_rows(rows):
    """{precision: ceiling pairs/s} recovered from rows that carry both pairs/s and % of the ceiling."""
    found = {}
    for r in rows:
        if r["pairs_per_second"] and r["ceiling_percent"]:
            key = "double" if r["precision"] == "double" else "single"
            found[key] = 100.0 * r["pairs_per_second"] / r["ceiling_percent"]
    return found


def read_csv(path):
    """Rows of a results.csv, numbers converted back."""
    with open(path, newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    for row in rows:
        for name in NUMERIC_FIELDS:
            row[name] = float(row[name]) if row.get(name) not in (None, "") else None
    return rows


# ---------------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------------

def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--platform", default="CUDA", help="platform of the plugin and OpenMM's route (CUDA)")
    parser.add_argument("--precisions", nargs="+", default=["single", "mixed"],
                        help="precisions on --platform (space- or comma-separated; default single mixed)")
    parser.add_argument("--cases", default=",".join(ALL_FAMILIES), help="case families, e.g. S0,S1,S6 (default all)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (N <= 2000) for a smoke test")
    parser.add_argument("--out", default="docs/benchmarks", help="folder for results.md/.csv/.png")
    parser.add_argument("--max-seconds-per-case", type=float, default=60.0,
                        help="skip a contender whose timing (or OpenMM's set-up) would take longer (60)")
    parser.add_argument("--budget-seconds", type=float, default=450.0,
                        help="stop starting new work after this many seconds (450)")
    parser.add_argument("--reps", type=int, default=7, help="repetitions on --platform (7)")
    parser.add_argument("--cpu-reps", type=int, default=3, help="repetitions on Reference and CPU (3)")
    parser.add_argument("--min-rep-ms", type=float, default=20.0, help="minimum length of one repetition (20 ms)")
    parser.add_argument("--small-pairs", type=float, default=5e6,
                        help="run Reference and CPU when the groups have at most this many pairs (5e6)")
    parser.add_argument("--cpu-platforms", default="Reference,CPU", help="CPU-side platforms for small cases")
    parser.add_argument("--md-precision", default="mixed", help="precision of case S6 (mixed)")
    parser.add_argument("--nvcc", help="nvcc for the pair-kernel ceiling (default: PATH, /usr/local/cuda/bin)")
    parser.add_argument("--targets", action=argparse.BooleanOptionalAction, default=True,
                        help="print the issue's targets with PASS/MISS at the end (default on)")
    parser.add_argument("--plot-only", metavar="CSV", help="only redraw results.png (into --out) from a results.csv")
    options = parser.parse_args()
    options.precisions = [p for item in options.precisions for p in item.split(",") if p]
    options.families = [f.strip() for f in options.cases.split(",") if f.strip()]
    unknown = set(options.families) - set(ALL_FAMILIES)
    if unknown:
        parser.error(f"unknown case families {sorted(unknown)}; choose from {','.join(ALL_FAMILIES)}")
    return options


def header_lines(options, state):
    """The method paragraph at the top of results.md."""
    return [
        "# CoordinationForce benchmark suite",
        "",
        f"`python3 benchmarks/benchmark_suite.py {' '.join(sys.argv[1:])}` on {time.strftime('%Y-%m-%d')}; "
        f"OpenMM {mm.__version__}, openmmcoordination {getattr(openmmcoordination, '__version__', '?')}; "
        f"device: {state.get('device', options.platform)}.",
        "",
        "Method: massless particles (a VerletIntegrator leaves them in place); the same System with the bias and "
        "with a do-nothing force; per repetition `integrator.step(K)` then `getState(getEnergy=True)` on an empty "
        "force group (drains the queue, no extra evaluation); repetitions alternate; medians. "
        "**ms/eval = the added time per MD step** (with - without), so it includes the force's launches and "
        "its share of the step. Unique pairs/s = pairs in the sum / that time. % ceiling: of "
        "`benchmarks/pair_ceiling.cu` on the same GPU (single-precision ceiling for single and mixed, double for "
        "double). OpenMM's route = CustomCVForce(E(s)) with s = CustomNonbondedForce (interaction groups, cutoff "
        "dmax) or CustomBondForce (Pair), built as cvpack does. PLUMED rows are PLUMED's published numbers.",
    ]


def run_plugin_and_openmm(cases, contender, options, prepared, results, budget, state):
    """One contender on --platform over the cases, at every precision."""
    for case in cases:
        for precision in platform_precisions(options.platform, options.precisions):
            run_case_contender(case, contender, options.platform, precision, prepared, options, options.reps,
                               results, budget, state)


def run_cpu_platforms(cases, options, prepared, results, budget, state):
    """The plugin on Reference and CPU, for the small cases."""
    platforms = [p for p in options.cpu_platforms.split(",") if p and p != options.platform]
    for case in cases:
        if case.candidate_pairs > options.small_pairs:
            continue
        for platform in platforms:
            run_case_contender(case, PLUGIN, platform, NATIVE_PRECISION, prepared, options,
                               options.cpu_reps, results, budget, state)


def main():
    options = parse_arguments()
    if options.plot_only:
        os.makedirs(options.out, exist_ok=True)
        print(write_plot(read_csv(options.plot_only), os.path.join(options.out, "results.png")))
        return
    budget = Budget(options.budget_seconds)
    state = {}
    ceilings, ceiling_note = measure_ceiling(options)
    log(ceiling_note)
    results = Results(options.out, lambda: header_lines(options, state), ceilings, ceiling_note)
    cases = [case for case in define_cases(options.quick) if case.family in options.families]
    prepared = Prepared()
    add_published(cases, prepared, results)
    log(f"cases: {', '.join(case.label for case in cases)}")
    run_plugin_and_openmm(cases, PLUGIN, options, prepared, results, budget, state)
    if "S6" in options.families:
        run_md(options, results, budget)
    run_plugin_and_openmm(cases, OPENMM, options, prepared, results, budget, state)
    run_cpu_platforms(cases, options, prepared, results, budget, state)
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
