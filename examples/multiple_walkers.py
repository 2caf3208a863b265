"""Multiple walkers: one well-tempered metadynamics of NaCl dissociation, one process per GPU
==========================================================================================

The system and the collective variable of nacl_metadynamics.py (Na+ and Cl- in TIP3P water; s = PLUMED's
COORDINATION PAIR Na-Cl, R_0 = 0.3 nm, NN = 6, MM = 12, D_MAX = 1 nm). N walkers, each its own process on
its own GPU (OpenMM's DeviceIndex), start from the contact pair with their own random seeds and deposit
hills into one bias: OpenMM's app.Metadynamics writes each walker's hills to --out/bias every 0.5 ps
(saveFrequency) and reads the other walkers' files at the same moment (biasDir), so every walker feels
the hills of all. On one host the folder is local; across hosts it is a shared file system.

Every walker prints a progress line (its simulated time, s, the Na-Cl distance, its ns/day). Every
--estimate-every seconds this script adds up the walkers' bias files and prints the estimate they give so
far: the Na-Cl potential of mean force W(r) from F(s), its barrier above the contact pair and the
solvent-separated minimum, next to the single-walker result of the showcase (6.3 ns on one H100: barrier
12.0 kJ/mol, solvent-separated pair 1.4 kJ/mol above the contact pair). At the end: the walkers'
combined ns/day.

Usage::

    python examples/multiple_walkers.py --walkers 4 --minutes 4           # one walker per GPU
    python examples/multiple_walkers.py --walkers 2 --gpus 0,0             # two walkers on GPU 0
    python examples/multiple_walkers.py --smoke                            # 2 walkers on the CPU, 1 ps each
    python examples/multiple_walkers.py --plot-runs w1 w2 w4 --out docs/multiple-walkers

Writes, in --out: estimates.csv (wall time, simulated ns of all walkers, barrier, separated - contact),
summary.json, bias/ (the shared hills) and walker-<i>/ (each walker's colvar.csv and its final F(s) as
free_energy.npy). --plot-runs draws the estimates of several runs against wall time (walkers.png) and
writes their table (walkers.md).
"""
import argparse
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nacl_metadynamics as nacl  # noqa: E402 (the same solvated NaCl and the same variable)

SAVE_EVERY = nacl.HILL_EVERY  # steps: walkers exchange hills at every hill (0.5 ps)
# The single-walker showcase run (docs/showcase: 6.3 ns on one H100 in 480 s), the reference of the estimates.
REFERENCE = {"ns": 6.3315, "wall_s": 480.0, "barrier": 12.0, "separated": 1.4}
# A walker has crossed to the solvent-separated pair once hills lie beyond it: bias above this at r >= 0.5 nm.
CROSSED_KJ_MOL = 0.1


