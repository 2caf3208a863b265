"""Mutation fuzzing of what users hand the plugin as text: the force's own XML element (its attributes and children)
and PLUMED input. Every mutant must give a clear error (an OpenMMException with a message) or a valid force: one
that reads back from its own output and that test_property's rule holds for (a clear error at Context creation, or
the same numbers on Reference and CPU, or NaN energy and no force).

Every force class of the plugin joins through XML_SEEDS and PLUMED_SEEDS. COORDINATION_FUZZ_CASES sets the number
of mutants of each kind (default 300), COORDINATION_PROPERTY_SEED the seed.
"""
import copy
import os
import xml.etree.ElementTree as ElementTree

import numpy as np
import openmm as mm
import pytest

import openmmcoordination
from coordination_testing import PLATFORM_CASES
from openmmcoordination import ContactMapForce, CoordinationForce, CoordinationNumberForce
from test_property import SEED, check_system, is_openmm_error

CASES = int(os.environ.get("COORDINATION_FUZZ_CASES", "300"))
NUM_ATOMS = 12
JUNK = ["", "-1", "0", "1", "nan", "inf", "-inf", "1e400", "1e-320", "abc", "2147483648", "-2147483649",
        "16777217", "99999999999999999999", "0x10", " 5", "6.5", "1,2", "-0",
        # the edges of what is accepted (test_family_extremes): huge and tiny, subnormal, the largest double
        "1e300", "1e-300", "1.7e308", "5e-324", "1e-62", "48"]


def _force(energy, mode, switch, groups, **settings):
    force = (CoordinationNumberForce if "setRPower" in settings else CoordinationForce)(energy)
    force.setMode(mode)
    force.setSwitchingFunction(switch)
    force.setGroupA(groups[0])
    if mode != CoordinationForce.Self:
        force.setGroupB(groups[1])
    for name, value in settings.items():
        args = value if isinstance(value, tuple) else (value,)
        getattr(force, name)(*args)
    return force


def xml_seeds():
    parameters = _force("0.5*k*(s-s0)^2", CoordinationForce.Self, CoordinationForce.Rational, ([0, 1, 2, 3, 4, 5],),
                        setR0=0.3, setD0=0.05, setDMax=1.0, setN=8, setM=14, addGlobalParameter=("k", 10.0))
    parameters.addGlobalParameter("s0", 1.0)
    parameters.addEnergyParameterDerivative("k")
    custom = _force("s", CoordinationForce.Dual, CoordinationForce.Custom, ([0, 1, 2], [3, 4, 5, 1]),
                    setCustomSwitchingFunction="exp(-x2)", setR0=0.25, setDMax=0.9,
                    setUsesPeriodicBoundaryConditions=True)
    smap = _force("s^2", CoordinationForce.Pair, CoordinationForce.Smap, ([0, 1, 2], [3, 4, 2]),
                  setSmapExponents=(6, 4), setR0=0.3, setDMax=1.2)
    native = _force("s", CoordinationForce.Self, CoordinationForce.NativeQ, ([0, 2, 4, 6],),
                    setNativeQParameters=(50.0, 1.8, 0.3), setDMax=1.0)
    centres = _force("s", CoordinationForce.Dual, CoordinationForce.Rational, ([0, 1, 2], [3, 4, 5, 1]),
                     setR0=0.3, setDMax=1.0, setUsesPeriodicBoundaryConditions=True)
    centres.addCenter([6, 7, 8], CoordinationForce.CenterOfMass)
    centres.addCenter([9, 10, 11], CoordinationForce.WeightedCenter, [0.5, 1.0, 2.0], False)
    centres.setGroupA([-1, 0, 1])
    centres.setGroupB([-2, 3, 4, -1])
    return [parameters, custom, smap, native, centres]


