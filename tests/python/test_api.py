"""The Python API of CoordinationForce: construction, getters and setters, the energy E(s) and its
global parameters, XML serialization, validation messages, updateParametersInContext, and forces.

Values are compared with an independent numpy model (coordination_testing.py); tolerances live there.
Tests that involve a platform's kernel run on every selected platform case (coordination_testing.py:
COORDINATION_TEST_PLATFORMS) with the tolerance of its precision; finite differences run on the
double-precision cases; pure API and XML-text tests run once.
"""
import json
import subprocess
import sys
import textwrap

import numpy as np
import openmm as mm
import openmm.unit as unit
import pytest

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    FINITE_DIFFERENCE_RELATIVE,
    INFINITY,
    REFERENCE,
    assert_close,
    assert_forces_close,
    case_matrix,
    coordination_force,
    coordination_numpy,
    energy_and_forces,
    energy_only,
    finite_difference_forces,
    make_context,
    make_system,
    minimum_image_rectangular,
    pair_list,
    set_frame,
)
from openmmcoordination import CoordinationForce



# ---------------------------------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------------------------------

NM = unit.nanometer
QUICK_START_BOX = 3.0  # nm, cubic
QUICK_START_ATOMS = 40


def quick_start_force():
    """The README's quick start."""
    force = CoordinationForce("0.5*k*(s-s0)^2")
    force.addGlobalParameter("k", 500.0)
    force.addGlobalParameter("s0", 4.0)
    force.setMode(CoordinationForce.Dual)
    force.setGroupA([0, 1, 2])
    force.setGroupB(range(3, 40))
    force.setR0(0.35)
    force.setDMax(0.0)
    force.setStretch(True)
    force.setN(6)
    force.setM(0)
    force.setUsesPeriodicBoundaryConditions(True)
    return force


def random_positions(count, box, seed=1):
    return np.random.default_rng(seed).uniform(0.0, box, size=(count, 3))


def quick_start_context(case=REFERENCE, force=None):
    force = force or quick_start_force()
    box = np.eye(3) * QUICK_START_BOX
    context = make_context(make_system(QUICK_START_ATOMS, [force], box), case)
    set_frame(context, random_positions(QUICK_START_ATOMS, QUICK_START_BOX), box)
    return context, force


def numpy_quick_start():
    """s and E of the quick start from the numpy model."""
    s = coordination_numpy(random_positions(QUICK_START_ATOMS, QUICK_START_BOX), CoordinationForce.Dual,
                           [0, 1, 2], list(range(3, 40)), box_lengths=[QUICK_START_BOX] * 3, r0=0.35)
    return s, 0.5 * 500.0 * (s - 4.0) ** 2


# ---------------------------------------------------------------------------------------------------
# The quick start and the pair sums
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES)
def test_quick_start_gives_numpy_s_and_energy(case):
    context, force = quick_start_context(case)
    s, energy = numpy_quick_start()
    assert s > 0.1, "the random system has neighbours inside the cutoff"
    assert_close(force.getCoordination(context), s, case, what="s")
    assert_close(energy_only(context), energy, case, what="energy")
    if case != REFERENCE:
        reference, _ = quick_start_context(REFERENCE)
        assert_forces_close(energy_and_forces(context)[1], energy_and_forces(reference)[1], case,
                            what="forces vs the Reference platform")


@pytest.mark.parametrize("case", ALL_CASES)
def test_two_atoms_at_distance_r0_give_one_half_without_cutoff(case):
    # sigma(r0) = (1 - 1)/(1 - 1) -> n/m = 1/2 (the Taylor branch), here 1/(1 + 1^6).
    force = CoordinationForce()
    force.setGroupA([0, 1])
    force.setR0(0.3)
    force.setDMax(INFINITY)
    context = make_context(make_system(2, [force]), case)
    set_frame(context, [[0, 0, 0], [0.3, 0, 0]])
    assert_close(force.getCoordination(context), 0.5, case, what="s")


