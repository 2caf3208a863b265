"""ShellFunctionForce (PLUMED's SIMPLECUBIC, TETRAHEDRAL, FCCUBIC and COORDINATION_SHELL_FUNCTION per atom, with the
reductions of every per-atom force) on every selected platform case (Reference, CPU, CUDA, OpenCL):
PLUMED's printed values and dumped forces (symfunc-rt-simplecubic), by hand-built forces and through fromPlumedFile,
PLUMED lines read and written back, the long-double brute force of tests/python/steinhardt_reference.py on random
systems of every function (SimpleCubic, Tetrahedral, FCCubic of any alpha, Custom functions that are even, odd or
neither in the bond vector, normalised or not), forces against finite differences of the energy (double precision)
and against the Reference platform (every precision), the direction of the bond vector (i -> j), an atom without
neighbours, energy conservation, and the contract every force of the family keeps (XML, copy, pickle, cast,
CustomCVForce, updates, clear errors, Python conventions)."""
import copy
import dataclasses
import math
import pickle
from typing import Callable

import numpy as np
import openmm as mm
import pytest

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    INFINITY,
    PLATFORM_CASES,
    PLUMED_DATA,
    REFERENCE,
    assert_close,
    assert_forces_close,
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
    require_case,
    short_nve_run,
)
import openmmcoordination
import steinhardt_reference as oracle
from openmmcoordination import (
    CoordinationNumberForce,
    PerAtomForce,
    ShellFunctionForce,
    SteinhardtForce,
    SwitchingSettings,
)

STEINHARDT_DATA = PLUMED_DATA.parent / "plumed-steinhardt"
RT_SIMPLECUBIC = STEINHARDT_DATA / "symfunc-rt-simplecubic"

#: The platforms with a ShellFunctionForce kernel (CalcShellFunctionForce) where this plugin's kernels for them are
#: installed.
SHELL_FUNCTION_PLATFORMS = ("Reference", "CPU", "CUDA", "OpenCL")

LD = oracle.LD
#: pi as Lepton (and PLUMED's named constants) hold it: the double closest to pi, in long double.
PI_DOUBLE = oracle.ld(math.pi)


# ---------------------------------------------------------------------------------------------------
# The functions f(x, y, z, r) and their long-double oracles
# ---------------------------------------------------------------------------------------------------


def custom_even(x, y, z, r):
    """x^2-0.5*y*z+r^2: even, f(-d) = f(d)."""
    return x * x - LD(0.5) * y * z + r * r


def custom_odd(x, y, z, r):
    """x*y*z/r^2+sin(pi*x): odd, f(-d) = -f(d)."""
    return x * y * z / (r * r) + np.sin(PI_DOUBLE * x)


def custom_neither(x, y, z, r):
    """x*y^2+z+0.1*r: neither even nor odd."""
    return x * y * y + z + oracle.ld(0.1) * r


def custom_neither_trig(x, y, z, r):
    """cos(pi*z/r)*x+y^2: neither even nor odd."""
    return np.cos(PI_DOUBLE * z / r) * x + y * y


@dataclasses.dataclass(frozen=True)
class Shape:
    """One function of the force: its setting (function, Custom expression, normalisation, alpha) and its oracle."""

    id: str
    function: int
    oracle_function: Callable = None
    expression: str = ""
    normalised: bool = False
    alpha: float = 3.0

    @property
    def normalise(self):
        """Whether s_i is divided by sum_j sigma(r_ij): SimpleCubic, Tetrahedral, FCCubic always, Custom if set."""
        return self.function != ShellFunctionForce.Custom or self.normalised

    def f(self):
        """f(x, y, z, r) of long-double arrays."""
        if self.function == ShellFunctionForce.FCCubic:
            return oracle.fccubic_function(self.alpha)
        return self.oracle_function

    def apply(self, force):
        force.setShellFunction(self.function)
        if self.function == ShellFunctionForce.Custom:
            force.setCustomFunction(self.expression)
            force.setNormalizeCustomFunction(self.normalised)
        if self.function == ShellFunctionForce.FCCubic:
            force.setAlpha(self.alpha)
        return force

    def with_alpha(self, alpha):
        return dataclasses.replace(self, alpha=alpha)


SHAPES = {shape.id: shape for shape in [
    Shape("SimpleCubic", ShellFunctionForce.SimpleCubic, oracle.simple_cubic_function),
    Shape("Tetrahedral", ShellFunctionForce.Tetrahedral, oracle.tetrahedral_function),
    Shape("FCCubic", ShellFunctionForce.FCCubic),
    Shape("Custom-even", ShellFunctionForce.Custom, custom_even, "x^2-0.5*y*z+r^2"),
    Shape("Custom-odd", ShellFunctionForce.Custom, custom_odd, "x*y*z/r^2+sin(pi*x)"),
    Shape("Custom-neither", ShellFunctionForce.Custom, custom_neither, "x*y^2+z+0.1*r"),
    Shape("Custom-neither-trig", ShellFunctionForce.Custom, custom_neither_trig, "cos(pi*z/r)*x+y^2"),
    Shape("Custom-normalised", ShellFunctionForce.Custom, custom_neither, "x*y^2+z+0.1*r", normalised=True),
]}


def shell_force(shape, group_a, group_b=(), energy="0", reductions=(), r0=0.25, d0=0.0, n=6, m=0, dmax=0.9,
                periodic=True, stretch=True):
    """A ShellFunctionForce of a Shape with SWITCH={RATIONAL R_0= D_0= NN= MM= D_MAX=} (dmax INFINITY: none)."""
    if isinstance(shape, str):
        shape = SHAPES[shape]
    force = shape.apply(ShellFunctionForce(ShellFunctionForce.SimpleCubic, energy))
    force.setMode(ShellFunctionForce.Dual if len(group_b) else ShellFunctionForce.Self)
    force.setGroupA(list(group_a))
    if len(group_b):
        force.setGroupB(list(group_b))
    settings = SwitchingSettings.rational(r0, n, m, d0, dmax)
    settings.setStretch(stretch)
    force.setSwitchingSettings(settings)
    force.setUsesPeriodicBoundaryConditions(periodic)
    for reduction in reductions:
        force.addReduction(*(reduction if isinstance(reduction, tuple) else (reduction,)))
    return force


