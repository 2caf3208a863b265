"""The examples run: the NaCl metadynamics, cluster-growth, Q6 crystallisation and native-contacts showcases (short runs)
and the others."""
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


def test_lj_cluster_growth_pulls_the_vapour_into_clusters(tmp_path):
    """examples/lj_cluster_growth.py: the restraint's centre ramps to the target and the restrained count follows it."""
    result = subprocess.run([sys.executable, str(EXAMPLES / "lj_cluster_growth.py"), "--platform", "CPU", "--atoms", "200",
                             "--ps", "20", "--target", "20", "--out", str(tmp_path)], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    table = np.genfromtxt(tmp_path / "cluster_growth.csv", delimiter=",", names=True)
    assert len(table) == 10
    np.testing.assert_allclose(table["n0"], np.linspace(2, 20, 10), atol=1e-9)
    assert table["morethan"][0] < 1.0 < 5.0 < table["morethan"][-1]  # a vapour at first; atoms with > 4 neighbours at the end
    assert np.all(table["largest_c"] >= table["mean_c"]) and table["largest_c"][-1] > 4.0
    if (tmp_path / "cluster_growth.png").exists():
        assert (tmp_path / "cluster_growth.png").stat().st_size > 10000


def test_lj_crystallisation_q6_orders_the_liquid_along_its_moving_restraint(tmp_path):
    """examples/lj_crystallisation_q6.py: the restraint's centre ramps from the liquid's mean Q6 to the target and
    stays there, and the mean Q6 follows it up, lagging behind. In the runs of these settings (256 atoms, 40 ps,
    kappa 1200 kJ/mol per atom) the lag was at most 0.021 and the mean Q6 rose by 0.077; the mean Q6 of 256 atoms
    fluctuates by about 0.005 from one ps to the next, hence the tolerances."""
    result = subprocess.run([sys.executable, str(EXAMPLES / "lj_crystallisation_q6.py"), "--platform", "CPU",
                             "--atoms", "256", "--ps", "40", "--target", "0.5", "--out", str(tmp_path)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "platform CPU" in result.stdout and "perfect fcc 0.58" in result.stdout, result.stdout
    table = np.genfromtxt(tmp_path / "crystallisation_q6.csv", delimiter=",", names=True)
    np.testing.assert_allclose(table["time_ps"], np.arange(41), atol=1e-9)
    q0, q6 = table["q0"], table["mean_q6"]
    # q0 starts at the liquid's mean Q6, moves every ps over the first 30 ps (75 %) and is held at the target after
    assert q0[0] == q6[0] and 0.35 < q6[0] < 0.44
    np.testing.assert_allclose(q0, q0[0] + (0.5 - q0[0]) * np.minimum(1.0, np.arange(41) / 30), atol=2e-4)
    assert q6[-1] > q6[0] + 0.05 and q6[-5:].mean() > 0.46  # ordered, towards the crystal's 0.49-0.50
    assert np.all(np.abs(q6 - q0) < 0.035) and np.all(q6 - q0 < 0.015)  # follows q0, from below
    assert table["ordered_fraction"][-1] > table["ordered_fraction"][0] + 0.25  # more atoms with Q6(i) > 0.45
    assert np.all(np.isfinite(table["potential_kj_mol"]))
    if (tmp_path / "crystallisation_q6.png").exists():
        assert (tmp_path / "crystallisation_q6.png").stat().st_size > 10000


def test_native_contacts_q_steers_q_down_and_reports_the_q_of_its_frames(tmp_path):
    """examples/native_contacts_q.py: the restraint's centre ramps from 1 to the target, Q follows it down, and the
    Q it reports is the fraction of native contacts of the frame it writes, rebuilt here in numpy from test.pdb."""
    import openmm.app as app

    result = subprocess.run([sys.executable, str(EXAMPLES / "native_contacts_q.py"), "--platform", "CPU", "--ps", "4",
                             "--target", "0.6", "--out", str(tmp_path), "--markdown", str(tmp_path / "table.md")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    table = np.genfromtxt(tmp_path / "native_contacts_q.csv", delimiter=",", names=True)
    np.testing.assert_allclose(table["time_ps"], [0, 1, 2, 3, 4], atol=1e-9)
    # q0 moves every 50 steps to 1 - 0.4 min(1, step / 1600) (the ramp is 80 % of 2000 steps), held from 3.2 ps
    np.testing.assert_allclose(table["q0"], [1.0, 1 - 0.4 * 500 / 1600, 1 - 0.4 * 1000 / 1600, 1 - 0.4 * 1500 / 1600,
                                             0.6], atol=1e-6)
    q = table["Q"]
    assert q[0] > 0.98 and q[-1] < q[0] - 0.05 and np.all(q >= table["q0"] - 0.05)  # pulled down, lagging its target
    assert table["work_kj_mol"][0] == 0 and np.all(np.diff(table["work_kj_mol"]) > 0)  # Q > q0 while q0 falls

    # The native contacts from their definition: heavy atoms of the protein more than three residues apart, closer
    # than 0.45 nm in test.pdb; Q = mean of 1 / (1 + exp(50 (r - 1.8 r_native))) over them.
    def heavy_atoms(path):
        pdb = app.PDBFile(str(path))
        atoms = [(atom.residue.index, atom.name) for atom in pdb.topology.atoms()
                 if atom.residue.name not in ("HOH", "Cl", "Na") and atom.element.symbol != "H"]
        xyz = pdb.getPositions(asNumpy=True).value_in_unit(unit.nanometer)
        keep = [atom.index for atom in pdb.topology.atoms()
                if atom.residue.name not in ("HOH", "Cl", "Na") and atom.element.symbol != "H"]
        return atoms, xyz[keep]

    native_atoms, native_xyz = heavy_atoms(Path(app.__file__).parent / "data" / "test.pdb")
    last_atoms, last_xyz = heavy_atoms(tmp_path / "native_contacts_q_last.pdb")
    assert native_atoms == last_atoms
    contacts = []
    for a in range(len(native_atoms)):
        for b in range(a + 1, len(native_atoms)):
            r = float(np.linalg.norm(native_xyz[a] - native_xyz[b]))
            if abs(native_atoms[a][0] - native_atoms[b][0]) > 3 and r < 0.45:
                contacts.append((a, b, r))
    assert f"{len(contacts)} native contacts" in result.stdout, result.stdout
    assert len(contacts) > 300
    r_last = np.array([np.linalg.norm(last_xyz[a] - last_xyz[b]) for a, b, _ in contacts])
    r_native = np.array([r for _, _, r in contacts])
    q_last = np.mean(1.0 / (1.0 + np.exp(50.0 * (r_last - 1.8 * r_native))))
    # The PDB file rounds the coordinates to 0.0005 nm; the slope of a contact's function is at most 50/4 per nm.
    assert abs(q_last - q[-1]) < 2e-3, (q_last, q[-1])
    # The radius of gyration of the heavy atoms of the last frame
    rg = np.sqrt(((last_xyz - last_xyz.mean(axis=0)) ** 2).sum(axis=1).mean())
    assert abs(rg - table["rg_nm"][-1]) < 1e-3
    markdown = (tmp_path / "table.md").read_text().splitlines()
    assert markdown[0].startswith("| time (ps) | q0 | Q |") and len([line for line in markdown if line.startswith("| ")]) == 6
    if (tmp_path / "native_contacts_q.png").exists():
        assert (tmp_path / "native_contacts_q.png").stat().st_size > 10000


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


def test_multiple_walkers_share_one_bias(tmp_path):
    """examples/multiple_walkers.py --smoke: two walker processes on the CPU, one bias through app.Metadynamics' biasDir."""
    result = subprocess.run([sys.executable, str(EXAMPLES / "multiple_walkers.py"), "--smoke", "--out", str(tmp_path)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for walker in (0, 1):
        assert f"walker {walker}:      1.0 ps  s=" in result.stdout and f"walker {walker}: done, 1.0 ps" in result.stdout
    assert "2 walker(s): 0.002 ns in" in result.stdout and "ns/day combined" in result.stdout, result.stdout
    grid = np.linspace(0.0, 1.0, 401)
    files = sorted(tmp_path.glob("bias/bias_*.npy"))
    assert len(files) == 2  # one file per walker, the latest of each
    # Each file holds its own walker's hills: Gaussians of width 0.015 at the s its colvar.csv records (a hill at
    # every row), heights up to 1.5 kJ/mol, lowered by the bias already there (well-tempered: at most 3 kJ/mol here).
    centres = [np.array([float(row["s"]) for row in csv.DictReader(open(tmp_path / f"walker-{i}" / "colvar.csv"))])
               for i in (0, 1)]
    assert all(len(c) == 2 for c in centres)
    for path in files:
        bias = np.load(path)
        fits = []
        for c in centres:
            basis = np.exp(-0.5 * ((grid[:, None] - c[None, :]) / 0.015) ** 2)
            heights, *_ = np.linalg.lstsq(basis, bias, rcond=None)
            fits.append((np.abs(basis @ heights - bias).max(), heights))
        residual, heights = min(fits, key=lambda fit: fit[0])
        # colvar.csv rounds s to 1e-9: a hill's slope (at most 1.5 / (0.015 sqrt(e)) per unit of s) gives 5e-8; the fit
        # of two overlapping hills magnifies the rounding in their heights (1.8e-4 from a rounding to 1e-6 was seen)
        assert residual < 1e-6 and abs(heights[0] - 1.5) < 1e-5  # the first hill: no bias yet, the full height
        assert np.all(heights > 1.5 * np.exp(-3.0 / (0.0083144626 * 1500.0))) and np.all(heights < 1.5 + 1e-5)
    # The walker that shared last read the other's final hills: its free energy is the well-tempered sum of both files.
    combined = -6.0 / 5.0 * sum(np.load(path) for path in files)
    finals = [np.load(tmp_path / f"walker-{i}" / "free_energy.npy") for i in (0, 1)]
    assert min(np.abs(final - combined).max() for final in finals) < 1e-9
    assert all(np.abs(final).max() > 0 for final in finals)
    estimates = list(csv.DictReader(open(tmp_path / "estimates.csv")))
    assert estimates and estimates[-1]["walkers_read"] == "2"
