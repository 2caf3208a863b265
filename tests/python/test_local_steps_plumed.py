"""PLUMED's LOCAL_Q1, LOCAL_Q3, LOCAL_Q4, LOCAL_Q6 and LOCAL_AVERAGE through the translator: fromPlumedFile reads
the regtests symfunc-rt-q6, symfunc-rt-averaged-q6 and symfunc-rt-localav-test into forces whose values and
forces (with the energies of the files' RESTRAINT and BIASVALUE lines) are PLUMED's printed ones; toPlumed writes
a force with a local step as its per-atom action and the local action, which read back to the same settings; what
PLUMED cannot mean, or this translator does not read, is refused with what to write instead. The engine itself
(random systems against the long-double brute force, finite differences, the contract) is test_local_steps.py's."""
import copy

import openmm as mm
import pytest

from coordination_testing import (
    ALL_CASES,
    PLUMED_DATA,
    context_of,
    energy_and_forces,
    plumed_tolerance,
    read_colvar,
    read_dumped_forces,
    read_xyz,
    require_local_step_case,
)
import numpy as np
import openmmcoordination
from openmmcoordination import CoordinationNumberForce, PerAtomForce, SteinhardtForce, SwitchingSettings

STEINHARDT_DATA = PLUMED_DATA.parent / "plumed-steinhardt"
FRAME = read_xyz(STEINHARDT_DATA / "trajectories" / "64.xyz")[0]

#: Each regtest: its folder, the forces fromPlumedFile gives, the skipped actions, the printed values (file, field,
#: label of the force, its variable) and the energies that make forces.reference (the RESTRAINT and BIASVALUE lines).
REGTESTS = {
    "symfunc-rt-q6": dict(
        forces=["c", "q4", "q6", "w6"],
        skipped=["PRINT", "PRINT", "PRINT", "RESTRAINT", "PRINT", "BIASVALUE"],
        printed=[("colv3.reference", "w6_mean", "w6", "mean"), ("colv.reference", "q6_mean", "q6", "mean"),
                 ("colv4.reference", "q4_mean", "q4", "mean")],
        energies={"q4": "0.5*10*(mean-0.2)^2", "q6": "0.5*10*(lowest-0.2)^2", "w6": "mean"}),
    "symfunc-rt-averaged-q6": dict(
        forces=["q6", "w6"],
        skipped=["PRINT", "rr: RESTRAINT", "PRINT"],
        printed=[("colv3.reference", "w6_mean", "w6", "mean"), ("colv.reference", "q6_mean", "q6", "mean")],
        energies={"w6": "0.5*10*(mean-0.1)^2"}),
    "symfunc-rt-localav-test": dict(
        forces=["ccord", "laverage"],
        skipped=["rr: RESTRAINT", "PRINT"],
        printed=[("colv3.reference", "laverage_mean", "laverage", "mean")],
        energies={"laverage": "0.5*10*(mean-13)^2"}),
}


@pytest.mark.parametrize("case", ALL_CASES)
@pytest.mark.parametrize("regtest", sorted(REGTESTS))
def test_fromplumedfile_reads_the_regtests_local_actions_to_plumeds_printed_values_and_forces(regtest, case):
    case = require_local_step_case(case)
    expected = REGTESTS[regtest]
    read = openmmcoordination.fromPlumedFile(str(STEINHARDT_DATA / regtest / "plumed.dat"))
    assert sorted(read.forces) == expected["forces"] and read.skipped == expected["skipped"]
    forces = read.forces
    for label, force in forces.items():
        assert force.getEnergyFunction() == "0" and force.getName() == label
    biased = {label: forces[label] for label in expected["energies"]}
    for label, energy in expected["energies"].items():
        biased[label].setEnergyFunction(energy)
    printed_only = [forces[label] for label in {p[2] for p in expected["printed"]} if label not in biased]
    context = context_of(list(biased.values()) + printed_only, FRAME.positions, FRAME.box_vectors, case)
    for file, field, label, variable in expected["printed"]:
        force = forces[label]
        names = [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())]
        value = force.getCollectiveVariableValues(context)[names.index(variable)]
        printed, decimals = read_colvar(STEINHARDT_DATA / regtest / file)[field]
        assert abs(value - printed[0]) <= plumed_tolerance(decimals[0], printed[0], case), (field, value, printed[0])
    # Only the biased forces' energies are in the context's force group 0 with a nonzero energy.
    reference, _, decimals = read_dumped_forces(STEINHARDT_DATA / regtest / "forces.reference")
    _, ours = energy_and_forces(context)
    deviation = np.abs(ours[None] - reference)
    tolerance = plumed_tolerance(decimals, reference, case)
    worst = np.unravel_index(np.argmax(deviation - tolerance), deviation.shape)
    assert np.all(deviation <= tolerance), (regtest, worst, ours[worst[1:]], reference[worst])
    assert np.abs(reference).max() > 10 * 10.0**-decimals  # not flat at the printed digits


