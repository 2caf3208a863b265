"""Shared helpers of the Python tests: the platform cases, tolerances, an independent numpy model of
the coordination number, readers for PLUMED's regression-test files, lattice reduction for skewed
periodic boxes, and small builders of OpenMM Systems and Contexts.

Everything here is written from the PLUMED documentation and the CoordinationForce header, not from
the plugin's C++ code, so that the tests compare two independent implementations.

Platform cases (which platforms and precisions the suite runs on)
-----------------------------------------------------------------
The environment variable COORDINATION_TEST_PLATFORMS selects them: a comma-separated list of `Name`
or `Name:precision`, e.g. `CUDA:single,CUDA:mixed,CUDA:double` or `Reference,OpenCL:double`. A GPU
platform (CUDA, OpenCL) named without a precision means all three precisions. Unset: Reference, CPU,
and OpenCL and CUDA in single, mixed and double precision where those platforms are registered. Each
case has an id such as `Reference`, `CPU`, `OpenCL-single`. A requested case that cannot run (its
platform is not registered, or creating a Context reports the precision unsupported) becomes a pytest
skip whose reason says why (the runner shows reasons with -rs).

Spread settings (COORDINATION_TEST_QUICK=1, which tools/run-tests.sh sets: there the GPU platforms are OpenCL on
the CPU, PoCL, where every setting is a kernel source to compile): a test marked `spread_over_precisions` runs each
of its settings (its parameters other than the platform case) on one precision of a GPU platform, the same one in
every run (spread_precision), instead of on all three, as the C++ suite's covering designs do. Every setting still
runs on every platform, and every precision runs a share of them; unset (tools/gpu-check.sh on a GPU), every setting
runs on every precision.
"""
import functools
import itertools
import math
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import openmm as mm
import pytest

from openmmcoordination import CoordinationForce

# ---------------------------------------------------------------------------------------------------
# Tolerances: all of them, in one place.
# ---------------------------------------------------------------------------------------------------

#: Slack added to half a unit in the last printed digit when comparing with PLUMED's printed numbers
#: (our double-precision value differs from PLUMED's unrounded one by round-off only).
PRINTED_EPSILON = 1e-9
#: Relative agreement of the Reference/CPU kernels (double precision) with the numpy model.
DOUBLE_RELATIVE = 1e-10
#: Absolute floor for the same comparison (values that should be 0).
DOUBLE_ABSOLUTE = 1e-12
#: Central finite differences of the energy vs the forces (relative to the largest force component).
FINITE_DIFFERENCE_RELATIVE = 1e-6


@dataclass(frozen=True)
class Tolerance:
    """How closely one precision reproduces an exact (double-precision) expectation.

    The rules, used by every comparison of the suite (assert_close, assert_forces_close, plumed_tolerance):
    - s and energies: |ours - expected| <= relative * max(|expected|, scale) + absolute, where scale
      (default 0) is what the error is proportional to when that is larger than the value: the largest
      term of a sum that cancels, or |dE/ds| * s for an energy E(s).
    - forces (N x 3): the RMS over atoms of |F_ours - F_expected| <= force_rms * (RMS over atoms of
      |F_expected|) + absolute; in double precision (elementwise=True) also every component:
      |dF| <= relative * |F| + absolute + force_scale * max|F|.
    - PLUMED's printed numbers: half a unit in the last printed digit + PRINTED_EPSILON
      + plumed_relative * (the largest |printed value| of that frame and quantity).
    - d sigma/dr just outside PLUMED's Taylor band (NEAR_ONE_BAND: 1.1e-5 <= |x - 1| < 1e-3), where the
      double-precision closed form (1 - x^n)/(1 - x^m) loses digits to cancellation: relative
      near_one_relative instead of relative (measured against an 80-bit evaluation: Reference 2.6e-8,
      GPU double 1.3e-8; the single/mixed kernels use a cancellation-free form there).
    """

    name: str
    relative: float
    absolute: float
    force_rms: float
    elementwise: bool
    force_scale: float
    plumed_relative: float
    near_one_relative: float


#: |x - 1| range where the double-precision switching-function derivative loses digits (see Tolerance).
NEAR_ONE_BAND = (1.1e-5, 1e-3)

#: Reference and CPU: double-precision loops, the oracle; they agree with numpy to round-off.
DOUBLE_TOLERANCE = Tolerance("double (Reference/CPU)", relative=DOUBLE_RELATIVE, absolute=DOUBLE_ABSOLUTE,
                             force_rms=DOUBLE_RELATIVE, elementwise=True, force_scale=0.0, plumed_relative=0.0,
                             near_one_relative=1e-7)
