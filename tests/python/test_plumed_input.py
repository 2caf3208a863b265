"""CoordinationForce.fromPlumed / toPlumed: PLUMED's COORDINATION input lines <-> a force's settings.

The regtest lines are checked against the forces test_plumed_regtests.py builds by hand for the same
inputs (those reproduce PLUMED's printed values), so an imported line gives PLUMED's numbers.
"""
import math
import re

import openmm as mm
import pytest

import test_plumed_regtests as regtests
from coordination_testing import INFINITY, PLUMED_DATA, coordination_force
from openmmcoordination import CoordinationForce

SETTINGS = ("getMode", "getGroupA", "getGroupB", "getR0", "getN", "getM", "getEffectiveM", "getD0", "getDMax",
            "getEffectiveDMax", "getStretch", "usesPeriodicBoundaryConditions", "getSwitchingFunction", "getSmapA",
            "getSmapB", "getNativeQBeta", "getNativeQLambda", "getNativeQReference", "getCustomSwitchingFunction")


def settings(force):
    return {name: (list(value) if not isinstance(value, (int, float, bool, str)) else value)
            for name in SETTINGS for value in [getattr(force, name)()]}


def assert_same_settings(ours, expected, what):
    assert settings(ours) == settings(expected), what


def regtest_lines():
    """Every COORDINATION line of the regtest inputs, as written (comments and blanks stripped)."""
    lines = []
    for path in sorted(PLUMED_DATA.glob("*/plumed.dat")):
        for line in path.read_text().splitlines():
            line = line.split("#")[0].strip()
            if re.match(r"^(\w+:\s*)?COORDINATION\b", line):
                lines.append((path.parent.name, line))
    return lines


def test_the_regtests_have_coordination_lines():
    assert len(regtest_lines()) >= 20


@pytest.mark.parametrize("folder,line", regtest_lines())
def test_every_regtest_line_imports_or_names_what_is_missing(folder, line):
    """Every line imports (the keyword form, RATIONAL, CUSTOM in the x and x2 forms, EXP) and round-trips."""
    force = CoordinationForce.fromPlumed(line)
    assert force.getName() == line.split(":")[0].strip()
    assert_same_settings(CoordinationForce.fromPlumed(force.toPlumed(force.getName())), force, "round trip")


@pytest.mark.parametrize("folder,label", regtests.RT20_CASES)
def test_rt20_lines_give_the_forces_that_reproduce_plumed(folder, label):
    switch, values = regtests.RT20[folder]
    stretch = regtests.RT20_LABELS[label]
    line = f"{label}: COORDINATION GROUPA=1 GROUPB=2 SWITCH={{{switch}{'' if stretch else ' NOSTRETCH'}}}"
    assert line in regtests.plumed_input(folder)
    expected = regtests.coordination_force([0], [1], stretch=stretch, **values)
    assert_same_settings(CoordinationForce.fromPlumed(line), expected, line)


@pytest.mark.parametrize("label", ["c", "e"])
def test_rt42_rational_lines_give_the_forces_that_reproduce_plumed(label):
    line, _ = regtests.RT42_TERMS[label]
    expected = regtests.coordination_force(range(108), range(108), **RT42_RATIONAL[label])
    assert_same_settings(CoordinationForce.fromPlumed(line), expected, line)


#: The rt42 lines of the rational keyword form, as test_plumed_regtests.py built them by hand before
#: fromPlumed read the other types.
RT42_RATIONAL = {"c": dict(r0=1.0), "e": dict(r0=1.0, n=7, d0=0.1)}