def regtest_local(regtest, label):
    return openmmcoordination.fromPlumedFile(str(STEINHARDT_DATA / regtest / "plumed.dat")).forces[label]


def test_the_local_forces_carry_their_species_settings_and_their_own_switching_function():
    w6 = regtest_local("symfunc-rt-q6", "w6")
    assert isinstance(w6, SteinhardtForce) and w6.getDegree() == 6
    assert w6.getLocalStep() == PerAtomForce.LocalDotProduct
    # q6's keyword form (D_0=3.0 R_0=1.5 NN=12: m = 2n, automatic cutoff, stretched); LOCAL_Q6's SWITCH form.
    assert w6.getSwitchingSettings() == SwitchingSettings.rational(1.5, 12, 0, 3.0, 0.0)
    assert w6.getLocalSwitchingSettings() == SwitchingSettings.rational(1.5, 6, 0, 3.0, float("inf"))
    assert list(w6.getGroupA()) == list(range(64)) and w6.usesPeriodicBoundaryConditions()
    assert [w6.getCollectiveVariableName(i) for i in range(w6.getNumCollectiveVariables())] == ["mean"]
    average = regtest_local("symfunc-rt-averaged-q6", "w6")
    assert isinstance(average, SteinhardtForce) and average.getLocalStep() == PerAtomForce.LocalAverage
    laverage = regtest_local("symfunc-rt-localav-test", "laverage")
    assert isinstance(laverage, CoordinationNumberForce) and laverage.getLocalStep() == PerAtomForce.LocalAverage
    assert laverage.getLocalSwitchingSettings() == SwitchingSettings.rational(2.0, 12, 24, 3.0, float("inf"))


def settings_xml(force):
    copy = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(force))
    copy.setName("x")
    return mm.XmlSerializer.serialize(copy)


@pytest.mark.parametrize("text, label", [
    ("q6: Q6 SPECIES=1-64 D_0=3.0 R_0=1.5 NN=12\nw6: LOCAL_Q6 SPECIES=q6 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN", "w6"),
    ("q: Q4 SPECIESA=1-10 SPECIESB=1-40 SWITCH={RATIONAL R_0=0.3 D_MAX=1}\n"
     "l: LOCAL_Q4 SPECIES=q R_0=0.4 NN=8 LOWEST MORE_THAN={RATIONAL R_0=0.5}", "l"),
    ("q: Q1 SPECIES=1-20 NOPBC SWITCH={RATIONAL R_0=0.3 D_MAX=1}\n"
     "l: LOCAL_Q1 SPECIES=q NOPBC SWITCH={EXP R_0=0.2 D_MAX=0.9} SUM", "l"),
    ("c: COORDINATION_MOMENTS SPECIES=1-30 R_POWER=2 SWITCH={RATIONAL R_0=0.3 D_MAX=1}\n"
     "a: LOCAL_AVERAGE SPECIES=c SWITCH={RATIONAL R_0=0.5 D_MAX=1.2} MEAN HIGHEST", "a"),
    ("s: TETRAHEDRAL SPECIES=1-30 SWITCH={RATIONAL R_0=0.3 D_MAX=1}\n"
     "a: LOCAL_AVERAGE SPECIES=s SWITCH={RATIONAL R_0=0.5 D_MAX=1.2} LESS_THAN={RATIONAL R_0=0.1}", "a"),
])
def test_local_actions_are_written_back_as_their_species_and_the_local_line_which_read_back_the_same(text, label):
    force = openmmcoordination.fromPlumedFile(text).forces[label]
    written = openmmcoordination.toPlumed(force, label)
    lines = written.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{label}_species: ")
    assert lines[1].startswith(f"{label}: LOCAL_") and f"SPECIES={label}_species" in lines[1]
    # fromPlumed reads the two lines back as one force (the per-atom action has no reductions of its own).
    again = openmmcoordination.fromPlumed(written)
    assert type(again) is type(force)
    assert settings_xml(again) == settings_xml(force)
    assert openmmcoordination.toPlumed(again, label) == written
    # fromPlumedFile gives both actions.
    both = openmmcoordination.fromPlumedFile(written).forces
    assert sorted(both) == sorted([label, f"{label}_species"])
    assert both[f"{label}_species"].getLocalStep() == PerAtomForce.NoLocalStep


