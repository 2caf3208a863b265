"""OpenMM's Python conventions on CoordinationForce: units checked on every length (a Quantity of another
dimension is a TypeError naming nm), getters of lengths return Quantities, numpy scalars and arrays and
openmm.app Atom objects accepted, docstrings from the C++ documentation, messages in Python spelling,
and getCoordination/updateParametersInContext for a force inside a CustomCVForce (app.Metadynamics).

Values are compared with plain-number calls of the same methods and with the numpy model of
coordination_testing.py.
"""
import numpy as np
import openmm as mm
import openmm.app as app
import openmm.unit as unit
import pytest

from coordination_testing import (
    ALL_CASES,
    REFERENCE,
    assert_close,
    coordination_force,
    coordination_numpy,
    energy_and_forces,
    make_context,
    make_system,
    set_frame,
)
import openmmcoordination
from openmmcoordination import CoordinationForce, CoordinationNumberForce, ShellFunctionForce, SteinhardtForce

# ---------------------------------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------------------------------

LENGTH_SETTERS = ["setR0", "setD0", "setDMax"]
#: The force classes of PairSwitchingForce: both have its setters with their conversions (their messages name the class
#: of the object they are called on).
FORCE_CLASSES = pytest.mark.parametrize("force_class", [CoordinationForce, CoordinationNumberForce, SteinhardtForce,
                                                       ShellFunctionForce],
                                        ids=lambda force_class: force_class.__name__)


@pytest.mark.parametrize("setter", LENGTH_SETTERS)
@pytest.mark.parametrize("value, nm", [(0.35, 0.35), (3.5 * unit.angstrom, 0.35), (0.35 * unit.nanometer, 0.35),
                                       (350.0 * unit.picometer, 0.35)],
                         ids=["number", "angstrom", "nanometer", "picometer"])
@FORCE_CLASSES
def test_lengths_take_numbers_in_nm_or_length_quantities(force_class, setter, value, nm):
    force = force_class()
    getattr(force, setter)(value)
    got = getattr(force, "get" + setter[3:])()
    assert unit.is_quantity(got) and got.unit == unit.nanometer
    assert got.value_in_unit(unit.nanometer) == pytest.approx(nm, rel=1e-15)


@pytest.mark.parametrize("setter", LENGTH_SETTERS)
@pytest.mark.parametrize("value, unit_name", [(3.5 * unit.kilojoule_per_mole, "kilojoule/mole"),
                                              (3.5 * unit.picosecond, "picosecond"),
                                              (3.5 * unit.angstrom**2, "angstrom**2"),
                                              (3.5 * unit.dimensionless, "dimensionless")],
                         ids=["energy", "time", "area", "dimensionless"])
@FORCE_CLASSES
def test_a_quantity_that_is_not_a_length_is_a_type_error_naming_nm(force_class, setter, value, unit_name):
    force = force_class()
    before = getattr(force, "get" + setter[3:])()
    with pytest.raises(TypeError) as error:
        getattr(force, setter)(value)
    message = str(error.value)
    assert message.startswith(f"{force_class.__name__}.{setter}: ")
    assert "must be a length (a number of nm" in message
    assert 'is not compatible with Unit "nanometer"' in message
    assert getattr(force, "get" + setter[3:])() == before  # nothing was set


def test_length_getters_return_quantities_in_nm_like_openmm_core():
    force = CoordinationForce()
    force.setNativeQParameters(60.0, 1.5, 0.4)
    for getter, expected in [("getR0", 0.3), ("getD0", 0.0), ("getDMax", 0.0), ("getNativeQReference", 0.4),
                             ("getEffectiveDMax", 0.3 * 1e-5 ** (1 / (6 - 12)))]:
        value = getattr(force, getter)()
        assert value.unit == unit.nanometer, getter
        assert value.value_in_unit(unit.nanometer) == pytest.approx(expected, rel=1e-14), getter
    assert force.getNativeQBeta().unit == unit.nanometer**-1
    assert force.getNativeQBeta().value_in_unit(unit.nanometer**-1) == 60.0
    assert force.getNativeQLambda() == 1.5  # unitless: a plain float
    # The same convention as OpenMM's own length getters.
    assert mm.NonbondedForce().getCutoffDistance().unit == force.getR0().unit