#: (mode, group A, group B): the rules of the pair sums, each checked against the numpy model.
PAIR_SUM_CASES = {
    "self mode sums all pairs i<j of A": (CoordinationForce.Self, [0, 3, 5, 7, 9], []),
    "dual mode sums every (a, b)": (CoordinationForce.Dual, [0, 1, 2], [4, 6, 8, 10]),
    "dual mode counts a pair shared by overlapping groups twice": (CoordinationForce.Dual, [0, 1, 2, 3], [2, 3, 4]),
    "pair mode pairs A[k] with B[k]": (CoordinationForce.Pair, [0, 1, 2, 3], [5, 2, 9, 11]),
    "a pair of the same atom contributes nothing": (CoordinationForce.Pair, [0, 1, 2], [0, 4, 2]),
    "an atom listed twice counts once per entry": (CoordinationForce.Self, [0, 1, 1, 2, 6], []),
}


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("periodic", [False, True], ids=["no PBC", "PBC"])
@pytest.mark.parametrize("rule", PAIR_SUM_CASES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_pair_sum_rule_matches_numpy(case, rule, periodic):
    mode, group_a, group_b = PAIR_SUM_CASES[rule]
    box = 1.6
    positions = random_positions(12, box, seed=3)
    force = CoordinationForce()
    force.setMode(mode)
    force.setGroupA(group_a)
    force.setGroupB(group_b)
    force.setR0(0.4)
    force.setUsesPeriodicBoundaryConditions(periodic)
    context = make_context(make_system(12, [force], np.eye(3) * box), case)
    set_frame(context, positions)
    expected = coordination_numpy(positions, mode, group_a, group_b, box_lengths=[box] * 3 if periodic else None,
                                  r0=0.4)
    assert_close(force.getCoordination(context), expected, case, what="s")


# ---------------------------------------------------------------------------------------------------
# Getters, setters, enum
# ---------------------------------------------------------------------------------------------------


def test_switching_function_enum_values():
    names = ["Rational", "Exponential", "Gaussian", "Smap", "Cubic", "Tanh", "Cosinus", "NativeQ", "Custom"]
    assert [getattr(CoordinationForce, name) for name in names] == list(range(9))
    force = CoordinationForce()
    assert force.getSwitchingFunction() == CoordinationForce.Rational
    assert (force.getSmapA(), force.getSmapB()) == (0, 0)
    assert (force.getNativeQBeta(), force.getNativeQLambda(), force.getNativeQReference()) == (50.0 / NM, 1.8, 0.0 * NM)
    force.setCustomSwitchingFunction("1/(1+x^6)")
    assert force.getSwitchingFunction() == CoordinationForce.Custom
    assert force.getCustomSwitchingFunction() == "1/(1+x^6)"
    with pytest.raises(mm.OpenMMException, match="unknown switching function"):
        force.setSwitchingFunction(12)


@pytest.mark.parametrize("case", ALL_CASES)
def test_energy_parameter_derivatives_reach_the_state(case):
    """dE/dk and dE/ds0 of 0.5*k*(s-s0)^2, as OpenMM's custom forces report them."""
    force = quick_start_force()
    force.addEnergyParameterDerivative("k")
    force.addEnergyParameterDerivative("s0")
    context, force = quick_start_context(case, force)
    k, s0, s = context.getParameter("k"), context.getParameter("s0"), force.getCoordination(context)
    derivatives = context.getState(getEnergy=True, getParameterDerivatives=True).getEnergyParameterDerivatives()
    assert_close(derivatives["k"], 0.5 * (s - s0) ** 2, case, what="dE/dk")
    assert_close(derivatives["s0"], -k * (s - s0), case, what="dE/ds0")


def test_mode_enum_values():
    assert (CoordinationForce.Self, CoordinationForce.Dual, CoordinationForce.Pair) == (0, 1, 2)


@pytest.mark.parametrize("atoms", [[3, 1, 4], range(3, 6), np.array([3, 1, 4], dtype=np.int32),
                                   np.array([3, 1, 4], dtype=np.int64), (2, 7)],
                         ids=["list", "range", "int32 array", "int64 array", "tuple"])
def test_groups_accept_any_sequence_of_integers(atoms):
    force = CoordinationForce()
    force.setGroupA(atoms)
    force.setGroupB(atoms)
    assert list(force.getGroupA()) == [int(a) for a in atoms]
    assert list(force.getGroupB()) == [int(a) for a in atoms]


def test_defaults():
    force = CoordinationForce()
    assert force.getEnergyFunction() == "s"
    assert force.getMode() == CoordinationForce.Self
    assert list(force.getGroupA()) == [] and list(force.getGroupB()) == []
    assert force.getR0() == 0.3 * NM and force.getN() == 6 and force.getM() == 0 and force.getEffectiveM() == 12
    assert force.getD0() == 0.0 * NM and force.getDMax() == 0.0 * NM and force.getStretch() is True
    assert force.getEffectiveDMax() / NM == pytest.approx(0.3 * 1e-5 ** (1 / (6 - 12)))  # 2.0427 nm
    assert force.usesPeriodicBoundaryConditions() is False
    assert force.getNumGlobalParameters() == 0


def test_getters_return_what_was_set():
    force = CoordinationForce("k*s")
    force.setEnergyFunction("0.5*k*(s-s0)^2")
    force.setMode(CoordinationForce.Pair)
    force.setGroupA([5, 6])
    force.setGroupB([7, 8])
    force.setR0(0.42)
    force.setN(5)
    force.setM(11)
    force.setD0(0.05)
    force.setDMax(1.5)
    force.setStretch(False)
    force.setUsesPeriodicBoundaryConditions(True)
    assert force.addGlobalParameter("k", 10.0) == 0
    assert force.addGlobalParameter("s0", 2.0) == 1
    force.setGlobalParameterName(1, "target")
    force.setGlobalParameterDefaultValue(1, 3.5)
    assert force.getEnergyFunction() == "0.5*k*(s-s0)^2"
    assert force.getMode() == CoordinationForce.Pair
    assert list(force.getGroupA()) == [5, 6] and list(force.getGroupB()) == [7, 8]
    assert (force.getR0(), force.getN(), force.getM(), force.getEffectiveM()) == (0.42 * NM, 5, 11, 11)
    assert (force.getD0(), force.getDMax(), force.getEffectiveDMax()) == (0.05 * NM, 1.5 * NM, 1.5 * NM)
    assert force.getStretch() is False and force.usesPeriodicBoundaryConditions() is True
    assert force.getNumGlobalParameters() == 2
    assert [force.getGlobalParameterName(i) for i in range(2)] == ["k", "target"]
    assert [force.getGlobalParameterDefaultValue(i) for i in range(2)] == [10.0, 3.5]


def test_dmax_infinity_means_no_cutoff():
    force = CoordinationForce()
    force.setDMax(INFINITY)
    assert force.getDMax() == INFINITY * NM and force.getEffectiveDMax() == INFINITY * NM


def test_automatic_dmax_is_plumed_keyword_form():
    force = CoordinationForce()
    force.setR0(1.0)
    force.setN(7)
    force.setD0(0.1)
    assert force.getEffectiveDMax() / NM == pytest.approx(0.1 + 1e-5 ** (1 / (7 - 14)))


# ---------------------------------------------------------------------------------------------------
# The energy E(s) and its global parameters
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES)
def test_context_set_parameter_changes_the_energy_as_the_expression_says(case):
    context, force = quick_start_context(case)
    s = force.getCoordination(context)
    for k, s0 in [(500.0, 4.0), (20.0, 4.0), (20.0, -1.5)]:
        context.setParameter("k", k)
        context.setParameter("s0", s0)
        # The energy's error is dE/ds times the error of s: compare on the scale k |s - s0| s.
        assert_close(energy_only(context), 0.5 * k * (s - s0) ** 2, case, scale=k * abs(s - s0) * s,
                     what=f"energy with k={k}, s0={s0}")
    assert force.getCoordination(context) == s, "parameters do not change s"