def test_a_separate_mean_action_on_a_local_vector_is_a_reduction_named_by_its_label():
    read = openmmcoordination.fromPlumedFile(
        "q6: Q6 SPECIES=1-64 D_0=3.0 R_0=1.5 NN=12\nw6: LOCAL_Q6 SPECIES=q6 SWITCH={RATIONAL D_0=3.0 R_0=1.5}\n"
        "m: MEAN ARG=w6\nq6m: MEAN ARG=q6\n")
    w6, q6 = read.forces["w6"], read.forces["q6"]
    assert [w6.getCollectiveVariableName(i) for i in range(w6.getNumCollectiveVariables())] == ["m"]
    assert [q6.getCollectiveVariableName(i) for i in range(q6.getNumCollectiveVariables())] == ["q6m"]
    assert read.skipped == []


def test_fromplumed_reads_a_local_action_with_its_species_as_one_force_unless_the_species_is_a_force_of_its_own():
    force = openmmcoordination.fromPlumed("q6: Q6 SPECIES=1-10 D_0=3.0 R_0=1.5 NN=12\n"
                                         "w6: LOCAL_Q6 SPECIES=q6 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN")
    assert force.getName() == "w6" and force.getLocalStep() == PerAtomForce.LocalDotProduct
    with pytest.raises(mm.OpenMMException, match="2 actions that become forces"):
        openmmcoordination.fromPlumed("q6: Q6 SPECIES=1-10 D_0=3.0 R_0=1.5 NN=12 MEAN\n"
                                      "w6: LOCAL_Q6 SPECIES=q6 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN")


Q6 = "q6: Q6 SPECIES=1-10 D_0=3.0 R_0=1.5 NN=12\nc: COORDINATIONNUMBER SPECIES=1-10 R_0=1\n"


