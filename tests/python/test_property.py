"""Property tests: random settings drawn from every setter's domain and its edges, on random geometries with the
special places of the switching function, must give a clear error or the same numbers on every platform.

The rule each case is held to (Reference judges):
- a setter either takes the value or raises an OpenMMException with a message;
- creating a Context either fails with an OpenMMException on every platform, or on none;
- where the Reference platform's energy is finite, its forces are finite and every other platform gives the same
  s, energy and forces (double precision: 1e-9 relative, to the largest force for forces, widened only by the
  condition number of x^n where n or m is in the millions; GPU fixed-point sums add their resolution);
- where it is not (a coordinate of inf or NaN, an energy outside its domain, a parameter of inf or NaN), every
  platform reports a NaN energy and applies no force (OpenMM's CPU platform may refuse NaN coordinates first).

Every force class of the plugin joins these tests through FORCE_BUILDERS (the cases alternate between them). Besides
energy and forces, the numbers each force reports are compared: CoordinationForce's s, the per-atom forces'
(CoordinationNumberForce, SteinhardtForce, ShellFunctionForce) reductions and per-atom values. The number of cases and the seed come
from the environment, so that a longer run is one variable away:
    COORDINATION_PROPERTY_CASES      cases on Reference and CPU (default 500)
    COORDINATION_PROPERTY_GPU_CASES  cases of those also run on each GPU platform case in double precision (default 50)
    COORDINATION_PROPERTY_SEED       the seed (default 2026)
"""
import math
import os

import numpy as np
import openmm as mm
import pytest

from coordination_testing import PLATFORM_CASES, case_params, require_case
from openmmcoordination import (ContactMapForce, CoordinationForce, CoordinationNumberForce, PerAtomForce,
                                ShellFunctionForce, SteinhardtForce, SwitchingSettings)

CASES = int(os.environ.get("COORDINATION_PROPERTY_CASES", "500"))
GPU_CASES = int(os.environ.get("COORDINATION_PROPERTY_GPU_CASES", "50"))
SEED = int(os.environ.get("COORDINATION_PROPERTY_SEED", "2026"))
MAX_EXPONENT = CoordinationForce.MaxExponent
INT_LIMITS = [0, -1, 1, 2, MAX_EXPONENT, MAX_EXPONENT + 1, 2**31 - 1, 2**31, -(2**31)]
RELATIVE = 1e-9
EPSILON = 2.0**-52

SWITCH_TYPES = [CoordinationForce.Rational, CoordinationForce.Exponential, CoordinationForce.Gaussian,
                CoordinationForce.Smap, CoordinationForce.Cubic, CoordinationForce.Tanh, CoordinationForce.Cosinus,
                CoordinationForce.NativeQ, CoordinationForce.Custom]
# Well-conditioned expressions only: one with a removable singularity, such as (1-x^4)/(1-x^8) at the pair placed at
# x = 1, gives 0/0 or the last bits of x amplified (x there differs by an ulp between platforms: (r - d0)/r0 against
# (r - d0) * (1/r0)), whatever the implementation. The built-in rational function has its Taylor band for that.
CUSTOM_FUNCTIONS = ["exp(-x)", "1/(1+x^6)", "1/(1+x2^3)", "exp(-x2)", "1/(1+x^4)"]
ENERGIES = ["s", "k*s", "0.5*k*(s-s0)^2", "min(s, cap)", "log(s)", "sqrt(s)", "exp(-s)"]
# The farthest special distance, as a fraction of the box edge: just inside one half. At exactly one half the two
# periodic images are equally near, and the direction of a pair's force (or the image a centre is made whole
# with) is a tie that each platform breaks by its own rounding of r / box: both answers are right.
HALF_BOX = 0.5 - 2.0**-12
# A GPU sums ds/dx in OpenMM's 64-bit fixed point (2^-32 per addition) before multiplying it by dE/ds
# (docs/user-guide/limitations.md): its forces are resolved to 2^-32 |dE/ds| per addition.
GPU_GRADIENT_RESOLUTION = 2.0**-32


def is_openmm_error(error):
    return isinstance(error, mm.OpenMMException) and str(error).strip() != ""


class Draw:
    """Random values from each setter's domain and its edges."""

    def __init__(self, rng):
        self.rng = rng

    def pick(self, values):
        return values[self.rng.integers(len(values))]

    def length(self, typical=(0.05, 1.0)):
        edges = [0.0, 5e-324, 1e-300, 1e-30, 1e-5, 1e30, 1e300, math.inf, -math.inf, math.nan, -0.1]
        if self.rng.random() < 0.3:
            return self.pick(edges)
        return float(self.rng.uniform(*typical))

    def exponent(self):
        if self.rng.random() < 0.25:
            return self.pick(INT_LIMITS + [1500, 1000000])
        return int(self.rng.integers(1, 40))

    def number(self):
        edges = [0.0, -1.0, 1e-300, 1e300, math.inf, -math.inf, math.nan]
        if self.rng.random() < 0.3:
            return self.pick(edges)
        return float(self.rng.uniform(-5, 5))


def call(force, method, *args):
    """Applies one setter; a refusal must be a clear OpenMMException (or Python's own TypeError/OverflowError for an
    integer no C++ int holds)."""
    try:
        getattr(force, method)(*args)
        return True
    except (TypeError, OverflowError) as error:
        assert any(isinstance(a, int) and not -(2**31) <= a < 2**31 for a in args), (method, args, error)
        return False
    except Exception as error:  # noqa: BLE001 - the type is what is being checked
        assert is_openmm_error(error), f"{method}{args}: {type(error).__name__}: {error}"
        return False


