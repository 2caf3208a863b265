"""CoordinationNumberForce's reductions at the extremes of their settings, on every platform case: the value of
PLUMED's formula evaluated without overflow (independently here, in 50-digit decimal arithmetic), forces that are
the negative gradient of the energy, or a clear OpenMMException that names the reduction, the setting and the bound
(single precision computes the reductions in float).

The smooth extremes MIN, MAX and ALT_MIN are a log-sum-exp: exp(BETA/c) overflows a double for BETA/c > 709, which
a nearly isolated atom reaches at BETA = 50, while the reduction itself stays finite.
"""
import decimal
import math

import numpy as np
import openmm as mm
import pytest

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    FINITE_DIFFERENCE_RELATIVE,
    assert_close,
    coordination_numbers_numpy,
    energy_and_forces,
    finite_difference_forces,
    make_context,
    make_system,
    require_case,
    switching_function,
)
from openmmcoordination import CoordinationForce, CoordinationNumberForce

SWITCH = dict(r0=0.3, n=6, m=12, dmax=3.0)


def cluster_and_loner(spread=0.0, loner=1.8):
    """Five atoms 0.3 nm apart (c about 1 to 2.5) and a sixth `loner` nm away (c about 1e-4 at 1.8 nm)."""
    positions = np.array([[0, 0, 0], [0.3, 0, 0], [0, 0.3, 0], [0, 0, 0.3], [0.3, 0.3, 0.05]], dtype=float)
    positions = positions * (1 + spread) + 1.0
    return np.vstack([positions, positions.mean(axis=0) + [loner, 0.1, 0.05]])


def numbers_numpy(positions):
    """c_i = sum over the other atoms of sigma(r_ij) (Self mode, no periodic boundary conditions)."""
    return coordination_numbers_numpy(positions, CoordinationForce.Self, list(range(len(positions))), **SWITCH)


def plumed_smooth_extreme(kind, beta, c):
    """PLUMED's MIN (beta / log sum exp(beta/c)), MAX (beta log sum exp(c/beta)) and ALT_MIN (-log sum exp(-beta c) /
    beta) in 50-digit decimal arithmetic, whose exponent range holds exp(u) up to u ~ 1e18; beyond that the same sum
    is taken as exp(max u) times the sum of exp(u - max u)."""
    with decimal.localcontext() as context:
        context.prec = 50
        context.Emax, context.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
        b = decimal.Decimal(beta)
        values = [decimal.Decimal(float(x)) for x in c]
        u = {"min": [b / x for x in values], "max": [x / b for x in values], "altmin": [-b * x for x in values]}[kind]
        largest = max(u)
        if abs(largest) < decimal.Decimal("1e15"):
            log_sum = sum(x.exp() for x in u).ln()
        else:
            log_sum = largest + sum((x - largest).exp() for x in u).ln()
        if kind == "min":
            return float(b / log_sum)
        return float(b * log_sum if kind == "max" else -log_sum / b)


def number_force(kind, beta, energy=None):
    force = CoordinationNumberForce(energy or kind)
    force.setMode(CoordinationNumberForce.Self)
    force.setGroupA(list(range(6)))
    force.setR0(SWITCH["r0"])
    force.setDMax(SWITCH["dmax"])
    reduction_type = {"min": CoordinationNumberForce.Min, "max": CoordinationNumberForce.Max,
                      "altmin": CoordinationNumberForce.AltMin}[kind]
    force.addReduction(reduction_type, f"BETA={beta!r}", kind)
    return force


def float_holds(beta):
    return float(np.finfo(np.float32).tiny) <= abs(beta) <= float(np.finfo(np.float32).max)


#: (kind, BETA) at both ends of the accepted range; each overflowed exp(u) before it was shifted.
SMOOTH_EXTREMES = [("min", 50.0), ("min", 1e300), ("min", 1e-300), ("min", -2.0), ("max", 1e-300), ("max", 1e300),
                   ("max", 0.05), ("max", -0.5), ("altmin", 1e300), ("altmin", 1e-300), ("altmin", 2.0)]


def smooth_extreme_params():
    return [pytest.param(case.values[0], kind, beta, id=f"{case.id}-{kind}-{beta!r}", marks=case.marks)
            for case in ALL_CASES for kind, beta in SMOOTH_EXTREMES]


