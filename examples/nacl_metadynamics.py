"""NaCl dissociation in water: well-tempered metadynamics on the Na-Cl coordination number
=======================================================================================

One Na+ and one Cl- in a box of TIP3P water (Amber14 force field, PME, Langevin dynamics at 300 K),
built with OpenMM's own Modeller and ForceField. The collective variable is PLUMED's COORDINATION of
the pair (PAIR mode, R_0 = 0.3 nm, NN = 6, MM = 12):

    s = (1 - (r/r0)^6) / (1 - (r/r0)^12) = 1 / (1 + (r/r0)^6),   r = the Na-Cl distance,

so s ~ 0.6 in the contact ion pair (r ~ 0.28 nm), ~ 0.05 in the solvent-separated pair (r ~ 0.5 nm)
and -> 0 when the ions are apart. CoordinationForce("s") is the BiasVariable of OpenMM's
app.Metadynamics, which deposits Gaussian hills on s (well-tempered, bias factor 6) and returns the
free energy F(s).

Usage::

    python examples/nacl_metadynamics.py            # about two minutes on a 2-core CPU (60 ps)
    python examples/nacl_metadynamics.py --long     # 10 ns: a converged F(s) (an H100: ~13 minutes)
    python examples/nacl_metadynamics.py --ps 500 --platform CUDA --out results/

Writes free_energy.png (F against s, with the Na-Cl distance on the top axis; the same result as the
potential of mean force W(r) of the Na-Cl distance; s over time), free_energy.csv and colvar.csv (time,
s, Na-Cl distance) in --out. The short default run starts from the contact pair; within its 60 ps the
bias fills the contact well and pushes the ions over the barrier and apart (to r ~ 1 nm), so the
picture shows the contact minimum (r ~ 0.27 nm) and a first estimate of the barrier (r ~ 0.36-0.38 nm,
~12 kJ/mol above it), with errors of several kJ/mol: one crossing is not a converged free energy. The
solvent-separated minimum (r ~ 0.50 nm) needs the long run: on an H100, 6.3 ns in 8 minutes give
docs/showcase/free_energy.png.
"""
import argparse
import csv
import os
import time

import numpy as np
import openmm as mm
import openmm.app as app
import openmm.unit as unit

from openmmcoordination import CoordinationForce

TEMPERATURE = 300.0  # K
TIMESTEP = 0.002  # ps
BOX = 2.2  # nm, a cube: about 340 waters
CUTOFF = 0.9  # nm, PME direct space
R0, N, M = 0.3, 6, 12  # the switching function (PLUMED: R_0=0.3 NN=6 MM=12)
DMAX = 1.0  # nm: below half the box, so the minimum image is the only image; stretched to reach 0
HEIGHT = 1.5  # kJ/mol, initial hill height
BIAS_FACTOR = 6.0
HILL_WIDTH = 0.015  # in s
HILL_EVERY = 250  # steps (0.5 ps)
SHORT_PS, LONG_PS = 60.0, 10000.0
HOLD_PARAMETER = "k_hold"


def platform_is_a_cpu(platform):
    """True for OpenCL on a CPU device (PoCL and the like): OpenMM's CPU platform is faster there."""
    system = mm.System()
    system.addParticle(1.0)
    context = mm.Context(system, mm.VerletIntegrator(0.001), platform)
    names = " ".join(platform.getPropertyValue(context, name) for name in ("OpenCLPlatformName", "DeviceName"))
    del context
    return "portable computing language" in names.lower() or "cpu" in names.lower()


def fastest_platform():
    """CUDA, then OpenCL (on a GPU), then CPU; with the reason for the choice."""
    names = [mm.Platform.getPlatform(i).getName() for i in range(mm.Platform.getNumPlatforms())]
    if "CUDA" in names:
        return mm.Platform.getPlatformByName("CUDA"), "CUDA: an NVIDIA GPU"
    notes = []
    if "OpenCL" in names:
        platform = mm.Platform.getPlatformByName("OpenCL")
        try:
            if not platform_is_a_cpu(platform):
                return platform, "OpenCL: a GPU without CUDA"
            notes.append("OpenCL runs on the CPU here")
        except mm.OpenMMException as error:
            notes.append(f"OpenCL unusable ({error})")
    reason = "CPU: no CUDA" + ("; " + "; ".join(notes) if notes else "")
    return mm.Platform.getPlatformByName("CPU"), reason


