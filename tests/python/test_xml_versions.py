"""The XML formats of the forces and their version numbers, pinned by files: tests/data/xml holds one serialized force
per class and per version its reader accepts (CoordinationForce 1 to 3, CoordinationNumberForce 1 to 4,
ContactMapForce 1, SteinhardtForce 1 to 3, ShellFunctionForce 1 to 3), and tests/data/xml/expected.json the System each is evaluated in and the numbers the pre-refactor
build computed for it on the Reference platform (its "about" says how).

The rules: every such file reads (XmlSerializer.deserialize) into a force that gives those numbers on every platform
case, within the case's tolerance (coordination_testing.Tolerance). A force read from any version is written in its
class's current version (CoordinationForce 3, CoordinationNumberForce 4, ContactMapForce 1, SteinhardtForce 3,
ShellFunctionForce 3); that XML holds everything
the file held (a current-version file comes back unchanged) and reads back to the same numbers. A version outside the
accepted range is refused.
"""
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import openmm as mm
import pytest

from coordination_testing import (
    ALL_CASES,
    assert_close,
    assert_forces_close,
    case_matrix,
    energy_and_forces,
    make_context,
    require_local_step_case,
)
from openmmcoordination import (ContactMapForce, CoordinationForce, CoordinationNumberForce, ShellFunctionForce,
                                SteinhardtForce)

DATA = Path(__file__).resolve().parent.parent / "data" / "xml"
#: file name -> its class, version, System and reference numbers (expected.json's "files").
EXPECTED = json.loads((DATA / "expected.json").read_text())["files"]
#: The classes by the names the files and expected.json give them (a read force is cast to its class).
CLASSES = {"CoordinationForce": CoordinationForce, "CoordinationNumberForce": CoordinationNumberForce,
           "ContactMapForce": ContactMapForce, "SteinhardtForce": SteinhardtForce, "ShellFunctionForce": ShellFunctionForce}
#: The versions each class's reader accepts, oldest first; its writer writes the last one.
VERSIONS = {"CoordinationForce": (1, 2, 3), "CoordinationNumberForce": (1, 2, 3, 4, 5), "ContactMapForce": (1,),
            "SteinhardtForce": (1, 2, 3, 4), "ShellFunctionForce": (1, 2, 3, 4)}
FILES = sorted(EXPECTED)
CURRENT_FILES = [name for name in FILES if EXPECTED[name]["version"] == VERSIONS[EXPECTED[name]["class"]][-1]]
OLDER_FILES = [name for name in FILES if name not in CURRENT_FILES]


def require_platform_of(case, name):
    """Skip a case whose platform cannot evaluate the file's force (one with a local step runs on some platforms)."""
    if "localStep=\"0\"" not in read_text(name) and "localStep" in read_text(name):
        require_local_step_case(case)


def file_name(class_name, version):
    return f"{class_name}-v{version}.xml"


def read_text(name):
    return (DATA / name).read_text()


def current_version(class_name):
    return VERSIONS[class_name][-1]


def read_force(xml, class_name):
    """The force XmlSerializer reads from xml, cast to its class."""
    return CLASSES[class_name].cast(mm.XmlSerializer.deserialize(xml))


def evaluate(xml, entry, case):
    """The force read from xml, alone in the System entry describes, on the case's platform: its (name, force group),
    its collective variable values, the energy and forces of its force group, and {parameter: dE/dparameter} of the
    derivatives it requests."""
    system = mm.System()
    for mass in entry["system"]["masses"]:
        system.addParticle(mass)
    if entry["system"]["boxVectors"] is not None:
        system.setDefaultPeriodicBoxVectors(*[mm.Vec3(*row) for row in entry["system"]["boxVectors"]])
    system.addForce(mm.XmlSerializer.deserialize(xml))
    context = make_context(system, case)
    context.setPositions(np.array(entry["system"]["positions"], dtype=float))
    force = CLASSES[entry["class"]].cast(context.getSystem().getForce(0))
    groups = {entry["forceGroup"]}
    energy, forces = energy_and_forces(context, groups)
    all_derivatives = context.getState(getParameterDerivatives=True, groups=groups).getEnergyParameterDerivatives()
    derivatives = {name: all_derivatives[name] for name in (force.getEnergyParameterDerivativeName(i)
                                                            for i in range(force.getNumEnergyParameterDerivatives()))}
    return ((force.getName(), force.getForceGroup()), np.array(force.getCollectiveVariableValues(context), dtype=float),
            energy, forces, derivatives)


def assert_reference_numbers(xml, entry, case, what):
    """The force read from xml gives entry's reference numbers on the case (its tolerance), and keeps its name and
    force group."""
    name_and_group, values, energy, forces, derivatives = evaluate(xml, entry, case)
    assert name_and_group == (entry["name"], entry["forceGroup"]), what
    expected_values = np.array(entry["collectiveVariableValues"])
    assert values.shape == expected_values.shape, f"{what}: {len(values)} collective variables"
    assert_close(values, expected_values, case, what=f"{what}: collective variable values")
    assert_close(energy, entry["energy"], case, what=f"{what}: energy")
    assert_forces_close(forces, np.array(entry["forces"]), case, what=f"{what}: forces")
    assert sorted(derivatives) == sorted(entry["energyParameterDerivatives"]), f"{what}: requested derivatives"
    for name, value in entry["energyParameterDerivatives"].items():
        assert_close(derivatives[name], value, case, what=f"{what}: dE/d{name}")


