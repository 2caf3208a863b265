"""Crystallising a supercooled Lennard-Jones liquid: a moving restraint on Steinhardt's Q6
=======================================================================================

Argon-like Lennard-Jones atoms (sigma = 0.34 nm, epsilon = 0.996 kJ/mol, 39.948 u) at 0.95 atoms/sigma^3 in a
periodic cubic box at T = 0.65 epsilon/k (78 K). That is close to the density of the Lennard-Jones solid at melting
(about 0.96 atoms/sigma^3 at 0.7 epsilon/k for the full potential) and far above the liquid's (about 0.85):
face-centred cubic is the stable phase, and a perfect lattice kept at 78 K stays fcc, its energy 0.5 to 0.7 kJ/mol
per atom below the liquid's. Yet the liquid does not crystallise by itself in a run of 100 ps: a crystal must start
from a nucleus, a rare fluctuation in a box of 500 atoms (run --kappa 0: the restraint is off and the liquid's Q6
stays where it started). The box holds a whole number of fcc cells (--atoms is 4 k^3: 256, 500, 864, ...). The
script measures the Q6 of the perfect lattice and of that lattice after 10 ps at 78 K (the reference crystal), then
starts the liquid from a disordered, minimised configuration, 10 ps at 2 epsilon/k (240 K) and 10 ps at 78 K. The
collective variable is PLUMED's

    q6: Q6 SPECIES=1-N SWITCH={RATIONAL R_0=0.44 NN=6 MM=12 D_MAX=0.55} MEAN

the mean over the atoms of Q6(i), the length of atom i's vector q_6m(i) (m = -6 ... 6, the sum of Y_6m over its
neighbours) divided by N_i, the neighbours weighted by s(r) = (1 - (r/r0)^6) / (1 - (r/r0)^12), stretched to reach 0
at D_MAX (PLUMED's default). At this density the fcc lattice's nearest neighbours sit at 0.388 nm (s = 0.60) and its
second shell at 0.549 nm (s = 0.002): the first shell counts and the second does not. The perfect lattice has Q6 =
0.583 (with the first shell alone 0.584, PLUMED's normalisation: Steinhardt's 0.5745 times sqrt(13/4 pi); the second
shell's small weight lowers it), the crystal at 78 K 0.49 to 0.50, the liquid about 0.41. A harmonic restraint 0.5
kappa (mean - q0)^2 whose centre q0 moves linearly from the liquid's mean Q6 (measured after cooling) to --target
(0.50, the crystal's) over the first 75 % of the run and then stays there (PLUMED's MOVINGRESTRAINT) orders the
liquid; kappa is 1200 kJ/mol per atom. The atoms with Q6(i) > 0.45 count as ordered (20 to 26 % of the liquid's, 85
to 92 % of the crystal's). As a PLUMED input, for the default 500 atoms and 100 ps of 10 fs steps (AT0 is the
liquid's mean Q6, which the script measures):

    q6: Q6 SPECIES=1-500 SWITCH={RATIONAL R_0=0.44 NN=6 MM=12 D_MAX=0.55} MEAN
    MOVINGRESTRAINT ARG=q6.mean STEP0=0 AT0=0.41 KAPPA0=600000 STEP1=7500 AT1=0.50 KAPPA1=600000

The Q6 of every atom and the restraint's energy and forces are computed by the plugin's SteinhardtForce on any
OpenMM platform (on a GPU with no host round trip per step).

Usage::

    python examples/lj_crystallisation_q6.py                     # 500 atoms, 100 ps: about 40 s on a 2-core CPU
    python examples/lj_crystallisation_q6.py --kappa 0           # the same liquid with no restraint
    python examples/lj_crystallisation_q6.py --speed --platform CUDA --atoms 4000   # ns/day with and without Q6

Writes crystallisation_q6.png (mean Q6 and q0 over time; the per-atom Q6 of the cooled liquid, of the last frame
and of the crystal at 78 K; a slice of the last frame coloured by Q6(i)) and crystallisation_q6.csv (every ps:
time, q0, mean Q6, fraction of ordered atoms, Lennard-Jones potential energy) in --out. --speed instead times the liquid
with and without the restraint (2000 steps each after 200 of warm-up; kappa on, q0 = --target) and prints both ns/day.
"""
import argparse
import csv
import os
import time

import numpy as np
import openmm as mm
import openmm.unit as unit