# ---- one walker (a child process) ----------------------------------------------------------------------------
def run_walker(args):
    import openmm as mm
    import openmm.app as app
    import openmm.unit as unit

    platform = mm.Platform.getPlatformByName(args.platform)
    properties = {}
    if args.platform in ("CUDA", "OpenCL"):
        properties = {"Precision": "mixed", "DeviceIndex": str(args.device)}
    elif args.platform == "CPU" and args.threads:
        properties = {"Threads": str(args.threads)}
    modeller, system, sodium, chloride = nacl.build()
    variable = app.BiasVariable(nacl.coordination_variable(sodium, chloride), minValue=0.0, maxValue=1.0,
                                biasWidth=nacl.HILL_WIDTH, periodic=False, gridWidth=401)
    metadynamics = app.Metadynamics(system, [variable], nacl.TEMPERATURE * unit.kelvin, nacl.BIAS_FACTOR,
                                    nacl.HEIGHT * unit.kilojoules_per_mole, nacl.HILL_EVERY,
                                    saveFrequency=SAVE_EVERY, biasDir=args.bias_dir)
    integrator = mm.LangevinMiddleIntegrator(nacl.TEMPERATURE * unit.kelvin, 1.0 / unit.picosecond,
                                             nacl.TIMESTEP * unit.picoseconds)
    seed = args.seed + 7919 * args.walker
    integrator.setRandomNumberSeed(seed)
    simulation = app.Simulation(modeller.topology, system, integrator, platform, properties)
    simulation.context.setPositions(modeller.positions)
    nacl.minimize_in_contact(simulation.context)
    simulation.context.setVelocitiesToTemperature(nacl.TEMPERATURE * unit.kelvin, seed)
    where = f"{args.platform} device {args.device}" if args.platform in ("CUDA", "OpenCL") else args.platform
    print(f"walker {args.walker}: ready on {where}, {system.getNumParticles()} atoms", flush=True)

    folder = os.path.join(args.out, f"walker-{args.walker}")
    os.makedirs(folder, exist_ok=True)
    steps = int(round(args.ps / nacl.TIMESTEP / SAVE_EVERY)) * SAVE_EVERY
    report_every = max(SAVE_EVERY, int(args.report_ps / nacl.TIMESTEP) // SAVE_EVERY * SAVE_EVERY)
    start, done = time.time(), 0
    with open(os.path.join(folder, "colvar.csv"), "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["time_ps", "s", "na_cl_distance_nm"])
        # Whole exchange intervals only, so that a walker's last act is to share its hills.
        while done < steps and time.time() < args.deadline:
            metadynamics.step(simulation, SAVE_EVERY)
            done += SAVE_EVERY
            s = float(metadynamics.getCollectiveVariables(simulation)[0])
            state = simulation.context.getState(positions=True)
            box = state.getPeriodicBoxVectors().value_in_unit(unit.nanometer)
            r = nacl.minimum_image_distance(state.getPositions(asNumpy=True).value_in_unit(unit.nanometer), box,
                                            sodium, chloride)
            writer.writerow([f"{done * nacl.TIMESTEP:.1f}", f"{s:.9f}", f"{r:.5f}"])
            if done % report_every == 0 or done >= steps:
                rate = done * nacl.TIMESTEP / 1000 / ((time.time() - start) / 86400)
                print(f"walker {args.walker}: {done * nacl.TIMESTEP:8.1f} ps  s={s:.3f}  r={r:.3f} nm  "
                      f"{rate:7.1f} ns/day", flush=True)
    elapsed = time.time() - start
    np.save(os.path.join(folder, "free_energy.npy"),
            np.asarray(metadynamics.getFreeEnergy().value_in_unit(unit.kilojoules_per_mole)))
    print(f"walker {args.walker}: done, {done * nacl.TIMESTEP:.1f} ps in {elapsed:.1f} s", flush=True)


# ---- the estimate from the shared bias -----------------------------------------------------------------------
def shared_bias(bias_dir):
    """The sum of every walker's latest bias file (app.Metadynamics' bias_<id>_<index>.npy), how many walkers
    wrote one, and their simulated time in ns (a walker writes file 1 at the start, then one every SAVE_EVERY);
    None if a file was replaced while it was read."""
    latest = {}
    for path in glob.glob(os.path.join(bias_dir, "bias_*_*.npy")):
        walker, index = (int(part) for part in re.match(r"bias_(\d+)_(\d+)\.npy", os.path.basename(path)).groups())
        if walker not in latest or index > latest[walker][0]:
            latest[walker] = (index, path)
    total, read, ps = np.zeros(401), 0, 0.0
    for index, path in latest.values():
        try:
            total += np.load(path)
        except (OSError, ValueError):  # replaced by a newer file while we looked
            return None
        read += 1
        ps += (index - 1) * SAVE_EVERY * nacl.TIMESTEP
    return total, read, ps / 1000


def read_shared_bias(bias_dir, attempts=20):
    """shared_bias, looked at again while a walker is replacing its file."""
    for _ in range(attempts):
        result = shared_bias(bias_dir)
        if result is not None:
            return result
        time.sleep(0.05)
    raise RuntimeError(f"could not read the bias files in {bias_dir}")


def free_energy_of(bias):
    """Well-tempered metadynamics: F(s) = -(T + dT)/dT V(s), dT = T (bias factor - 1)."""
    return -nacl.BIAS_FACTOR / (nacl.BIAS_FACTOR - 1.0) * bias


def estimate(free_energy):
    """(barrier, separated) in kJ/mol above the contact pair, from W(r); NaN where W(r) has no such point yet."""
    grid = np.linspace(0.0, 1.0, 401)
    distances = np.linspace(0.235, nacl.PMF_LAST, 300)
    w = nacl.potential_of_mean_force(grid, free_energy, distances)
    (_, w_contact), (r_separated, w_separated), (_, w_barrier) = nacl.pmf_minima(distances, w)
    separated = w_separated - w_contact if nacl.is_interior_minimum(distances, w, r_separated) else np.nan
    return w_barrier - w_contact, separated


# ---- the launcher --------------------------------------------------------------------------------------------
def gpu_list(args):
    if args.gpus:
        return [int(g) for g in args.gpus.split(",")]
    try:
        listed = subprocess.run(["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                                text=True, timeout=30).stdout.split()
        return [int(g) for g in listed] or [0]
    except (OSError, subprocess.SubprocessError, ValueError):
        return [0]


def launch(args):
    if args.platform is None:
        platform, reason = nacl.fastest_platform()
        args.platform = platform.getName()
    else:
        reason = "asked for"
    gpus = gpu_list(args) if args.platform in ("CUDA", "OpenCL") else [None]
    devices = [gpus[i % len(gpus)] for i in range(args.walkers)]
    bias_dir = os.path.join(args.out, "bias")
    shutil.rmtree(bias_dir, ignore_errors=True)
    os.makedirs(bias_dir)
    for old in glob.glob(os.path.join(args.out, "walker-*")):
        shutil.rmtree(old)
    start = time.time()
    deadline = start + 60 * args.minutes if args.minutes else float("inf")
    print(f"{args.walkers} walker(s) on {args.platform} ({reason})"
          + (f", devices {','.join(map(str, devices))}" if gpus != [None] else "")
          + f"; bias shared through {bias_dir} every {SAVE_EVERY * nacl.TIMESTEP:g} ps; "
          + (f"{args.ps:g} ps each" if not args.minutes else f"{args.minutes:g} minutes"), flush=True)
    threads = max(1, (os.cpu_count() or 1) // args.walkers) if args.platform == "CPU" else 0
    children = []
    for walker, device in enumerate(devices):
        command = [sys.executable, "-u", os.path.abspath(__file__), "--walker", str(walker), "--platform", args.platform,
                   "--device", str(device or 0), "--bias-dir", bias_dir, "--out", args.out, "--ps", str(args.ps),
                   "--deadline", repr(deadline), "--seed", str(args.seed), "--report-ps", str(args.report_ps),
                   "--threads", str(threads)]
        children.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))

    lock = threading.Lock()

    def relay(child):
        for line in child.stdout:
            with lock:
                print(line, end="", flush=True)

    relays = [threading.Thread(target=relay, args=(child,), daemon=True) for child in children]
    for thread in relays:
        thread.start()

    rows = []

    def record():
        bias, read, ns = read_shared_bias(bias_dir)
        barrier, separated = estimate(free_energy_of(bias))
        elapsed = time.time() - start
        if bias[np.linspace(0.0, 1.0, 401) <= nacl.coordination_of(0.5)].max(initial=0.0) < CROSSED_KJ_MOL:
            barrier = separated = np.nan  # no walker has reached the solvent-separated pair: no estimate yet
        rows.append((elapsed, ns, read, barrier, separated))
        text = (f"barrier {barrier:.1f} kJ/mol" if np.isfinite(barrier) else "no crossing yet") + (
            f", separated - contact {separated:+.1f} kJ/mol" if np.isfinite(separated) else "")
        with lock:
            print(f"estimate at {elapsed:6.0f} s: {ns:.3f} ns of {read} walker(s); {text} "
                  f"(one walker, {REFERENCE['ns']:.1f} ns: {REFERENCE['barrier']:.1f}, {REFERENCE['separated']:+.1f})",
                  flush=True)

    next_estimate = start + args.estimate_every
    while any(child.poll() is None for child in children):
        time.sleep(0.2)
        if time.time() >= next_estimate:
            record()
            next_estimate += args.estimate_every
    for thread in relays:
        thread.join()
    record()
    failed = [i for i, child in enumerate(children) if child.returncode != 0]
    if failed:
        sys.exit(f"walker(s) {failed} failed (exit status {[children[i].returncode for i in failed]})")

    elapsed = rows[-1][0]
    walker_ps = [read_walker_ps(args.out, i) for i in range(args.walkers)]
    total_ns = sum(walker_ps) / 1000
    summary = {"walkers": args.walkers, "platform": args.platform, "devices": devices, "wall_s": round(elapsed, 1),
               "ns": round(total_ns, 4), "ns_per_day": round(total_ns / (elapsed / 86400), 1),
               "walker_ps": walker_ps, "barrier": rows[-1][3], "separated": rows[-1][4],
               "reference": REFERENCE}
    with open(os.path.join(args.out, "estimates.csv"), "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["wall_s", "ns", "walkers_read", "barrier_kj_mol", "separated_minus_contact_kj_mol"])
        for row in rows:
            writer.writerow([f"{row[0]:.1f}", f"{row[1]:.4f}", row[2], f"{row[3]:.2f}", f"{row[4]:.2f}"])
    with open(os.path.join(args.out, "summary.json"), "w") as stream:
        json.dump(summary, stream, indent=1, default=lambda value: None if not np.isfinite(value) else value)
    print(f"{args.walkers} walker(s): {total_ns:.3f} ns in {elapsed:.0f} s of wall time (set-up included), "
          f"{summary['ns_per_day']:.0f} ns/day combined; the single-walker showcase: {REFERENCE['ns']:.1f} ns in "
          f"{REFERENCE['wall_s']:.0f} s ({REFERENCE['ns'] / (REFERENCE['wall_s'] / 86400):.0f} ns/day)")
    print(f"wrote {os.path.join(args.out, 'estimates.csv')} and summary.json")


def read_walker_ps(out, walker):
    with open(os.path.join(out, f"walker-{walker}", "colvar.csv")) as stream:
        rows = list(csv.reader(stream))
    return float(rows[-1][0]) if len(rows) > 1 else 0.0


# ---- several runs: the table and the plot --------------------------------------------------------------------
def plot_runs(folders, out):
    runs = []
    for folder in folders:
        with open(os.path.join(folder, "summary.json")) as stream:
            summary = json.load(stream)
        table = np.genfromtxt(os.path.join(folder, "estimates.csv"), delimiter=",", names=True)
        table = np.atleast_1d(table)
        # A row for which a walker's file could not be read (it was being replaced) is not an estimate of all.
        runs.append((summary, table[table["walkers_read"] == summary["walkers"]]))
    runs.sort(key=lambda run: run[0]["walkers"])
    os.makedirs(out, exist_ok=True)
    lines = ["| walkers | GPUs | wall time (s) | simulated (ns, all walkers) | combined ns/day | "
             "barrier (kJ/mol) | separated − contact (kJ/mol) |", "|---:|---:|---:|---:|---:|---:|---:|"]
    def cell(value):
        return "—" if value is None or not np.isfinite(value) else f"{value:.1f}"
    for summary, _ in runs:
        lines.append(f"| {summary['walkers']} | {len(set(summary['devices']))} | {summary['wall_s']:.0f} | "
                     f"{summary['ns']:.2f} | {summary['ns_per_day']:.0f} | {cell(summary['barrier'])} | "
                     f"{cell(summary['separated'])} |")
    reference = REFERENCE
    lines.append(f"| 1 (showcase) | 1 | {reference['wall_s']:.0f} | {reference['ns']:.2f} | "
                 f"{reference['ns'] / (reference['wall_s'] / 86400):.0f} | {reference['barrier']:.1f} | "
                 f"{reference['separated']:.1f} |")
    with open(os.path.join(out, "walkers.md"), "w") as stream:
        stream.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for summary, table in runs:
        gpus = len(set(summary["devices"]))
        label = f"{summary['walkers']} walker{'s' if summary['walkers'] > 1 else ''}, {gpus} GPU{'s' if gpus > 1 else ''}"
        left.plot(table["wall_s"], table["ns"], marker=".", label=label)
        right.plot(table["wall_s"], table["barrier_kj_mol"], marker=".", label=label)
    right.axhline(reference["barrier"], color="gray", ls="--", lw=1,
                  label=f"one walker, {reference['ns']:.1f} ns ({reference['wall_s']:.0f} s)")
    left.set_xlabel("wall time (s)")
    left.set_ylabel("simulated time, all walkers (ns)")
    right.set_xlabel("wall time (s)")
    right.set_ylabel("Na-Cl barrier above the contact pair (kJ/mol)")
    left.legend(fontsize=8)
    right.legend(fontsize=8)
    figure.suptitle("NaCl well-tempered metadynamics on the coordination number, walkers sharing one bias", fontsize=10)
    figure.tight_layout()
    figure.savefig(os.path.join(out, "walkers.png"), dpi=110)
    plt.close(figure)
    print(f"wrote {os.path.join(out, 'walkers.md')} and walkers.png")


def main():
    parser = argparse.ArgumentParser(description="Multiple walkers of one well-tempered metadynamics, one process per GPU.")
    parser.add_argument("--walkers", type=int, default=None, help="number of walkers (default: one per GPU; --smoke: 2)")
    parser.add_argument("--gpus", default=None, help="the devices to use, e.g. 0,1,2,3 (default: every GPU)")
    parser.add_argument("--platform", default=None, help="CUDA, OpenCL or CPU (default: the fastest present)")
    parser.add_argument("--ps", type=float, default=nacl.LONG_PS, help="simulated ps per walker (default 10000)")
    parser.add_argument("--minutes", type=float, default=None, help="stop the walkers after this much wall time")
    parser.add_argument("--estimate-every", type=float, default=30.0, help="seconds between estimates (default 30)")
    parser.add_argument("--report-ps", type=float, default=50.0, help="simulated ps between a walker's progress lines")
    parser.add_argument("--out", default="walkers", help="output folder (default walkers/)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--smoke", action="store_true", help="2 walkers on the CPU, 1 ps each: checks the set-up")
    parser.add_argument("--plot-runs", nargs="+", default=None, metavar="FOLDER",
                        help="no simulation: the table and plot of the runs in these folders, into --out")
    # A walker (the launcher starts these).
    parser.add_argument("--walker", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--device", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--bias-dir", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--deadline", type=float, default=float("inf"), help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plot_runs:
        plot_runs(args.plot_runs, args.out)
    elif args.walker is not None:
        run_walker(args)
    else:
        if args.smoke:
            args.walkers = args.walkers or 2
            args.platform = args.platform or "CPU"
            args.ps, args.report_ps, args.estimate_every = 1.0, 0.5, 5.0
        if args.walkers is None:
            args.walkers = len(gpu_list(args))
        if args.walkers < 1:
            parser.error("--walkers must be at least 1")
        launch(args)


if __name__ == "__main__":
    main()