def number_xml_seeds():
    """CoordinationNumberForces with every reduction type, an R power, global parameters and both modes."""
    plain = CoordinationNumberForce("0.5*k*(morethan-s0)^2 + spread")
    plain.addGlobalParameter("k", 10.0)
    plain.addGlobalParameter("s0", 1.0)
    plain.addEnergyParameterDerivative("k")
    plain.setGroupA(list(range(8)))
    plain.setR0(0.3)
    plain.setDMax(1.0)
    plain.addReduction(CoordinationNumberForce.MoreThan, "RATIONAL R_0=1.5")
    plain.addReduction(CoordinationNumberForce.Moment, "2", "spread")
    plain.addReduction(CoordinationNumberForce.Between, "GAUSSIAN LOWER=0.5 UPPER=2 SMEAR=0.5")
    dual = _force("min + max + altmin + highest - lowest", CoordinationForce.Dual, CoordinationForce.Exponential,
                  ([0, 1, 2, 3], [2, 4, 5, 6, 7]), setR0=0.2, setD0=0.05, setDMax=1.2, setRPower=1.5,
                  setUsesPeriodicBoundaryConditions=True)
    for reduction_type in (CoordinationNumberForce.Min, CoordinationNumberForce.Max, CoordinationNumberForce.AltMin):
        dual.addReduction(reduction_type, "BETA=0.5")
    dual.addReduction(CoordinationNumberForce.Highest)
    dual.addReduction(CoordinationNumberForce.Lowest)
    counted = CoordinationNumberForce("sum + mean + lessthan")
    counted.setGroupA([1, 3, 5, 7, 9])
    counted.setSwitchingFunction(CoordinationForce.Custom)
    counted.setCustomSwitchingFunction("1/(1+x2^3)")
    counted.setR0(0.35)
    counted.setDMax(0.9)
    for reduction_type, parameters in ((CoordinationNumberForce.Sum, ""), (CoordinationNumberForce.Mean, ""),
                                       (CoordinationNumberForce.LessThan, "EXP R_0=2 D_0=0.5")):
        counted.addReduction(reduction_type, parameters)
    centred = CoordinationNumberForce("sum")
    centred.setMode(CoordinationForce.Dual)
    centred.addCenter([8, 9, 10])
    centred.addCenter([0, 11], CoordinationForce.WeightedCenter, [2.0, 1.0])
    centred.setGroupA([-2, 1, 2, 3])
    centred.setGroupB([-1, 4, 5, 6, 7])
    centred.setR0(0.3)
    centred.setDMax(1.0)
    centred.addReduction(CoordinationNumberForce.Sum)
    # The extremes the reductions and the fixed point are held to (test_family_extremes).
    extreme = CoordinationNumberForce("min + max + altmin + morethan + between")
    extreme.setGroupA(list(range(6)))
    extreme.setR0(0.3)
    extreme.setDMax(1.0)
    extreme.setRPower(48)
    extreme.addReduction(CoordinationNumberForce.Min, "BETA=1e300")
    extreme.addReduction(CoordinationNumberForce.Max, "BETA=1e-300")
    extreme.addReduction(CoordinationNumberForce.AltMin, "BETA=1e300")
    extreme.addReduction(CoordinationNumberForce.MoreThan, "RATIONAL R_0=1e-62")
    extreme.addReduction(CoordinationNumberForce.Between, "GAUSSIAN LOWER=0 UPPER=1 SMEAR=1e-300")
    return [plain, dual, counted, centred, extreme]


def contact_map_xml_seeds():
    """ContactMapForces of every reduction, with contacts of several types, a centre, a Custom function, globals."""
    summed = ContactMapForce("0.5*k*(s-s0)^2")
    summed.addGlobalParameter("k", 10.0)
    summed.addGlobalParameter("s0", 1.0)
    summed.addEnergyParameterDerivative("k")
    summed.setCustomSwitchingFunction("exp(-x)")
    summed.addContact(0, 1, 0.3, 0.2, 1.5)
    summed.addContact(2, 3, CoordinationForce.Rational, 0.25, 0.05, 1.0, True, [8, 14], 0.1, 1.0)
    summed.addContact(4, 5, CoordinationForce.Custom, 0.3, 0.0, float("inf"), False, [], 0.0, -1.0)
    distance = ContactMapForce("sqrt(s)", ContactMapForce.Distance)
    distance.setUsesPeriodicBoundaryConditions(True)
    centre = distance.addCenter([0, 1, 2], CoordinationForce.WeightedCenter, [1.0, 2.0, 0.5])
    distance.addContact(centre, 6, CoordinationForce.NativeQ, 0.3, 0.0, 1.2, True, [50.0, 1.8, 0.3], 0.5, 2.0)
    distance.addContact(7, 8, CoordinationForce.Smap, 0.3, 0.1, 1.2, True, [6, 4], 0.25, 1.0)
    components = ContactMapForce("contact_1 + 2*contact_2*contact_3", ContactMapForce.Components)
    components.addCenter([9, 10], CoordinationForce.CenterOfMass, [], False)
    components.addContact(-1, 11, CoordinationForce.Cubic, 0.3, 0.1, 0.9, True, [], 0.0, 1.0)
    components.addContact(3, 9, CoordinationForce.Cosinus, 0.6, 0.0, 0.0, True, [], 0.0, 1.0)
    components.addContact(5, 5, CoordinationForce.Gaussian, 0.3, 0.0, 1.0, False, [], 0.1, 1.0)
    heavy = ContactMapForce("s")  # weights and references up to the largest double
    heavy.addContact(0, 1, 0.3, 1e308, 1e308)
    heavy.addContact(2, 3, 0.3, -1e-300, 1e-300)
    return [summed, distance, components, heavy]