def build_coordination_force(draw, num_atoms):
    """A CoordinationForce with random settings (each setter may refuse its value) and its global parameters."""
    force = CoordinationForce(draw.pick(ENERGIES))
    for name, value in (("k", 10.0), ("s0", 1.0), ("cap", math.inf)):
        call(force, "addGlobalParameter", name, value)
    set_pairs_randomly(force, draw, num_atoms)
    if draw.rng.random() < 0.3:
        call(force, "addEnergyParameterDerivative", "k")
    return force, ("k", "s0", "cap")


def set_pairs_randomly(force, draw, num_atoms):
    """Random switching function, groups, mode and periodicity: the settings CoordinationForce's subclasses share."""
    rng = draw.rng
    call(force, "setSwitchingFunction", draw.pick(SWITCH_TYPES))
    call(force, "setR0", draw.length((0.05, 0.5)))
    call(force, "setD0", draw.length((0.0, 0.2)) if rng.random() < 0.5 else 0.0)
    call(force, "setDMax", draw.length((0.3, 1.5)) if rng.random() < 0.8 else 0.0)
    call(force, "setN", draw.exponent())
    call(force, "setM", draw.exponent() if rng.random() < 0.5 else 0)
    call(force, "setStretch", bool(rng.random() < 0.7))
    call(force, "setSmapExponents", draw.exponent(), draw.exponent())
    call(force, "setNativeQParameters", draw.length((10, 60)), draw.length((1.0, 2.0)), draw.length((0.1, 0.4)))
    call(force, "setCustomSwitchingFunction", draw.pick(CUSTOM_FUNCTIONS))
    mode = draw.pick([CoordinationForce.Self, CoordinationForce.Dual, CoordinationForce.Pair])
    call(force, "setMode", mode)
    size = int(rng.integers(1, num_atoms + 1))
    group_a = [int(a) for a in rng.integers(0, num_atoms, size)]
    group_b = [int(a) for a in rng.integers(0, num_atoms, size if mode == CoordinationForce.Pair else
                                             int(rng.integers(1, num_atoms + 1)))]
    call(force, "setGroupA", group_a)
    call(force, "setGroupB", group_b if mode != CoordinationForce.Self else [])
    call(force, "setUsesPeriodicBoundaryConditions", bool(rng.random() < 0.5))


#: CoordinationNumberForce's reductions: for each type, parameters from its domain (first list) and from its edges and
#: beyond (second list: text PLUMED would not read, out-of-range numbers, inf, nan), drawn 15 % of the time.
VALUE_SWITCHES = (["RATIONAL R_0=1", "RATIONAL R_0=1.5 NN=8 MM=16 D_0=0.2", "RATIONAL R_0=2 D_MAX=4",
                   "EXP R_0=0.5 D_0=0.2", "GAUSSIAN R_0=1 D_MAX=3", "SMAP R_0=1 A=2 B=3", "CUBIC D_0=0.5 D_MAX=2",
                   "TANH R_0=2", "COSINUS R_0=2", "Q BETA=5 LAMBDA=1 REF=1", "CUSTOM FUNC=exp(-x) R_0=1",
                   "RATIONAL R_0=1 NN=40 MM=80", "RATIONAL R_0=1e-300", "RATIONAL R_0=1e300", "RATIONAL R_0=1e-62",
                   "SMAP R_0=1e-200 A=2 B=3", "GAUSSIAN R_0=1e-200", "EXP R_0=1e-300", "Q BETA=1e300 LAMBDA=1 REF=1",
                   "TANH R_0=1e-300", "RATIONAL R_0=1e-200 NN=5 MM=11"],
                  ["RATIONAL R_0=0", "RATIONAL R_0=inf", "RATIONAL R_0=nan", "RATIONAL R_0=-1", "RATIONAL", "NOPE R_0=1",
                   "", "RATIONAL R_0=1 NN=0", "RATIONAL R_0=1 D_MAX=0.5 D_0=1", "EXP R_0=1 A=2"])
BETAS = (["BETA=0.5", "BETA=2", "BETA=-1", "BETA=1e-300", "BETA=1e300", "BETA=50", "BETA=5e-324", "BETA=1.7e308",
          "BETA=-1e300", "BETA=-1e-300"],
         ["BETA=0", "BETA=inf", "BETA=nan", "", "BETA", "BETA=1 X=2"])
REDUCTION_PARAMETERS = {
    CoordinationNumberForce.Sum: ([""], [" 2", "x"]),
    CoordinationNumberForce.Mean: ([""], ["x"]),
    CoordinationNumberForce.MoreThan: VALUE_SWITCHES,
    CoordinationNumberForce.LessThan: VALUE_SWITCHES,
    CoordinationNumberForce.Between: (["GAUSSIAN LOWER=0.5 UPPER=2 SMEAR=0.5", "TRIANGULAR LOWER=0 UPPER=1 SMEAR=0.3",
                                       "GAUSSIAN LOWER=0 UPPER=3", "GAUSSIAN LOWER=0 UPPER=1e300 SMEAR=1e10",
                                       "GAUSSIAN LOWER=0.5 UPPER=2 SMEAR=4e-308", "TRIANGULAR LOWER=0 UPPER=1 SMEAR=1e-300",
                                       "GAUSSIAN LOWER=0 UPPER=1 SMEAR=1e-310", "TRIANGULAR LOWER=0 UPPER=2 SMEAR=5e-324"],
                                      ["GAUSSIAN LOWER=-inf UPPER=1", "GAUSSIAN LOWER=2 UPPER=1", "GAUSSIAN LOWER=1 UPPER=1",
                                       "GAUSSIAN LOWER=0 UPPER=1 SMEAR=0", "TRIANGULAR LOWER=0 UPPER=nan", "", "GAUSSIAN",
                                       "BOX LOWER=0 UPPER=1"]),
    CoordinationNumberForce.Min: BETAS,
    CoordinationNumberForce.Max: BETAS,
    CoordinationNumberForce.AltMin: BETAS,
    CoordinationNumberForce.Highest: ([""], ["1"]),
    CoordinationNumberForce.Lowest: ([""], ["1"]),
    CoordinationNumberForce.Moment: (["2", "3", "4", "64", " 2 "], ["65", "1", "0", "-2", "2.5", "x", ""]),
    # Of a SteinhardtForce without a local step; refused for the other classes.
    CoordinationNumberForce.VectorMean: ([""], ["1"]),
    CoordinationNumberForce.VectorSum: ([""], ["x"]),
}
#: Reduction names: the default (the type's PLUMED name), or one of its own; 15 % of the time a clash with another
#: reduction or a global parameter, or a name Lepton cannot use.
REDUCTION_NAMES = (["", "", "", "a", "b", "_z"], ["a", "k", "1x", "x y"])
R_POWERS = ([0.0, 1.0, 2.0, 0.5, 3.7, -0.0, 5e-324, 48.0, 60.0, 1000.0], [-1.0, math.inf, math.nan, 1e300, -math.inf])


