"""The contenders' forces and Systems: this plugin's CoordinationForce (built, and read back, in plugin.py), OpenMM's
own route (a CustomCVForce as cvpack builds it), the anchors (OpenMM's CustomNonbondedForce summing sigma without
interaction groups, a CustomCVForce over it, a NonbondedForce LJ + reaction field), and PLUMED's published numbers."""
import math

import openmm as mm
from openmm import unit

from . import fluid
from .common import CUSTOM_NONBONDED, ENERGY, NONBONDED, OPENMM, OPENMM_NO_GROUPS, PLUGIN, PLUMED
from .plugin import candidate_pairs, plugin_force, plugin_value
from .report import case_fields

#: Host set-up cost of OpenMM's interaction groups (CommonCalcCustomNonbondedForceKernel::initInteractionGroups
#: checks every atom pair of the two sets; a binary search when the sets overlap), seconds per pair checked.
OVERLAPPING_SETUP_SECONDS_PER_PAIR = 2e-8
DISJOINT_SETUP_SECONDS_PER_PAIR = 3e-9
#: The NonbondedForce contender: LJ sigma (nm), epsilon (kJ/mol) and the alternating charges' magnitude (e).
LJ_SIGMA, LJ_EPSILON, LJ_CHARGE = 0.3, 0.5, 0.1
#: The anchors run on the Self and Dual cases with a cutoff; the plugin and OpenMM's route on every case.
ANCHORS = (CUSTOM_NONBONDED, NONBONDED, OPENMM_NO_GROUPS)
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


def runs_on(contender, case):
    """Whether a contender has a row in a case on the GPU platform (the moving rows and T are the plugin's alone;
    C runs on the CPU-side platforms only)."""
    if case.family == "C":
        return False
    if case.moving or case.family in ("T", "N", "Q", "M", "V"):
        return contender == PLUGIN
    if contender in ANCHORS:
        return case.mode != "Pair" and math.isfinite(case.effective_dmax)
    return True


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


def scaled(factor, expression):
    """A Lepton expression multiplied by factor (its first part; the definitions after ';' kept)."""
    head, definitions = expression.split(";", 1)
    return f"{factor}*({head});{definitions}"


def periodic_cutoff_problem(case, geometry):
    """Why OpenMM refuses the case's cutoff (a periodic cutoff above half the box), or None."""
    dmax = case.effective_dmax
    if case.pbc and math.isfinite(dmax) and geometry.edge is not None and 2 * dmax > geometry.edge:
        return f"OpenMM needs a periodic cutoff <= half the box (dmax {dmax:.3g} nm, box {geometry.edge:.3g} nm)"
    return None


def openmm_setup_problem(case, geometry):
    """Why OpenMM's route cannot run a case in reasonable time and memory, or None."""
    if case.mode == "Pair":
        return None  # a CustomBondForce: no cutoff, no interaction groups
    cutoff_problem = periodic_cutoff_problem(case, geometry)
    if cutoff_problem:
        return cutoff_problem
    dmax = case.effective_dmax
    size_a = case.sizes[0]
    size_b = size_a if case.mode == "Self" else case.sizes[1]
    width = min(32, size_a, size_b)
    tiles = math.ceil(size_a / width) * math.ceil(size_b / width)
    group_bytes = tiles * 32 * 16 * (2 if math.isfinite(dmax) else 1)
    if group_bytes > GROUP_DATA_BYTES_LIMIT:
        return f"OpenMM's interaction-group tiles would take {group_bytes / 1e9:.0f} GB"
    per_pair = OVERLAPPING_SETUP_SECONDS_PER_PAIR if case.mode == "Self" else DISJOINT_SETUP_SECONDS_PER_PAIR
    return size_a * size_b * per_pair


def set_cutoff(force, case):
    """The case's cutoff on a (Custom)NonbondedForce: dmax, periodic when the case uses PBC; NoCutoff without one."""
    dmax = case.effective_dmax
    if math.isinf(dmax):
        force.setNonbondedMethod(force.NoCutoff)
        return
    force.setNonbondedMethod(force.CutoffPeriodic if case.pbc else force.CutoffNonPeriodic)
    force.setCutoffDistance(dmax)


def custom_cv_force(collective, k=1.0):
    """CustomCVForce of the suite's energy 0.5*k*(s-s0)^2 with `collective` as s."""
    force = mm.CustomCVForce(ENERGY)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("s0", 0.0)
    force.addCollectiveVariable("s", collective)
    return force


def openmm_force(case, geometry, num_particles, k=1.0):
    """OpenMM's own route (as cvpack builds it): a CustomCVForce of the same energy, s from a
    CustomNonbondedForce over interaction groups (Self, Dual) or a CustomBondForce (Pair)."""
    dmax = case.effective_dmax
    if case.mode == "Pair":
        expression = switching_expression(case)
        if math.isfinite(dmax):
            expression = scaled(f"step({dmax!r}-r)", expression)
        collective = mm.CustomBondForce(expression)
        for a, b in zip(geometry.group_a, geometry.group_b):
            collective.addBond(a, b, [])
        collective.setUsesPeriodicBoundaryConditions(case.pbc)
    else:
        collective = mm.CustomNonbondedForce(switching_expression(case))
        for _ in range(num_particles):
            collective.addParticle([])
        collective.addInteractionGroup(geometry.group_a, geometry.group_a if case.mode == "Self" else geometry.group_b)
        set_cutoff(collective, case)
    return custom_cv_force(collective, k)