from openmmcoordination import SteinhardtForce

SIGMA, EPSILON, MASS = 0.34, 0.996, 39.948  # nm, kJ/mol, u: argon
BOLTZMANN = 0.0083144626  # kJ/mol/K
DENSITY = 0.95  # atoms per sigma^3
TEMPERATURE = 0.65 * EPSILON / BOLTZMANN  # K: 78 K, supercooled
MELT_TEMPERATURE = 2.0 * EPSILON / BOLTZMANN  # K: 240 K, well above melting at this density
CRYSTAL_PS = 10.0  # ps of the perfect lattice at TEMPERATURE: the reference crystal (it stays fcc)
MELT_PS, COOL_PS = 10.0, 10.0  # ps at MELT_TEMPERATURE, then at TEMPERATURE, before the restraint starts
TIMESTEP = 0.01  # ps (0.0046 in units of sigma sqrt(m/epsilon) = 2.15 ps)
REPORT_EVERY = 100  # steps: a row of the table, and a move of q0, every ps
RAMP = 0.75  # the part of the run over which q0 moves; it stays at the target for the rest
SWITCH = dict(r0=0.44, n=6, m=12, dmax=0.55)  # the pair switching function (nm)
KAPPA_PER_ATOM = 1200.0  # kJ/mol: the restraint's spring is this times the atoms (the same pull on each atom)
ORDERED = 0.45  # an atom with Q6(i) above this counts as ordered
SPEED_STEPS, WARM_UP_STEPS = 2000, 200  # --speed: timed steps of each system, after these


def build(atoms):
    """A perfect fcc lattice of `atoms` = 4 k^3 LJ atoms filling a periodic cube at DENSITY, and its System."""
    cells = int(round((atoms / 4) ** (1.0 / 3.0)))
    if 4 * cells**3 != atoms:
        raise SystemExit(f"--atoms must be 4 k^3 (a whole number of fcc cells: 256, 500, 864, ...), not {atoms}")
    lattice = (4.0 / DENSITY) ** (1.0 / 3.0) * SIGMA  # nm: the cubic cell's edge
    edge = cells * lattice
    system = mm.System()
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    lj = mm.NonbondedForce()
    lj.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
    lj.setCutoffDistance(min(2.5 * SIGMA, 0.49 * edge))  # below half the box: 2.5 sigma from 256 atoms up
    lj.setUseDispersionCorrection(False)
    for _ in range(atoms):
        system.addParticle(MASS)
        lj.addParticle(0.0, SIGMA, EPSILON)
    system.addForce(lj)
    basis = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    cells_xyz = np.ndindex(cells, cells, cells)
    positions = np.array([(np.array(cell) + site) * lattice for cell in cells_xyz for site in basis])
    return system, positions, edge, lattice


def disordered(atoms, edge, seed):
    """`atoms` sites drawn at random from a simple cubic grid of at least 1.3 `atoms` sites, jittered: no lattice to
    melt (a perfect fcc crystal heated at constant volume can outlive 10 ps at 2 epsilon/k), no overlaps closer than
    about 0.7 sigma."""
    rng = np.random.default_rng(seed)
    per_edge = int(np.ceil((1.3 * atoms) ** (1.0 / 3.0)))
    grid = np.array(list(np.ndindex(per_edge, per_edge, per_edge)), dtype=float)
    chosen = grid[rng.choice(len(grid), size=atoms, replace=False)]
    return (chosen + 0.5 + rng.uniform(-0.1, 0.1, chosen.shape)) * edge / per_edge


def q6_variable(atoms, kappa):
    """PLUMED's Q6 SPECIES=1-N SWITCH={RATIONAL ...} MEAN, restrained harmonically to the moving centre q0."""
    force = SteinhardtForce(6, "0.5*kappa*(mean-q0)^2")
    force.setGroupA(list(range(atoms)))
    force.setR0(SWITCH["r0"])
    force.setN(SWITCH["n"])
    force.setM(SWITCH["m"])
    force.setDMax(SWITCH["dmax"])  # stretched to reach 0 there: PLUMED's default
    force.setUsesPeriodicBoundaryConditions(True)
    force.addReduction(SteinhardtForce.Mean)
    force.addGlobalParameter("kappa", kappa)
    force.addGlobalParameter("q0", 0.0)
    force.setForceGroup(1)  # the Lennard-Jones energy is group 0
    return force


