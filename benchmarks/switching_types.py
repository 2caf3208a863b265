#!/usr/bin/env python
"""Time per evaluation of CoordinationForce for each switching function type, on one platform.

Self mode over N atoms at water density (100 atoms/nm^3) in a periodic box, r0 = 0.3 nm, energy
0.5*k*(s-s0)^2, with no cutoff (all N(N-1)/2 pairs) and with dmax = 1 nm (the neighbour list on GPUs,
stretched). Each case times VerletIntegrator steps of massless atoms (the pairs never change) with and
without the force; the difference is the force's cost (the queue is drained before the clock stops).
Prints a Markdown table; --out PREFIX also writes PREFIX.md and PREFIX.csv.

    python benchmarks/switching_types.py --platform CUDA --precision single --atoms 16384
"""
import argparse
import csv
import math
import time

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce

#: name -> how to set the type on a force (the Rational default first: the reference speed)
TYPES = {
    "Rational 6/12": lambda f: None,
    "Rational 6/10": lambda f: f.setM(10),
    "Rational 5/11, d0 0.05": lambda f: (f.setN(5), f.setM(11), f.setD0(0.05)),
    "Exponential": lambda f: f.setSwitchingFunction(CoordinationForce.Exponential),
    "Gaussian": lambda f: f.setSwitchingFunction(CoordinationForce.Gaussian),
    "Smap 6/2": lambda f: (f.setSwitchingFunction(CoordinationForce.Smap), f.setSmapExponents(6, 2)),
    "Tanh": lambda f: f.setSwitchingFunction(CoordinationForce.Tanh),
    "Cosinus": lambda f: f.setSwitchingFunction(CoordinationForce.Cosinus),
    "NativeQ": lambda f: (f.setSwitchingFunction(CoordinationForce.NativeQ), f.setNativeQParameters(50.0, 1.5, 0.3)),
    "Custom 1/(1+x^6)": lambda f: f.setCustomSwitchingFunction("1/(1+x^6)"),
    "Custom 1/(1+x2^3)": lambda f: f.setCustomSwitchingFunction("1/(1+x2^3)"),
}
#: Cubic needs a cutoff: it is timed in the cutoff column only.
CUTOFF_ONLY = {"Cubic": lambda f: f.setSwitchingFunction(CoordinationForce.Cubic)}


def build(num_atoms, dmax, configure, seed=1):
    edge = (num_atoms / 100.0) ** (1.0 / 3.0)
    system = mm.System()
    for _ in range(num_atoms):
        system.addParticle(0.0)
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    if configure is None:
        system.addForce(mm.CustomExternalForce("0"))
    else:
        force = CoordinationForce("0.5*k*(s-s0)^2")
        force.addGlobalParameter("k", 1.0)
        force.addGlobalParameter("s0", 0.0)
        force.setGroupA(range(num_atoms))
        force.setR0(0.3)
        force.setDMax(dmax)
        force.setUsesPeriodicBoundaryConditions(True)
        configure(force)
        system.addForce(force)
    return system, np.random.default_rng(seed).random((num_atoms, 3)) * edge


def seconds_per_step(platform, properties, num_atoms, dmax, configure, steps, repeats=3):
    system, positions = build(num_atoms, dmax, configure)
    integrator = mm.VerletIntegrator(0.001)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName(platform), properties)
    context.setPositions(positions)
    integrator.step(3)
    context.getState(getEnergy=True)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        integrator.step(steps)
        context.getState(getEnergy=True)  # waits for the queue
        times.append((time.perf_counter() - start) / steps)
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--platform", default="CUDA")
    parser.add_argument("--precision", default="single", help="GPU platforms only")
    parser.add_argument("--atoms", type=int, default=16384)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--out", help="write PREFIX.md and PREFIX.csv")
    args = parser.parse_args()
    properties = {"Precision": args.precision} if args.platform in ("CUDA", "OpenCL", "HIP") else {}
    label = args.platform + (f" {args.precision}" if properties else "")
    rows = []
    base = {dmax: seconds_per_step(args.platform, properties, args.atoms, dmax, None, args.steps)
            for dmax in (math.inf, 1.0)}
    for name, configure in {**TYPES, **CUTOFF_ONLY}.items():
        row = {"type": name}
        for column, dmax in (("no cutoff", math.inf), ("dmax 1 nm", 1.0)):
            if name in CUTOFF_ONLY and not math.isfinite(dmax):
                row[column] = ""
                continue
            total = seconds_per_step(args.platform, properties, args.atoms, dmax, configure, args.steps)
            row[column] = f"{max(total - base[dmax], 0.0) * 1e3:.4f}"
        rows.append(row)
    lines = [f"Milliseconds per evaluation, {label}, Self mode over {args.atoms} atoms (water density, r0 = 0.3 nm)",
             "", "| switching function | no cutoff (ms) | dmax 1 nm (ms) |", "|---|---:|---:|"]
    lines += [f"| {row['type']} | {row['no cutoff']} | {row['dmax 1 nm']} |" for row in rows]
    print("\n".join(lines))
    if args.out:
        with open(args.out + ".md", "w") as handle:
            handle.write("\n".join(lines) + "\n")
        with open(args.out + ".csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=["type", "no cutoff", "dmax 1 nm"])
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
