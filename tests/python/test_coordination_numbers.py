"""CoordinationNumberForce from Python: its API and Python conventions (lists, tuples, enum values, units, numpy
scalars, errors), its numbers against an independent numpy model of PLUMED's definitions (the header's table), its
forces against finite differences, energy-parameter derivatives, and its use inside OpenMM's tools (CustomCVForce,
app.Metadynamics, XmlSerializer, copy and pickle, the PLUMED translator).

Numbers are compared on every selected platform case (coordination_testing.ALL_CASES); finite differences on the
double-precision cases.
"""
import copy
import math
import pickle

import numpy as np
import openmm as mm
import openmm.app as app
import openmm.unit as unit
import pytest

import openmmcoordination
from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    FINITE_DIFFERENCE_RELATIVE,
    add_repulsion,
    assert_close,
    assert_forces_close,
    coordination_numbers_numpy,
    energy_and_forces,
    energy_only,
    finite_difference_forces,
    make_context,
    make_system,
    rational_unstretched,
    require_case,
    set_frame,
)
from openmmcoordination import CoordinationForce, CoordinationNumberForce

BOX = 2.0
BOX_VECTORS = np.diag([BOX, BOX, BOX])
NUM_ATOMS = 14
GROUP_A = list(range(0, 10))
GROUP_B = list(range(6, 14))  # overlaps A in 6-9: a pair of one atom counts 0
SWITCH = dict(r0=0.35, n=6, m=12, dmax=1.0)  # stretched to 0 at dmax

#: Every reduction type, its parameters and a numpy function of the numbers c (PLUMED's definitions, header table).
REDUCTIONS = {
    "sum": (CoordinationNumberForce.Sum, "", lambda c: c.sum()),
    "mean": (CoordinationNumberForce.Mean, "", lambda c: c.mean()),
    "morethan": (CoordinationNumberForce.MoreThan, "RATIONAL R_0=2 NN=6 MM=12",
                 lambda c: np.sum(1 - rational_unstretched(c, 2.0, 6, 12))),
    "lessthan": (CoordinationNumberForce.LessThan, "EXP R_0=1.5 D_0=0.2",
                 lambda c: np.sum(np.where(c <= 0.2, 1.0, np.exp(-(c - 0.2) / 1.5)))),
    "between": (CoordinationNumberForce.Between, "GAUSSIAN LOWER=1.0 UPPER=3.0 SMEAR=0.25",
                lambda c: np.sum(0.5 * (erf((3.0 - c) / (math.sqrt(2) * 0.5)) - erf((1.0 - c) / (math.sqrt(2) * 0.5))))),
    "min": (CoordinationNumberForce.Min, "BETA=0.5", lambda c: 0.5 / np.log(np.sum(np.exp(0.5 / c)))),
    "max": (CoordinationNumberForce.Max, "BETA=0.5", lambda c: 0.5 * np.log(np.sum(np.exp(c / 0.5)))),
    "altmin": (CoordinationNumberForce.AltMin, "BETA=2", lambda c: -np.log(np.sum(np.exp(-2 * c))) / 2),
    "highest": (CoordinationNumberForce.Highest, "", lambda c: c.max()),
    "lowest": (CoordinationNumberForce.Lowest, "", lambda c: c.min()),
    "moment_2": (CoordinationNumberForce.Moment, "2", lambda c: np.mean((c - c.mean()) ** 2)),
    "moment_3": (CoordinationNumberForce.Moment, "3", lambda c: np.mean((c - c.mean()) ** 3)),
}
erf = np.vectorize(math.erf)
TYPE_NAMES = ["Sum", "Mean", "MoreThan", "LessThan", "Between", "Min", "Max", "AltMin", "Highest", "Lowest", "Moment"]


def frame(seed=1):
    """A jittered 0.3 nm grid of the atoms, in a random order: every c_i well above 0 (Min is finite), no ties."""
    rng = np.random.default_rng(seed)
    grid = np.array([(i, j, k) for i in range(3) for j in range(3) for k in range(2)], dtype=float)
    return grid[rng.permutation(len(grid))[:NUM_ATOMS]] * 0.3 + 0.6 + rng.normal(0, 0.04, size=(NUM_ATOMS, 3))


