"""The local step of every per-atom force (PerAtomForce.setLocalStep: PLUMED's LOCAL_AVERAGE and LOCAL_Q_l) on the
platforms that have its kernels (LOCAL_STEP_PLATFORMS; the other selected cases are skipped, saying so):
PLUMED's printed values and dumped forces of symfunc-rt-q6 (LOCAL_Q6), symfunc-rt-averaged-q6 (LOCAL_AVERAGE of Q6)
and symfunc-rt-localav-test (LOCAL_AVERAGE of a COORDINATIONNUMBER) by hand-built forces; the long-double brute force
of tests/python/steinhardt_reference.py on random systems (LocalDotProduct of Q1/Q3/Q4/Q6; LocalAverage of Q_l, of
coordination numbers and of SimpleCubic/Tetrahedral shell values; Self and Dual, periodic or not), per-atom values
and reductions; forces against finite differences of the energy; edge cases (a lone entry, a local switching
function that counts no pair, an atom listed twice, a vanishing q vector); energy conservation; and the contract
(XML of the new and the previous versions, copy, pickle, clear errors, updateParametersInContext, CustomCVForce,
Python conventions, the choice of platform)."""
import copy
import math
import pickle
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import openmm as mm
import pytest

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    INFINITY,
    LOCAL_STEP_PLATFORMS,
    PLUMED_DATA,
    assert_close,
    assert_forces_close,
    case_matrix,
    context_of,
    energy_and_forces,
    energy_only,
    finite_difference_forces,
    make_system,
    plumed_tolerance,
    random_positions,
    read_colvar,
    read_dumped_forces,
    read_xyz,
    registered_platforms,
    require_case,
    require_local_step_case,
    short_nve_run,
)
import steinhardt_reference as oracle
from openmmcoordination import (
    CoordinationNumberForce,
    PerAtomForce,
    ShellFunctionForce,
    SteinhardtForce,
    SwitchingSettings,
)

PLAIN_KERNELS = {"Q6": "CalcSteinhardtForce", "CN": "CalcCoordinationNumberForce", "Tetrahedral": "CalcShellFunctionForce"}
LOCAL_KERNELS = ["CalcLocalCoordinationNumberForce", "CalcLocalSteinhardtForce", "CalcLocalShellFunctionForce"]

STEINHARDT_DATA = PLUMED_DATA.parent / "plumed-steinhardt"
XML_DATA = Path(__file__).resolve().parent.parent / "data" / "xml"
FRAME = read_xyz(STEINHARDT_DATA / "trajectories" / "64.xyz")[0]
ATOMS = list(range(64))
AVERAGE, DOT = PerAtomForce.LocalAverage, PerAtomForce.LocalDotProduct
SHELL_FUNCTIONS = {"SimpleCubic": oracle.simple_cubic_function, "Tetrahedral": oracle.tetrahedral_function}


def switch(r0, d0=0.0, n=6, m=0, dmax=INFINITY, stretch=True):
    """(SwitchingSettings, the oracle's function) of one RATIONAL switching function; dmax 0: PLUMED's keyword form."""
    settings = SwitchingSettings.rational(r0, n, m, d0, dmax)
    settings.setStretch(stretch)
    model = oracle.Rational.keyword(r0, d0, n, m) if dmax == 0 else oracle.Rational(r0, d0, n, m, dmax, stretch)
    return settings, model


def build(kind, group_a, group_b=(), energy="0", reductions=(), switching=None, step=AVERAGE, local=None,
          periodic=True):
    """A per-atom force with a local step: kind "Q<l>" (SteinhardtForce), "CN" (CoordinationNumberForce) or a
    ShellFunctionForce function name; switching and local are SwitchingSettings (None: the defaults)."""
    if kind.startswith("Q"):
        force = SteinhardtForce(int(kind[1:]), energy)
    elif kind == "CN":
        force = CoordinationNumberForce(energy)
    else:
        force = ShellFunctionForce(getattr(ShellFunctionForce, kind), energy)
    force.setMode(PerAtomForce.Dual if len(group_b) else PerAtomForce.Self)
    force.setGroupA([int(a) for a in group_a])
    if len(group_b):
        force.setGroupB([int(b) for b in group_b])
    if switching is not None:
        force.setSwitchingSettings(switching)
    force.setUsesPeriodicBoundaryConditions(periodic)
    for reduction in reductions:
        force.addReduction(*(reduction if isinstance(reduction, tuple) else (reduction,)))
    force.setLocalStep(step)
    if local is not None:
        force.setLocalSwitchingSettings(local)
    return force


def local_scale(step, expected):
    """What the rounding of s_i is proportional to (coordination_testing.Tolerance's scale): s_i is a t-weighted mean
    of terms that may cancel, the dot products of unit vectors (LocalDotProduct: at most 1 in magnitude) or the
    entries' own values (LocalAverage: at most the largest of them in magnitude)."""
    return 1.0 if step == DOT else float(np.abs(np.asarray(expected, dtype=float)).max())


def oracle_local(kind, step, positions, model, local_model, group_a, group_b=(), box_lengths=None):
    """s_i of the long-double brute force: LOCAL_Q_l (step DOT) or LOCAL_AVERAGE over the pairs of group A, of the q_i
    of the central atoms A (neighbours B in Dual mode)."""
    b = list(group_b) or None
    if kind.startswith("Q"):
        degree = int(kind[1:])
        if step == DOT:
            q, _ = oracle.steinhardt_vectors(positions, degree, model, group_a, b, box_lengths)
            return oracle.local_steinhardt(positions, q, local_model, group_a, box_lengths=box_lengths)
        return oracle.local_average_steinhardt(positions, degree, model, local_model, group_a, b, box_lengths)
    if kind == "CN":
        values = oracle.coordination_numbers(positions, model, group_a, b, box_lengths)
    else:
        values = oracle.shell_function(positions, SHELL_FUNCTIONS[kind], model, group_a, b, box_lengths, True)
    return oracle.local_average(positions, values, local_model, group_a, box_lengths=box_lengths)


# ---------------------------------------------------------------------------------------------------
# PLUMED's regtests symfunc-rt-q6 (w6), symfunc-rt-averaged-q6 and symfunc-rt-localav-test
# ---------------------------------------------------------------------------------------------------

KEYWORD = switch(1.5, 3.0, 12, 0, 0.0)  # `D_0=3.0 R_0=1.5 NN=12 [MM=24]`: automatic cutoff, stretched
SWITCH_15 = switch(1.5, 3.0)  # SWITCH={RATIONAL D_0=3.0 R_0=1.5}: no cutoff
SWITCH_15_12_24 = switch(1.5, 3.0, 12, 24)
SWITCH_20_12_24 = switch(2.0, 3.0, 12, 24)