#: Each force class's seeds for the fuzzers. Later classes add theirs.
XML_SEEDS = {"CoordinationForce": xml_seeds, "CoordinationNumberForce": number_xml_seeds,
             "ContactMapForce": contact_map_xml_seeds}
PLUMED_SEEDS = [
    "c: COORDINATION GROUPA=1-6 GROUPB=4-10 R_0=0.3 NN=6 MM=12 D_0=0.05 D_MAX=1.0",
    "c: COORDINATION GROUPA=1-8 SWITCH={RATIONAL R_0=0.25 D_MAX=0.9} NLIST NL_CUTOFF=1.0 NL_STRIDE=5",
    "c: COORDINATION GROUPA=1,3,5 GROUPB=2,4,6 PAIR SWITCH={SMAP R_0=0.3 A=6 B=4 D_MAX=1.2}",
    "c: COORDINATION GROUPA=1-5 SWITCH={CUSTOM R_0=0.3 FUNC=exp(-x) D_MAX=1.0} NOPBC",
    "c: COORDINATION GROUPA=2-7 GROUPB=1 SWITCH={Q BETA=50 LAMBDA=1.8 REF=0.3 D_MAX=1.0}",
    "c: COORDINATIONNUMBER SPECIES=1-8 SWITCH={RATIONAL R_0=0.3 D_MAX=1.0} MORE_THAN={EXP R_0=1.5} MEAN MOMENTS=2-3",
    "c: COORDINATIONNUMBER SPECIESA=1-4 SPECIESB=3-10 R_0=0.25 NN=8 LESS_THAN1={RATIONAL R_0=2} LESS_THAN2={EXP R_0=1} "
    "BETWEEN={GAUSSIAN LOWER=0.5 UPPER=2 SMEAR=0.5} MIN={BETA=0.5} MAX={BETA=0.5} HIGHEST LOWEST SUM",
    "c: COORDINATION_MOMENTS SPECIES=1-6 SWITCH={EXP R_0=0.2 D_MAX=1.2} R_POWER=2 ALT_MIN={BETA=2} NOPBC",
    "c1: COM ATOMS=1-3\nc2: CENTER ATOMS=4,6 WEIGHTS=1,3\n"
    "c: COORDINATION GROUPA=c1,7-9 GROUPB=c2,10-12 SWITCH={RATIONAL R_0=0.3 D_MAX=1.0}",
    "g: CENTER ATOMS=2,5 NOPBC\nc: COORDINATION GROUPA=g,1,3-4 SWITCH={EXP R_0=0.2 D_MAX=1.2}",
    "c: CONTACTMAP ATOMS1=1,2 ATOMS2=3,4 ATOMS3=5,9 SWITCH1={RATIONAL R_0=0.3 D_MAX=1.0} SWITCH2={EXP R_0=0.2 D_MAX=1.2} "
    "SWITCH3={Q R_0=0.1 BETA=50 LAMBDA=1.5 REF=0.4} REFERENCE1=0.5 REFERENCE2=0.1 WEIGHT=2 CMDIST",
    "l: COM ATOMS=1-4\nc: CONTACTMAP ATOMS1=l,5 ATOMS2=6,7 SWITCH={RATIONAL R_0=0.3 NN=8 D_MAX=1.0} REFERENCE=0.2 SUM",
    "c: COORDINATION_MOMENTS SPECIES=1-8 SWITCH={RATIONAL R_0=0.3 D_MAX=1.0} R_POWER=48 MIN={BETA=1e300} "
    "MAX={BETA=1e-300} ALT_MIN={BETA=1e300} MORE_THAN={RATIONAL R_0=1e-62} "
    "BETWEEN={GAUSSIAN LOWER=0 UPPER=1 SMEAR=4e-308}",
    "c: CONTACTMAP ATOMS1=1,2 ATOMS2=3,4 SWITCH={RATIONAL R_0=0.3 D_MAX=1.0} WEIGHT=1e308 REFERENCE=1e308 SUM",
]


def mutate_xml(text, rng):
    """One mutation of the XML: an attribute's value, an attribute removed or added, a child removed or doubled,
    or the text cut short after a tag."""
    root = ElementTree.fromstring(text)
    elements = list(root.iter())
    element = elements[rng.integers(len(elements))]
    kind = rng.integers(6)
    if kind == 5:
        # Cut after a tag: OpenMM's own XML reader (irrXML) reads past the end of text cut inside a tag.
        ends = [i + 1 for i, c in enumerate(text) if c == ">"]
        return text[:ends[rng.integers(len(ends))]]
    if kind == 0 and element.attrib:
        name = list(element.attrib)[rng.integers(len(element.attrib))]
        element.set(name, JUNK[rng.integers(len(JUNK))])
    elif kind == 1 and element.attrib:
        del element.attrib[list(element.attrib)[rng.integers(len(element.attrib))]]
    elif kind == 2:
        element.set("extra", JUNK[rng.integers(len(JUNK))])
    elif kind == 3 and len(element):
        element.remove(element[rng.integers(len(element))])
    elif len(element):
        element.append(element[rng.integers(len(element))])
    else:
        element.set("version", JUNK[rng.integers(len(JUNK))])
    return ElementTree.tostring(root, encoding="unicode")


