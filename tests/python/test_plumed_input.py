"""The PLUMED translator (openmmcoordination.fromPlumedFile / fromPlumed / toPlumed) and CoordinationForce's aliases of
it: PLUMED's COORDINATION input lines <-> a force's settings.

The regtest lines are checked against the forces test_plumed_regtests.py builds by hand for the same
inputs (those reproduce PLUMED's printed values), so an imported line gives PLUMED's numbers.
"""
import gc
import math
import re

import numpy as np
import openmm as mm
import openmm.unit as unit
import pytest

import test_plumed_regtests as regtests
import openmmcoordination
from coordination_testing import INFINITY, PLUMED_DATA, coordination_force
from openmmcoordination import CoordinationForce

SETTINGS = ("getMode", "getGroupA", "getGroupB", "getR0", "getN", "getM", "getEffectiveM", "getD0", "getDMax",
            "getEffectiveDMax", "getStretch", "usesPeriodicBoundaryConditions", "getSwitchingFunction", "getSmapA",
            "getSmapB", "getNativeQBeta", "getNativeQLambda", "getNativeQReference", "getCustomSwitchingFunction")


def plain(value):
    """A getter's value as plain Python: Quantities (lengths, inverse lengths) in nm, sequences as lists."""
    if unit.is_quantity(value):
        return value.value_in_unit_system(unit.md_unit_system)
    return value if isinstance(value, (int, float, bool, str)) else list(value)


def settings(force):
    result = {name: plain(getattr(force, name)()) for name in SETTINGS}
    result["class"] = type(force).__name__
    if isinstance(force, openmmcoordination.CoordinationNumberForce):
        result["getRPower"] = force.getRPower()
        result["reductions"] = [force.getReductionParameters(i) for i in range(force.getNumReductions())]
    return result


def assert_same_settings(ours, expected, what):
    assert settings(ours) == settings(expected), what


#: The actions that become forces: COORDINATION, and COORDINATIONNUMBER and COORDINATION_MOMENTS
#: (CoordinationNumberForce).
FORCE_ACTION = re.compile(r"^(\w+:\s*)?(COORDINATION|COORDINATIONNUMBER|COORDINATION_MOMENTS)\b")


def plumed_actions(path):
    """The actions of a plumed.dat: (its lines as written, the action on one line with comments and blanks stripped).
    PLUMED's multi-line form ("label: ..." or "NAME ...", a keyword per line, up to a line "...") is joined, as
    "label: NAME keywords"."""
    actions, block, pending = [], [], None
    for raw in path.read_text().splitlines():
        line = " ".join(raw.split("#")[0].split())
        if pending is not None:
            block.append(raw)
            if line.startswith("..."):
                label, words = pending
                actions.append((block, (f"{label}: " if label else "") + " ".join(words)))
                block, pending = [], None
            elif line:
                pending[1].append(line)
            continue
        match = re.fullmatch(r"(?:(\w+):\s*)?(\w*)\s*\.\.\.", line)
        if match:
            block, pending = [raw], (match[1], [match[2]] if match[2] else [])
        else:
            actions.append(([raw], line))
    assert pending is None, f"{path}: an action without its closing '...'"
    return actions


def regtest_lines():
    """Every line of the regtest inputs that becomes a force (multi-line actions joined, comments and blanks
    stripped)."""
    return [(path.parent.name, line) for path in sorted(PLUMED_DATA.glob("*/plumed.dat"))
            for _, line in plumed_actions(path) if FORCE_ACTION.match(line)]


def test_the_regtests_have_coordination_lines():
    assert len(regtest_lines()) >= 20


