"""Centres (PLUMED's COM and CENTER virtual atoms) from Python: the API as OpenMM users write it (numpy arguments, the
tuple of getCenterParameters, the enum values on the class, docstrings), s, energy and forces against a numpy model
that computes each centre the PLUMED way (the group made whole atom by atom, then the weighted mean) on every
platform case, and the centres' trip through XML, pickle and copy."""
import copy
import pickle

import numpy as np
import openmm as mm
import pytest

from coordination_testing import (ALL_CASES, FINITE_DIFFERENCE_RELATIVE, assert_close, assert_forces_close,
                                  coordination_numpy, energy_and_forces, make_context, minimum_image_rectangular,
                                  require_case, switching_function)
from openmmcoordination import CoordinationForce, CoordinationNumberForce

BOX = np.array([2.4, 2.7, 3.0])
NUM_PARTICLES = 20
MASSES = 1.0 + 2.5 * (np.arange(NUM_PARTICLES) % 4) + 0.125 * np.arange(NUM_PARTICLES)
R0, DMAX = 0.6, 1.1

#: (particles, weighting, weights, makeWhole) of each centre of the test force.
CENTERS = [([0, 1, 2, 3], CoordinationForce.CenterOfMass, [], True),
           ([4, 5, 6], CoordinationForce.WeightedCenter, [0.5, 2.0, 1.25], False),
           ([7, 8], CoordinationForce.GeometricCenter, [], True)]
GROUP_A = [-1, 9, 10, -3]
GROUP_B = [-2, 11, 12, 13, 14, 15, 16, 17, 18, 19, 9]


def center_weights(particles, weighting, weights, masses=MASSES):
    if weighting == CoordinationForce.CenterOfMass:
        return masses[particles]
    if weighting == CoordinationForce.WeightedCenter:
        return np.asarray(weights, dtype=float)
    return np.ones(len(particles))


def plumed_center(positions, particles, weighting, weights, make_whole, box=BOX, masses=MASSES):
    """The centre PLUMED computes: each particle at the minimum image of the one placed before it, then the mean."""
    placed = [positions[particles[0]]]
    for particle in particles[1:]:
        step = positions[particle] - placed[-1]
        placed.append(placed[-1] + (minimum_image_rectangular(step, box) if make_whole else step))
    w = center_weights(particles, weighting, weights, masses)
    return np.sum(w[:, None] * np.array(placed), axis=0) / np.sum(w)


def explicit(positions, centres=CENTERS, group_a=GROUP_A, group_b=GROUP_B, box=BOX, masses=MASSES):
    """The particles' positions followed by the centres', and the groups over them (centre k: particle count + k)."""
    extended = np.vstack([positions] + [plumed_center(positions, *center, box=box, masses=masses)[None, :]
                                        for center in centres])

    def member(entry):
        return entry if entry >= 0 else len(positions) + (-1 - entry)
    return extended, [member(a) for a in group_a], [member(b) for b in group_b]


def numpy_coordination(positions, centres=CENTERS, group_a=GROUP_A, group_b=GROUP_B, box=BOX, masses=MASSES):
    """s of the Dual force over the groups, the centres computed the PLUMED way (explicit)."""
    extended, members_a, members_b = explicit(positions, centres, group_a, group_b, box, masses)
    return coordination_numpy(extended, CoordinationForce.Dual, members_a, members_b, box, r0=R0, dmax=DMAX)


def numpy_forces(positions, step=1e-6):
    """-dE/dx of E = s by central differences of the numpy model (independent of any derivative code)."""
    forces = np.zeros_like(positions)
    for i in range(len(positions)):
        for axis in range(3):
            displaced = positions.copy()
            displaced[i, axis] += step
            forward = numpy_coordination(displaced)
            displaced[i, axis] -= 2 * step
            forces[i, axis] = -(forward - numpy_coordination(displaced)) / (2 * step)
    return forces


def centre_force():
    force = CoordinationForce("s")
    force.setMode(CoordinationForce.Dual)
    force.setR0(R0)
    force.setDMax(DMAX)
    force.setUsesPeriodicBoundaryConditions(True)
    for k, (particles, weighting, weights, whole) in enumerate(CENTERS):
        assert force.addCenter(np.array(particles), np.int32(weighting), np.array(weights), np.bool_(whole)) == -1 - k
    force.setGroupA(np.array(GROUP_A))
    force.setGroupB(GROUP_B)
    return force


def dual_with_centres(force, centres=CENTERS, group_a=GROUP_A, group_b=GROUP_B):
    """A Dual force of the tests' switching function, periodic, with the centres and the groups (plain arguments)."""
    force.setMode(CoordinationForce.Dual)
    force.setR0(R0)
    force.setDMax(DMAX)
    force.setUsesPeriodicBoundaryConditions(True)
    for particles, weighting, weights, whole in centres:
        force.addCenter(particles, weighting, weights, whole)
    force.setGroupA(group_a)
    force.setGroupB(group_b)
    return force


