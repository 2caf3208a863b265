"""Unfolding the villin headpiece by steering its fraction of native contacts Q
==============================================================================

The villin headpiece HP35 (N68H) of the PDB file that OpenMM ships (openmm/app/data/test.pdb, stripped of its
water and ions with Modeller), Amber99SB-ILDN with OBC2 implicit solvent (amber99_obc.xml), at 300 K. The
collective variable is the fraction of native contacts of Best, Hummer and Eaton (PNAS 110, 17874, 2013):

    Q = (1/N) sum over native contacts (i, j) of 1 / (1 + exp(beta (r_ij - lambda r_ij(native))))

over the N pairs of heavy atoms more than three residues apart and closer than 0.45 nm in the native structure,
with beta = 50/nm and lambda = 1.8: PLUMED's

    cmap: CONTACTMAP ATOMS1=i,j SWITCH1={Q R_0=0.01 BETA=50 LAMBDA=1.8 REF=r_ij(native)} ... SUM

(a ContactMapForce, one NativeQ switching function per contact, reduction Sum: s = N Q). A harmonic restraint
0.5 k (s/N - q0)^2 whose centre q0 moves from 1 to --target over the first 80 % of the run and stays there
(steered MD, PLUMED's MOVINGRESTRAINT) pulls the protein out of its native state. The script records Q, the
restraint's centre, the C-alpha RMSD from the native structure, the radius of gyration and the work done on the
protein by moving the restraint.

Usage::

    python examples/native_contacts_q.py                        # about 2 minutes on a 2-core CPU (60 ps)
    python examples/native_contacts_q.py --ps 1000 --k 5000 --platform CUDA

Writes native_contacts_q.png (Q and its target over time; the residue contact map, native and last frame; the
RMSD against Q), native_contacts_q.csv (at the start and every ps: time, q0, Q, RMSD, Rg, work) and native_contacts_q_last.pdb
(the last frame) in --out; --markdown writes a table of measurements.
"""
import argparse
import csv
import os
import time

import numpy as np
import openmm as mm
import openmm.app as app
import openmm.unit as unit

from openmmcoordination import ContactMapForce, CoordinationForce

TEMPERATURE = 300.0  # K
TIMESTEP = 0.002  # ps, with bonds to hydrogen constrained
MOVE_EVERY = 50  # steps between moves of the restraint's centre
REPORT_EVERY = 500  # steps: a row of the table every ps
RAMP = 0.8  # the part of the run over which q0 moves; it stays at the target for the rest
NATIVE_CUTOFF = 0.45  # nm: heavy atoms closer than this in the native structure are in contact
MIN_SEPARATION = 4  # residues: the two atoms of a contact are more than three residues apart
BETA, LAMBDA = 50.0, 1.8  # 1/nm and unitless: Best, Hummer and Eaton's all-atom values (PLUMED's Q defaults)


def build():
    """HP35 from OpenMM's test.pdb without water and ions; Amber99SB-ILDN with OBC2 implicit solvent."""
    pdb = app.PDBFile(os.path.join(os.path.dirname(app.__file__), "data", "test.pdb"))
    modeller = app.Modeller(pdb.topology, pdb.positions)
    modeller.deleteWater()
    modeller.delete([residue for residue in modeller.topology.residues() if residue.name in ("Na", "Cl", "NA", "CL")])
    forcefield = app.ForceField("amber99sbildn.xml", "amber99_obc.xml")
    system = forcefield.createSystem(modeller.topology, nonbondedMethod=app.NoCutoff, constraints=app.HBonds)
    return modeller.topology, modeller.positions, system


def native_contacts(topology, positions):
    """Pairs of heavy atoms more than three residues apart within NATIVE_CUTOFF, with their native distances."""
    xyz = positions.value_in_unit(unit.nanometer)
    heavy = [atom for atom in topology.atoms() if atom.element is not None and atom.element.symbol != "H"]
    index = np.array([atom.index for atom in heavy])
    residue = np.array([atom.residue.index for atom in heavy])
    coordinates = np.array([xyz[i] for i in index])
    distances = np.linalg.norm(coordinates[:, None, :] - coordinates[None, :, :], axis=-1)
    first, second = np.nonzero((np.abs(residue[:, None] - residue[None, :]) >= MIN_SEPARATION)
                               & (distances < NATIVE_CUTOFF))
    keep = first < second
    return [(int(index[a]), int(index[b]), float(distances[a, b])) for a, b in zip(first[keep], second[keep])]