def build(box=BOX):
    """Na+ and Cl- in contact (0.28 nm apart) in a cube of TIP3P water: the system and the positions."""
    forcefield = app.ForceField("amber14-all.xml", "amber14/tip3p.xml")
    topology = app.Topology()
    chain = topology.addChain()
    topology.addAtom("NA", app.element.sodium, topology.addResidue("NA", chain))
    topology.addAtom("CL", app.element.chlorine, topology.addResidue("CL", chain))
    modeller = app.Modeller(topology, [mm.Vec3(0, 0, 0), mm.Vec3(0.28, 0, 0)] * unit.nanometer)
    modeller.addSolvent(forcefield, model="tip3p", boxSize=mm.Vec3(box, box, box) * unit.nanometer)
    system = forcefield.createSystem(modeller.topology, nonbondedMethod=app.PME,
                                     nonbondedCutoff=CUTOFF * unit.nanometer, constraints=app.HBonds)
    atoms = {atom.residue.name: atom.index for atom in modeller.topology.atoms() if atom.residue.name in ("NA", "CL")}
    # Holds the contact pair while the energy is minimized (the minimizer can otherwise pull the ions
    # apart); its force constant is set to 0 before the dynamics.
    hold = mm.CustomBondForce(f"0.5*{HOLD_PARAMETER}*(r-0.28)^2")
    hold.addGlobalParameter(HOLD_PARAMETER, 0.0)
    hold.addBond(atoms["NA"], atoms["CL"], [])
    hold.setUsesPeriodicBoundaryConditions(True)
    system.addForce(hold)
    return modeller, system, atoms["NA"], atoms["CL"]


def minimize_in_contact(context, max_iterations=500):
    """Energy minimization of a Context of build()'s System with the ions held at 0.28 nm, then released."""
    context.setParameter(HOLD_PARAMETER, 5.0e4)  # kJ/mol/nm^2
    mm.LocalEnergyMinimizer.minimize(context, 10.0, max_iterations)  # Simulation.minimizeEnergy's tolerance
    context.setParameter(HOLD_PARAMETER, 0.0)


def coordination_variable(sodium, chloride):
    """PLUMED's COORDINATION GROUPA=Na GROUPB=Cl PAIR R_0=0.3 NN=6 MM=12 D_MAX=1.0, as a force whose energy is s."""
    force = CoordinationForce("s")
    force.setMode(CoordinationForce.Pair)
    force.setGroupA([sodium])
    force.setGroupB([chloride])
    force.setR0(R0)
    force.setN(N)
    force.setM(M)
    force.setDMax(DMAX)
    force.setUsesPeriodicBoundaryConditions(True)
    return force


KT = 0.0083144626 * TEMPERATURE  # kJ/mol
# W(r) is drawn up to here: beyond, s changes by less than a hill width (0.015) over 0.05 nm of distance, so
# F(s) no longer resolves r (every distance from ~0.6 nm to DMAX lies within s < 0.015).
PMF_LAST = 0.56  # nm


def _unstretched(r):
    """PLUMED's rational function with d0 = 0 and m = 2n: 1 / (1 + (r/r0)^n)."""
    return 1.0 / (1.0 + (np.asarray(r, dtype=float) / R0) ** N)


def coordination_of(r):
    """s at Na-Cl distance r (nm), stretched as PLUMED and CoordinationForce do so that s(DMAX) = 0."""
    tail = _unstretched(DMAX)
    return np.where(np.asarray(r) < DMAX, (_unstretched(r) - tail) / (1.0 - tail), 0.0)


def distance_of(s):
    """The Na-Cl distance at which the coordination number is s: the inverse of coordination_of."""
    tail = _unstretched(DMAX)
    sigma = np.clip(np.asarray(s, dtype=float) * (1.0 - tail) + tail, 1e-12, 1 - 1e-12)
    return R0 * ((1 - sigma) / sigma) ** (1.0 / N)


