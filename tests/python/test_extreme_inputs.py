"""Settings at their extremes, from Python: each is refused with an OpenMMException that names it, its value and
what is allowed (never a crash, never garbage), and a CoordinationForce reached through a System keeps that System
alive.

Each case runs in a child process as well, where a crash would show as the child's exit status instead of
taking the test run down with it.
"""
import gc
import subprocess
import sys
import textwrap

import openmm as mm
import pytest

import openmmcoordination
from openmmcoordination import CoordinationForce

MAX_EXPONENT = 16777216


def system_with_force(particles=4):
    system = mm.System()
    for _ in range(particles):
        system.addParticle(1.0)
    system.addForce(mm.CustomBondForce("r"))
    force = CoordinationForce("s")
    force.setGroupA(list(range(particles)))
    system.addForce(force)
    return system


def run_child(code):
    """Runs code in a fresh interpreter; returns (exit status, output)."""
    child = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    return child.returncode, child.stdout + child.stderr


# ---------------------------------------------------------------------------------------------------
# 1. A cast keeps what it points into alive
# ---------------------------------------------------------------------------------------------------


def test_a_cast_of_a_force_of_a_deserialized_system_keeps_the_system_alive():
    status, output = run_child("""
        import gc
        import openmm as mm
        import openmmcoordination
        from openmmcoordination import CoordinationForce
        system = mm.System()
        for _ in range(4):
            system.addParticle(1.0)
        system.addForce(mm.CustomBondForce("r"))
        force = CoordinationForce("s")
        force.setGroupA([0, 1, 2, 3])
        system.addForce(force)
        xml = mm.XmlSerializer.serialize(system)
        for i in range(200):
            cast = CoordinationForce.cast(mm.XmlSerializer.deserialize(xml).getForce(1))
            clutter = [mm.CustomBondForce("q" * 64) for _ in range(20)]
            gc.collect()
            assert list(cast.getGroupA()) == [0, 1, 2, 3], (i, list(cast.getGroupA()))
        print("ok")
    """)
    assert status == 0 and "ok" in output, output


def test_a_cast_outlives_the_system_it_was_taken_from():
    system = system_with_force()
    cast = CoordinationForce.cast(system.getForce(1))
    del system
    gc.collect()
    clutter = [CoordinationForce("q" * 64) for _ in range(20)]  # would reuse the System's memory
    assert list(cast.getGroupA()) == [0, 1, 2, 3]
    assert cast.getEnergyFunction() == "s"
    del clutter


def test_a_cast_of_a_collective_variable_keeps_the_custom_cv_force_alive():
    def cast_of_variable():
        cv = mm.CustomCVForce("c")
        force = CoordinationForce("s")
        force.setGroupA([0, 1, 2])
        cv.addCollectiveVariable("c", force)
        return CoordinationForce.cast(cv.getCollectiveVariable(0))
    cast = cast_of_variable()
    gc.collect()
    clutter = [CoordinationForce("q" * 64) for _ in range(20)]
    assert list(cast.getGroupA()) == [0, 1, 2]
    del clutter


def test_the_translators_forces_are_owned_by_their_python_objects():
    force = openmmcoordination.fromPlumed("c: COORDINATION GROUPA=1-3 R_0=0.3")
    assert force.thisown
    assert CoordinationForce.fromPlumed("c: COORDINATION GROUPA=1-3 R_0=0.3").thisown
    forces = openmmcoordination.fromPlumedFile("c: COORDINATION GROUPA=1-3 R_0=0.3\n").forces
    assert all(read.thisown for read in forces.values())


# ---------------------------------------------------------------------------------------------------
# 5. Integer settings have bounds, enforced by their setters
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2**31 - 1, 1500000000, MAX_EXPONENT + 1, 0, -2])
def test_set_n_refuses_a_value_outside_1_to_max_exponent(n):
    force = CoordinationForce()
    with pytest.raises(mm.OpenMMException, match=r"CoordinationForce\.setN: the exponent n must be >= 1 and "
                                                 r"<= 16777216 .*got %d" % n):
        force.setN(n)
    assert force.getN() == 6 and force.getEffectiveM() == 12


