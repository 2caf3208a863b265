"""The contenders' forces and Systems: this plugin's CoordinationForce, OpenMM's own route (a CustomCVForce
as cvpack builds it), and PLUMED's published numbers."""
import math

import openmm as mm

from openmmcoordination import CoordinationForce

from .common import PLUGIN, PLUMED
from .report import case_fields

ENERGY = "0.5*k*(s-s0)^2"
#: Host set-up cost of OpenMM's interaction groups (CommonCalcCustomNonbondedForceKernel::initInteractionGroups
#: checks every atom pair of the two sets; a binary search when the sets overlap), seconds per pair checked.
OVERLAPPING_SETUP_SECONDS_PER_PAIR = 2e-8
DISJOINT_SETUP_SECONDS_PER_PAIR = 3e-9
#: OpenMM stores 32 int4 per 32 x 32 interaction-group tile, twice with a cutoff (the filtered copy).
GROUP_DATA_BYTES_LIMIT = 16e9
#: PLUMED's published COORDINATION benchmark (case S0) on an H100: atoms -> (platform, precision, ms, note).
PLUMED_PUBLISHED = {
    1000: [("CUDA (H100)", "single", 0.52, "GPU port, CUDACOORDINATIONFLOAT"),
           ("CUDA (H100)", "double", 0.55, "GPU port, double"), ("CPU (16 threads)", "double", 2.2, "")],
    16000: [("CUDA (H100)", "single", 4.1, "GPU port, CUDACOORDINATIONFLOAT"),
            ("CUDA (H100)", "double", 4.1, "GPU port, double"), ("CPU (16 threads)", "double", 178.0, "")],
    128000: [("CUDA (H100)", "single", 24.9, "GPU port, CUDACOORDINATIONFLOAT"),
             ("CUDA (H100)", "double", 25.5, "GPU port, double")],
}


def plugin_force(case, geometry, k=1.0):
    """The CoordinationForce of a case."""
    force = CoordinationForce(ENERGY)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("s0", 0.0)
    force.setMode(getattr(CoordinationForce, case.mode))
    force.setGroupA(geometry.group_a)
    if case.mode != "Self":
        force.setGroupB(geometry.group_b)
    force.setR0(case.r0)
    force.setN(case.n)
    force.setM(case.m)
    force.setD0(case.d0)
    force.setDMax(case.dmax)
    force.setStretch(case.stretch)
    force.setUsesPeriodicBoundaryConditions(case.pbc)
    return force


def geometric_sum(terms):
    """1 + x + ... + x^(terms-1) in Horner form, as a Lepton expression of x."""
    expression = "1"
    for _ in range(terms - 1):
        expression = f"1+x*({expression})"
    return expression


def rational_value(case, r):
    """PLUMED's unstretched rational switching function at r (double precision; G_n/G_m has no 0/0)."""
    x = (r - case.d0) / case.r0
    if x <= 0:
        return 1.0
    return sum(x ** i for i in range(case.n)) / sum(x ** i for i in range(case.m))


def switching_expression(case):
    """sigma(r) as a Lepton expression of r: sigma = 1 below d0, the stretch as PLUMED's, no cutoff.

    m = 2n is written 1/(1+x^n); otherwise (1-x^n)/(1-x^m) = G_n(x)/G_m(x) with G_k = 1 + x + ... + x^(k-1),
    the same function without the 0/0 at x = 1.
    """
    x = f"(r-{case.d0!r})/{case.r0!r}" if case.d0 > 0 else f"r/{case.r0!r}"
    rational = f"1/(1+x^{case.n})" if case.m == 2 * case.n else f"({geometric_sum(case.n)})/({geometric_sum(case.m)})"
    sigma = f"select(step({case.d0!r}-r),1,{rational})" if case.d0 > 0 else rational
    dmax = case.effective_dmax
    if case.stretch and math.isfinite(dmax):
        at_dmax = rational_value(case, dmax)
        return f"(sigma-{at_dmax!r})/{1.0 - at_dmax!r}; sigma={sigma}; x={x}"
    return f"sigma; sigma={sigma}; x={x}"