@pytest.mark.parametrize("case", ALL_CASES)
def test_forces_are_dE_ds_times_ds_dx(case):
    # Same positions, E = s and E = 0.5 k (s - s0)^2: forces differ by the factor dE/ds = k (s - s0).
    context, force = quick_start_context(case)
    _, forces = energy_and_forces(context)
    linear = CoordinationForce("s")
    for setter, value in [("setMode", force.getMode()), ("setGroupA", force.getGroupA()),
                          ("setGroupB", force.getGroupB()), ("setR0", force.getR0()),
                          ("setUsesPeriodicBoundaryConditions", True)]:
        getattr(linear, setter)(value)
    linear_context, _ = quick_start_context(case, force=linear)
    _, ds_dx = energy_and_forces(linear_context)
    s = force.getCoordination(context)
    assert_forces_close(forces, 500.0 * (s - 4.0) * ds_dx, case)


# ---------------------------------------------------------------------------------------------------
# Forces: finite differences of the energy
# ---------------------------------------------------------------------------------------------------

FINITE_DIFFERENCE_BOXES = {
    "no PBC": None,
    "rectangular": np.diag([1.8, 2.0, 2.2]),
    "triclinic": np.array([[1.8, 0.0, 0.0], [0.6, 1.9, 0.0], [-0.7, 0.5, 2.0]]),
}