def numbers_numpy(positions, mode=CoordinationForce.Dual, group_a=GROUP_A, group_b=GROUP_B, power=0.0, **switch):
    """c_i = sum over j (of B, or of A in Self mode), other than i, of sigma(r_ij) r_ij^p; a pair with r^2 below
    DBL_EPSILON counts 0."""
    return coordination_numbers_numpy(positions, mode, group_a, group_b, [BOX] * 3, power, **dict(SWITCH, **switch))


def number_force(energy="0", names=tuple(REDUCTIONS), power=0.0, mode=CoordinationForce.Dual, group=0):
    force = CoordinationNumberForce(energy)
    force.setMode(mode)
    force.setGroupA(GROUP_A)
    if mode != CoordinationForce.Self:
        force.setGroupB(GROUP_B)
    force.setR0(SWITCH["r0"])
    force.setN(SWITCH["n"])
    force.setM(SWITCH["m"])
    force.setDMax(SWITCH["dmax"])
    force.setRPower(power)
    force.setUsesPeriodicBoundaryConditions(True)
    force.setForceGroup(group)
    for name in names:
        reduction_type, parameters, _ = REDUCTIONS[name]
        force.addReduction(reduction_type, parameters)
    return force


def variables(force):
    return [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())]


# ---------------------------------------------------------------------------------------------------
# The API and its Python conventions
# ---------------------------------------------------------------------------------------------------


def test_the_class_is_exported_documented_and_a_sibling_of_coordination_force():
    """A CoordinationNumberForce shares CoordinationForce's groups and switching settings through their common base,
    PairSwitchingForce, and is not a CoordinationForce."""
    assert "CoordinationNumberForce" in openmmcoordination.__all__
    assert openmmcoordination.CoordinationNumberForce is CoordinationNumberForce
    PairSwitchingForce, CoordinationBiasForce = openmmcoordination.PairSwitchingForce, openmmcoordination.CoordinationBiasForce
    for forceClass in (CoordinationNumberForce, CoordinationForce):
        assert issubclass(forceClass, PairSwitchingForce) and issubclass(forceClass, CoordinationBiasForce)
        assert issubclass(forceClass, mm.Force)
    assert not issubclass(CoordinationNumberForce, CoordinationForce)
    assert not issubclass(CoordinationForce, CoordinationNumberForce)
    assert "COORDINATIONNUMBER" in CoordinationNumberForce.__doc__ and "MORE_THAN" in CoordinationNumberForce.__doc__
    for method in ("addReduction", "getReductionParameters", "setReductionParameters", "getRPower", "setRPower",
                   "getCoordinationNumbers", "getCollectiveVariableValues", "getDefaultReductionName"):
        assert getattr(CoordinationNumberForce, method).__doc__.strip(), method
    assert "list[float]" in CoordinationNumberForce.getCoordinationNumbers.__doc__
    assert "BETA=b" in CoordinationNumberForce.addReduction.__doc__


def test_defaults():
    force = CoordinationNumberForce()
    assert force.getEnergyFunction() == "0"
    assert force.getRPower() == 0.0 and isinstance(force.getRPower(), float)
    assert force.getNumReductions() == force.getNumCollectiveVariables() == 0
    assert force.getMode() == CoordinationForce.Self
    assert CoordinationNumberForce("2*sum").getEnergyFunction() == "2*sum"


def test_reduction_types_are_class_attributes_with_plumed_default_names():
    assert [getattr(CoordinationNumberForce, name) for name in TYPE_NAMES] == list(range(11))
    names = [CoordinationNumberForce.getDefaultReductionName(getattr(CoordinationNumberForce, name), "")
             for name in TYPE_NAMES[:-1]]
    assert names == ["sum", "mean", "morethan", "lessthan", "between", "min", "max", "altmin", "highest", "lowest"]
    assert CoordinationNumberForce.getDefaultReductionName(CoordinationNumberForce.Moment, " 3 ") == "moment_3"
    # The inherited enums are there too.
    assert CoordinationNumberForce.Dual == CoordinationForce.Dual and CoordinationNumberForce.Exponential == \
        CoordinationForce.Exponential