def lj_energy(context):
    """The Lennard-Jones potential energy (kJ/mol), without the restraint's."""
    return context.getState(getEnergy=True, groups={0}).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)


def choose_platform(name):
    if name:
        return mm.Platform.getPlatformByName(name)
    return max((mm.Platform.getPlatform(i) for i in range(mm.Platform.getNumPlatforms())), key=lambda p: p.getSpeed())


def make_context(system, positions, platform, seed):
    """A Context at `positions` with a LangevinMiddleIntegrator (friction 1/ps, TIMESTEP), and the integrator."""
    integrator = mm.LangevinMiddleIntegrator(MELT_TEMPERATURE * unit.kelvin, 1.0 / unit.picosecond,
                                             TIMESTEP * unit.picoseconds)
    integrator.setRandomNumberSeed(seed)
    properties = {"Precision": "mixed"} if platform.getName() in ("CUDA", "OpenCL") else {}
    context = mm.Context(system, integrator, platform, properties)
    context.setPositions(positions)
    return context, integrator


def melt(context, integrator, edge, atoms, seed):
    """From disordered positions: minimised, MELT_PS at MELT_TEMPERATURE, then COOL_PS at TEMPERATURE."""
    context.setPositions(disordered(atoms, edge, seed))
    mm.LocalEnergyMinimizer.minimize(context, 10.0, 500)
    integrator.setTemperature(MELT_TEMPERATURE * unit.kelvin)
    context.setVelocitiesToTemperature(MELT_TEMPERATURE * unit.kelvin, seed)
    integrator.step(int(round(MELT_PS / TIMESTEP)))
    integrator.setTemperature(TEMPERATURE * unit.kelvin)
    integrator.step(int(round(COOL_PS / TIMESTEP)))


def speed(args, platform):
    """ns/day of the liquid (a disordered, minimised start and WARM_UP_STEPS at TEMPERATURE) with and without the
    restraint on Q6 (kappa on, q0 fixed at --target)."""
    rates = []
    for with_bias in (False, True):
        system, _, edge, _ = build(args.atoms)
        if with_bias:
            force = q6_variable(args.atoms, args.kappa)
            force.setGlobalParameterDefaultValue(1, args.target)
            system.addForce(force)
        context, integrator = make_context(system, disordered(args.atoms, edge, args.seed), platform, args.seed)
        mm.LocalEnergyMinimizer.minimize(context, 10.0, 500)
        integrator.setTemperature(TEMPERATURE * unit.kelvin)
        context.setVelocitiesToTemperature(TEMPERATURE * unit.kelvin, args.seed)
        integrator.step(WARM_UP_STEPS)
        context.getState(getEnergy=True)  # wait for the device
        start = time.time()
        integrator.step(SPEED_STEPS)
        context.getState(getEnergy=True)
        elapsed = time.time() - start
        rates.append(SPEED_STEPS * TIMESTEP / 1000 / (elapsed / 86400))
        label = "with the Q6 restraint" if with_bias else "LJ only             "
        print(f"{label}: {SPEED_STEPS} steps in {elapsed:.2f} s, {rates[-1]:.1f} ns/day", flush=True)
        del context, integrator
    print(f"platform {platform.getName()}, {args.atoms} atoms ({edge:.2f} nm box): the restraint on Q6 costs "
          f"{100 * (rates[0] / rates[1] - 1):.0f} % more time per step ({rates[1]:.1f} against {rates[0]:.1f} ns/day)")