@pytest.mark.parametrize("box", FINITE_DIFFERENCE_BOXES)
@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_forces_match_central_finite_differences(case, box):
    box_vectors = FINITE_DIFFERENCE_BOXES[box]
    positions = random_positions(10, 1.9, seed=11)
    force = CoordinationForce("0.5*k*(s-s0)^2 + sin(s)")
    force.addGlobalParameter("k", 3.0)
    force.addGlobalParameter("s0", 1.0)
    force.setMode(CoordinationForce.Dual)
    force.setGroupA([0, 1, 2, 3])
    force.setGroupB([2, 3, 4, 5, 6, 7, 8, 9])
    force.setR0(0.45)
    force.setN(5)
    force.setM(9)
    force.setD0(0.05)
    force.setUsesPeriodicBoundaryConditions(box_vectors is not None)
    context = make_context(make_system(10, [force], box_vectors), case)
    set_frame(context, positions, box_vectors)
    _, forces = energy_and_forces(context)
    numerical = finite_difference_forces(context, positions)
    scale = np.abs(forces).max()
    assert scale > 1e-3, "the system has forces to compare"
    np.testing.assert_allclose(forces, numerical, rtol=0, atol=FINITE_DIFFERENCE_RELATIVE * scale)


# ---------------------------------------------------------------------------------------------------
# XML serialization
# ---------------------------------------------------------------------------------------------------


def fully_configured_force(dmax):
    force = CoordinationForce("0.5*k*(s-s0)^2 + offset")
    force.setMode(CoordinationForce.Pair)
    force.setGroupA([0, 1, 2, 3])
    force.setGroupB([4, 5, 6, 1])
    force.setR0(0.123456789012345)
    force.setN(5)
    force.setM(11)
    force.setD0(0.0123456789)
    force.setDMax(dmax)
    force.setStretch(False)
    force.setUsesPeriodicBoundaryConditions(True)
    force.addGlobalParameter("k", 12.5)
    force.addGlobalParameter("s0", 0.75)
    force.addGlobalParameter("offset", -3.25)
    force.setForceGroup(3)
    force.setName("coordination restraint")
    force.addEnergyParameterDerivative("s0")
    return force


#: Switching functions of the other types, each applied to the fully configured force for the XML tests.
OTHER_SWITCHING_FUNCTIONS = {
    "smap": lambda f: (f.setSwitchingFunction(CoordinationForce.Smap), f.setSmapExponents(6, 2)),
    "native q": lambda f: (f.setSwitchingFunction(CoordinationForce.NativeQ), f.setNativeQParameters(40.0, 1.6, 0.3)),
    "custom x2": lambda f: f.setCustomSwitchingFunction("exp(-0.5*x2)"),
    "cosinus": lambda f: f.setSwitchingFunction(CoordinationForce.Cosinus),
}


@pytest.mark.parametrize("kind", OTHER_SWITCHING_FUNCTIONS)
def test_xml_round_trip_keeps_the_other_switching_functions(kind):
    system, positions, box = xml_system(1.5)
    OTHER_SWITCHING_FUNCTIONS[kind](CoordinationForce.cast(system.getForce(1)))
    copy = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(system))
    original, restored = (CoordinationForce.cast(s.getForce(1)) for s in (system, copy))
    assert settings(restored) == settings(original)
    contexts = [make_context(s) for s in (system, copy)]
    for context in contexts:
        context.setPositions(positions)
    assert energy_only(contexts[0]) == energy_only(contexts[1])