def regtest(folder):
    """The folder's biased actions as forces, each with its bias as energy (RESTRAINT 0.5 kappa (x - at)^2, BIASVALUE
    the value): {label: (force, its oracle s_i or None)}, and (printed field, label) of colv3.reference."""
    box = np.diag(FRAME.box_vectors)
    if folder == "symfunc-rt-q6":
        w6 = build("Q6", ATOMS, energy="mean", reductions=[PerAtomForce.Mean], switching=KEYWORD[0], step=DOT,
                   local=SWITCH_15[0])
        forces = {"q4": (build("Q4", ATOMS, energy="5*(mean-0.2)^2", reductions=[PerAtomForce.Mean],
                               switching=KEYWORD[0], step=PerAtomForce.NoLocalStep), None),
                  "q6": (build("Q6", ATOMS, energy="5*(lowest-0.2)^2", reductions=[PerAtomForce.Lowest],
                               switching=KEYWORD[0], step=PerAtomForce.NoLocalStep), None),
                  "w6": (w6, oracle_local("Q6", DOT, FRAME.positions, KEYWORD[1], SWITCH_15[1], ATOMS, (), box))}
        return forces, ("w6_mean", "w6")
    if folder == "symfunc-rt-averaged-q6":
        w6 = build("Q6", ATOMS, energy="5*(mean-0.1)^2", reductions=[PerAtomForce.Mean], switching=KEYWORD[0],
                   step=AVERAGE, local=SWITCH_15[0])
        return {"w6": (w6, oracle_local("Q6", AVERAGE, FRAME.positions, KEYWORD[1], SWITCH_15[1], ATOMS, (), box))}, (
            "w6_mean", "w6")
    laverage = build("CN", ATOMS, energy="5*(mean-13)^2", reductions=[PerAtomForce.Mean],
                     switching=SWITCH_15_12_24[0], step=AVERAGE, local=SWITCH_20_12_24[0])
    expected = oracle_local("CN", AVERAGE, FRAME.positions, SWITCH_15_12_24[1], SWITCH_20_12_24[1], ATOMS, (), box)
    return {"laverage": (laverage, expected)}, ("laverage_mean", "laverage")


REGTESTS = ["symfunc-rt-q6", "symfunc-rt-averaged-q6", "symfunc-rt-localav-test"]


@pytest.mark.parametrize("folder", REGTESTS)
@pytest.mark.parametrize("case", ALL_CASES)
def test_the_regtests_local_values_are_plumeds_printed_values(case, folder):
    """w6_mean (LOCAL_Q6), w6_mean (LOCAL_AVERAGE of Q6), laverage_mean to the printed digit; s_i to the oracle."""
    case = require_local_step_case(case)
    forces, (field, label) = regtest(folder)
    context = context_of([force for force, _ in forces.values()], FRAME.positions, FRAME.box_vectors, case)
    force, expected_values = forces[label]
    value = force.getCollectiveVariableValues(context)[0]
    expected, decimals = read_colvar(STEINHARDT_DATA / folder / "colv3.reference")[field]
    assert abs(value - expected[0]) <= plumed_tolerance(decimals[0], expected[0], case), (field, value, expected[0])
    assert_close(force.getPerAtomValues(context), expected_values.astype(float), case, what=f"{label}: s_i")


@pytest.mark.parametrize("folder", REGTESTS)
@pytest.mark.parametrize("case", ALL_CASES)
def test_the_regtests_forces_are_plumeds_dumped_forces(case, folder):
    """The summed forces of every bias of the folder's plumed.dat against forces.reference, at its printed digits."""
    case = require_local_step_case(case)
    forces, _ = regtest(folder)
    context = context_of([force for force, _ in forces.values()], FRAME.positions, FRAME.box_vectors, case)
    reference, _, decimals = read_dumped_forces(STEINHARDT_DATA / folder / "forces.reference")
    assert reference.shape == (1, 64, 3)
    ours = energy_and_forces(context)[1]
    deviation = np.abs(ours[None] - reference)
    tolerance = plumed_tolerance(decimals, reference, case)
    worst = np.unravel_index(np.argmax(deviation - tolerance), deviation.shape)
    assert np.all(deviation <= tolerance), (
        f"{folder}: atom {worst[1] + 1} component {'xyz'[worst[2]]}: ours {ours[worst[1:]]!r}, "
        f"PLUMED {reference[worst]}")
    assert np.abs(reference).max() > 10 * 10.0 ** -decimals  # the biases are not flat here


# ---------------------------------------------------------------------------------------------------
# Random systems against the long-double brute force
# ---------------------------------------------------------------------------------------------------

KINDS = [(f"Q{l}", DOT) for l in (1, 3, 4, 6)] + [(f"Q{l}", AVERAGE) for l in (1, 3, 4, 6)] + [
    ("CN", AVERAGE), ("SimpleCubic", AVERAGE), ("Tetrahedral", AVERAGE)]
KIND_IDS = [f"{kind}-{'dot' if step == DOT else 'average'}" for kind, step in KINDS]


#: OpenCL's kernels, compiled on the CPU by PoCL in CI, a program for each random setting: two of the seeds (Self and
#: periodic; Dual and not periodic) there, every seed elsewhere.
RANDOM_CASES = case_matrix(ALL_CASES, range(8), include=lambda case, seed: case.platform != "OpenCL" or seed in (1, 2))


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind, step", KINDS, ids=KIND_IDS)
@pytest.mark.parametrize("case, seed", RANDOM_CASES)
def test_random_systems_match_the_long_double_brute_force(case, kind, step, seed):
    """s_i (getPerAtomValues) and Mean, Sum, Lowest, MoreThan of random settings: Self (seed % 4 < 2) or Dual with
    overlapping groups, periodic (odd seeds) or not, random switching functions of the pairs and of the local pairs."""
    case = require_local_step_case(case)
    random = np.random.default_rng(100 + seed)
    count, box = 30, 1.8
    positions = random.uniform(0, box, (count, 3))
    periodic = bool(seed % 2)
    model = switch(random.uniform(0.1, 0.3), random.choice([0.0, random.uniform(0.0, 0.1)]), int(random.integers(4, 9)),
                   0, random.uniform(0.5, 0.85), bool(random.integers(2)))
    local_dmax = random.uniform(0.5, 0.85) if periodic or seed % 3 else INFINITY
    local = switch(random.uniform(0.15, 0.35), 0.0, int(random.choice([6, 8])), 0, local_dmax, bool(random.integers(2)))
    group_a = sorted(random.choice(count, 14, replace=False).tolist())
    group_b = sorted(random.choice(count, 20, replace=False).tolist()) if seed % 4 >= 2 else []
    threshold = 2.0 if kind == "CN" else 0.3
    force = build(kind, group_a, group_b, switching=model[0], step=step, local=local[0], periodic=periodic,
                  reductions=[PerAtomForce.Mean, PerAtomForce.Sum, PerAtomForce.Lowest,
                              (PerAtomForce.MoreThan, f"RATIONAL R_0={threshold} D_MAX={4 * threshold}")])
    box_lengths = [box] * 3 if periodic else None
    context = context_of(force, positions, np.diag([box] * 3) if periodic else None, case)
    expected = oracle_local(kind, step, positions, model[1], local[1], group_a, group_b, box_lengths)
    assert np.all(np.isfinite(expected)) and np.ptp(expected.astype(float)) > 0
    more_than = oracle.more_than(expected, oracle.Rational(threshold, 0.0, 6, 0, 4 * threshold, True))
    reductions = [oracle.mean(expected), oracle.total(expected), oracle.lowest(expected), more_than]
    what = f"{kind}, step {step}, seed {seed}"
    values = force.getPerAtomValues(context)
    assert_close(values, expected.astype(float), case, scale=local_scale(step, expected), what=f"s_i, {what}")
    getter = {"Q": "getOrderParameters", "C": "getCoordinationNumbers"}.get(kind[0], "getShellValues")
    assert list(getattr(force, getter)(context)) == list(values)  # the class's own getter gives the s_i too
    magnitudes = np.abs(expected.astype(float))
    assert_close(force.getCollectiveVariableValues(context), np.array(reductions, dtype=float), case,
                 scale=np.array([magnitudes.mean(), magnitudes.sum(), 0.0, 0.0]), what=f"reductions, {what}")


# ---------------------------------------------------------------------------------------------------
# Forces
# ---------------------------------------------------------------------------------------------------