@pytest.mark.parametrize("folder,line", regtest_lines())
def test_every_regtest_line_imports_or_names_what_is_missing(folder, line):
    """Every line imports (the keyword form, RATIONAL, CUSTOM in the x and x2 forms, EXP) and round-trips."""
    force = openmmcoordination.fromPlumed(line)
    assert force.getName() == line.split(":")[0].strip()
    assert_same_settings(openmmcoordination.fromPlumed(force.toPlumed(force.getName())), force, "round trip")


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
    assert plain(force.getDMax()) == INFINITY and force.getStretch()  # SWITCH={...} without D_MAX: no cutoff
    assert force.getMode() == CoordinationForce.Dual and list(force.getGroupA()) == list(range(108))
    for getter, value in parameters.items():
        assert plain(getattr(force, getter)()) == value, getter


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
    assert (plain(force.getR0()), force.getN(), force.getM(), plain(force.getD0())) == (0.35, 8, 14, 0.05)
    assert plain(force.getDMax()) == 0.0 and force.getStretch()  # the keyword form: automatic dmax, stretched
    assert force.getEnergyFunction() == "s"
    labelled = CoordinationForce.fromPlumed("COORDINATION LABEL=y GROUPA=1-3 R_0=1")
    assert labelled.getName() == "y" and labelled.getMode() == CoordinationForce.Self
    assert labelled.usesPeriodicBoundaryConditions()  # PLUMED's default


def test_switch_form_without_d_max_has_no_cutoff():
    force = CoordinationForce.fromPlumed("c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={RATIONAL R_0=0.4 D_0=0.1}")
    assert math.isinf(plain(force.getDMax())) and plain(force.getD0()) == 0.1


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
    if plain(force.getDMax()) == 0.0 and not force.getStretch():
        # PLUMED's keyword form always stretches: the automatic cutoff is written out as D_MAX.
        assert "NOSTRETCH" in line and "D_MAX=" in line
        assert back.getEffectiveDMax() == force.getEffectiveDMax()
        force.setDMax(force.getEffectiveDMax())
    assert_same_settings(back, force, line)


BAD_LINES = {
    "c: DISTANCE ATOMS=1,2": "no action here becomes a force (the translator reads COORDINATION, COORDINATIONNUMBER, COORDINATION_MOMENTS, Q1, Q3, Q4, Q6, LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6, LOCAL_AVERAGE, SIMPLECUBIC, TETRAHEDRAL, FCCUBIC, COORDINATION_SHELL_FUNCTION and CONTACTMAP; found c: DISTANCE)",
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
    "c: COORDINATION GROUPA=g1 R_0=1": "g1 is not an atom number, a range or the label of a GROUP, COM or CENTER action before this one",
    "c: COORDINATION GROUPA=0 R_0=1": "below 1",
    "c: COORDINATION GROUPA=5-3 R_0=1": "ends before it starts",
    "c: COORDINATION GROUPA=1-5:0 R_0=1": "stride",
    "c: COORDINATION GROUPA=1,,2 R_0=1": "empty entry",
    "c: COORDINATION GROUPA=1 R_0=abc": "R_0=abc is not a number",
    "c: COORDINATION GROUPA=1 R_0=1 NN=6.5": "NN=6.5 is not an integer",
    "c: COORDINATION GROUPA=1 R_0=1 UNITS=A": "UNITS is an action of its own in PLUMED: put \"UNITS LENGTH=A\"",
    "c: COORDINATION GROUPA=1 R_0=1 PAIR": "PAIR needs GROUPB",
    "c: COORDINATION LABEL=d GROUPA=1 R_0=1": "label is given twice",
    "c: COORDINATION GROUPA=1 GROUPB= R_0=1": "GROUPB= has no value",
    "c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={RATIONAL R_0=1 D_MAX=}": "D_MAX= has no value",
}


@pytest.mark.parametrize("line", BAD_LINES)
def test_bad_input_names_what_to_fix(line):
    with pytest.raises(mm.OpenMMException, match=re.escape(BAD_LINES[line])):
        CoordinationForce.fromPlumed(line)


def test_invalid_values_are_rejected_when_read():
    """What a Context would refuse (r0 <= 0, like every setting) is refused by fromPlumed, naming the keyword."""
    with pytest.raises(mm.OpenMMException, match=re.escape('PLUMED input: R_0=-1 must be > 0 (in "c: COORDINATION '
                                                           'GROUPA=1,2 R_0=-1")')):
        CoordinationForce.fromPlumed("c: COORDINATION GROUPA=1,2 R_0=-1")


# ---------------------------------------------------------------------------------------------------
# PLUMED's file forms: multi-line actions, comments, whole plumed.dat files, UNITS
# ---------------------------------------------------------------------------------------------------

