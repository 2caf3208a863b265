#!/usr/bin/env python
"""Times one CoordinationForce evaluation on the CPU-side platforms (Reference, and CPU, which runs the
same double-precision kernel for now).

Self mode on a random box at water-like density (100 atoms/nm^3), r0 = 0.3 nm, n = 6, m = 12, with
no cutoff (every pair: N(N-1)/2 terms) and with the automatic cutoff (PLUMED's keyword form).
Prints a table; --markdown/--csv write it to files, --plot writes a PNG (needs matplotlib).

    python benchmarks/benchmark_reference.py --sizes 1000 5000 20000
"""
import argparse
import csv
import math
import time

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce


def build(num_atoms, dmax, seed=1):
    edge = (num_atoms / 100.0) ** (1.0 / 3.0)
    system = mm.System()
    for _ in range(num_atoms):
        system.addParticle(1.0)
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    force = CoordinationForce("s")
    force.setGroupA(range(num_atoms))
    force.setR0(0.3)
    force.setDMax(dmax)
    system.addForce(force)
    positions = np.random.default_rng(seed).random((num_atoms, 3)) * edge
    return system, force, positions


def time_evaluation(platform_name, num_atoms, dmax, repeats):
    system, force, positions = build(num_atoms, dmax)
    context = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(platform_name))
    context.setPositions(positions)
    context.getState(getForces=True)  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        context.getState(getForces=True, getEnergy=True)
        times.append(time.perf_counter() - start)
    return float(np.median(times)), force.getCoordination(context)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--platforms", nargs="+", default=["Reference", "CPU"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--markdown", help="write the table as Markdown to this file")
    parser.add_argument("--csv", help="write the table as CSV to this file")
    parser.add_argument("--plot", help="write a PNG plot to this file (needs matplotlib)")
    args = parser.parse_args()

    rows = []
    for platform in args.platforms:
        for cutoff_name, dmax in (("none", math.inf), ("automatic", 0.0)):
            for n in args.sizes:
                seconds, s = time_evaluation(platform, n, dmax, args.repeats)
                pairs = n * (n - 1) // 2
                rows.append({"platform": platform, "cutoff": cutoff_name, "atoms": n, "pairs": pairs,
                             "ms_per_evaluation": seconds * 1e3, "pairs_per_second": pairs / seconds, "s": s})
                print(f"{platform:9s} cutoff={cutoff_name:9s} N={n:7d} pairs={pairs:.2e} "
                      f"{seconds * 1e3:10.1f} ms  {pairs / seconds:.2e} pairs/s  s={s:.6g}", flush=True)

    header = ["platform", "cutoff", "atoms", "pairs", "ms_per_evaluation", "pairs_per_second", "s"]
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write("| platform | cutoff | atoms | pairs | ms per evaluation | pairs/s | s |\n")
            out.write("|---|---|---:|---:|---:|---:|---:|\n")
            for row in rows:
                out.write(f"| {row['platform']} | {row['cutoff']} | {row['atoms']} | {row['pairs']:.2e} | "
                          f"{row['ms_per_evaluation']:.1f} | {row['pairs_per_second']:.2e} | {row['s']:.6g} |\n")
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=header)
            writer.writeheader()
            writer.writerows(rows)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        figure, axes = plt.subplots()
        for platform in args.platforms:
            for cutoff_name in ("none", "automatic"):
                points = [r for r in rows if r["platform"] == platform and r["cutoff"] == cutoff_name]
                axes.loglog([r["atoms"] for r in points], [r["ms_per_evaluation"] for r in points], "o-",
                            label=f"{platform}, cutoff {cutoff_name}")
        axes.set_xlabel("atoms (self mode)")
        axes.set_ylabel("ms per force evaluation")
        axes.legend()
        figure.savefig(args.plot, dpi=120)


if __name__ == "__main__":
    main()
