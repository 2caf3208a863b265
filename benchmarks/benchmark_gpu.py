#!/usr/bin/env python
"""First GPU timing of CoordinationForce: added time per MD step of a Self-mode force on N atoms.

Random box at water density (100 atoms/nm^3), r0 = 0.3 nm, n = 6, m = 12, PBC; no cutoff (every one
of the N(N-1)/2 pairs) and the automatic cutoff. Each case runs VerletIntegrator steps of the same
System with and without the force; the difference per step is the force's cost (the queue is drained
before the clock stops). Prints a Markdown table; --csv writes one.

    python benchmarks/benchmark_gpu.py --platform CUDA --sizes 10000
"""
import argparse
import csv
import math
import time

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce


def build(num_atoms, dmax, with_force, seed=1):
    edge = (num_atoms / 100.0) ** (1.0 / 3.0)
    system = mm.System()
    for _ in range(num_atoms):
        system.addParticle(0.0)  # massless: the positions stay fixed, every step sees the same pairs
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    if with_force:
        force = CoordinationForce("0.5*k*(s-s0)^2")
        force.addGlobalParameter("k", 1.0)
        force.addGlobalParameter("s0", 0.0)
        force.setGroupA(range(num_atoms))
        force.setR0(0.3)
        force.setDMax(dmax)
        force.setUsesPeriodicBoundaryConditions(True)
        system.addForce(force)
    else:
        system.addForce(mm.CustomExternalForce("0"))
    positions = np.random.default_rng(seed).random((num_atoms, 3)) * edge
    return system, positions


def seconds_per_step(platform, precision, num_atoms, dmax, with_force, steps):
    system, positions = build(num_atoms, dmax, with_force)
    integrator = mm.VerletIntegrator(0.001)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName(platform), {"Precision": precision})
    context.setPositions(positions)
    integrator.step(10)
    context.getState(getEnergy=True)
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        integrator.step(steps)
        context.getState(getEnergy=True)  # waits for the queue
        best = min(best, (time.perf_counter() - start) / steps)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--platform", default="CUDA")
    parser.add_argument("--precisions", nargs="+", default=["single", "mixed", "double"])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--csv")
    args = parser.parse_args()
    rows = []
    print(f"| platform | precision | atoms | cutoff | pairs in the sum | ms per evaluation | pairs/s |")
    print("|---|---|---:|---|---:|---:|---:|")
    for precision in args.precisions:
        for num_atoms in args.sizes:
            for cutoff_name, dmax in (("none", math.inf), ("automatic (2.04 nm)", 0.0)):
                base = seconds_per_step(args.platform, precision, num_atoms, dmax, False, args.steps)
                total = seconds_per_step(args.platform, precision, num_atoms, dmax, True, args.steps)
                added = max(total - base, 1e-9)
                pairs = num_atoms * (num_atoms - 1) // 2
                rows.append({"platform": args.platform, "precision": precision, "atoms": num_atoms,
                             "cutoff": cutoff_name, "pairs": pairs, "ms_per_evaluation": added * 1e3,
                             "pairs_per_second": pairs / added})
                print(f"| {args.platform} | {precision} | {num_atoms} | {cutoff_name} | {pairs:.2e} | "
                      f"{added * 1e3:.3f} | {pairs / added:.2e} |", flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