#: GPU double precision: s and E are double sums (measured <= 3e-13 relative, at 2e8 pairs). Forces go
#: through 64-bit fixed point twice: ds/dx (2^-32 resolution, then multiplied by dE/ds: relative to the
#: forces, measured RMS <= 6e-10, component <= ~5e-10 of the largest force) and OpenMM's force buffer
#: (2^-32 = 2.3e-10 kJ/mol/nm per accumulation: absolute 1e-9).
GPU_DOUBLE_TOLERANCE = Tolerance("GPU double", relative=1e-9, absolute=1e-9, force_rms=1e-8, elementwise=True,
                                 force_scale=1e-8, plumed_relative=1e-9, near_one_relative=1e-7)
#: GPU single and mixed precision: issue #3's requirement, s and energies within 1e-5 relative, forces
#: within 1e-5 relative as the RMS over atoms (measured on PoCL: s <= 1.5e-7, forces RMS <= 1.4e-6,
#: also at 2e8 pairs). The absolute floor 1e-6 covers values that should be 0.
SINGLE_TOLERANCE = Tolerance("GPU single", relative=1e-5, absolute=1e-6, force_rms=1e-5, elementwise=False,
                             force_scale=0.0, plumed_relative=1e-5, near_one_relative=1e-5)
MIXED_TOLERANCE = Tolerance("GPU mixed", relative=1e-5, absolute=1e-6, force_rms=1e-5, elementwise=False,
                            force_scale=0.0, plumed_relative=1e-5, near_one_relative=1e-5)


def printed_tolerance(decimals):
    """Half a unit in the last printed digit (PLUMED rounds), plus PRINTED_EPSILON."""
    return 0.5 * 10.0 ** (-np.asarray(decimals, dtype=float)) + PRINTED_EPSILON


# ---------------------------------------------------------------------------------------------------
# Platform cases
# ---------------------------------------------------------------------------------------------------

#: Platforms whose kernels run in a precision chosen with the "Precision" property.
GPU_PLATFORMS = ("CUDA", "OpenCL", "HIP")
PRECISIONS = ("single", "mixed", "double")
PLATFORMS_VARIABLE = "COORDINATION_TEST_PLATFORMS"


def registered_platforms():
    return [mm.Platform.getPlatform(i).getName() for i in range(mm.Platform.getNumPlatforms())]


@dataclass(frozen=True)
class PlatformCase:
    """A platform and the precision it computes in ("double" for Reference and CPU)."""

    platform: str
    precision: str = "double"
    #: named in COORDINATION_TEST_PLATFORMS (then a Context that cannot be created is an error, not a skip)
    requested: bool = field(default=False, compare=False)
    #: why the case cannot run, when that is known without creating a Context
    problem: str = field(default=None, compare=False)

    @property
    def gpu(self):
        return self.platform in GPU_PLATFORMS

    @property
    def double(self):
        return self.precision == "double"

    @property
    def id(self):
        return f"{self.platform}-{self.precision}" if self.gpu else self.platform

    @property
    def tolerance(self):
        if not self.gpu:
            return DOUBLE_TOLERANCE
        return {"double": GPU_DOUBLE_TOLERANCE, "mixed": MIXED_TOLERANCE}.get(self.precision, SINGLE_TOLERANCE)

    def properties(self):
        return {"Precision": self.precision} if self.gpu else {}

    def __str__(self):
        return self.id


REFERENCE = PlatformCase("Reference")


def _case(name, precision, requested, available):
    if name not in available:
        return PlatformCase(name, precision or "double", requested,
                            f"platform {name} is not registered (registered: {', '.join(available)})")
    if precision is None:
        precision = "double"
    elif precision not in PRECISIONS:
        return PlatformCase(name, precision, requested, f"unknown precision '{precision}' (use one of {PRECISIONS})")
    if name not in GPU_PLATFORMS and precision != "double":
        return PlatformCase(name, precision, requested, f"the {name} platform computes in double precision only")
    return PlatformCase(name, precision, requested)


def parse_platform_cases(text, available=None):
    """The cases of a COORDINATION_TEST_PLATFORMS value (see the module docstring); duplicates dropped."""
    available = registered_platforms() if available is None else available
    cases = []
    for entry in filter(None, (part.strip() for part in text.split(","))):
        name, _, precision = (part.strip() for part in entry.partition(":"))
        if not precision and name in GPU_PLATFORMS:
            cases += [_case(name, p, True, available) for p in PRECISIONS]
        else:
            cases.append(_case(name, precision or None, True, available))
    return list(dict.fromkeys(cases))


def default_platform_cases(available=None):
    available = registered_platforms() if available is None else available
    cases = [PlatformCase(name) for name in ("Reference", "CPU") if name in available]
    for name in ("OpenCL", "CUDA"):
        if name in available:
            cases += [PlatformCase(name, precision) for precision in PRECISIONS]
    return cases