#: SteinhardtForce's degrees (domain, edges) and ShellFunctionForce's functions, Custom expressions and alpha.
DEGREES = (list(range(1, 13)), [0, 13, -1, 2**31 - 1])
SHELL_FUNCTIONS = ([ShellFunctionForce.SimpleCubic, ShellFunctionForce.Tetrahedral, ShellFunctionForce.FCCubic,
                    ShellFunctionForce.Custom], [4, -1])
SHELL_EXPRESSIONS = (["x*y^2+z+0.1*r", "(x^4+y^4+z^4)/r^4", "x", "r", "x*y*z/r^3", "exp(-r)*z^2"],
                     ["", "q", "x+", "1/(x-x)"])
ALPHAS = ([3.0, 27.0, 0.5, -1.0], [math.nan, math.inf, -169.8125, 1e300])


def build_per_atom_force(draw, num_atoms, make):
    """A per-atom force (make(pick) creates it with its class's own settings) with random pair settings, reductions
    and an energy of them (each may be refused)."""
    rng = draw.rng

    def pick(pools):
        return draw.pick(pools[1] if rng.random() < 0.15 else pools[0])

    force = make(pick)
    for name, value in (("k", 10.0), ("s0", 1.0), ("cap", math.inf)):
        call(force, "addGlobalParameter", name, value)
    set_pairs_randomly(force, draw, num_atoms)
    if force.getMode() == CoordinationForce.Pair and rng.random() < 0.75:
        call(force, "setMode", CoordinationForce.Dual)  # Pair mode is refused: a few cases suffice
    # Rarely many reductions: any number on the host, at most 32 on a GPU (a clear error beyond).
    count = int(rng.integers(30, 40)) if rng.random() < 0.03 else int(rng.integers(1, 4))
    for _ in range(0 if rng.random() < 0.1 else count):
        reduction_type = int(draw.pick(list(REDUCTION_PARAMETERS)))
        call(force, "addReduction", reduction_type, pick(REDUCTION_PARAMETERS[reduction_type]), pick(REDUCTION_NAMES))
    names = [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())]
    first, second = (draw.pick(names), draw.pick(names)) if names else ("k", "s0")
    energy = draw.pick(["0", first, f"k*{first}", f"0.5*k*({first}-s0)^2", f"log({first})", f"sqrt({first})",
                        f"{first} + 2*{second}", f"min({first}, cap)", f"{first}*{second}"])
    call(force, "setEnergyFunction", "undefined" if rng.random() < 0.03 else energy)
    if rng.random() < 0.3:
        call(force, "addEnergyParameterDerivative", "k")
    if rng.random() < 0.4:
        # A local step (LOCAL_AVERAGE, LOCAL_Q_l; refused for a class without it, or an unknown step) with a
        # rational t of its own.
        call(force, "setLocalStep", draw.pick([PerAtomForce.LocalAverage, PerAtomForce.LocalDotProduct, 7]))
        local = SwitchingSettings.rational(draw.length((0.05, 0.5)), int(rng.integers(2, 13)), 0,
                                           draw.length((0.0, 0.2)) if rng.random() < 0.3 else 0.0,
                                           draw.length((0.6, 1.5)) if rng.random() < 0.8 else 0.0)
        call(force, "setLocalSwitchingSettings", local)
    if rng.random() < (0.3 if force.getLocalStep() != PerAtomForce.NoLocalStep else 0.03):
        # Local neighbours (SPECIESB of a LOCAL_... line; refused without a local step), now and then one out of range.
        neighbors = rng.integers(0, num_atoms + (1 if rng.random() < 0.1 else 0), int(rng.integers(1, num_atoms + 1)))
        call(force, "setLocalNeighbors", [int(a) for a in neighbors])
    if rng.random() < (0.4 if len(force.getLocalNeighbors()) else 0.02):
        # The neighbours' own partners (SPECIESB of an action that counts other atoms; refused without neighbours).
        partners = rng.integers(0, num_atoms + (1 if rng.random() < 0.1 else 0), int(rng.integers(1, num_atoms + 1)))
        call(force, "setLocalNeighborPartners", [int(a) for a in partners])
    return force, ("k", "s0", "cap")


def build_coordination_number_force(draw, num_atoms):
    """A CoordinationNumberForce with random settings (its R power too), reductions and an energy of them."""
    def make(pick):
        force = CoordinationNumberForce()
        call(force, "setRPower", pick(R_POWERS) if draw.rng.random() < 0.5 else float(draw.rng.uniform(0, 3)))
        return force
    return build_per_atom_force(draw, num_atoms, make)