def oracle_values(shape, positions, switch, group_a, group_b=None, box_lengths=None):
    """(s_i, the scale of their round-off: the same sum of |sigma f|) of the long-double brute force, as doubles."""
    f = shape.f()
    values = oracle.shell_function(positions, f, switch, group_a, group_b, box_lengths, normalise=shape.normalise)
    scale = oracle.shell_function(positions, lambda *args: np.abs(f(*args)), switch, group_a, group_b, box_lengths,
                                  normalise=shape.normalise)
    return values.astype(float), scale.astype(float)


# ---------------------------------------------------------------------------------------------------
# PLUMED's regtest symfunc-rt-simplecubic
# ---------------------------------------------------------------------------------------------------

FRAME = read_xyz(STEINHARDT_DATA / "trajectories" / "64.xyz")[0]
#: The regtest's RESTRAINT ARG=c_mean,d_mean,t_mean AT=0.6,-0.02,-0.02 KAPPA=100,100,100 as each force's energy.
RESTRAINT = {"c": 0.6, "d": -0.02, "t": -0.02}
#: The expression of FCCUBIC_FUNC (d2: the unnormalised FCCUBIC, from PLUMED's matrix actions) as a Custom function.
FCCUBIC_EXPRESSION = ShellFunctionForce(ShellFunctionForce.FCCubic).getFunctionExpression()


def restraint_energy(label):
    return f"50*(mean-({RESTRAINT[label]}))^2"


def regtest_switch():
    """SWITCH={RATIONAL D_0=3.0 R_0=1.5}: NN = 6, MM = 12, no cutoff (PLUMED's SWITCH form without D_MAX)."""
    return SwitchingSettings.rational(1.5, 6, 0, 3.0, INFINITY)


def regtest_forces():
    """The regtest's actions, built by hand: c (SIMPLECUBIC), c2 (COORDINATION_SHELL_FUNCTION of
    (x^4+y^4+z^4)/(r^4)) with c2_mean, d (FCCUBIC), d2 (FCCUBIC_FUNC's function, unnormalised) with d2_mean and t
    (TETRAHEDRAL); c, d and t carry the RESTRAINT."""
    forces = {}
    for label, function, expression in (("c", ShellFunctionForce.SimpleCubic, ""),
                                         ("c2", ShellFunctionForce.Custom, "(x^4+y^4+z^4)/(r^4)"),
                                         ("d", ShellFunctionForce.FCCubic, ""),
                                         ("d2", ShellFunctionForce.Custom, FCCUBIC_EXPRESSION),
                                         ("t", ShellFunctionForce.Tetrahedral, "")):
        force = ShellFunctionForce(function, restraint_energy(label) if label in RESTRAINT else "0")
        if expression:
            force.setCustomFunction(expression)
        force.setGroupA(range(64))
        force.setSwitchingSettings(regtest_switch())
        force.setUsesPeriodicBoundaryConditions(True)  # PLUMED's PBC
        force.addReduction(ShellFunctionForce.Mean, "", "mean" if label in RESTRAINT else f"{label}_mean")
        force.setName(label)
        forces[label] = force
    return forces


#: label -> (the regtest's printed field, the oracle's function, normalised)
REGTEST_SHAPES = {
    "c": ("c_mean", oracle.simple_cubic_function, True),
    "c2": ("c2_mean", oracle.simple_cubic_function, False),
    "d": ("d_mean", oracle.fccubic_function(3.0), True),
    "d2": ("d2_mean", oracle.fccubic_function(3.0), False),
    "t": ("t_mean", oracle.tetrahedral_function, True),
}


def printed_regtest_values():
    printed = {}
    for name in ("colv.reference", "colv2.reference", "colv3.reference"):
        printed.update(read_colvar(RT_SIMPLECUBIC / name))
    return printed


def assert_regtest_reproduced(forces, case):
    """Every printed mean among the forces (c_mean, c2_mean, d_mean, and d2_mean where there is a d2), the s_i of
    each against the long-double brute force, and forces.reference (the RESTRAINT's forces) on this case."""
    context = context_of(list(forces.values()), FRAME.positions, FRAME.box_vectors, case)
    printed = printed_regtest_values()
    switch = oracle.Rational(r0=1.5, d0=3.0)
    box_lengths = np.diag(FRAME.box_vectors)
    for label, force in forces.items():
        field, function, normalise = REGTEST_SHAPES[label]
        mean = force.getCollectiveVariableValues(context)[0]
        if field in printed:
            expected, decimals = printed[field]
            tolerance = plumed_tolerance(decimals[0], expected[0], case)
            assert abs(mean - expected[0]) <= tolerance, (field, mean, expected[0], case.id)
        expected = oracle.shell_function(FRAME.positions, function, switch, range(64), None, box_lengths, normalise)
        scale = oracle.shell_function(FRAME.positions, lambda *args: np.abs(function(*args)), switch, range(64), None,
                                      box_lengths, normalise).astype(float)
        values = force.getShellValues(context)
        if case == REFERENCE:
            np.testing.assert_allclose(values, expected.astype(float), rtol=1e-11, atol=1e-13, err_msg=label)
        else:
            assert_close(values, expected.astype(float), case, scale=scale, what=f"{label}: s_i")
    reference, _, decimals = read_dumped_forces(RT_SIMPLECUBIC / "forces.reference")
    assert reference.shape == (1, 64, 3)
    _, forces_ours = energy_and_forces(context)
    deviation = np.abs(forces_ours[None] - reference)
    tolerance = plumed_tolerance(decimals, reference, case)
    worst = np.unravel_index(np.argmax(deviation - tolerance), deviation.shape)
    assert np.all(deviation <= tolerance), (
        f"atom {worst[1] + 1} component {'xyz'[worst[2]]}: ours {forces_ours[worst[1:]]!r}, PLUMED {reference[worst]}")
    assert np.abs(reference).max() > 1e-2  # the restraint is not flat here