def selected_platform_cases():
    text = os.environ.get(PLATFORMS_VARIABLE, "").strip()
    return parse_platform_cases(text) if text else default_platform_cases()


#: The cases this run covers.
PLATFORM_CASES = selected_platform_cases()

QUICK_VARIABLE = "COORDINATION_TEST_QUICK"


def spreads_settings():
    """Whether tests marked spread_over_precisions run each setting on one GPU precision (see the docstring)."""
    return os.environ.get(QUICK_VARIABLE, "") == "1"


def spread_precision(setting):
    """The GPU precision that runs a setting (the test's name and its parameter id without the case) of a spread test,
    in every run."""
    return PRECISIONS[zlib.crc32(setting.encode()) % len(PRECISIONS)]


def _selection_text():
    text = os.environ.get(PLATFORMS_VARIABLE, "").strip()
    return f"{PLATFORMS_VARIABLE}={text!r}" if text else f"{PLATFORMS_VARIABLE} unset, registered: " + ", ".join(
        registered_platforms())


def case_params(cases, what):
    """pytest parameters for the cases (id = case id); an empty selection gives one skipped placeholder."""
    params = [pytest.param(case, id=case.id, marks=[pytest.mark.skip(reason=f"{case.id}: {case.problem}")]
                           if case.problem else []) for case in cases]
    return params or [pytest.param(None, id=f"no-{what.replace(' ', '-')}-case",
                                   marks=pytest.mark.skip(reason=f"no {what} case selected ({_selection_text()})"))]


#: Every selected case.
ALL_CASES = case_params(PLATFORM_CASES, "platform")
#: The double-precision cases (finite differences, box derivatives): Reference, CPU, GPU double.
DOUBLE_CASES = case_params([case for case in PLATFORM_CASES if case.double], "double-precision")
#: The GPU cases (CUDA, OpenCL) in any precision.
GPU_CASES = case_params([case for case in PLATFORM_CASES if case.gpu], "GPU platform")


def as_case(case):
    """A PlatformCase from a case or a platform name ("Reference", "CPU", "OpenCL:single")."""
    if isinstance(case, PlatformCase):
        return case
    name, _, precision = case.partition(":")
    return _case(name, precision or None, False, registered_platforms())


@functools.lru_cache(maxsize=None)
def _context_problem(platform, precision):
    """Why a Context on this platform and precision cannot be created (None if it can).

    Probed with a System without forces, so that only the platform's own support is tested.
    """
    system = mm.System()
    system.addParticle(1.0)
    case = PlatformCase(platform, precision)
    try:
        mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(platform), case.properties())
    except Exception as error:  # noqa: BLE001 (the message is what matters)
        return str(error).strip()
    return None


def require_case(case):
    """Skip the calling test (with the reason) if the case cannot run here."""
    case = as_case(case)
    if case.problem:
        pytest.skip(f"{case.id}: {case.problem}")
    problem = _context_problem(case.platform, case.precision)
    if problem is None:
        return case
    if "precision" in problem.lower():
        pytest.skip(f"{case.id}: the platform reports the precision unsupported: {problem}")
    if case.requested:
        pytest.fail(f"{case.id}: cannot create a Context: {problem}")
    pytest.skip(f"{case.id}: cannot create a Context here: {problem}")


#: The platforms that run a per-atom force with a local step (PerAtomForce.setLocalStep; kernels CalcLocal<Class>).
LOCAL_STEP_PLATFORMS = ("Reference", "CPU", "CUDA", "OpenCL")


def require_local_step_case(case):
    """require_case, and skip the calling test where the case's platform has no kernel for a local step."""
    case = require_case(case)
    if case.platform not in LOCAL_STEP_PLATFORMS:
        pytest.skip(f"{case.id}: {case.platform} has no kernel for a force with a local step yet")
    return case


def make_context(system, case=REFERENCE, integrator=None, properties=None):
    """A Context of the system on the case's platform (GPU platforms get {"Precision": precision}).

    case: a PlatformCase or a platform name. properties: more platform properties (e.g. DeviceIndex).
    """
    case = require_case(case)
    all_properties = dict(case.properties(), **(properties or {}))
    return mm.Context(system, integrator or mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(case.platform),
                      all_properties)


# ---------------------------------------------------------------------------------------------------
# Comparisons with the tolerance of a case (the rules are in Tolerance's docstring)
# ---------------------------------------------------------------------------------------------------


def _tolerance(case_or_tolerance):
    return case_or_tolerance if isinstance(case_or_tolerance, Tolerance) else as_case(case_or_tolerance).tolerance


def scalar_tolerance(expected, case, scale=0.0):
    tolerance = _tolerance(case)
    return tolerance.relative * np.maximum(np.abs(expected), scale) + tolerance.absolute


def is_close(actual, expected, case, scale=0.0):
    return bool(np.all(np.abs(np.asarray(actual) - np.asarray(expected)) <= scalar_tolerance(expected, case, scale)))


