"""ContactMapForce (PLUMED's CONTACTMAP) from Python: a numpy model of its definition for each reduction, forces by
finite differences, units and argument conversion, tuples from its getters, XML, pickle and copies, a CustomCVForce.
"""
import copy
import math
import pickle

import numpy as np
import openmm as mm
import openmm.app as app
import openmm.unit as unit
import pytest

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    FINITE_DIFFERENCE_RELATIVE,
    assert_close,
    energy_and_forces,
    make_context,
    make_system,
    minimum_image_rectangular,
    switching_function,
)
from openmmcoordination import ContactMapForce, CoordinationForce

BOX = 2.5
#: (particle1, particle2, r0, n, m, d0, dmax, stretch, reference, weight): Rational contacts with their own settings.
CONTACTS = [(0, 1, 0.3, 6, 0, 0.0, math.inf, True, 0.0, 1.0), (1, 2, 0.25, 5, 11, 0.05, 1.0, False, 0.2, 1.5),
            (2, 3, 0.35, 8, 14, 0.0, 1.2, True, 0.5, -0.5), (0, 4, 0.4, 6, 10, 0.1, 0.0, True, 0.1, 2.0),
            (5, 3, 0.3, 4, 0, 0.0, 1.1, True, 0.3, 0.75), (5, 5, 0.3, 6, 0, 0.0, math.inf, True, 0.25, 1.0)]
K, S0 = 4.0, 0.6


def positions(seed=3):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.0, 1.2, (6, 3))


def energy_of(reduction):
    """The energy expression of a reduction and its numpy version (E, dE/dv)."""
    if reduction == ContactMapForce.Sum:
        return "0.5*k*(s-s0)^2", lambda v: (0.5 * K * (v[0] - S0) ** 2, np.array([K * (v[0] - S0)]))
    if reduction == ContactMapForce.Distance:
        return "k*sqrt(s+s0)", lambda v: (K * math.sqrt(v[0] + S0), np.array([K / (2 * math.sqrt(v[0] + S0))]))
    terms = "+".join(f"{n % 3 + 1}*contact_{n + 1}" for n in range(len(CONTACTS)))
    coefficients = np.array([n % 3 + 1 for n in range(len(CONTACTS))], dtype=float)
    return (f"k*contact_1*contact_2+{terms}",
            lambda v: (K * v[0] * v[1] + coefficients @ v,
                       coefficients + K * np.array([v[1], v[0]] + [0.0] * (len(v) - 2))))


def contact_map(reduction, periodic):
    force = ContactMapForce(energy_of(reduction)[0], reduction)
    force.addGlobalParameter("k", K)
    force.addGlobalParameter("s0", S0)
    force.setUsesPeriodicBoundaryConditions(periodic)
    for p1, p2, r0, n, m, d0, dmax, stretch, reference, weight in CONTACTS:
        force.addContact(p1, p2, CoordinationForce.Rational, r0, d0, dmax, stretch, [n, m], reference, weight)
    return force


def numpy_contact_map(x, reduction, periodic):
    """Values, variables, energy and forces of CONTACTS by PLUMED's definitions (the rational function in numpy)."""
    values, gradients = [], []
    for p1, p2, r0, n, m, d0, dmax, stretch, reference, weight in CONTACTS:
        delta = x[p2] - x[p1]
        if periodic:
            delta = minimum_image_rectangular(delta, [BOX] * 3)
        r = float(np.linalg.norm(delta))
        sigma = float(switching_function(r, r0, n, m, d0, dmax, stretch))
        h = 1e-6  # the model's own slope: a central difference of sigma(r) (the plugin's is analytic)
        slope = (float(switching_function(r + h, r0, n, m, d0, dmax, stretch)) -
                 float(switching_function(max(r - h, 0.0), r0, n, m, d0, dmax, stretch))) / (r + h - max(r - h, 0.0))
        values.append(weight * (sigma - reference))
        gradients.append(weight * slope * delta / r if r > 0 else np.zeros(3))
    values = np.array(values)
    if reduction == ContactMapForce.Components:
        variables = values
    else:
        variables = np.array([values.sum() if reduction == ContactMapForce.Sum else (values ** 2).sum()])
    energy, dE = energy_of(reduction)[1](variables)
    forces = np.zeros_like(x)
    for k, (p1, p2, *_) in enumerate(CONTACTS):
        dcoord = dE[k] if reduction == ContactMapForce.Components else dE[0] * (
            1.0 if reduction == ContactMapForce.Sum else 2 * values[k])
        forces[p2] -= dcoord * gradients[k]
        forces[p1] += dcoord * gradients[k]
    return values, variables, energy, forces