@pytest.mark.parametrize("m", [2**31 - 1, MAX_EXPONENT + 1, -1])
def test_set_m_refuses_a_value_outside_0_to_max_exponent(m):
    force = CoordinationForce()
    with pytest.raises(mm.OpenMMException, match=r"setM: the exponent m must be >= 0 \(0 means 2n\) and <= 16777216"):
        force.setM(m)


def test_the_largest_exponents_are_accepted_and_twice_n_fits():
    force = CoordinationForce()
    assert CoordinationForce.MaxExponent == MAX_EXPONENT
    force.setN(MAX_EXPONENT)
    assert force.getEffectiveM() == 2 * MAX_EXPONENT
    force.setSmapExponents(MAX_EXPONENT, MAX_EXPONENT)
    assert (force.getSmapA(), force.getSmapB()) == (MAX_EXPONENT, MAX_EXPONENT)


@pytest.mark.parametrize("setter", ["setN", "setM"])
@pytest.mark.parametrize("value", [2**31, 2**40, -2**31 - 1])
def test_an_exponent_beyond_a_cpp_int_is_an_openmm_exception_naming_it(setter, value):
    with pytest.raises(mm.OpenMMException, match=r"CoordinationForce\.%s: [nm] = %d is out of range; use [01] to "
                                                 r"16777216" % (setter, value)):
        getattr(CoordinationForce(), setter)(value)


def test_set_smap_exponents_refuses_a_value_outside_1_to_max_exponent():
    force = CoordinationForce()
    with pytest.raises(mm.OpenMMException, match="a must be >= 1 .* got 0"):
        force.setSmapExponents(0, 2)
    with pytest.raises(mm.OpenMMException, match="b must be >= 1 .* got -1"):
        force.setSmapExponents(6, -1)
    with pytest.raises(mm.OpenMMException, match="b = 4294967296 is out of range"):
        force.setSmapExponents(6, 2**32)


@pytest.mark.parametrize("atom", [2**31, 2**40, -2**31 - 1])
def test_an_atom_index_beyond_a_cpp_int_names_the_entry(atom):
    with pytest.raises(mm.OpenMMException, match=r"setGroupA: entry 1 is particle index %d, which is out of range"
                                                 % atom):
        CoordinationForce().setGroupA([0, atom])


@pytest.mark.parametrize("atom", [-1, 4, 2**31 - 1, -2**31])
def test_an_atom_index_outside_the_system_is_refused_naming_the_atom(atom):
    system = system_with_force()
    force = CoordinationForce.cast(system.getForce(1))
    force.setGroupA([0, atom])
    # (A negative entry stands for a centre: the message says there is no such centre.)
    middle = ", but" if atom >= 0 else r", which is not the id of a centre of this force \(it has 0 centres\).*"
    with pytest.raises(mm.OpenMMException, match=r"group A entry 1 is atom index %d%s the System has 4 particles; "
                                                 r"use indices 0 to 3" % (atom, middle)):
        mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName("Reference"))


def test_xml_with_an_out_of_range_exponent_is_refused_when_read():
    xml = mm.XmlSerializer.serialize(system_with_force())
    assert ' n="6"' in xml
    with pytest.raises(mm.OpenMMException, match=r"cannot read the XML's n: .*<= 16777216.*got 2147483647"):
        mm.XmlSerializer.deserialize(xml.replace(' n="6"', ' n="2147483647"'))
    with pytest.raises(mm.OpenMMException, match=r"the XML's n is \"99999999999\", which is not an integer"):
        mm.XmlSerializer.deserialize(xml.replace(' n="6"', ' n="99999999999"'))


# ---------------------------------------------------------------------------------------------------
# 8. PLUMED input is checked when read; indices out of range are OpenMMExceptions
# ---------------------------------------------------------------------------------------------------

