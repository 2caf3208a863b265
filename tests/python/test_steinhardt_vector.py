"""VectorMean and VectorSum of a SteinhardtForce (PLUMED's VMEAN and VSUM of a Q_l action: the norm of the mean or
the sum of the vectors q_lm(i) / N_i) on every selected platform case: the long-double brute force of
tests/python/steinhardt_reference.py on random systems of every degree, forces against finite differences of the
energy and against the Reference platform in every precision, a vector sum of 0, a NaN position, energy conservation,
PLUMED input both ways, XML, and the clear errors where they do not apply."""
import copy
import math
import pickle

import numpy as np
import openmm as mm
import pytest

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    PLATFORM_CASES,
    REFERENCE,
    assert_close,
    assert_forces_close,
    case_params,
    context_of,
    energy_and_forces,
    finite_difference_forces,
    random_positions,
    require_case,
    short_nve_run,
)
import openmmcoordination
import steinhardt_reference as oracle
from openmmcoordination import (CoordinationNumberForce, PerAtomForce, ShellFunctionForce, SteinhardtForce,
                                SwitchingSettings)
from test_steinhardt import RANDOM_SYSTEM_CASES, steinhardt

VECTOR_REDUCTIONS = [SteinhardtForce.VectorMean, SteinhardtForce.VectorSum]


def test_the_types_have_plumeds_component_names():
    assert SteinhardtForce.getDefaultReductionName(SteinhardtForce.VectorMean, "") == "vmean"
    assert SteinhardtForce.getDefaultReductionName(SteinhardtForce.VectorSum, "") == "vsum"
    force = steinhardt(6, range(4), reductions=VECTOR_REDUCTIONS + [SteinhardtForce.Mean])
    assert [force.getCollectiveVariableName(i) for i in range(3)] == ["vmean", "vsum", "mean"]


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case, seed", RANDOM_SYSTEM_CASES)
def test_random_systems_of_every_degree_match_the_long_double_brute_force(case, seed):
    """VMEAN and VSUM of random settings (degree 1 to 12, Self or Dual with overlapping groups, periodic or not, an atom
    of A with no neighbours in some) against steinhardt_reference's vector_mean and vector_sum, in long double."""
    case = require_case(case)
    random = np.random.default_rng(100 + seed)
    degree = int(random.integers(1, SteinhardtForce.MaxDegree + 1))
    count, box = 30, 1.8
    positions = random.uniform(0, box, (count, 3))
    periodic = bool(seed % 2)
    if seed % 3 == 0:
        positions[5] = [50.0, 50.0, 50.0] if not periodic else positions[5]  # alone: u = 0 (PLUMED's 0/0)
    r0, n = random.uniform(0.1, 0.3), int(random.integers(2, 9))
    m = int(random.choice([0, n + random.integers(1, 6)]))
    dmax = random.uniform(0.5, 0.85)
    group_a = sorted(random.choice(count, 12, replace=False).tolist()) + ([5] if seed % 3 == 0 else [])
    group_b = sorted(random.choice(count, 20, replace=False).tolist()) if seed % 4 >= 2 else []
    force = steinhardt(degree, group_a, group_b, energy="0", periodic=periodic, r0=r0, d0=0.0, n=n, m=m, dmax=dmax,
                       reductions=VECTOR_REDUCTIONS + [SteinhardtForce.Mean])
    box_vectors = np.diag([box] * 3) if periodic else None
    context = context_of(force, positions, box_vectors, case)
    switch = oracle.Rational(r0, 0.0, n, m, dmax, True)
    q, counts = oracle.steinhardt_vectors(positions, degree, switch, group_a, group_b or None,
                                          [box] * 3 if periodic else None)
    expected = [float(oracle.vector_mean(q, counts)), float(oracle.vector_sum(q, counts))]
    values = force.getCollectiveVariableValues(context)[:2]
    if case == REFERENCE:
        np.testing.assert_allclose(values, expected, rtol=1e-11, atol=1e-13, err_msg=f"seed {seed}, l = {degree}")
    else:
        assert_close(values, expected, case, what=f"VMEAN, VSUM, seed {seed}, l = {degree}")