def assert_close(actual, expected, case, scale=0.0, what="value"):
    """s or an energy (or arrays of them), by the scalar rule of the case's precision."""
    tolerance = scalar_tolerance(expected, case, scale)
    deviation = np.abs(np.asarray(actual, dtype=float) - np.asarray(expected, dtype=float))
    assert np.all(deviation <= tolerance), (
        f"{what}: ours {actual!r}, expected {expected!r}, |deviation| {np.max(deviation):.3e} > tolerance "
        f"{np.min(tolerance):.3e} ({_tolerance(case).name})")


def force_deviation(actual, expected):
    """(RMS over atoms of |dF_i|, RMS over atoms of |F_i|)."""
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    return (float(np.sqrt(np.mean(np.sum((actual - expected) ** 2, axis=-1)))),
            float(np.sqrt(np.mean(np.sum(expected ** 2, axis=-1)))))


def assert_forces_close(actual, expected, case, what="forces", passes=1):
    """Forces (N x 3), by the force rule of the case's precision; passes: how many pair passes in the case's
    precision the forces go through one after the other (a per-atom force's local step: its own pass and the local
    step's), whose rounding adds up: the RMS rule times passes."""
    tolerance = _tolerance(case)
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    assert actual.shape == expected.shape
    rms_deviation, rms = force_deviation(actual, expected)
    force_rms = tolerance.force_rms * passes
    assert rms_deviation <= force_rms * rms + tolerance.absolute, (
        f"{what}: RMS deviation {rms_deviation:.3e} = {rms_deviation / max(rms, 1e-300):.3e} x RMS force {rms:.3e}; "
        f"tolerance {force_rms:.1e} x RMS + {tolerance.absolute:.1e} ({tolerance.name})")
    if tolerance.elementwise:
        atol = tolerance.absolute + tolerance.force_scale * (np.abs(expected).max() if expected.size else 0.0)
        np.testing.assert_allclose(actual, expected, rtol=tolerance.relative, atol=atol,
                                   err_msg=f"{what} ({tolerance.name})")


def plumed_tolerance(decimals, reference, case, frame_axes=None):
    """Tolerance for a comparison with PLUMED's printed numbers (rule in Tolerance's docstring).

    reference: the printed numbers, first axis = frames; the scale of each frame is its largest |value|
    (over frame_axes; default every axis but the first).
    """
    reference = np.abs(np.asarray(reference, dtype=float))
    if frame_axes is None:
        frame_axes = tuple(range(1, reference.ndim))
    scale = reference.max(axis=frame_axes, keepdims=True) if frame_axes else reference
    return printed_tolerance(decimals) + _tolerance(case).plumed_relative * scale


# ---------------------------------------------------------------------------------------------------
# The numpy model (PLUMED's definitions, written out from its documentation)
# ---------------------------------------------------------------------------------------------------

TAYLOR_BAND = 1.1e-5


def rational_unstretched(r, r0, n, m, d0=0.0):
    """PLUMED's rational sigma(r) = (1 - x^n)/(1 - x^m), x = (r - d0)/r0, sigma = 1 for r <= d0."""
    r = np.asarray(r, dtype=float)
    x = (r - d0) / r0
    value = np.ones_like(x)
    positive = x > 0
    xp = x[positive]
    near_one = np.abs(xp - 1.0) < TAYLOR_BAND
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = (1.0 - xp**n) / (1.0 - xp**m)
    # PLUMED's second-order expansion about x = 1 (the singularity is removable).
    e = xp - 1.0
    first = n * (n - m) / (2.0 * m)
    second = n * (m * m - 3.0 * m * (n - 1) + n * (2.0 * n - 3.0)) / (6.0 * m)
    taylor = n / m + e * (first + 0.5 * second * e)
    value[positive] = np.where(near_one, taylor, np.nan_to_num(ratio, nan=0.0))
    return value


def automatic_dmax(r0, n, m, d0=0.0):
    """PLUMED's keyword-form cutoff: d0 + r0 * (1e-5)^(1/(n - m))."""
    return d0 + r0 * 1e-5 ** (1.0 / (n - m))


def switching_function(r, r0, n=6, m=0, d0=0.0, dmax=0.0, stretch=True):
    """sigma(r) with the CoordinationForce conventions: m = 0 means 2n, dmax = 0 automatic, inf none."""
    m = 2 * n if m == 0 else m
    if dmax == 0.0:
        dmax = automatic_dmax(r0, n, m, d0)
    r = np.asarray(r, dtype=float)
    value = rational_unstretched(r, r0, n, m, d0)
    if math.isfinite(dmax):
        if stretch:
            at_zero = rational_unstretched(0.0, r0, n, m, d0)
            at_dmax = rational_unstretched(dmax, r0, n, m, d0)
            value = (value - at_dmax) / (at_zero - at_dmax)
        value = np.where(r > dmax, 0.0, value)
    return value