def centre_system(force, masses=MASSES, box=BOX):
    system = mm.System()
    for mass in masses:
        system.addParticle(float(mass))
    system.setDefaultPeriodicBoxVectors(mm.Vec3(box[0], 0, 0), mm.Vec3(0, box[1], 0), mm.Vec3(0, 0, box[2]))
    system.addForce(force)
    return system


def straddling_positions(seed):
    """Random positions in the box, with centre 0's particles straddling its corner (only a whole centre is near them)."""
    rng = np.random.default_rng(seed)
    positions = rng.uniform(0, 1, (NUM_PARTICLES, 3)) * BOX
    cluster = rng.uniform(-0.15, 0.15, (4, 3))
    positions[:4] = np.where(cluster < 0, cluster + BOX, cluster)
    return positions


def test_the_api_takes_numpy_arguments_and_returns_a_tuple():
    force = centre_force()
    assert force.getNumCenters() == 3
    assert force.getCenterParameters(np.int64(1)) == ([4, 5, 6], CoordinationForce.WeightedCenter, [0.5, 2.0, 1.25],
                                                      False)
    particles, weighting, weights, whole = force.getCenterParameters(0)
    assert (particles, weighting, weights, whole) == ([0, 1, 2, 3], 1, [], True)
    assert isinstance(whole, bool) and isinstance(weighting, int)
    force.setCenterParameters(np.int16(2), range(3), CoordinationForce.WeightedCenter, np.float32([1, 2, 3]), 0)
    assert force.getCenterParameters(2) == ([0, 1, 2], 2, [1.0, 2.0, 3.0], False)
    assert (CoordinationForce.GeometricCenter, CoordinationForce.CenterOfMass, CoordinationForce.WeightedCenter) == \
        (0, 1, 2)
    for method in (CoordinationForce.addCenter, CoordinationForce.getCenterParameters,
                   CoordinationForce.setCenterParameters, CoordinationForce.getNumCenters):
        assert method.__doc__ and "centre" in method.__doc__


def test_bad_arguments_are_clear_errors():
    force = CoordinationForce()
    with pytest.raises(TypeError, match="weights entry 1 must be a number"):
        force.addCenter([0, 1], CoordinationForce.WeightedCenter, [1.0, "2"])
    with pytest.raises(TypeError, match="weighting must be an integer"):
        force.addCenter([0], 1.5)
    with pytest.raises(mm.OpenMMException, match="unknown centre weighting 5"):
        force.addCenter([0], 5)
    with pytest.raises(mm.OpenMMException, match="index 0 is out of range; this force has no centres"):
        force.getCenterParameters(0)
    assert force.getNumCenters() == 0


@pytest.mark.parametrize("case", ALL_CASES)
def test_centres_match_the_numpy_model(case):
    case = require_case(case)
    context = make_context(centre_system(centre_force()), case)
    for seed in (1, 2):
        positions = straddling_positions(seed)
        context.setPositions(positions)
        energy, forces = energy_and_forces(context)
        expected = numpy_coordination(positions)
        assert expected > 0.5
        assert_close(energy, expected, case, scale=1.0, what="energy")
        assert_close(CoordinationForce.cast(context.getSystem().getForce(0)).getCoordination(context), expected, case,
                     scale=1.0, what="s")
        numerical = numpy_forces(positions)
        if case.double:  # central differences are good to about 1e-9 of the largest force
            np.testing.assert_allclose(forces, numerical, rtol=0, atol=FINITE_DIFFERENCE_RELATIVE * np.abs(forces).max())
        else:
            assert_forces_close(forces, numerical, case)


#: Centres larger than a GPU block computes for itself (128 entries: computeCenterPositions, several batches of
#: entries per lane, the last one partial): a COM of 1,300 particles made whole across the box's corner and a weighted
#: centre of 200 that is not, in group A against 60 atoms around them.
LARGE_BOX = np.array([5.0, 5.5, 6.0])
LARGE_SIZES = (1300, 200, 60)