def same_value(a, b):
    """Two attribute texts hold the same value: the same number (".3" is "0.3") or the same text."""
    try:
        return float(a) == float(b) or (math.isnan(float(a)) and math.isnan(float(b)))
    except ValueError:
        return a == b


def held_in(old, new, where):
    """Every attribute of old is in new with the same value, and every child element of old is in new, held the
    same way (a name's elements in the same order and number); new may hold attributes and elements that old lacks.
    Returns the differences found."""
    differences = []
    for attribute, value in old.attrib.items():
        if attribute not in new.attrib:
            differences.append(f"{where}: no attribute {attribute}")
        elif not same_value(value, new.attrib[attribute]):
            differences.append(f"{where}: {attribute}={new.attrib[attribute]!r}, was {value!r}")
    for tag in dict.fromkeys(child.tag for child in old):
        old_children, new_children = old.findall(tag), new.findall(tag)
        if len(old_children) != len(new_children):
            differences.append(f"{where}: {len(new_children)} <{tag}> elements, were {len(old_children)}")
            continue
        for k, (old_child, new_child) in enumerate(zip(old_children, new_children)):
            differences += held_in(old_child, new_child, f"{where}/{tag}[{k}]")
    return differences


def test_every_accepted_version_has_a_file_and_reference_numbers():
    """tests/data/xml holds exactly one file per class and per version its reader accepts, each with its entry in
    expected.json naming that class and version."""
    wanted = {file_name(class_name, version): (class_name, version)
              for class_name, versions in VERSIONS.items() for version in versions}
    assert sorted(path.name for path in DATA.glob("*.xml")) == sorted(wanted)
    assert {name: (entry["class"], entry["version"]) for name, entry in EXPECTED.items()} == wanted


@pytest.mark.parametrize("name", FILES)
def test_each_file_is_a_serialized_force_of_its_class_and_version(name):
    """A file is what XmlSerializer writes for a Force: a <Force> element whose type is the class and whose version
    is the one in its name."""
    root = ET.fromstring(read_text(name))
    entry = EXPECTED[name]
    assert (root.tag, root.get("type"), int(root.get("version"))) == ("Force", entry["class"], entry["version"])


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case, name", case_matrix(ALL_CASES, FILES))
def test_a_file_reads_into_a_force_that_gives_the_reference_numbers(case, name):
    """Reading a file of any accepted version gives a force with the stored collective variable values, energy,
    forces on every particle and energy-parameter derivatives (on every platform case, within its tolerance)."""
    require_platform_of(case, name)
    assert_reference_numbers(read_text(name), EXPECTED[name], case, name)


@pytest.mark.parametrize("name", FILES)
def test_writing_a_read_force_writes_the_current_version(name):
    """A force read from any accepted version is written in its class's current version (CoordinationForce 3,
    CoordinationNumberForce 3, ContactMapForce 1, SteinhardtForce 2, ShellFunctionForce 2)."""
    class_name = EXPECTED[name]["class"]
    force = read_force(read_text(name), class_name)
    root = ET.fromstring(mm.XmlSerializer.serialize(force))
    assert (root.tag, root.get("type"), int(root.get("version"))) == ("Force", class_name, current_version(class_name))


@pytest.mark.parametrize("name", CURRENT_FILES)
def test_a_current_version_file_is_written_back_unchanged(name):
    """Writing the force read from a current-version file gives that file's XML: the same elements and attributes with
    the same values, nothing added."""
    force = read_force(read_text(name), EXPECTED[name]["class"])
    original, written = ET.fromstring(read_text(name)), ET.fromstring(mm.XmlSerializer.serialize(force))
    assert held_in(original, written, "Force") == []
    assert held_in(written, original, "Force") == []


@pytest.mark.parametrize("name", OLDER_FILES)
def test_the_current_version_holds_everything_an_older_file_held(name):
    """Writing the force read from an older version keeps every attribute and element of that version with its value:
    a newer version only adds (the version number aside)."""
    force = read_force(read_text(name), EXPECTED[name]["class"])
    original, written = ET.fromstring(read_text(name)), ET.fromstring(mm.XmlSerializer.serialize(force))
    del original.attrib["version"], written.attrib["version"]
    assert held_in(original, written, "Force") == []


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case, name", case_matrix(ALL_CASES, FILES))
def test_the_written_xml_reads_back_to_the_reference_numbers(case, name):
    """Writing the force read from a file and reading that XML back gives the same numbers as the file."""
    require_platform_of(case, name)
    force = read_force(read_text(name), EXPECTED[name]["class"])
    assert_reference_numbers(mm.XmlSerializer.serialize(force), EXPECTED[name], case, f"{name} written and read back")


@pytest.mark.parametrize("class_name", sorted(VERSIONS))
def test_a_version_outside_the_accepted_range_is_refused(class_name):
    """A reader refuses version 0 and the version after its current one with an OpenMMException that names the
    version."""
    root = ET.fromstring(read_text(file_name(class_name, current_version(class_name))))
    for version in (0, current_version(class_name) + 1):
        root.set("version", str(version))
        with pytest.raises(mm.OpenMMException, match=f"{class_name}: cannot read XML of version {version}"):
            mm.XmlSerializer.deserialize(ET.tostring(root, encoding="unicode"))
