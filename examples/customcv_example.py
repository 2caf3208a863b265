"""A CoordinationForce inside OpenMM's CustomCVForce, next to another collective variable
======================================================================================

Na+ and Cl- in TIP3P water (the system of nacl_metadynamics.py). Two collective variables::

    w = the number of water oxygens around Na+   (CoordinationForce, DUAL mode: GROUPA=Na GROUPB=O,
                                                  R_0 = 0.3 nm, NN = 12, MM = 24, D_MAX = 0.8 nm)
    d = the Na-Cl distance                         (CustomBondForce "r")

and one CustomCVForce restraining both: 0.5*kw*(w - w0)^2 + 0.5*kd*max(0, d - dwall)^2 (keep Na+
six-coordinated and the ions within 0.6 nm). The script first checks that w inside CustomCVForce equals
the CoordinationForce used on its own (value and forces, in a second Context), then runs 2 ps and
prints both variables.

Usage::

    python examples/customcv_example.py [--platform CPU]
"""
import argparse
import os
import sys

import numpy as np
import openmm as mm
import openmm.unit as unit

from openmmcoordination import CoordinationForce

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nacl_metadynamics import build, fastest_platform, minimize_in_contact  # noqa: E402 (the same solvated NaCl)


def hydration(sodium, oxygens, energy="s"):
    force = CoordinationForce(energy)
    force.setMode(CoordinationForce.Dual)
    force.setGroupA([sodium])
    force.setGroupB(oxygens)
    force.setR0(0.3)
    force.setN(12)
    force.setM(24)
    force.setDMax(0.8)
    force.setUsesPeriodicBoundaryConditions(True)
    return force


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--platform", default=None, help="default: the fastest present")
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    platform = mm.Platform.getPlatformByName(args.platform) if args.platform else fastest_platform()[0]

    modeller, system, sodium, chloride = build()
    oxygens = [atom.index for atom in modeller.topology.atoms() if atom.residue.name == "HOH" and atom.element.symbol == "O"]
    distance = mm.CustomBondForce("r")
    distance.addBond(sodium, chloride)
    distance.setUsesPeriodicBoundaryConditions(True)
    restraint = mm.CustomCVForce("0.5*kw*(w - w0)^2 + 0.5*kd*max(0, d - dwall)^2")
    for name, value in (("kw", 20.0), ("w0", 6.0), ("kd", 2000.0), ("dwall", 0.6)):
        restraint.addGlobalParameter(name, value)
    restraint.addCollectiveVariable("w", hydration(sodium, oxygens))
    restraint.addCollectiveVariable("d", distance)
    restraint.setForceGroup(1)
    system.addForce(restraint)

    integrator = mm.LangevinMiddleIntegrator(300 * unit.kelvin, 1 / unit.picosecond, 0.002 * unit.picoseconds)
    context = mm.Context(system, integrator, platform)
    context.setPositions(modeller.positions)
    minimize_in_contact(context, 300)  # the ions held in contact while minimizing, as in the showcase
    context.setVelocitiesToTemperature(300 * unit.kelvin, 1)

    # The same w restraint as a standalone CoordinationForce, in its own Context at the same positions.
    alone = mm.System()
    for index in range(system.getNumParticles()):
        alone.addParticle(system.getParticleMass(index))
    alone.setDefaultPeriodicBoxVectors(*system.getDefaultPeriodicBoxVectors())
    standalone = hydration(sodium, oxygens, energy="0.5*kw*(s - w0)^2")
    standalone.addGlobalParameter("kw", 20.0)
    standalone.addGlobalParameter("w0", 6.0)
    alone.addForce(standalone)
    check = mm.Context(alone, mm.VerletIntegrator(0.001), platform)
    state = context.getState(getPositions=True)
    check.setPeriodicBoxVectors(*state.getPeriodicBoxVectors())
    check.setPositions(state.getPositions())
    w, d = restraint.getCollectiveVariableValues(context)
    # With d inside the wall, the restraint's energy and forces are the w term alone.
    inside = context.getState(getEnergy=True, getForces=True, groups={1})
    outside = check.getState(getEnergy=True, getForces=True)
    energy_in = inside.getPotentialEnergy().value_in_unit(unit.kilojoules_per_mole)
    energy_out = outside.getPotentialEnergy().value_in_unit(unit.kilojoules_per_mole)
    forces_in = inside.getForces(asNumpy=True).value_in_unit(unit.kilojoules_per_mole / unit.nanometer)
    forces_out = outside.getForces(asNumpy=True).value_in_unit(unit.kilojoules_per_mole / unit.nanometer)
    print(f"platform {platform.getName()}: w = {w:.4f} (standalone {standalone.getCoordination(check):.4f}), d = {d:.4f} nm")
    print(f"restraint energy inside CustomCVForce {energy_in:.6f} kJ/mol, standalone {energy_out:.6f} kJ/mol; "
          f"largest force difference {np.abs(forces_in - forces_out).max():.2e} kJ/mol/nm "
          f"(largest force {np.abs(forces_out).max():.2f})")

    print(f"{'time (ps)':>9} {'w (hydration of Na+)':>21} {'d (Na-Cl, nm)':>14}")
    for block in range(5):
        integrator.step(args.steps // 5)
        w, d = restraint.getCollectiveVariableValues(context)
        print(f"{(block + 1) * args.steps // 5 * 0.002:9.2f} {w:21.3f} {d:14.3f}", flush=True)


if __name__ == "__main__":
    main()
