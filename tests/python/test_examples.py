"""The examples run: the NaCl metadynamics showcase (a short run) and the CustomCVForce example."""
import csv
import subprocess
import sys
from pathlib import Path

import numpy as np

from coordination_testing import switching_function

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
    assert abs(fes["s"][fes["free_energy_kj_mol"].argmin()] - s.mean()) < 0.1
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