def minimum_image_rectangular(delta, box_lengths):
    """Minimum-image displacement vectors in a rectangular box."""
    box_lengths = np.asarray(box_lengths, dtype=float)
    return delta - box_lengths * np.round(delta / box_lengths)


def pair_list(mode, group_a, group_b):
    """The (first, second) slot pairs PLUMED sums for a mode (same-atom pairs included; they count 0)."""
    if mode == CoordinationForce.Self:
        return [(group_a[i], group_a[j]) for i in range(len(group_a)) for j in range(i + 1, len(group_a))]
    if mode == CoordinationForce.Dual:
        return [(a, b) for a in group_a for b in group_b]
    return list(zip(group_a, group_b))


def coordination_numpy(positions, mode, group_a, group_b, box_lengths=None, **switch):
    """Brute-force coordination number: sum of sigma over the mode's pairs (rectangular box or none)."""
    pairs = [(i, j) for i, j in pair_list(mode, group_a, group_b) if i != j]
    if not pairs:
        return 0.0
    first, second = np.array(pairs).T
    delta = positions[second] - positions[first]
    if box_lengths is not None:
        delta = minimum_image_rectangular(delta, box_lengths)
    return float(np.sum(switching_function(np.linalg.norm(delta, axis=1), **switch)))


def coordination_numbers_numpy(positions, mode, group_a, group_b=(), box_lengths=None, power=0.0, **switch):
    """Brute-force per-atom numbers: c_i = sum over j (of B, or of A in Self mode), other than i's own slot, of
    sigma(r_ij) r_ij^p (rectangular box or none); a pair with r^2 below DBL_EPSILON counts 0."""
    others = group_a if mode == CoordinationForce.Self else group_b
    values = []
    for slot, i in enumerate(group_a):
        total = 0.0
        for other_slot, j in enumerate(others):
            if mode == CoordinationForce.Self and other_slot == slot:
                continue
            delta = positions[j] - positions[i]
            if box_lengths is not None:
                delta = minimum_image_rectangular(delta, box_lengths)
            r = float(np.linalg.norm(delta))
            if r * r < np.finfo(float).eps:
                continue
            total += float(switching_function(r, **switch)) * r**power
        values.append(total)
    return np.array(values)


# ---------------------------------------------------------------------------------------------------
# OpenMM builders
# ---------------------------------------------------------------------------------------------------


def coordination_force(mode, group_a, group_b=(), energy="s", periodic=True, force_group=0, parameters=(),
                       r0=0.3, n=6, m=0, d0=0.0, dmax=0.0, stretch=True):
    """A CoordinationForce with every setting given (PLUMED's conventions: m = 0 is 2n, dmax = 0 automatic)."""
    force = CoordinationForce(energy)
    for name, value in parameters:
        force.addGlobalParameter(name, value)
    force.setMode(mode)
    force.setGroupA([int(a) for a in group_a])
    force.setGroupB([int(b) for b in group_b])
    force.setR0(r0)
    force.setN(n)
    force.setM(m)
    force.setD0(d0)
    force.setDMax(dmax)
    force.setStretch(stretch)
    force.setUsesPeriodicBoundaryConditions(periodic)
    force.setForceGroup(force_group)
    return force


def make_system(num_particles, forces, box_vectors=None):
    """A System of num_particles particles of mass 1 holding the given forces."""
    system = mm.System()
    for _ in range(num_particles):
        system.addParticle(1.0)
    if box_vectors is not None:
        system.setDefaultPeriodicBoxVectors(*[mm.Vec3(*row) for row in box_vectors])
    for force in forces:
        system.addForce(force)
    return system


def context_of(forces, positions, box_vectors=None, case=REFERENCE):
    """A Context of the case's platform for a System of len(positions) particles with the force (or list of forces),
    the box (rows a, b, c) if given, and the positions set."""
    forces = forces if isinstance(forces, (list, tuple)) else [forces]
    context = make_context(make_system(len(positions), forces, box_vectors), case)
    if box_vectors is not None:
        context.setPeriodicBoxVectors(*[mm.Vec3(*row) for row in box_vectors])
    context.setPositions(np.asarray(positions, dtype=float))
    return context


def random_positions(count, box, seed, minimum=0.15):
    """count points in a cubic box of edge box, no two (minimum images) closer than minimum."""
    random = np.random.default_rng(seed)
    points = []
    while len(points) < count:
        candidate = random.uniform(0, box, 3)
        if all(np.linalg.norm((candidate - p + box / 2) % box - box / 2) >= minimum for p in points):
            points.append(candidate)
    return np.array(points)