#: PLUMED input -> a phrase its message must hold (besides "PLUMED input:" and the quoted action).
BAD_PLUMED = {
    "c: COORDINATION GROUPA=1-4 R_0=0.3 D_0=-1": "D_0=-1 must be >= 0",
    "c: COORDINATION GROUPA=1-4 R_0=0.3 NN=6 MM=6": "NN=6 and MM=6 must differ",
    "c: COORDINATION GROUPA=1-4 SWITCH={CUSTOM FUNC=garbage(( R_0=0.3}": 'function "garbage((" cannot be parsed',
    "c: COORDINATION GROUPA=1-4 R_0=0.3 NN=2147483647": "NN=2147483647 is out of range; use an integer from 1 to "
                                                        "16777216",
    "c: COORDINATION GROUPA=1-4 R_0=0.3 NN=1500000000": "NN=1500000000 is out of range",
    "c: COORDINATION GROUPA=-3 R_0=0.3": "GROUPA: -3 is a negative atom number; PLUMED numbers atoms from 1",
    "c: COORDINATION GROUPA=1,99999999999 R_0=0.3": "GROUPA=99999999999 is out of range",
    "c: COORDINATION GROUPA=1-4 SWITCH={SMAP R_0=0.3 A=0 B=2}": "A=0 is out of range",
    "c: COORDINATION GROUPA=1-3 GROUPB=4,5 PAIR R_0=0.3": "GROUPA has 3 atoms and GROUPB has 2",
    "c: COORDINATION GROUPA=1-2000000000 R_0=0.3": "GROUPA: 1-2000000000 makes the group 2000000000 atoms long; a "
                                                   "group may list at most 100000000 atoms",
    "c: COORDINATION GROUPA=1-60000000,1-60000000 R_0=0.3": "makes the group 120000000 atoms long",
}


@pytest.mark.parametrize("line", list(BAD_PLUMED))
def test_plumed_input_the_force_would_refuse_is_refused_when_read(line):
    for read in (openmmcoordination.fromPlumed, CoordinationForce.fromPlumed,
                 lambda text: openmmcoordination.fromPlumedFile(text + "\n")):
        with pytest.raises(mm.OpenMMException) as error:
            read(line)
        message = str(error.value)
        assert message.startswith("PLUMED input: ") and BAD_PLUMED[line] in message, message
        assert message.endswith('(in "%s")' % line), message


def test_to_plumed_refuses_settings_that_would_not_read_back():
    force = CoordinationForce()
    force.setGroupA([0, 1, 2])
    force.setD0(-1.0)
    with pytest.raises(mm.OpenMMException, match=r"PLUMED input: toPlumed cannot write this force .*d0 must be"):
        force.toPlumed("c")
    force.setD0(0.0)
    force.setM(6)
    with pytest.raises(mm.OpenMMException, match="n and m must differ"):
        openmmcoordination.toPlumed(force, "c")


@pytest.mark.parametrize("text,position", [("\0", 0), ("c: COORDINATION GROUPA=1-4\0 R_0=0.3", 26)])
def test_a_nul_byte_in_plumed_input_is_named_with_its_position(text, position):
    for read in (openmmcoordination.fromPlumed, openmmcoordination.fromPlumedFile):
        with pytest.raises(mm.OpenMMException, match="PLUMED input: a NUL byte at position %d " % position):
            read(text)


INDEXED = {
    "getGlobalParameterName": lambda f, i: f.getGlobalParameterName(i),
    "setGlobalParameterName": lambda f, i: f.setGlobalParameterName(i, "q"),
    "getGlobalParameterDefaultValue": lambda f, i: f.getGlobalParameterDefaultValue(i),
    "setGlobalParameterDefaultValue": lambda f, i: f.setGlobalParameterDefaultValue(i, 2.0),
}


@pytest.mark.parametrize("method", list(INDEXED))
@pytest.mark.parametrize("index", [7, 1, -1])
def test_a_global_parameter_index_out_of_range_names_the_index_and_the_range(method, index):
    force = CoordinationForce("k*s")
    force.addGlobalParameter("k", 1.0)
    with pytest.raises(mm.OpenMMException, match=r"CoordinationForce\.%s: index %d is out of range; this force has 1 "
                                                 r"global parameter \(use an index from 0 to 0\)" % (method, index)):
        INDEXED[method](force, index)
    assert force.getGlobalParameterName(0) == "k" and force.getGlobalParameterDefaultValue(0) == 1.0