@pytest.mark.parametrize("line, message", [
    ("w: LOCAL_Q6 SWITCH={RATIONAL R_0=1} MEAN", "SPECIES=label of a Q6 action is required"),
    ("w: LOCAL_Q6 SPECIES=q7 SWITCH={RATIONAL R_0=1} MEAN", "SPECIES=q7 names no Q6 action before this line"),
    ("w: LOCAL_Q4 SPECIES=q6 SWITCH={RATIONAL R_0=1} MEAN", "SPECIES=q6 is a Q6 action; LOCAL_Q4 reads the vectors of a Q4"),
    ("w: LOCAL_Q6 SPECIES=c SWITCH={RATIONAL R_0=1} MEAN", "SPECIES=c is a COORDINATIONNUMBER action"),
    ("w: LOCAL_Q6 SPECIESA=q6 SWITCH={RATIONAL R_0=1} MEAN", "SPECIESA needs SPECIESB"),
    ("w: LOCAL_Q6 SPECIES=q6 SPECIESB=q6 SWITCH={RATIONAL R_0=1} MEAN", "SPECIES and SPECIESA/SPECIESB are two forms"),
    ("w: LOCAL_Q6 SPECIES=q6,q6 SWITCH={RATIONAL R_0=1} MEAN", "SPECIES=q6,q6 lists several actions"),
    ("q6b: Q6 SPECIESA=11-12 SPECIESB=1-10 D_0=3.0 R_0=1.4 NN=12\n"
     "w: LOCAL_Q6 SPECIESA=q6 SPECIESB=q6b SWITCH={RATIONAL R_0=1} MEAN", "differ in more than their atoms"),
    ("q6b: Q6 SPECIESA=11-12 SPECIESB=1-10 D_0=3.0 R_0=1.5 NN=12 NOPBC\n"
     "w: LOCAL_Q6 SPECIESA=q6 SPECIESB=q6b SWITCH={RATIONAL R_0=1} MEAN", "differ in more than their atoms"),
    ("q6b: Q6 SPECIESA=11-12 SPECIESB=1-10 D_0=3.0 R_0=1.5 NN=12\n"
     "w: LOCAL_AVERAGE SPECIESA=q6 SPECIESB=q6b SWITCH={RATIONAL R_0=1} MEAN", "i-th atom of SPECIESB"),
    ("w: LOCAL_Q6 SPECIESA=q6 SPECIESB=c SWITCH={RATIONAL R_0=1} MEAN", "SPECIESB=c is a COORDINATIONNUMBER action"),
    ("w: LOCAL_AVERAGE SPECIES=q6 NOPBC SWITCH={RATIONAL R_0=1} MEAN", "NOPBC here but not in SPECIES=q6"),
    ("w: LOCAL_AVERAGE SPECIES=q6 SWITCH={RATIONAL R_0=1} MEAN\nv: LOCAL_AVERAGE SPECIES=w SWITCH={RATIONAL R_0=1}",
     "SPECIES=w is itself a local action"),
    ("w: LOCAL_AVERAGE SPECIES=q6 SWITCH={RATIONAL R_0=-1} MEAN", "R_0|r0"),
    ("w: LOCAL_AVERAGE SPECIES=c SWITCH={RATIONAL R_0=1} MEAN FOO=1", "FOO"),
    ("w: LOCAL_Q6 SPECIES=q6 SWITCH={RATIONAL R_0=1} VMEAN", "VMEAN"),
])
def test_local_lines_plumed_cannot_mean_or_we_do_not_read_are_refused(line, message):
    with pytest.raises(mm.OpenMMException, match=message):
        openmmcoordination.fromPlumedFile(Q6 + line)


def test_to_plumed_refuses_what_a_context_would_refuse():
    force = SteinhardtForce(6)
    force.setGroupA(range(10))
    force.setLocalStep(PerAtomForce.LocalDotProduct)
    force.setLocalSwitchingSettings(SwitchingSettings.rational(-1.0))
    with pytest.raises(mm.OpenMMException, match="toPlumed cannot write .*local step's switching function"):
        openmmcoordination.toPlumed(force, "w")
    numbers = CoordinationNumberForce()
    numbers.setGroupA(range(10))
    numbers.setLocalStep(PerAtomForce.LocalDotProduct)
    with pytest.raises(mm.OpenMMException, match="LocalDotProduct"):
        openmmcoordination.toPlumed(numbers, "w")


#: SPECIESA/SPECIESB forms: (text, label of the local action, its central atoms, its neighbours, their own partners
#: (0-based; () for the force's own)); the first is the example of PLUMED's LOCAL_Q1 documentation, the last that of
#: its LOCAL_AVERAGE documentation (atoms 1-5 count neighbours among 1-5, atoms 1-64 among 1-64).
NEIGHBOR_INPUTS = [
    ("q1a: Q1 SPECIESA=1-5 SPECIESB=1-64 D_0=1.3 R_0=0.2\nq1b: Q1 SPECIESA=6-64 SPECIESB=1-64 D_0=1.3 R_0=0.2\n"
     "w1: LOCAL_Q1 SPECIESA=q1a SPECIESB=q1b SWITCH={RATIONAL D_0=1.3 R_0=0.2} MEAN", "w1", range(5), range(5, 64),
     ()),
    ("q6a: Q6 SPECIES=1-40 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6}\n"
     "q6b: Q6 SPECIESA=41-64,3 SPECIESB=1-40 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6}\n"
     "w6: LOCAL_Q6 SPECIESA=q6a SPECIESB=q6b SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6} LOWEST MEAN", "w6", range(40),
     list(range(40, 64)) + [2], ()),
    ("a: COORDINATIONNUMBER SPECIESA=1-30 SPECIESB=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6}\n"
     "b: COORDINATIONNUMBER SPECIESA=31-64 SPECIESB=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6}\n"
     "l: LOCAL_AVERAGE SPECIESA=a SPECIESB=b SWITCH={RATIONAL D_0=3.0 R_0=2.0 D_MAX=6} MEAN", "l", range(30),
     range(30, 64), ()),
    ("q6a: Q6 SPECIES=1-40 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6}\n"
     "q6b: Q6 SPECIESA=41-64,3 SPECIESB=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6}\n"
     "w6: LOCAL_Q6 SPECIESA=q6a SPECIESB=q6b SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6} MEAN", "w6", range(40),
     list(range(40, 64)) + [2], range(64)),
    ("d1a: COORDINATIONNUMBER SPECIES=1-5 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6.0}\n"
     "d1b: COORDINATIONNUMBER SPECIES=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6.0}\n"
     "la: LOCAL_AVERAGE SPECIESA=d1a SPECIESB=d1b SWITCH={RATIONAL D_0=3.0 R_0=1.5 D_MAX=6.0} MEAN", "la", range(5),
     range(64), range(64)),
]