def potential_of_mean_force(grid, free_energy, distances):
    """F(s) as the Na-Cl potential of mean force W(r), zero at its minimum.

    s is a monotonic function of the one distance, so p(r) = p(s) |ds/dr|, and W(r) removes the volume
    factor 4 pi r^2 as usual: W(r) = F(s(r)) - kT ln|ds/dr| + 2 kT ln r.
    """
    s = coordination_of(distances)
    x = distances / R0
    tail = _unstretched(DMAX)
    slope = N * x ** (N - 1) / R0 / (1 + x ** N) ** 2 / (1 - tail)
    w = np.interp(s, grid, free_energy) - KT * np.log(slope) + 2 * KT * np.log(distances)
    return w - w.min()


def pmf_minima(distances, w):
    """(r, W) of the contact minimum, the solvent-separated minimum and the barrier between them."""
    contact = (distances > 0.24) & (distances < 0.32)
    separated = (distances > 0.42) & (distances < PMF_LAST)
    barrier = (distances > 0.30) & (distances < 0.45)
    def pick(mask, f):
        return (distances[mask][f(w[mask])], w[mask][f(w[mask])]) if mask.any() else (np.nan, np.nan)
    return pick(contact, np.argmin), pick(separated, np.argmin), pick(barrier, np.argmax)


def is_interior_minimum(distances, w, r):
    """Whether W has a true local minimum at r (not just the lowest value at the end of the window)."""
    k = int(np.argmin(np.abs(distances - r)))
    return 0 < k < len(w) - 1 and w[k] <= w[k - 1] and w[k] <= w[k + 1]


def minimum_image_distance(positions, box, first, second):
    delta = np.asarray(positions[second]) - np.asarray(positions[first])
    lengths = np.array([box[0][0], box[1][1], box[2][2]])
    delta -= lengths * np.round(delta / lengths)
    return float(np.linalg.norm(delta))


