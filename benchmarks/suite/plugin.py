"""The plugin's API as the suite uses it, in one place: the force of each case, what the suite reads back from it (s,
the kernel's candidate pairs), and which of the classes, methods and constants this needs the imported
openmmcoordination has.

Every call the suite makes on the plugin's forces is here, so that a change of the plugin's API is adapted here
alone. tools/compare-trees.sh times an older tree with this suite, so only the setters that every tree with the
class has are used (setR0, setN, setMode, ..., the forms of 0.2.0), and a case that needs what the imported module
lacks (ContactMapForce, CoordinationNumberForce, CoordinationForce.addCenter, ...) is skipped (missing()) rather
than failing: features are found with hasattr on the module and its classes, never from version strings.
"""
import openmmcoordination

from .cases import SWITCHING_TYPES, cluster_masses
from .common import ENERGY, Skip

NUMBERS_ENERGY = "0.5*k*(mean-s0)^2+k*morethan"  # family N's CoordinationNumberForce and family Q's SteinhardtForce
COORDINATION = "CoordinationForce"
NUMBERS = "CoordinationNumberForce"
STEINHARDT = "SteinhardtForce"
SHELL_FUNCTION = "ShellFunctionForce"
CONTACT_MAP = "ContactMapForce"


def class_name(case):
    """The plugin's class that builds a case: ContactMapForce (family M), CoordinationNumberForce (family N's
    SPECIES rows), SteinhardtForce (family Q) or CoordinationForce."""
    if case.contacts:
        return CONTACT_MAP
    if case.shell:
        return SHELL_FUNCTION
    return NUMBERS if case.numbers else STEINHARDT if case.steinhardt else COORDINATION


def lookup(path):
    """The imported module's attribute at a dotted path ("CoordinationForce.addCenter"); None where it has none."""
    found = openmmcoordination
    for name in path.split("."):
        found = getattr(found, name, None)
        if found is None:
            return None
    return found


def requirements(case):
    """What plugin_force() uses of the module for a case beyond CoordinationForce's plain setters, as dotted
    paths (a class, then its members)."""
    kind = class_name(case)
    if case.contacts:
        return [kind, f"{kind}.Sum", f"{kind}.addContact"]
    needed = [kind]
    if case.numbers or case.steinhardt or case.shell:
        needed += [f"{kind}.addReduction", f"{kind}.Mean", f"{kind}.MoreThan"]
    if case.shell:
        needed.append(f"{kind}.{case.shell}")
    if case.local:
        needed += [f"{kind}.setLocalStep", f"{kind}.{case.local}", f"{kind}.setLocalSwitchingSettings"]
    if case.center:
        needed += [f"{kind}.addCenter", f"{kind}.WeightedCenter"]
    for method, arguments in SWITCHING_TYPES.get(case.switching, ()):
        needed.append(f"{kind}.{method}")
        if method == "setSwitchingFunction":
            needed += [f"{kind}.{name}" for name in arguments]
    return needed


def missing(case):
    """What the imported module lacks of a case's requirements, e.g. "ContactMapForce" or
    "CoordinationForce.addCenter" (a missing class stands for its members); None when it has everything."""
    absent = []
    for path in requirements(case):
        if lookup(path) is None and not any(path.startswith(name + ".") for name in absent):
            absent.append(path)
    return ", ".join(absent) or None


def unsupported(case):
    """Why the imported module cannot build a case ("this tree has no ContactMapForce"); None where it can."""
    absent = missing(case)
    return f"this tree has no {absent}" if absent else None


def check(case):
    """Raise Skip where the imported module lacks what the case needs."""
    reason = unsupported(case)
    if reason:
        raise Skip(reason)


def contact_map_force(case, geometry, k=1.0):
    """Family M's ContactMapForce: SUM of one contact per pair, PLUMED's SWITCH={RATIONAL R_0=r0}, the suite's
    energy."""
    kind = lookup(CONTACT_MAP)
    force = kind(ENERGY, kind.Sum)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("s0", 0.0)
    for a, b in zip(geometry.group_a, geometry.group_b):
        force.addContact(int(a), int(b), case.r0)
    force.setUsesPeriodicBoundaryConditions(case.pbc)
    return force


def plugin_force(case, geometry, k=1.0):
    """The CoordinationForce of a case (family N's SPECIES rows: a CoordinationNumberForce, MoreThan and Mean;
    family Q: a SteinhardtForce, with a local step in its LOCAL rows, or a ShellFunctionForce, Mean and MoreThan; family M: a ContactMapForce). Raises Skip where the imported module lacks what the case needs."""
    check(case)
    if case.contacts:
        return contact_map_force(case, geometry, k)
    kind = lookup(class_name(case))  # its constants (modes, centre weightings, switching types) too
    if case.numbers:
        force = kind(NUMBERS_ENERGY)
        force.addReduction(kind.Mean)
        force.addReduction(kind.MoreThan, "RATIONAL R_0=4")
    elif case.steinhardt:
        force = kind(case.steinhardt, NUMBERS_ENERGY)
        force.addReduction(kind.Mean)
        force.addReduction(kind.MoreThan, "RATIONAL R_0=0.5")
    elif case.shell:
        force = kind(getattr(kind, case.shell), NUMBERS_ENERGY)
        force.addReduction(kind.Mean)
        force.addReduction(kind.MoreThan, "RATIONAL R_0=0.5")
    else:
        force = kind(ENERGY)
    force.addGlobalParameter("k", k)
    force.addGlobalParameter("s0", 0.0)
    force.setMode(getattr(kind, case.mode))
    force.setGroupA(geometry.group_a)
    if case.center:
        # The cluster's centre of mass, weighted by water's masses as given weights (the suite's particles are
        # massless, so that they stay in place; the kernels treat every weighting alike).
        weights = [float(w) for w in cluster_masses(len(geometry.cluster))]
        force.setGroupA([force.addCenter(geometry.cluster, kind.WeightedCenter, weights)])
    if case.mode != "Self":
        force.setGroupB(geometry.group_b)
    force.setR0(case.r0)
    force.setN(case.n)
    force.setM(case.m)
    force.setD0(case.d0)
    force.setDMax(case.dmax)
    force.setStretch(case.stretch)
    force.setUsesPeriodicBoundaryConditions(case.pbc)
    if case.local:
        force.setLocalStep(getattr(kind, case.local))
        force.setLocalSwitchingSettings(force.getSwitchingSettings())
    for method, arguments in SWITCHING_TYPES.get(case.switching, ()):
        if method == "setSwitchingFunction":
            arguments = tuple(getattr(kind, name) for name in arguments)
        getattr(force, method)(*arguments)
    return force


def plugin_value(case, context, force):
    """The plugin's s at the context's positions: CoordinationForce's coordination; the first collective variable of
    a ContactMapForce (SUM: s), a CoordinationNumberForce and a SteinhardtForce (their first reduction, the mean)."""
    plugin = lookup(class_name(case)).cast(force)
    if case.contacts or case.numbers or case.steinhardt or case.shell:
        return plugin.getCollectiveVariableValues(context)[0]
    return plugin.getCoordination(context)


def candidate_pairs(case, context, force):
    """The pairs the plugin's kernel tests against the cutoff in one evaluation now (None for a contact map, and for
    a tree without getNumCandidatePairsInContext)."""
    if case.contacts:
        return None
    method = getattr(lookup(class_name(case)).cast(force), "getNumCandidatePairsInContext", None)
    return None if method is None else method(context)