@pytest.mark.parametrize("text, label, central, neighbors, partners", NEIGHBOR_INPUTS,
                         ids=["LOCAL_Q1", "LOCAL_Q6", "LOCAL_AVERAGE", "LOCAL_Q6 partners", "LOCAL_AVERAGE partners"])
def test_speciesa_and_speciesb_read_as_local_neighbors_and_write_back(text, label, central, neighbors, partners):
    """SPECIESA=a SPECIESB=b: a's force with b's central atoms as its local neighbours and, where b pairs them with
    other atoms than a pairs its own with, those as their partners (on the 64-atom frame its values differ from
    those of a's force alone; test_local_steps.py checks them against the brute force); toPlumed writes the two
    per-atom actions and the local line, which read back to the same settings."""
    read = openmmcoordination.fromPlumedFile(text)
    force = read.forces[label]
    assert list(force.getGroupA()) == list(central) and list(force.getLocalNeighbors()) == list(neighbors)
    assert list(force.getLocalNeighborPartners()) == list(partners)
    alone = copy.deepcopy(force)
    alone.setLocalNeighbors([])
    alone.setLocalNeighborPartners([])
    mine = copy.deepcopy(force)  # (a System owns the force it holds: toPlumed below reads the one fromPlumedFile gave)
    values = mine.getPerAtomValues(context_of(mine, FRAME.positions, FRAME.box_vectors))
    plain = alone.getPerAtomValues(context_of(alone, FRAME.positions, FRAME.box_vectors))
    assert np.all(np.isfinite(values)) and np.abs(np.array(values) - plain).max() > 1e-3
    written = openmmcoordination.toPlumed(force, label)
    lines = written.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"{label}_species", f"{label}_neighbors", label]
    assert f"SPECIESA={label}_species SPECIESB={label}_neighbors" in lines[2]
    again = openmmcoordination.fromPlumed(written)
    assert settings_xml(again) == settings_xml(force)
    assert openmmcoordination.toPlumed(again, label) == written


def test_speciesa_and_speciesb_of_one_action_are_the_species_form():
    same = openmmcoordination.fromPlumedFile(Q6 + "w: LOCAL_Q6 SPECIESA=q6 SPECIESB=q6 SWITCH={RATIONAL R_0=1} MEAN")
    species = openmmcoordination.fromPlumedFile(Q6 + "w: LOCAL_Q6 SPECIES=q6 SWITCH={RATIONAL R_0=1} MEAN")
    assert same.forces["w"].getLocalNeighbors() == ()
    assert settings_xml(same.forces["w"]) == settings_xml(species.forces["w"])


def test_to_plumed_refuses_a_local_average_of_vectors_with_local_neighbors():
    force = SteinhardtForce(6)
    force.setGroupA(range(10))
    force.setLocalStep(PerAtomForce.LocalAverage)
    force.setLocalNeighbors(range(10, 20))
    with pytest.raises(mm.OpenMMException, match="i-th atom of SPECIESB"):
        openmmcoordination.toPlumed(force, "w")
    force.setLocalStep(PerAtomForce.NoLocalStep)
    with pytest.raises(mm.OpenMMException, match="local neighbours.*setLocalStep"):
        openmmcoordination.toPlumed(force, "w")