def build_steinhardt_force(draw, num_atoms):
    """A SteinhardtForce of a random degree, with random settings, reductions and an energy of them."""
    def make(pick):
        force = SteinhardtForce()
        call(force, "setDegree", pick(DEGREES))
        return force
    return build_per_atom_force(draw, num_atoms, make)


def build_shell_function_force(draw, num_atoms):
    """A ShellFunctionForce of a random function (a Custom expression, normalised or not; FCCubic's alpha), with
    random settings, reductions and an energy of them."""
    def make(pick):
        force = ShellFunctionForce()
        call(force, "setCustomFunction", pick(SHELL_EXPRESSIONS))
        call(force, "setShellFunction", pick(SHELL_FUNCTIONS))
        call(force, "setNormalizeCustomFunction", bool(draw.rng.random() < 0.5))
        call(force, "setAlpha", pick(ALPHAS))
        return force
    return build_per_atom_force(draw, num_atoms, make)


def build_contact_map_force(draw, num_atoms):
    """A ContactMapForce with random contacts (each of any type, with its own settings and shape, between particles
    2k and 2k + 1 half of the time, so that the geometry's special distances reach them), centres, a reduction and an
    energy of its variables (each may be refused)."""
    rng = draw.rng
    reduction = draw.pick([ContactMapForce.Sum, ContactMapForce.Distance, ContactMapForce.Components])
    force = ContactMapForce("s", reduction)
    for name, value in (("k", 10.0), ("s0", 1.0), ("cap", math.inf)):
        call(force, "addGlobalParameter", name, value)
    if rng.random() < 0.9:
        call(force, "setCustomSwitchingFunction", draw.pick(CUSTOM_FUNCTIONS))
    centres = []
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.3 else 0):
        particles = [int(a) for a in rng.integers(0, num_atoms + (1 if rng.random() < 0.05 else 0),
                                                  int(rng.integers(1, 4)))]
        weighting = draw.pick([CoordinationForce.GeometricCenter, CoordinationForce.CenterOfMass,
                               CoordinationForce.WeightedCenter])
        weights = [float(rng.uniform(0.5, 2.0)) for _ in particles] if weighting == CoordinationForce.WeightedCenter else []
        if rng.random() < 0.05:
            weights = [draw.number()]
        centres.append(force.addCenter(particles, weighting, weights, bool(rng.random() < 0.7)))
    num_contacts = 0 if rng.random() < 0.03 else int(rng.integers(1, 7))
    for k in range(num_contacts):
        if rng.random() < 0.5 and 2 * k + 1 < num_atoms:
            particles = [2 * k, 2 * k + 1]
        else:
            particles = [int(a) for a in rng.integers(0, num_atoms, 2)]
            if centres and rng.random() < 0.3:
                particles[0] = draw.pick(centres)
            if rng.random() < 0.03:
                particles[1] = draw.pick([num_atoms, -1 - len(centres)])
        # A contact's settings from their edges 15 % of the time (a map of several contacts is then still often valid).
        edgy = rng.random() < 0.15
        length = draw.length if edgy else (lambda typical: float(rng.uniform(*typical)))
        exponent = draw.exponent if edgy else (lambda: int(rng.integers(1, 13)))
        switch = draw.pick(SWITCH_TYPES)
        shape = {CoordinationForce.Rational: [exponent(), exponent() if rng.random() < 0.5 else 0],
                 CoordinationForce.Smap: [exponent(), exponent()],
                 CoordinationForce.NativeQ: [length((10, 60)), length((1.0, 2.0)), length((0.1, 0.4))],
                 }.get(switch, [])
        if edgy and rng.random() < 0.2:
            shape = shape + [1.0] if rng.random() < 0.5 else shape[:-1]
        d0 = length((0.0, 0.2)) if rng.random() < 0.5 else 0.0
        dmax = d0 + length((0.3, 1.5)) if rng.random() < 0.7 else draw.pick([0.0, math.inf])
        call(force, "addContact", particles[0], particles[1], switch, length((0.05, 0.5)), d0, dmax,
             bool(rng.random() < 0.7), shape, draw.number() if edgy else float(rng.uniform(0, 1)),
             draw.number() if edgy else float(rng.uniform(-2, 2)))
    names = [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())]
    first, second = (draw.pick(names), draw.pick(names)) if names else ("k", "s0")
    energy = draw.pick(["0", first, f"k*{first}", f"0.5*k*({first}-s0)^2", f"log({first})", f"sqrt({first})",
                        f"{first} + 2*{second}", f"min({first}, cap)", f"{first}*{second}", "s", "contact_1"])
    call(force, "setEnergyFunction", energy)
    call(force, "setUsesPeriodicBoundaryConditions", bool(rng.random() < 0.5))
    if rng.random() < 0.3:
        call(force, "addEnergyParameterDerivative", "k")
    return force, ("k", "s0", "cap")
CENTER_WEIGHTINGS = [CoordinationForce.GeometricCenter, CoordinationForce.CenterOfMass, CoordinationForce.WeightedCenter]