#: (kind, step, groups, energy, reductions) with energies whose gradient involves several atoms' s_i.
FORCE_SETTINGS = [
    ("Q6", DOT, dict(group_a=range(24)), "10*(mean-0.3)^2+lowest", [PerAtomForce.Mean, PerAtomForce.Lowest]),
    ("Q3", DOT, dict(group_a=range(0, 24, 2), group_b=range(24)), "morethan+2*sum",
     [(PerAtomForce.MoreThan, "RATIONAL R_0=0.1"), PerAtomForce.Sum]),
    ("Q4", AVERAGE, dict(group_a=range(24)), "10*(mean-0.3)^2+lowest", [PerAtomForce.Mean, PerAtomForce.Lowest]),
    ("Q1", AVERAGE, dict(group_a=range(12), group_b=range(6, 24)), "3*highest-sum",
     [PerAtomForce.Highest, PerAtomForce.Sum]),
    ("CN", AVERAGE, dict(group_a=range(24)), "(mean-2)^2+lowest", [PerAtomForce.Mean, PerAtomForce.Lowest]),
    ("SimpleCubic", AVERAGE, dict(group_a=range(24)), "10*(mean-0.3)^2+lowest",
     [PerAtomForce.Mean, PerAtomForce.Lowest]),
    ("Tetrahedral", AVERAGE, dict(group_a=range(0, 24, 2), group_b=range(24)), "10*(mean-0.1)^2+highest",
     [PerAtomForce.Mean, PerAtomForce.Highest]),
]


@pytest.mark.parametrize("kind, step, groups, energy, reductions", FORCE_SETTINGS,
                         ids=[f"{s[0]}-{'dot' if s[1] == DOT else 'average'}" for s in FORCE_SETTINGS])
@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_the_forces_are_minus_the_gradient_of_the_energy(case, kind, step, groups, energy, reductions):
    case = require_local_step_case(case)
    box = 2.2
    positions = random_positions(24, box, seed=3)
    force = build(kind, energy=energy, reductions=reductions, switching=switch(0.25, 0.1, 6, 12, 0.9)[0], step=step,
                  local=switch(0.3, 0.0, 6, 12, 0.8)[0], **groups)
    context = context_of(force, positions, np.diag([box] * 3), case)
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value) and energy_value != 0.0
    expected = finite_difference_forces(context, positions, step=1e-5)
    scale = np.abs(expected).max()
    assert scale > 0
    np.testing.assert_allclose(forces, expected, rtol=0, atol=2e-6 * scale, err_msg=f"{kind}, {energy}")


# ---------------------------------------------------------------------------------------------------
# Edge cases
# ---------------------------------------------------------------------------------------------------

#: A cluster of five atoms and atom 5 alone, far from all (no periodic boundaries).
CLUSTER = np.array([[0, 0, 0], [0.3, 0, 0], [0, 0.25, 0.1], [0.2, 0.2, 0.25], [-0.1, 0.15, -0.2], [5, 5, 5]], float)
EDGE_SWITCH = switch(0.3, 0.0, 6, 12, 1.0)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind, step", [("Q6", DOT), ("Q3", DOT), ("Q4", AVERAGE), ("CN", AVERAGE),
                                        ("Tetrahedral", AVERAGE)])
@pytest.mark.parametrize("mode", ["Self", "Dual"])
@pytest.mark.parametrize("case", ALL_CASES)
def test_a_thousand_atoms_match_the_reference_platform(case, mode, kind, step):
    """Enough atoms for the platforms' cell grids and neighbour lists (and, on the CPU, several threads' buffers),
    in every precision: s_i, the energy and the forces against the Reference platform's (the forces through two pair
    passes: the force's own and the local step's)."""
    case = require_local_step_case(case)
    random = np.random.default_rng(23)
    box = 3.0
    positions = random.uniform(0, box, (1000, 3))
    groups = (dict(group_a=range(1000)) if mode == "Self" else
              dict(group_a=range(0, 1000, 3), group_b=range(200, 1000)))
    # Forces well above the fixed-point resolution of OpenMM's GPU force buffers (2^-32 kJ/mol/nm), which the two
    # pair passes both round to.
    force = build(kind, energy="1000*(mean-0.5)^2+100*morethan", reductions=[
        PerAtomForce.Mean, (PerAtomForce.MoreThan, "RATIONAL R_0=0.5")],
        switching=SwitchingSettings.rational(0.3, 6, 12, 0.0, 0.7),
        local=SwitchingSettings.rational(0.35, 6, 12, 0.0, 0.8), step=step, **groups)
    reference = copy.deepcopy(force)
    expected_context = context_of(reference, positions, np.diag([box] * 3))
    context = context_of(force, positions, np.diag([box] * 3), case)
    expected = np.array(reference.getPerAtomValues(expected_context))
    assert np.abs(expected).max() > 0.05
    assert_close(force.getPerAtomValues(context), expected, case, scale=local_scale(step, expected),
                 what=f"s_i of {kind}")
    expected_energy, expected_forces = energy_and_forces(expected_context)
    energy_value, forces = energy_and_forces(context)
    assert np.abs(expected_forces).max() > 0.05  # the local step exerts forces
    assert_close(energy_value, expected_energy, case, what="energy")
    assert_forces_close(forces, expected_forces, case, passes=2)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind, step", [("Q6", DOT), ("Q4", AVERAGE), ("CN", AVERAGE), ("Tetrahedral", AVERAGE)])