@pytest.mark.parametrize("label,type_name,parameters", [
    ("d", "Custom", dict(getCustomSwitchingFunction="1/(1+x^6)", getR0=1.0, getD0=0.0)),
    ("dfast", "Custom", dict(getCustomSwitchingFunction="1/(1+x2^3)", getR0=1.0)),
    ("f", "Custom", dict(getCustomSwitchingFunction="1/(1+x^7)", getR0=1.0, getD0=0.1)),
    ("g", "Exponential", dict(getR0=1.0, getD0=0.0)),
    ("h", "Custom", dict(getCustomSwitchingFunction="exp(-x)", getR0=1.0)),
])
def test_rt42_other_switch_lines_give_plumeds_settings(label, type_name, parameters):
    force = CoordinationForce.fromPlumed(regtests.RT42_TERMS[label][0])
    assert force.getSwitchingFunction() == getattr(CoordinationForce, type_name)
    assert force.getDMax() == INFINITY and force.getStretch()  # SWITCH={...} without D_MAX: no cutoff
    assert force.getMode() == CoordinationForce.Dual and list(force.getGroupA()) == list(range(108))
    for getter, value in parameters.items():
        assert getattr(force, getter)() == value, getter


def test_rt42c_and_basic_lines_give_the_forces_that_reproduce_plumed():
    expected = regtests.coordination_force(range(108), mode=CoordinationForce.Self)
    assert_same_settings(CoordinationForce.fromPlumed("c: COORDINATION GROUPA=1-108 R_0=1"), expected, "rt42c")
    expected = regtests.coordination_force([0, 1], [2, 3, 4, 5], r0=2.0, dmax=INFINITY)
    line = "c1: COORDINATION GROUPA=1,2 GROUPB=3,4,5,6 SWITCH={RATIONAL R_0=2}"
    assert_same_settings(CoordinationForce.fromPlumed(line), expected, "rt-basic-der-test")


def test_atom_lists_ranges_strides_flags_and_ignored_keywords():
    force = CoordinationForce.fromPlumed(
        "x: COORDINATION GROUPA=1-10:3,20 GROUPB=2-5,7 PAIR NOPBC R_0=0.35 NN=8 MM=14 D_0=0.05 "
        "NLIST NL_CUTOFF=1.2 NL_STRIDE=10 SERIAL NUMERICAL_DERIVATIVES  # a comment")
    assert force.getName() == "x"
    assert list(force.getGroupA()) == [0, 3, 6, 9, 19]
    assert list(force.getGroupB()) == [1, 2, 3, 4, 6]
    assert force.getMode() == CoordinationForce.Pair
    assert not force.usesPeriodicBoundaryConditions()
    assert (force.getR0(), force.getN(), force.getM(), force.getD0()) == (0.35, 8, 14, 0.05)
    assert force.getDMax() == 0.0 and force.getStretch()  # the keyword form: automatic dmax, stretched
    assert force.getEnergyFunction() == "s"
    labelled = CoordinationForce.fromPlumed("COORDINATION LABEL=y GROUPA=1-3 R_0=1")
    assert labelled.getName() == "y" and labelled.getMode() == CoordinationForce.Self
    assert labelled.usesPeriodicBoundaryConditions()  # PLUMED's default


def test_switch_form_without_d_max_has_no_cutoff():
    force = CoordinationForce.fromPlumed("c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={RATIONAL R_0=0.4 D_0=0.1}")
    assert math.isinf(force.getDMax()) and force.getD0() == 0.1


ROUND_TRIPS = [
    dict(mode=CoordinationForce.Self, group_a=[0, 1, 2, 5, 7, 8, 9], r0=0.3),
    dict(mode=CoordinationForce.Dual, group_a=[4, 2], group_b=[1, 1, 3], r0=1 / 3, n=5, m=11, d0=0.07, dmax=1.7),
    dict(mode=CoordinationForce.Pair, group_a=[0, 1], group_b=[5, 6], periodic=False, r0=0.25, dmax=INFINITY),
    dict(mode=CoordinationForce.Self, group_a=range(50), r0=0.3, stretch=False),  # automatic dmax, no stretch
    dict(mode=CoordinationForce.Dual, group_a=[3], group_b=range(10, 20), r0=0.5, n=7, dmax=2.0, stretch=False),
]