def plot(path, table, start_q6, final_q6, crystal_q6, positions, edge, lattice, fcc_q6, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 4.2))
    figure.suptitle(title, fontsize=11)
    left.plot(table[:, 0], table[:, 1], color="gray", lw=1, label="restraint centre q0")
    left.plot(table[:, 0], table[:, 2], color="tab:blue", lw=1.2, label="mean Q6")
    left.axhline(fcc_q6, color="black", lw=0.8, ls=":", label=f"perfect fcc ({fcc_q6:.3f})")
    left.axhline(crystal_q6.mean(), color="black", lw=0.8, ls="--",
                 label=f"fcc at {TEMPERATURE:.0f} K ({crystal_q6.mean():.3f})")
    left.set_xlabel("time (ps)")
    left.set_ylabel("Q6")
    left.legend(fontsize=8, loc="lower right")
    bins = np.linspace(0.0, 0.7, 57)
    middle.hist(start_q6, bins=bins, color="tab:orange", alpha=0.6, label="cooled liquid (start)")
    middle.hist(final_q6, bins=bins, color="tab:blue", alpha=0.6, label="last frame")
    middle.hist(crystal_q6, bins=bins, color="black", histtype="step", lw=1, label=f"fcc at {TEMPERATURE:.0f} K")
    middle.axvline(ORDERED, color="black", lw=0.8, ls="--")
    middle.set_xlabel("Q6(i)")
    middle.set_ylabel("atoms")
    middle.legend(fontsize=8, loc="upper left")
    wrapped = positions - np.floor(positions / edge) * edge
    layer = np.abs(wrapped[:, 2] - edge / 2) < lattice / 2  # one cubic cell thick
    points = right.scatter(wrapped[layer, 0], wrapped[layer, 1], c=final_q6[layer], s=18, cmap="viridis",
                           vmin=0.2, vmax=0.6)
    right.set_aspect("equal")
    right.set_xlim(0, edge)
    right.set_ylim(0, edge)
    right.set_xlabel("x (nm)")
    right.set_ylabel("y (nm)")
    right.set_title(f"last frame, a slice {lattice:.2f} nm thick, coloured by Q6(i)", fontsize=10)
    figure.colorbar(points, ax=right, label="Q6(i)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--atoms", type=int, default=500, help="4 k^3 atoms: 256, 500, 864, ...")
    parser.add_argument("--ps", type=float, default=100.0, help="simulated time with the restraint, in ps")
    parser.add_argument("--target", type=float, default=0.50, help="the mean Q6 the restraint's centre reaches")
    parser.add_argument("--kappa", type=float, default=None,
                        help=f"the restraint's spring, kJ/mol (default {KAPPA_PER_ATOM:g} per atom; 0: no bias)")
    parser.add_argument("--platform", default=None, help="CUDA, OpenCL, CPU or Reference (default: OpenMM's fastest)")
    parser.add_argument("--out", default=".", help="folder for crystallisation_q6.png and crystallisation_q6.csv")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--speed", action="store_true", help="time ns/day with and without the restraint instead")
    args = parser.parse_args()
    if args.kappa is None:
        args.kappa = KAPPA_PER_ATOM * args.atoms
    platform = choose_platform(args.platform)
    if args.speed:
        speed(args, platform)
        return

    system, positions, edge, lattice = build(args.atoms)
    force = q6_variable(args.atoms, 0.0)
    system.addForce(force)
    context, integrator = make_context(system, positions, platform, args.seed)
    fcc_q6 = force.getCollectiveVariableValues(context)[0]  # the perfect lattice
    wall = time.time()
    integrator.setTemperature(TEMPERATURE * unit.kelvin)
    context.setVelocitiesToTemperature(TEMPERATURE * unit.kelvin, args.seed)
    integrator.step(int(round(CRYSTAL_PS / TIMESTEP)))
    crystal_q6 = np.array(force.getOrderParameters(context))
    crystal_energy = lj_energy(context)
    melt(context, integrator, edge, args.atoms, args.seed)
    start_q6 = np.array(force.getOrderParameters(context))
    liquid = force.getCollectiveVariableValues(context)[0]
    context.setParameter("kappa", args.kappa)
    context.setParameter("q0", liquid)
    steps = int(round(args.ps / TIMESTEP / REPORT_EVERY)) * REPORT_EVERY
    ramp = max(REPORT_EVERY, int(round(RAMP * steps / REPORT_EVERY)) * REPORT_EVERY)
    print(f"platform {platform.getName()}; {args.atoms} LJ atoms (argon) in a {edge:.3f} nm box at {DENSITY} "
          f"atoms/sigma^3, {TEMPERATURE:.1f} K ({TEMPERATURE * BOLTZMANN / EPSILON:.2f} epsilon/k)")
    print(f"Q6 (R_0={SWITCH['r0']} NN={SWITCH['n']} MM={SWITCH['m']} D_MAX={SWITCH['dmax']}) and LJ energy: "
          f"perfect fcc {fcc_q6:.4f}; fcc after {CRYSTAL_PS:g} ps at {TEMPERATURE:.1f} K: mean "
          f"{crystal_q6.mean():.4f}, "
          f"{np.mean(crystal_q6 > ORDERED):.1%} of the atoms above {ORDERED}, {crystal_energy / args.atoms:.3f} kJ/mol "
          f"per atom; the liquid after {MELT_PS:g} ps at {MELT_TEMPERATURE:.0f} K and {COOL_PS:g} ps at "
          f"{TEMPERATURE:.1f} K: mean {liquid:.4f}, {np.mean(start_q6 > ORDERED):.1%} above {ORDERED}, "
          f"{lj_energy(context) / args.atoms:.3f} kJ/mol per atom")
    print(f"restraint 0.5*{args.kappa:g}*(mean - q0)^2, q0 from {liquid:.3f} to {args.target:g} over "
          f"{ramp * TIMESTEP:g} ps, then held to {steps * TIMESTEP:g} ps ({steps} steps)")

    os.makedirs(args.out, exist_ok=True)
    try:
        from tqdm import tqdm
        bar = tqdm(total=steps, unit="step", unit_scale=True, dynamic_ncols=True)
    except ImportError:  # tqdm is installed by the set-up; without it, a line per 10 %
        bar = None
    energy = lj_energy(context)
    rows = [(0.0, liquid, liquid, np.mean(start_q6 > ORDERED), energy)]
    start = time.time()
    done = 0
    while done < steps:
        centre = liquid + (args.target - liquid) * min(1.0, (done + REPORT_EVERY) / ramp)
        context.setParameter("q0", centre)
        integrator.step(REPORT_EVERY)
        done += REPORT_EVERY
        mean = force.getCollectiveVariableValues(context)[0]
        q6 = np.array(force.getOrderParameters(context))
        energy = lj_energy(context)
        rows.append((done * TIMESTEP, centre, mean, np.mean(q6 > ORDERED), energy))
        ns_per_day = done * TIMESTEP / 1000 / ((time.time() - start) / 86400)
        if bar is not None:
            bar.update(REPORT_EVERY)
            bar.set_postfix_str(f"q0={centre:.3f} Q6={mean:.3f} ordered={rows[-1][3]:.0%} {ns_per_day:.1f} ns/day")
        elif done % max(REPORT_EVERY, steps // 10 // REPORT_EVERY * REPORT_EVERY) == 0:
            print(f"{done * TIMESTEP:8.1f} ps  q0 = {centre:.3f}  Q6 = {mean:.3f}  ordered {rows[-1][3]:.0%}  "
                  f"{ns_per_day:.1f} ns/day", flush=True)
    if bar is not None:
        bar.close()
    elapsed = time.time() - start
    if not np.all(np.isfinite(np.array(rows))):
        raise SystemExit("the run produced a non-finite value")

    table = np.array(rows)
    csv_path = os.path.join(args.out, "crystallisation_q6.csv")
    with open(csv_path, "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["time_ps", "q0", "mean_q6", "ordered_fraction", "potential_kj_mol"])
        for row in rows:
            writer.writerow([f"{row[0]:.2f}", f"{row[1]:.4f}", f"{row[2]:.4f}", f"{row[3]:.4f}", f"{row[4]:.2f}"])
    final = context.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(unit.nanometer)
    png_path = os.path.join(args.out, "crystallisation_q6.png")
    title = (f"{args.atoms} LJ atoms, {DENSITY} atoms/sigma^3, {TEMPERATURE:.0f} K: restraint on Q6 MEAN "
             f"(q0 {liquid:.3f} to {args.target:g}, kappa {args.kappa:g} kJ/mol, {args.ps:g} ps, {platform.getName()})")
    try:
        plot(png_path, table, start_q6, q6, crystal_q6, final, edge, lattice, fcc_q6, title)
    except ImportError:
        png_path = "(no matplotlib: no picture)"
    print(f"{args.ps:g} ps in {elapsed:.1f} s ({args.ps / 1000 / (elapsed / 86400):.1f} ns/day; "
          f"{time.time() - wall:.1f} s with the reference crystal, melting and cooling); mean Q6 went from "
          f"{table[0, 2]:.3f} to {table[-1, 2]:.3f} (q0 {table[-1, 1]:.3f}); ordered atoms {table[0, 3]:.0%} to "
          f"{table[-1, 3]:.0%}; LJ energy {table[0, 4] / args.atoms:.3f} to {table[-1, 4] / args.atoms:.3f} kJ/mol "
          f"per atom (fcc at {TEMPERATURE:.0f} K: {crystal_energy / args.atoms:.3f})")
    print(f"wrote {png_path} and {csv_path}")


if __name__ == "__main__":
    main()