def plumed_files():
    return sorted(PLUMED_DATA.glob("*/plumed.dat"))


def pair_forces(read):
    """The forces of a PlumedInput that COORDINATION-family lines give (CoordinationForce, CoordinationNumberForce)."""
    return {label: force for label, force in read.forces.items()
            if isinstance(force, openmmcoordination.PairSwitchingForce)}


def one_line_forces(path):
    """label -> force of each line of a plumed.dat that becomes a force, read one line at a time."""
    return {line.split(":")[0].strip(): openmmcoordination.fromPlumed(line)
            for folder, line in regtest_lines() if folder == path.parent.name}


def multi_line(line, closing):
    """One COORDINATION line rewritten in PLUMED's multi-line form, a keyword per line, with comments."""
    label, rest = line.split(":", 1)
    words = rest.split()
    assert FORCE_ACTION.match(words[0])
    # Keep SWITCH={...} (which holds blanks) in one word.
    keywords, depth = [], 0
    for word in words[1:]:
        if depth > 0:
            keywords[-1] += " " + word
        else:
            keywords.append(word)
        depth += word.count("{") - word.count("}")
    body = "\n".join(f"   {keyword}   # keyword {i}" for i, keyword in enumerate(keywords))
    closing = closing.replace("COORDINATION", words[0])
    return f"{label}: {words[0]} ...\n# a comment inside the action\n\n{body}\n{closing}\n"


@pytest.mark.parametrize("closing", ["...", "... COORDINATION"])
@pytest.mark.parametrize("folder,line", regtest_lines())
def test_a_multi_line_action_gives_the_same_force_as_its_one_line_form(folder, line, closing):
    text = multi_line(line, closing)
    force = openmmcoordination.fromPlumed(text)
    assert force.getName() == line.split(":")[0].strip()
    assert_same_settings(force, openmmcoordination.fromPlumed(line), text)


def test_the_label_keyword_form_of_a_multi_line_action():
    text = "COORDINATION ...\n  LABEL=c\n  GROUPA=1-4 GROUPB=5-8\n  SWITCH={RATIONAL\n    R_0=0.3 D_MAX=1.0}\n... COORDINATION"
    force = CoordinationForce.fromPlumed(text)
    assert force.getName() == "c"
    assert_same_settings(force, CoordinationForce.fromPlumed(
        "c: COORDINATION GROUPA=1-4 GROUPB=5-8 SWITCH={RATIONAL R_0=0.3 D_MAX=1.0}"), text)


@pytest.mark.parametrize("path", plumed_files(), ids=lambda path: path.parent.name)
def test_every_plumed_dat_read_whole_gives_the_forces_of_its_lines(path):
    read = openmmcoordination.fromPlumedFile(path)
    expected = one_line_forces(path)
    assert list(pair_forces(read)) == list(expected)
    for label, force in pair_forces(read).items():
        assert force.getName() == label
        assert_same_settings(force, expected[label], f"{path.parent.name}: {label}")
    # Every other action is named, none is one that becomes a force.
    assert read.skipped and not any(FORCE_ACTION.match(action.split(": ")[-1]) for action in read.skipped)
    assert openmmcoordination.fromPlumedFile(path.read_text()).skipped == read.skipped  # text gives the same


@pytest.mark.parametrize("path", plumed_files(), ids=lambda path: path.parent.name)
def test_every_plumed_dat_rewritten_multi_line_gives_the_same_forces(path):
    rewritten = []
    for block, line in plumed_actions(path):
        rewritten += [multi_line(line, "... COORDINATION")] if FORCE_ACTION.match(line) else block
    read = openmmcoordination.fromPlumedFile("\n".join(rewritten))
    original = openmmcoordination.fromPlumedFile(str(path))
    assert list(read.forces) == list(original.forces) and read.skipped == original.skipped
    for label in pair_forces(read):
        assert_same_settings(read.forces[label], original.forces[label], label)


