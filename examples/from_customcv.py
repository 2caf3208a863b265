"""Migrating from cvpack / CustomCVForce: the same coordination bias, before and after
===================================================================================

The usual OpenMM route to a contact-number bias is a CustomCVForce whose collective variable is a
CustomNonbondedForce over an interaction group; cvpack's NumberOfContacts (cvpack 0.13, PyPI) builds
exactly that: the step function 1/(1+x^6) with x = r/r0, OpenMM's switching polynomial from
switchFactor * r0 to the cutoff cutoffFactor * r0 (defaults r0 = 0.3 nm, 1.5 and 2: from 0.45 nm to
0.6 nm), the NonbondedForce's exceptions as exclusions; overlapping groups count each pair once.
This script calls cvpack for two collective variables in a box of TIP3P water with Na+ and Cl- (OpenMM's
Modeller and Amber14)::

  hydration  Na+ with every water oxygen   (cvpack: NumberOfContacts([na], oxygens, ...); ours: Dual)
  water      every oxygen with every other (cvpack: NumberOfContacts(oxygens, oxygens, ...); ours: Self)

and replaces it two ways::

  exact      CoordinationForce with a Custom switching function equal to cvpack's (its 1/(1+x^6) times
             OpenMM's polynomial from 0.45 nm, cut at 0.6 nm, no stretch): the same energy and forces to
             rounding;
  PLUMED     CoordinationForce's own rational function (PLUMED's COORDINATION R_0=0.3 NN=6 MM=12
             D_MAX=0.6, stretched to reach 0 at D_MAX): the idiomatic replacement, a slightly different
             function (the difference is printed).

It prints the values, the largest force differences and the time per energy + force evaluation of each
(a System holding only the bias), on each platform asked for (GPU platforms in mixed precision).

Usage::

    python examples/from_customcv.py [--platforms CPU,Reference] [--box 3.0] [--reps 20] [--equilibrate 2]
                                     [--markdown table.md]

--markdown writes the table that docs/migrating-from-customcv.md shows (tools/doc_tables.py keeps the page
equal to docs/migration/from-customcv-cpu.md and from-customcv-cuda.md).
"""
import argparse
import copy
import os
import sys
import time

import numpy as np
import openmm as mm
import openmm.unit as unit

from openmmcoordination import CoordinationForce

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nacl_metadynamics import build, minimize_in_contact  # noqa: E402  (the showcase's Modeller box)

ENERGY = "0.5*k*(n-n0)^2"  # the bias on the contact number n, kJ/mol
K = 10.0  # kJ/mol
# cvpack 0.13's defaults: thresholdDistance 0.3 nm, switchFactor 1.5, cutoffFactor 2.
R0, SWITCH_ON, CUTOFF = 0.3, 0.45, 0.6  # nm
STEP = "1/(1+x^6)"


def cvpack_route(group1, group2, nonbonded, n0):
    """cvpack.NumberOfContacts(group1, group2, nonbonded) with its defaults, inside a CustomCVForce."""
    import cvpack  # PyPI: pip install cvpack

    contacts = cvpack.NumberOfContacts(group1, group2, nonbonded)
    distances = [contacts.getCutoffDistance(), contacts.getSwitchingDistance()]
    assert np.allclose([d.value_in_unit(unit.nanometer) for d in distances], [CUTOFF, SWITCH_ON], rtol=1e-15)
    bias = mm.CustomCVForce(ENERGY)
    bias.addGlobalParameter("k", K)
    bias.addGlobalParameter("n0", n0)
    bias.addCollectiveVariable("n", contacts)
    return bias


def coordination_route(mode, group1, group2, n0, exact):
    """The same bias as one CoordinationForce ("n" is called "s" there)."""
    force = CoordinationForce(ENERGY.replace("n-n0", "s-n0"))
    force.addGlobalParameter("k", K)
    force.addGlobalParameter("n0", n0)
    force.setMode(mode)
    force.setGroupA(group1)
    if mode != CoordinationForce.Self:
        force.setGroupB(group2)
    force.setR0(R0)
    force.setDMax(CUTOFF)
    force.setUsesPeriodicBoundaryConditions(True)
    if exact:
        # cvpack's function of x = r/r0 times OpenMM's switching polynomial 1 - 10t^3 + 15t^4 - 6t^5.
        width = CUTOFF - SWITCH_ON
        force.setCustomSwitchingFunction(
            f"{STEP}*(1-step(r-{SWITCH_ON})*(10*t^3-15*t^4+6*t^5)); t=(r-{SWITCH_ON})/{width}; r={R0}*x")
        force.setStretch(False)
    return force


def equilibrated_box(edge, picoseconds):
    """The showcase's Modeller box (Na+ and Cl- in TIP3P water), minimized and run for a moment at 300 K so
    that the ions are hydrated: positions, box vectors, the Na+ index, the water oxygens and the System's
    NonbondedForce (cvpack reads the periodicity and the exclusions from it)."""
    modeller, system, sodium, _ = build(edge)
    integrator = mm.LangevinMiddleIntegrator(300 * unit.kelvin, 1 / unit.picosecond, 0.002 * unit.picoseconds)
    integrator.setRandomNumberSeed(7)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName("CPU"))
    context.setPositions(modeller.positions)
    minimize_in_contact(context, 300)  # the ions held in contact while minimizing, as in the showcase
    context.setVelocitiesToTemperature(300 * unit.kelvin, 7)
    integrator.step(int(round(picoseconds / 0.002)))
    state = context.getState(getPositions=True)
    oxygens = [atom.index for atom in modeller.topology.atoms() if atom.residue.name == "HOH" and atom.name == "O"]
    # A copy: the System (and the forces it owns) goes away with this function.
    nonbonded = copy.deepcopy(next(force for force in system.getForces() if isinstance(force, mm.NonbondedForce)))
    return state.getPositions(asNumpy=True), state.getPeriodicBoxVectors(), sodium, oxygens, nonbonded


