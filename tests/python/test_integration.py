"""CoordinationForce with OpenMM's own tools: as a collective variable of CustomCVForce (value and
forces equal to standalone use), as app.Metadynamics' BiasVariable, and through app.Simulation's
checkpoints and saved states. (An XML System reloaded in a fresh Python process: test_api.py.)

Values are checked against the standalone force and against the numpy model in coordination_testing.py.
"""
import numpy as np
import openmm as mm
import openmm.app as app
import openmm.unit as unit
import pytest

from coordination_testing import (
    ALL_CASES,
    assert_close,
    assert_forces_close,
    coordination_force,
    coordination_numpy,
    energy_and_forces,
    make_context,
    make_system,
    require_case,
    set_frame,
)
from openmmcoordination import CoordinationForce

BOX = 2.0
NUM_ATOMS = 40
GROUP_A = list(range(0, 16))
GROUP_B = list(range(12, 40, 2))  # overlaps A in 12 and 14: same-atom pairs count 0
BOX_VECTORS = np.diag([BOX, BOX, BOX])


def frame(seed=7):
    return np.random.default_rng(seed).uniform(0.0, BOX, size=(NUM_ATOMS, 3))


def restraint(energy="0.5*k*(s-s0)^2", group=0):
    return coordination_force(CoordinationForce.Dual, GROUP_A, GROUP_B, energy=energy, periodic=True,
                              force_group=group, parameters=(("k", 30.0), ("s0", 2.5)), r0=0.35, dmax=0.9)


@pytest.mark.parametrize("case", ALL_CASES)
def test_inside_a_custom_cv_force_the_value_and_forces_equal_standalone_use(case):
    positions = frame()
    standalone = make_context(make_system(NUM_ATOMS, [restraint()], BOX_VECTORS), case)
    set_frame(standalone, positions, BOX_VECTORS)
    expected_energy, expected_forces = energy_and_forces(standalone)

    cv = mm.CustomCVForce("0.5*k*(c-s0)^2")
    cv.addGlobalParameter("k", 30.0)
    cv.addGlobalParameter("s0", 2.5)
    cv.addCollectiveVariable("c", restraint(energy="s"))
    combined = make_context(make_system(NUM_ATOMS, [cv], BOX_VECTORS), case)
    set_frame(combined, positions, BOX_VECTORS)
    energy, forces = energy_and_forces(combined)

    s = coordination_numpy(positions, CoordinationForce.Dual, GROUP_A, GROUP_B, np.array([BOX] * 3), r0=0.35, dmax=0.9)
    assert_close(cv.getCollectiveVariableValues(combined)[0], s, case, what="s inside CustomCVForce")
    assert_close(energy, expected_energy, case, what="energy inside CustomCVForce")
    assert_forces_close(forces, expected_forces, case, what="forces inside CustomCVForce")
    assert np.abs(expected_forces).max() > 1.0  # the restraint is stretched: forces to compare

    # Next to another collective variable: each keeps its own value and the forces add up.
    distance = mm.CustomBondForce("r")
    distance.addBond(0, 39)
    distance.setUsesPeriodicBoundaryConditions(True)
    two = mm.CustomCVForce("0.5*k*(c-s0)^2 + 10*d")
    two.addGlobalParameter("k", 30.0)
    two.addGlobalParameter("s0", 2.5)
    two.addCollectiveVariable("c", restraint(energy="s"))
    two.addCollectiveVariable("d", distance)
    both = make_context(make_system(NUM_ATOMS, [two], BOX_VECTORS), case)
    set_frame(both, positions, BOX_VECTORS)
    energy, forces = energy_and_forces(both)
    delta = positions[39] - positions[0]
    delta -= BOX * np.round(delta / BOX)
    r = np.linalg.norm(delta)
    assert_close(two.getCollectiveVariableValues(both), [s, r], case, what="(s, distance)")
    assert_close(energy, expected_energy + 10 * r, case, what="energy of both variables")
    expected_forces[0] += 10 * delta / r
    expected_forces[39] -= 10 * delta / r
    assert_forces_close(forces, expected_forces, case, what="forces of both variables")


def argon_system(platform_force):
    """Lennard-Jones atoms in a periodic box plus the given force (a fluid for short MD runs)."""
    system = make_system(NUM_ATOMS, [], BOX_VECTORS)
    for index in range(NUM_ATOMS):
        system.setParticleMass(index, 39.948)
    nonbonded = mm.NonbondedForce()
    nonbonded.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
    nonbonded.setCutoffDistance(0.9)
    for _ in range(NUM_ATOMS):
        nonbonded.addParticle(0.0, 0.3405, 0.996)
    system.addForce(nonbonded)
    if platform_force is not None:
        system.addForce(platform_force)
    return system


def lattice_positions():
    per_side = 4
    grid = np.array([(i, j, k) for i in range(per_side) for j in range(per_side) for k in range(per_side)])
    return (grid[:NUM_ATOMS] + 0.5) * (BOX / per_side)