REDUCTIONS = [ContactMapForce.Sum, ContactMapForce.Distance, ContactMapForce.Components]


@pytest.mark.parametrize("periodic", [False, True], ids=["NoPBC", "PBC"])
@pytest.mark.parametrize("reduction", REDUCTIONS, ids=["Sum", "Distance", "Components"])
@pytest.mark.parametrize("case", ALL_CASES)
def test_values_energy_and_forces_match_the_numpy_model(case, reduction, periodic):
    force = contact_map(reduction, periodic)
    context = make_context(make_system(6, [force], np.eye(3) * BOX if periodic else None), case)
    x = positions()
    context.setPositions(x)
    values, variables, energy, forces = numpy_contact_map(x, reduction, periodic)
    assert_close(np.array(force.getContactValues(context)), values, case, what="contact values")
    assert_close(np.array(force.getCollectiveVariableValues(context)), variables, case, what="variables")
    ours_energy, ours_forces = energy_and_forces(context)
    assert_close(ours_energy, energy, case, what="energy")
    # The model's slope is a finite difference: forces to 1e-6 of their largest.
    assert np.max(np.abs(ours_forces - forces)) <= 1e-6 * max(np.max(np.abs(forces)), 1.0)


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_forces_are_minus_the_gradient_of_the_energy(case):
    for reduction in REDUCTIONS:
        force = contact_map(reduction, True)
        context = make_context(make_system(6, [force], np.eye(3) * BOX), case)
        x = positions(7)
        context.setPositions(x)
        _, forces = energy_and_forces(context)
        step = 1e-5
        numeric = np.zeros_like(x)
        for i in range(len(x)):
            for axis in range(3):
                shifted = x.copy()
                shifted[i, axis] += step
                context.setPositions(shifted)
                forward = energy_and_forces(context)[0]
                shifted[i, axis] -= 2 * step
                context.setPositions(shifted)
                backward = energy_and_forces(context)[0]
                numeric[i, axis] = -(forward - backward) / (2 * step)
        deviation = np.sqrt(np.mean((forces - numeric) ** 2))
        assert deviation <= FINITE_DIFFERENCE_RELATIVE * np.sqrt(np.mean(numeric ** 2)), f"reduction {reduction}"



def test_lengths_take_quantities_and_numpy_scalars_and_refuse_other_dimensions():
    force = ContactMapForce()
    force.addContact(np.int32(0), np.int64(1), 3.0 * unit.angstrom, np.float32(0.5), np.float64(2.0))
    force.addContact(2, 3, CoordinationForce.Exponential, np.float64(0.2), 0.5 * unit.angstrom, 1.0 * unit.nanometer,
                     np.bool_(False), [], 0.0, 1.0)
    parameters = force.getContactParameters(0)
    assert parameters[:3] == (0, 1, CoordinationForce.Rational)
    assert parameters[3].value_in_unit(unit.nanometer) == pytest.approx(0.3)
    assert parameters[5] == unit.Quantity(math.inf, unit.nanometer)
    assert parameters[6:] == (True, [6.0, 12.0], 0.5, 2.0)
    second = force.getContactParameters(1)
    assert second[4].value_in_unit(unit.nanometer) == pytest.approx(0.05) and second[6] is False
    with pytest.raises(TypeError, match="ContactMapForce.addContact: r0 must be a length"):
        force.addContact(0, 1, 3.0 * unit.kilojoule_per_mole)
    with pytest.raises(TypeError, match="ContactMapForce.setContactParameters: dmax must be a length"):
        force.setContactParameters(0, 0, 1, CoordinationForce.Rational, 0.3, 0.0, 2 * unit.second, True, [6, 0], 0, 1)
    with pytest.raises(TypeError, match="ContactMapForce.addContact: particle1 must be an integer"):
        force.addContact(0.5, 1, 0.3)
    with pytest.raises(mm.OpenMMException, match="index 5 is out of range"):
        force.getContactParameters(5)