def set_frame(context, positions, box_vectors=None):
    if box_vectors is not None:
        context.setPeriodicBoxVectors(*[mm.Vec3(*map(float, row)) for row in box_vectors])
    context.setPositions(np.asarray(positions, dtype=float))


def energy_and_forces(context, groups=-1):
    """Potential energy (kJ/mol) and forces (N x 3 array, kJ/mol/nm) of the given force groups."""
    state = context.getState(getEnergy=True, getForces=True, groups=groups)
    energy = state.getPotentialEnergy().value_in_unit(mm.unit.kilojoule_per_mole)
    forces = state.getForces(asNumpy=True).value_in_unit(mm.unit.kilojoule_per_mole / mm.unit.nanometer)
    return energy, np.array(forces)


def energy_only(context, groups=-1):
    return context.getState(getEnergy=True, groups=groups).getPotentialEnergy().value_in_unit(
        mm.unit.kilojoule_per_mole)


def add_repulsion(system, count, mass, energy, cutoff):
    """Give the system's first `count` particles `mass` (u) and add a periodic CustomNonbondedForce `energy` of r
    with `cutoff` (nm) among them: the dynamics' own force, beside the bias under test."""
    for index in range(count):
        system.setParticleMass(index, mass)
    repulsion = mm.CustomNonbondedForce(energy)
    repulsion.setNonbondedMethod(mm.CustomNonbondedForce.CutoffPeriodic)
    repulsion.setCutoffDistance(cutoff)
    for _ in range(count):
        repulsion.addParticle([])
    system.addForce(repulsion)


def short_nve_run(bias, case):
    """A short NVE run with the force `bias` (put in force group 1): 20 atoms of 20 u with a soft Lennard-Jones
    repulsion in a periodic 1.6 nm box, 300 K, Verlet at 0.5 fs, 40 x 10 steps. Returns the total energy after each
    10 steps (kJ/mol) and the bias's energy before and after the run."""
    box, count = 1.6, 20
    system = make_system(count, [], np.diag([box] * 3))
    add_repulsion(system, count, 20.0, "4*0.5*((0.2/r)^12-(0.2/r)^6)", 0.7)
    bias.setForceGroup(1)
    system.addForce(bias)
    context = make_context(system, case, integrator=mm.VerletIntegrator(0.0005))
    context.setPositions(random_positions(count, box, seed=11, minimum=0.25))
    context.setVelocitiesToTemperature(300, 5)
    before = energy_only(context, groups=1 << 1)
    energies = []
    for _ in range(40):
        context.getIntegrator().step(10)
        state = context.getState(getEnergy=True)
        energies.append((state.getPotentialEnergy() + state.getKineticEnergy()).value_in_unit(
            mm.unit.kilojoule_per_mole))
    return np.array(energies), before, energy_only(context, groups=1 << 1)


def finite_difference_forces(context, positions, groups=-1, step=1e-5):
    """-dE/dx by central differences of the energy (groups as energy_only), each coordinate moved by +-step nm; the
    context is left at `positions`."""
    positions = np.asarray(positions, dtype=float)
    forces = np.zeros_like(positions)
    for atom in range(len(positions)):
        for axis in range(3):
            energies = []
            for sign in (1, -1):
                moved = positions.copy()
                moved[atom, axis] += sign * step
                context.setPositions(moved)
                energies.append(energy_only(context, groups))
            forces[atom, axis] = -(energies[0] - energies[1]) / (2 * step)
    context.setPositions(positions)
    return forces


def strain_derivative(context, positions, box_vectors, groups=-1, step=1e-3):
    """dE/d(epsilon) for the homogeneous deformation x -> (1 + epsilon) x of positions and box.

    Component (a, b) deforms x_a -> x_a + epsilon * x_b. Only a <= b keeps OpenMM's lower-triangular box
    form; the tensor of a pair potential is symmetric, so the lower triangle is copied from the upper.
    Five-point central differences.
    """
    positions = np.asarray(positions, dtype=float)
    box_vectors = np.asarray(box_vectors, dtype=float)
    tensor = np.zeros((3, 3))
    for a, b in itertools.combinations_with_replacement(range(3), 2):
        unit = np.zeros((3, 3))
        unit[a, b] = 1.0

        def energy(epsilon):
            deformation = np.eye(3) + epsilon * unit
            set_frame(context, positions @ deformation.T, box_vectors @ deformation.T)
            return energy_only(context, groups)

        tensor[a, b] = tensor[b, a] = (
            -energy(2 * step) + 8 * energy(step) - 8 * energy(-step) + energy(-2 * step)) / (12 * step)
    set_frame(context, positions, box_vectors)
    return tensor


# ---------------------------------------------------------------------------------------------------
# Periodic boxes: lattice reduction into OpenMM's reduced triclinic form
# ---------------------------------------------------------------------------------------------------