def q_restraint(contacts, k):
    """s = sum of the contacts' NativeQ functions (PLUMED's SUM), restrained: 0.5 k (s/N - q0)^2."""
    force = ContactMapForce(f"0.5*k*(s/{len(contacts)}-q0)^2", ContactMapForce.Sum)
    for i, j, native in contacts:
        # NativeQ: 1 / (1 + exp(beta (r - lambda native))); no cutoff (dmax 0: the type's automatic value, none);
        # r0 is not used by NativeQ but must be positive; reference 0 and weight 1: coord_n is the switching function.
        force.addContact(i, j, CoordinationForce.NativeQ, native * unit.nanometer, 0.0 * unit.nanometer,
                         0.0 * unit.nanometer, True, [BETA, LAMBDA, native], 0.0, 1.0)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("q0", 1.0)
    return force


def kabsch_rmsd(a, b):
    """The RMSD of two sets of points after their optimal superposition."""
    a, b = a - a.mean(axis=0), b - b.mean(axis=0)
    u, singular, vt = np.linalg.svd(a.T @ b)
    d = np.sign(np.linalg.det(u @ vt))
    e0 = (a * a).sum() + (b * b).sum()
    return float(np.sqrt(max(0.0, (e0 - 2.0 * (singular[0] + singular[1] + d * singular[2])) / len(a))))