def test_centres_and_atoms_and_tuples():
    topology = app.Topology()
    residue = topology.addResidue("X", topology.addChain())
    atoms = [topology.addAtom(f"A{i}", app.element.carbon, residue) for i in range(4)]
    force = ContactMapForce()
    centre = force.addCenter(atoms[:3], CoordinationForce.WeightedCenter, np.array([1.0, 2.0, 0.5]), False)
    assert centre == -1
    force.addContact(centre, atoms[3], 0.3)
    assert force.getCenterParameters(0) == ([0, 1, 2], CoordinationForce.WeightedCenter, [1.0, 2.0, 0.5], False)
    assert force.getContactParameters(0)[:2] == (-1, 3)
    force.setCenterParameters(0, [1, 2], CoordinationForce.GeometricCenter, [], True)
    assert force.getCenterParameters(0) == ([1, 2], CoordinationForce.GeometricCenter, [], True)


def test_the_class_casts_copies_pickles_and_reads_back_from_xml():
    force = contact_map(ContactMapForce.Components, True)
    force.addCenter([0, 1], CoordinationForce.CenterOfMass)
    force.setCustomSwitchingFunction("exp(-x)")
    force.addEnergyParameterDerivative("k")
    force.setName("map")
    force.setForceGroup(3)
    system = make_system(6, [force], np.eye(3) * BOX)
    assert ContactMapForce.isinstance(system.getForce(0)) and not CoordinationForce.isinstance(system.getForce(0))
    cast = ContactMapForce.cast(system.getForce(0))
    assert type(cast) is ContactMapForce and cast.getNumContacts() == len(CONTACTS)
    xml = mm.XmlSerializer.serialize(force)
    for duplicate in (copy.copy(force), copy.deepcopy(force), pickle.loads(pickle.dumps(force)),
                      ContactMapForce.cast(mm.XmlSerializer.deserialize(xml))):
        assert type(duplicate) is ContactMapForce
        assert mm.XmlSerializer.serialize(duplicate) == xml
    with pytest.raises(mm.OpenMMException, match="not a ContactMapForce"):
        ContactMapForce.cast(mm.CustomBondForce("r"))


@pytest.mark.parametrize("case", ALL_CASES)
def test_a_loaded_system_gives_the_same_energy(case):
    force = contact_map(ContactMapForce.Distance, True)
    system = make_system(6, [force], np.eye(3) * BOX)
    copy_system = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(system))
    energies = []
    for each in (system, copy_system):
        context = make_context(each, case)
        context.setPositions(positions())
        energies.append(energy_and_forces(context)[0])
    assert energies[0] == energies[1] and energies[0] != 0.0


@pytest.mark.parametrize("case", ALL_CASES)
def test_inside_a_custom_cv_force_its_values_are_read_through_the_outer_context(case):
    force = contact_map(ContactMapForce.Sum, False)
    custom = mm.CustomCVForce("3*cm")
    custom.addCollectiveVariable("cm", force)
    context = make_context(make_system(6, [custom]), case)
    x = positions()
    context.setPositions(x)
    values, variables, energy, forces = numpy_contact_map(x, ContactMapForce.Sum, False)
    assert_close(np.array(force.getContactValues(context)), values, case, what="contact values")
    assert_close(np.array(force.getCollectiveVariableValues(context)), variables, case, what="s")
    assert_close(energy_and_forces(context)[0], 3 * energy, case, what="energy")
    force.setReduction(ContactMapForce.Distance)
    with pytest.raises(mm.OpenMMException, match="cannot change the reduction"):
        force.updateParametersInContext(context)


def test_a_bad_setting_is_refused_with_its_contact_named():
    force = ContactMapForce()
    force.addContact(0, 1, 0.3)
    force.addContact(1, 2, CoordinationForce.Rational, 0.3, 0.0, 1.0, True, [6, 6], 0.0, 1.0)
    with pytest.raises(mm.OpenMMException, match=r"ContactMapForce: contact 1 \(particles 1, 2\): .*n and m must differ"):
        make_context(make_system(3, [force]))