def test_native_q_parameters_take_an_inverse_length_and_a_length():
    force = CoordinationForce()
    force.setNativeQParameters(5.0 / unit.angstrom, np.float32(1.5), 4.0 * unit.angstrom)
    assert force.getNativeQBeta().value_in_unit(unit.nanometer**-1) == pytest.approx(50.0)
    assert force.getNativeQLambda() == 1.5
    assert force.getNativeQReference().value_in_unit(unit.nanometer) == pytest.approx(0.4)
    with pytest.raises(TypeError, match=r"CoordinationForce.setNativeQParameters: beta must be an inverse length "
                                        r"\(a number of 1/nm"):
        force.setNativeQParameters(50.0 * unit.nanometer, 1.8, 0.4)
    with pytest.raises(TypeError, match="CoordinationForce.setNativeQParameters: reference must be a length"):
        force.setNativeQParameters(50.0, 1.8, 0.4 * unit.kilojoule_per_mole)


def test_infinity_still_means_no_cutoff_with_or_without_units():
    force = CoordinationForce()
    force.setDMax(float("inf"))
    assert np.isinf(force.getDMax().value_in_unit(unit.nanometer))
    force.setDMax(np.inf * unit.angstrom)
    assert np.isinf(force.getEffectiveDMax().value_in_unit(unit.nanometer))


def test_a_string_is_refused_with_what_to_pass():
    with pytest.raises(TypeError, match=r"CoordinationForce.setR0: r0 must be a length \(a number of nm, or a "
                                        r"Quantity such as 0.3\*unit.nanometer\), not str"):
        CoordinationForce().setR0("0.3")


# ---------------------------------------------------------------------------------------------------
# numpy scalars and arrays, openmm.app Atom objects
# ---------------------------------------------------------------------------------------------------


def configured(r0, n, m, d0, dmax, stretch, periodic, mode, k, atoms_a, atoms_b):
    force = CoordinationForce("0.5*k*(s-2)^2")
    force.addGlobalParameter("k", k)
    force.setMode(mode)
    force.setGroupA(atoms_a)
    force.setGroupB(atoms_b)
    force.setR0(r0)
    force.setN(n)
    force.setM(m)
    force.setD0(d0)
    force.setDMax(dmax)
    force.setStretch(stretch)
    force.setUsesPeriodicBoundaryConditions(periodic)
    return force


@pytest.mark.parametrize("case", ALL_CASES)
def test_numpy_scalars_give_the_same_force_as_python_numbers(case):
    plain = configured(0.35, 6, 10, 0.02, 1.1, True, True, CoordinationForce.Dual, 30.0, [0, 1, 2], list(range(3, 20)))
    numpy = configured(np.float32(0.35), np.int64(6), np.int32(10), np.float64(0.02), np.float16(1.1), np.bool_(True),
                       np.bool_(True), np.int64(CoordinationForce.Dual), np.float32(30.0),
                       np.array([0, 1, 2]), np.arange(3, 20, dtype=np.int32))
    # numpy float32/float16 carry their own rounding: the numbers themselves, converted exactly.
    assert numpy.getR0().value_in_unit(unit.nanometer) == float(np.float32(0.35))
    assert numpy.getDMax().value_in_unit(unit.nanometer) == float(np.float16(1.1))
    assert (numpy.getN(), numpy.getM(), numpy.getStretch(), numpy.getMode()) == (6, 10, True, CoordinationForce.Dual)
    plain.setR0(float(np.float32(0.35)))
    plain.setDMax(float(np.float16(1.1)))
    plain.setGlobalParameterDefaultValue(0, float(np.float32(30.0)))
    box = np.eye(3) * 2.5
    positions = np.random.default_rng(3).uniform(0.0, 2.5, size=(20, 3))
    results = []
    for force in (plain, numpy):
        context = make_context(make_system(20, [force], box), case)
        set_frame(context, positions, box)
        results.append(energy_and_forces(context))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_numpy_integers_work_as_indices_and_exponents():
    force = CoordinationForce()
    force.addGlobalParameter("k", np.float64(2.0))
    force.setGlobalParameterName(np.int64(0), "kappa")
    force.setGlobalParameterDefaultValue(np.int32(0), np.float32(4.0))
    assert force.getGlobalParameterName(np.int64(0)) == "kappa"
    assert force.getGlobalParameterDefaultValue(np.uint8(0)) == 4.0
    force.setSmapExponents(np.int64(3), np.int16(2))
    assert (force.getSmapA(), force.getSmapB()) == (3, 2)
    force.setSwitchingFunction(np.int64(CoordinationForce.Smap))
    assert force.getSwitchingFunction() == CoordinationForce.Smap