@pytest.mark.parametrize("case,kind,beta", smooth_extreme_params())
def test_smooth_extremes_are_plumeds_formula_without_overflow(case, kind, beta):
    case = require_case(case)
    positions = cluster_and_loner()
    c = numbers_numpy(positions)
    assert c.min() < 1e-3 < 1 < c.max()
    force = number_force(kind, beta)
    system = make_system(6, [force])
    if case.gpu and case.precision == "single" and not float_holds(beta):
        with pytest.raises(mm.OpenMMException, match=rf'reduction "{kind}": BETA = .* outside the range of a float'):
            make_context(system, case)
        return
    context = make_context(system, case)
    context.setPositions(positions)
    expected = plumed_smooth_extreme(kind, beta, c)
    assert math.isfinite(expected)
    (value,) = force.getCollectiveVariableValues(context)
    assert_close(value, expected, case, what=f"{kind} BETA={beta}")
    energy, forces = energy_and_forces(context)
    assert_close(energy, expected, case, what="energy")
    assert np.isfinite(forces).all()


@pytest.mark.parametrize("case", DOUBLE_CASES)
@pytest.mark.parametrize("kind,beta", [("min", 50.0), ("min", 1e300), ("max", 1e-300), ("altmin", 1e300),
                                       ("max", 0.05), ("min", -2.0)])
def test_smooth_extremes_forces_are_the_negative_gradient(case, kind, beta):
    case = require_case(case)
    positions = cluster_and_loner(loner=1.2)  # c of the loner about 1e-2: forces above the finite differences' noise
    force = number_force(kind, beta, energy=f"100*{kind}")
    context = make_context(make_system(6, [force]), case)
    context.setPositions(positions)
    _, analytic = energy_and_forces(context)
    numeric = finite_difference_forces(context, positions)
    largest = np.abs(analytic).max()
    assert largest > 1e-3
    np.testing.assert_allclose(analytic, numeric, rtol=0, atol=FINITE_DIFFERENCE_RELATIVE * largest * 10,
                               err_msg=f"{kind} BETA={beta} ({case.id})")


@pytest.mark.parametrize("case", ALL_CASES)
def test_min_of_isolated_atoms_is_zero_with_no_force(case):
    """Every atom beyond the cutoff of every other: c = 0, PLUMED's MIN is beta / log(inf) = 0; its derivative's
    limit is finite (R ~ c_m), so the energy is finite and no force acts (no pair moves any c)."""
    case = require_case(case)
    force = number_force("min", 2.0, energy="5*min + 1")
    context = make_context(make_system(6, [force]), case)
    context.setPositions(np.arange(18, dtype=float).reshape(6, 3) * 2.0)
    assert force.getCollectiveVariableValues(context) == [0.0]
    energy, forces = energy_and_forces(context)
    assert energy == pytest.approx(1.0) and not forces.any()


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_a_custom_function_that_is_nan_gives_nan_numbers_on_every_platform(case):
    """SWITCH={CUSTOM FUNC=1/(1+x^6) R_0=1e-300}: x^6 overflows, so the function's derivative is NaN (its value 0),
    and the rule makes the pair's number NaN; MIN={BETA=1e300} of them is NaN, the energy NaN, no force. (Single and
    mixed precision refuse R_0 = 1e-300.)"""
    from openmmcoordination import fromPlumed

    case = require_case(case)
    force = fromPlumed("c: COORDINATIONNUMBER SPECIES=1-3 SWITCH={CUSTOM FUNC=1/(1+x^6) R_0=1e-300} MIN={BETA=1e300}")
    force.setEnergyFunction("min")
    context = make_context(make_system(3, [force]), case)
    context.setPositions(TRIANGLE / 4)
    assert np.isnan(force.getCoordinationNumbers(context)).all()
    assert np.isnan(force.getCollectiveVariableValues(context)).all()
    energy, forces = energy_and_forces(context)
    assert math.isnan(energy) and not forces.any()


