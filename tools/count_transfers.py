#!/usr/bin/env python
"""Counts host<->device transfers and host synchronizations per MD step, with and without a
CoordinationForce, on a GPU platform. Needs the LD_PRELOAD shim tools/transfer_count.c:

    cc -shared -fPIC -O2 -o /tmp/libtransfercount.so tools/transfer_count.c -ldl
    LD_PRELOAD=/tmp/libtransfercount.so python tools/count_transfers.py --platform OpenCL

Two systems of 2,000 atoms (--atoms), each run with and without three CoordinationForces (harmonic
energies on s): Self on 500 atoms, Dual on 100 x 400, and Self on every atom with dmax = 0.8 nm (with
enough atoms, --atoms 8000 on an H100, its tiles are culled, its slots re-sorted every 100 steps and it
has a neighbour list, whose size the host reads once after each re-sort), LangevinMiddleIntegrator:
- "tethered": atoms held to lattice sites by a CustomExternalForce. OpenMM never reorders its atoms,
  so every transfer counted belongs to the step itself: the difference is exactly what the bias adds.
- "lj": Lennard-Jones (NonbondedForce, cutoff, PBC). OpenMM reorders the atoms now and then (it
  downloads and re-uploads positions and velocities to sort them on the host); those transfers are
  OpenMM's own and their number depends on the trajectory, with or without the bias.
"""
import argparse
import ctypes
import math
import os

import numpy as np
import openmm as mm
import openmm.unit as unit

from openmmcoordination import CoordinationForce


def build(with_bias, kind, num_atoms=2000, seed=7):
    edge = (num_atoms / 20.0) ** (1.0 / 3.0)  # argon-like density
    rng = np.random.default_rng(seed)
    grid = int(np.ceil(num_atoms ** (1.0 / 3.0)))
    points = np.array([(i, j, k) for i in range(grid) for j in range(grid) for k in range(grid)][:num_atoms], float)
    sites = (points + 0.5) * edge / grid
    positions = sites + rng.normal(0, 0.01, points.shape)
    system = mm.System()
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    for _ in range(num_atoms):
        system.addParticle(39.9)
    if kind == "lj":
        lj = mm.NonbondedForce()
        lj.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
        lj.setCutoffDistance(1.0)
        for _ in range(num_atoms):
            lj.addParticle(0.0, 0.34, 0.997)
        system.addForce(lj)
    else:
        tether = mm.CustomExternalForce("500*((x-x0)^2+(y-y0)^2+(z-z0)^2)")
        for name in ("x0", "y0", "z0"):
            tether.addPerParticleParameter(name)
        for i, site in enumerate(sites):
            tether.addParticle(i, site)
        system.addForce(tether)
    if with_bias:
        self_force = CoordinationForce("0.5*k*(s-s0)^2")
        self_force.addGlobalParameter("k", 1.0)
        self_force.addGlobalParameter("s0", 100.0)
        self_force.setGroupA(range(500))
        self_force.setR0(0.4)
        self_force.setUsesPeriodicBoundaryConditions(True)
        system.addForce(self_force)
        dual = CoordinationForce("0.5*k*(s-s0dual)^2")
        dual.addGlobalParameter("k", 1.0)
        dual.addGlobalParameter("s0dual", 50.0)
        dual.setMode(CoordinationForce.Dual)
        dual.setGroupA(range(500, 600))
        dual.setGroupB(range(600, 1000))
        dual.setR0(0.4)
        dual.setUsesPeriodicBoundaryConditions(True)
        system.addForce(dual)
        culled = CoordinationForce("0.5*k*(s-s0culled)^2")
        culled.addGlobalParameter("k", 1.0)
        culled.addGlobalParameter("s0culled", 1000.0)
        culled.setGroupA(range(num_atoms))
        culled.setR0(0.4)
        culled.setDMax(0.8)
        culled.setUsesPeriodicBoundaryConditions(True)
        system.addForce(culled)
    return system, positions


def count(platform, properties, with_bias, kind, steps, shim, num_atoms):
    system, positions = build(with_bias, kind, num_atoms)
    integrator = mm.LangevinMiddleIntegrator(100 * unit.kelvin, 1 / unit.picosecond, 0.002 * unit.picoseconds)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName(platform), properties)
    context.setPositions(positions)
    context.setVelocitiesToTemperature(100 * unit.kelvin)
    integrator.step(100)
    context.getState(getEnergy=True)  # drain the queue
    shim.transfer_count_reset()
    integrator.step(steps)
    counts = (ctypes.c_long * 3)()
    shim.transfer_count_get(counts)
    context.getState(getEnergy=True)
    return [c / steps for c in counts]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--platform", default="CUDA")
    parser.add_argument("--precision", default="mixed")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--atoms", type=int, default=2000)
    args = parser.parse_args()
    shim = ctypes.CDLL(None)
    if not hasattr(shim, "transfer_count_get"):
        raise SystemExit("run with LD_PRELOAD=/path/to/libtransfercount.so (see the docstring)")
    properties = {"Precision": args.precision}
    print(f"platform {args.platform} ({args.precision}), {args.steps} steps of {args.atoms} atoms, counts per step")
    print("| system | run | uploads | downloads | host syncs |")
    print("|---|---|---:|---:|---:|")
    added = {}
    for kind in ("tethered", "lj"):
        without = count(args.platform, properties, False, kind, args.steps, shim, args.atoms)
        with_bias = count(args.platform, properties, True, kind, args.steps, shim, args.atoms)
        added[kind] = [b - a for a, b in zip(without, with_bias)]
        print("| %s | without bias | %.3f | %.3f | %.3f |" % ((kind,) + tuple(without)))
        print("| %s | with 3 CoordinationForces | %.3f | %.3f | %.3f |" % ((kind,) + tuple(with_bias)))
        print("| %s | added by the bias | %+.3f | %+.3f | %+.3f |" % ((kind,) + tuple(added[kind])))
    # A force with a neighbour list (the culled one, when its tiles are culled) downloads the list's size
    # once after each re-sort (every 100 evaluations): at most that, and no upload.
    allowed = math.ceil(args.steps / 100) / args.steps
    uploads, downloads, syncs = added["tethered"]
    clean = uploads == 0 and 0 <= downloads <= allowed and 0 <= syncs <= allowed
    print(f"RESULT: " + (f"the bias adds no host upload and at most {allowed:.3f} downloads/syncs per step (the "
                         f"neighbour list's size, once per re-sort): {downloads:.3f}/{syncs:.3f}" if clean
                         else "the bias adds host transfers per step"))
    return 0 if clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