@pytest.mark.parametrize("setter, value, message", [
    ("setN", 6.0, "setN: n must be an integer, not float"),
    ("setN", np.float64(6), "setN: n must be an integer, not float64"),
    ("setStretch", "yes", "setStretch: stretch must be True or False, not 'yes'"),
    ("setStretch", 2, "setStretch: stretch must be True or False, not 2"),
])
@FORCE_CLASSES
def test_wrong_kinds_of_numbers_say_what_to_pass(force_class, setter, value, message):
    with pytest.raises(TypeError) as error:
        getattr(force_class(), setter)(value)
    assert str(error.value) == f"{force_class.__name__}.{message}"


def two_residue_topology():
    topology = app.Topology()
    chain = topology.addChain()
    for name in ("NA", "CL", "NA", "CL"):
        residue = topology.addResidue(name, chain)
        topology.addAtom(name, app.element.Element.getBySymbol(name.capitalize()), residue)
    return topology


def test_groups_take_openmm_app_atoms_and_numpy_arrays():
    topology = two_residue_topology()
    sodium = [atom for atom in topology.atoms() if atom.name == "NA"]
    chloride = [atom for atom in topology.atoms() if atom.name == "CL"]
    force = CoordinationForce()
    force.setGroupA(sodium)
    force.setGroupB(np.array([atom.index for atom in chloride], dtype=np.uint16))
    assert list(force.getGroupA()) == [0, 2] and list(force.getGroupB()) == [1, 3]
    force.setGroupA(topology.atoms())  # a generator of Atom objects
    assert list(force.getGroupA()) == [0, 1, 2, 3]


@pytest.mark.parametrize("atoms, message", [
    ([0, 1.5], "CoordinationForce.setGroupA: entry 1 is 1.5 (float); pass particle indices (ints, numpy integers) "
               "or openmm.app Atom objects"),
    (np.array([0.0, 1.0]), "CoordinationForce.setGroupA: entry 0 is 0.0 (float64); pass particle indices"),
    (7, "CoordinationForce.setGroupA: pass a list of particle indices (ints, a range, a numpy integer array) or of "
        "openmm.app Atom objects, not int"),
    ("0,1", "CoordinationForce.setGroupA: pass a list of particle indices"),
])
def test_groups_refuse_what_is_not_an_index_and_say_what_to_pass(atoms, message):
    with pytest.raises(TypeError) as error:
        CoordinationForce().setGroupA(atoms)
    assert str(error.value).startswith(message)


# ---------------------------------------------------------------------------------------------------
# Docstrings and messages
# ---------------------------------------------------------------------------------------------------


def test_docstrings_come_from_the_cpp_documentation_with_units_and_defaults():
    assert "Set r0, the switching function's length scale (PLUMED's R_0)" in CoordinationForce.setR0.__doc__
    assert "in nm; must be > 0" in CoordinationForce.setR0.__doc__
    assert "r0 in nm; default 0.3 nm" in CoordinationForce.getR0.__doc__
    assert "0 (the default) means automatic" in CoordinationForce.getDMax.__doc__
    assert "A bias on the coordination number of PLUMED's COORDINATION" in CoordinationForce.__doc__
    assert "PLUMED's multi-line" in CoordinationForce.fromPlumed.__doc__
    assert "PlumedInput" in CoordinationForce.fromPlumedFile.__doc__
    assert "PLUMED's file rules" in openmmcoordination.PlumedTranslator.__doc__
    assert "the caller owns it" in openmmcoordination.fromPlumed.__doc__
    assert "PlumedInput" in openmmcoordination.fromPlumedFile.__doc__
    undocumented = [name for name in dir(CoordinationForce) if not name.startswith("_")
                    and callable(getattr(CoordinationForce, name)) and not getattr(CoordinationForce, name).__doc__]
    assert undocumented == []