@pytest.mark.parametrize("case", ALL_CASES)
def test_a_lone_entry_has_s_0_and_no_force(case, kind, step):
    case = require_local_step_case(case)
    local = switch(0.35, 0.0, 6, 12, 1.2)
    force = build(kind, range(6), energy="10*(mean-0.2)^2", reductions=[PerAtomForce.Mean], switching=EDGE_SWITCH[0],
                  step=step, local=local[0], periodic=False)
    context = context_of(force, CLUSTER, case=case)
    values = np.array(force.getPerAtomValues(context))
    expected = oracle_local(kind, step, CLUSTER, EDGE_SWITCH[1], local[1], range(6)).astype(float)
    assert np.all(np.isfinite(values)) and values[5] == 0.0 and np.all(values[:5] != 0.0)
    assert_close(values, expected, case, what="s_i")
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value) and np.all(np.isfinite(forces))
    assert np.all(forces[5] == 0.0) and np.abs(forces[:5]).max() > 1e-3
    if case.double:
        np.testing.assert_allclose(forces, finite_difference_forces(context, CLUSTER), rtol=0,
                                   atol=2e-6 * np.abs(forces).max())


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("step", [AVERAGE, DOT])
@pytest.mark.parametrize("case", ALL_CASES)
def test_an_evaluation_with_a_value_that_is_not_a_number_applies_no_force(case, step):
    """A pair term that is NaN (a Custom switching function, no cutoff, NaN beyond x = 2.5, as at the pairs of the
    lone atom 5) makes every value of the evaluation NaN (the non-finite rule): the energy is NaN and no force is
    applied, also through the local step, whose passes then meet NaN local vectors with weights of 0."""
    case = require_local_step_case(case)
    switching = SwitchingSettings.custom("select(step(x-2), sqrt(2.5-x), 1/(1+x^6))", 0.3, 0.0, math.inf)
    switching.setStretch(False)
    force = build("Q6", range(6), energy="10*(mean-0.2)^2", reductions=[PerAtomForce.Mean], step=step,
                  switching=switching, local=switch(0.35, 0.0, 6, 12, 1.2)[0], periodic=False)
    context = context_of(force, CLUSTER, case=case)
    energy_value, forces = energy_and_forces(context)
    assert math.isnan(energy_value), energy_value
    assert np.all(forces == 0.0), forces
    assert np.all(np.isnan(force.getPerAtomValues(context)))


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("step", [AVERAGE, DOT])
@pytest.mark.parametrize("case", ALL_CASES)
def test_a_coordinate_that_is_not_finite_gives_nan_where_no_local_pair_counts(case, step):
    """An infinite coordinate makes every value NaN (the non-finite rule), also where the local step's s would not
    read them: LOCAL_Q_l of an entry with no counted local pair is 0, and here none counts (t's cutoff 0.1 nm)."""
    case = require_local_step_case(case)
    force = build("Q6", range(5), energy="10*(mean-0.2)^2+highest", reductions=[PerAtomForce.Mean,
                  PerAtomForce.Highest], step=step, switching=EDGE_SWITCH[0], local=switch(0.02, 0.0, 6, 12, 0.1)[0],
                  periodic=False)
    positions = CLUSTER[:5].copy()
    positions[1, 2] = -math.inf
    context = context_of(force, positions, case=case)
    energy_value, forces = energy_and_forces(context)
    assert math.isnan(energy_value), energy_value
    assert not np.any(forces), forces
    assert np.all(np.isnan(force.getCollectiveVariableValues(context)))


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind", ["Q6", "Q3", "CN", "SimpleCubic"])
@pytest.mark.parametrize("case", ALL_CASES)
def test_a_local_switching_function_that_counts_no_pair(case, kind):
    """No local pair counts (t = 0 beyond 0.05 nm): LocalDotProduct gives s = 0 and no force; LocalAverage gives
    s = q_i, the force of the same energy without a local step."""
    case = require_local_step_case(case)
    none = switch(0.01, 0.0, 6, 12, 0.05)[0]
    settings = dict(energy="10*(mean-0.3)^2+lowest", reductions=[PerAtomForce.Mean, PerAtomForce.Lowest],
                    switching=EDGE_SWITCH[0], local=none, periodic=False)
    plain = build(kind, range(6), step=PerAtomForce.NoLocalStep, **settings)
    positions = np.vstack([CLUSTER[:5], [0.5, 0.5, 0.5]])
    plain_context = context_of(plain, positions, case=case)
    steps = [AVERAGE, DOT] if kind.startswith("Q") else [AVERAGE]
    for step in steps:
        force = build(kind, range(6), step=step, **settings)
        context = context_of(force, positions, case=case)
        energy_value, forces = energy_and_forces(context)
        if step == DOT:
            assert np.all(np.array(force.getPerAtomValues(context)) == 0.0)
            assert_close(energy_value, 10 * 0.3 ** 2, case, what="energy")
            assert np.all(forces == 0.0)
        else:
            assert_close(force.getPerAtomValues(context), plain.getPerAtomValues(plain_context), case, what="s = q")
            plain_energy, plain_forces = energy_and_forces(plain_context)
            assert_close(energy_value, plain_energy, case, what="energy")
            if case.gpu:  # the same numbers by another sequence of single- or mixed-precision operations
                assert_forces_close(forces, plain_forces, case)
            else:
                np.testing.assert_allclose(forces, plain_forces, rtol=1e-10, atol=1e-12 * np.abs(plain_forces).max())


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind, step", [("Q6", DOT), ("Q4", AVERAGE), ("CN", AVERAGE)])
@pytest.mark.parametrize("case", ALL_CASES)
def test_an_atom_listed_twice_in_group_a(case, kind, step):
    """Atom 2 is two entries: two equal s_i; the pair of the two entries counts 0 in q and in the local step."""
    case = require_local_step_case(case)
    group_a = [0, 1, 2, 2, 3, 4]
    local = switch(0.35, 0.0, 6, 12, 1.2)
    force = build(kind, group_a, energy="10*(mean-0.3)^2+lowest", reductions=[PerAtomForce.Mean, PerAtomForce.Lowest],
                  switching=EDGE_SWITCH[0], step=step, local=local[0], periodic=False)
    context = context_of(force, CLUSTER[:5], case=case)
    values = np.array(force.getPerAtomValues(context))
    expected = oracle_local(kind, step, CLUSTER[:5], EDGE_SWITCH[1], local[1], group_a).astype(float)
    assert len(values) == 6 and values[2] == values[3]
    assert_close(values, expected, case, what="s_i")
    assert_close(force.getCollectiveVariableValues(context), [expected.mean(), expected.min()], case)
    if case.double:
        forces = energy_and_forces(context)[1]
        np.testing.assert_allclose(forces, finite_difference_forces(context, CLUSTER[:5]), rtol=0,
                                   atol=2e-6 * np.abs(forces).max())


@pytest.mark.parametrize("step", [DOT, AVERAGE], ids=["dot", "average"])
@pytest.mark.parametrize("case", ALL_CASES)
def test_an_entry_whose_q_vector_vanishes(case, step):
    """Q1 of atom 0, between two opposite neighbours, is the zero vector (Y_1m(-d) = -Y_1m(d)): its unit vector is 0
    (it still counts in the other entries' denominators), its averaged vector q/N is 0."""
    case = require_local_step_case(case)
    positions = np.array([[0, 0, 0], [0.3, 0.1, 0], [-0.3, -0.1, 0], [0.1, 0.5, 0.3], [0.35, 0.6, 0.1]])
    local = switch(0.35, 0.0, 6, 12, 1.2)
    force = build("Q1", range(5), energy="10*(mean-0.3)^2", reductions=[PerAtomForce.Mean],
                  switching=switch(0.3, 0.0, 6, 12, 0.45)[0], step=step, local=local[0], periodic=False)
    context = context_of(force, positions, case=case)
    q, _ = oracle.steinhardt_vectors(positions, 1, oracle.Rational(0.3, 0.0, 6, 12, 0.45), range(5))
    assert float(oracle.vector_norms(q)[0]) < 1e-17 and np.all(oracle.vector_norms(q)[1:] > 0.1)
    values = np.array(force.getPerAtomValues(context))
    expected = oracle_local("Q1", step, positions, oracle.Rational(0.3, 0.0, 6, 12, 0.45), local[1], range(5))
    assert_close(values, expected.astype(float), case, what="s_i")
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value) and np.all(np.isfinite(forces))


# ---------------------------------------------------------------------------------------------------
# Local neighbours (setLocalNeighbors: PLUMED's SPECIESA/SPECIESB of LOCAL_Q_l and LOCAL_AVERAGE)
# ---------------------------------------------------------------------------------------------------

