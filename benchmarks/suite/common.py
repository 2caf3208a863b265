"""Names shared by the suite's modules: contenders, precisions, case families; the progress log; Skip."""
import sys
import time

NATIVE_PRECISION = "double"  # platforms without a Precision property (Reference, CPU) run the plugin in double
PLUGIN = "openmm-coordination"
OPENMM = "OpenMM CustomCVForce"
CUSTOM_NONBONDED = "OpenMM CustomNonbondedForce"  # the anchor: sigma summed by OpenMM's pair loop, no groups
OPENMM_NO_GROUPS = "OpenMM CustomCVForce, no groups"  # CustomCVForce(E(s)) over that anchor
NONBONDED = "OpenMM NonbondedForce LJ+RF"  # a real MD pair loop on the same particles; it has no s
PLUMED = "PLUMED (published)"
NO_BIAS = "none (no bias)"
ENERGY = "0.5*k*(s-s0)^2"  # the bias of s, the same for the plugin and OpenMM's CustomCVForce routes
#: Contenders whose s is compared with the plugin's.
VALUE_CONTENDERS = (OPENMM, CUSTOM_NONBONDED, OPENMM_NO_GROUPS)
CONTENDER_ORDER = {PLUGIN: 0, CUSTOM_NONBONDED: 1, OPENMM: 2, OPENMM_NO_GROUPS: 3, NONBONDED: 4, PLUMED: 5,
                   NO_BIAS: -1}
PRECISION_ORDER = {"single": 0, "mixed": 1, "double": 2}
ALL_FAMILIES = ("S0", "S1", "S2", "S3", "S4", "S5", "N", "Q", "M", "V", "S6", "T", "C")
#: The families with the main table's columns (T and C have tables of their own).
PAIR_FAMILIES = ("S0", "S1", "S2", "S3", "S4", "S5", "N", "Q", "M", "V")

START = time.perf_counter()


def log(message):
    """Progress line on stderr, with the seconds since the start."""
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr, flush=True)


class Skip(Exception):
    """A contender that is not run; the message says why."""
