"""Case S6: a full MD step of a TIP3P water box, without a bias and with the plugin's or OpenMM's restraints."""
import dataclasses
import statistics

import numpy as np
import openmm as mm
from openmm import app, unit

from .cases import Case, Geometry, count_unique_pairs
from .common import NATIVE_PRECISION, NO_BIAS, OPENMM, PLUGIN, Skip, log
from .contenders import coordination_of, openmm_force, openmm_setup_problem
from .plugin import plugin_force
from .report import case_fields, measured_fields
from .runner import attempt
from .timing import make_context, measure_added, platform_precisions, seconds_per_step, steps_for


def water_box(edge_nm):
    """(topology, positions) of a TIP3P box built by Modeller (no downloads)."""
    forcefield = app.ForceField("amber14-all.xml", "amber14/tip3p.xml")
    modeller = app.Modeller(app.Topology(), [])
    modeller.addSolvent(forcefield, boxSize=mm.Vec3(edge_nm, edge_nm, edge_nm) * unit.nanometer)
    return forcefield, modeller.topology, modeller.positions


def md_system(forcefield, topology):
    """PME, 0.9 nm cutoff, HBonds constraints, rigid water."""
    return forcefield.createSystem(topology, nonbondedMethod=app.PME, nonbondedCutoff=0.9 * unit.nanometer,
                                   constraints=app.HBonds, rigidWater=True)


def md_integrator():
    """Langevin middle, 300 K, 1/ps, 2 fs, fixed seed."""
    integrator = mm.LangevinMiddleIntegrator(300 * unit.kelvin, 1 / unit.picosecond, 0.002 * unit.picoseconds)
    integrator.setRandomNumberSeed(1)
    return integrator


def md_context(system, positions, platform, precision):
    """A Langevin context at 300 K with seeded velocities."""
    context, integrator = make_context(system, positions, platform, precision, md_integrator())
    context.setVelocitiesToTemperature(300 * unit.kelvin, 1)
    return context, integrator


def ns_per_day(seconds_per_step_value):
    """ns/day at 2 fs per step."""
    return 86400.0 / seconds_per_step_value * 2e-6


def md_restraints(quick, oxygens):
    """The S6 restraints on water oxygens: (Case, group A, group B) for the Dual and the Self restraint."""
    rng = np.random.default_rng(5)
    dual_size, self_size = (200, 50) if quick else (1000, 100)
    chosen = rng.choice(oxygens, size=2 * dual_size + self_size, replace=False).tolist()
    dual = Case("S6", f"S6 + Dual {dual_size} x {dual_size} O", "Dual", (dual_size, dual_size))
    self_case = Case("S6", f"S6 + Self {self_size} O", "Self", (self_size,))
    return [(dual, chosen[:dual_size], chosen[dual_size:2 * dual_size]), (self_case, chosen[2 * dual_size:], [])]


@dataclasses.dataclass
class WaterBox:
    """Case S6's system: force field, topology, minimized positions (nm), box edge, oxygen indices."""

    forcefield: object
    topology: object
    positions: np.ndarray
    edge: float
    oxygens: list


def prepare_water(options, precision):
    """Build and minimize the water box; returns (WaterBox, the no-bias context and integrator)."""
    edge = 4.2 if options.quick else 6.2
    log(f"S6: building a {edge} nm water box")
    forcefield, topology, positions = water_box(edge)
    positions = minimized(md_system(forcefield, topology), positions)
    base = md_context(md_system(forcefield, topology), positions, options.platform, precision)
    oxygens = [atom.index for atom in topology.atoms() if atom.element is not None and atom.element.symbol == "O"]
    log(f"S6: {topology.getNumAtoms()} atoms, {len(oxygens)} oxygens")
    return WaterBox(forcefield, topology, positions, edge, oxygens), base


def minimized(system, positions):
    """Positions (nm) after 50 minimizer iterations on the CPU platform (Modeller's tiled box has clashes at its
    faces; OpenMM's minimizer crashes on PoCL's OpenCL, so it runs on the CPU platform everywhere)."""
    context, _ = make_context(system, positions, "CPU", NATIVE_PRECISION)
    mm.LocalEnergyMinimizer.minimize(context, 10.0, 50)
    return context.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(unit.nanometer)


def run_md(options, results, budget):
    """Case S6: no bias, then each restraint with the plugin and with OpenMM's route."""
    precision = platform_precisions(options.platform, [options.md_precision])[0]
    min_rep = max(options.min_rep_ms / 1e3, 0.1)
    fields = {"case": "S6", "label": "S6 no bias", "mode": "MD", "contender": NO_BIAS,
              "platform": options.platform, "precision": precision}
    try:
        budget.check()
        water, base = prepare_water(options, precision)
    except Exception as error:  # Skip, or a failure to build the system: one row says so
        status = "skipped" if isinstance(error, Skip) else "failed"
        results.add({**fields, "status": status, "note": " ".join(str(error).split())[:300]})
        log(f"S6: {status}: {error}")
        return
    fields.update({"atoms": f"{water.topology.getNumAtoms()} (water)", "particles": water.topology.getNumAtoms()})
    attempt(results, fields, lambda: md_baseline(base, options, min_rep))
    for case, group_a, group_b in md_restraints(options.quick, water.oxygens):
        geometry = Geometry(water.positions, water.edge, group_a, group_b)
        pairs, method = count_unique_pairs(case, geometry)
        for contender in (PLUGIN, OPENMM):
            row = {**fields, **case_fields(case, pairs, method), "particles": water.topology.getNumAtoms(),
                   "contender": contender}
            attempt(results, row, lambda: md_variant(case, geometry, pairs, contender, water, base, precision,
                                                     options, min_rep, budget))


def md_baseline(base, options, min_rep):
    """The no-bias row: ms per step and ns/day."""
    steps, _ = steps_for(*base, min_rep)
    times = [seconds_per_step(*base, steps) for _ in range(options.reps)]
    step = statistics.median(times)
    log(f"S6 no bias: {step * 1e3:.4g} ms/step, {ns_per_day(step):.1f} ns/day")
    return {"base_ms_per_step": step * 1e3, "ns_per_day": ns_per_day(step), "steps_per_rep": steps,
            "reps": len(times), "status": "ok"}


def md_variant(case, geometry, pairs, contender, water, base, precision, options, min_rep, budget):
    """One restraint (k = 1e-3) with one contender, timed against the no-bias context."""
    budget.check()
    if contender == OPENMM:
        problem = openmm_setup_problem(case, geometry)
        if isinstance(problem, str):
            raise Skip(problem)
    system = md_system(water.forcefield, water.topology)
    if contender == PLUGIN:
        system.addForce(plugin_force(case, geometry, k=1e-3))
    else:
        system.addForce(openmm_force(case, geometry, system.getNumParticles(), k=1e-3))
    biased = md_context(system, water.positions, options.platform, precision)
    s = coordination_of(contender, case, biased[0], system)  # at the minimized positions, the same for both contenders
    measurement = measure_added(base, biased, options, options.reps, min_rep)
    fields = measured_fields(measurement, pairs, s)
    fields.update({"ms_per_evaluation": None, "pairs_per_second": None, "ns_per_day": ns_per_day(measurement.biased),
                   "slowdown_percent": 100.0 * (measurement.biased / measurement.base - 1.0)})
    log(f"{case.label} | {contender}: {fields['ns_per_day']:.1f} ns/day, {fields['slowdown_percent']:.2f} % slower, "
        f"s = {s:.7g}")
    return fields