@pytest.mark.parametrize("case", ALL_CASES)
def test_simplecubic_fccubic_and_the_shell_function_are_plumeds_printed_values_and_forces(case):
    """c_mean, c2_mean, d_mean and d2_mean to PLUMED's printed digits, and the forces of the RESTRAINT on c_mean,
    d_mean and t_mean (forces.reference), by hand-built forces; the positions of 64.xyz are taken as nm, as the
    other Steinhardt tests do (only the ratios to R_0, D_0 and the box matter)."""
    case = require_case(case)
    assert_regtest_reproduced(regtest_forces(), case)


def read_regtest():
    """fromPlumedFile of the regtest's plumed.dat, and whether the d2 lines had to be left out.

    d2 (and d2_mean) are built from PLUMED's low-level matrix actions on c2's matrix (FCCUBIC_FUNC, CUSTOM, ONES,
    MATRIX_VECTOR_PRODUCT), which the translator does not read: it should skip them. Should it refuse the file
    because of them instead, the lines starting with "d2" are left out here and the rest is read (c, c2 with c2_mean,
    d, t and t2 do not depend on them)."""
    try:
        return openmmcoordination.fromPlumedFile(str(RT_SIMPLECUBIC / "plumed.dat")), False
    except mm.OpenMMException:
        text = (RT_SIMPLECUBIC / "plumed.dat").read_text()
        stripped = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("d2"))
        return openmmcoordination.fromPlumedFile(stripped), True


@pytest.mark.parametrize("case", ALL_CASES)
def test_fromplumedfile_reads_the_regtests_shell_functions_to_plumeds_printed_values_and_forces(case):
    case = require_case(case)
    read, stripped = read_regtest()
    assert sorted(read.forces) == ["c", "c2", "d", "t", "t2"]
    assert any(action.startswith("RESTRAINT") for action in read.skipped)
    # c2_mean and t2_mean are reductions of c2 and t2, not skipped actions.
    assert not any(action.startswith(("c2_mean", "t2_mean")) for action in read.skipped)
    if not stripped:
        assert any(action.startswith("d2") for action in read.skipped), read.skipped
    functions = {"c": ShellFunctionForce.SimpleCubic, "c2": ShellFunctionForce.Custom, "d": ShellFunctionForce.FCCubic,
                 "t": ShellFunctionForce.Tetrahedral, "t2": ShellFunctionForce.Custom}
    for label, force in read.forces.items():
        assert isinstance(force, ShellFunctionForce) and force.getShellFunction() == functions[label], label
        assert force.getName() == label and force.getEnergyFunction() == "0"
        assert force.getMode() == ShellFunctionForce.Self and list(force.getGroupA()) == list(range(64))
        assert force.usesPeriodicBoundaryConditions()
        assert force.getSwitchingSettings() == regtest_switch()
        assert not force.getNormalizeCustomFunction()
        names = [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())]
        assert names == (["mean"] if label in ("c", "d", "t") else [f"{label}_mean"]), (label, names)
    assert read.forces["c2"].getCustomFunction() == "(x^4+y^4+z^4)/(r^4)"
    assert read.forces["t2"].getCustomFunction() == "((x+y+z)/r)^3+((x-y-z)/r)^3+((-x+y-z)/r)^3+((-x-y+z)/r)^3"
    assert read.forces["d"].getAlpha() == 3.0
    forces = {label: read.forces[label] for label in ("c", "c2", "d", "t")}
    for label in RESTRAINT:
        forces[label].setEnergyFunction(restraint_energy(label))
    assert_regtest_reproduced(forces, case)


@pytest.mark.parametrize("line", [
    "c: SIMPLECUBIC SPECIES=1-64 SWITCH={RATIONAL R_0=1.5 D_0=3 NN=6} MEAN",
    "t: TETRAHEDRAL SPECIESA=1-10 SPECIESB=5-40 NOPBC SWITCH={RATIONAL R_0=0.3 NN=6 D_MAX=1} SUM "
    "MORE_THAN={RATIONAL R_0=0.5}",
    "d: FCCUBIC SPECIES=1-20 ALPHA=27 R_0=0.3 NN=8 MEAN LOWEST",
    "d: FCCUBIC SPECIES=2,4,6-9 SWITCH={EXP R_0=0.2 D_0=0.1 D_MAX=0.9} HIGHEST",
    "c2: COORDINATION_SHELL_FUNCTION SPECIES=1-64 FUNCTION=(x^4+y^4+z^4)/(r^4) SWITCH={RATIONAL R_0=1.5 D_0=3 NN=6}",
    "s: COORDINATION_SHELL_FUNCTION SPECIESA=1-8 SPECIESB=4-20 FUNCTION={x*y^2 + z} NOPBC R_0=0.2 NN=6 "
    "LESS_THAN={RATIONAL R_0=0.4} MOMENTS=2,3",
])
def test_shell_function_lines_read_and_write_back_unchanged(line):
    force = openmmcoordination.fromPlumed(line)
    assert isinstance(force, ShellFunctionForce)
    action = line.split(":")[1].split()[0]
    functions = {"SIMPLECUBIC": ShellFunctionForce.SimpleCubic, "TETRAHEDRAL": ShellFunctionForce.Tetrahedral,
                 "FCCUBIC": ShellFunctionForce.FCCubic, "COORDINATION_SHELL_FUNCTION": ShellFunctionForce.Custom}
    assert force.getShellFunction() == functions[action]
    assert not force.getNormalizeCustomFunction()
    assert force.getAlpha() == (27.0 if "ALPHA=27" in line else 3.0)
    label = line.split(":")[0]
    assert openmmcoordination.toPlumed(force, label) == line
    assert force.toPlumed(label) == line
    again = openmmcoordination.fromPlumed(openmmcoordination.toPlumed(force, label))
    assert mm.XmlSerializer.serialize(again) == mm.XmlSerializer.serialize(force)