def settings(force):
    """Every setting of a CoordinationForce, as plain Python values."""
    return dict(energy=force.getEnergyFunction(), mode=force.getMode(), groupA=list(force.getGroupA()),
                groupB=list(force.getGroupB()), r0=force.getR0(), n=force.getN(), m=force.getM(),
                d0=force.getD0(), dmax=force.getDMax(), stretch=force.getStretch(),
                periodic=force.usesPeriodicBoundaryConditions(), forceGroup=force.getForceGroup(),
                name=force.getName(),
                parameters=[(force.getGlobalParameterName(i), force.getGlobalParameterDefaultValue(i))
                            for i in range(force.getNumGlobalParameters())],
                switchingFunction=force.getSwitchingFunction(), smap=(force.getSmapA(), force.getSmapB()),
                nativeQ=(force.getNativeQBeta(), force.getNativeQLambda(), force.getNativeQReference()),
                custom=force.getCustomSwitchingFunction(),
                derivatives=[force.getEnergyParameterDerivativeName(i)
                             for i in range(force.getNumEnergyParameterDerivatives())])


def xml_system(dmax=1.5):
    """A System with a harmonic bond and a fully configured CoordinationForce, its positions and box."""
    box = np.diag([2.0, 2.1, 2.2])
    bond = mm.HarmonicBondForce()
    bond.addBond(0, 1, 0.1, 100.0)
    system = make_system(7, [bond, fully_configured_force(dmax)], box)
    return system, random_positions(7, 1.0, seed=5), box


@pytest.mark.parametrize("dmax", [0.0, 1.5, INFINITY], ids=["automatic dmax", "dmax 1.5", "no cutoff"])
@pytest.mark.parametrize("case", ALL_CASES)
def test_xml_round_trip_keeps_every_setting_and_the_energy(case, dmax):
    system, positions, box = xml_system(dmax)
    copy = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(system))
    original = CoordinationForce.cast(system.getForce(1))
    restored = CoordinationForce.cast(copy.getForce(1))
    assert settings(restored) == settings(original)
    energies = []
    for each in (system, copy, system):
        context = make_context(each, case if len(energies) < 2 else REFERENCE)
        set_frame(context, positions, box)
        energies.append(energy_only(context, groups={3}))
    # The copy gives bit for bit the original's energy on the same platform, and both the Reference one.
    assert energies[0] != 0.0 and energies[1] == energies[0]
    assert_close(energies[0], energies[2], case, what="energy vs the Reference platform")


def test_a_serialized_force_alone_round_trips():
    force = fully_configured_force(INFINITY)
    restored = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(force))
    assert settings(CoordinationForce.cast(restored)) == settings(force)


def test_isinstance_and_cast_on_system_forces():
    system, _, _ = xml_system()
    bond, coordination = system.getForce(0), system.getForce(1)
    assert CoordinationForce.isinstance(coordination) and not CoordinationForce.isinstance(bond)
    assert CoordinationForce.cast(coordination).getName() == "coordination restraint"
    with pytest.raises(mm.OpenMMException, match="not a CoordinationForce"):
        CoordinationForce.cast(bond)