def mutate_plumed(text, rng):
    """One mutation of a PLUMED line: a character removed or inserted, a token replaced, dropped or doubled, a
    number made extreme, or the line cut short."""
    kind = rng.integers(6)
    position = int(rng.integers(len(text)))
    if kind == 0:
        return text[:position] + text[position + 1:]
    if kind == 1:
        characters = "={},- x09e.\x00"
        inserted = characters[rng.integers(len(characters))]
        return text[:position] + inserted + text[position:]
    if kind == 2:
        return text[:position]
    tokens = text.split(" ")
    index = int(rng.integers(len(tokens)))
    if kind == 3:
        tokens.insert(index, tokens[index])
    elif kind == 4:
        del tokens[index]
    else:
        key, equals, _ = tokens[index].partition("=")
        tokens[index] = key + "=" + JUNK[rng.integers(len(JUNK))] if equals else JUNK[rng.integers(len(JUNK))]
    return " ".join(tokens)


def system_holding(force):
    system = mm.System()
    for _ in range(NUM_ATOMS):
        system.addParticle(1.0)
    system.setDefaultPeriodicBoxVectors(mm.Vec3(3, 0, 0), mm.Vec3(0, 3, 0), mm.Vec3(0, 0, 3))
    system.addForce(force)
    return system


def positions(rng):
    return rng.uniform(0.2, 2.8, (NUM_ATOMS, 3))


def other_platforms():
    return [("CPU", None)] if any(case.platform == "CPU" for case in PLATFORM_CASES) else []


def holds_the_rule(force, rng, description):
    """A valid force: it reads back from its own XML, and the property rule holds on Reference and CPU."""
    copy = type(force).cast(mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(force)))
    assert mm.XmlSerializer.serialize(copy) == mm.XmlSerializer.serialize(force), description
    return check_system(system_holding(force), positions(rng), {}, description, other_platforms())


@pytest.mark.parametrize("name", sorted(XML_SEEDS))
def test_mutated_xml_gives_a_clear_error_or_a_valid_force(name):
    rng = np.random.default_rng([SEED, 1])
    seeds = [mm.XmlSerializer.serialize(force) for force in XML_SEEDS[name]()]
    outcomes = []
    for index in range(CASES):
        text = mutate_xml(seeds[index % len(seeds)], rng)
        description = f"mutant {index} (seed {SEED}):\n{text}"
        try:
            force = mm.XmlSerializer.deserialize(text)
        except Exception as error:  # noqa: BLE001 - the type is what is being checked
            # (OpenMM's Python XmlSerializer raises ValueError itself for text with no element, or no known one.)
            openmm_front_end = isinstance(error, ValueError) and str(error) in ("Invalid input string",
                                                                                  "Unsupported object type")
            assert is_openmm_error(error) or openmm_front_end, f"{description}\n{type(error).__name__}: {error}"
            outcomes.append("refused")
            continue
        force = copy.deepcopy(getattr(openmmcoordination, name).cast(force))  # cast raises unless it read one
        outcomes.append(holds_the_rule(force, rng, description))
    assert {"refused", "values"} <= set(outcomes)


def test_mutated_plumed_input_gives_a_clear_error_or_a_valid_force():
    rng = np.random.default_rng([SEED, 2])
    outcomes = []
    for index in range(CASES):
        text = mutate_plumed(PLUMED_SEEDS[index % len(PLUMED_SEEDS)], rng)
        description = f"mutant {index} (seed {SEED}): {text!r}"
        try:
            force = openmmcoordination.fromPlumed(text)
        except Exception as error:  # noqa: BLE001
            assert is_openmm_error(error), f"{description}\n{type(error).__name__}: {error}"
            outcomes.append("refused")
            continue
        line = openmmcoordination.toPlumed(force, "c")
        again = openmmcoordination.toPlumed(openmmcoordination.fromPlumed(line), "c")
        assert again == line, f"{description}\nwrote {line!r}, which reads back as {again!r}"
        outcomes.append(holds_the_rule(force, rng, f"{description}\nread as {line!r}"))
    assert {"refused", "values"} <= set(outcomes)