def test_reductions_are_added_read_back_as_tuples_and_changed():
    force = CoordinationNumberForce()
    assert force.addReduction(CoordinationNumberForce.Sum) == 0
    assert force.addReduction(np.int32(CoordinationNumberForce.MoreThan), "EXP R_0=4") == 1
    assert force.addReduction(CoordinationNumberForce.Moment, "2", "spread") == 2
    assert force.getReductionParameters(0) == (CoordinationNumberForce.Sum, "", "")
    assert force.getReductionParameters(np.int64(1)) == (CoordinationNumberForce.MoreThan, "EXP R_0=4", "")
    reduction_type, parameters, name = force.getReductionParameters(2)
    assert (reduction_type, parameters, name) == (CoordinationNumberForce.Moment, "2", "spread")
    assert isinstance(reduction_type, int) and isinstance(force.getReductionParameters(2), tuple)
    assert force.getNumReductions() == force.getNumCollectiveVariables() == 3
    assert variables(force) == ["sum", "morethan", "spread"]
    force.setReductionParameters(1, CoordinationNumberForce.LessThan, "RATIONAL R_0=2", "few")
    assert force.getReductionParameters(1) == (CoordinationNumberForce.LessThan, "RATIONAL R_0=2", "few")
    assert variables(force) == ["sum", "few", "spread"]


def test_bad_reduction_arguments_are_clear_errors_in_python_spelling():
    force = CoordinationNumberForce()
    force.addReduction(CoordinationNumberForce.Sum)
    for call in (lambda: force.getReductionParameters(1), lambda: force.getReductionParameters(-1),
                 lambda: force.setReductionParameters(3, CoordinationNumberForce.Sum, "", ""),
                 lambda: force.getCollectiveVariableName(1)):
        with pytest.raises(mm.OpenMMException, match=r"CoordinationNumberForce\.\w+: index -?\d+ is out of range"):
            call()
    with pytest.raises(mm.OpenMMException, match="unknown reduction type 13"):
        force.addReduction(13)
    with pytest.raises(mm.OpenMMException, match="out of range"):
        force.addReduction(2**40)
    with pytest.raises(TypeError, match="CoordinationNumberForce.addReduction: type must be an integer"):
        force.addReduction(1.0)
    with pytest.raises(TypeError, match="parameters must be a str"):
        force.addReduction(CoordinationNumberForce.Moment, 2)
    with pytest.raises(TypeError, match="name must be a str"):
        force.setReductionParameters(0, CoordinationNumberForce.Sum, "", None)
    with pytest.raises(TypeError, match="index must be an integer"):
        force.getReductionParameters(0.0)
    assert force.getNumReductions() == 1


def test_r_power_takes_a_plain_number():
    force = CoordinationNumberForce()
    for value, expected in ((2, 2.0), (np.float32(0.5), 0.5), (np.int64(3), 3.0), (1.5 * unit.dimensionless, 1.5)):
        force.setRPower(value)
        assert force.getRPower() == expected and type(force.getRPower()) is float
    for value in (1.0 * unit.nanometer, 2 / unit.nanometer, "2", None, True):
        with pytest.raises(TypeError, match="CoordinationNumberForce.setRPower: power must be a plain number"):
            force.setRPower(value)
    assert force.getRPower() == 1.5


def test_inherited_settings_keep_their_unit_and_argument_handling():
    force = CoordinationNumberForce()
    force.setR0(3.5 * unit.angstrom)
    assert force.getR0().value_in_unit(unit.nanometer) == pytest.approx(0.35, rel=1e-15)
    force.setDMax(np.float64(0.9))
    assert force.getDMax().value_in_unit(unit.nanometer) == 0.9
    for setter in (force.setR0, force.setD0, force.setDMax):
        with pytest.raises(TypeError, match="must be a length"):
            setter(1.0 * unit.picosecond)
    force.setN(np.int16(8))
    assert force.getN() == 8
    with pytest.raises(TypeError):
        force.setN(8.0)
    force.setGroupA(np.arange(4))
    topology = app.Topology()
    residue = topology.addResidue("R", topology.addChain())
    atoms = [topology.addAtom(f"A{k}", app.element.argon, residue) for k in range(6)]
    force.setGroupB(atoms[2:])
    assert list(force.getGroupA()) == [0, 1, 2, 3] and list(force.getGroupB()) == [2, 3, 4, 5]
    with pytest.raises(TypeError):
        force.setStretch("yes")
    force.addGlobalParameter("k", np.float32(2.0))
    assert force.getGlobalParameterDefaultValue(0) == 2.0


