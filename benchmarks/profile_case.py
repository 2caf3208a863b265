#!/usr/bin/env python
"""A few evaluations of one CoordinationForce case, for a profiler to attach to (Nsight Compute, Nsight Systems).

    ncu -k regex:computeCoordinationTiles --launch-skip 3 --launch-count 1 --section SpeedOfLight \\
        python3 benchmarks/profile_case.py --case S1 --atoms 131072
    nsys profile -o s3 python3 benchmarks/profile_case.py --label "S3 1k x 1k" --steps 200

--case (energy and forces from getState, --evaluations times):
  S1: all pairs, Self, no cutoff, no PBC (random cube at 100 atoms/nm^3).
  S2: the same box with PBC and dmax = 1 nm.
--label: a case of the benchmark suite (S0-S5, by its label, e.g. "S0 lattice N=1k"), as the suite builds it, run
  for --steps MD steps with the force and then --steps without it (the suite's do-nothing force), so that a
  timeline shows what one step gains from the force: its launches and the gaps between them.
"""
import argparse
import math
import os
import sys

import numpy as np
import openmm as mm

from openmmcoordination import CoordinationForce


def run_suite_case(label, platform, precision, steps):
    """The suite's case `label`: --steps MD steps with the plugin's force, then with the do-nothing force."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the package suite/ next to this script
    from suite.cases import define_cases, make_geometry
    from suite.common import PLUGIN
    from suite.contenders import build_system
    from suite.timing import drain, make_context, seconds_per_step

    cases = {case.label: case for case in define_cases(False) if not case.moving}
    if label not in cases:
        raise SystemExit(f"no case {label!r}; the cases: {', '.join(cases)}")
    case = cases[label]
    geometry = make_geometry(case)
    for contender in (PLUGIN, None):
        context, integrator = make_context(build_system(case, contender, geometry), geometry.positions, platform,
                                           precision)
        integrator.step(10)  # compiles and sizes everything before the profiled steps
        drain(context)
        elapsed = seconds_per_step(context, integrator, steps)  # timed as the suite times it
        print(f"{label} ({'the force' if contender else 'no force'}): {1e6 * elapsed:.1f} us per step, {steps} steps")
        del context, integrator


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", choices=["S1", "S2"], default="S1")
    parser.add_argument("--label", help="a benchmark suite case (S0-S5) by its label, run as MD steps")
    parser.add_argument("--steps", type=int, default=100, help="MD steps with --label (each way)")
    parser.add_argument("--atoms", type=int, default=131072)
    parser.add_argument("--platform", default="CUDA")
    parser.add_argument("--precision", default="single")
    parser.add_argument("--evaluations", type=int, default=6)
    args = parser.parse_args()
    if args.label:
        run_suite_case(args.label, args.platform, args.precision, args.steps)
        return
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
