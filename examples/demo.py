"""Demo: steer a coordination number with CoordinationForce
========================================================

A periodic box of 200 Lennard-Jones argon atoms at 120 K (liquid). Ten of them are tagged; their
coordination number among themselves (PLUMED's COORDINATION with GROUPA = the tagged atoms) starts
low because they are spread through the box. A harmonic restraint

    E(s) = 0.5 * k * (s - s0)^2

with a target s0 well above the initial value pulls them together into a cluster. The script prints s
every few hundred steps and, at the end, whether s approached s0.

Usage::

    python examples/demo.py [--steps 4000] [--report 400] [--platform CPU]
"""
import argparse
import math
import time

import numpy as np
import openmm as mm
import openmm.unit as unit

from openmmcoordination import CoordinationForce

ATOMS = 200
BOX = 2.2  # nm: about liquid argon's density
TAGGED = list(range(0, ATOMS, ATOMS // 10))  # 10 atoms spread through the box
SIGMA, EPSILON, MASS = 0.3405, 0.996, 39.948  # argon: nm, kJ/mol, amu
CUTOFF = 1.0  # nm
TEMPERATURE = 120.0  # K
TIMESTEP = 0.005  # ps
R0 = 0.45  # nm: about the first minimum of argon's radial distribution function
DMAX = 1.0  # nm
TARGET = 12.0  # s0: the ten tagged atoms in a compact cluster
FORCE_CONSTANT = 20.0  # kJ/mol


def fastest_platform():
    names = [mm.Platform.getPlatform(i).getName() for i in range(mm.Platform.getNumPlatforms())]
    return "CPU" if "CPU" in names else "Reference"


def build_system():
    system = mm.System()
    system.setDefaultPeriodicBoxVectors(mm.Vec3(BOX, 0, 0), mm.Vec3(0, BOX, 0), mm.Vec3(0, 0, BOX))
    lennard_jones = mm.NonbondedForce()
    lennard_jones.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
    lennard_jones.setCutoffDistance(CUTOFF)
    lennard_jones.setUseDispersionCorrection(True)
    for _ in range(ATOMS):
        system.addParticle(MASS)
        lennard_jones.addParticle(0.0, SIGMA, EPSILON)
    system.addForce(lennard_jones)

    coordination = CoordinationForce("0.5*k*(s-s0)^2")
    coordination.addGlobalParameter("k", 0.0)  # switched on after the minimization
    coordination.addGlobalParameter("s0", TARGET)
    coordination.setMode(CoordinationForce.Self)
    coordination.setGroupA(TAGGED)
    coordination.setR0(R0)  # n = 6, m = 12 (the defaults)
    # An explicit cutoff below half the box (the automatic one, r0 * 1e-5^(1/(n-m)), would be 3.1 nm);
    # the switching function is stretched to reach 0 there.
    coordination.setDMax(DMAX)
    coordination.setUsesPeriodicBoundaryConditions(True)
    system.addForce(coordination)
    return system, coordination


def lattice_positions():
    """ATOMS positions on a cubic grid filling the box."""
    per_side = math.ceil(ATOMS ** (1 / 3))
    spacing = BOX / per_side
    grid = [(i, j, k) for i in range(per_side) for j in range(per_side) for k in range(per_side)]
    return (np.array(grid[:ATOMS]) + 0.5) * spacing


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=4000, help="MD steps (default 4000, 20 ps)")
    parser.add_argument("--report", type=int, default=400, help="print s every this many steps")
    parser.add_argument("--platform", default=fastest_platform(), help="OpenMM platform (default: CPU if available)")
    args = parser.parse_args()

    system, coordination = build_system()
    integrator = mm.LangevinMiddleIntegrator(TEMPERATURE * unit.kelvin, 1.0 / unit.picosecond,
                                             TIMESTEP * unit.picoseconds)
    integrator.setRandomNumberSeed(2024)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName(args.platform))
    context.setPositions(lattice_positions())
    mm.LocalEnergyMinimizer.minimize(context, 10.0, 200)
    context.setVelocitiesToTemperature(TEMPERATURE * unit.kelvin, 2024)

    context.setParameter("k", FORCE_CONSTANT)
    initial = coordination.getCoordination(context)
    print(f"{ATOMS} argon atoms, {BOX} nm box, {args.platform} platform; restraint 0.5*k*(s-s0)^2 on the "
          f"coordination of {len(TAGGED)} tagged atoms, k = {FORCE_CONSTANT} kJ/mol, s0 = {TARGET}")
    print(f"{'step':>6} {'time (ps)':>9} {'s':>8} {'restraint (kJ/mol)':>19}")
    start = time.time()
    done = 0
    while True:
        s = coordination.getCoordination(context)
        restraint = 0.5 * FORCE_CONSTANT * (s - TARGET) ** 2
        print(f"{done:6d} {done * TIMESTEP:9.2f} {s:8.3f} {restraint:19.2f}", flush=True)
        if done >= args.steps:
            break
        chunk = min(args.report, args.steps - done)
        integrator.step(chunk)
        done += chunk
    final = coordination.getCoordination(context)
    elapsed = time.time() - start
    approached = abs(final - TARGET) < 0.5 * abs(initial - TARGET)
    print(f"{done} steps in {elapsed:.1f} s")
    print(f"s went from {initial:.3f} to {final:.3f} (target s0 = {TARGET}): "
          f"{'s approached s0' if approached else 's did NOT approach s0'} "
          f"(|s - s0| {abs(initial - TARGET):.3f} -> {abs(final - TARGET):.3f})")


if __name__ == "__main__":
    main()