def test_cast_and_isinstance_give_the_number_force_from_a_system():
    """Each class's cast and isinstance recognize that class and the bases it has: a CoordinationNumberForce is a
    PairSwitchingForce and a CoordinationBiasForce, not a CoordinationForce."""
    system = make_system(NUM_ATOMS, [mm.HarmonicBondForce(), number_force(), CoordinationForce()])
    assert CoordinationNumberForce.isinstance(system.getForce(1))
    assert not CoordinationNumberForce.isinstance(system.getForce(2))
    assert not CoordinationForce.isinstance(system.getForce(1)) and CoordinationForce.isinstance(system.getForce(2))
    for base in (openmmcoordination.PairSwitchingForce, openmmcoordination.CoordinationBiasForce):
        assert base.isinstance(system.getForce(1)) and base.isinstance(system.getForce(2))
        assert not base.isinstance(system.getForce(0))
        assert base.cast(system.getForce(1)).getNumCollectiveVariables() == len(REDUCTIONS)
    force = CoordinationNumberForce.cast(system.getForce(1))
    assert type(force) is CoordinationNumberForce
    assert force.getNumReductions() == len(REDUCTIONS)
    assert type(CoordinationForce.cast(system.getForce(2))) is CoordinationForce
    for other in (system.getForce(0), system.getForce(2)):
        with pytest.raises(mm.OpenMMException, match="not a CoordinationNumberForce"):
            CoordinationNumberForce.cast(other)
    for other in (system.getForce(0), system.getForce(1)):
        with pytest.raises(mm.OpenMMException, match="not a CoordinationForce"):
            CoordinationForce.cast(other)
    # The cast keeps its System alive.
    force = CoordinationNumberForce.cast(system.getForce(1))
    del system
    assert force.getNumReductions() == len(REDUCTIONS)


def test_refused_settings_are_openmm_exceptions_at_context_creation():
    cases = {
        "Pair mode has no per-atom coordination numbers": lambda f: f.setMode(CoordinationForce.Pair),
        "the R power must be a finite number >= 0": lambda f: f.setRPower(-1.0),
        "BETA must be a finite number other than 0": lambda f: f.addReduction(CoordinationNumberForce.Min, "BETA=0"),
        "another reduction has this name": lambda f: f.addReduction(CoordinationNumberForce.Sum),
        "takes no parameters": lambda f: f.addReduction(CoordinationNumberForce.Mean, "2", "m"),
        "an integer from 2 to 64": lambda f: f.addReduction(CoordinationNumberForce.Moment, "1"),
    }
    for message, change in cases.items():
        force = number_force(names=("sum",))
        if "Pair" in message:
            force.setGroupB(GROUP_A)
        change(force)
        with pytest.raises(mm.OpenMMException, match=message) as error:
            make_context(make_system(NUM_ATOMS, [force], BOX_VECTORS))
        assert "::" not in str(error.value)


# ---------------------------------------------------------------------------------------------------
# Numbers against the numpy model, on every platform case
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES)
def test_numbers_and_reductions_match_the_numpy_model(case):
    case = require_case(case)
    positions = frame()
    plain = number_force(energy="0", group=0)
    weighted = number_force(energy="sum + 2*moment_2", names=("sum", "mean", "moment_2"), power=1.5, group=1)
    context = make_context(make_system(NUM_ATOMS, [plain, weighted], BOX_VECTORS), case)
    set_frame(context, positions, BOX_VECTORS)
    expected = numbers_numpy(positions)
    assert expected.min() > 0.3 and expected.max() > 2.0  # numbers worth comparing: none near 0, some large
    ours = plain.getCoordinationNumbers(context)
    assert type(ours) is list and len(ours) == len(GROUP_A) and all(type(value) is float for value in ours)
    assert_close(ours, expected, case, what="c_i")
    values = plain.getCollectiveVariableValues(context)
    assert type(values) is list and len(values) == len(REDUCTIONS)
    for name, value in zip(variables(plain), values):
        assert_close(value, REDUCTIONS[name][2](expected), case, what=name)
    # The default energy "0" applies nothing.
    energy, forces = energy_and_forces(context, groups={0})
    assert energy == 0.0 and not forces.any()
    # R power 1.5: c_i = sum sigma(r) r^1.5; the energy is an expression of the reductions.
    expected = numbers_numpy(positions, power=1.5)
    assert_close(weighted.getCoordinationNumbers(context), expected, case, what="c_i with R power 1.5")
    total, mean, spread = (REDUCTIONS[name][2](expected) for name in ("sum", "mean", "moment_2"))
    assert_close(weighted.getCollectiveVariableValues(context), [total, mean, spread], case, what="reductions")
    assert_close(energy_only(context, groups={1}), total + 2 * spread, case, what="energy")