def oracle_local_neighbors(kind, step, positions, model, local_model, group_a, neighbors, group_b=(), box_lengths=None,
                           partners=()):
    """s_i of the long-double brute force with local neighbours: each central atom i of group A has its value from its
    pairs with group B's atoms (group A's in Self mode), each neighbour j of `neighbors` from its pairs with
    `partners` (by default the same atoms); LOCAL_Q_l sums t_ij Re(qhat_i . conj(qhat_j)) over the neighbours (qhat 0
    where q is the zero vector) over sum_j t_ij; LOCAL_AVERAGE is (v_i + sum_j t_ij v_j) / (1 + sum_j t_ij), v = q/N
    for Q_l (then s_i its norm)."""
    pairs_with = list(group_b) or list(group_a)
    neighbour_pairs = list(partners) or pairs_with
    neighbourhood = oracle.shell(positions, local_model, group_a, neighbors, box_lengths)
    weights = neighbourhood.weights
    if kind.startswith("Q"):
        degree = int(kind[1:])
        q_a, n_a = oracle.steinhardt_vectors(positions, degree, model, group_a, pairs_with, box_lengths)
        q_j, n_j = oracle.steinhardt_vectors(positions, degree, model, neighbors, neighbour_pairs, box_lengths)
        if step == DOT:
            products = (np.conj(oracle.unit_vectors(q_a)) @ oracle.unit_vectors(q_j).T).real
            return oracle._divide_or_zero(np.sum(weights * products, axis=1), neighbourhood.counts)
        v_a = oracle.normalised_steinhardt_vectors(q_a, n_a)
        v_j = oracle.normalised_steinhardt_vectors(q_j, n_j)
        return oracle.vector_norms((v_a + weights @ v_j) / (1 + neighbourhood.counts)[:, None])
    if kind == "CN":
        values = [oracle.coordination_numbers(positions, model, atoms, others, box_lengths)
                  for atoms, others in ((group_a, pairs_with), (neighbors, neighbour_pairs))]
    else:
        values = [oracle.shell_function(positions, SHELL_FUNCTIONS[kind], model, atoms, others, box_lengths, True)
                  for atoms, others in ((group_a, pairs_with), (neighbors, neighbour_pairs))]
    return (values[0] + weights @ values[1]) / (1 + neighbourhood.counts)


def random_neighborhood(seed, count, box, periodic):
    """The random system of the local-neighbour tests: (the generator, for the test's further draws; positions in a
    cube of edge box; periodic; the force's rational switching function and the local one, each as switch() gives
    them; a random order of the atoms)."""
    random = np.random.default_rng(seed)
    positions = random.uniform(0, box, (count, 3))
    model = switch(random.uniform(0.15, 0.3), 0.0, int(random.integers(4, 9)), 0, random.uniform(0.6, 0.85))
    local = switch(random.uniform(0.15, 0.35), 0.0, 6, 0, random.uniform(0.5, 0.85) if periodic else INFINITY)
    return random, positions, periodic, model, local, random.permutation(count)


NEIGHBOR_KINDS = [("Q6", DOT), ("Q3", DOT), ("Q4", AVERAGE), ("CN", AVERAGE), ("Tetrahedral", AVERAGE)]
#: Seeds: Self (seed % 4 < 2) or Dual, periodic (odd) or not; PoCL compiles a program per setting: seed 1 there (Self
#: made Dual by the neighbours, periodic; the forces' test below covers Dual on OpenCL).
NEIGHBOR_CASES = case_matrix(ALL_CASES, range(4), include=lambda case, seed: case.platform != "OpenCL" or seed == 1)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind, step", NEIGHBOR_KINDS, ids=[f"{k}-{'dot' if s == DOT else 'average'}"
                                                            for k, s in NEIGHBOR_KINDS])
@pytest.mark.parametrize("case, seed", NEIGHBOR_CASES)
def test_local_neighbors_match_the_long_double_brute_force(case, kind, step, seed):
    """s_i and Mean, Lowest, Highest, MoreThan, the second moment (centred on the mean) and Max (BETA=0.5, a
    log-sum-exp) with local neighbours that
    overlap group A (and list an atom twice), against the brute force: only the pairs of a central entry and a neighbour count, each neighbour's value from the force's
    own pairs; the per-atom values are group A's."""
    case = require_local_step_case(case)
    count, box = 36, 1.8
    random, positions, periodic, model, local, atoms = random_neighborhood(300 + seed, count, box, bool(seed % 2))
    group_a = sorted(atoms[:12].tolist())
    neighbors = atoms[8:26].tolist() + [int(atoms[20])]  # four atoms also in A, one listed twice
    group_b = sorted(random.choice(count, 24, replace=False).tolist()) if seed % 4 >= 2 else []
    threshold = 2.0 if kind == "CN" else 0.3
    force = build(kind, group_a, group_b, switching=model[0], step=step, local=local[0], periodic=periodic,
                  reductions=[PerAtomForce.Mean, PerAtomForce.Lowest, PerAtomForce.Highest,
                              (PerAtomForce.MoreThan, f"RATIONAL R_0={threshold} D_MAX={4 * threshold}"),
                              (PerAtomForce.Moment, "2"), (PerAtomForce.Max, "BETA=0.5")])
    force.setLocalNeighbors(neighbors)
    box_lengths = [box] * 3 if periodic else None
    context = context_of(force, positions, np.diag([box] * 3) if periodic else None, case)
    expected = oracle_local_neighbors(kind, step, positions, model[1], local[1], group_a, neighbors, group_b,
                                      box_lengths)
    plain = oracle_local(kind, step, positions, model[1], local[1], group_a, group_b, box_lengths)
    assert np.all(np.isfinite(expected)) and np.ptp(expected.astype(float)) > 0
    assert np.abs(expected - plain).max() > 1e-3  # the neighbours matter
    values = np.array(force.getPerAtomValues(context))
    what = f"{kind}, step {step}, seed {seed}"
    assert values.shape == (len(group_a),)
    assert_close(values, expected.astype(float), case, scale=local_scale(step, expected), what=f"s_i, {what}")
    more_than = oracle.more_than(expected, oracle.Rational(threshold, 0.0, 6, 0, 4 * threshold, True))
    moment = np.mean((expected - oracle.mean(expected)) ** 2)
    log_sum_exp = 0.5 * np.log(np.sum(np.exp(expected / 0.5)))
    magnitude = np.abs(expected.astype(float)).mean()
    assert_close(force.getCollectiveVariableValues(context),
                 np.array([oracle.mean(expected), oracle.lowest(expected), oracle.highest(expected), more_than, moment,
                           log_sum_exp], dtype=float), case,
                 scale=np.array([magnitude, 0.0, 0.0, 0.0, magnitude ** 2, 0.0]), what=f"reductions, {what}")


NEIGHBOR_FORCE_SETTINGS = [
    ("Q6", DOT, dict(group_a=range(0, 12)), list(range(8, 24)) + [30]),
    ("Q3", DOT, dict(group_a=range(0, 24, 2), group_b=range(24)), list(range(1, 24, 2)) + [4]),
    ("Q4", AVERAGE, dict(group_a=range(12), group_b=range(6, 24)), list(range(10, 24))),
    ("CN", AVERAGE, dict(group_a=range(12)), list(range(10, 24))),
    ("SimpleCubic", AVERAGE, dict(group_a=range(12)), list(range(12, 24))),
]


#: On OpenCL (PoCL compiles a program per setting) the first (Self) and the third (Dual) setting.
NEIGHBOR_FORCE_CASES = case_matrix(DOUBLE_CASES, range(len(NEIGHBOR_FORCE_SETTINGS)),
                                   include=lambda case, index: case.platform != "OpenCL" or index in (0, 2))


@pytest.mark.parametrize("case, setting", NEIGHBOR_FORCE_CASES)
def test_the_forces_with_local_neighbors_are_minus_the_gradient_of_the_energy(case, setting):
    """Forces on the central atoms, the neighbours and the atoms of their values' pairs, against finite differences
    (atom 30, a neighbour outside both groups, has its value from the force's pairs all the same)."""
    case = require_local_step_case(case)
    kind, step, groups, neighbors = NEIGHBOR_FORCE_SETTINGS[setting]
    box = 2.2
    positions = random_positions(31, box, seed=3)
    force = build(kind, energy="10*(mean-0.3)^2+lowest", reductions=[PerAtomForce.Mean, PerAtomForce.Lowest],
                  switching=switch(0.25, 0.1, 6, 12, 0.9)[0], step=step, local=switch(0.3, 0.0, 6, 12, 0.8)[0],
                  **groups)
    force.setLocalNeighbors(neighbors)
    context = context_of(force, positions, np.diag([box] * 3), case)
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value) and energy_value != 0.0
    expected = finite_difference_forces(context, positions, step=1e-5)
    scale = np.abs(expected).max()
    moved = set(neighbors) - set(groups["group_a"])
    assert scale > 0 and max(np.abs(forces[j]).max() for j in moved) > 1e-6 * scale  # the neighbours feel a force
    np.testing.assert_allclose(forces, expected, rtol=0, atol=2e-6 * scale, err_msg=kind)