@pytest.mark.parametrize("case", ALL_CASES)
def test_metadynamics_biases_the_coordination_number(case):
    case = require_case(case)
    system = argon_system(None)
    variable = app.BiasVariable(restraint(energy="s"), minValue=0.0, maxValue=40.0, biasWidth=0.5, gridWidth=401)
    metadynamics = app.Metadynamics(system, [variable], 120 * unit.kelvin, 5.0, 2.0 * unit.kilojoules_per_mole, 50)
    integrator = mm.LangevinMiddleIntegrator(120 * unit.kelvin, 1 / unit.picosecond, 0.005 * unit.picoseconds)
    integrator.setRandomNumberSeed(11)
    simulation = app.Simulation(app.Topology(), system, integrator, mm.Platform.getPlatformByName(case.platform),
                                case.properties())
    simulation.context.setPeriodicBoxVectors(*[mm.Vec3(*row) for row in BOX_VECTORS])
    simulation.context.setPositions(lattice_positions())
    simulation.context.setVelocitiesToTemperature(120 * unit.kelvin, 11)
    visited = []
    for _ in range(6):
        metadynamics.step(simulation, 50)
        s = metadynamics.getCollectiveVariables(simulation)[0]
        positions = simulation.context.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(
            unit.nanometer)
        assert_close(s, coordination_numpy(positions, CoordinationForce.Dual, GROUP_A, GROUP_B, np.array([BOX] * 3), r0=0.35,
                                           dmax=0.9), case, what="metadynamics' collective variable")
        visited.append(s)
    free_energy = np.asarray(metadynamics.getFreeEnergy().value_in_unit(unit.kilojoules_per_mole))
    grid = np.linspace(0.0, 40.0, 401)
    # Six hills were deposited where s was: the free energy estimate is lowest (most negative) there.
    assert free_energy.min() < -1.0
    assert abs(grid[free_energy.argmin()] - np.mean(visited)) < 1.0 + np.ptp(visited)
    # The bias acts through the force: the metadynamics force's energy is the bias at the current s,
    # -F(s) (bias factor - 1)/bias factor (a spline through the grid: compared to 2 %).
    bias_force = next(force for force in system.getForces() if isinstance(force, mm.CustomCVForce))
    bias = simulation.context.getState(getEnergy=True, groups={bias_force.getForceGroup()}).getPotentialEnergy()
    expected = -np.interp(visited[-1], grid, free_energy) * (5.0 - 1.0) / 5.0
    assert expected > 0.5
    assert bias.value_in_unit(unit.kilojoules_per_mole) == pytest.approx(expected, rel=0.02)


@pytest.mark.parametrize("case", ALL_CASES)
def test_checkpoints_and_saved_states_restore_the_force(case, tmp_path):
    case = require_case(case)
    force = restraint()
    system = argon_system(force)
    integrator = mm.LangevinMiddleIntegrator(120 * unit.kelvin, 1 / unit.picosecond, 0.005 * unit.picoseconds)
    integrator.setRandomNumberSeed(5)
    simulation = app.Simulation(app.Topology(), system, integrator, mm.Platform.getPlatformByName(case.platform),
                                case.properties())
    simulation.context.setPeriodicBoxVectors(*[mm.Vec3(*row) for row in BOX_VECTORS])
    simulation.context.setPositions(lattice_positions())
    simulation.context.setVelocitiesToTemperature(120 * unit.kelvin, 5)
    simulation.step(100)
    simulation.context.setParameter("s0", 3.5)  # a global parameter of the force, saved with the state

    def snapshot():
        state = simulation.context.getState(getEnergy=True, getPositions=True, getParameters=True)
        return (state.getPotentialEnergy().value_in_unit(unit.kilojoules_per_mole),
                state.getPositions(asNumpy=True).value_in_unit(unit.nanometer),
                force.getCoordination(simulation.context), state.getParameters()["s0"])

    saved = snapshot()
    simulation.saveCheckpoint(str(tmp_path / "run.chk"))
    simulation.saveState(str(tmp_path / "run.xml"))
    simulation.step(100)
    simulation.context.setParameter("s0", 0.5)
    moved = snapshot()
    assert not np.allclose(moved[1], saved[1])

    for load in (lambda: simulation.loadCheckpoint(str(tmp_path / "run.chk")),
                 lambda: simulation.loadState(str(tmp_path / "run.xml"))):
        load()
        energy, positions, s, s0 = snapshot()
        assert s0 == 3.5
        np.testing.assert_allclose(positions, saved[1], rtol=0, atol=1e-6 if case.double else 1e-5)
        assert_close(s, saved[2], case, what="s after loading")
        assert_close(energy, saved[0], case, scale=10.0, what="energy after loading")
        simulation.step(10)  # the force keeps working after a load
        simulation.context.setParameter("s0", 0.5)
    # A checkpoint continues the same trajectory (same platform, same random state).
    simulation.loadCheckpoint(str(tmp_path / "run.chk"))
    simulation.step(100)
    np.testing.assert_allclose(snapshot()[1], moved[1], rtol=0, atol=1e-6 if case.double else 1e-4)
