#!/usr/bin/env python
"""A few evaluations of one CoordinationForce case, for a profiler to attach to (Nsight Compute).

    ncu -k regex:computeCoordinationTiles --launch-skip 3 --launch-count 1 --section SpeedOfLight \\
        python3 benchmarks/profile_case.py --case S1 --atoms 131072

S1: all pairs, Self, no cutoff, no PBC (random cube at 100 atoms/nm^3).
S2: the same box with PBC and dmax = 1 nm.
"""
import argparse
import math

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", choices=["S1", "S2"], default="S1")
    parser.add_argument("--atoms", type=int, default=131072)
    parser.add_argument("--platform", default="CUDA")
    parser.add_argument("--precision", default="single")
    parser.add_argument("--evaluations", type=int, default=6)
    args = parser.parse_args()
    edge = (args.atoms / 100.0) ** (1.0 / 3.0)
    system = mm.System()
    for _ in range(args.atoms):
        system.addParticle(0.0)
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    force = CoordinationForce("0.5*k*(s-s0)^2")
    force.addGlobalParameter("k", 1e-6)
    force.addGlobalParameter("s0", 0.0)
    force.setGroupA(range(args.atoms))
    force.setR0(0.3)
    if args.case == "S1":
        force.setDMax(math.inf)
        force.setUsesPeriodicBoundaryConditions(False)
    else:
        force.setDMax(1.0)
        force.setUsesPeriodicBoundaryConditions(True)
    system.addForce(force)
    context = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(args.platform),
                         {"Precision": args.precision})
    context.setPositions(np.random.default_rng(1).random((args.atoms, 3)) * edge)
    for _ in range(args.evaluations):
        energy = context.getState(getEnergy=True, getForces=True).getPotentialEnergy()
    print(f"{args.case} N={args.atoms} s={force.getCoordination(context):.6f} E={energy}")


if __name__ == "__main__":
    main()