def test_a_shell_function_vector_takes_plumed_2_10_functions_as_reductions():
    read = openmmcoordination.fromPlumedFile("c2: COORDINATION_SHELL_FUNCTION SPECIES=1-20 R_0=0.3 FUNCTION=x*y\n"
                                            "m: MEAN ARG=c2 PERIODIC=NO\n"
                                            "mt: MORE_THAN ARG=c2 SWITCH={RATIONAL R_0=0.5}\ns: SUM ARG=mt\n")
    force = read.forces["c2"]
    assert isinstance(force, ShellFunctionForce) and force.getCustomFunction() == "x*y"
    assert [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())] == ["m", "s"]
    assert read.skipped == []


@pytest.mark.parametrize("text, message", [
    ("COORDINATION_SHELL_FUNCTION SPECIES=1-4 R_0=1", "FUNCTION"),
    ("COORDINATION_SHELL_FUNCTION SPECIES=1-4 R_0=1 FUNCTION=x*q", 'uses "q"'),
    ("FCCUBIC SPECIES=1-4 R_0=1 ALPHA=-169.8125", "(?i)alpha"),
    ("SIMPLECUBIC SPECIESA=1-4 R_0=1", "SPECIESA needs SPECIESB"),
])
def test_shell_function_lines_plumed_cannot_mean_are_refused(text, message):
    with pytest.raises(mm.OpenMMException, match=message):
        openmmcoordination.fromPlumed(text)


def test_to_plumed_refuses_a_normalised_custom_function():
    force = shell_force("Custom-normalised", range(4), reductions=[ShellFunctionForce.Mean])
    # PLUMED's COORDINATION_SHELL_FUNCTION is not normalised: PLUMED has no action for this force.
    with pytest.raises(mm.OpenMMException, match="no action"):
        openmmcoordination.toPlumed(force)
    with pytest.raises(mm.OpenMMException, match="no action"):
        force.toPlumed("s")
    force.setNormalizeCustomFunction(False)
    assert force.toPlumed("s").startswith("s: COORDINATION_SHELL_FUNCTION SPECIES=1-4 FUNCTION=x*y^2+z+0.1*r")


# ---------------------------------------------------------------------------------------------------
# The functions themselves
# ---------------------------------------------------------------------------------------------------


def evaluate_expression(expression, x, y, z, r):
    """A Lepton expression of x, y, z and r evaluated by Python (^ is **)."""
    names = dict(x=x, y=y, z=z, r=r, pi=math.pi, sin=math.sin, cos=math.cos, exp=math.exp, sqrt=math.sqrt)
    return eval(expression.replace("^", "**"), {"__builtins__": {}}, names)  # noqa: S307 (our own expressions)


@pytest.mark.parametrize("shape", ["SimpleCubic", "Tetrahedral", "FCCubic", "FCCubic-27.5", "FCCubic--50",
                                   "Custom-neither"])
def test_the_function_expression_is_plumeds_function(shape):
    base, _, alpha = shape.partition("-") if shape.startswith("FCCubic") else (shape, "", "")
    spec = SHAPES[base].with_alpha(float(alpha)) if alpha else SHAPES[base]
    force = spec.apply(ShellFunctionForce())
    expression = force.getFunctionExpression()
    if spec.function == ShellFunctionForce.Custom:
        assert expression == spec.expression
    f = spec.f()
    for d in np.random.default_rng(4).normal(size=(20, 3)) * 0.3:
        r = float(np.linalg.norm(d))
        expected = float(f(*oracle.ld([*d, r])))
        assert evaluate_expression(expression, *d, r) == pytest.approx(expected, rel=1e-13, abs=1e-14), (shape, d)


def test_ideal_shells_give_plumeds_values():
    """SimpleCubic is 1 on the 6 axis directions; FCCubic 1 on the 12 fcc directions for any alpha; Tetrahedral
    8/sqrt(3) on the 4 tetrahedral directions and -8/sqrt(3) on the opposite ones (its direction i -> j matters)."""
    axes = np.vstack([np.eye(3), -np.eye(3)])
    fcc = np.array([v for v in np.ndindex(3, 3, 3) if sum(abs(c - 1) for c in v) == 2], dtype=float) - 1
    tetrahedron = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], dtype=float)
    cases = [(SHAPES["SimpleCubic"], axes, 1.0), (SHAPES["FCCubic"], fcc, 1.0),
             (SHAPES["FCCubic"].with_alpha(27.0), fcc, 1.0), (SHAPES["FCCubic"].with_alpha(-40.0), fcc, 1.0),
             (SHAPES["Tetrahedral"], tetrahedron, 8 / np.sqrt(3)),
             (SHAPES["Tetrahedral"], -tetrahedron, -8 / np.sqrt(3))]
    for shape, directions, value in cases:
        directions = directions / np.linalg.norm(directions, axis=1)[:, None]
        positions = np.vstack([[0, 0, 0], 0.3 * directions])
        force = shell_force(shape, [0], range(1, len(positions)), r0=0.3, dmax=1.0, periodic=False)
        assert force.getShellValues(context_of(force, positions))[0] == pytest.approx(value, rel=1e-13), shape.id


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_each_entry_sees_the_bond_vector_from_itself_to_its_neighbour(case):
    """Two atoms in Self mode: s_0 = f(d) and s_1 = f(-d) (times sigma(|d|) unnormalised), so Tetrahedral's s_1 is
    -s_0 and a function of no parity gives two unrelated numbers."""
    case = require_case(case)
    d = np.array([0.12, -0.05, 0.2])
    r = np.linalg.norm(d)
    sigma = float(oracle.Rational(r0=0.3, dmax=1.0)(r))
    for name in ("SimpleCubic", "Tetrahedral", "FCCubic", "Custom-odd", "Custom-neither", "Custom-normalised"):
        shape = SHAPES[name]
        force = shell_force(shape, [0, 1], r0=0.3, dmax=1.0, periodic=False)
        values = force.getShellValues(context_of(force, [[0, 0, 0], d], case=case))
        expected = np.array([float(shape.f()(*oracle.ld([*d, r]))), float(shape.f()(*oracle.ld([*-d, r])))])
        if not shape.normalise:
            expected *= sigma
        assert_close(values, expected, case, scale=np.abs(expected).max(), what=name)
    tetrahedral = float(oracle.tetrahedral_function(*oracle.ld([*d, r])))
    assert abs(tetrahedral) > 0.1
    neither = [float(custom_neither(*oracle.ld([*sign * d, r]))) for sign in (1, -1)]
    assert abs(abs(neither[0]) - abs(neither[1])) > 0.01  # f(-d) != +-f(d)