def malformed_xml():
    # Truncated only between tags: OpenMM's XML reader (irrXML) reads past the end of a document that
    # ends inside a tag (for any force), so such a document has no defined answer to test.
    xml = mm.XmlSerializer.serialize(fully_configured_force(1.5))
    return {
        "truncated": xml[:xml.rindex(">", 0, len(xml) // 2) + 1],
        "truncated after the force's attributes": xml[:xml.index("<GroupA>")],
        "unknown mode": xml.replace('mode="2"', 'mode="7"'),
        "newer version": xml.replace('version="3"', 'version="99"'),
        "group A missing": xml.replace("GroupA", "GroupX"),
        "not XML": "this is not XML",
        "a tag with no force in it": "<Force this is not XML/>",
    }


@pytest.mark.parametrize("case", malformed_xml())
def test_malformed_xml_raises(case):
    with pytest.raises((mm.OpenMMException, ValueError)):
        mm.XmlSerializer.deserialize(malformed_xml()[case])


def test_xml_messages_name_the_problem():
    cases = malformed_xml()
    with pytest.raises(mm.OpenMMException, match="mode 7"):
        mm.XmlSerializer.deserialize(cases["unknown mode"])
    with pytest.raises(mm.OpenMMException, match="version 99"):
        mm.XmlSerializer.deserialize(cases["newer version"])


def test_xml_round_trip_in_a_fresh_python(tmp_path):
    system, positions, box = xml_system()
    context = make_context(system)
    set_frame(context, positions, box)
    expected = energy_only(context)
    (tmp_path / "system.xml").write_text(mm.XmlSerializer.serialize(system))
    (tmp_path / "frame.json").write_text(json.dumps({"positions": positions.tolist(), "box": box.tolist()}))
    script = textwrap.dedent("""
        import json, sys
        import openmm
        import openmmcoordination  # registers the XML proxy and loads the kernels
        system = openmm.XmlSerializer.deserialize(open(sys.argv[1]).read())
        frame = json.load(open(sys.argv[2]))
        context = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName("Reference"))
        context.setPeriodicBoxVectors(*frame["box"])
        context.setPositions(frame["positions"])
        print(repr(context.getState(getEnergy=True).getPotentialEnergy()._value))
    """)
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path / "system.xml"), str(tmp_path / "frame.json")],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert float(result.stdout.strip().splitlines()[-1]) == pytest.approx(expected, rel=1e-14)


# ---------------------------------------------------------------------------------------------------
# Validation: each bad input raises an OpenMMException with a helpful message when the Context is made
# ---------------------------------------------------------------------------------------------------


def valid_force():
    force = CoordinationForce("0.5*k*s^2")
    force.addGlobalParameter("k", 1.0)
    force.setMode(CoordinationForce.Dual)
    force.setGroupA([0, 1])
    force.setGroupB([2, 3])
    return force


#: description -> (how to break the valid force, a phrase the message must contain)
BAD_INPUTS = {
    "atom index out of range": (lambda f: f.setGroupB([2, 5]), "atom index 5, but the System has 5 particles"),
    "negative atom index": (lambda f: f.setGroupA([-1, 0]), "atom index -1"),
    "empty group A": (lambda f: f.setGroupA([]), "group A is empty"),
    "dual mode with empty group B": (lambda f: f.setGroupB([]), "Dual mode needs a non-empty group B"),
    "self mode with non-empty group B": (lambda f: f.setMode(CoordinationForce.Self), "Self mode uses group A only"),
    "pair mode with unequal groups": (lambda f: (f.setMode(CoordinationForce.Pair), f.setGroupB([2])),
                                      "same length"),
    "r0 zero": (lambda f: f.setR0(0.0), "r0 must be"),
    "r0 negative": (lambda f: f.setR0(-0.3), "r0 must be"),
    "n equal to m": (lambda f: (f.setN(6), f.setM(6)), "n and m must differ"),
    "d0 negative": (lambda f: f.setD0(-0.1), "d0 must be"),
    "dmax between 0 and d0": (lambda f: (f.setD0(0.5), f.setDMax(0.4)), "must be larger than d0"),
    "dmax equal to d0": (lambda f: (f.setD0(0.5), f.setDMax(0.5)), "must be larger than d0"),
    "dmax negative": (lambda f: f.setDMax(-1.0), "dmax must be"),
    "dmax not a number": (lambda f: f.setDMax(float("nan")), "dmax must be"),
    "expression that does not parse": (lambda f: f.setEnergyFunction("0.5*k*(s-"), "cannot parse"),
    "unknown variable": (lambda f: f.setEnergyFunction("0.5*k*(s-s0)^2"), '"s0"'),
    "duplicate parameter name": (lambda f: f.addGlobalParameter("k", 2.0), '"k" is defined twice'),
    "parameter called s": (lambda f: f.addGlobalParameter("s", 2.0), 'may not be called "s"'),
    "smap without exponents": (lambda f: f.setSwitchingFunction(CoordinationForce.Smap), "setSmapExponents"),
    "native q without reference": (lambda f: f.setSwitchingFunction(CoordinationForce.NativeQ), "REF"),
    "cubic without cutoff": (lambda f: f.setSwitchingFunction(CoordinationForce.Cubic), "needs a finite cutoff"),
    "custom of r": (lambda f: f.setCustomSwitchingFunction("exp(-r)"), 'uses "r"'),
    "custom of x and x2": (lambda f: f.setCustomSwitchingFunction("x*x2"), "both x and x2"),
    "derivative of an unknown parameter": (lambda f: f.addEnergyParameterDerivative("q"), '"q", which is not a global'),
}