def plot(path, grid, free_energy, times, values, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, middle, right) = plt.subplots(1, 3, figsize=(15, 4.2), gridspec_kw={"width_ratios": [1.2, 1, 1]})
    figure.suptitle(title, fontsize=11)
    visited = grid <= max(values.max() + 3 * HILL_WIDTH, grid[1])
    shown = free_energy[visited] - free_energy[visited].min()
    left.plot(grid[visited], shown, color="tab:blue")
    left.set_xlabel("coordination number s (Na-Cl)")
    left.set_ylabel("free energy F(s) (kJ/mol)")
    top = left.secondary_xaxis("top", functions=(distance_of, coordination_of))
    top.set_xticks([0.25, 0.28, 0.32, 0.36, 0.4, 0.5])
    top.set_xlabel("Na-Cl distance (nm)", fontsize=9)
    left.text(0.98, 0.03, "s < 0.015: every distance\nfrom ~0.6 nm to dmax", transform=left.transAxes, ha="right", fontsize=8,
              color="gray")

    # The same result as the Na-Cl potential of mean force, where s still resolves the distance.
    distances = np.linspace(min(max(0.235, float(distance_of(min(values.max(), 0.95)))), PMF_LAST - 0.05), PMF_LAST, 300)
    w = potential_of_mean_force(grid, free_energy, distances)
    middle.plot(distances, w, color="tab:green")
    for (r, value), label in zip(pmf_minima(distances, w), ("contact\npair", "solvent-\nseparated", "barrier")):
        if not np.isfinite(r) or (label.startswith("solvent") and not is_interior_minimum(distances, w, r)):
            continue
        middle.plot([r], [value], "o", color="black", ms=3)
        middle.annotate(f"{label}\n{r:.2f} nm", (r, value), textcoords="offset points", xytext=(0, 8), ha="center",
                        fontsize=8)
    middle.set_xlabel("Na-Cl distance r (nm)")
    middle.set_ylabel("W(r) = F(s(r)) - kT ln|ds/dr| + 2 kT ln r (kJ/mol)", fontsize=8)
    middle.set_ylim(-1, max(25.0, min(w.max(), 40.0)))
    right.plot(times, values, lw=0.6, color="tab:orange")
    right.set_xlabel("time (ps)")
    right.set_ylabel("s")
    right.set_ylim(0, 1)
    right.set_title("s over time", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def replot(folder):
    """free_energy.png again from the CSV files of a run (e.g. one made on a GPU machine without matplotlib)."""
    with open(os.path.join(folder, "free_energy.csv")) as stream:
        title = stream.readline().lstrip("# ").rsplit(";", 1)[0].strip()
        table = np.genfromtxt(stream, delimiter=",", names=True)
    colvar = np.genfromtxt(os.path.join(folder, "colvar.csv"), delimiter=",", names=True)
    plot(os.path.join(folder, "free_energy.png"), table["s"], table["free_energy_kj_mol"], colvar["time_ps"],
         colvar["s"], title)
    print(f"wrote {os.path.join(folder, 'free_energy.png')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ps", type=float, default=None, help=f"simulated time in ps (default {SHORT_PS:g})")
    parser.add_argument("--long", action="store_true", help=f"a converged run, {LONG_PS / 1000:g} ns (use a GPU)")
    parser.add_argument("--platform", default=None, help="CUDA, OpenCL, CPU or Reference (default: the fastest present)")
    parser.add_argument("--max-minutes", type=float, default=None, help="stop early after this much wall time")
    parser.add_argument("--out", default=".", help="folder for free_energy.png and colvar.csv")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plot-only", action="store_true",
                        help="no simulation: redraw free_energy.png from colvar.csv and free_energy.csv in --out")
    args = parser.parse_args()
    if args.plot_only:
        replot(args.out)
        return
    picoseconds = args.ps if args.ps is not None else (LONG_PS if args.long else SHORT_PS)
    steps = int(round(picoseconds / TIMESTEP / HILL_EVERY)) * HILL_EVERY

    if args.platform:
        platform, reason = mm.Platform.getPlatformByName(args.platform), "asked for"
    else:
        platform, reason = fastest_platform()
    modeller, system, sodium, chloride = build()
    variable = app.BiasVariable(coordination_variable(sodium, chloride), minValue=0.0, maxValue=1.0,
                                biasWidth=HILL_WIDTH, periodic=False, gridWidth=401)
    metadynamics = app.Metadynamics(system, [variable], TEMPERATURE * unit.kelvin, BIAS_FACTOR,
                                    HEIGHT * unit.kilojoules_per_mole, HILL_EVERY)
    integrator = mm.LangevinMiddleIntegrator(TEMPERATURE * unit.kelvin, 1.0 / unit.picosecond,
                                             TIMESTEP * unit.picoseconds)
    integrator.setRandomNumberSeed(args.seed)
    # Mixed precision on a GPU (single-precision forces, double-precision integration), as is usual for MD.
    properties = {"Precision": "mixed"} if platform.getName() in ("CUDA", "OpenCL") else {}
    simulation = app.Simulation(modeller.topology, system, integrator, platform, properties)
    simulation.context.setPositions(modeller.positions)
    minimize_in_contact(simulation.context)
    simulation.context.setVelocitiesToTemperature(TEMPERATURE * unit.kelvin, args.seed)
    print(f"platform {platform.getName()} ({reason}); {system.getNumParticles()} atoms "
          f"({(system.getNumParticles() - 2) // 3} TIP3P waters, Na+, Cl-), {BOX} nm box, PME, 300 K")
    print(f"well-tempered metadynamics on s = COORDINATION PAIR Na-Cl (R_0={R0} NN={N} MM={M}): "
          f"hills {HEIGHT} kJ/mol x {HILL_WIDTH} every {HILL_EVERY * TIMESTEP:g} ps, bias factor {BIAS_FACTOR:g}; "
          f"{picoseconds:g} ps ({steps} steps)")

    os.makedirs(args.out, exist_ok=True)
    times, values = [], []
    box = [[BOX, 0, 0], [0, BOX, 0], [0, 0, BOX]]
    try:
        from tqdm import tqdm
        bar = tqdm(total=steps, unit="step", unit_scale=True, dynamic_ncols=True)
    except ImportError:  # tqdm is installed by the set-up; without it, a line per 5 %
        bar = None
    start = time.time()
    csv_path = os.path.join(args.out, "colvar.csv")
    with open(csv_path, "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["time_ps", "s", "na_cl_distance_nm"])
        done = 0
        while done < steps:
            metadynamics.step(simulation, HILL_EVERY)
            done += HILL_EVERY
            s = float(metadynamics.getCollectiveVariables(simulation)[0])
            state = simulation.context.getState(positions=True, enforcePeriodicBox=False)
            box = state.getPeriodicBoxVectors().value_in_unit(unit.nanometer)
            r = minimum_image_distance(state.getPositions(asNumpy=True).value_in_unit(unit.nanometer), box,
                                       sodium, chloride)
            times.append(done * TIMESTEP)
            values.append(s)
            writer.writerow([f"{done * TIMESTEP:.1f}", f"{s:.6f}", f"{r:.5f}"])
            elapsed = time.time() - start
            ns_per_day = done * TIMESTEP / 1000 / (elapsed / 86400)
            if bar is not None:
                bar.update(HILL_EVERY)
                bar.set_postfix_str(f"s={s:.3f} r={r:.3f} nm {ns_per_day:.1f} ns/day")
            elif done % max(HILL_EVERY, steps // 20 // HILL_EVERY * HILL_EVERY) == 0:
                print(f"{done * TIMESTEP:8.1f} ps  s = {s:.3f}  r = {r:.3f} nm  {ns_per_day:.1f} ns/day", flush=True)
            if args.max_minutes is not None and elapsed > 60 * args.max_minutes:
                break
    if bar is not None:
        bar.close()
    elapsed = time.time() - start

    times, values = np.array(times), np.array(values)
    grid = np.linspace(variable.minValue, variable.maxValue, variable.gridWidth)
    free_energy = np.asarray(metadynamics.getFreeEnergy().value_in_unit(unit.kilojoules_per_mole))
    simulated = times[-1] if len(times) else 0.0
    title = (f"NaCl in TIP3P water, well-tempered metadynamics, {simulated / 1000:g} ns"
             if simulated >= 1000 else f"NaCl in TIP3P water, well-tempered metadynamics, {simulated:g} ps")
    fes_path = os.path.join(args.out, "free_energy.csv")
    with open(fes_path, "w", newline="") as stream:
        stream.write(f"# {title.replace(',', ';')}; {platform.getName()}\n")
        writer = csv.writer(stream)
        writer.writerow(["s", "na_cl_distance_nm", "free_energy_kj_mol"])
        for value, energy in zip(grid, free_energy):
            writer.writerow([f"{value:.5f}", f"{float(distance_of(value)):.5f}", f"{energy:.4f}"])
    png_path = os.path.join(args.out, "free_energy.png")
    try:
        plot(png_path, grid, free_energy, times, values, title)
    except ImportError:
        png_path = "(no matplotlib: no picture; --plot-only draws it later)"

    print(f"{simulated:g} ps in {elapsed:.0f} s ({simulated / 1000 / (elapsed / 86400):.1f} ns/day); "
          f"{len(values)} hills; s visited {values.min():.3f} .. {values.max():.3f} "
          f"(Na-Cl {float(distance_of(values.max())):.2f} .. {float(distance_of(values.min())):.2f} nm)")
    if values.min() < coordination_of(0.5):
        distances = np.linspace(0.235, PMF_LAST, 300)
        w = potential_of_mean_force(grid, free_energy, distances)
        (r_contact, w_contact), (r_separated, w_separated), (r_barrier, w_barrier) = pmf_minima(distances, w)
        print(f"W(r): contact-pair minimum at r = {r_contact:.3f} nm, barrier at r = {r_barrier:.3f} nm, "
              f"{w_barrier - w_contact:.1f} kJ/mol above the contact pair")
        if is_interior_minimum(distances, w, r_separated):
            print(f"W(r): solvent-separated minimum at r = {r_separated:.3f} nm, "
                  f"W(separated) - W(contact) = {w_separated - w_contact:+.1f} kJ/mol")
        else:
            print("W(r): no solvent-separated minimum resolved yet (r ~ 0.5 nm): run longer (--long)")
    else:
        print("the solvent-separated pair (r ~ 0.5 nm) was not reached yet: run longer")
    print(f"wrote {png_path}, {fes_path} and {csv_path}")


if __name__ == "__main__":
    main()