@pytest.mark.parametrize("values", ROUND_TRIPS)
def test_to_plumed_reads_back_to_the_same_settings(values):
    force = coordination_force(**values)
    line = force.toPlumed("lab")
    assert line.startswith("lab: COORDINATION GROUPA=")
    back = CoordinationForce.fromPlumed(line)
    assert back.getName() == "lab"
    if force.getDMax() == 0.0 and not force.getStretch():
        # PLUMED's keyword form always stretches: the automatic cutoff is written out as D_MAX.
        assert "NOSTRETCH" in line and "D_MAX=" in line
        assert back.getEffectiveDMax() == force.getEffectiveDMax()
        force.setDMax(force.getEffectiveDMax())
    assert_same_settings(back, force, line)


BAD_LINES = {
    "c: DISTANCE ATOMS=1,2": "not a COORDINATION action",
    "c: COORDINATION R_0=1": "GROUPA is required",
    "c: COORDINATION GROUPA=1": "R_0 is required",
    "c: COORDINATION GROUPA=1 R_0=1 FOO=3": "FOO is not a keyword",
    "c: COORDINATION GROUPA=1 R_0=1 NOSTRETCH": "NOSTRETCH is not a keyword",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={RATIONAL R_0=1 BAR}": "BAR is not a keyword CoordinationForce understands inside SWITCH",
    "c: COORDINATION GROUPA=1 R_0=1 R_0=2": "R_0 is given twice",
    "c: COORDINATION GROUPA=1 GROUPB=2 R_0=1 SWITCH={RATIONAL R_0=1}": "given both outside and inside",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={RATIONAL NN=6}": "needs R_0",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={RATIONAL R_0=1": "without its '}'",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={GAUS R_0=1}": "SWITCH type GAUS is not one of PLUMED's",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={SMAP R_0=1 B=2}": "needs A and B",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={Q R_0=1}": "needs REF",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={CUBIC D_0=0}": "needs D_MAX",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={CUSTOM R_0=1}": "needs FUNC",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={TANH R_0=1 A=3}": "A is not a keyword CoordinationForce understands inside SWITCH={TANH",
    "c: COORDINATION GROUPA=@water R_0=1": "MOLINFO",
    "c: COORDINATION GROUPA=g1 R_0=1": "group labels are not supported",
    "c: COORDINATION GROUPA=0 R_0=1": "below 1",
    "c: COORDINATION GROUPA=5-3 R_0=1": "ends before it starts",
    "c: COORDINATION GROUPA=1-5:0 R_0=1": "stride",
    "c: COORDINATION GROUPA=1,,2 R_0=1": "empty entry",
    "c: COORDINATION GROUPA=1 R_0=abc": "R_0=abc is not a number",
    "c: COORDINATION GROUPA=1 R_0=1 NN=6.5": "NN=6.5 is not an integer",
    "c: COORDINATION GROUPA=1 R_0=1 UNITS=A": "UNITS is not supported",
    "c: COORDINATION GROUPA=1 R_0=1 PAIR": "PAIR needs GROUPB",
    "c: COORDINATION LABEL=d GROUPA=1 R_0=1": "label is given twice",
    "c: COORDINATION GROUPA=1 GROUPB= R_0=1": "GROUPB= has no value",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={RATIONAL R_0=1 D_MAX=}": "D_MAX= has no value",
}


@pytest.mark.parametrize("line", BAD_LINES)
def test_bad_input_names_what_to_fix(line):
    with pytest.raises(mm.OpenMMException, match=re.escape(BAD_LINES[line])):
        CoordinationForce.fromPlumed(line)


def test_invalid_values_are_rejected_when_a_context_is_made():
    """fromPlumed stores what the line says; r0 <= 0 (like every setting) is checked with the System."""
    force = CoordinationForce.fromPlumed("c: COORDINATION GROUPA=1,2 R_0=-1")
    system = mm.System()
    for _ in range(2):
        system.addParticle(1.0)
    system.addForce(force)
    with pytest.raises(mm.OpenMMException, match="r0"):
        mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName("Reference"))
