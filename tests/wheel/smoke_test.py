"""The installed wheel, as a user gets it: run by tools/run-tests.sh in a fresh virtual environment that has
nothing but pip, the wheel and its declared dependencies (no build tools, no source tree on sys.path).

    python smoke_test.py PLUMED_DATA_DIR EXPECTED_VERSION

Checks: the import and the version; which platforms the plugin serves; PLUMED's regression test
rt-basic-der-test (frame 0 of c1, printed %8.4f by PLUMED) on Reference and CPU (and OpenCL/CUDA where
present); an XML round trip whose System is read back in a fresh Python process with the same energy.
Prints one line per check and a closing "wheel smoke test: N passed, N failed".
"""
import os
import subprocess
import sys
import tempfile
import traceback

results = []


def check(name):
    def run(function):
        try:
            detail = function()
            results.append(True)
            print(f"PASS {name}: {detail}")
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            results.append(False)
            print(f"FAIL {name}:\n{traceback.format_exc()}")
        return function
    return run


data, expected_version = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))


@check("import from site-packages, not the source tree")
def _import():
    import openmmcoordination

    assert openmmcoordination.__version__ == expected_version, openmmcoordination.__version__
    assert "site-packages" in openmmcoordination.__file__ and not openmmcoordination.__file__.startswith(here)
    assert "LD_LIBRARY_PATH" not in os.environ or "OpenMM.libs" not in os.environ["LD_LIBRARY_PATH"]
    return f"{openmmcoordination.__version__} from {os.path.dirname(openmmcoordination.__file__)}"


def served_platforms():
    import openmm
    import openmmcoordination

    names = [openmm.Platform.getPlatform(i).getName() for i in range(openmm.Platform.getNumPlatforms())]
    return [name for name in names if any(name in library for library in openmmcoordination.pluginLoadedLibNames)]


@check("the plugin's platforms")
def _platforms():
    served = served_platforms()
    assert "Reference" in served and "CPU" in served, served
    return " ".join(served)


def rt_basic_frame0():
    """PLUMED's rt-basic-der-test: the first frame of its trajectory and the printed c1."""
    with open(os.path.join(data, "trajectories", "trajectory.xyz")) as stream:
        count = int(stream.readline())
        box = [float(value) for value in stream.readline().split()]
        positions = [[float(value) for value in stream.readline().split()[1:4]] for _ in range(count)]
    with open(os.path.join(data, "rt-basic-der-test", "colvar.reference")) as stream:
        printed = float(next(line for line in stream if not line.startswith("#")).split()[1])
    return box, positions, printed


def regtest_system():
    import openmm
    from openmmcoordination import CoordinationForce

    box, positions, printed = rt_basic_frame0()
    read = CoordinationForce.fromPlumedFile(os.path.join(data, "rt-basic-der-test", "plumed.dat"))
    force = read.forces["c1"]
    system = openmm.System()
    for _ in positions:
        system.addParticle(1.0)
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box[0], 0, 0), openmm.Vec3(0, box[1], 0), openmm.Vec3(0, 0, box[2]))
    system.addForce(force)
    return system, force, positions, printed


for platform in ["Reference", "CPU", "OpenCL", "CUDA"]:
    if platform not in ("Reference", "CPU") and platform not in served_platforms():
        continue

    @check(f"PLUMED rt-basic-der-test c1 on {platform}")
    def _regtest(platform=platform):
        import openmm

        system, force, positions, printed = regtest_system()
        context = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName(platform))
        context.setPositions(positions)
        s = force.getCoordination(context)
        energy = context.getState(getEnergy=True).getPotentialEnergy().value_in_unit(openmm.unit.kilojoule_per_mole)
        # PLUMED printed 4 decimals: the exact value is within half a unit of the last one.
        assert abs(s - printed) <= 5e-5 + 1e-9 and abs(energy - s) <= 1e-5 * abs(s), (s, energy, printed)
        return f"s = {s:.10f}, PLUMED printed {printed:.4f}"


@check("XML round trip read back in a fresh Python process")
def _xml():
    import openmm

    system, force, positions, _ = regtest_system()
    force.setEnergyFunction("0.5*k*(s-s0)^2")
    force.addGlobalParameter("k", 250.0)
    force.addGlobalParameter("s0", 5.0)
    context = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName("Reference"))
    context.setPositions(positions)
    energy = context.getState(getEnergy=True).getPotentialEnergy().value_in_unit(openmm.unit.kilojoule_per_mole)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "system.xml")
        with open(path, "w") as stream:
            stream.write(openmm.XmlSerializer.serialize(system))
        program = ("import sys, openmm, openmmcoordination\n"
                   "system = openmm.XmlSerializer.deserialize(open(sys.argv[1]).read())\n"
                   "force = openmmcoordination.CoordinationForce.cast(system.getForce(0))\n"
                   "context = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName('Reference'))\n"
                   "context.setPositions([[float(v) for v in line.split()] for line in sys.stdin])\n"
                   "print(repr(context.getState(getEnergy=True).getPotentialEnergy()._value), force.getGlobalParameterName(1))\n")
        result = subprocess.run([sys.executable, "-c", program, path], input="\n".join(" ".join(map(repr, p)) for p in positions),
                                capture_output=True, text=True, cwd=folder, timeout=300)
        assert result.returncode == 0, result.stderr
        value, name = result.stdout.split()
        assert float(value) == energy and name == "s0", (value, energy, name)
    return f"E = {energy:.6f} kJ/mol in both processes"


print(f"wheel smoke test: {sum(results)} passed, {len(results) - sum(results)} failed")
sys.exit(0 if all(results) else 1)