#: The bad inputs also tried on GPU cases (validation is platform-independent; one of each kind).
GPU_BAD_INPUTS = ["atom index out of range", "empty group A", "pair mode with unequal groups", "r0 zero",
                  "dmax between 0 and d0", "expression that does not parse", "unknown variable"]


@pytest.mark.parametrize("case,bad", case_matrix(ALL_CASES, BAD_INPUTS,
                                                 lambda case, bad: not case.gpu or bad in GPU_BAD_INPUTS))
def test_bad_input_raises_a_helpful_message_at_context_creation(case, bad):
    breaks, phrase = BAD_INPUTS[bad]
    force = valid_force()
    breaks(force)  # setters only store values
    system = make_system(5, [force])
    with pytest.raises(mm.OpenMMException) as error:
        make_context(system, case)
    assert "CoordinationForce" in str(error.value)
    assert phrase in str(error.value)
    # Nothing is left broken: a valid force gets a working Context on the same platform afterwards.
    context = make_context(make_system(5, [valid_force()]), case)
    set_frame(context, np.arange(15.0).reshape(5, 3) * 0.1)
    assert np.isfinite(energy_only(context))


@pytest.mark.parametrize("case", ALL_CASES)
def test_the_valid_force_of_the_validation_tests_is_accepted(case):
    make_context(make_system(5, [valid_force()]), case)


# ---------------------------------------------------------------------------------------------------
# updateParametersInContext
# ---------------------------------------------------------------------------------------------------