def test_messages_raised_to_python_use_python_spelling():
    with pytest.raises(mm.OpenMMException) as error:
        CoordinationForce().setMode(7)
    assert str(error.value) == "CoordinationForce: unknown mode 7; use CoordinationForce.Self, Dual or Pair"
    force = coordination_force(CoordinationForce.Self, [0, 1], [2], r0=0.3)
    with pytest.raises(mm.OpenMMException) as error:
        make_context(make_system(3, [force]))
    # Raised by OpenMM's Context (not through this module): written without C++ scopes.
    assert "use setMode(Dual) for A x B pairs" in str(error.value)
    assert "::" not in str(error.value)


# ---------------------------------------------------------------------------------------------------
# A CoordinationForce inside a CustomCVForce (and app.Metadynamics)
# ---------------------------------------------------------------------------------------------------

BOX = 2.0
BOX_VECTORS = np.eye(3) * BOX
POSITIONS = np.random.default_rng(11).uniform(0.0, BOX, size=(30, 3))


def collective_variable():
    return coordination_force(CoordinationForce.Dual, list(range(10)), list(range(10, 30)), periodic=True, r0=0.35,
                              dmax=0.9)


def numpy_s(r0=0.35):
    return coordination_numpy(POSITIONS, CoordinationForce.Dual, list(range(10)), list(range(10, 30)),
                              np.array([BOX] * 3), r0=r0, dmax=0.9)


@pytest.mark.parametrize("case", ALL_CASES)
def test_get_coordination_of_a_collective_variable_uses_the_inner_context(case):
    cv = collective_variable()
    outer = mm.CustomCVForce("0.5*(c-3)^2")
    outer.addCollectiveVariable("c", cv)
    context = make_context(make_system(30, [outer], BOX_VECTORS), case)
    set_frame(context, POSITIONS, BOX_VECTORS)
    assert_close(cv.getCoordination(context), numpy_s(), case, what="s of a CustomCVForce's variable")
    assert cv.getCoordination(context) == outer.getCollectiveVariableValues(context)[0]

    cv.setR0(0.4)
    cv.updateParametersInContext(context)
    assert_close(cv.getCoordination(context), numpy_s(r0=0.4), case, what="s after updateParametersInContext")
    assert_close(outer.getCollectiveVariableValues(context)[0], numpy_s(r0=0.4), case, what="the CV's value")


def test_get_coordination_finds_a_variable_of_a_nested_custom_cv_force():
    cv = collective_variable()
    inner = mm.CustomCVForce("2*c")
    inner.addCollectiveVariable("c", cv)
    outer = mm.CustomCVForce("d")
    outer.addCollectiveVariable("d", inner)
    context = make_context(make_system(30, [outer], BOX_VECTORS), REFERENCE)
    set_frame(context, POSITIONS, BOX_VECTORS)
    assert_close(cv.getCoordination(context), numpy_s(), REFERENCE, what="s two CustomCVForces down")


def test_get_coordination_of_a_metadynamics_variable():
    cv = collective_variable()
    system = make_system(30, [], BOX_VECTORS)
    variable = app.BiasVariable(cv, minValue=0.0, maxValue=20.0, biasWidth=0.5, gridWidth=41)
    meta = app.Metadynamics(system, [variable], 300 * unit.kelvin, biasFactor=5.0,
                            height=1.0 * unit.kilojoule_per_mole, frequency=10)
    simulation = app.Simulation(app.Topology(), system, mm.VerletIntegrator(0.001),
                                mm.Platform.getPlatformByName("Reference"))
    set_frame(simulation.context, POSITIONS, BOX_VECTORS)
    assert_close(cv.getCoordination(simulation.context), numpy_s(), REFERENCE, what="s of a Metadynamics variable")
    assert cv.getCoordination(simulation.context) == meta.getCollectiveVariables(simulation)[0]


def test_a_context_that_does_not_hold_the_force_names_get_collective_variable_values():
    force = collective_variable()
    other = make_context(make_system(30, [collective_variable()], BOX_VECTORS), REFERENCE)
    for method in ("getCoordination", "updateParametersInContext"):
        with pytest.raises(mm.OpenMMException) as error:
            getattr(force, method)(other)
        assert str(error.value) == (
            f"CoordinationForce.{method}: this force is not in the Context's System, nor a collective variable of a "
            "CustomCVForce in it; pass the Context of the System you added it to (for a CustomCVForce's variables, "
            "CustomCVForce.getCollectiveVariableValues(context) also gives their values)")
