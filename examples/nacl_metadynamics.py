"""NaCl dissociation in water: well-tempered metadynamics on the Na-Cl coordination number.

One Na+ and one Cl- in a box of TIP3P water (Amber14 force field, PME, Langevin dynamics at 300 K),
built with OpenMM's own Modeller and ForceField. The collective variable is PLUMED's COORDINATION of
the pair (PAIR mode, R_0 = 0.3 nm, NN = 6, MM = 12):

    s = (1 - (r/r0)^6) / (1 - (r/r0)^12) = 1 / (1 + (r/r0)^6),   r = the Na-Cl distance,

so s ~ 0.6 in the contact ion pair (r ~ 0.28 nm), ~ 0.05 in the solvent-separated pair (r ~ 0.5 nm)
and -> 0 when the ions are apart. CoordinationForce("s") is the BiasVariable of OpenMM's
app.Metadynamics, which deposits Gaussian hills on s (well-tempered, bias factor 6) and returns the
free energy F(s).

    python examples/nacl_metadynamics.py            # about two minutes on a 2-core CPU (60 ps)
    python examples/nacl_metadynamics.py --long     # 10 ns: a converged F(s) (a GPU: ~15 minutes)
    python examples/nacl_metadynamics.py --ps 500 --platform CUDA --out results/

Writes free_energy.png (F against s, with the Na-Cl distance on the top axis, and s over time) and
colvar.csv (time, s, Na-Cl distance) in --out. The short default run starts from the contact pair; the
bias pushes the ions apart and back a few times within the 60 ps, so F(s) already shows both minima
(contact at r ~ 0.27 nm, solvent-separated at ~ 0.52 nm) and the barrier between them, but with
errors of several kJ/mol. The long run converges F(s).
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
    return modeller, system, atoms["NA"], atoms["CL"]


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


def distance_of(s):
    """The Na-Cl distance at which sigma = s (d0 = 0, m = 2n, ignoring the small stretch): r0 ((1 - s)/s)^(1/n)."""
    s = np.clip(np.asarray(s, dtype=float), 1e-12, 1 - 1e-12)
    return R0 * ((1 - s) / s) ** (1.0 / N)


def minimum_image_distance(positions, box, first, second):
    delta = np.asarray(positions[second]) - np.asarray(positions[first])
    lengths = np.array([box[0][0], box[1][1], box[2][2]])
    delta -= lengths * np.round(delta / lengths)
    return float(np.linalg.norm(delta))


def plot(path, grid, free_energy, times, values, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.25, 1]})
    visited = grid <= max(values.max() + 3 * HILL_WIDTH, grid[1])
    shown = free_energy[visited] - free_energy[visited].min()
    left.plot(grid[visited], shown, color="tab:blue")
    left.set_xlabel("coordination number s (Na-Cl)")
    left.set_ylabel("free energy (kJ/mol)")
    left.set_title(title, fontsize=10)
    top = left.secondary_xaxis("top", functions=(lambda s: distance_of(s), lambda r: 1 / (1 + (np.asarray(r) / R0) ** N)))
    top.set_xticks([0.25, 0.28, 0.32, 0.36, 0.4, 0.5])
    top.set_xlabel("Na-Cl distance (nm)")
    for r, label in ((0.28, "contact\npair"), (0.5, "solvent-\nseparated")):
        s = 1 / (1 + (r / R0) ** N)
        left.axvline(s, color="gray", lw=0.6, ls=":")
        left.text(s, 0.92 * max(shown.max(), 1e-9), label, ha="center", va="top", fontsize=8, color="gray")
    right.plot(times, values, lw=0.6, color="tab:orange")
    right.set_xlabel("time (ps)")
    right.set_ylabel("s")
    right.set_ylim(0, 1)
    right.set_title("s over time", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=130)
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
    simulation.minimizeEnergy(maxIterations=500)
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

    contact = (grid > 0.3) & (grid < 0.9)
    separated = (grid > 0.02) & (grid < 0.12)
    barrier = (grid > 0.12) & (grid < 0.3)
    f_contact, f_separated = free_energy[contact].min(), free_energy[separated].min()
    s_contact, s_separated = grid[contact][free_energy[contact].argmin()], grid[separated][free_energy[separated].argmin()]
    print(f"{simulated:g} ps in {elapsed:.0f} s ({simulated / 1000 / (elapsed / 86400):.1f} ns/day); "
          f"{len(values)} hills; s visited {values.min():.3f} .. {values.max():.3f} "
          f"(Na-Cl {distance_of(values.max()):.2f} .. {distance_of(max(values.min(), 1e-6)):.2f} nm)")
    if values.min() < 0.12:
        print(f"F(s): contact-pair minimum at s = {s_contact:.3f} (r = {distance_of(s_contact):.3f} nm), "
              f"solvent-separated minimum at s = {s_separated:.3f} (r = {distance_of(s_separated):.3f} nm), "
              f"F(separated) - F(contact) = {f_separated - f_contact:+.1f} kJ/mol, "
              f"barrier from the contact side {free_energy[barrier].max() - f_contact:.1f} kJ/mol")
    else:
        print(f"F(s): contact-pair minimum at s = {s_contact:.3f} (r = {distance_of(s_contact):.3f} nm); "
              "the solvent-separated pair was not reached yet: run longer")
    print(f"wrote {png_path}, {fes_path} and {csv_path}")


if __name__ == "__main__":
    main()