def test_skipped_actions_are_named_with_their_labels():
    read = CoordinationForce.fromPlumedFile(PLUMED_DATA / "rt-basic-der-test" / "plumed.dat")
    assert list(read.forces) == ["c1"]
    assert read.skipped == ["d1: DISTANCE", "d1l: LESS_THAN", "d1c: SUM", "PRINT", "DUMPDERIVATIVES", "BIASVALUE"]
    # rt20-switch-lepton: multi-line PRINT actions, comments and ENDPLUMED (whatever follows it is not read).
    lepton = (PLUMED_DATA / "rt20-switch-lepton" / "plumed.dat").read_text() + "\nthis is not PLUMED input\n"
    read = CoordinationForce.fromPlumedFile(lepton)
    assert list(read.forces) == ["c", "cs", "c1", "cs1"]
    assert read.skipped == ["PRINT", "DUMPDERIVATIVES", "PRINT", "DUMPDERIVATIVES"]


def test_unlabelled_actions_get_plumeds_at_names():
    read = CoordinationForce.fromPlumedFile("d: DISTANCE ATOMS=1,2\nCOORDINATION GROUPA=1-3 R_0=0.3\n"
                                            "COORDINATION GROUPA=4-6 R_0=0.3\n")
    assert list(read.forces) == ["@1", "@2"] and read.skipped == ["d: DISTANCE"]
    assert CoordinationForce.fromPlumed("COORDINATION GROUPA=1-3 R_0=0.3").getName() == CoordinationForce().getName()


@pytest.mark.parametrize("length, nm", [("A", 0.1), ("nm", 1.0), ("um", 1000.0), ("Bohr", 0.052917721067),
                                        ("0.25", 0.25)])
def test_units_length_converts_every_length(length, nm):
    text = (f"UNITS LENGTH={length} ENERGY=kcal/mol\n"
            "c: COORDINATION GROUPA=1-4 GROUPB=5-8 SWITCH={RATIONAL R_0=3 D_0=1 D_MAX=12}\n"
            "q: COORDINATION GROUPA=1-4 GROUPB=5-8 SWITCH={Q REF=4 BETA=5 LAMBDA=1.5 R_0=1}\n"
            "k: COORDINATION GROUPA=1-4 R_0=3 NN=8")
    read = CoordinationForce.fromPlumedFile(text)
    c, q, k = (read.forces[label] for label in "cqk")
    assert plain(c.getR0()) == pytest.approx(3 * nm, rel=1e-15)
    assert plain(c.getD0()) == pytest.approx(1 * nm, rel=1e-15)
    assert plain(c.getDMax()) == pytest.approx(12 * nm, rel=1e-15)
    assert plain(q.getNativeQReference()) == pytest.approx(4 * nm, rel=1e-15)
    assert plain(q.getNativeQBeta()) == pytest.approx(5 / nm, rel=1e-15)  # per length unit
    assert q.getNativeQLambda() == 1.5  # unitless
    assert plain(k.getR0()) == pytest.approx(3 * nm, rel=1e-15)
    assert plain(k.getEffectiveDMax()) == pytest.approx(3 * nm * 1e-5 ** (1 / (8 - 16)), rel=1e-14)
    # fromPlumed takes the same UNITS action before its one COORDINATION action.
    single = CoordinationForce.fromPlumed(f"UNITS LENGTH={length}\nk: COORDINATION GROUPA=1-4 R_0=3 NN=8")
    assert_same_settings(single, k, "UNITS + one action")


def test_units_give_plumeds_value_in_a_context():
    """R_0=3 D_MAX=12 in Angstrom and R_0=0.3 D_MAX=1.2 in nm: the same s (to rounding of the conversion)."""
    positions = np.random.default_rng(5).uniform(0.0, 2.0, size=(8, 3))
    values = []
    for text in ("UNITS LENGTH=A\nc: COORDINATION GROUPA=1-4 GROUPB=5-8 SWITCH={RATIONAL R_0=3 D_MAX=12}",
                 "c: COORDINATION GROUPA=1-4 GROUPB=5-8 SWITCH={RATIONAL R_0=0.3 D_MAX=1.2}"):
        force = CoordinationForce.fromPlumed(text)
        system = mm.System()
        for _ in range(8):
            system.addParticle(1.0)
        system.setDefaultPeriodicBoxVectors(*np.eye(3) * 2.0)
        system.addForce(force)
        context = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName("Reference"))
        context.setPositions(positions)
        values.append(force.getCoordination(context))
    assert values[0] == pytest.approx(values[1], rel=1e-13) and values[1] > 0.1