# ---------------------------------------------------------------------------------------------------
# Random systems against the long-double brute force
# ---------------------------------------------------------------------------------------------------

#: Every shape with seeds 0-3 (Self or Dual with overlapping groups, periodic or not) on the Reference platform; on
#: the others seeds 1 (Self, periodic) and 2 (Dual, not periodic).
RANDOM_SYSTEM_CASES = [pytest.param(case, shape, seed, id=f"{case.id}-{shape}-{seed}")
                       for case in [REFERENCE] + [case for case in PLATFORM_CASES if case != REFERENCE]
                       for shape in SHAPES
                       for seed in (range(4) if case == REFERENCE else (1, 2))]


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case, shape, seed", RANDOM_SYSTEM_CASES)
def test_random_systems_of_every_function_match_the_long_double_brute_force(case, shape, seed):
    """s_i and the reductions of random settings (each function; FCCubic with a random alpha; Self or Dual with
    overlapping groups, periodic or not; r0, d0, n, m, a cutoff with or without stretch) against
    steinhardt_reference.shell_function, in long double."""
    case = require_case(case)
    random = np.random.default_rng([seed, list(SHAPES).index(shape)])
    shape = SHAPES[shape]
    if shape.function == ShellFunctionForce.FCCubic:
        shape = shape.with_alpha(float(random.uniform(-60.0, 60.0)))
    count, box = 30, 1.8
    positions = random_positions(count, box, seed=int(random.integers(1 << 30)), minimum=0.1)
    periodic = bool(seed % 2)
    r0, d0 = random.uniform(0.15, 0.3), random.choice([0.0, random.uniform(0.0, 0.1)])
    n = int(random.integers(2, 9))
    m = int(random.choice([0, n + random.integers(1, 6)]))
    dmax, stretch = random.uniform(0.5, 0.85), bool(random.integers(2))
    group_a = sorted(random.choice(count, 12, replace=False).tolist())
    group_b = sorted(random.choice(count, 20, replace=False).tolist()) if seed % 4 >= 2 else []
    force = shell_force(shape, group_a, group_b, periodic=periodic, r0=r0, d0=d0, n=n, m=m, dmax=dmax,
                        stretch=stretch, reductions=[ShellFunctionForce.Mean, ShellFunctionForce.Lowest,
                                                     ShellFunctionForce.Highest,
                                                     (ShellFunctionForce.MoreThan, "RATIONAL R_0=0.5 D_MAX=2")])
    box_vectors = np.diag([box] * 3) if periodic else None
    context = context_of(force, positions, box_vectors, case)
    values = np.array(force.getShellValues(context))
    if case == REFERENCE:
        assert list(force.getPerAtomValues(context)) == list(values)
    switch = oracle.Rational(r0, d0, n, m, dmax, stretch)
    expected, scale = oracle_values(shape, positions, switch, group_a, group_b or None,
                                    [box] * 3 if periodic else None)
    assert np.count_nonzero(expected) >= 3  # entries with neighbours
    more_than = float(oracle.more_than(oracle.ld(expected), oracle.Rational(0.5, 0.0, 6, 0, 2.0, True)))
    reductions = [expected.mean(), expected.min(), expected.max(), more_than]
    what = f"{shape.id}, seed {seed}, alpha {shape.alpha}"
    if case == REFERENCE:
        np.testing.assert_allclose(values, expected, rtol=1e-11, atol=1e-13, err_msg=what)
        np.testing.assert_allclose(force.getCollectiveVariableValues(context), reductions, rtol=1e-11, atol=1e-13,
                                   err_msg=what)
    else:
        assert_close(values, expected, case, scale=scale, what=f"s_i, {what}")
        reduction_scales = [scale.mean(), scale.max(), scale.max(), 4 * scale.sum()]
        assert_close(force.getCollectiveVariableValues(context), reductions, case, scale=reduction_scales,
                     what=f"reductions, {what}")


# ---------------------------------------------------------------------------------------------------
# Forces
# ---------------------------------------------------------------------------------------------------