#: Changes updateParametersInContext must apply (each applied to the quick-start force).
UPDATES = {
    "groups and mode": lambda f: (f.setMode(CoordinationForce.Self), f.setGroupA(range(0, 20)), f.setGroupB([])),
    "pair mode": lambda f: (f.setMode(CoordinationForce.Pair), f.setGroupA(range(0, 10)), f.setGroupB(range(10, 20))),
    "switching parameters": lambda f: (f.setR0(0.5), f.setN(5), f.setM(9), f.setD0(0.05)),
    "cutoff and stretch": lambda f: (f.setDMax(0.9), f.setStretch(False)),
    "no cutoff": lambda f: f.setDMax(INFINITY),
    "periodic flag": lambda f: f.setUsesPeriodicBoundaryConditions(False),
    "switching function type": lambda f: (f.setSwitchingFunction(CoordinationForce.Tanh), f.setR0(0.25)),
    "custom switching function": lambda f: f.setCustomSwitchingFunction("1/(1+x2^3)"),
}


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("change", UPDATES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_update_parameters_in_context_gives_what_a_new_context_gives(case, change):
    context, force = quick_start_context(case)
    before = energy_only(context)
    UPDATES[change](force)
    force.updateParametersInContext(context)
    updated_energy, updated_forces = energy_and_forces(context)
    updated_s = force.getCoordination(context)
    context.reinitialize(preserveState=True)
    rebuilt_energy, rebuilt_forces = energy_and_forces(context)
    assert updated_energy != before, "the change matters for this system"
    assert_close(updated_s, force.getCoordination(context), case, what="s")
    assert_close(updated_energy, rebuilt_energy, case, what="energy")
    assert_forces_close(updated_forces, rebuilt_forces, case)


#: updateParametersInContext calls that must be refused: (change, phrase of the message)
REFUSED_UPDATES = {
    "invalid setting": (lambda f: f.setR0(-1.0), "r0 must be"),
    "new expression": (lambda f: f.setEnergyFunction("k*s"), "cannot change the energy expression"),
    "new parameter": (lambda f: f.addGlobalParameter("extra", 1.0), "global parameters"),
}


@pytest.mark.parametrize("case,refused", case_matrix(ALL_CASES, REFUSED_UPDATES))
def test_update_parameters_in_context_refuses_and_the_context_keeps_working(case, refused):
    change, phrase = REFUSED_UPDATES[refused]
    context, force = quick_start_context(case)
    energy, forces = energy_and_forces(context)
    change(force)
    with pytest.raises(mm.OpenMMException, match=phrase):
        force.updateParametersInContext(context)
    after_energy, after_forces = energy_and_forces(context)
    assert after_energy == energy
    np.testing.assert_array_equal(after_forces, forces)


def test_a_context_without_the_force_raises():
    force = quick_start_force()
    other, _ = quick_start_context()  # holds a different CoordinationForce
    with pytest.raises(mm.OpenMMException, match="this force is not in the Context's System"):
        force.getCoordination(other)
    with pytest.raises(mm.OpenMMException, match="this force is not in the Context's System"):
        force.updateParametersInContext(other)
    with pytest.raises(mm.OpenMMException, match="this force is not in the Context's System"):
        force.getNumCandidatePairsInContext(other)


# ---------------------------------------------------------------------------------------------------
# Candidate pairs: what the platform's kernel tests against the cutoff
# ---------------------------------------------------------------------------------------------------

#: (mode, group A, group B) over 600 atoms, with an atom listed twice in each group and shared by both.
CANDIDATE_GROUPS = {
    "Self": (CoordinationForce.Self, list(range(0, 500)) + [7], []),
    "Dual": (CoordinationForce.Dual, list(range(0, 200)) + [3], list(range(150, 600)) + [3]),
    "Pair": (CoordinationForce.Pair, list(range(0, 300)) + [5], list(range(300, 600)) + [5]),
}


def pairs_within(positions, mode, group_a, group_b, edge, cutoff):
    """The mode's pairs of distinct atoms within the cutoff (minimum image in a cubic box), brute force."""
    pairs = np.array([(i, j) for i, j in pair_list(mode, group_a, group_b) if i != j])
    delta = minimum_image_rectangular(positions[pairs[:, 1]] - positions[pairs[:, 0]], [edge] * 3)
    return int(np.count_nonzero((delta ** 2).sum(axis=1) <= cutoff * cutoff))


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case,name", case_matrix(ALL_CASES, CANDIDATE_GROUPS))
def test_candidate_pairs_are_every_pair_without_a_cutoff_and_at_least_those_within_it(case, name):
    """Without a cutoff every platform tests every pair of the sum (Self n(n-1)/2, Dual nA*nB, Pair nA,
    same-atom pairs included); with one, at least the pairs within it (Reference: still every pair)."""
    mode, group_a, group_b = CANDIDATE_GROUPS[name]
    every = len(pair_list(mode, group_a, group_b))
    edge = 4.0
    positions = random_positions(600, edge, seed=11)
    box = np.eye(3) * edge
    for dmax, cutoff in ((INFINITY, None), (0.9, 0.9)):
        force = coordination_force(mode, group_a, group_b, r0=0.3, dmax=dmax)
        context = make_context(make_system(600, [force], box), case)
        set_frame(context, positions, box)
        candidates = force.getNumCandidatePairsInContext(context)
        assert isinstance(candidates, int)
        if cutoff is None or case.platform == "Reference" or mode == CoordinationForce.Pair:
            assert candidates == every, f"dmax {dmax}"
        else:
            within = pairs_within(positions, mode, group_a, group_b, edge, cutoff)
            assert within <= candidates <= every, f"dmax {dmax}: {within} within, {candidates} candidates of {every}"
        # It evaluated s, as getCoordination does, and left the context as it was.
        assert_close(force.getCoordination(context), coordination_numpy(
            positions, mode, group_a, group_b, box_lengths=[edge] * 3, r0=0.3, dmax=dmax), case, what="s")