#: Forces of four settings (l = 6 Self, l = 3 Dual with B containing A, l = 12 Dual overlapping, l = 1 Self), with
#: energies of the vector reductions alone and with a reduction of the Q_l(i).
FORCE_SETTINGS = [
    (6, dict(group_a=range(24)), "100*(vmean-0.2)^2", [SteinhardtForce.VectorMean]),
    (3, dict(group_a=range(0, 24, 2), group_b=range(24)), "vsum^2+2*mean",
     [SteinhardtForce.VectorSum, SteinhardtForce.Mean]),
    (12, dict(group_a=range(10), group_b=range(5, 24)), "vmean*vsum+highest",
     [SteinhardtForce.VectorMean, SteinhardtForce.VectorSum, SteinhardtForce.Highest]),
    (1, dict(group_a=range(1, 24)), "3*vsum", [SteinhardtForce.VectorSum]),
]


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_the_forces_are_minus_the_gradient_of_the_energy(case):
    case = require_case(case)
    box = 2.2
    positions = random_positions(24, box, seed=3)
    for degree, groups, energy, reductions in FORCE_SETTINGS:
        force = steinhardt(degree, energy=energy, reductions=reductions, r0=0.25, d0=0.1, n=6, m=12, dmax=0.9,
                           **groups)
        context = context_of(force, positions, np.diag([box] * 3), case)
        energy_value, forces = energy_and_forces(context)
        assert np.isfinite(energy_value) and energy_value != 0.0
        expected = finite_difference_forces(context, positions, step=1e-5)
        scale = np.abs(expected).max()
        assert scale > 0
        np.testing.assert_allclose(forces, expected, rtol=0, atol=2e-6 * scale, err_msg=f"l = {degree}, {energy}")


@pytest.mark.parametrize("case", ALL_CASES)
def test_energies_and_forces_are_the_reference_platforms_in_every_precision(case):
    case = require_case(case)
    box = 2.2
    positions = random_positions(24, box, seed=3)
    for degree, groups, energy, reductions in FORCE_SETTINGS:
        force = steinhardt(degree, energy=energy, reductions=reductions, r0=0.25, d0=0.1, n=6, m=12, dmax=0.9,
                           **groups)
        expected_energy, expected_forces = energy_and_forces(context_of(copy.copy(force), positions,
                                                                        np.diag([box] * 3)))
        energy_value, forces = energy_and_forces(context_of(force, positions, np.diag([box] * 3), case))
        assert_close(energy_value, expected_energy, case, what=f"energy, l = {degree}")
        assert_forces_close(forces, expected_forces, case, what=f"forces, l = {degree}")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_a_thousand_atoms_match_the_reference_platform(case):
    """Enough entries for several parts of the GPU finish (its sums of the vectors over blocks)."""
    case = require_case(case)
    random = np.random.default_rng(23)
    box = 3.0
    positions = random.uniform(0, box, (1000, 3))
    force = steinhardt(6, range(1000), energy="1000*(vmean-0.05)^2+vsum", r0=0.3, d0=0.0, n=6, m=12, dmax=0.7,
                       reductions=VECTOR_REDUCTIONS)
    reference = copy.copy(force)
    expected_context = context_of(reference, positions, np.diag([box] * 3))
    context = context_of(force, positions, np.diag([box] * 3), case)
    assert_close(force.getCollectiveVariableValues(context),
                 reference.getCollectiveVariableValues(expected_context), case, what="VMEAN, VSUM")
    expected_energy, expected_forces = energy_and_forces(expected_context)
    energy_value, forces = energy_and_forces(context)
    assert_close(energy_value, expected_energy, case, what="energy")
    assert_forces_close(forces, expected_forces, case)