def evaluate(force, positions, box, platform, reps):
    """(n, energy, forces, median ms per energy + force evaluation) in a System holding only the force."""
    system = mm.System()
    for _ in range(len(positions)):
        system.addParticle(1.0)
    system.setDefaultPeriodicBoxVectors(*box)
    system.addForce(force)
    properties = {"Precision": "mixed"} if platform in ("CUDA", "OpenCL", "HIP") else {}
    context = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(platform), properties)
    context.setPositions(positions)
    state = context.getState(getEnergy=True, getForces=True)
    if isinstance(force, mm.CustomCVForce):
        n = force.getCollectiveVariableValues(context)[0]
    else:
        n = force.getCoordination(context)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        context.getState(getEnergy=True, getForces=True)
        times.append(time.perf_counter() - start)
    return (n, state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole),
            state.getForces(asNumpy=True).value_in_unit(unit.kilojoule_per_mole / unit.nanometer),
            1000 * float(np.median(times)))


def compare(platforms, positions, box, sodium, oxygens, nonbonded, reps, stream=sys.stdout):
    """Every route of both collective variables on each platform: rows of the printed table."""
    cases = [("hydration: Na+ x oxygens", CoordinationForce.Dual, [sodium], oxygens, 4.0),
             ("water: oxygens x oxygens", CoordinationForce.Self, oxygens, oxygens, 1.8 * len(oxygens))]
    rows = []
    for platform in platforms:
        for label, mode, group1, group2, n0 in cases:
            routes = [("CustomCVForce + CustomNonbondedForce (cvpack)", cvpack_route(group1, group2, nonbonded, n0)),
                      ("CoordinationForce, Custom = cvpack's function", coordination_route(mode, group1, group2, n0, True)),
                      ("CoordinationForce, PLUMED rational D_MAX=0.6", coordination_route(mode, group1, group2, n0, False))]
            reference = None
            for name, force in routes:
                n, energy, forces, ms = evaluate(force, positions, box, platform, reps)
                if reference is None:
                    reference = (n, forces, ms)
                row = dict(platform=platform, cv=label, route=name, n0=n0, n=n, energy=energy,
                           n_difference=n - reference[0], force_difference=float(np.abs(forces - reference[1]).max()),
                           force_scale=float(np.abs(reference[1]).max()), ms=ms, speedup=reference[2] / ms)
                rows.append(row)
                if stream is not None:
                    print(f"| {platform} | {label} | {name} | {n0:g} | {n:.6f} | {n - reference[0]:+.1e} | "
                          f"{energy:.4f} | {row['force_difference']:.1e} (of {row['force_scale']:.3g}) | {ms:.3f} | "
                          f"{row['speedup']:.1f}x |", file=stream, flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--platforms", default="CPU", help="comma-separated OpenMM platform names")
    parser.add_argument("--box", type=float, default=3.0, help="edge of the water box (nm)")
    parser.add_argument("--reps", type=int, default=20, help="timed evaluations per force (median)")
    parser.add_argument("--equilibrate", type=float, default=2.0, help="ps of dynamics before the comparison")
    parser.add_argument("--markdown", help="write the comparison as a Markdown table to this file")
    args = parser.parse_args()

    positions, box, sodium, oxygens, nonbonded = equilibrated_box(args.box, args.equilibrate)
    print(f"{len(positions)} atoms, {len(oxygens)} waters, Na+, Cl-, {args.box} nm box, minimized and "
          f"{args.equilibrate:g} ps at 300 K; bias {ENERGY} with k = {K} kJ/mol; cvpack's defaults: r0 {R0} nm, "
          f"switching from {SWITCH_ON} nm, cutoff {CUTOFF} nm")
    print("\n| platform | collective variable | route | n0 | n | n - n(cvpack) | energy (kJ/mol) | "
          "largest force difference from cvpack's route (kJ/mol/nm) | ms per evaluation | speed-up |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    rows = compare(args.platforms.split(","), positions, box, sodium, oxygens, nonbonded, args.reps)
    if args.markdown:
        with open(args.markdown, "w") as stream:
            stream.write(f"`examples/from_customcv.py --platforms {args.platforms} --box {args.box:g} --equilibrate "
                         f"{args.equilibrate:g}`: {len(positions)} atoms, {len(oxygens)} waters; cvpack "
                         f"{cvpack_version()}, OpenMM {mm.__version__}\n\n" + markdown_table(rows) + "\n")


def cvpack_version():
    import cvpack

    return cvpack.__version__


def markdown_table(rows):
    """The rows of compare() as the migration page's table."""
    lines = ["| platform | CV | route | n | n − n(cvpack) | largest force difference (of the largest force), "
             "kJ/mol/nm | ms per energy + forces | speed-up |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        difference = "—" if row["route"].startswith("CustomCV") else f"{row['force_difference']:.1e}"
        lines.append(f"| {row['platform']} | {row['cv'].split(':')[0]} | {row['route']} | {row['n']:.6f} | "
                     f"{row['n_difference']:+.1e} | {difference} ({row['force_scale']:.3g}) | {row['ms']:.3f} | "
                     f"{row['speedup']:.1f}× |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