def large_centres_system(seed):
    """(System with the force, positions, the centres, group B, the masses) of the large-centre test."""
    rng = np.random.default_rng(seed)
    num_com, num_weighted, num_free = LARGE_SIZES
    count = num_com + num_weighted + num_free
    masses = 1.0 + np.arange(count) % 5
    positions = np.empty((count, 3))
    cluster = rng.uniform(-0.5, 0.5, (num_com, 3))
    positions[:num_com] = np.where(cluster < 0, cluster + LARGE_BOX, cluster)
    positions[num_com:num_com + num_weighted] = 2.5 + rng.uniform(-0.4, 0.4, (num_weighted, 3))
    near_corner = rng.uniform(-0.9, 0.9, (num_free // 2, 3))
    positions[num_com + num_weighted:num_com + num_weighted + num_free // 2] = np.where(near_corner < 0,
                                                                                       near_corner + LARGE_BOX,
                                                                                       near_corner)
    positions[num_com + num_weighted + num_free // 2:] = 2.5 + rng.uniform(-1.0, 1.0, (num_free - num_free // 2, 3))
    centres = [(list(range(num_com)), CoordinationForce.CenterOfMass, [], True),
               (list(range(num_com, num_com + num_weighted)), CoordinationForce.WeightedCenter,
                list(rng.uniform(0.5, 2.0, num_weighted)), False)]
    group_b = list(range(num_com + num_weighted, count))
    force = dual_with_centres(CoordinationForce("s"), centres, [-1, -2], group_b)
    return centre_system(force, masses, LARGE_BOX), positions, centres, group_b, masses


@pytest.mark.parametrize("case", ALL_CASES)
def test_centres_larger_than_a_block_match_the_numpy_model(case):
    case = require_case(case)
    system, positions, centres, group_b, masses = large_centres_system(3)

    def model(x):
        return numpy_coordination(x, centres, [-1, -2], group_b, LARGE_BOX, masses)

    context = make_context(system, case)
    context.setPositions(positions)
    energy, forces = energy_and_forces(context)
    expected = model(positions)
    assert expected > 5
    assert_close(energy, expected, case, scale=1.0, what="energy")
    # Every force at once, against the model's derivative along a random direction (central differences).
    direction = np.random.default_rng(4).normal(size=positions.shape)
    step = 1e-5
    slope = (model(positions + step * direction) - model(positions - step * direction)) / (2 * step)
    projected = float(np.sum(forces * direction))
    scale = float(np.sum(np.linalg.norm(forces, axis=1) * np.linalg.norm(direction, axis=1)))
    if case.double:
        assert abs(projected + slope) <= FINITE_DIFFERENCE_RELATIVE * scale, (projected, -slope)
    else:
        assert_close(projected, -slope, case, scale=scale, what="forces along a direction")


def test_a_whole_centre_differs_from_the_plain_mean_of_a_straddling_group():
    # The model's own check: the cluster straddles the box corner, so the plain mean lies far from it.
    positions = straddling_positions(1)
    whole = plumed_center(positions, [0, 1, 2, 3], CoordinationForce.GeometricCenter, [], True)
    plain = plumed_center(positions, [0, 1, 2, 3], CoordinationForce.GeometricCenter, [], False)
    assert np.linalg.norm(minimum_image_rectangular(whole - plain, BOX)) > 0.3
    assert switching_function(0.0, R0, dmax=DMAX) == pytest.approx(1.0)


def test_a_coordination_number_force_takes_a_centre_in_either_group():
    force = CoordinationNumberForce("total")
    force.addReduction(CoordinationNumberForce.Sum, "", "total")
    dual_with_centres(force)
    context = make_context(centre_system(force))
    positions = straddling_positions(3)
    context.setPositions(positions)
    extended, group_a, group_b = explicit(positions)
    expected = [coordination_numpy(extended, CoordinationForce.Dual, [a], group_b, BOX, r0=R0, dmax=DMAX)
                for a in group_a]
    numbers = CoordinationNumberForce.cast(context.getSystem().getForce(0)).getCoordinationNumbers(context)
    np.testing.assert_allclose(numbers, expected, rtol=1e-10, atol=1e-12)
    assert_close(energy_and_forces(context)[0], sum(expected), "Reference", scale=1.0)


@pytest.mark.parametrize("cls", [CoordinationForce, CoordinationNumberForce])
def test_centres_survive_xml_pickle_and_copy(cls):
    force = cls("s" if cls is CoordinationForce else "0")
    for particles, weighting, weights, whole in CENTERS:
        force.addCenter(particles, weighting, weights, whole)
    force.setMode(CoordinationForce.Dual)
    force.setGroupA(GROUP_A)
    force.setGroupB(GROUP_B)
    expected = [force.getCenterParameters(k) for k in range(3)]
    xml = mm.XmlSerializer.serialize(force)
    # CoordinationForce's version 3 and CoordinationNumberForce's 2 added the centres (its 3 the local step, 4 the
    # local neighbours, 5 their partners).
    assert f'version="{3 if cls is CoordinationForce else 5}"' in xml
    for copied in (cls.cast(mm.XmlSerializer.deserialize(xml)), pickle.loads(pickle.dumps(force)), copy.deepcopy(force)):
        assert type(copied) is cls
        assert [copied.getCenterParameters(k) for k in range(copied.getNumCenters())] == expected
        assert list(copied.getGroupA()) == GROUP_A and list(copied.getGroupB()) == GROUP_B