@pytest.mark.parametrize("case", ALL_CASES)
def test_a_vector_sum_of_0_gives_0_and_finite_forces(case):
    """Two atoms of Q_1 in Self mode: u_1 = Y_1m(d)/1 and u_2 = Y_1m(-d) = -u_1, so V = 0: VSUM and VMEAN are 0 and
    their gradient, which the norm lacks there, is 0; the Mean's force remains."""
    case = require_case(case)
    positions = [[0, 0, 0], [0.3, 0.1, -0.05]]
    force = steinhardt(1, range(2), energy="vsum+vmean+mean", reductions=VECTOR_REDUCTIONS + [SteinhardtForce.Mean],
                       r0=0.3, d0=0.0, n=6, m=12, dmax=1.0, periodic=False)
    context = context_of(force, positions, case=case)
    values = force.getCollectiveVariableValues(context)
    # A GPU's vectors are quotients of fixed-point sums (each to 2^-52 absolute in double precision).
    bound = 1e-15 if not case.gpu else 1e-13 if case.double else 1e-6
    assert values[0] == pytest.approx(0.0, abs=bound)
    assert values[1] == pytest.approx(0.0, abs=bound)
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value) and np.all(np.isfinite(forces))
    # Q_1 of one neighbour does not depend on the distance: the Mean has no force either.
    assert np.abs(forces).max() < (1e-9 if case.double else 1e-3)


@pytest.mark.parametrize("case", ALL_CASES)
def test_an_evaluation_with_a_value_that_is_not_a_number_applies_no_force(case):
    """A pair term that is NaN (a Custom switching function, no cutoff, NaN beyond x = 2.5) makes every value of the
    evaluation NaN (the non-finite rule): VSUM and the energy are NaN and no force is applied."""
    case = require_case(case)
    switching = SwitchingSettings.custom("select(step(x-2), sqrt(2.5-x), 1/(1+x^6))", 0.3, 0.0, math.inf)
    switching.setStretch(False)
    force = steinhardt(6, range(12), energy="vsum", reductions=[SteinhardtForce.VectorSum], periodic=False)
    force.setSwitchingSettings(switching)
    positions = random_positions(12, 1.5, seed=8)
    assert np.ptp(positions, axis=0).max() > 0.75  # a pair beyond x = 2.5
    context = context_of(force, positions, case=case)
    energy_value, forces = energy_and_forces(context)
    assert np.isnan(energy_value)
    assert not np.any(forces)
    assert np.isnan(force.getCollectiveVariableValues(context)[0])


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_energy_is_conserved_in_a_short_nve_run(case):
    case = require_case(case)
    energies, _, bias = short_nve_run(steinhardt(6, range(20), energy="2000*(vmean-0.3)^2",
                                                 reductions=[SteinhardtForce.VectorMean], r0=0.3, d0=0.0, n=6, m=12,
                                                 dmax=0.7), case)
    assert np.isfinite(bias) and bias > 1.0  # the bias is at work
    assert np.ptp(energies) < 1e-3 * max(1.0, np.abs(energies).max()), energies


def test_plumed_input_reads_and_writes_vmean_and_vsum():
    text = "q6: Q6 SPECIES=1-20 SWITCH={RATIONAL R_0=0.3 NN=6 D_MAX=0.7} VMEAN MEAN VSUM"
    force = openmmcoordination.fromPlumedFile(text).forces["q6"]
    assert isinstance(force, SteinhardtForce)
    assert [force.getCollectiveVariableName(i) for i in range(3)] == ["vmean", "mean", "vsum"]
    assert openmmcoordination.toPlumed(force, "q6") == text
    positions = random_positions(20, 1.6, seed=2)
    context = context_of(force, positions, np.diag([1.6] * 3))
    by_hand = steinhardt(6, range(20), reductions=[SteinhardtForce.VectorMean], r0=0.3, d0=0.0, n=6, m=12, dmax=0.7)
    assert force.getCollectiveVariableValues(context)[0] == pytest.approx(
        by_hand.getCollectiveVariableValues(context_of(by_hand, positions, np.diag([1.6] * 3)))[0], rel=1e-14)


