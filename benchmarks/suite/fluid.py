"""S2's moving rows: the particles of an S2 box are an LJ fluid in MD, so that the plugin's neighbour list is
rebuilt (and its atoms re-sorted) as in real MD; the added time per step includes those rebuilds.

The fluid: 18 amu, LJ sigma 0.2 nm, epsilon 0.5 kJ/mol, cutoff 1 nm, no charges (at 100 atoms/nm^3 and
300 K that is reduced density 0.8 and temperature 5: a dense, stable fluid; sigma 0.3 nm would be reduced
density 2.7, beyond close packing at 1.41). It starts on a lattice (cases.fluid_positions: no clashes, so no minimization), gets
velocities at 300 K and runs LangevinMiddleIntegrator at 1 fs; both contexts (with the bias and without)
move. The bias has k = BIAS_K: its forces are negligible next to the fluid's, so both run the same dynamics.
"""
from openmm import LangevinMiddleIntegrator, unit

from .timing import make_context

MASS = 18.0  # amu
SIGMA = 0.2  # nm
EPSILON = 0.5  # kJ/mol
CUTOFF = 1.0  # nm
TEMPERATURE = 300.0  # K
BIAS_K = 1e-9  # kJ/mol: dE/ds = k*s stays below 0.01 at 1M atoms, yet the forces are computed in full
#: Steps of equilibration, and of a repetition at least: 0.2 ps at 1 fs melts the lattice (reduced temperature 5),
#: and a repetition spans list rebuilds (the fastest atoms move half the 0.1 nm skin in about 30 steps) and two
#: re-sorts (every 100 evaluations). --quick (a smoke test of tiny systems on PoCL or Reference) takes a tenth.
STEPS = 200
QUICK_STEPS = 20


def steps(quick):
    """Steps of equilibration and the fewest steps of a repetition."""
    return QUICK_STEPS if quick else STEPS


def fluid_context(system, positions, platform, precision, equilibration_steps):
    """A moving context: Langevin middle (300 K, 1/ps, 1 fs, fixed seed), velocities at 300 K, equilibrated."""
    integrator = LangevinMiddleIntegrator(TEMPERATURE * unit.kelvin, 1 / unit.picosecond, 0.001 * unit.picoseconds)
    integrator.setRandomNumberSeed(1)
    context, integrator = make_context(system, positions, platform, precision, integrator)
    context.setVelocitiesToTemperature(TEMPERATURE * unit.kelvin, 1)
    integrator.step(equilibration_steps)
    return context, integrator