#: Forces of six settings: SimpleCubic Self; Tetrahedral Self (odd: a neighbour's term is minus the entry's);
#: FCCubic (alpha 27) Dual with B containing A; a Custom function of no parity in Self mode (its neighbour's term is
#: its own f(-d)) and in Dual mode with overlapping groups; a normalised Custom function of no parity in Self mode.
FORCE_SETTINGS = [
    ("SimpleCubic", dict(group_a=range(24)), "10*(mean-0.6)^2+lowest",
     [ShellFunctionForce.Mean, ShellFunctionForce.Lowest]),
    ("Tetrahedral", dict(group_a=range(1, 24)), "3*highest-sum+10*mean^2",
     [ShellFunctionForce.Highest, ShellFunctionForce.Sum, ShellFunctionForce.Mean]),
    ("FCCubic-27", dict(group_a=range(0, 24, 2), group_b=range(24)), "morethan+2*sum",
     [(ShellFunctionForce.MoreThan, "RATIONAL R_0=0.4"), ShellFunctionForce.Sum]),
    ("Custom-neither", dict(group_a=range(24)), "10*mean^2+max+sum",
     [ShellFunctionForce.Mean, (ShellFunctionForce.Max, "BETA=0.1"), ShellFunctionForce.Sum]),
    ("Custom-neither-trig", dict(group_a=range(10), group_b=range(5, 24)), "sum^2+mean",
     [ShellFunctionForce.Sum, ShellFunctionForce.Mean]),
    ("Custom-normalised", dict(group_a=range(24)), "5*(mean-0.1)^2+highest",
     [ShellFunctionForce.Mean, ShellFunctionForce.Highest]),
]


def force_setting(name, groups, energy, reductions):
    shape = SHAPES["FCCubic"].with_alpha(27.0) if name == "FCCubic-27" else SHAPES[name]
    return shell_force(shape, energy=energy, reductions=reductions, r0=0.25, d0=0.1, n=6, m=12, dmax=0.9, **groups)


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_the_forces_are_minus_the_gradient_of_the_energy(case):
    case = require_case(case)
    box = 2.2
    box_vectors = np.diag([box] * 3)
    positions = random_positions(24, box, seed=3)
    for name, groups, energy, reductions in FORCE_SETTINGS:
        force = force_setting(name, groups, energy, reductions)
        context = context_of(force, positions, box_vectors, case)
        energy_value, forces = energy_and_forces(context)
        assert np.isfinite(energy_value) and energy_value != 0.0
        expected = finite_difference_forces(context, positions, step=1e-5)
        scale = np.abs(expected).max()
        assert scale > 0
        np.testing.assert_allclose(forces, expected, rtol=0, atol=2e-6 * scale, err_msg=f"{name}, {energy}")


@pytest.mark.parametrize("case", ALL_CASES)
def test_energies_and_forces_are_the_reference_platforms_in_every_precision(case):
    case = require_case(case)
    box = 2.2
    box_vectors = np.diag([box] * 3)
    positions = random_positions(24, box, seed=3)
    for name, groups, energy, reductions in FORCE_SETTINGS:
        force = force_setting(name, groups, energy, reductions)
        expected_energy, expected_forces = energy_and_forces(context_of(copy.copy(force), positions, box_vectors))
        energy_value, forces = energy_and_forces(context_of(force, positions, box_vectors, case))
        assert_close(energy_value, expected_energy, case, what=f"energy, {name}")
        assert_forces_close(forces, expected_forces, case, what=f"forces, {name}")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
@pytest.mark.parametrize("mode", ["Self", "Dual"])
@pytest.mark.parametrize("shape", ["Tetrahedral", "Custom-neither"])
def test_a_thousand_atoms_match_the_reference_platform(case, mode, shape):
    """Enough atoms for the platforms' cell grids and neighbour lists (and, on the CPU, several threads' buffers),
    with a function whose neighbour's term is not the entry's (odd, and of no parity)."""
    case = require_case(case)
    random = np.random.default_rng(17)
    box = 3.0
    positions = random.uniform(0, box, (1000, 3))
    groups = dict(group_a=range(1000)) if mode == "Self" else dict(group_a=range(0, 1000, 3), group_b=range(200, 1000))
    force = shell_force(shape, energy="10*(mean-0.1)^2+morethan", reductions=[
        ShellFunctionForce.Mean, (ShellFunctionForce.MoreThan, "RATIONAL R_0=0.5")], r0=0.3, d0=0.0, n=6, m=12,
        dmax=0.7, **groups)
    reference = copy.copy(force)
    expected_context = context_of(reference, positions, np.diag([box] * 3))
    context = context_of(force, positions, np.diag([box] * 3), case)
    expected_values = np.array(reference.getShellValues(expected_context))
    assert_close(force.getShellValues(context), expected_values, case, scale=np.abs(expected_values).max(),
                 what="s of each atom")
    expected_energy, expected_forces = energy_and_forces(expected_context)
    energy_value, forces = energy_and_forces(context)
    assert_close(energy_value, expected_energy, case, what="energy")
    assert_forces_close(forces, expected_forces, case)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
@pytest.mark.parametrize("shape", ["SimpleCubic", "Tetrahedral", "FCCubic", "Custom-normalised", "Custom-neither"])
def test_an_atom_without_neighbours_has_s_0_and_no_force(case, shape):
    case = require_case(case)
    # Atoms 0-2 are a cluster (off the axes: on them Tetrahedral's terms cancel, s = 0 for a reason of its own); atom 3
    # is alone beyond the cutoff (normalised: 0/0, which PLUMED also makes 0).
    positions = [[0, 0, 0], [0.3, 0.05, 0.02], [0.04, 0.25, 0.1], [5, 5, 5]]
    for groups in (dict(group_a=range(4)), dict(group_a=[0, 3], group_b=range(4))):
        force = shell_force(shape, energy="(sum-1)^2", reductions=[ShellFunctionForce.Sum], r0=0.3, d0=0.0, n=6,
                            m=12, dmax=1.0, periodic=False, **groups)
        context = context_of(force, positions, case=case)
        values = force.getShellValues(context)
        assert values[-1] == 0.0 and all(value != 0.0 for value in values[:-1]), (shape, groups, values)
        energy_value, forces = energy_and_forces(context)
        assert np.isfinite(energy_value) and np.all(np.isfinite(forces))
        assert np.all(forces[3] == 0.0)
        expected = energy_and_forces(context_of(copy.copy(force), positions))[1]
        assert_forces_close(forces, expected, case)
        if case.double:
            np.testing.assert_allclose(forces, finite_difference_forces(context, np.array(positions, float)),
                                       atol=1e-6)