@pytest.mark.parametrize("case", ALL_CASES)
def test_self_mode_numbers_match_the_numpy_model(case):
    case = require_case(case)
    positions = frame(5)
    force = number_force(energy="mean", names=("mean", "highest"), mode=CoordinationForce.Self)
    context = make_context(make_system(NUM_ATOMS, [force], BOX_VECTORS), case)
    set_frame(context, positions, BOX_VECTORS)
    expected = numbers_numpy(positions, mode=CoordinationForce.Self)
    assert_close(force.getCoordinationNumbers(context), expected, case, what="c_i (Self)")
    assert_close(force.getCollectiveVariableValues(context), [expected.mean(), expected.max()], case, what="mean, max")
    assert_close(energy_only(context), expected.mean(), case, what="energy")


#: Energies of reductions whose forces are checked by finite differences (each its own force group).
FINITE_DIFFERENCE_ENERGIES = {
    "morethan^2 + lessthan": ("morethan", "lessthan"),
    "between + 0.3*mean + sum": ("between", "mean", "sum"),
    "min + max + altmin": ("min", "max", "altmin"),
    "moment_2 + 0.1*moment_3 + highest - lowest": ("moment_2", "moment_3", "highest", "lowest"),
}


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_forces_are_the_negative_gradient_of_the_energy(case):
    case = require_case(case)
    positions = frame(3)
    forces = [number_force(energy, names, power=1.0 if group == 1 else 0.0, group=group)
              for group, (energy, names) in enumerate(FINITE_DIFFERENCE_ENERGIES.items())]
    context = make_context(make_system(NUM_ATOMS, forces, BOX_VECTORS), case)
    set_frame(context, positions, BOX_VECTORS)
    for group, energy in enumerate(FINITE_DIFFERENCE_ENERGIES):
        _, analytic = energy_and_forces(context, groups={group})
        numeric = finite_difference_forces(context, positions, {group})
        largest = np.abs(analytic).max()
        assert largest > 0.1, energy
        np.testing.assert_allclose(analytic, numeric, rtol=0, atol=FINITE_DIFFERENCE_RELATIVE * largest * 10,
                                   err_msg=f"{energy} ({case.id})")


@pytest.mark.parametrize("case", ALL_CASES)
def test_energy_parameter_derivatives(case):
    case = require_case(case)
    positions = frame()
    force = number_force("k*sum + k^2*moment_2 + q*mean", names=("sum", "mean", "moment_2"))
    force.addGlobalParameter("k", 1.5)
    force.addGlobalParameter("q", 0.25)
    force.addEnergyParameterDerivative("k")
    force.addEnergyParameterDerivative("q")
    context = make_context(make_system(NUM_ATOMS, [force], BOX_VECTORS), case)
    set_frame(context, positions, BOX_VECTORS)
    context.setParameter("k", 2.0)
    total, mean, spread = force.getCollectiveVariableValues(context)
    derivatives = context.getState(getParameterDerivatives=True).getEnergyParameterDerivatives()
    assert_close(derivatives["k"], total + 2 * 2.0 * spread, case, what="dE/dk")
    assert_close(derivatives["q"], mean, case, what="dE/dq")