def add_centers_randomly(force, draw, num_atoms):
    """One to three centres (each weighting, made whole or not; 10 % of them refused: no particles, an index outside
    the System, a weight count that differs, weights that sum to 0 or are not finite, weights on another weighting)
    standing in random group entries, sometimes beside an id that is no centre."""
    rng = draw.rng
    for _ in range(int(rng.integers(1, 4))):
        size = int(rng.integers(1, num_atoms + 1))
        particles = [int(a) for a in rng.integers(0, num_atoms, size)]
        weighting = draw.pick(CENTER_WEIGHTINGS)
        weights = [float(w) for w in rng.uniform(0.2, 2.0, size)] if weighting == CoordinationForce.WeightedCenter else []
        if rng.random() < 0.1:
            flaw = int(rng.integers(6))
            if flaw == 0:
                particles, weights = [], []
            elif flaw == 1:
                particles[0] = draw.pick([num_atoms, -1, 2**31 - 1])
            elif flaw == 2:
                weights = weights + [1.0]
            elif flaw == 3:
                weighting, weights = CoordinationForce.WeightedCenter, [1.0, -1.0] * size
                particles = particles * 2
            elif flaw == 4:
                weighting, weights = CoordinationForce.WeightedCenter, [draw.pick([math.inf, math.nan])] * size
            else:
                weights = [1.0] * size
                weighting = draw.pick([CoordinationForce.GeometricCenter, CoordinationForce.CenterOfMass])
        call(force, "addCenter", particles, weighting, weights, bool(rng.random() < 0.7))
    ids = [-1 - k for k in range(force.getNumCenters())]
    groups = [list(force.getGroupA()), list(force.getGroupB())]
    for group in groups:
        for position in range(len(group)):
            if ids and rng.random() < 0.3:
                group[position] = draw.pick(ids)
    if groups[0] and rng.random() < 0.05:
        groups[0][0] = -len(ids) - 1  # no such centre
    call(force, "setGroupA", groups[0])
    call(force, "setGroupB", groups[1])


def build_coordination_force_with_centers(draw, num_atoms):
    """A CoordinationForce whose groups hold centres (PLUMED's COM and CENTER) among the particles."""
    force, parameter_names = build_coordination_force(draw, num_atoms)
    add_centers_randomly(force, draw, num_atoms)
    return force, parameter_names


def build_coordination_number_force_with_centers(draw, num_atoms):
    """A CoordinationNumberForce whose groups (A's entries and B's neighbours) hold centres."""
    force, parameter_names = build_coordination_number_force(draw, num_atoms)
    add_centers_randomly(force, draw, num_atoms)
    return force, parameter_names


def as_coordination_force(force):
    """A System's force (a bare openmm.Force from System.getForce) as its own class, if the plugin's."""
    for force_class in (ContactMapForce, CoordinationNumberForce, SteinhardtForce, ShellFunctionForce,
                        CoordinationForce):
        if force_class.isinstance(force):
            return force_class.cast(force)
    return force


def largest_exponent(force):
    force = as_coordination_force(force)
    if isinstance(force, ContactMapForce):
        exponents = [1]
        for n in range(force.getNumContacts()):
            parameters = force.getContactParameters(n)
            if parameters[2] in (CoordinationForce.Rational, CoordinationForce.Smap):
                exponents += [abs(value) for value in parameters[7] if math.isfinite(value)]
        return max(exponents)
    if not isinstance(force, (CoordinationForce, PerAtomForce)):
        return 1
    values = [force.getN(), force.getM()]
    if force.getSwitchingFunction() == CoordinationForce.Smap:
        values += [force.getSmapA(), force.getSmapB()]
    return max(values)


def reported_values(force, context):
    """What a force reports besides energy and forces: s, or a per-atom force's reductions and per-atom values."""
    force = as_coordination_force(force)
    if isinstance(force, ContactMapForce):
        return np.array(force.getCollectiveVariableValues(context) + force.getContactValues(context))
    if isinstance(force, PerAtomForce):
        return np.array(force.getCollectiveVariableValues(context) + force.getPerAtomValues(context))
    if isinstance(force, CoordinationForce):
        return np.array([force.getCoordination(context)])
    return None


#: Each force class of the plugin: a builder of random instances. Later classes add theirs here.
FORCE_BUILDERS = {"CoordinationForce": build_coordination_force,
                  "CoordinationNumberForce": build_coordination_number_force,
                  "ContactMapForce": build_contact_map_force,
                  "CoordinationForce with centres": build_coordination_force_with_centers,
                  "CoordinationNumberForce with centres": build_coordination_number_force_with_centers,
                  "SteinhardtForce": build_steinhardt_force,
                  "ShellFunctionForce": build_shell_function_force}


def nanometers(quantity):
    return quantity.value_in_unit(mm.unit.nanometer) if mm.unit.is_quantity(quantity) else quantity


def geometry(draw, force, num_atoms, box_edge):
    """Random positions, with pairs placed at the switching function's special distances along one axis from
    binary-exact anchors (so that every platform computes the same r): coincident, d0, d0 + r0 (x = 1), dmax and
    just inside half the box (HALF_BOX); sometimes a non-finite coordinate."""
    rng = draw.rng
    positions = rng.uniform(0.2, box_edge - 0.2, (num_atoms, 3))
    special = []
    if isinstance(force, CoordinationForce):
        d0, r0, dmax = (nanometers(q) for q in (force.getD0(), force.getR0(), force.getEffectiveDMax()))
        special = [0.0, d0, d0 + r0, dmax, HALF_BOX * box_edge]
    elif isinstance(force, ContactMapForce) and force.getNumContacts() > 0:
        _, _, _, r0, d0, dmax, *_ = (nanometers(value) for value in force.getContactParameters(0))
        special = [0.0, d0, d0 + r0, dmax, HALF_BOX * box_edge]
    for k, distance in enumerate(special):
        first, second = 2 * k, 2 * k + 1
        if second >= num_atoms or not (math.isfinite(distance) and 0 <= distance < box_edge - 0.5):
            continue
        positions[first] = [0.25 + 0.5 * k, 0.5, 0.75]
        positions[second] = positions[first] + [distance, 0.0, 0.0]
    if rng.random() < 0.15:
        positions[rng.integers(num_atoms), rng.integers(3)] = draw.pick([math.inf, -math.inf, math.nan])
    return positions