def _shortest_basis(basis, search=3):
    """Three shortest independent lattice vectors spanning the same volume as the rows of basis.

    Candidates are the integer combinations with coefficients in [-search, search]. Among equally long
    vectors, those pointing most along +x, then +y, then +z come first, so that a lattice that has an
    axis-aligned reduced basis (e.g. a cube) gets exactly that one, unrotated.
    """
    coefficients = np.array([c for c in itertools.product(range(-search, search + 1), repeat=3) if any(c)])
    candidates = coefficients @ basis
    lengths = np.linalg.norm(candidates, axis=1)
    scale = lengths.min()
    order = sorted(range(len(candidates)), key=lambda i: (round(lengths[i] / scale, 9),
                                                          *(-candidates[i] / lengths[i])))
    candidates = candidates[order]
    volume = abs(np.linalg.det(basis))
    first = candidates[0]
    for second in candidates[1:]:
        if np.linalg.norm(np.cross(first, second)) < 1e-9 * np.dot(second, second):
            continue  # parallel to the first
        for third in candidates[1:]:
            if abs(abs(np.linalg.det([first, second, third])) - volume) < 1e-9 * volume:
                return np.array([first, second, third])
    raise ValueError("no reduced basis found; increase the search range")


def reduce_box(box_vectors):
    """Reduce a periodic lattice into OpenMM's form.

    box_vectors: rows a, b, c (any basis of the lattice). Returns (reduced, rotation): reduced holds
    rows a', b', c' with a' along x, b' in the xy plane, c'_z > 0, |b'x| <= a'x/2, |c'x| <= a'x/2,
    |c'y| <= b'y/2, spanning the same lattice rotated by rotation (a proper rotation): positions go
    into that frame as x' = rotation @ x, forces come back as F = rotation.T @ F'.
    """
    basis = np.asarray(box_vectors, dtype=float)
    while True:  # repeat the bounded search until nothing gets shorter (very skewed inputs)
        shorter = _shortest_basis(basis)
        if np.all(np.abs(np.linalg.norm(shorter, axis=1) - np.linalg.norm(basis, axis=1))
                  <= 1e-12 * np.linalg.norm(basis, axis=1)):
            basis = shorter
            break
        basis = shorter
    if np.linalg.det(basis) < 0:
        basis[2] = -basis[2]  # same lattice, right-handed
    a, b, c = basis
    ex = a / np.linalg.norm(a)
    ey = b - np.dot(b, ex) * ex
    ey /= np.linalg.norm(ey)
    ez = np.cross(ex, ey)
    rotation = np.array([ex, ey, ez])
    reduced = basis @ rotation.T
    reduced[0, 1:] = 0.0  # exactly zero, as OpenMM requires
    reduced[1, 2] = 0.0
    # OpenMM's reduction (a no-op for a shortest basis, kept for safety): c by b, c by a, b by a.
    reduced[2] -= reduced[1] * round(reduced[2, 1] / reduced[1, 1])
    reduced[2] -= reduced[0] * round(reduced[2, 0] / reduced[0, 0])
    reduced[1] -= reduced[0] * round(reduced[1, 0] / reduced[0, 0])
    return reduced, rotation


def minimum_image_brute_force(delta, box_vectors, search=3):
    """Shortest |delta + integer combination of the box rows|, trying coefficients in [-search, search]."""
    coefficients = np.array(list(itertools.product(range(-search, search + 1), repeat=3)))
    images = delta[:, None, :] + (coefficients @ np.asarray(box_vectors, dtype=float))[None, :, :]
    return np.linalg.norm(images, axis=2).min(axis=1)


# ---------------------------------------------------------------------------------------------------
# PLUMED regression-test files
# ---------------------------------------------------------------------------------------------------

PLUMED_DATA = Path(__file__).resolve().parent.parent / "data" / "plumed"

#: dmax of "no cutoff" (setDMax(INFINITY)).
INFINITY = float("inf")


def _decimals(token):
    """Number of digits PLUMED printed after the decimal point."""
    return len(token.split(".")[1]) if "." in token else 0


class Frame:
    """One trajectory frame: names, positions (N x 3, nm) and box rows (3 x 3, nm)."""

    def __init__(self, names, positions, box_vectors):
        self.names, self.positions, self.box_vectors = names, positions, box_vectors


def read_xyz(path):
    """PLUMED driver's xyz: per frame N, a box line (3 edges or 9 = rows a, b, c), N lines NAME x y z."""
    lines = Path(path).read_text().splitlines()
    frames, i = [], 0
    while i < len(lines) and lines[i].strip():
        count = int(lines[i])
        box = [float(t) for t in lines[i + 1].split()]
        box_vectors = np.diag(box) if len(box) == 3 else np.array(box).reshape(3, 3)
        rows = [line.split() for line in lines[i + 2:i + 2 + count]]
        positions = np.array([[float(t) for t in row[1:4]] for row in rows])
        frames.append(Frame([row[0] for row in rows], positions, box_vectors))
        i += 2 + count
    return frames