def test_an_index_beyond_a_cpp_int_is_an_openmm_exception():
    force = CoordinationForce("k*s")
    force.addGlobalParameter("k", 1.0)
    with pytest.raises(mm.OpenMMException, match=r"getGlobalParameterName: index = 1099511627776 is out of range; use "
                                                 r"an index from 0 to getNumGlobalParameters\(\) - 1"):
        force.getGlobalParameterName(2**40)


def test_an_energy_parameter_derivative_index_out_of_range_names_the_index():
    force = CoordinationForce("k*s")
    force.addGlobalParameter("k", 1.0)
    with pytest.raises(mm.OpenMMException, match=r"getEnergyParameterDerivativeName: index 0 is out of range; this "
                                                 r"force has no energy parameter derivatives"):
        force.getEnergyParameterDerivativeName(0)
    force.addEnergyParameterDerivative("k")
    with pytest.raises(mm.OpenMMException, match=r"index 3 is out of range; this force has 1 energy parameter "
                                                 r"derivative \(use an index from 0 to 0\)"):
        force.getEnergyParameterDerivativeName(3)


def test_every_extreme_input_is_an_exception_in_a_child_process_too():
    """The same inputs in a fresh interpreter: a crash (a negative exit status) fails here, not the run."""
    status, output = run_child("""
        import openmm as mm
        import openmmcoordination
        from openmmcoordination import CoordinationForce
        attempts = [
            lambda: CoordinationForce().setN(2**31 - 1),
            lambda: CoordinationForce().setM(2**40),
            lambda: CoordinationForce().getGlobalParameterName(7),
            lambda: CoordinationForce().setGlobalParameterDefaultValue(-1, 1.0),
            lambda: CoordinationForce().getEnergyParameterDerivativeName(0),
            lambda: openmmcoordination.fromPlumed("c: COORDINATION GROUPA=1-4 R_0=0.3 D_0=-1"),
            lambda: openmmcoordination.fromPlumed("\\0"),
        ]
        for attempt in attempts:
            try:
                attempt()
            except mm.OpenMMException as error:
                assert str(error), "an empty message"
            else:
                raise AssertionError("accepted")
        print("ok")
    """)
    assert status == 0 and "ok" in output, output


def test_an_expression_with_a_part_that_is_not_a_number_is_refused_not_a_hang():
    """Lepton's optimize() never returns for an expression with a constant part that is NaN (0/0, inf - inf,
    sqrt(-1)), nor for the derivative of a function that simplifies to a constant infinity (1/(x-x)): every
    expression the plugin simplifies is refused at Context creation with a message that names the part. In a child
    process with a time limit, so that a hang fails here instead of stopping the run."""
    status, output = run_child("""
        import openmm as mm
        from openmmcoordination import CoordinationForce, CoordinationNumberForce, ShellFunctionForce

        def coordination(energy="s", custom=None):
            force = CoordinationForce(energy)
            force.setGroupA([0, 1, 2])
            if custom is not None:
                force.setSwitchingFunction(CoordinationForce.Custom)
                force.setCustomSwitchingFunction(custom)
            return force

        def shell(function):
            force = ShellFunctionForce(ShellFunctionForce.Custom, "mean")
            force.setCustomFunction(function)
            force.addReduction(ShellFunctionForce.Mean)
            force.setGroupA([0, 1, 2])
            return force

        def numbers(energy):
            force = CoordinationNumberForce(energy)
            force.addReduction(CoordinationNumberForce.Mean)
            force.setGroupA([0, 1, 2])
            return force

        cases = [coordination("s+0/0"), coordination("select(s, 1, sqrt(-1))"), coordination(custom="1/(1+x^6)+0/0"),
                 coordination(custom="exp(-x)*(1/0-1/0)"), shell("1/(x-x)"), shell("x*(0/0)"), numbers("mean*(0/0)")]
        for force in cases:
            system = mm.System()
            for _ in range(3):
                system.addParticle(1.0)
            system.addForce(force)
            try:
                mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName("Reference"))
            except mm.OpenMMException as error:
                assert "not a number" in str(error), str(error)
            else:
                raise AssertionError(f"accepted: {force.getEnergyFunction()}")
        print("ok")
    """)
    assert status == 0 and "ok" in output, output