BAD_INPUTS = {
    "c: COORDINATION ...\n GROUPA=1 R_0=1\n": 'the action "c: ...\" of line 1 is not closed; end it with a line "..."',
    "c: COORDINATION ...\n GROUPA=1 R_0=1\n... DISTANCE\n":
        'line 3 closes the "c: ..." of line 1 with "... DISTANCE"; write "..." or "... COORDINATION"',
    "...\n": 'line 1 is "..." outside a continued action',
    "c: COORDINATION GROUPA=1 R_0=1\nd: COORDINATION GROUPA=2 R_0=1":
        "fromPlumed reads one action (and an optional UNITS, its GROUP, COM and CENTER actions); this input has 2 actions that become forces: "
        "read a whole plumed.dat with fromPlumedFile",
    "c: COORDINATION GROUPA=1 R_0=1\nPRINT ARG=c":
        "this input has 1 action that becomes a force and PRINT: read a whole plumed.dat with fromPlumedFile",
    "d: DISTANCE ATOMS=1,2\n": "no action here becomes a force (the translator reads COORDINATION, COORDINATIONNUMBER, COORDINATION_MOMENTS, Q1, Q3, Q4, Q6, LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6, LOCAL_AVERAGE, SIMPLECUBIC, TETRAHEDRAL, FCCUBIC, COORDINATION_SHELL_FUNCTION and CONTACTMAP; found d: DISTANCE)",
    "UNITS LENGTH=A\nUNITS LENGTH=nm\nc: COORDINATION GROUPA=1 R_0=1": "UNITS is given twice",
    "c: COORDINATION GROUPA=1 R_0=1\nUNITS LENGTH=A": "UNITS must come before the actions it applies to",
    "UNITS LENGTH=inch\nc: COORDINATION GROUPA=1 R_0=1": "LENGTH=inch is not a number",
    "UNITS LENGTH=-1\nc: COORDINATION GROUPA=1 R_0=1": "LENGTH=-1 must be positive",
    "UNITS NATURAL\nc: COORDINATION GROUPA=1 R_0=1": "UNITS NATURAL is not supported",
    "UNITS LENGTH=A FOO=1\nc: COORDINATION GROUPA=1 R_0=1": "FOO is not a keyword the PLUMED translator understands in UNITS",
}


@pytest.mark.parametrize("text", BAD_INPUTS)
def test_bad_files_name_what_to_fix(text):
    with pytest.raises(mm.OpenMMException, match=re.escape(BAD_INPUTS[text])):
        CoordinationForce.fromPlumed(text)


def test_a_missing_file_is_named():
    with pytest.raises(mm.OpenMMException, match=re.escape('cannot read the file "no/such/plumed.dat"; pass the path '
                                                           'of a plumed.dat or its text')):
        CoordinationForce.fromPlumedFile("no/such/plumed.dat")


def test_a_label_used_twice_in_a_file_is_an_error():
    with pytest.raises(mm.OpenMMException, match=re.escape('the label "c" is used by two actions')):
        CoordinationForce.fromPlumedFile("c: COORDINATION GROUPA=1 R_0=1\nc: COORDINATION GROUPA=2 R_0=1\n")


def test_the_translator_returns_each_force_as_its_own_class_and_owned():
    """openmmcoordination.fromPlumedFile: the forces (as CoordinationForce, alive after the result is gone), the
    skipped actions; fromPlumed and toPlumed round trip; the aliases give the same."""
    text = (PLUMED_DATA / "rt-basic-der-test" / "plumed.dat").read_text()
    read = openmmcoordination.fromPlumedFile(text)
    assert isinstance(read, openmmcoordination.PlumedInput)
    force = read.forces["c1"]
    assert type(force) is CoordinationForce and force.thisown
    alias = CoordinationForce.fromPlumedFile(text)
    assert list(alias.forces) == list(read.forces) and alias.skipped == read.skipped
    assert_same_settings(alias.forces["c1"], force, "alias")
    expected = settings(force)
    del read, alias
    gc.collect()
    assert settings(force) == expected and len(expected["getGroupA"]) > 0
    line = openmmcoordination.toPlumed(force, "c1")
    assert line == force.toPlumed("c1")
    back = openmmcoordination.fromPlumed(line)
    assert type(back) is CoordinationForce and back.getName() == "c1"
    assert_same_settings(back, force, line)