#: The local neighbours' own partners (setLocalNeighborPartners: SPECIESB of an action that counts other atoms).
PARTNER_CASES = case_matrix(ALL_CASES, range(4), include=lambda case, seed: case.platform != "OpenCL" or seed == 2)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind, step", NEIGHBOR_KINDS, ids=[f"{k}-{'dot' if s == DOT else 'average'}"
                                                            for k, s in NEIGHBOR_KINDS])
@pytest.mark.parametrize("case, seed", PARTNER_CASES)
def test_local_neighbor_partners_match_the_long_double_brute_force(case, kind, step, seed):
    """With the neighbours' own partners (overlapping group A, group B and the neighbours, one listed twice): each
    neighbour's value is of its pairs with them alone, each central entry's of its own pairs; s_i and the
    reductions against the brute force."""
    case = require_local_step_case(case)
    count, box = 40, 1.9
    random, positions, periodic, model, local, atoms = random_neighborhood(500 + seed, count, box, bool(seed % 2))
    group_a = sorted(atoms[:10].tolist())
    neighbors = atoms[6:24].tolist()
    group_b = sorted(random.choice(count, 20, replace=False).tolist()) if seed % 4 >= 2 else []
    partners = atoms[4:36].tolist() + [int(atoms[30])]  # overlapping A and the neighbours, one atom listed twice
    force = build(kind, group_a, group_b, switching=model[0], step=step, local=local[0], periodic=periodic,
                  reductions=[PerAtomForce.Mean, PerAtomForce.Lowest, (PerAtomForce.Moment, "2")])
    force.setLocalNeighbors(neighbors)
    force.setLocalNeighborPartners(partners)
    assert force.getLocalNeighborPartners() == tuple(partners)
    box_lengths = [box] * 3 if periodic else None
    context = context_of(force, positions, np.diag([box] * 3) if periodic else None, case)
    expected = oracle_local_neighbors(kind, step, positions, model[1], local[1], group_a, neighbors, group_b,
                                      box_lengths, partners)
    own = oracle_local_neighbors(kind, step, positions, model[1], local[1], group_a, neighbors, group_b, box_lengths)
    assert np.all(np.isfinite(expected)) and np.ptp(expected.astype(float)) > 0
    assert np.abs(expected - own).max() > 1e-3  # the partners matter
    values = np.array(force.getPerAtomValues(context))
    what = f"{kind}, step {step}, seed {seed}"
    assert_close(values, expected.astype(float), case, scale=local_scale(step, expected), what=f"s_i, {what}")
    magnitude = np.abs(expected.astype(float)).mean()
    assert_close(force.getCollectiveVariableValues(context),
                 np.array([oracle.mean(expected), oracle.lowest(expected),
                           np.mean((expected - oracle.mean(expected)) ** 2)], dtype=float), case,
                 scale=np.array([magnitude, 0.0, magnitude ** 2]), what=f"reductions, {what}")


PARTNER_FORCE_SETTINGS = [
    ("Q6", DOT, dict(group_a=range(0, 8)), list(range(4, 20)), list(range(0, 31))),
    ("CN", AVERAGE, dict(group_a=range(10), group_b=range(5, 20)), list(range(8, 22)), list(range(18, 31)) + [25]),
    ("Q4", AVERAGE, dict(group_a=range(0, 16, 2), group_b=range(16)), list(range(1, 16, 2)), list(range(12, 31))),
]
PARTNER_FORCE_CASES = case_matrix(DOUBLE_CASES, range(len(PARTNER_FORCE_SETTINGS)),
                                  include=lambda case, index: case.platform != "OpenCL" or index == 1)


@pytest.mark.parametrize("case, setting", PARTNER_FORCE_CASES)
def test_the_forces_with_local_neighbor_partners_are_minus_the_gradient_of_the_energy(case, setting):
    """Forces on the central atoms, the neighbours and their partners (atoms 24 to 30 are partners alone), against
    finite differences."""
    case = require_local_step_case(case)
    kind, step, groups, neighbors, partners = PARTNER_FORCE_SETTINGS[setting]
    box = 2.2
    positions = random_positions(31, box, seed=5)
    force = build(kind, energy="10*(mean-0.3)^2+lowest", reductions=[PerAtomForce.Mean, PerAtomForce.Lowest],
                  switching=switch(0.25, 0.1, 6, 12, 0.9)[0], step=step, local=switch(0.3, 0.0, 6, 12, 0.8)[0],
                  **groups)
    force.setLocalNeighbors(neighbors)
    force.setLocalNeighborPartners(partners)
    context = context_of(force, positions, np.diag([box] * 3), case)
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value) and energy_value != 0.0
    expected = finite_difference_forces(context, positions, step=1e-5)
    scale = np.abs(expected).max()
    only_partners = set(partners) - set(neighbors) - set(groups["group_a"]) - set(groups.get("group_b", ()))
    assert only_partners and max(np.abs(forces[j]).max() for j in only_partners) > 1e-6 * scale  # they feel it
    np.testing.assert_allclose(forces, expected, rtol=0, atol=2e-6 * scale, err_msg=kind)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("mode", ["Self", "Dual"])
