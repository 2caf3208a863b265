"""The examples run: the NaCl metadynamics showcase (a short run) and the CustomCVForce example."""
import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import openmm.unit as unit
import pytest

from coordination_testing import minimum_image_rectangular, pair_list, switching_function
from openmmcoordination import CoordinationForce

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_nacl_metadynamics_writes_its_outputs_and_s_is_the_switched_na_cl_distance(tmp_path):
    result = subprocess.run([sys.executable, str(EXAMPLES / "nacl_metadynamics.py"), "--ps", "2", "--platform", "CPU",
                             "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "platform CPU" in result.stdout and "4 hills" in result.stdout, result.stdout
    with open(tmp_path / "colvar.csv") as stream:
        rows = list(csv.DictReader(stream))
    assert [float(row["time_ps"]) for row in rows] == [0.5, 1.0, 1.5, 2.0]
    s = np.array([float(row["s"]) for row in rows])
    r = np.array([float(row["na_cl_distance_nm"]) for row in rows])
    # s, from the force inside app.Metadynamics, against the numpy switching function of the printed distance
    np.testing.assert_allclose(s, switching_function(r, r0=0.3, n=6, m=12, dmax=1.0), atol=1e-4)
    fes = np.genfromtxt(tmp_path / "free_energy.csv", delimiter=",", names=True, skip_header=1)
    assert len(fes) == 401 and fes["free_energy_kj_mol"].min() < -1.0  # hills were deposited
    # app.Metadynamics deposits its hills at the steps the rows are written, at the s printed there: its
    # free energy is the well-tempered sum of those hills, rebuilt here in numpy (heights from the bias
    # already there, interpolated linearly where OpenMM uses a spline: a few 0.001 kJ/mol apart).
    grid = fes["s"]
    bias = np.zeros_like(grid)
    delta_t = 300.0 * (6.0 - 1.0)  # K: T (bias factor - 1)
    for centre in s:
        height = 1.5 * np.exp(-np.interp(centre, grid, bias) / (0.0083144626 * delta_t))
        bias += height * np.exp(-0.5 * ((grid - centre) / 0.015) ** 2)
    np.testing.assert_allclose(fes["free_energy_kj_mol"], -(300.0 + delta_t) / delta_t * bias, atol=0.02)
    # The deepest free energy is inside the range of the hills' centres (a sum of equal-width Gaussians).
    spacing = grid[1] - grid[0]
    assert s.min() - spacing <= grid[fes["free_energy_kj_mol"].argmin()] <= s.max() + spacing
    if (tmp_path / "free_energy.png").exists():
        assert (tmp_path / "free_energy.png").stat().st_size > 10000


def test_custom_cv_example_matches_standalone_use():
    result = subprocess.run([sys.executable, str(EXAMPLES / "customcv_example.py"), "--platform", "CPU", "--steps", "100"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("restraint energy"))
    words = line.replace(",", " ").replace("(", " ").replace(")", " ").split()
    numbers = [float(word) for word in words if word.replace(".", "", 1).replace("e-", "", 1).replace("e+", "", 1)
               .isdigit()]
    inside, standalone, difference, largest = numbers
    assert abs(inside - standalone) <= 1e-9 * max(1.0, abs(standalone)), line
    assert largest > 1.0 and difference <= 1e-9 * largest, line


def _example_module(name):
    sys.path.insert(0, str(EXAMPLES))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(EXAMPLES))


def test_from_plumed_example_reproduces_plumeds_printed_values_and_forces(capsys):
    from_plumed = _example_module("from_plumed")
    sys.argv = ["from_plumed.py", "--platforms", "Reference,CPU"]
    from_plumed.main()
    output = capsys.readouterr().out
    line = next(line for line in output.splitlines() if line.startswith("largest difference"))
    # PLUMED printed 4 decimals (%8.4f): the exact value is within half a unit of the last one.
    values = [float(word.rstrip(",")) for word in line.split(":", 1)[1].split("(")[0].split()[1::2]]
    assert len(values) == 2 and max(values) <= 5e-5, line
    assert "toPlumed():        c1: COORDINATION GROUPA=1-2 GROUPB=3-6 SWITCH={RATIONAL R_0=2 NN=6}" in output


def test_from_customcv_example_custom_route_equals_the_cvpack_route():
    pytest.importorskip("cvpack", reason="cvpack (PyPI) is not installed: the migration example calls it")
    from_customcv = _example_module("from_customcv")
    positions, box, sodium, oxygens, nonbonded = from_customcv.equilibrated_box(2.2, 1.0)
    rows = from_customcv.compare(["Reference", "CPU"], positions, box, sodium, oxygens, nonbonded, reps=1, stream=None)
    assert len(rows) == 12
    for row in rows:
        if row["route"].startswith("CoordinationForce, Custom"):
            # Reference: both double precision; CPU: OpenMM's CustomNonbondedForce computes in single precision.
            relative = 1e-12 if row["platform"] == "Reference" else 2e-6
            assert abs(row["n_difference"]) <= relative * max(1.0, abs(row["n"])), row
            assert row["force_difference"] <= 50 * relative * row["force_scale"], row
        elif row["route"].startswith("CoordinationForce, PLUMED"):
            # A different function (stretched to 0 at 0.6 nm, no polynomial switch): close.
            assert abs(row["n_difference"]) < 0.15 * row["n"], row
    # cvpack's route itself against numpy: 1/(1+(r/r0)^6) times OpenMM's switching polynomial, minimum image.
    edges = np.diag(np.array(box.value_in_unit(unit.nanometer)))
    xyz = positions.value_in_unit(unit.nanometer)
    expected = {"hydration": _cvpack_contacts(xyz, edges, CoordinationForce.Dual, [sodium], oxygens),
                "water": _cvpack_contacts(xyz, edges, CoordinationForce.Self, oxygens, ())}
    for row in rows:
        if row["route"].startswith("CustomCV"):
            relative = 1e-12 if row["platform"] == "Reference" else 2e-6
            reference = expected[row["cv"].split(":")[0]]
            assert abs(row["n"] - reference) <= relative * max(1.0, reference), (row, reference)
    assert expected["hydration"] > 1.0 and expected["water"] > len(oxygens), expected  # real contacts were counted


def _cvpack_contacts(xyz, edges, mode, group_a, group_b, r0=0.3, switch_on=0.45, cutoff=0.6):
    """cvpack's contact number over the mode's pairs of distinct atoms (for these groups the pairs an
    interaction group counts): sum of 1/(1+(r/r0)^6) S(r), S OpenMM's switch, zero from the cutoff."""
    first, second = np.array([(i, j) for i, j in pair_list(mode, group_a, group_b) if i != j]).T
    r = np.linalg.norm(minimum_image_rectangular(xyz[second] - xyz[first], edges), axis=1)
    t = np.clip((r - switch_on) / (cutoff - switch_on), 0.0, 1.0)
    switch = 1 - 10 * t**3 + 15 * t**4 - 6 * t**5
    return float(np.sum(np.where(r < cutoff, switch / (1 + (r / r0) ** 6), 0.0)))