def evaluate(system, positions, platform, precision, parameters):
    """(energy, forces, s) of a Context, or the exception its creation or evaluation raised."""
    properties = {"Precision": precision} if precision else {}
    try:
        context = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName(platform), properties)
    except Exception as error:  # noqa: BLE001
        return ("create", error)
    try:
        for name, value in parameters.items():
            context.setParameter(name, value)
        context.setPositions(positions)
        state = context.getState(getEnergy=True, getForces=True)
        energy = state.getPotentialEnergy().value_in_unit(mm.unit.kilojoule_per_mole)
        forces = np.array(state.getForces(asNumpy=True).value_in_unit(mm.unit.kilojoule_per_mole / mm.unit.nanometer))
        return ("values", (energy, forces, reported_values(system.getForce(0), context)))
    except Exception as error:  # noqa: BLE001
        return ("evaluate", error)
    finally:
        del context


def make_case(index):
    """Case `index` of the seeded sequence: (system, positions, global parameter values, description)."""
    rng = np.random.default_rng([SEED, index])
    draw = Draw(rng)
    name = list(FORCE_BUILDERS)[index % len(FORCE_BUILDERS)]
    num_atoms = int(rng.integers(2, 14))
    force, parameter_names = FORCE_BUILDERS[name](draw, num_atoms)
    box_edge = 3.2
    system = mm.System()
    for _ in range(num_atoms):
        system.addParticle(1.0)
    system.setDefaultPeriodicBoxVectors(mm.Vec3(box_edge, 0, 0), mm.Vec3(0, box_edge, 0), mm.Vec3(0, 0, box_edge))
    system.addForce(force)
    positions = geometry(draw, force, num_atoms, box_edge)
    parameters = {}
    if rng.random() < 0.2:
        parameters[draw.pick(list(parameter_names))] = draw.number()
    description = f"case {index} (seed {SEED}): {name} {force.toPlumed('c') if _plumed_ok(force) else ''} " \
                  f"energy {force.getEnergyFunction()!r} parameters {parameters} positions {positions.tolist()}"
    return system, positions, parameters, description


def _plumed_ok(force):
    try:
        force.toPlumed("c")
        return True
    except Exception:  # noqa: BLE001
        return False


#: What a GPU refuses that the Reference platform takes (docs: limitations), by its message.
GPU_BOUNDS = ("take at most 32 per force",)


def beyond_gpu_fixed_point(force, ref_s):
    """Whether a CoordinationNumberForce's numbers (the end of ref_s) leave the range the GPU's 64-bit fixed point
    holds to double precision (docs, limitations): a number at 2^42 over the entries of a group (a pair term there
    makes a GPU's evaluation NaN), or a nonzero number below 2^-52 * 1e9 (its absolute resolution 2^-52 is then more
    than 1e-9 of it)."""
    force = as_coordination_force(force)
    if not isinstance(force, CoordinationNumberForce) or ref_s is None:
        return False
    numbers = np.abs(ref_s[len(ref_s) - len(force.getGroupA()):])
    return outside_gpu_fixed_point(numbers, gpu_entries(force))


def gpu_entries(force):
    """The entries a GPU's fixed-point range is divided over: group A's (with the local neighbours appended after
    them) or group B's (with the neighbours' partners after them)."""
    neighbors = len(force.getLocalNeighbors()) if force.getLocalStep() != PerAtomForce.NoLocalStep else 0
    partners = len(force.getLocalNeighborPartners()) if neighbors else 0
    own_b = len(force.getGroupA()) if force.getMode() == CoordinationForce.Self else len(force.getGroupB())
    return max(len(force.getGroupA()) + neighbors, own_b + partners if neighbors else len(force.getGroupB()), 1)


def neighbor_partners(force):
    """The atoms whose pairs give the local neighbours their values: their own partners, or the force's (group B,
    group A in Self mode)."""
    return (force.getLocalNeighborPartners() or
            (force.getGroupA() if force.getMode() == CoordinationForce.Self else force.getGroupB()))


def outside_gpu_fixed_point(numbers, entries):
    too_small = (numbers > 0) & (numbers < 2.0**-52 * 1e9)
    return bool(np.any(~(numbers < 2.0**42 / entries)) or np.any(too_small))


def reference_numbers(system, positions, numbers):
    """The Reference platform's coordination numbers of a CoordinationNumberForce `numbers` in a copy of the System's
    particles and box, or None where it is refused."""
    copy = mm.System()
    for _ in range(system.getNumParticles()):
        copy.addParticle(1.0)
    copy.setDefaultPeriodicBoxVectors(*system.getDefaultPeriodicBoxVectors())
    copy.addForce(numbers)
    try:
        context = mm.Context(copy, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName("Reference"))
        context.setPositions(positions)
        return np.array(numbers.getCoordinationNumbers(context))
    except Exception:  # noqa: BLE001
        return None