def openmm_setup_problem(case, geometry):
    """Why OpenMM's route cannot run a case in reasonable time and memory, or None."""
    if case.mode == "Pair":
        return None  # a CustomBondForce: no cutoff, no interaction groups
    dmax = case.effective_dmax
    if case.pbc and math.isfinite(dmax) and geometry.edge is not None and 2 * dmax > geometry.edge:
        return f"OpenMM needs a periodic cutoff <= half the box (dmax {dmax:.3g} nm, box {geometry.edge:.3g} nm)"
    size_a = case.sizes[0]
    size_b = size_a if case.mode == "Self" else case.sizes[1]
    width = min(32, size_a, size_b)
    tiles = math.ceil(size_a / width) * math.ceil(size_b / width)
    group_bytes = tiles * 32 * 16 * (2 if math.isfinite(dmax) else 1)
    if group_bytes > GROUP_DATA_BYTES_LIMIT:
        return f"OpenMM's interaction-group tiles would take {group_bytes / 1e9:.0f} GB"
    per_pair = OVERLAPPING_SETUP_SECONDS_PER_PAIR if case.mode == "Self" else DISJOINT_SETUP_SECONDS_PER_PAIR
    return size_a * size_b * per_pair


def openmm_force(case, geometry, num_particles, k=1.0):
    """OpenMM's own route (as cvpack builds it): a CustomCVForce of the same energy, s from a
    CustomNonbondedForce over interaction groups (Self, Dual) or a CustomBondForce (Pair)."""
    dmax = case.effective_dmax
    if case.mode == "Pair":
        expression = switching_expression(case)
        if math.isfinite(dmax):
            head, definitions = expression.split(";", 1)
            expression = f"step({dmax!r}-r)*({head});{definitions}"
        collective = mm.CustomBondForce(expression)
        for a, b in zip(geometry.group_a, geometry.group_b):
            collective.addBond(a, b, [])
        collective.setUsesPeriodicBoundaryConditions(case.pbc)
    else:
        collective = mm.CustomNonbondedForce(switching_expression(case))
        for _ in range(num_particles):
            collective.addParticle([])
        collective.addInteractionGroup(geometry.group_a, geometry.group_a if case.mode == "Self" else geometry.group_b)
        if math.isinf(dmax):
            collective.setNonbondedMethod(mm.CustomNonbondedForce.NoCutoff)
        else:
            collective.setNonbondedMethod(mm.CustomNonbondedForce.CutoffPeriodic if case.pbc
                                          else mm.CustomNonbondedForce.CutoffNonPeriodic)
            collective.setCutoffDistance(dmax)
    force = mm.CustomCVForce(ENERGY)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("s0", 0.0)
    force.addCollectiveVariable("s", collective)
    return force


def particle_system(num_particles, edge):
    """A System of massless particles (they never move) in a cubic box (10 nm when there is none)."""
    system = mm.System()
    for _ in range(num_particles):
        system.addParticle(0.0)
    edge = edge or 10.0
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    return system


def with_force(system_builder, force):
    """A fresh System from system_builder() with `force` added (None: a do-nothing force instead)."""
    system = system_builder()
    system.addForce(force if force is not None else mm.CustomExternalForce("0"))
    return system


def coordination_of(contender, context, system):
    """s at the context's positions, from the contender's force (the System's last)."""
    force = system.getForce(system.getNumForces() - 1)
    if contender == PLUGIN:
        return CoordinationForce.cast(force).getCoordination(context)
    return force.getCollectiveVariableValues(context)[0]


def add_published(cases, prepared, results):
    """PLUMED's published numbers as rows of the S0 cases that are run."""
    for case in cases:
        if case.family != "S0" or case.sizes[0] not in PLUMED_PUBLISHED:
            continue
        pairs, method = prepared.pairs(case)
        for platform, precision, ms, note in PLUMED_PUBLISHED[case.sizes[0]]:
            results.add({**case_fields(case, pairs, method), "contender": PLUMED, "platform": platform,
                         "precision": precision, "ms_per_evaluation": ms, "pairs_per_second": pairs / (ms * 1e-3),
                         "status": "published", "note": note})