@pytest.mark.parametrize("case", DOUBLE_CASES)
@pytest.mark.parametrize("shape, energy", [("Tetrahedral", "200*(mean-0.2)^2"),
                                           ("Custom-neither", "100*(mean-0.5)^2")])
def test_energy_is_conserved_in_a_short_nve_run(case, shape, energy):
    case = require_case(case)
    energies, _, bias = short_nve_run(shell_force(shape, range(20), energy=energy, reductions=[ShellFunctionForce.Mean],
                                                  r0=0.3, d0=0.0, n=6, m=12, dmax=0.7), case)
    assert np.isfinite(bias)
    assert np.ptp(energies) < 1e-3 * max(1.0, np.abs(energies).max()), energies


# ---------------------------------------------------------------------------------------------------
# The contract of the family
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("function, expression, normalise, alpha", [
    (ShellFunctionForce.Custom, "x*y^2+z+0.1*r", True, 2.5),
    (ShellFunctionForce.FCCubic, "", False, 27.5),
    (ShellFunctionForce.Tetrahedral, "x-y", True, -12.0),
])
def test_settings_round_trip_through_xml_copy_and_pickle(function, expression, normalise, alpha):
    force = ShellFunctionForce(ShellFunctionForce.SimpleCubic, "k*mean")
    if expression:
        force.setCustomFunction(expression)
    force.setShellFunction(function)  # the expression is kept where the function is not Custom
    force.setNormalizeCustomFunction(normalise)
    force.setAlpha(alpha)
    force.setMode(ShellFunctionForce.Dual)
    force.setGroupA([0, 1, 2])
    force.setGroupB([1, 2, 3])
    force.addReduction(ShellFunctionForce.Mean)
    force.addReduction(ShellFunctionForce.Moment, "2")
    force.addGlobalParameter("k", 2.5)
    for duplicate in (pickle.loads(pickle.dumps(force)), copy.copy(force), copy.deepcopy(force),
                      ShellFunctionForce.cast(mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(force)))):
        assert isinstance(duplicate, ShellFunctionForce)
        assert duplicate.getShellFunction() == function and duplicate.getCustomFunction() == expression
        assert duplicate.getNormalizeCustomFunction() == normalise and duplicate.getAlpha() == alpha
        assert list(duplicate.getGroupB()) == [1, 2, 3]
        assert [duplicate.getCollectiveVariableName(i) for i in range(2)] == ["mean", "moment_2"]
        assert duplicate.getFunctionExpression() == force.getFunctionExpression()
        assert mm.XmlSerializer.serialize(duplicate) == mm.XmlSerializer.serialize(force)


def test_class_tree_cast_and_isinstance():
    force = ShellFunctionForce()
    assert force.getShellFunction() == ShellFunctionForce.SimpleCubic and force.getEnergyFunction() == "0"
    assert force.getCustomFunction() == "" and not force.getNormalizeCustomFunction() and force.getAlpha() == 3.0
    assert force.getMode() == ShellFunctionForce.Self and force.getNumReductions() == 0
    assert force.getForceClassName() == "ShellFunctionForce"
    assert (ShellFunctionForce.SimpleCubic, ShellFunctionForce.Tetrahedral, ShellFunctionForce.FCCubic,
            ShellFunctionForce.Custom) == (0, 1, 2, 3)
    assert PerAtomForce.isinstance(force) and ShellFunctionForce.isinstance(force)
    assert not SteinhardtForce.isinstance(force) and not CoordinationNumberForce.isinstance(force)
    assert not ShellFunctionForce.isinstance(SteinhardtForce())
    with pytest.raises(mm.OpenMMException, match="not a SteinhardtForce"):
        SteinhardtForce.cast(force)
    assert isinstance(ShellFunctionForce.cast(force), ShellFunctionForce)
    # The reduction types are PerAtomForce's, reached through any class.
    assert ShellFunctionForce.Mean == SteinhardtForce.Mean == PerAtomForce.Mean
    # setCustomFunction makes the function Custom; setShellFunction keeps the expression.
    force.setCustomFunction("x*y")
    assert force.getShellFunction() == ShellFunctionForce.Custom and force.getFunctionExpression() == "x*y"
    force.setShellFunction(ShellFunctionForce.Tetrahedral)
    assert force.getCustomFunction() == "x*y" and force.getFunctionExpression() != "x*y"


@pytest.mark.parametrize("setting, message", [
    (lambda f: f.setShellFunction(ShellFunctionForce.Custom), "setCustomFunction"),
    (lambda f: f.setCustomFunction("x*q+r"), 'uses "q"'),
    (lambda f: f.setCustomFunction("x*y+w"), 'uses "w"'),
    (lambda f: f.setCustomFunction("x*(y+"), "(?i)pars"),
    (lambda f: (f.setShellFunction(ShellFunctionForce.FCCubic), f.setAlpha(float("inf"))), "alpha"),
    (lambda f: (f.setShellFunction(ShellFunctionForce.FCCubic), f.setAlpha(float("nan"))), "alpha"),
    (lambda f: (f.setShellFunction(ShellFunctionForce.FCCubic), f.setAlpha(-2717 / 16)), "alpha"),
    (lambda f: f.setShellFunction(7), "Custom"),
    (lambda f: f.setMode(ShellFunctionForce.Pair), "Pair mode"),
    (lambda f: f.addReduction(ShellFunctionForce.Min, "BETA=0"), r'reduction "min"'),
    (lambda f: f.setEnergyFunction("mean+"), "ShellFunctionForce"),
])
def test_bad_settings_are_refused_with_what_to_fix(setting, message):
    force = shell_force("SimpleCubic", range(3), reductions=[ShellFunctionForce.Mean])
    setting(force)
    if force.getMode() == ShellFunctionForce.Pair:
        force.setGroupB([0, 1, 2])
    with pytest.raises(Exception, match=message):
        context_of(force, [[0, 0, 0], [0.3, 0, 0], [0, 0.3, 0]], np.diag([3.0] * 3))


