"""Growing a liquid cluster in a Lennard-Jones vapour: a restraint on the number of well-coordinated atoms
=====================================================================================================

Argon-like Lennard-Jones atoms (sigma = 0.34 nm, epsilon = 0.996 kJ/mol, 40 u) as a supersaturated vapour
at T = 0.75 epsilon/k (90 K) in a periodic box. The collective variable is PLUMED's

    c: COORDINATIONNUMBER SPECIES=1-N SWITCH={RATIONAL R_0=0.5 NN=6 MM=12 D_MAX=0.8} MORE_THAN={RATIONAL R_0=4 NN=12 MM=24}

that is n = sum_i (1 - s(c_i)), the number of atoms with more than about four neighbours within ~0.5 nm:
atoms of a dense cluster, not of the vapour (CoordinationNumberForce, one MoreThan reduction named
"morethan"). A harmonic restraint 0.5 k (morethan - n0)^2 whose centre n0 moves from 0 to --target atoms pulls
the vapour into one cluster (steered MD, as PLUMED's MOVINGRESTRAINT does), on any OpenMM platform, with no host
round trip per step on a GPU.

Usage::

    python examples/lj_cluster_growth.py                     # about a minute on a 2-core CPU (200 ps)
    python examples/lj_cluster_growth.py --ps 2000 --atoms 2000 --target 400 --platform CUDA

Writes cluster_growth.png (n and its target over time; the coordination numbers of the last frame; a
projection of the last frame coloured by c_i) and cluster_growth.csv (time, n0, n, mean c, largest c) in --out.
"""
import argparse
import csv
import os
import time

import numpy as np
import openmm as mm
import openmm.unit as unit

from openmmcoordination import CoordinationNumberForce

SIGMA, EPSILON, MASS = 0.34, 0.996, 39.948  # nm, kJ/mol, u: argon
TEMPERATURE = 90.0  # K: 0.75 epsilon/k
DENSITY = 0.03  # atoms per sigma^3: a supersaturated vapour at this temperature
TIMESTEP = 0.01  # ps
REPORT_EVERY = 200  # steps
KAPPA = 2.0  # kJ/mol per atom^2: the restraint's spring
SWITCH = dict(r0=0.5, n=6, m=12, dmax=0.8)  # the pair switching function (nm)
MORE_THAN = "RATIONAL R_0=4 NN=12 MM=24"  # of the coordination number c_i: 1 - s(c_i) ~ 1 above 4 neighbours


def build(atoms, seed):
    """A periodic box of LJ atoms at DENSITY, placed on a jittered grid (no overlaps), and its System."""
    edge = (atoms / (DENSITY / SIGMA**3)) ** (1.0 / 3.0)
    system = mm.System()
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    lj = mm.NonbondedForce()
    lj.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
    lj.setCutoffDistance(2.5 * SIGMA)
    lj.setUseDispersionCorrection(False)
    for _ in range(atoms):
        system.addParticle(MASS)
        lj.addParticle(0.0, SIGMA, EPSILON)
    system.addForce(lj)
    per_edge = int(np.ceil(atoms ** (1.0 / 3.0)))
    spacing = edge / per_edge
    rng = np.random.default_rng(seed)
    grid = np.array([(i, j, k) for i in range(per_edge) for j in range(per_edge) for k in range(per_edge)])[:atoms]
    positions = (grid + 0.5 + rng.uniform(-0.2, 0.2, grid.shape)) * spacing
    return system, positions, edge


def coordination_variable(atoms):
    """n = COORDINATIONNUMBER ... MORE_THAN, restrained harmonically to the moving centre n0 (a global parameter)."""
    force = CoordinationNumberForce("0.5*kappa*(morethan-n0)^2")
    force.setGroupA(list(range(atoms)))
    force.setR0(SWITCH["r0"])
    force.setN(SWITCH["n"])
    force.setM(SWITCH["m"])
    force.setDMax(SWITCH["dmax"])
    force.setUsesPeriodicBoundaryConditions(True)
    force.addReduction(CoordinationNumberForce.MoreThan, MORE_THAN)
    force.addReduction(CoordinationNumberForce.Mean)
    force.addGlobalParameter("kappa", KAPPA)
    force.addGlobalParameter("n0", 0.0)
    return force