def read_colvar(path):
    """A PLUMED COLVAR file: returns {field: (values, decimals)} with one entry per frame."""
    fields, rows = None, []
    for line in Path(path).read_text().splitlines():
        if line.startswith("#! FIELDS"):
            fields = line.split()[2:]
        elif line.strip() and not line.startswith("#"):
            rows.append(line.split())
    return {field: (np.array([float(row[k]) for row in rows]), np.array([_decimals(row[k]) for row in rows]))
            for k, field in enumerate(fields)}


def read_derivatives(path, num_atoms):
    """A DUMPDERIVATIVES file: {label: (atom derivatives F x N x 3, box derivatives F x 3 x 3, decimals)}.

    Rows are `time index value...`; index 3*i+k is d(value)/d(x_k of the i-th listed atom), then 9 box
    derivatives.
    """
    fields, rows = None, []
    for line in Path(path).read_text().splitlines():
        if line.startswith("#! FIELDS"):
            fields = line.split()[4:]
        elif line.strip() and not line.startswith("#"):
            rows.append(line.split())
    per_frame = 3 * num_atoms + 9
    assert len(rows) % per_frame == 0, "unexpected number of derivative rows"
    result = {}
    for k, label in enumerate(fields):
        values = np.array([float(row[2 + k]) for row in rows]).reshape(-1, per_frame)
        decimals = max(_decimals(row[2 + k]) for row in rows)
        result[label] = (values[:, :3 * num_atoms].reshape(-1, num_atoms, 3),
                         values[:, 3 * num_atoms:].reshape(-1, 3, 3), decimals)
    return result


def read_dumped_forces(path):
    """PLUMED driver's --dump-forces: per frame N, a virial line (3 or 9 numbers), N lines `X fx fy fz`.

    Returns (forces F x N x 3, virials F x 3 x 3 (diagonal only if 3 numbers were printed), decimals).
    """
    lines = Path(path).read_text().splitlines()
    forces, virials, decimals, i = [], [], 0, 0
    while i < len(lines) and lines[i].strip():
        count = int(lines[i])
        virial_tokens = lines[i + 1].split()
        virial = [float(t) for t in virial_tokens]
        virials.append(np.diag(virial) if len(virial) == 3 else np.array(virial).reshape(3, 3))
        rows = [line.split()[1:4] for line in lines[i + 2:i + 2 + count]]
        forces.append([[float(t) for t in row] for row in rows])
        decimals = max(decimals, _decimals(virial_tokens[0]), _decimals(rows[0][0]))
        i += 2 + count
    return np.array(forces), np.array(virials), decimals


def atom_range(text):
    """PLUMED atom list `1-108` or `1,2` (numbered from 1) as OpenMM particle indices (from 0)."""
    atoms = []
    for part in text.split(","):
        match = re.fullmatch(r"(\d+)-(\d+)", part)
        atoms += list(range(int(match[1]) - 1, int(match[2]))) if match else [int(part) - 1]
    return atoms


# ---------------------------------------------------------------------------------------------------
# Summary of the PLUMED folders reproduced (filled by test_plumed_regtests.py, printed by conftest.py)
# ---------------------------------------------------------------------------------------------------

#: case id -> folder -> {quantity: (max |deviation|, tolerance, passed)}
PLUMED_RESULTS = {}


def record(case_id, folder, quantity, deviations, tolerances):
    """Record how far a quantity of a PLUMED folder is from its reference on a platform case; returns
    whether it passed.

    deviations and tolerances are arrays (or numbers) of the same shape.
    """
    deviations = np.atleast_1d(np.asarray(deviations, dtype=float))
    tolerances = np.broadcast_to(np.asarray(tolerances, dtype=float), deviations.shape)
    passed = bool(np.all(deviations <= tolerances))
    PLUMED_RESULTS.setdefault(case_id, {}).setdefault(folder, {})[quantity] = (
        float(deviations.max()), float(tolerances.max()), passed)
    return passed


# ---------------------------------------------------------------------------------------------------
# Parameter lists over platform cases
# ---------------------------------------------------------------------------------------------------


def case_matrix(case_params, items, include=lambda case, item: True):
    """pytest parameters (case, item) for every case of case_params and item of items that include() keeps.

    Ids are "<case id>-<item>"; a skipped case (or placeholder) stays skipped.
    """
    params = []
    for param in case_params:
        case = param.values[0]
        for item in items:
            if case is None or include(case, item):
                params.append(pytest.param(case, item, id=f"{param.id}-{item}", marks=param.marks))
    return params