def test_alpha_is_only_checked_where_the_function_is_fccubic():
    """The other functions ignore alpha (as the header says), so a bad alpha does not stop them."""
    force = shell_force("Tetrahedral", range(3), reductions=[ShellFunctionForce.Mean])
    force.setAlpha(-2717 / 16)
    values = force.getShellValues(context_of(force, [[0, 0, 0], [0.3, 0, 0], [0, 0.3, 0]], np.diag([3.0] * 3)))
    assert len(values) == 3 and np.all(np.isfinite(values))


def test_python_arguments_follow_openmms_conventions():
    with pytest.raises(TypeError, match="function must be an integer"):
        ShellFunctionForce(1.0)
    with pytest.raises(TypeError, match="energy"):
        ShellFunctionForce(ShellFunctionForce.SimpleCubic, 3)
    force = ShellFunctionForce(np.int64(2), "0")
    assert force.getShellFunction() == ShellFunctionForce.FCCubic
    force.setShellFunction(np.int32(1))
    assert force.getShellFunction() == ShellFunctionForce.Tetrahedral
    force.setAlpha(np.float64(2.5))
    assert force.getAlpha() == 2.5 and isinstance(force.getAlpha(), float)
    force.setAlpha(np.int64(4))
    assert force.getAlpha() == 4.0
    force.setAlpha(5 * mm.unit.dimensionless)
    assert force.getAlpha() == 5.0
    with pytest.raises(TypeError, match="alpha"):
        force.setAlpha("3")
    with pytest.raises(TypeError, match="alpha"):
        force.setAlpha(3 * mm.unit.nanometer)
    with pytest.raises(TypeError):
        force.setCustomFunction(3)
    with pytest.raises(TypeError):
        force.setNormalizeCustomFunction("yes")
    force.setNormalizeCustomFunction(np.bool_(True))
    assert force.getNormalizeCustomFunction() is True
    force.setCustomFunction(np.str_("x+y"))
    assert force.getCustomFunction() == "x+y" and force.getShellFunction() == ShellFunctionForce.Custom
    assert "SIMPLECUBIC" in ShellFunctionForce.__doc__ and "s_i" in ShellFunctionForce.getShellValues.__doc__


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_inside_a_custom_cv_force_and_with_updated_parameters(case):
    case = require_case(case)
    positions = random_positions(12, 1.5, seed=5)
    box_vectors = np.diag([1.5] * 3)
    settings = dict(r0=0.3, d0=0.0, n=6, m=12, dmax=0.7)
    # In a CustomCVForce the variable is the inner force's energy: here its mean.
    inner = shell_force("SimpleCubic", range(12), energy="mean", reductions=[ShellFunctionForce.Mean], **settings)
    cv = mm.CustomCVForce("3*s")
    cv.addCollectiveVariable("s", inner)
    context = context_of(cv, positions, box_vectors, case)
    direct = shell_force("SimpleCubic", range(12), reductions=[ShellFunctionForce.Mean], **settings)
    direct_context = context_of(direct, positions, box_vectors, case)
    reference = copy.copy(direct)
    reference_context = context_of(reference, positions, box_vectors)
    mean = reference.getCollectiveVariableValues(reference_context)[0]
    assert mean > 0.1
    assert_close(energy_only(context), 3 * mean, case, what="energy of the CustomCVForce")
    assert_close(inner.getCollectiveVariableValues(context)[0], mean, case, what="mean inside the CustomCVForce")
    assert_close(inner.getShellValues(context), reference.getShellValues(reference_context), case,
                 what="s_i inside the CustomCVForce")
    # A new function takes effect through updateParametersInContext: FCCubic with its alpha, then a normalised
    # Custom function of no parity, then an unnormalised one.
    for shape in (SHAPES["FCCubic"].with_alpha(27.0), SHAPES["Custom-normalised"], SHAPES["Custom-neither"]):
        shape.apply(direct)
        direct.updateParametersInContext(direct_context)
        fresh = shell_force(shape, range(12), reductions=[ShellFunctionForce.Mean], **settings)
        fresh_context = context_of(fresh, positions, box_vectors)
        expected = fresh.getShellValues(fresh_context)
        assert_close(direct.getShellValues(direct_context), expected, case, scale=np.abs(expected).max(),
                     what=f"s_i after the update to {shape.id}")
        assert_close(direct.getCollectiveVariableValues(direct_context)[0],
                     fresh.getCollectiveVariableValues(fresh_context)[0], case, scale=np.abs(expected).max(),
                     what=f"mean after the update to {shape.id}")


def test_a_system_with_it_runs_on_the_fastest_platform_that_has_its_kernel():
    force = shell_force("SimpleCubic", range(3), reductions=[ShellFunctionForce.Mean])
    platforms = [mm.Platform.getPlatform(i) for i in range(mm.Platform.getNumPlatforms())]
    having = [platform for platform in platforms if platform.supportsKernels(["CalcShellFunctionForce"])]
    # (a GPU platform has it where this plugin's kernels for it are installed)
    assert "Reference" in {platform.getName() for platform in having}
    assert {platform.getName() for platform in having} <= set(SHELL_FUNCTION_PLATFORMS)
    try:
        context = mm.Context(make_system(3, [force], np.diag([3.0] * 3)), mm.VerletIntegrator(0.001))
    except mm.OpenMMException as error:  # the fastest platform may not start here (no device)
        pytest.skip(f"the default platform cannot create a Context here: {error}")
    assert context.getPlatform().getName() == max(having, key=lambda platform: platform.getSpeed()).getName()