def tiny_normalising_weights(system, positions):
    """Whether a per-atom force whose values are divided by their weights N_i = sum_j sigma(r_ij) (SteinhardtForce, a
    normalised ShellFunctionForce) has an entry with 0 < N_i < 2^-52 * 1e9: a GPU's fixed-point sums hold N_i and the
    weighted terms to an absolute 2^-52, more than 1e-9 of such an N_i (docs, limitations). N_i are the Reference
    platform's coordination numbers of a CoordinationNumberForce on the same pairs. Also true where a
    CoordinationNumberForce's local neighbours have numbers of their own outside the GPU's fixed point (ref_s holds
    only group A's: beyond_gpu_fixed_point)."""
    force = as_coordination_force(system.getForce(0))
    if not isinstance(force, PerAtomForce):
        return False
    normalised = isinstance(force, SteinhardtForce) or (isinstance(force, ShellFunctionForce) and (
        force.getShellFunction() != ShellFunctionForce.Custom or force.getNormalizeCustomFunction()))
    settings = [(force.getSwitchingSettings(), force.getMode())] if normalised else []
    neighbors = force.getLocalNeighbors() if force.getLocalStep() != PerAtomForce.NoLocalStep else ()
    # (switching function, mode, group A, group B) of each set of weights; the local neighbours' own N_j are from
    # their partners' pairs (neighbor_partners).
    weights_of = [(switching, mode, force.getGroupA(), force.getGroupB()) for switching, mode in settings]
    if settings and neighbors:
        weights_of.append((force.getSwitchingSettings(), CoordinationForce.Dual, neighbors, neighbor_partners(force)))
    if force.getLocalStep() == PerAtomForce.LocalDotProduct:
        # LOCAL_Q_l divides by the local weights W_i = sum_j t(r_ij) over the pairs of A (or of A and the local
        # neighbours).
        weights_of.append((force.getLocalSwitchingSettings(), CoordinationForce.Dual if neighbors else
                           CoordinationForce.Self, force.getGroupA(), neighbors))
    for switching, mode, group_a, group_b in weights_of:
        numbers = CoordinationNumberForce()
        numbers.setSwitchingSettings(switching)
        numbers.setMode(mode)
        numbers.setGroupA(group_a)
        if mode != CoordinationForce.Self:
            numbers.setGroupB(group_b)
        numbers.setUsesPeriodicBoundaryConditions(force.usesPeriodicBoundaryConditions())
        weights = reference_numbers(system, positions, numbers)
        if weights is not None and np.any((np.abs(weights) > 0) & (np.abs(weights) < 2.0**-52 * 1e9)):
            return True
    if isinstance(force, CoordinationNumberForce) and neighbors:
        # The local neighbours' own numbers (with the force's R power), which the GPU holds in the same fixed point.
        own = CoordinationNumberForce()
        own.setSwitchingSettings(force.getSwitchingSettings())
        own.setRPower(force.getRPower())
        own.setMode(CoordinationForce.Dual)
        own.setGroupA(neighbors)
        own.setGroupB(neighbor_partners(force))
        own.setUsesPeriodicBoundaryConditions(force.usesPeriodicBoundaryConditions())
        values = reference_numbers(system, positions, own)
        if values is not None and outside_gpu_fixed_point(np.abs(values), gpu_entries(force)):
            return True
    return False


def energy_slope(force, s, parameters):
    """The largest |dE/dv| over the energy's variables v (a CoordinationForce's s, a per-atom force's reductions) at
    the Reference platform's values (a central difference of the expression in each, evaluated in Python with the
    Context's global parameters); 1 for the other classes, or where Python cannot evaluate the expression."""
    force = as_coordination_force(force)
    if isinstance(force, PerAtomForce) and s is not None:
        count = force.getNumCollectiveVariables()
        variables = {force.getCollectiveVariableName(i): float(s[i]) for i in range(count)}
    elif isinstance(force, CoordinationForce) and s is not None and len(s) == 1:
        variables = {"s": float(s[0])}
    else:
        return 1.0
    if not all(math.isfinite(value) for value in variables.values()):
        return 1.0
    names = {force.getGlobalParameterName(i): force.getGlobalParameterDefaultValue(i)
             for i in range(force.getNumGlobalParameters())}
    names.update(parameters)
    expression = force.getEnergyFunction().replace("^", "**")
    namespace = {"log": math.log, "sqrt": math.sqrt, "exp": math.exp, "min": min, **names, **variables}
    slope = 1.0
    for name, value in variables.items():
        step = max(abs(value), 1e-300) * 1e-6
        try:
            upper = eval(expression, {"__builtins__": {}}, {**namespace, name: value + step})  # noqa: S307
            lower = eval(expression, {"__builtins__": {}}, {**namespace, name: value - step})  # noqa: S307
            derivative = abs((upper - lower) / (2 * step))
        except (ArithmeticError, ValueError, NameError, TypeError, SyntaxError):
            return 1.0
        if math.isfinite(derivative):
            slope = max(slope, derivative)
    return slope