def plot(path, table, numbers, positions, edge, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 4.2))
    figure.suptitle(title, fontsize=11)
    left.plot(table[:, 0], table[:, 1], color="gray", lw=1, label="restraint centre n0")
    left.plot(table[:, 0], table[:, 2], color="tab:blue", lw=1.2, label="n (atoms with > 4 neighbours)")
    left.set_xlabel("time (ps)")
    left.set_ylabel("atoms")
    left.legend(fontsize=8, loc="upper left")
    middle.hist(numbers, bins=40, color="tab:green")
    middle.axvline(4.0, color="black", lw=0.8, ls="--")
    middle.set_xlabel("coordination number c_i (last frame)")
    middle.set_ylabel("atoms")
    middle.set_yscale("log")
    wrapped = positions - np.floor(positions / edge) * edge
    order = np.argsort(numbers)
    points = right.scatter(wrapped[order, 0], wrapped[order, 1], c=numbers[order], s=6, cmap="viridis")
    right.set_aspect("equal")
    right.set_xlim(0, edge)
    right.set_ylim(0, edge)
    right.set_xlabel("x (nm)")
    right.set_ylabel("y (nm)")
    right.set_title("last frame, coloured by c_i", fontsize=10)
    figure.colorbar(points, ax=right, label="c_i")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--atoms", type=int, default=500)
    parser.add_argument("--ps", type=float, default=200.0, help="simulated time in ps")
    parser.add_argument("--target", type=float, default=80.0, help="atoms the restraint's centre reaches at the end")
    parser.add_argument("--platform", default=None, help="CUDA, OpenCL, CPU or Reference (default: OpenMM's fastest)")
    parser.add_argument("--out", default=".", help="folder for cluster_growth.png and cluster_growth.csv")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    system, positions, edge = build(args.atoms, args.seed)
    force = coordination_variable(args.atoms)
    system.addForce(force)
    integrator = mm.LangevinMiddleIntegrator(TEMPERATURE * unit.kelvin, 1.0 / unit.picosecond, TIMESTEP * unit.picoseconds)
    integrator.setRandomNumberSeed(args.seed)
    if args.platform:
        platform = mm.Platform.getPlatformByName(args.platform)
    else:
        platform = max((mm.Platform.getPlatform(i) for i in range(mm.Platform.getNumPlatforms())), key=lambda p: p.getSpeed())
    properties = {"Precision": "mixed"} if platform.getName() in ("CUDA", "OpenCL") else {}
    context = mm.Context(system, integrator, platform, properties)
    context.setPositions(positions)
    mm.LocalEnergyMinimizer.minimize(context, 1.0, 200)
    context.setVelocitiesToTemperature(TEMPERATURE * unit.kelvin, args.seed)
    steps = int(round(args.ps / TIMESTEP / REPORT_EVERY)) * REPORT_EVERY
    print(f"platform {platform.getName()}; {args.atoms} LJ atoms (argon) in a {edge:.2f} nm box at "
          f"{DENSITY} atoms/sigma^3, {TEMPERATURE:g} K")
    print(f"restraint 0.5*{KAPPA:g}*(morethan - n0)^2, n0 from 0 to {args.target:g} atoms over {args.ps:g} ps "
          f"({steps} steps); morethan = COORDINATIONNUMBER MORE_THAN={{{MORE_THAN}}}")

    os.makedirs(args.out, exist_ok=True)
    try:
        from tqdm import tqdm
        bar = tqdm(total=steps, unit="step", unit_scale=True, dynamic_ncols=True)
    except ImportError:  # tqdm is installed by the set-up; without it, a line per 10 %
        bar = None
    rows = []
    start = time.time()
    done = 0
    while done < steps:
        centre = args.target * min(1.0, (done + REPORT_EVERY) / steps)
        context.setParameter("n0", centre)
        integrator.step(REPORT_EVERY)
        done += REPORT_EVERY
        n, mean = force.getCollectiveVariableValues(context)
        numbers = np.array(force.getCoordinationNumbers(context))
        rows.append((done * TIMESTEP, centre, n, mean, numbers.max()))
        ns_per_day = done * TIMESTEP / 1000 / ((time.time() - start) / 86400)
        if bar is not None:
            bar.update(REPORT_EVERY)
            bar.set_postfix_str(f"n0={centre:.0f} n={n:.1f} max c={numbers.max():.1f} {ns_per_day:.1f} ns/day")
        elif done % max(REPORT_EVERY, steps // 10 // REPORT_EVERY * REPORT_EVERY) == 0:
            print(f"{done * TIMESTEP:8.1f} ps  n0 = {centre:.1f}  n = {n:.1f}  {ns_per_day:.1f} ns/day", flush=True)
    if bar is not None:
        bar.close()
    elapsed = time.time() - start

    table = np.array(rows)
    csv_path = os.path.join(args.out, "cluster_growth.csv")
    with open(csv_path, "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["time_ps", "n0", "morethan", "mean_c", "largest_c"])
        for row in rows:
            writer.writerow([f"{row[0]:.2f}", f"{row[1]:.3f}", f"{row[2]:.4f}", f"{row[3]:.4f}", f"{row[4]:.4f}"])
    final = context.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(unit.nanometer)
    png_path = os.path.join(args.out, "cluster_growth.png")
    title = (f"{args.atoms} LJ atoms, {TEMPERATURE:g} K: restraint on COORDINATIONNUMBER MORE_THAN "
             f"(n0 0 to {args.target:g}, {args.ps:g} ps, {platform.getName()})")
    try:
        plot(png_path, table, numbers, final, edge, title)
    except ImportError:
        png_path = "(no matplotlib: no picture)"
    print(f"{args.ps:g} ps in {elapsed:.0f} s ({args.ps / 1000 / (elapsed / 86400):.1f} ns/day); n went from "
          f"{table[0, 2]:.1f} to {table[-1, 2]:.1f} (target {args.target:g}); mean coordination "
          f"{table[0, 3]:.2f} to {table[-1, 3]:.2f}; largest c_i {table[-1, 4]:.1f}")
    print(f"wrote {png_path} and {csv_path}")


if __name__ == "__main__":
    main()
