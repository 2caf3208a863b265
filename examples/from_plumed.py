"""Migrating from PLUMED: one PLUMED input line, the same numbers from CoordinationForce
=====================================================================================

PLUMED's regression test rt-basic-der-test (its files are in tests/data/plumed/) runs::

    c1: COORDINATION GROUPA=1,2 GROUPB=3,4,5,6 SWITCH={RATIONAL R_0=2}
    BIASVALUE ARG=d1c          # d1c is the same sum built from DISTANCEs: the bias energy is c1 itself

on 5 frames of 108 argon atoms in a 5.0388 nm cubic box and prints c1 (PRINT FMT=%8.4f) and the
bias forces (driver --dump-forces, %8.4f). This script builds the force from the same line with
CoordinationForce.fromPlumed (atoms from 1 in PLUMED, from 0 in OpenMM), takes the energy E = s as
BIASVALUE does, and prints PLUMED's numbers next to ours, on each platform asked for.

Usage::

    python examples/from_plumed.py [--platforms Reference,CPU,OpenCL] [--markdown table.md]

--markdown writes the comparison as a Markdown table (the one in docs/migrating-from-plumed.md, which
tools/doc_tables.py keeps equal to docs/migration/from-plumed.md).
"""
import argparse
import os

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "data", "plumed")
PLUMED_LINE = "c1: COORDINATION GROUPA=1,2 GROUPB=3,4,5,6 SWITCH={RATIONAL R_0=2}"


def read_xyz(path):
    """Frames of PLUMED's driver .xyz format: (box edges or 3x3 lattice, positions in nm)."""
    frames = []
    with open(path) as stream:
        lines = stream.read().splitlines()
    k = 0
    while k < len(lines) and lines[k].strip():
        count = int(lines[k])
        box = [float(v) for v in lines[k + 1].split()]
        positions = np.array([[float(v) for v in line.split()[1:4]] for line in lines[k + 2:k + 2 + count]])
        frames.append((box, positions))
        k += 2 + count
    return frames


def read_table(path):
    rows = [line.split() for line in open(path) if not line.startswith("#")]
    return np.array(rows, dtype=float)


def read_forces(path, count):
    """driver --dump-forces: per frame the atom count, a virial line, then 'X fx fy fz' per atom."""
    lines = open(path).read().splitlines()
    frames, k = [], 0
    while k < len(lines) and lines[k].strip():
        frames.append(np.array([[float(v) for v in line.split()[1:4]] for line in lines[k + 2:k + 2 + count]]))
        k += 2 + count
    return frames


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--platforms", default="Reference,CPU", help="comma-separated OpenMM platform names")
    parser.add_argument("--markdown", help="write the table of values and force differences to this file")
    args = parser.parse_args()

    folder = os.path.join(DATA, "rt-basic-der-test")
    frames = read_xyz(os.path.join(DATA, "trajectories", "trajectory.xyz"))
    printed = read_table(os.path.join(folder, "colvar.reference"))[:, 1]
    plumed_forces = read_forces(os.path.join(folder, "forces.reference"), len(frames[0][1]))

    force = CoordinationForce.fromPlumed(PLUMED_LINE)
    force.setEnergyFunction("s")  # BIASVALUE: the bias energy is the collective variable itself
    print(f"PLUMED:            {PLUMED_LINE}")
    print(f"CoordinationForce: mode {['Self', 'Dual', 'Pair'][force.getMode()]}, "
          f"group A {list(force.getGroupA())}, group B {list(force.getGroupB())}, r0 {force.getR0()}, "
          f"n {force.getN()}, m {force.getEffectiveM()}, dmax {force.getDMax()} (infinite: no D_MAX), "
          f"PBC {force.usesPeriodicBoundaryConditions()}")
    print(f"toPlumed():        {force.toPlumed('c1')}")

    system = mm.System()
    for _ in frames[0][1]:
        system.addParticle(1.0)
    edge = frames[0][0][0]
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    system.addForce(force)
    worst, values, force_errors = {}, {}, {}
    for name in args.platforms.split(","):
        properties = {"Precision": "mixed"} if name in ("CUDA", "OpenCL", "HIP") else {}  # GPUs: mixed precision
        context = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(name), properties)
        print(f"\n{name}: frame | PLUMED c1 (%8.4f) | CoordinationForce s | |difference| | "
              f"largest |F - F_PLUMED| (kJ/mol/nm, PLUMED prints %8.4f)")
        worst[name] = 0.0
        values[name], force_errors[name] = [], []
        for index, ((box, positions), reference) in enumerate(zip(frames, printed)):
            context.setPeriodicBoxVectors(mm.Vec3(box[0], 0, 0), mm.Vec3(0, box[1], 0), mm.Vec3(0, 0, box[2]))
            context.setPositions(positions)
            state = context.getState(getEnergy=True, getForces=True)
            s = state.getPotentialEnergy()._value
            forces = state.getForces(asNumpy=True)._value
            force_error = np.abs(forces - plumed_forces[index]).max()  # every atom: zero outside the groups
            print(f"  {index} | {reference:8.4f} | {s:.10f} | {abs(s - reference):.1e} | {force_error:.1e}")
            worst[name] = max(worst[name], abs(s - reference), force_error)
            values[name].append(s)
            force_errors[name].append(force_error)
    print("\nlargest difference from PLUMED's printed numbers: "
          + ", ".join(f"{name} {value:.1e}" for name, value in worst.items())
          + " (PLUMED prints 4 decimals: within 5e-5 is exact)")
    if args.markdown:
        write_markdown(args.markdown, printed, values, force_errors)


def write_markdown(path, printed, values, force_errors):
    """frame | PLUMED's c1 | s on each platform | the largest force difference over the platforms."""
    names = list(values)
    header = "| frame | PLUMED c1 | " + " | ".join(f"CoordinationForce s ({name}{', mixed' if name in ('CUDA', 'OpenCL') else ''})"
                                                for name in names) + \
             " | largest \\|F − F_PLUMED\\| (kJ/mol/nm) |"
    lines = [header, "|---:|---:|" + "---:|" * len(names) + "---:|"]
    for index, reference in enumerate(printed):
        cells = [f"{values[name][index]:.10f}" for name in names]
        error = max(force_errors[name][index] for name in names)
        lines.append(f"| {index} | {reference:.4f} | " + " | ".join(cells) + f" | {error:.1e} |")
    with open(path, "w") as stream:
        stream.write(f"`examples/from_plumed.py --platforms {','.join(names)}` on PLUMED's rt-basic-der-test "
                     f"({PLUMED_LINE}):\n\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