def plot(path, table, contacts, native_values, last_values, residues, residue_of, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 4.2))
    figure.suptitle(title, fontsize=11)
    left.plot(table[:, 0], table[:, 1], color="gray", lw=1, label="restraint centre q0")
    left.plot(table[:, 0], table[:, 2], color="tab:blue", lw=1.4, label="Q (fraction of native contacts)")
    left.set_xlabel("time (ps)")
    left.set_ylabel("Q")
    left.set_ylim(0, 1.05)
    left.legend(fontsize=8, loc="lower left")
    # The residue contact map: per pair of residues, the sum of its contacts' NativeQ values over their number;
    # above the diagonal the native structure, below it the last frame.
    count = np.zeros((residues, residues))
    native = np.zeros((residues, residues))
    last = np.zeros((residues, residues))
    for (i, j, _), at_start, at_end in zip(contacts, native_values, last_values):
        a, b = sorted((residue_of[i], residue_of[j]))
        count[a, b] += 1
        native[a, b] += at_start
        last[a, b] += at_end
    # count, native and last are filled for a < b (row < column: below the diagonal as drawn, origin lower left)
    shown = np.full((residues, residues), np.nan)
    below, above = count > 0, count.T > 0
    shown[below] = (last / np.where(below, count, 1))[below]
    shown[above] = (native / np.where(below, count, 1)).T[above]
    image = middle.imshow(shown, origin="lower", cmap="viridis", vmin=0, vmax=1)
    middle.plot([0, residues - 1], [0, residues - 1], color="black", lw=0.5)
    middle.set_xlabel("residue")
    middle.set_ylabel("residue")
    middle.set_title("per residue pair: native above the diagonal, last frame below", fontsize=9)
    figure.colorbar(image, ax=middle, label="fraction formed")
    points = right.scatter(table[:, 2], table[:, 3], c=table[:, 0], s=12, cmap="plasma")
    right.set_xlabel("Q")
    right.set_ylabel("C-alpha RMSD from native (nm)")
    right.invert_xaxis()
    figure.colorbar(points, ax=right, label="time (ps)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_markdown(path, rows, contacts, elapsed, platform, args):
    """A table of the measurements at every tenth of the run, from its start (after the minimization)."""
    picked = sorted({int(round((len(rows) - 1) * part / 10)) for part in range(11)})
    lines = ["| time (ps) | q0 | Q | C-alpha RMSD (nm) | Rg (nm) | work (kJ/mol) |", "|---:|---:|---:|---:|---:|---:|"]
    for n in picked:
        row = rows[n]
        lines.append(f"| {row[0]:.0f} | {row[1]:.3f} | {row[2]:.3f} | {row[3]:.3f} | {row[4]:.3f} | {row[5]:.0f} |")
    with open(path, "w") as stream:
        stream.write("\n".join(lines) + "\n\n")
        stream.write(f"{len(contacts)} native contacts; k = {args.k:g} kJ/mol, q0 from 1 to {args.target:g} over "
                     f"{RAMP * args.ps:g} ps then held; {args.ps:g} ps in {elapsed:.0f} s on the {platform} platform "
                     f"({args.ps / 1000 / (elapsed / 86400):.1f} ns/day).\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ps", type=float, default=60.0, help="simulated time in ps")
    parser.add_argument("--target", type=float, default=0.3, help="the value q0 reaches (from 1)")
    parser.add_argument("--k", type=float, default=10000.0, help="the restraint's spring, kJ/mol per unit of Q^2")
    parser.add_argument("--platform", default=None, help="CUDA, OpenCL, CPU or Reference (default: OpenMM's fastest)")
    parser.add_argument("--out", default=".", help="folder for native_contacts_q.png, .csv and _last.pdb")
    parser.add_argument("--markdown", help="write a table of measurements (Markdown) to this file")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    topology, positions, system = build()
    contacts = native_contacts(topology, positions)
    force = q_restraint(contacts, args.k)
    system.addForce(force)
    integrator = mm.LangevinMiddleIntegrator(TEMPERATURE * unit.kelvin, 1.0 / unit.picosecond,
                                             TIMESTEP * unit.picoseconds)
    integrator.setRandomNumberSeed(args.seed)
    if args.platform:
        platform = mm.Platform.getPlatformByName(args.platform)
    else:
        platform = max((mm.Platform.getPlatform(i) for i in range(mm.Platform.getNumPlatforms())), key=lambda p: p.getSpeed())
    properties = {"Precision": "mixed"} if platform.getName() in ("CUDA", "OpenCL") else {}
    context = mm.Context(system, integrator, platform, properties)
    context.setPositions(positions)
    native_values = force.getContactValues(context)
    q_native = force.getCollectiveVariableValues(context)[0] / len(contacts)
    mm.LocalEnergyMinimizer.minimize(context, 10.0 * unit.kilojoules_per_mole / unit.nanometer, 500)
    context.setVelocitiesToTemperature(TEMPERATURE * unit.kelvin, args.seed)

    alpha = [atom.index for atom in topology.atoms() if atom.name == "CA"]
    heavy = [atom.index for atom in topology.atoms() if atom.element.symbol != "H"]
    native_alpha = positions.value_in_unit(unit.nanometer)
    native_alpha = np.array([native_alpha[i] for i in alpha])
    residue_of = {atom.index: atom.residue.index for atom in topology.atoms()}
    steps = int(round(args.ps / TIMESTEP / REPORT_EVERY)) * REPORT_EVERY
    ramp_steps = RAMP * steps
    print(f"platform {platform.getName()}; villin HP35 ({topology.getNumResidues()} residues, {system.getNumParticles()} "
          f"atoms), Amber99SB-ILDN + OBC2 implicit solvent, {TEMPERATURE:g} K")
    print(f"{len(contacts)} native contacts (heavy atoms > 3 residues apart within {NATIVE_CUTOFF} nm), NativeQ beta "
          f"{BETA:g}/nm lambda {LAMBDA:g}; Q of the native structure {q_native:.4f}")
    print(f"restraint 0.5*{args.k:g}*(s/{len(contacts)} - q0)^2, q0 from 1 to {args.target:g} over {RAMP * args.ps:g} ps "
          f"then held ({args.ps:g} ps, {steps} steps)")

    os.makedirs(args.out, exist_ok=True)
    try:
        from tqdm import tqdm
        bar = tqdm(total=steps, unit="step", unit_scale=True, dynamic_ncols=True)
    except ImportError:  # tqdm is installed by the set-up; without it, a line per 10 %
        bar = None
    def measure(centre, work):
        """A row of the table: time, q0, Q, C-alpha RMSD from native, radius of gyration (heavy atoms), work."""
        q = force.getCollectiveVariableValues(context)[0] / len(contacts)
        xyz = context.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(unit.nanometer)
        rmsd = kabsch_rmsd(xyz[alpha], native_alpha)
        gyration = float(np.sqrt(((xyz[heavy] - xyz[heavy].mean(axis=0)) ** 2).sum(axis=1).mean()))
        return (done * TIMESTEP, centre, q, rmsd, gyration, work)

    work = 0.0
    centre = 1.0
    done = 0
    rows = [measure(centre, work)]  # after the minimization, before the first step
    start = time.time()
    while done < steps:
        # The restraint's centre moves every MOVE_EVERY steps; moving it from q0 to q0' does the work
        # E(q0') - E(q0) = 0.5 k ((Q - q0')^2 - (Q - q0)^2) on the system, at the Q of that moment.
        for _ in range(REPORT_EVERY // MOVE_EVERY):
            moved = 1.0 - (1.0 - args.target) * min(1.0, (done + MOVE_EVERY) / ramp_steps)
            if moved != centre:
                q = force.getCollectiveVariableValues(context)[0] / len(contacts)
                work += 0.5 * args.k * ((q - moved) ** 2 - (q - centre) ** 2)
                centre = moved
                context.setParameter("q0", centre)
            integrator.step(MOVE_EVERY)
            done += MOVE_EVERY
        rows.append(measure(centre, work))
        _, _, q, rmsd, _, _ = rows[-1]
        ns_per_day = done * TIMESTEP / 1000 / ((time.time() - start) / 86400)
        if bar is not None:
            bar.update(REPORT_EVERY)
            bar.set_postfix_str(f"q0={centre:.3f} Q={q:.3f} RMSD={rmsd:.2f} nm {ns_per_day:.1f} ns/day")
        elif done % max(REPORT_EVERY, steps // 10 // REPORT_EVERY * REPORT_EVERY) == 0:
            print(f"{done * TIMESTEP:8.1f} ps  q0 = {centre:.3f}  Q = {q:.3f}  RMSD = {rmsd:.2f} nm  "
                  f"{ns_per_day:.1f} ns/day", flush=True)
    if bar is not None:
        bar.close()
    elapsed = time.time() - start
    last_values = force.getContactValues(context)

    table = np.array(rows)
    csv_path = os.path.join(args.out, "native_contacts_q.csv")
    with open(csv_path, "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["time_ps", "q0", "Q", "ca_rmsd_nm", "rg_nm", "work_kj_mol"])
        for row in rows:
            writer.writerow([f"{row[0]:.3f}", f"{row[1]:.6f}", f"{row[2]:.6f}", f"{row[3]:.4f}", f"{row[4]:.4f}",
                             f"{row[5]:.3f}"])
    pdb_path = os.path.join(args.out, "native_contacts_q_last.pdb")
    with open(pdb_path, "w") as stream:
        app.PDBFile.writeFile(topology, context.getState(getPositions=True).getPositions(), stream)
    png_path = os.path.join(args.out, "native_contacts_q.png")
    title = (f"villin HP35, {TEMPERATURE:g} K: restraint on Q ({len(contacts)} native contacts), q0 1 to "
             f"{args.target:g} in {RAMP * args.ps:g} ps, k = {args.k:g} kJ/mol ({platform.getName()})")
    try:
        plot(png_path, table, contacts, native_values, last_values, topology.getNumResidues(), residue_of, title)
    except ImportError:
        png_path = "(no matplotlib: no picture)"
    if args.markdown:
        write_markdown(args.markdown, rows, contacts, elapsed, platform.getName(), args)
    print(f"{args.ps:g} ps in {elapsed:.0f} s ({args.ps / 1000 / (elapsed / 86400):.1f} ns/day); Q went from "
          f"{table[0, 2]:.3f} to {table[-1, 2]:.3f} (target {args.target:g}); C-alpha RMSD {table[0, 3]:.2f} to "
          f"{table[-1, 3]:.2f} nm; Rg {table[0, 4]:.2f} to {table[-1, 4]:.2f} nm; work {work:.0f} kJ/mol")
    print(f"wrote {png_path}, {csv_path} and {pdb_path}" + (f"; the table in {args.markdown}" if args.markdown else ""))


if __name__ == "__main__":
    main()