def test_the_coordination_alias_reads_coordination_actions_and_lists_the_other_forces_by_label():
    """CoordinationForce.fromPlumedFile gives the CoordinationForces of a file; the forces of other classes that the
    translator reads (here a CoordinationNumberForce and a ContactMapForce) are listed in skipped by their labels,
    and CoordinationForce.fromPlumed refuses their actions, naming the translator's reader."""
    text = ("c: COORDINATION GROUPA=1-3 R_0=0.3\nn: COORDINATIONNUMBER SPECIES=1-3 R_0=0.3 MEAN\n"
            "m: CONTACTMAP ATOMS1=1,2 SWITCH={RATIONAL R_0=0.3} SUM\nd: DISTANCE ATOMS=1,2\n")
    read = CoordinationForce.fromPlumedFile(text)
    assert list(read.forces) == ["c"] and type(read.forces["c"]) is CoordinationForce
    assert read.skipped == ["d: DISTANCE", "n: COORDINATIONNUMBER", "m: CONTACTMAP"]
    every = openmmcoordination.fromPlumedFile(text)
    assert [type(force).__name__ for force in every.forces.values()] == [
        "CoordinationForce", "CoordinationNumberForce", "ContactMapForce"]
    with pytest.raises(mm.OpenMMException, match="not a COORDINATION action; read it with PlumedTranslator.fromPlumed"):
        CoordinationForce.fromPlumed("n: COORDINATIONNUMBER SPECIES=1-3 R_0=0.3 MEAN")


def test_the_translator_writes_only_the_forces_it_reads():
    with pytest.raises(mm.OpenMMException, match="toPlumed writes CoordinationForce"):
        openmmcoordination.toPlumed(mm.HarmonicBondForce())


# ---------------------------------------------------------------------------------------------------
# CONTACTMAP (ContactMapForce) and the centres of COM and CENTER
# ---------------------------------------------------------------------------------------------------


def contact_map_settings(force):
    """Every setting toPlumed writes of a ContactMapForce (lengths as numbers of nm)."""
    def contact(n):
        return [plain(value) for value in force.getContactParameters(n)]

    def center(k):
        return [plain(value) for value in force.getCenterParameters(k)]
    return dict(reduction=force.getReduction(), periodic=force.usesPeriodicBoundaryConditions(),
                custom=force.getCustomSwitchingFunction(),
                contacts=[contact(n) for n in range(force.getNumContacts())],
                centers=[center(k) for k in range(force.getNumCenters())])


CONTACT_MAP = """UNITS LENGTH=A
lig: COM ATOMS=1-4
cm: CONTACTMAP ...
  ATOMS1=lig,10 SWITCH1={RATIONAL R_0=5 D_MAX=20 NOSTRETCH} REFERENCE1=0.5 WEIGHT1=2
  ATOMS2=5,11 SWITCH2={Q R_0=0.1 BETA=5 LAMBDA=1.5 REF=4} REFERENCE2=0.25 WEIGHT2=0.5
  ATOMS3=6,lig SWITCH3={CUSTOM FUNC=1/(1+x^6) R_0=4}
  SUM NOPBC
...
"""