# ---------------------------------------------------------------------------------------------------
# OpenMM's tools
# ---------------------------------------------------------------------------------------------------


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_inside_a_custom_cv_force_the_value_is_the_reduction(case):
    case = require_case(case)
    positions = frame()
    inner = number_force(energy="morethan", names=("morethan", "mean"))
    cv = mm.CustomCVForce("10*(c - 1)^2")
    cv.addCollectiveVariable("c", inner)
    context = make_context(make_system(NUM_ATOMS, [cv], BOX_VECTORS), case)
    set_frame(context, positions, BOX_VECTORS)
    expected = numbers_numpy(positions)
    morethan = REDUCTIONS["morethan"][2](expected)
    assert_close(cv.getCollectiveVariableValues(context)[0], morethan, case, what="the CV inside CustomCVForce")
    assert_close(inner.getCollectiveVariableValues(context), [morethan, expected.mean()], case,
                 what="getCollectiveVariableValues through the CustomCVForce")
    assert_close(inner.getCoordinationNumbers(context), expected, case, what="c_i through the CustomCVForce")
    held = CoordinationNumberForce.cast(cv.getCollectiveVariable(0))
    assert_close(held.getCollectiveVariableValues(context)[0], morethan, case, what="the held force's value")
    # Its forces are those of the same energy standalone.
    standalone = make_context(make_system(NUM_ATOMS, [number_force(energy="10*(morethan - 1)^2")], BOX_VECTORS), case)
    set_frame(standalone, positions, BOX_VECTORS)
    expected_energy, expected_forces = energy_and_forces(standalone)
    energy, forces = energy_and_forces(context)
    assert_close(energy, expected_energy, case, what="energy")
    assert_forces_close(forces, expected_forces, case)
    assert np.abs(expected_forces).max() > 0.1


@pytest.mark.parametrize("case", ALL_CASES)
def test_metadynamics_biases_a_reduction(case):
    case = require_case(case)
    system = make_system(NUM_ATOMS, [], BOX_VECTORS)
    add_repulsion(system, NUM_ATOMS, 39.948, "4*0.996*(0.3405/r)^12", 0.9)
    force = number_force(energy="mean", names=("mean",))
    variable = app.BiasVariable(force, minValue=0.0, maxValue=10.0, biasWidth=0.3, gridWidth=201)
    metadynamics = app.Metadynamics(system, [variable], 120 * unit.kelvin, 5.0, 2.0 * unit.kilojoules_per_mole, 25)
    integrator = mm.LangevinMiddleIntegrator(120 * unit.kelvin, 1 / unit.picosecond, 0.002 * unit.picoseconds)
    integrator.setRandomNumberSeed(3)
    simulation = app.Simulation(app.Topology(), system, integrator, mm.Platform.getPlatformByName(case.platform),
                                case.properties())
    grid = np.array([(i, j, k) for i in range(3) for j in range(3) for k in range(2)])[:NUM_ATOMS]
    simulation.context.setPositions((grid + 0.5) * 0.4)
    simulation.context.setVelocitiesToTemperature(120 * unit.kelvin, 3)
    visited = []
    for _ in range(4):
        metadynamics.step(simulation, 25)
        mean = metadynamics.getCollectiveVariables(simulation)[0]
        positions = simulation.context.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(
            unit.nanometer)
        assert_close(mean, numbers_numpy(positions).mean(), case, what="metadynamics' collective variable")
        assert_close(force.getCollectiveVariableValues(simulation.context)[0], mean, case,
                     what="getCollectiveVariableValues of the biased force")
        visited.append(mean)
    free_energy = np.asarray(metadynamics.getFreeEnergy().value_in_unit(unit.kilojoules_per_mole))
    assert free_energy.min() < -1.0  # hills were deposited ...
    grid_values = np.linspace(0.0, 10.0, 201)
    assert abs(grid_values[free_energy.argmin()] - np.mean(visited)) < 0.5 + np.ptp(visited)  # ... where it was


def fully_configured_force():
    force = number_force("k*(morethan - s0)^2 + spread", names=("morethan", "between"), power=2.0)
    force.addReduction(CoordinationNumberForce.Moment, "2", "spread")
    force.addGlobalParameter("k", 3.0)
    force.addGlobalParameter("s0", 0.5)
    force.addEnergyParameterDerivative("k")
    force.setSwitchingFunction(CoordinationForce.Exponential)
    force.setD0(0.05)
    force.setName("numbers")
    force.setForceGroup(3)
    return force


def settings(force):
    return (type(force), force.getName(), force.getForceGroup(), force.getEnergyFunction(), force.getMode(),
            list(force.getGroupA()), list(force.getGroupB()), force.getSwitchingFunction(), force.getR0(),
            force.getD0(), force.getDMax(), force.getN(), force.getM(), force.getStretch(),
            force.usesPeriodicBoundaryConditions(), force.getRPower(),
            [force.getReductionParameters(i) for i in range(force.getNumReductions())],
            [(force.getGlobalParameterName(i), force.getGlobalParameterDefaultValue(i))
             for i in range(force.getNumGlobalParameters())],
            [force.getEnergyParameterDerivativeName(i) for i in range(force.getNumEnergyParameterDerivatives())])


