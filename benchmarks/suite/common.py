"""Names shared by the suite's modules: contenders, precisions, case families; the progress log; Skip."""
import sys
import time

NATIVE_PRECISION = "double"  # platforms without a Precision property (Reference, CPU) run the plugin in double
PLUGIN = "openmm-coordination"
OPENMM = "OpenMM CustomCVForce"
PLUMED = "PLUMED (published)"
NO_BIAS = "none (no bias)"
CONTENDER_ORDER = {PLUGIN: 0, OPENMM: 1, PLUMED: 2, NO_BIAS: -1}
PRECISION_ORDER = {"single": 0, "mixed": 1, "double": 2}
ALL_FAMILIES = ("S0", "S1", "S2", "S3", "S4", "S5", "S6")

START = time.perf_counter()


def log(message):
    """Progress line on stderr, with the seconds since the start."""
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr, flush=True)


class Skip(Exception):
    """A contender that is not run; the message says why."""