@pytest.mark.parametrize("case", ALL_CASES)
def test_more_than_with_a_tiny_rational_r0_counts_with_a_finite_energy(case):
    """MORE_THAN={RATIONAL R_0=1e-62} (m = 2n): every c > 0 counts 1; x^n overflows, the 1/x form does not."""
    case = require_case(case)
    force = number_force("min", 1.0, energy="10*morethan")
    force.setReductionParameters(0, CoordinationNumberForce.MoreThan, "RATIONAL R_0=1e-62", "morethan")
    system = make_system(6, [force])
    if case.gpu and case.precision == "single":
        with pytest.raises(mm.OpenMMException, match='reduction "morethan": a constant of its function = -?1e\\+62 is '
                                                     'outside the range of a float'):
            make_context(system, case)
        return
    context = make_context(system, case)
    positions = cluster_and_loner()
    positions[5] += 5.0  # beyond the cutoff: c = 0, which does not count
    context.setPositions(positions)
    assert_close(force.getCollectiveVariableValues(context), [5.0], case, what="morethan")
    energy, forces = energy_and_forces(context)
    assert_close(energy, 50.0, case, what="energy")
    assert np.isfinite(forces).all()


@pytest.mark.parametrize("case", ALL_CASES)
def test_between_with_the_smallest_width_counts_and_a_smaller_one_is_refused(case):
    case = require_case(case)
    positions = cluster_and_loner()
    c = numbers_numpy(positions)
    force = number_force("min", 1.0, energy="between")
    # A width of 4e-308 (above the bound): a step function, the count of c in (1, 2).
    force.setReductionParameters(0, CoordinationNumberForce.Between, "GAUSSIAN LOWER=1 UPPER=2 SMEAR=4e-308", "between")
    if case.gpu and case.precision == "single":
        with pytest.raises(mm.OpenMMException, match=r'reduction "between": a constant of its function = .* is outside '
                                                     r'the range of a float'):
            make_context(make_system(6, [force]), case)
    else:
        context = make_context(make_system(6, [force]), case)
        context.setPositions(positions)
        expected = float(np.sum((c > 1) & (c < 2)))
        assert 0 < expected < 5
        assert_close(force.getCollectiveVariableValues(context), [expected], case, what="between")
        energy, forces = energy_and_forces(context)
        assert_close(energy, expected, case, what="energy")
        assert np.isfinite(forces).all()
    for parameters in ("GAUSSIAN LOWER=1 UPPER=2 SMEAR=1e-310", "TRIANGULAR LOWER=0 UPPER=1e-300 SMEAR=1e-10"):
        force = number_force("min", 1.0, energy="between")
        force.setReductionParameters(0, CoordinationNumberForce.Between, parameters, "between")
        with pytest.raises(mm.OpenMMException, match=r'reduction "between" \(Between .*\): its width SMEAR\*\(UPPER-LOWER\)'
                                                     r' = .* is below 3\.9\d*e-309, the smallest whose inverse a double holds'):
            make_context(make_system(6, [force]), case)
    # Above that bound, a Gaussian bead whose derivative's constants overflow is refused with the same fix.
    force = number_force("min", 1.0, energy="between")
    force.setReductionParameters(0, CoordinationNumberForce.Between, "GAUSSIAN LOWER=0 UPPER=1 SMEAR=4e-309", "between")
    with pytest.raises(mm.OpenMMException, match=r'reduction "between" \(Between .*\): its function or its derivative has '
                                                 r'a constant that overflows a double .*; give a larger SMEAR or a wider range'):
        make_context(make_system(6, [force]), case)


def test_plumed_input_reads_a_subnormal_number_and_refuses_an_overflowing_one():
    from openmmcoordination import fromPlumed

    with pytest.raises(mm.OpenMMException, match=r"its width SMEAR\*\(UPPER-LOWER\) = 1e-310"):
        force = fromPlumed("c: COORDINATIONNUMBER SPECIES=1-6 R_0=0.3 BETWEEN={GAUSSIAN LOWER=1 UPPER=2 SMEAR=1e-310}")
        make_context(make_system(6, [force]))
    force = fromPlumed("c: COORDINATIONNUMBER SPECIES=1-6 R_0=0.3 MIN={BETA=1e-310}")
    assert force.getReductionParameters(0)[1] == "BETA=1e-310"
    with pytest.raises(mm.OpenMMException, match=r"R_0=1e400 is beyond the largest double \(1\.8e308\)"):
        fromPlumed("c: COORDINATIONNUMBER SPECIES=1-6 R_0=1e400 MEAN")
    with pytest.raises(mm.OpenMMException, match=r"R_0=nan is not a number"):
        fromPlumed("c: COORDINATIONNUMBER SPECIES=1-6 R_0=nan MEAN")


