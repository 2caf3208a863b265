#!/usr/bin/env python
"""Energy conservation with a coordination restraint: a short NVE run (VerletIntegrator) of a
Lennard-Jones liquid, with and without a CoordinationForce restraint, on one platform.

Prints, for both runs, the drift of the total energy (slope of a linear fit, kJ/mol per ns) and its
RMS fluctuation, and the restrained run's s at the start and end. The restraint passes when its
drift is no larger than the unrestrained drift plus the fluctuation level of the two runs (noise).

    python tools/nve_check.py --platform CUDA --precision mixed --steps 5000

--atoms 16000 gives a restraint on 4,000 atoms, whose tiles are culled on an H100: the run then
exercises the neighbour list (rebuilt as the atoms move and when OpenMM reorders and wraps them).
"""
import argparse

import numpy as np
import openmm as mm
import openmm.unit as unit

from openmmcoordination import CoordinationForce


def build(with_restraint, num_atoms=1000, seed=11):
    density = 19.0  # atoms per nm^3: liquid argon
    edge = (num_atoms / density) ** (1.0 / 3.0)
    system = mm.System()
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    lj = mm.NonbondedForce()
    lj.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
    lj.setCutoffDistance(1.0)
    lj.setUseSwitchingFunction(True)
    lj.setSwitchingDistance(0.9)
    for _ in range(num_atoms):
        system.addParticle(39.9)
        lj.addParticle(0.0, 0.34, 0.997)
    system.addForce(lj)
    if with_restraint:
        # A restraint that holds s a few units away from its value at the start of the NVE run (set
        # there). The cutoff stays inside half the box: beyond it the minimum image makes the force jump.
        restraint = CoordinationForce("0.5*k*(s-target)^2")
        restraint.addGlobalParameter("k", 10.0)
        restraint.addGlobalParameter("target", 0.0)
        restraint.setGroupA(range(0, num_atoms, 4))  # Self mode, every 4th atom
        restraint.setR0(0.4)
        restraint.setDMax(1.5)
        restraint.setUsesPeriodicBoundaryConditions(True)
        restraint.setForceGroup(1)
        system.addForce(restraint)
    grid = int(np.ceil(num_atoms ** (1.0 / 3.0)))
    points = np.array([(i, j, k) for i in range(grid) for j in range(grid) for k in range(grid)][:num_atoms], float)
    positions = (points + 0.5) * edge / grid + np.random.default_rng(seed).normal(0, 0.005, points.shape)
    return system, positions


def run(platform, properties, with_restraint, steps, report, num_atoms):
    system, positions = build(with_restraint, num_atoms)
    # Equilibrate with Langevin, then switch to NVE.
    langevin = mm.LangevinMiddleIntegrator(100 * unit.kelvin, 5 / unit.picosecond, 0.002 * unit.picoseconds)
    verlet = mm.VerletIntegrator(0.002 * unit.picoseconds)
    integrator = mm.CompoundIntegrator()
    integrator.addIntegrator(langevin)
    integrator.addIntegrator(verlet)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName(platform), properties)
    context.setPositions(positions)
    context.setVelocitiesToTemperature(100 * unit.kelvin, 1)
    force = next((system.getForce(i) for i in range(system.getNumForces())
                  if CoordinationForce.isinstance(system.getForce(i))), None)
    if force is not None:
        context.setParameter("target", CoordinationForce.cast(force).getCoordination(context) + 3.0)
    integrator.setCurrentIntegrator(0)
    integrator.step(2000)
    integrator.setCurrentIntegrator(1)
    times, energies = [], []
    s_start = CoordinationForce.cast(force).getCoordination(context) if force is not None else None
    for block in range(steps // report):
        integrator.step(report)
        state = context.getState(getEnergy=True)
        times.append(state.getTime().value_in_unit(unit.nanosecond))
        energies.append((state.getPotentialEnergy() + state.getKineticEnergy()).value_in_unit(unit.kilojoule_per_mole))
    s_end = CoordinationForce.cast(force).getCoordination(context) if force is not None else None
    times, energies = np.array(times), np.array(energies)
    slope, intercept = np.polyfit(times, energies, 1)
    fluctuation = np.std(energies - (slope * times + intercept))
    return slope, fluctuation, s_start, s_end


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--platform", default="CUDA")
    parser.add_argument("--precision", default="mixed")
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--report", type=int, default=50)
    parser.add_argument("--atoms", type=int, default=1000, help="LJ atoms; the restraint holds every 4th (1000)")
    args = parser.parse_args()
    properties = {"Precision": args.precision} if args.platform in ("CUDA", "OpenCL", "HIP") else {}
    free = run(args.platform, properties, False, args.steps, args.report, args.atoms)
    restrained = run(args.platform, properties, True, args.steps, args.report, args.atoms)
    print(f"NVE, {args.platform} {args.precision}, {args.atoms} LJ atoms, {args.steps} steps of 2 fs")
    print("| run | drift (kJ/mol/ns) | fluctuation (kJ/mol) | s start | s end |")
    print("|---|---:|---:|---:|---:|")
    print("| no restraint | %.3f | %.4f | | |" % free[:2])
    print("| Self restraint on %d atoms | %.3f | %.4f | %.2f | %.2f |" % ((len(range(0, args.atoms, 4)),) + restrained))
    noise = max(free[1], restrained[1]) / (args.steps * 0.002e-3)  # fluctuation spread over the run, per ns
    passed = abs(restrained[0]) <= abs(free[0]) + noise
    print("RESULT: %s (|drift| %.3f vs %.3f + noise %.3f kJ/mol/ns)" %
          ("PASS" if passed else "FAIL", abs(restrained[0]), abs(free[0]), noise))
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