def test_a_contact_map_and_its_centre_read_and_round_trip():
    force = openmmcoordination.fromPlumed(CONTACT_MAP)
    assert isinstance(force, openmmcoordination.ContactMapForce) and force.getName() == "cm"
    values = contact_map_settings(force)
    assert values["reduction"] == openmmcoordination.ContactMapForce.Sum and not values["periodic"]
    assert values["custom"] == "1/(1+x^6)"
    assert values["centers"] == [[[0, 1, 2, 3], CoordinationForce.CenterOfMass, [], True]]
    first, second, third = values["contacts"]
    assert first[:2] == [-1, 9] and first[2] == CoordinationForce.Rational
    assert first[3] == pytest.approx(0.5, rel=1e-15) and first[5] == pytest.approx(2.0, rel=1e-15)
    assert first[6] is False and first[7] == [6, 0] and first[8:] == [0.5, 2.0]
    assert second[2] == CoordinationForce.NativeQ and second[7] == pytest.approx([50.0, 1.5, 0.4], rel=1e-13)
    assert third[:3] == [5, -1, CoordinationForce.Custom] and third[8:] == [0.0, 1.0]
    text = openmmcoordination.toPlumed(force, "cm")
    assert text.startswith("cm_c1: COM ATOMS=1-4\ncm: CONTACTMAP ...\n  ATOMS1=cm_c1,10 SWITCH1={RATIONAL")
    assert force.toPlumed("cm") == text
    back = openmmcoordination.fromPlumed(text)
    assert contact_map_settings(back) == values
    assert openmmcoordination.ContactMapForce.fromPlumed(text).getName() == "cm"


BAD_CONTACT_MAPS = {
    "m: CONTACTMAP ATOMS1=1,2 SUM CMDIST SWITCH={EXP R_0=1}": "SUM and CMDIST cannot be used together",
    "m: CONTACTMAP ATOMS1=1,2,3 SWITCH={EXP R_0=1}": "ATOMS1 lists 3 atoms",
    "m: CONTACTMAP ATOMS1=1,2 ATOMS2=3,4 SWITCH1={EXP R_0=1}": "SWITCH2 is missing",
    "m: CONTACTMAP ATOMS1=1,2 R_0=0.3": "R_0 is not a keyword of CONTACTMAP",
    "m: CONTACTMAP ATOMS1=1,2 CMDIST SWITCH={EXP R_0=1}": "with CMDIST one must use REFERENCE",
    "c1: CENTER ATOMS=1,2 PHASES\nm: CONTACTMAP ATOMS1=c1,3 SWITCH={EXP R_0=1}": "PHASES",
    "c1: CENTER ATOMS=1,2 WEIGHTS=1\nc: COORDINATION GROUPA=c1,3 R_0=1": "WEIGHTS=1 has one entry",
}


@pytest.mark.parametrize("text", BAD_CONTACT_MAPS)
def test_contact_map_and_centre_input_that_plumed_refuses_is_refused(text):
    with pytest.raises(mm.OpenMMException, match=re.escape(BAD_CONTACT_MAPS[text])):
        openmmcoordination.fromPlumed(text)


def test_centres_stand_in_groups_and_each_force_gets_those_it_names():
    text = ("c1: COM ATOMS=1-3\nc2: CENTER ATOMS=4,6 WEIGHTS=1,3 NOPBC\nc3: CENTER ATOMS=7-8\n"
            "g: GROUP ATOMS=c2,9\n"
            "c: COORDINATION GROUPA=c1,10-11 GROUPB=g,c1 R_0=0.3\n"
            "n: COORDINATIONNUMBER SPECIES=c2,1-2 R_0=0.3 MEAN\n")
    read = openmmcoordination.fromPlumedFile(text)
    assert list(read.forces) == ["c", "n"] and read.skipped == ["c3: CENTER"]
    c, n = read.forces["c"], read.forces["n"]
    assert list(c.getGroupA()) == [-1, 9, 10] and list(c.getGroupB()) == [-2, 8, -1]
    assert [plain(value) for value in c.getCenterParameters(0)] == [[0, 1, 2], CoordinationForce.CenterOfMass, [], True]
    assert [plain(value) for value in c.getCenterParameters(1)] == [[3, 5], CoordinationForce.WeightedCenter, [1, 3],
                                                                   False]
    assert n.getNumCenters() == 1 and list(n.getGroupA()) == [-1, 0, 1]
    # toPlumed writes a line per centre; fromPlumed reads them back to the same settings.
    written = openmmcoordination.toPlumed(c, "c")
    assert written.splitlines()[:2] == ["c_c1: COM ATOMS=1-3", "c_c2: CENTER ATOMS=4,6 WEIGHTS=1,3 NOPBC"]
    back = openmmcoordination.fromPlumed(written)
    assert_same_settings(back, c, written)
    assert [back.getCenterParameters(k) for k in range(2)] == [c.getCenterParameters(k) for k in range(2)]