@pytest.mark.parametrize("case", ALL_CASES)
def test_local_neighbor_partners_at_size_match_the_reference_platform(case, mode):
    """Enough atoms for the GPU's sorted slots and neighbour list (5,000 on CUDA, whose warps take 1,000 atoms' tiles
    in one pass unsorted) and the CPU's cell grid: s_i, the energy and the forces against the Reference platform's
    (which the brute-force tests above check)."""
    case = require_local_step_case(case)
    count = 5000 if case.platform == "CUDA" else 1000
    random = np.random.default_rng(29)
    box = 3.0 * (count / 1000) ** (1 / 3)
    positions = random.uniform(0, box, (count, 3))
    groups = (dict(group_a=range(0, count, 4)) if mode == "Self" else
              dict(group_a=range(0, count, 4), group_b=range(count // 5, count)))
    force = build("CN", energy="1000*(mean-0.5)^2+100*morethan", reductions=[
        PerAtomForce.Mean, (PerAtomForce.MoreThan, "RATIONAL R_0=0.5")],
        switching=SwitchingSettings.rational(0.3, 6, 12, 0.0, 0.7),
        local=SwitchingSettings.rational(0.35, 6, 12, 0.0, 0.8), step=AVERAGE, **groups)
    force.setLocalNeighbors(range(1, count, 3))
    force.setLocalNeighborPartners(range(0, count // 2))
    reference = copy.deepcopy(force)
    expected_context = context_of(reference, positions, np.diag([box] * 3))
    context = context_of(force, positions, np.diag([box] * 3), case)
    expected = np.array(reference.getPerAtomValues(expected_context))
    assert np.abs(expected).max() > 0.05
    assert_close(force.getPerAtomValues(context), expected, case, scale=local_scale(AVERAGE, expected),
                 what="s_i")
    expected_energy, expected_forces = energy_and_forces(expected_context)
    energy_value, forces = energy_and_forces(context)
    assert np.abs(expected_forces).max() > 0.05
    assert_close(energy_value, expected_energy, case, what="energy")
    assert_forces_close(forces, expected_forces, case, passes=2)


def test_local_neighbors_api_and_errors():
    def force_with(neighbors, step=DOT):
        force = build("Q6", range(3), energy="mean", reductions=[PerAtomForce.Mean], step=step, periodic=False)
        force.setLocalNeighbors(neighbors)
        return force

    force = SteinhardtForce(6, "mean")
    assert force.getLocalNeighbors() == ()
    force.setLocalNeighbors(np.arange(3, 5))
    assert force.getLocalNeighbors() == (3, 4)
    force.setLocalNeighbors([])
    assert force.getLocalNeighbors() == ()
    with pytest.raises(TypeError, match="setLocalNeighbors"):
        force.setLocalNeighbors("3,4")
    with pytest.raises(mm.OpenMMException, match="local neighbours.*setLocalStep"):
        context_of(force_with([3, 4], PerAtomForce.NoLocalStep), CLUSTER)
    with pytest.raises(mm.OpenMMException, match="setLocalNeighbors.*entry 1 is atom index 6.*6 particles"):
        context_of(force_with([3, 6]), CLUSTER)
    with pytest.raises(mm.OpenMMException, match="setLocalNeighbors.*not the id of a centre"):
        context_of(force_with([-1]), CLUSTER)
    force = force_with([4, 5])
    assert len(force.getPerAtomValues(context_of(force, CLUSTER))) == 3
    # The neighbours' partners.
    force = SteinhardtForce(6, "mean")
    assert force.getLocalNeighborPartners() == ()
    force.setLocalNeighborPartners(np.arange(2, 5))
    assert force.getLocalNeighborPartners() == (2, 3, 4)
    with pytest.raises(TypeError, match="setLocalNeighborPartners"):
        force.setLocalNeighborPartners([1.5])
    without_neighbors = force_with([])
    without_neighbors.setLocalNeighborPartners([1, 2])
    with pytest.raises(mm.OpenMMException, match="partners.*setLocalNeighborPartners.*2 atoms.*no.*setLocalNeighbors"):
        context_of(without_neighbors, CLUSTER)
    force = force_with([3, 4])
    force.setLocalNeighborPartners([0, 7])
    with pytest.raises(mm.OpenMMException, match="setLocalNeighborPartners.*entry 1 is atom index 7.*6 particles"):
        context_of(force, CLUSTER)


# ---------------------------------------------------------------------------------------------------
# Dynamics
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_energy_is_conserved_in_a_short_nve_run_with_a_local_q6_bias(case):
    case = require_local_step_case(case)
    bias = build("Q6", range(20), energy="500*(mean-0.6)^2", reductions=[PerAtomForce.Mean],
                 switching=switch(0.3, 0.0, 6, 12, 0.7)[0], step=DOT, local=switch(0.3, 0.0, 6, 12, 0.75)[0])
    energies, before, _ = short_nve_run(bias, case)
    assert abs(before) > 1.0  # the bias acts
    assert np.ptp(energies) < 1e-3 * max(1.0, np.abs(energies).max()), energies


# ---------------------------------------------------------------------------------------------------
# Contract: XML, copies, errors, updates, CustomCVForce, Python conventions, platforms
# ---------------------------------------------------------------------------------------------------

def contract_forces():
    """class name -> (a force with a local step, the XML version that saves it)."""
    local = switch(0.4, 0.05, 8, 16, 1.1, stretch=False)[0]
    forces = {"SteinhardtForce": (build("Q4", [0, 1, 2], [1, 2, 3], "2*mean", [PerAtomForce.Mean], step=DOT,
                                        local=local), 4),
              "CoordinationNumberForce": (build("CN", [0, 1, 2], (), "mean", [PerAtomForce.Mean], local=local), 5),
              "ShellFunctionForce": (build("Tetrahedral", [0, 1, 2, 3], (), "sum", [PerAtomForce.Sum], local=local),
                                     4)}
    forces["SteinhardtForce"][0].setLocalNeighbors([3, 4, 4, 0])
    forces["SteinhardtForce"][0].setLocalNeighborPartners([1, 5, 5])
    return forces


CLASSES = {"SteinhardtForce": SteinhardtForce, "CoordinationNumberForce": CoordinationNumberForce,
           "ShellFunctionForce": ShellFunctionForce}


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_the_local_step_round_trips_through_xml_copy_and_pickle(name):
    force, version = contract_forces()[name]
    xml = mm.XmlSerializer.serialize(force)
    root = ET.fromstring(xml)
    assert root.get("version") == str(version) and root.get("localStep") == str(force.getLocalStep())
    assert root.find("LocalSwitching").get("r0") in ("0.4", ".4")
    for duplicate in (pickle.loads(pickle.dumps(force)), copy.copy(force), copy.deepcopy(force),
                      CLASSES[name].cast(mm.XmlSerializer.deserialize(xml))):
        assert isinstance(duplicate, CLASSES[name])
        assert duplicate.getLocalStep() == force.getLocalStep() != PerAtomForce.NoLocalStep
        assert duplicate.getLocalSwitchingSettings() == force.getLocalSwitchingSettings() != SwitchingSettings()
        assert duplicate.getLocalNeighbors() == force.getLocalNeighbors()
        assert duplicate.getLocalNeighborPartners() == force.getLocalNeighborPartners()
        assert mm.XmlSerializer.serialize(duplicate) == xml
    with pytest.raises(mm.OpenMMException, match="localStep 5"):
        mm.XmlSerializer.deserialize(xml.replace(f'localStep="{force.getLocalStep()}"', 'localStep="5"'))


@pytest.mark.parametrize("file", ["CoordinationNumberForce-v1.xml", "CoordinationNumberForce-v2.xml",
                                  "SteinhardtForce-v1.xml", "ShellFunctionForce-v1.xml"])
def test_an_xml_of_the_previous_version_reads_with_no_local_step(file):
    force = CLASSES[file.split("-")[0]].cast(mm.XmlSerializer.deserialize((XML_DATA / file).read_text()))
    assert force.getLocalStep() == PerAtomForce.NoLocalStep
    assert force.getLocalSwitchingSettings() == SwitchingSettings()
    assert force.getLocalNeighbors() == ()


@pytest.mark.parametrize("file", ["CoordinationNumberForce-v3.xml", "SteinhardtForce-v2.xml", "ShellFunctionForce-v2.xml"])
def test_an_xml_with_a_local_step_but_of_the_version_before_local_neighbours_reads_with_none(file):
    force = CLASSES[file.split("-")[0]].cast(mm.XmlSerializer.deserialize((XML_DATA / file).read_text()))
    assert force.getLocalStep() != PerAtomForce.NoLocalStep
    assert force.getLocalNeighbors() == ()


def test_the_default_and_python_conventions():
    force = SteinhardtForce(6, "0")
    assert force.getLocalStep() == PerAtomForce.NoLocalStep == 0 and (AVERAGE, DOT) == (1, 2)
    assert force.getLocalSwitchingSettings() == SwitchingSettings()
    force.setLocalStep(np.int64(2))
    assert force.getLocalStep() == DOT
    force.setLocalStep(np.int32(1))
    assert force.getLocalStep() == AVERAGE
    for bad in (7, -1, 3):
        with pytest.raises(mm.OpenMMException, match=f"unknown step {bad}"):
            force.setLocalStep(bad)
    with pytest.raises(TypeError, match="step must be an integer"):
        force.setLocalStep(1.0)
    assert force.getLocalStep() == AVERAGE


@pytest.mark.parametrize("kind", ["CN", "SimpleCubic"])
def test_local_dot_product_is_refused_for_a_force_without_vectors(kind):
    force = build(kind, range(3), energy="mean", reductions=[PerAtomForce.Mean], step=DOT, periodic=False)
    with pytest.raises(mm.OpenMMException, match="LocalDotProduct"):
        context_of(force, CLUSTER[:3])


@pytest.mark.parametrize("r0", [0.0, -1.0])
@pytest.mark.parametrize("kind", ["Q6", "CN", "Tetrahedral"])
def test_a_bad_local_switching_function_is_refused_at_context_creation(kind, r0):
    force = build(kind, range(3), energy="mean", reductions=[PerAtomForce.Mean], step=AVERAGE,
                  local=SwitchingSettings.rational(r0, 6, 0, 0.0, 0.0), periodic=False)
    with pytest.raises(mm.OpenMMException, match="local step's switching function"):
        context_of(force, CLUSTER[:3])


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_update_parameters_changes_the_local_switching_but_not_the_step(case):
    case = require_local_step_case(case)
    positions = random_positions(12, 1.5, seed=5)
    box_vectors = np.diag([1.5] * 3)
    settings = dict(group_a=range(12), energy="mean+morethan", switching=switch(0.3, 0.0, 6, 12, 0.7)[0], step=DOT,
                    reductions=[PerAtomForce.Mean, (PerAtomForce.MoreThan, "RATIONAL R_0=0.2")])
    force = build("Q6", local=switch(0.3, 0.0, 6, 12, 0.7)[0], **settings)
    context = context_of(force, positions, box_vectors, case)
    before = force.getCollectiveVariableValues(context)
    force.setLocalSwitchingSettings(switch(0.4, 0.0, 6, 12, 0.7)[0])
    force.setReductionParameters(1, PerAtomForce.MoreThan, "RATIONAL R_0=0.1", "")
    force.updateParametersInContext(context)
    fresh = build("Q6", local=switch(0.4, 0.0, 6, 12, 0.7)[0], **settings)
    fresh.setReductionParameters(1, PerAtomForce.MoreThan, "RATIONAL R_0=0.1", "")
    expected = fresh.getCollectiveVariableValues(context_of(fresh, positions, box_vectors, case))
    after = force.getCollectiveVariableValues(context)
    assert abs(after[0] - before[0]) > 1e-3 and abs(after[1] - before[1]) > 1e-3
    assert_close(after, expected, case, what="after the update")
    assert_close(energy_only(context), sum(expected), case, what="energy after the update")
    for step in (AVERAGE, PerAtomForce.NoLocalStep):
        force.setLocalStep(step)
        with pytest.raises(mm.OpenMMException, match="local step"):
            force.updateParametersInContext(context)
    plain = build("CN", range(12), energy="mean", reductions=[PerAtomForce.Mean], step=PerAtomForce.NoLocalStep)
    plain_context = context_of(plain, positions, box_vectors, case)
    plain.setLocalStep(AVERAGE)
    with pytest.raises(mm.OpenMMException, match="local step"):
        plain.updateParametersInContext(plain_context)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("kind, step", [("Q6", DOT), ("CN", AVERAGE)])
@pytest.mark.parametrize("case", ALL_CASES)
def test_energy_parameter_derivatives_with_a_local_step(case, kind, step):
    """dE/dk of an energy k (mean - m0)^2 with a local step is (mean - m0)^2, and dE/dm0 is -2 k (mean - m0)."""
    case = require_local_step_case(case)
    force = build(kind, range(12), energy="k*(mean-m0)^2", reductions=[PerAtomForce.Mean], step=step,
                  switching=SwitchingSettings.rational(0.3, 6, 12, 0.0, 0.9),
                  local=SwitchingSettings.rational(0.35, 6, 12, 0.0, 1.0), periodic=False)
    force.addGlobalParameter("k", 3.0)
    force.addGlobalParameter("m0", 0.2)
    force.addEnergyParameterDerivative("k")
    force.addEnergyParameterDerivative("m0")
    context = context_of(force, random_positions(12, 1.2, seed=5), case=case)
    mean = force.getCollectiveVariableValues(context)[0]
    derivatives = context.getState(getParameterDerivatives=True).getEnergyParameterDerivatives()
    assert abs(mean - 0.2) > 0.01
    assert_close(derivatives["k"], (mean - 0.2) ** 2, case, what="dE/dk")
    assert_close(derivatives["m0"], -2 * 3.0 * (mean - 0.2), case, what="dE/dm0")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_inside_a_custom_cv_force(case):
    case = require_local_step_case(case)
    positions = random_positions(12, 1.5, seed=5)
    box_vectors = np.diag([1.5] * 3)
    settings = dict(reductions=[PerAtomForce.Mean], switching=switch(0.3, 0.0, 6, 12, 0.7)[0], step=DOT,
                    local=switch(0.35, 0.0, 6, 12, 0.7)[0])
    cv = mm.CustomCVForce("3*w")
    cv.addCollectiveVariable("w", build("Q6", range(12), energy="mean", **settings))
    context = context_of(cv, positions, box_vectors, case)
    direct = build("Q6", range(12), **settings)
    mean = direct.getCollectiveVariableValues(context_of(direct, positions, box_vectors, case))[0]
    expected = oracle.mean(oracle_local("Q6", DOT, positions, oracle.Rational(0.3, 0.0, 6, 12, 0.7),
                                        oracle.Rational(0.35, 0.0, 6, 12, 0.7), range(12), (), [1.5] * 3))
    assert abs(mean) > 0.05
    assert_close(mean, float(expected), case, what="mean")
    assert_close(energy_only(context), 3 * mean, case, what="energy of the CustomCVForce")


def test_only_the_platforms_with_local_kernels_run_a_local_step():
    """The registered platforms with the local kernels are LOCAL_STEP_PLATFORMS'; a Context without a platform picks
    the fastest of them; an explicit platform without them is refused with OpenMM's message, and runs the same force
    without its local step."""
    registered = registered_platforms()
    having = {name for name in registered if mm.Platform.getPlatformByName(name).supportsKernels(LOCAL_KERNELS)}
    # (a platform this plugin was built without has none of its kernels)
    built = {name for name in registered if mm.Platform.getPlatformByName(name).supportsKernels(
        list(PLAIN_KERNELS.values()))}
    assert having == set(LOCAL_STEP_PLATFORMS) & built
    fastest = max(having, key=lambda name: mm.Platform.getPlatformByName(name).getSpeed())
    lacking = [name for name in registered if name not in having]
    for kind, step in (("Q6", DOT), ("CN", AVERAGE), ("Tetrahedral", AVERAGE)):
        force = build(kind, range(3), energy="mean", reductions=[PerAtomForce.Mean], step=step, periodic=False)
        context = mm.Context(make_system(3, [force]), mm.VerletIntegrator(0.001))
        assert context.getPlatform().getName() == fastest, kind
        for name in lacking:
            platform = mm.Platform.getPlatformByName(name)
            with pytest.raises(mm.OpenMMException, match="does not support all required kernels"):
                mm.Context(make_system(3, [copy.deepcopy(force)]), mm.VerletIntegrator(0.001), platform)
            if not platform.supportsKernels([PLAIN_KERNELS[kind]]):
                continue  # a platform this plugin has no kernels for at all
            plain = build(kind, range(3), energy="mean", reductions=[PerAtomForce.Mean],
                          step=PerAtomForce.NoLocalStep, periodic=False)
            assert mm.Context(make_system(3, [plain]), mm.VerletIntegrator(0.001),
                              platform).getPlatform().getName() == name