def check_against_reference(reference, outcome, platform, positions, conditioning, gpu, force=None, slope=1.0,
                            tiny_weights=False):
    kind, value = outcome
    ref_kind, ref_value = reference
    if gpu and ref_kind == "values" and kind == "create" and any(bound in str(value) for bound in GPU_BOUNDS):
        return  # a bound of the GPU platforms, stated in the message
    if gpu and kind == "values" and ref_kind == "values" and (tiny_weights or beyond_gpu_fixed_point(force, ref_value[2])):
        # The GPU's documented limit: NaN with no force, or finite numbers to the fixed point's resolution.
        energy, forces, _ = value
        assert (math.isnan(energy) and not np.any(forces)) or (math.isfinite(energy) and np.all(np.isfinite(forces))), \
            f"{platform}: beyond the fixed point: energy {energy}, forces {forces}"
        return
    has_nan = bool(np.isnan(positions).any())
    if kind != "values" and has_nan and platform == "CPU" and "NaN" in str(value):
        return  # OpenMM's CPU platform refuses NaN coordinates before any force runs
    if ref_kind == "create":
        assert kind == "create", f"Reference refused the force ({ref_value}) but {platform} gave {kind}"
        assert is_openmm_error(value), f"{platform}: {type(value).__name__}: {value}"
        return
    assert kind == "values", f"Reference evaluated the force but {platform} raised at {kind}: {value}"
    energy, forces, s = value
    ref_energy, ref_forces, ref_s = ref_value
    if not math.isfinite(ref_energy):
        assert math.isnan(energy), f"{platform}: energy {energy}, Reference {ref_energy}"
        assert not np.any(forces), f"{platform}: forces applied with a NaN energy: {forces}"
        return
    assert math.isfinite(energy), f"{platform}: energy {energy}, Reference {ref_energy}"
    assert np.all(np.isfinite(forces)), f"{platform}: non-finite forces {forces}"
    tolerance = RELATIVE * conditioning
    floor = 2e-9 if gpu else 1e-300
    if ref_s is not None:
        # s (or the reductions and c_i): equal (infinities and NaN included) or within the tolerance.
        same = (s == ref_s) | (np.isnan(s) & np.isnan(ref_s))
        with np.errstate(invalid="ignore"):
            close = np.abs(s - ref_s) <= tolerance * np.maximum(np.abs(ref_s), 1.0) + floor
        assert s.shape == ref_s.shape and np.all(same | close), f"{platform}: s {s}, Reference {ref_s}"
    assert abs(energy - ref_energy) <= tolerance * max(abs(ref_energy), 1.0) + floor * 1e3, \
        f"{platform}: energy {energy}, Reference {ref_energy}"
    largest = float(np.max(np.abs(ref_forces)))
    deviation = float(np.max(np.abs(forces - ref_forces)))
    # Floors: on a GPU, the fixed point's resolution times dE/ds for each addition to an atom's row (one per tile,
    # its centre's rows and their spreading: at most 4 per atom here); on the host, rounding in forces that cancel
    # (an atom against a centre of itself alone) at EPSILON^2 of the slope, and for a value normalised by its
    # neighbours' weights (SteinhardtForce, ShellFunctionForce), rounding in the pair terms' gradients, which the
    # platforms sum in different orders (Q_l of a lone neighbour has no gradient, but each of its terms has one, of
    # the order of the switching function's 1/r0 and the direction's 1/r).
    floor = (len(positions) * (1e-8 + 4 * GPU_GRADIENT_RESOLUTION * slope) if gpu else EPSILON**2 * slope)
    if isinstance(as_coordination_force(force), (SteinhardtForce, ShellFunctionForce)):
        floor += 64 * EPSILON * slope * normalised_gradient_scale(force, positions)
    assert deviation <= tolerance * largest + floor, \
        f"{platform}: forces deviate by {deviation} (largest {largest})"


def normalised_gradient_scale(force, positions):
    """1/r0 + 1/r of the closest pair of distinct positions (an upper scale of a normalised per-atom term's gradient
    with respect to the bond vector, per unit of dE/dq)."""
    finite = positions[np.all(np.isfinite(positions), axis=1)]
    distances = [np.linalg.norm(a - b) for i, a in enumerate(finite) for b in finite[i + 1:]]
    distances = [d for d in distances if d * d >= EPSILON]  # closer pairs do not count (PLUMED's epsilon)
    r0 = nanometers(as_coordination_force(force).getR0())
    return (1.0 / r0 if math.isfinite(r0) and r0 > 0 else 1.0) + (1.0 / min(distances) if distances else 0.0)


def run_case(index, platforms):
    system, positions, parameters, description = make_case(index)
    return check_system(system, positions, parameters, description, platforms)


def check_system(system, positions, parameters, description, platforms):
    """Holds one System (its force at index 0) to the rule on the Reference platform and each of `platforms`;
    returns the Reference platform's outcome ("values", or where it raised: "create", "evaluate")."""
    reference = evaluate(system, positions, "Reference", None, parameters)
    kind, value = reference
    if kind != "values":
        assert is_openmm_error(value), f"{description}\nReference: {type(value).__name__}: {value}"
    else:
        energy, forces, _ = value
        if math.isfinite(energy):
            assert np.all(np.isfinite(forces)), f"{description}\nReference: finite energy, forces {forces}"
        else:
            assert not np.any(forces), f"{description}\nReference: NaN energy with forces {forces}"
    conditioning = max(1.0, 8 * largest_exponent(system.getForce(0)) * EPSILON / RELATIVE)
    slope = energy_slope(system.getForce(0), value[2], parameters) if kind == "values" else 1.0
    tiny = kind == "values" and any(platform != "CPU" for platform, _ in platforms) and tiny_normalising_weights(
        system, positions)
    for platform, precision in platforms:
        outcome = evaluate(system, positions, platform, precision, parameters)
        try:
            check_against_reference(reference, outcome, platform, positions, conditioning, precision is not None,
                                    system.getForce(0), slope, tiny)
        except AssertionError as failure:
            raise AssertionError(f"{description}\n{failure}") from None
    return kind


@pytest.mark.parametrize("block", range(4))
def test_random_settings_give_a_clear_error_or_the_same_numbers_on_reference_and_cpu(block):
    platforms = [("CPU", None)] if any(case.platform == "CPU" for case in PLATFORM_CASES) else []
    outcomes = [run_case(index, platforms) for index in range(block, CASES, 4)]
    assert outcomes


@pytest.mark.parametrize("case", case_params([c for c in PLATFORM_CASES if c.gpu and c.double], "GPU double"))
def test_random_settings_give_a_clear_error_or_the_same_numbers_on_gpu_platforms(case):
    require_case(case)
    outcomes = [run_case(index, [(case.platform, case.precision)]) for index in range(GPU_CASES)]
    # The sequence reaches both outcomes: refused at Context creation, and evaluated.
    assert "values" in outcomes and "create" in outcomes