@pytest.mark.parametrize("text, message", [
    ("c: COORDINATIONNUMBER SPECIES=1-10 R_0=0.3 VMEAN", "SteinhardtForce's q_l vectors"),
    ("s: SIMPLECUBIC SPECIES=1-10 R_0=0.3 VSUM", "SteinhardtForce's q_l vectors"),
    ("q6: Q6 SPECIES=1-10 R_0=0.3 VMEAN=1", "VMEAN is a flag"),
    ("q6: Q6 SPECIES=1-10 R_0=0.3\nlq: LOCAL_Q6 SPECIES=q6 R_0=0.3 VSUM", "local step"),
])
def test_plumed_lines_with_vmean_or_vsum_where_plumed_has_none_are_refused(text, message):
    with pytest.raises(Exception, match=message):
        openmmcoordination.fromPlumedFile(text)


@pytest.mark.parametrize("make, message", [
    (lambda: CoordinationNumberForce(), "SteinhardtForce's q_l vectors"),
    (lambda: ShellFunctionForce(ShellFunctionForce.Tetrahedral), "SteinhardtForce's q_l vectors"),
    (lambda: SteinhardtForce(6), "local step"),
])
@pytest.mark.parametrize("reduction", VECTOR_REDUCTIONS)
def test_a_context_refuses_them_where_there_are_no_q_l_vectors(make, message, reduction):
    force = make()
    force.setGroupA(range(6))
    force.addReduction(reduction)
    if isinstance(force, SteinhardtForce):
        force.setLocalStep(PerAtomForce.LocalDotProduct)
    with pytest.raises(mm.OpenMMException, match=message):
        context_of(copy.copy(force), random_positions(6, 1.5, seed=1))
    force.addReduction(reduction, "x", "other")  # parameters are refused with the fix
    force.setLocalStep(PerAtomForce.NoLocalStep)
    with pytest.raises(mm.OpenMMException, match="takes no parameters"):
        context_of(copy.copy(force), random_positions(6, 1.5, seed=1))


def test_settings_round_trip_through_xml_copy_and_pickle():
    force = steinhardt(4, [0, 1, 2], [1, 2, 3], energy="vmean+2*vsum", reductions=VECTOR_REDUCTIONS)
    for duplicate in (pickle.loads(pickle.dumps(force)), copy.deepcopy(force),
                      SteinhardtForce.cast(mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(force)))):
        assert [duplicate.getCollectiveVariableName(i) for i in range(2)] == ["vmean", "vsum"]
        assert mm.XmlSerializer.serialize(duplicate) == mm.XmlSerializer.serialize(force)
    text = mm.XmlSerializer.serialize(force).replace('type="12"', 'type="13"')
    with pytest.raises(Exception, match="12 \\(VectorSum\\)"):
        mm.XmlSerializer.deserialize(text)


@pytest.mark.parametrize("case", case_params([case for case in PLATFORM_CASES if case.gpu and case.precision == "single"],
                                             "GPU single-precision"))
def test_single_precision_sums_of_many_vectors_keep_1e_5_of_the_double_value(case):
    """VMEAN and VSUM of 4,000 entries whose vectors nearly cancel (a disordered liquid: |V| is about sqrt(N) |u|,
    against N |u| summed) stay within 1e-5 relative of the Reference platform's (the GPU sums the vectors per thread,
    block and part in a fixed order)."""
    case = require_case(case)
    random = np.random.default_rng(4)
    box = 3.4
    positions = random.uniform(0, box, (4000, 3))
    force = steinhardt(6, range(4000), r0=0.3, d0=0.0, n=6, m=12, dmax=0.6, reductions=VECTOR_REDUCTIONS)
    reference = copy.copy(force)
    expected = reference.getCollectiveVariableValues(context_of(reference, positions, np.diag([box] * 3)))
    values = force.getCollectiveVariableValues(context_of(force, positions, np.diag([box] * 3), case))
    np.testing.assert_allclose(values, expected, rtol=1e-5, err_msg=str(case))
