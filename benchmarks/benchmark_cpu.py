#!/usr/bin/env python
"""The CPU platform's CoordinationForce kernel against the Reference kernel (time per evaluation).

Cases:
  water20k   Self over 20,000 atoms at water density (100 atoms/nm^3, periodic 5.85 nm box), r0 = 0.3 nm,
             the automatic cutoff (2.04 nm, stretched): the issue's 20k-atom case
  water20k1  the same with dmax = 1 nm
  dual20k    Dual, 2,000 x 18,000 atoms of the same box, automatic cutoff
  S0-1k, S0-16k  PLUMED's benchmark lattice (simple cubic, 1 nm; Self, r0 = 1 nm, dmax 6.81 nm, no PBC),
             compared with PLUMED's published CPU time (16 threads)

Each case times getState(energy, forces) on a warm Context (median of repeats), on the Reference platform
and on the CPU platform with Threads = 1, 2, 4, ... up to the number of cores, and checks that s agrees.
Prints a Markdown table; --out PREFIX writes PREFIX.md and PREFIX.csv (and PREFIX.png with matplotlib).

    python benchmarks/benchmark_cpu.py --out docs/benchmarks/cpu
"""
import argparse
import csv
import os
import time

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce

#: PLUMED's published COORDINATION benchmark on the CPU (16 threads, double): atoms -> ms
PLUMED_CPU_MS = {1000: 2.2, 16000: 178.0}


def water_box(num_atoms, seed=1):
    edge = (num_atoms / 100.0) ** (1.0 / 3.0)
    return np.random.default_rng(seed).random((num_atoms, 3)) * edge, np.eye(3) * edge


def lattice(num_atoms):
    edge = int(round(num_atoms ** (1.0 / 3.0)))
    while edge ** 3 < num_atoms:
        edge += 1
    k = np.arange(num_atoms)
    return np.stack([k % edge, (k // edge) % edge, k // (edge * edge)], axis=1).astype(float)


def cases():
    """name -> (positions, box or None, force factory, atoms in the groups)"""
    result = {}
    positions, box = water_box(20000)

    def self_force(dmax, r0=0.3, periodic=True, count=20000):
        def make():
            force = CoordinationForce("0.5*k*(s-s0)^2")
            force.addGlobalParameter("k", 1.0)
            force.addGlobalParameter("s0", 0.0)
            force.setGroupA(range(count))
            force.setR0(r0)
            force.setDMax(dmax)
            force.setUsesPeriodicBoundaryConditions(periodic)
            return force
        return make

    def dual_force():
        force = self_force(0.0)()
        force.setMode(CoordinationForce.Dual)
        force.setGroupA(range(2000))
        force.setGroupB(range(2000, 20000))
        return force

    result["water20k (auto dmax 2.04 nm)"] = (positions, box, self_force(0.0), 20000)
    result["water20k (dmax 1 nm)"] = (positions, box, self_force(1.0), 20000)
    result["dual 2k x 18k (auto dmax)"] = (positions, box, dual_force, 20000)
    for count in (1000, 16000):
        result[f"S0 lattice {count // 1000}k"] = (lattice(count), None, self_force(0.0, r0=1.0, periodic=False,
                                                                                   count=count), count)
    return result


def context_for(positions, box, make_force, platform, threads):
    system = mm.System()
    for _ in range(len(positions)):
        system.addParticle(1.0)
    if box is not None:
        system.setDefaultPeriodicBoxVectors(*[mm.Vec3(*row) for row in box])
    force = make_force()
    system.addForce(force)
    properties = {"Threads": str(threads)} if platform == "CPU" else {}
    context = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(platform), properties)
    context.setPositions(positions)
    return context, force


def seconds_per_evaluation(context, budget):
    context.getState(getEnergy=True, getForces=True)  # warm up
    times = []
    while len(times) < 3 or (sum(times) < budget and len(times) < 50):
        start = time.perf_counter()
        context.getState(getEnergy=True, getForces=True)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def thread_counts():
    cores = os.cpu_count() or 1
    counts = [1]
    while counts[-1] * 2 <= cores:
        counts.append(counts[-1] * 2)
    if counts[-1] != cores:
        counts.append(cores)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="write PREFIX.md, PREFIX.csv and PREFIX.png")
    parser.add_argument("--budget", type=float, default=3.0, help="seconds of repeats per measurement")
    parser.add_argument("--skip-reference-above", type=int, default=20000,
                        help="leave the Reference platform out for more atoms than this")
    args = parser.parse_args()
    threads = thread_counts()
    rows = []
    for name, (positions, box, make_force, count) in cases().items():
        reference_ms = reference_s = None
        if count <= args.skip_reference_above:
            context, force = context_for(positions, box, make_force, "Reference", 1)
            reference_ms = 1e3 * seconds_per_evaluation(context, args.budget)
            reference_s = force.getCoordination(context)
            del context
        for count_threads in threads:
            context, force = context_for(positions, box, make_force, "CPU", count_threads)
            ms = 1e3 * seconds_per_evaluation(context, args.budget)
            s = force.getCoordination(context)
            if reference_s is not None:
                assert abs(s - reference_s) <= 1e-9 * max(1.0, abs(reference_s)), (name, s, reference_s)
            rows.append({"case": name, "threads": count_threads, "cpu_ms": ms, "reference_ms": reference_ms,
                         "speedup_vs_reference": (reference_ms / ms if reference_ms else None),
                         "plumed_cpu16_ms": PLUMED_CPU_MS.get(count) if name.startswith("S0") else None, "s": s})
            del context
    cores = os.cpu_count()
    lines = [f"CoordinationForce, CPU platform kernel vs the Reference kernel ({cores} cores; ms per evaluation of "
             "energy and forces, median)", "",
             "| case | threads | CPU (ms) | Reference (ms) | speed-up vs Reference | PLUMED CPU, 16 threads (ms) | s |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        fmt = lambda v, f: (f.format(v) if v is not None else "")
        lines.append(f"| {row['case']} | {row['threads']} | {row['cpu_ms']:.3f} | {fmt(row['reference_ms'], '{:.3f}')} | "
                     f"{fmt(row['speedup_vs_reference'], '{:.1f}x')} | {fmt(row['plumed_cpu16_ms'], '{:g}')} | "
                     f"{row['s']:.6g} |")
    print("\n".join(lines))
    if args.out:
        with open(args.out + ".md", "w") as handle:
            handle.write("\n".join(lines) + "\n")
        with open(args.out + ".csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("(matplotlib is not installed: no plot)")
            return
        figure, axis = plt.subplots(figsize=(7, 4.5))
        for name in dict.fromkeys(row["case"] for row in rows):
            mine = [row for row in rows if row["case"] == name]
            axis.plot([row["threads"] for row in mine], [row["cpu_ms"] for row in mine], "o-", label=name)
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.set_xlabel("threads (CPU platform)")
        axis.set_ylabel("ms per evaluation")
        axis.legend(fontsize=8)
        figure.tight_layout()
        figure.savefig(args.out + ".png", dpi=120)


if __name__ == "__main__":
    main()