def membership(num_particles, group):
    """1.0 for the particles of a group, 0.0 for the others."""
    flags = [0.0] * num_particles
    for index in group:
        flags[index] = 1.0
    return flags


def group_filter(case, geometry, num_particles):
    """(factor, {parameter: per-particle values}) that zero the pairs outside the groups in a pair expression:
    Dual a1*b2+a2*b1, Self on a subset a1*a2; (None, {}) for Self over every particle."""
    if case.mode == "Self" and len(geometry.group_a) == num_particles:
        return None, {}
    a = membership(num_particles, geometry.group_a)
    if case.mode == "Self":
        return "a1*a2", {"a": a}
    return "(a1*b2+a2*b1)", {"a": a, "b": membership(num_particles, geometry.group_b)}


def pair_sum_force(case, geometry, num_particles):
    """The anchor: a CustomNonbondedForce whose energy is sigma(r) of each pair, so that it sums to s; no
    interaction groups (per-particle flags zero the pairs outside the groups, so it visits the neighbour list a
    user of this force would get), the case's cutoff, no switching function, no long-range correction."""
    factor, parameters = group_filter(case, geometry, num_particles)
    expression = switching_expression(case)
    force = mm.CustomNonbondedForce(expression if factor is None else scaled(factor, expression))
    for name in parameters:
        force.addPerParticleParameter(name)
    for index in range(num_particles):
        force.addParticle([values[index] for values in parameters.values()])
    set_cutoff(force, case)
    force.setUseSwitchingFunction(False)
    force.setUseLongRangeCorrection(False)
    return force


def nonbonded_force(num_particles, members, sigma, epsilon, charge):
    """OpenMM's NonbondedForce: LJ (sigma, epsilon) and charges +-charge alternating on `members`; the other
    particles have no charge and epsilon 0. No cutoff set here; no dispersion correction."""
    force = mm.NonbondedForce()
    sign = {index: (-1) ** rank for rank, index in enumerate(sorted(members))}
    for index in range(num_particles):
        inside = index in sign
        force.addParticle(charge * sign[index] if inside else 0.0, sigma, epsilon if inside else 0.0)
    force.setUseDispersionCorrection(False)
    return force


def lennard_jones_force(case, geometry, num_particles):
    """The cost of a real MD pair loop on the same particles: LJ + reaction field at the case's cutoff."""
    members = set(geometry.group_a) | set(geometry.group_b)
    force = nonbonded_force(num_particles, members, LJ_SIGMA, LJ_EPSILON, LJ_CHARGE)
    set_cutoff(force, case)
    return force


def biasing_force(contender, case, geometry, num_particles):
    """The force a contender adds to the case's System (None: the baseline's do-nothing force instead)."""
    if contender == PLUGIN:
        return plugin_force(case, geometry, k=fluid.BIAS_K if case.moving else 1.0)
    if contender == OPENMM:
        return openmm_force(case, geometry, num_particles)
    if contender == CUSTOM_NONBONDED:
        return pair_sum_force(case, geometry, num_particles)
    if contender == OPENMM_NO_GROUPS:
        return custom_cv_force(pair_sum_force(case, geometry, num_particles))
    if contender == NONBONDED:
        return lennard_jones_force(case, geometry, num_particles)
    return None


def particle_system(num_particles, edge, mass=0.0):
    """A System of particles in a cubic box (10 nm when there is none); massless particles never move."""
    system = mm.System()
    for _ in range(num_particles):
        system.addParticle(mass)
    edge = edge or 10.0
    system.setDefaultPeriodicBoxVectors(mm.Vec3(edge, 0, 0), mm.Vec3(0, edge, 0), mm.Vec3(0, 0, edge))
    return system


def build_system(case, contender, geometry):
    """The System of a contender on a case (None: the baseline): the particles (in the moving rows with the
    LJ fluid's force), then the contender's force or a do-nothing force, always last."""
    if case.moving:
        system = particle_system(case.particles, geometry.edge, fluid.MASS)
        force = nonbonded_force(case.particles, range(case.particles), fluid.SIGMA, fluid.EPSILON, 0.0)
        force.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
        force.setCutoffDistance(fluid.CUTOFF)
        system.addForce(force)
    else:
        system = particle_system(case.particles, geometry.edge)
    force = biasing_force(contender, case, geometry, case.particles)
    system.addForce(force if force is not None else mm.CustomExternalForce("0"))
    return system


def last_force(system):
    """The contender's force: the System's last."""
    return system.getForce(system.getNumForces() - 1)


def coordination_of(contender, case, context, system):
    """s at the context's positions, from the contender's force (None for the NonbondedForce: it has no s)."""
    force = last_force(system)
    if contender == PLUGIN:  # family M: its one variable, s; family N's SPECIES rows: the mean of the c_i
        return plugin_value(case, context, force)
    if contender == CUSTOM_NONBONDED:
        state = context.getState(getEnergy=True, groups={force.getForceGroup()})
        return state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    if contender == NONBONDED:
        return None
    return force.getCollectiveVariableValues(context)[0]


def kernel_candidates(contender, case, context, system):
    """The pairs the plugin's kernel tests against the cutoff in one evaluation now (None for the other
    contenders, a contact map, and a build of the plugin without getNumCandidatePairsInContext, which
    tools/compare-trees.sh may time with this suite)."""
    return candidate_pairs(case, context, last_force(system)) if contender == PLUGIN else None


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