# ---------------------------------------------------------------------------------------------------
# What the GPU's fixed point cannot hold, and what overflows a double
# ---------------------------------------------------------------------------------------------------


def powered_force(power, atoms=3):
    force = CoordinationNumberForce("sum")
    force.setMode(CoordinationNumberForce.Self)
    force.setGroupA(list(range(atoms)))
    force.setR0(2.0)
    force.setDMax(3.0)
    force.setRPower(power)
    force.addReduction(CoordinationNumberForce.Sum)
    return force


#: Three atoms 1.8 nm apart (within the 3 nm cutoff).
TRIANGLE = np.array([[0, 0, 0], [1.8, 0, 0], [0.9, 1.8 * math.sqrt(0.75), 0]], dtype=float)


@pytest.mark.parametrize("case", ALL_CASES)
@pytest.mark.parametrize("power", [20.0, 60.0, 1000.0])
def test_numbers_beyond_the_gpu_fixed_point_are_nan_with_no_force_never_wrapped(case, power):
    """The GPU sums each c_i in 64-bit fixed point, with every pair term below 2^42 over the entries (so that no sum
    wraps around): R power 60 with pairs 1.8 nm apart gives terms of 1e15, R power 1000 of 1e255 (inf in float).
    Reference and CPU hold any finite double; a GPU gives NaN numbers, a NaN energy and no force there, never a
    wrapped number."""
    case = require_case(case)
    term = float(switching_function(1.8, r0=2.0, n=6, m=12, dmax=3.0)) * 1.8**power
    force = powered_force(power)
    context = make_context(make_system(3, [force]), case)
    context.setPositions(TRIANGLE)
    numbers = np.array(force.getCoordinationNumbers(context))
    energy, forces = energy_and_forces(context)
    if case.gpu and not term < 2.0**42 / 3:
        assert np.isnan(numbers).all() and np.isnan(force.getCollectiveVariableValues(context)).all()
        assert math.isnan(energy) and not forces.any()
        return
    assert term < 2.0**42 / 3 / 100 or not case.gpu  # far from the bound where a GPU holds it
    assert_close(numbers, [2 * term] * 3, case, what=f"c_i with R power {power}")
    assert_close(energy, 6 * term, case, what="energy")
    assert np.isfinite(forces).all() and np.abs(forces).max() > 0


@pytest.mark.parametrize("case", ALL_CASES)
def test_a_contact_weight_whose_slope_overflows_gives_nan_energy_and_no_force(case):
    from openmmcoordination import ContactMapForce

    case = require_case(case)
    force = ContactMapForce("s", ContactMapForce.Sum)
    force.addContact(0, 1, CoordinationNumberForce.Rational, 0.3, 0.0, 1.0, True, [6, 12], 0.0, 1e308)
    force.addContact(1, 2, 0.3)
    system = make_system(3, [force])
    if case.gpu and case.precision != "double":
        with pytest.raises(mm.OpenMMException, match="beyond single precision's range"):
            make_context(system, case)
        return
    context = make_context(system, case)
    context.setPositions(np.array([[0, 0, 0], [0.31, 0, 0], [0.31, 0.3, 0]], dtype=float))
    values = force.getCollectiveVariableValues(context)
    assert math.isfinite(values[0]) and values[0] > 1e307
    energy, forces = energy_and_forces(context)
    assert math.isnan(energy) and not forces.any()


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_many_reductions_are_linear_on_the_host_and_bounded_with_a_clear_error_on_a_gpu(case):
    case = require_case(case)
    force = powered_force(0.0, atoms=6)
    count = 32 if case.gpu else 10000
    for index in range(1, count):
        force.addReduction(CoordinationNumberForce.Mean, "", f"mean{index}")
    context = make_context(make_system(6, [force]), case)
    context.setPositions(cluster_and_loner())
    values = force.getCollectiveVariableValues(context)
    assert len(values) == count and values[1:] == [pytest.approx(values[0] / 6, rel=1e-6)] * (count - 1)
    if case.gpu:
        force = powered_force(0.0, atoms=6)
        for index in range(1, 33):
            force.addReduction(CoordinationNumberForce.Mean, "", f"mean{index}")
        with pytest.raises(mm.OpenMMException, match="CoordinationNumberForce: 33 reductions; the CUDA and OpenCL "
                                                     "platforms compile each into their kernels and take at most 32"):
            make_context(make_system(6, [force]), case)