def test_xml_serialization_round_trip():
    """The force alone and in a System, through its serialization proxy."""
    force = fully_configured_force()
    restored = CoordinationNumberForce.cast(mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(force)))
    assert settings(restored) == settings(force)
    system = make_system(NUM_ATOMS, [mm.HarmonicBondForce(), fully_configured_force()], BOX_VECTORS)
    copied = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(system))
    assert settings(CoordinationNumberForce.cast(copied.getForce(1))) == settings(force)


def test_copy_and_pickle():
    """Through XmlSerializer, as for every OpenMM Force; the copy has the force's own class."""
    force = fully_configured_force()
    for duplicate in (copy.copy(force), copy.deepcopy(force), pickle.loads(pickle.dumps(force))):
        assert settings(duplicate) == settings(force)
        duplicate.setRPower(1.0)
        assert force.getRPower() == 2.0  # a copy, not the same C++ object


@pytest.mark.parametrize("case", ALL_CASES)
def test_a_deserialized_force_computes_the_same_numbers(case):
    case = require_case(case)
    positions = frame()
    system = make_system(NUM_ATOMS, [fully_configured_force()], BOX_VECTORS)
    copied = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(system))
    values = []
    for each in (system, copied):
        context = make_context(each, case)
        set_frame(context, positions, BOX_VECTORS)
        values.append((CoordinationNumberForce.cast(each.getForce(0)).getCollectiveVariableValues(context),
                       energy_and_forces(context)))
    assert_close(values[1][0], values[0][0], case, what="reductions")
    assert_close(values[1][1][0], values[0][1][0], case, what="energy")
    assert_forces_close(values[1][1][1], values[0][1][1], case)
    assert np.abs(values[0][1][1]).max() > 1e-3


def test_the_translator_reads_and_writes_number_forces():
    line = "c2: COORDINATIONNUMBER SPECIES=1-5 SWITCH={RATIONAL R_0=0.5} MORE_THAN={EXP R_0=4.0} MEAN"
    force = openmmcoordination.fromPlumed(line)
    assert type(force) is CoordinationNumberForce
    with pytest.raises(mm.OpenMMException, match="not a COORDINATION action; read it with PlumedTranslator.fromPlumed"):
        CoordinationForce.fromPlumed(line)
    assert force.getName() == "c2" and list(force.getGroupA()) == [0, 1, 2, 3, 4]
    assert variables(force) == ["morethan", "mean"]
    read = openmmcoordination.fromPlumedFile(line + "\nc3: COORDINATION_MOMENTS SPECIES=1-4 R_0=0.3 R_POWER=2 SUM\n")
    assert list(read.forces) == ["c2", "c3"] and all(type(f) is CoordinationNumberForce for f in read.forces.values())
    assert read.forces["c3"].getRPower() == 2.0
    written = number_force(names=("morethan", "between", "moment_2", "min", "highest"), power=2.0)
    for each in (force, read.forces["c3"], written):
        text = openmmcoordination.toPlumed(each, "x")
        assert text == each.toPlumed("x")
        again = openmmcoordination.fromPlumed(text)
        assert openmmcoordination.toPlumed(again, "x") == text


def test_to_plumed_refuses_a_reduction_name_plumed_does_not_give():
    with pytest.raises(mm.OpenMMException, match='"spread" has a name PLUMED does not give it'):
        fully_configured_force().toPlumed("x")


def test_a_coordination_force_reports_its_collective_variable_as_a_list():
    force = CoordinationForce("s")
    force.setGroupA(GROUP_A)
    force.setR0(0.35)
    context = make_context(make_system(NUM_ATOMS, [force], BOX_VECTORS))
    set_frame(context, frame(), BOX_VECTORS)
    assert force.getNumCollectiveVariables() == 1 and force.getCollectiveVariableName(0) == "s"
    assert force.getCollectiveVariableValues(context) == [force.getCoordination(context)]
    # A CoordinationNumberForce has no single coordination number: no getCoordination to call.
    assert not hasattr(number_force(), "getCoordination")
