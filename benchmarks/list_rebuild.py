#!/usr/bin/env python
"""The neighbour list's worst case: added time per MD step when the list is rebuilt every step.

Self mode on a random box at 100 atoms/nm^3 with PBC, r0 = 0.3 nm. A CustomIntegrator evaluates the forces
every step and moves every atom by +delta and -delta in alternate steps (|delta| = 0.06 nm, more than half
the skin of 0.1 nm at dmax = 1 nm), so the list is rebuilt every step while the tiles stay compact. The
same System with a do-nothing force instead is timed the same way; the difference is the added time.
Compare with benchmark_suite.py's static S2 rows (no rebuild) to get the cost of one rebuild.

    python3 benchmarks/list_rebuild.py --platform CUDA --sizes 100000 1000000 --csv /tmp/rebuild.csv
"""
import argparse
import csv
import statistics
import time

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce


def jumping_integrator(delta):
    """Evaluates the forces every step (x changes every step, so OpenMM cannot reuse them)."""
    integrator = mm.CustomIntegrator(0.002)
    integrator.addGlobalVariable("flip", 1.0)
    integrator.addPerDofVariable("delta", 0.0)
    integrator.addPerDofVariable("sink", 0.0)
    integrator.addComputePerDof("sink", "f")
    integrator.addComputePerDof("x", "x + flip*delta")
    integrator.addComputeGlobal("flip", "-flip")
    return integrator


def seconds_per_step(atoms, dmax, bias, platform, precision, steps, reps):
    edge = (atoms / 100.0) ** (1 / 3)
    positions = np.random.default_rng(5).uniform(0, edge, size=(atoms, 3))
    delta = np.random.default_rng(9).normal(0, 1, size=(atoms, 3))
    delta *= 0.06 / np.linalg.norm(delta, axis=1)[:, None]
    system = mm.System()
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    for _ in range(atoms):
        system.addParticle(1.0)
    if bias:
        force = CoordinationForce("1e-6*s")
        force.setGroupA(range(atoms))
        force.setR0(0.3)
        force.setDMax(dmax)
        force.setUsesPeriodicBoundaryConditions(True)
    else:
        force = mm.CustomExternalForce("0")
    system.addForce(force)
    integrator = jumping_integrator(delta)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName(platform), {"Precision": precision})
    context.setPositions(positions)
    integrator.setPerDofVariableByName("delta", [mm.Vec3(*row) for row in delta])
    integrator.step(20)
    context.getState(getEnergy=True, groups={31})  # drain the queue (no force in group 31)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        integrator.step(steps)
        context.getState(getEnergy=True, groups={31})
        times.append((time.perf_counter() - start) / steps)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--platform", default="CUDA")
    parser.add_argument("--precision", default="single")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100000, 1000000])
    parser.add_argument("--dmax", type=float, default=1.0, help="nm (1.0)")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--csv", help="also write the table as CSV")
    args = parser.parse_args()
    rows = []
    print("| atoms | dmax (nm) | precision | ms added per step, list rebuilt every step |")
    print("|---:|---:|---|---:|")
    for atoms in args.sizes:
        steps = 30 if atoms >= 1000000 else 200
        base = seconds_per_step(atoms, args.dmax, False, args.platform, args.precision, steps, args.reps)
        biased = seconds_per_step(atoms, args.dmax, True, args.platform, args.precision, steps, args.reps)
        rows.append({"atoms": atoms, "dmax_nm": args.dmax, "precision": args.precision,
                     "ms_added_per_step": (biased - base) * 1e3})
        print(f"| {atoms} | {args.dmax:g} | {args.precision} | {(biased - base) * 1e3:.4f} |", flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as stream:
            writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
