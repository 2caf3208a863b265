"""PLUMED's own regression tests of COORDINATION and COORDINATIONNUMBER, reproduced with CoordinationForce and
CoordinationNumberForce.

The folders under tests/data/plumed/ are copies of PLUMED's regtest/ folders (see the README.md
there): PLUMED's driver ran plumed.dat on a fixed trajectory and printed values, derivatives and
forces. Each test rebuilds the same collective variable with CoordinationForce on each selected
platform case (coordination_testing.py) and asserts agreement to the printed precision: half a unit in
the last printed digit, PRINTED_EPSILON of slack, and for GPU cases the precision's relative tolerance
times the largest printed |value| of the frame (coordination_testing.plumed_tolerance). Box derivatives
and virials (finite differences of the energy) are compared on the double-precision cases only.

How PLUMED's outputs are obtained from OpenMM:
- the value s: CoordinationForce.getCoordination(context); a reduction of COORDINATIONNUMBER (its component, e.g.
  c2_morethan): CoordinationNumberForce.getCollectiveVariableValues(context); its per-atom vector (c1.1, c1.2, ...):
  getCoordinationNumbers(context). The symfunc folders' forces are built twice, by hand and by fromPlumedFile;
- derivatives ds/dx: forces of the energy E = s, ds/dx = -F;
- box derivatives (PLUMED's virial of a CV, -ds/d(strain)) and the virial of a bias (dE/d(strain)):
  finite differences of the energy under a homogeneous deformation of positions and box.
"""
import functools
import itertools

import numpy as np
import openmm.unit as unit
import pytest

import coordination_testing
import openmmcoordination

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    PLUMED_DATA,
    PLUMED_RESULTS,
    CoordinationForce,
    INFINITY,
    atom_range,
    energy_and_forces,
    make_context,
    make_system,
    minimum_image_brute_force,
    plumed_tolerance,
    read_colvar,
    read_derivatives,
    read_dumped_forces,
    read_xyz,
    record,
    reduce_box,
    set_frame,
    strain_derivative,
    switching_function,
)
from openmmcoordination import CoordinationNumberForce

#: The Systems' default box where frames set their own: triclinic, because GPU platforms accept a
#: triclinic box in a Context (the sheared boxes of strain_derivative) only if the default box is one.
TRICLINIC_DEFAULT_BOX = np.array([[10.0, 0.0, 0.0], [1.0, 10.0, 0.0], [1.0, 1.0, 10.0]])
#: Slack on top of the printed precision for quantities obtained by finite differences of the energy.
STRAIN_DIFFERENCE_SLACK = 1e-7


def coordination_force(group_a, group_b=(), mode=CoordinationForce.Dual, r0=1.0, **settings):
    """A periodic CoordinationForce as PLUMED's inputs here define it (Dual unless said; r0 = 1 nm)."""
    return coordination_testing.coordination_force(mode, group_a, group_b, r0=r0, **settings)


def plumed_input(folder):
    """The folder's plumed.dat, whitespace-normalized, one entry per line."""
    return [" ".join(line.split()) for line in (PLUMED_DATA / folder / "plumed.dat").read_text().splitlines()]


def compare(case, folder, quantity, ours, reference, tolerance):
    """Record (for the case) and assert |ours - reference| <= tolerance (element-wise)."""
    deviation = np.abs(np.asarray(ours) - np.asarray(reference))
    passed = record(case.id, folder, quantity, deviation, tolerance)
    worst = np.unravel_index(np.argmax(deviation - tolerance), deviation.shape)
    tolerance = np.broadcast_to(tolerance, deviation.shape)
    assert passed, (f"{case.id} {folder} {quantity}: largest excess at {worst}: ours {np.asarray(ours)[worst]!r}, "
                    f"PLUMED {np.asarray(reference)[worst]!r}, tolerance {tolerance[worst]}")


# ---------------------------------------------------------------------------------------------------
# The lattice reduction the skewed rt42 box needs (tests of the test helper)
# ---------------------------------------------------------------------------------------------------


def test_lattice_reduction_turns_the_skewed_rt42_box_into_the_6_nm_cube():
    skewed = np.array([[6, -6, 0], [0, 6, -6], [-6, 6, 6]], dtype=float)  # rt42's `6 -6 0 0 6 -6 -6 6 6`
    reduced, rotation = reduce_box(skewed)
    assert np.allclose(reduced, np.diag([6.0, 6.0, 6.0]), atol=1e-12)
    assert np.allclose(rotation, np.eye(3), atol=1e-12)


def rt42_boxes():
    return [frame.box_vectors for frame in read_xyz(PLUMED_DATA / "rt42" / "trajectory.xyz")]


@pytest.mark.parametrize("box", rt42_boxes()[::9], ids=lambda box: " ".join(f"{v:g}" for v in box.ravel()))
def test_lattice_reduction_gives_openmm_reduced_form_of_the_same_lattice(box):
    reduced, rotation = reduce_box(box)
    a, b, c = reduced
    # OpenMM's reduced form: a along x, b in the xy plane, |bx| <= ax/2, |cx| <= ax/2, |cy| <= by/2.
    assert a[1] == a[2] == b[2] == 0.0
    assert a[0] > 0 and b[1] > 0 and c[2] > 0
    assert abs(b[0]) <= a[0] / 2 and abs(c[0]) <= a[0] / 2 and abs(c[1]) <= b[1] / 2
    # A proper rotation ...
    assert np.allclose(rotation @ rotation.T, np.eye(3), atol=1e-12)
    assert np.linalg.det(rotation) == pytest.approx(1.0)
    # ... of a basis of the same lattice: integer change of basis with determinant +-1.
    unrotated = reduced @ rotation
    change = unrotated @ np.linalg.inv(box)
    assert np.allclose(change, np.round(change), atol=1e-9)
    assert abs(round(np.linalg.det(np.round(change)))) == 1
    # a' is a shortest vector of the lattice (brute force over combinations of the original rows).
    coefficients = np.array([k for k in itertools.product(range(-8, 9), repeat=3) if any(k)])
    assert np.linalg.norm(a) == pytest.approx(np.linalg.norm(coefficients @ box, axis=1).min(), rel=1e-12)
    # Positions rotate with the box: minimum-image distances are the same in both frames.
    rng = np.random.default_rng(7)
    delta = rng.uniform(-1, 1, size=(200, 3)) * np.linalg.norm(box, axis=1).max()
    assert np.allclose(minimum_image_brute_force(delta, unrotated, search=4),
                       minimum_image_brute_force(delta @ rotation.T, reduced, search=4), rtol=1e-12)


# ---------------------------------------------------------------------------------------------------
# rt20-switch-*: two atoms at r = 0 to 2.9 nm, one folder per switching function type, each printing
# one function with (cs) and without (c) stretch; rt20-switch-lepton also the x2 form (c1, cs1)
# ---------------------------------------------------------------------------------------------------

#: The rational folders' SWITCH (of label cs; label c adds NOSTRETCH) and CoordinationForce settings,
#: written by hand (test_plumed_input.py checks that fromPlumed gives the same).
RT20 = {
    "rt20-switch-rational": ("RATIONAL R_0=1.3 NN=5 MM=11 D_MAX=2.6", dict(r0=1.3, n=5, m=11, dmax=2.6)),
    "rt20-switch-rational-MMeq2NN": ("RATIONAL R_0=1.3 NN=5 D_MAX=2.6", dict(r0=1.3, n=5, m=0, dmax=2.6)),
    "rt20-switch-fastrational": ("RATIONAL R_0=1.3 NN=6 MM=10 D_MAX=2.6", dict(r0=1.3, n=6, m=10, dmax=2.6)),
    "rt20-switch-fastrational-MMeq2NN": ("RATIONAL R_0=1.3 D_MAX=2.6", dict(r0=1.3, n=6, m=0, dmax=2.6)),
}
#: label -> stretch
RT20_LABELS = {"c": False, "cs": True}
RT20_CASES = [(folder, label) for folder in RT20 for label in RT20_LABELS]
#: Every rt20 folder (the other types: PLUMED's EXP, GAUSSIAN and its r0 = 1, d0 = 0 "fast" variant,
#: SMAP, CUBIC, TANH, COSINUS, Q, and MATHEVAL/CUSTOM in the x and x2 forms) -> {label: (COLVAR file,
#: derivative file)}. Their forces are built from their plumed.dat lines by CoordinationForce.fromPlumed.
RT20_ALL = {
    **{folder: {"c": ("COLVAR", "deriv"), "cs": ("COLVAR", "deriv")} for folder in RT20},
    **{f"rt20-switch-{kind}": {"c": ("COLVAR", "deriv"), "cs": ("COLVAR", "deriv")}
       for kind in ("exp", "gaussian", "fastgaussian", "smap", "cubic", "tanh", "cosinus", "q")},
    "rt20-switch-lepton": {"c": ("COLVAR", "deriv"), "cs": ("COLVAR", "deriv"),
                           "c1": ("COLVAR1", "deriv1"), "cs1": ("COLVAR1", "deriv1")},
}
RT20_ALL_CASES = [(folder, label) for folder, labels in RT20_ALL.items() for label in labels]


def test_rt20_settings_are_those_of_plumed_input():
    for folder, (switch, _) in RT20.items():
        lines = plumed_input(folder)
        assert f"c: COORDINATION GROUPA=1 GROUPB=2 SWITCH={{{switch} NOSTRETCH}}" in lines
        assert f"cs: COORDINATION GROUPA=1 GROUPB=2 SWITCH={{{switch}}}" in lines


def coordination_line(folder, label):
    """The COORDINATION line of a label in a folder's plumed.dat."""
    lines = [line for line in plumed_input(folder) if line.startswith(f"{label}: COORDINATION ")]
    assert len(lines) == 1, f"{folder} defines {label} {len(lines)} times"
    return lines[0]


def test_every_rt20_folder_and_label_is_compared():
    folders = sorted(path.parent.name for path in PLUMED_DATA.glob("rt20-switch-*/plumed.dat"))
    assert folders == sorted(RT20_ALL)
    for folder, labels in RT20_ALL.items():
        printed = [label for name in sorted({files[0] for files in labels.values()})
                   for label in read_colvar(PLUMED_DATA / folder / f"{name}.reference") if label != "time"]
        assert printed == list(labels), folder


@functools.lru_cache(maxsize=None)
def rt20_run(folder, label, case):
    """Our s, ds/dx (frames x 2 x 3), -ds/d(strain) (frames x 3 x 3; double-precision cases only), r
    for each frame, and the force's cutoff."""
    frames = read_xyz(PLUMED_DATA / "trajectories" / "switchtraj.xyz")
    force = CoordinationForce.fromPlumed(coordination_line(folder, label))
    context = make_context(make_system(2, [force], TRICLINIC_DEFAULT_BOX), case)
    values, derivatives, box_derivatives, distances = [], [], [], []
    for frame in frames:
        set_frame(context, frame.positions, frame.box_vectors)
        values.append(force.getCoordination(context))
        derivatives.append(-energy_and_forces(context)[1])
        if case.double:
            box_derivatives.append(-strain_derivative(context, frame.positions, frame.box_vectors))
        distances.append(np.linalg.norm(frame.positions[1] - frame.positions[0]))
    return (np.array(values), np.array(derivatives), np.array(box_derivatives), np.array(distances),
            force.getEffectiveDMax().value_in_unit(unit.nanometer))


@functools.lru_cache(maxsize=None)
def one_sided_limits(folder, label, case, r):
    """(sigma, d sigma/dr) just below and just above distance r, on the case's platform."""
    force = CoordinationForce.fromPlumed(coordination_line(folder, label))
    context = make_context(make_system(2, [force], TRICLINIC_DEFAULT_BOX), case)
    limits = []
    for side in (r - 1e-9, r + 1e-9):
        set_frame(context, np.array([[0.0, 0.0, 0.0], [side, 0.0, 0.0]]), 10 * np.eye(3))
        limits.append((force.getCoordination(context), -energy_and_forces(context)[1][1][0]))
    return limits


def special_distances(folder, label):
    """The distances where the function has a step or a kink: d0 (sigma = 1 inside), dmax, and x = 1 for
    COSINUS. At a step PLUMED's printed value depends on the rounding of r (its periodic-box arithmetic
    gives 0.30000000000000004 for 0.3, ours 0.3): there either one-sided limit is accepted. Finite
    differences across a kink are not a derivative: box derivatives skip these frames."""
    force = CoordinationForce.fromPlumed(coordination_line(folder, label))
    d0, r0 = force.getD0().value_in_unit(unit.nanometer), force.getR0().value_in_unit(unit.nanometer)
    special = [d0, force.getEffectiveDMax().value_in_unit(unit.nanometer)]
    if force.getSwitchingFunction() == CoordinationForce.Cosinus:
        special.append(d0 + r0)
    return [r for r in special if np.isfinite(r) and r > 0]


def special_frames(distances, folder, label):
    """{frame index: r} of the frames at a special distance."""
    return {int(i): r for r in special_distances(folder, label)
            for i in np.flatnonzero(np.isclose(distances, r, rtol=0, atol=1e-12))}


def either(ours, plumed, limits, tolerance):
    """Deviation at a special frame: from PLUMED's value, or from either one-sided limit (the smallest)."""
    return min(np.max(np.abs(ours - candidate) - tolerance) for candidate in [plumed, *limits])


@pytest.mark.parametrize("folder,label", RT20_ALL_CASES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_rt20_values_match_colvar(case, folder, label):
    values, _, _, distances, dmax = rt20_run(folder, label, case)
    reference, decimals = read_colvar(PLUMED_DATA / folder / f"{RT20_ALL[folder][label][0]}.reference")[label]
    tolerance = plumed_tolerance(decimals, reference, case)
    special = special_frames(distances, folder, label)
    assert len(special) == (1 if np.isfinite(dmax) else 0) + sum(1 for r in special_distances(folder, label) if r < dmax)
    regular = np.array([i not in special for i in range(len(values))])
    compare(case, folder, f"{label} values", values[regular], reference[regular], tolerance[regular])
    for frame, r in special.items():
        limits = [value for value, _ in one_sided_limits(folder, label, case, r)]
        assert either(values[frame], reference[frame], limits, tolerance[frame]) <= 0, (
            f"at r = {r}: ours {values[frame]}, PLUMED {reference[frame]}, one-sided limits {limits}")


@pytest.mark.parametrize("folder,label", RT20_ALL_CASES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_rt20_derivatives_match_deriv(case, folder, label):
    _, derivatives, _, distances, _ = rt20_run(folder, label, case)
    reference, _, decimals = read_derivatives(PLUMED_DATA / folder / f"{RT20_ALL[folder][label][1]}.reference", 2)[label]
    tolerance = plumed_tolerance(decimals, reference, case)
    special = special_frames(distances, folder, label)
    regular = np.array([i not in special for i in range(len(derivatives))])
    compare(case, folder, f"{label} derivatives", derivatives[regular], reference[regular], tolerance[regular])
    frames = read_xyz(PLUMED_DATA / "trajectories" / "switchtraj.xyz")
    for frame, r in special.items():
        direction = frames[frame].positions[1] - frames[frame].positions[0]
        direction /= np.linalg.norm(direction)
        limits = [np.array([-slope * direction, slope * direction])
                  for _, slope in one_sided_limits(folder, label, case, r)]
        assert either(derivatives[frame], reference[frame], limits, tolerance[frame]) <= 0, (
            f"at r = {r}: ours {derivatives[frame]}, PLUMED {reference[frame]}, one-sided limits {limits}")


@pytest.mark.parametrize("folder,label", RT20_ALL_CASES)
@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_rt20_box_derivatives_match_deriv(case, folder, label):
    _, _, box_derivatives, distances, _ = rt20_run(folder, label, case)
    _, reference, decimals = read_derivatives(PLUMED_DATA / folder / f"{RT20_ALL[folder][label][1]}.reference", 2)[label]
    special = special_frames(distances, folder, label)
    inside = np.array([i not in special for i in range(len(box_derivatives))])
    compare(case, folder, f"{label} box derivatives", box_derivatives[inside], reference[inside],
            plumed_tolerance(decimals, reference, case)[inside] + STRAIN_DIFFERENCE_SLACK)


# ---------------------------------------------------------------------------------------------------
# rt42: 108 atoms, GROUPA=GROUPB=1-108 (Dual, every shared pair twice), skewed boxes
# ---------------------------------------------------------------------------------------------------

RT42_ATOMS = atom_range("1-108")
#: The terms of ff.reference's bias: RESTRAINT SLOPE=1 on s = c + d, plus RESTRAINT SLOPE=0.001 on
#: all = c - 0.5 d - 0.5 dfast + e - f + g - h. Each term is its own force, built from its PLUMED line by
#: CoordinationForce.fromPlumed (CUSTOM in the x and x2 forms, EXP and the keyword form), with the
#: energy coefficient * s, in its own force group.
RT42_TERMS = {
    # label: (PLUMED definition, coefficient of the term in the bias)
    "c": ("c: COORDINATION GROUPA=1-108 GROUPB=1-108 R_0=1", 1.0 + 0.001),
    "d": ("d: COORDINATION GROUPA=1-108 GROUPB=1-108 SWITCH={CUSTOM FUNC=1/(1+x^6) R_0=1}", 1.0 - 0.0005),
    "dfast": ("dfast: COORDINATION GROUPA=1-108 GROUPB=1-108 SWITCH={CUSTOM FUNC=1/(1+x2^3) R_0=1}", -0.0005),
    "e": ("e: COORDINATION GROUPA=1-108 GROUPB=1-108 R_0=1 NN=7 D_0=0.1", 0.001),
    "f": ("f: COORDINATION GROUPA=1-108 GROUPB=1-108 SWITCH={CUSTOM FUNC=1/(1+x^7) R_0=1 D_0=0.1}", -0.001),
    "g": ("g: COORDINATION GROUPA=1-108 GROUPB=1-108 SWITCH={EXP R_0=1}", 0.001),
    "h": ("h: COORDINATION GROUPA=1-108 GROUPB=1-108 SWITCH={CUSTOM FUNC=exp(-x) R_0=1}", -0.001),
}


def test_rt42_terms_are_those_of_plumed_input():
    lines = plumed_input("rt42")
    for definition, _ in RT42_TERMS.values():
        assert definition in lines
    assert "RESTRAINT ARG=s KAPPA=0 SLOPE=1 AT=0" in lines and "s: COMBINE ARG=c,d PERIODIC=NO" in lines
    assert "all: COMBINE ARG=c,d,dfast,e,f,g,h COEFFICIENTS=1,-0.5,-0.5,1,-1,1,-1 PERIODIC=NO" in lines
    assert "RESTRAINT ARG=all KAPPA=0 SLOPE=0.001 AT=0" in lines


#: The folders on rt42's trajectory (rt42-matheval and rt42d ship without their copy of it) -> the terms of
#: the bias of their ff.reference: {label: coefficient}. rt42-matheval: MATHEVAL 1/(1+x^6) (colvar only);
#: rt42d: Self mode, COSINUS (automatic cutoff d0 + r0) and the same function as a CUSTOM expression
#: with step() and PLUMED's constant pi, biased by c - d.
RT42_FOLDERS = {
    "rt42": {label: coefficient for label, (_, coefficient) in RT42_TERMS.items()},
    "rt42-matheval": {"c": 1.0},
    "rt42d": {"c": 1.0, "d": -1.0},
}


def triclinic_default_box(folder):
    """A triclinic box of the folder's trajectory in reduced form: GPU platforms accept triclinic boxes in
    a Context only if the System's default box is triclinic."""
    for frame in read_xyz(PLUMED_DATA / folder / "trajectory.xyz"):
        reduced, _ = reduce_box(frame.box_vectors)
        if not np.allclose(reduced, np.diag(np.diag(reduced))):
            return reduced
    raise AssertionError(f"{folder} has no triclinic frame")


def frame_positions(positions, box_vectors, case):
    """The positions to give a case's Context: as they are in double precision; wrapped into the cell in
    single and mixed precision.

    The small rt42 boxes (~0.3-0.6 nm) hold coordinates up to 5 nm, 16 box lengths from the origin.
    Single and mixed precision store positions as float, and that rounding alone (the Reference kernel
    on float-rounded inputs) moves forces up to 4e-5 of the frame's largest force from PLUMED's. A
    lattice translation changes no minimum-image distance, so PLUMED's numbers hold for the wrapped
    positions, whose rounding costs ~1e-6 (OpenMM's GPU platforms keep positions near the cell in
    simulations too).
    """
    if case.double:
        return positions
    fractions = positions @ np.linalg.inv(box_vectors)
    return (fractions - np.floor(fractions)) @ box_vectors


def rt42_force(folder, label, group):
    force = CoordinationForce.fromPlumed(coordination_line(folder, label))
    force.setEnergyFunction(f"{RT42_FOLDERS[folder][label]!r}*s")
    force.setForceGroup(group)
    return force


@functools.lru_cache(maxsize=None)
def rt42_run(case, folder="rt42"):
    """Per frame: s of every term, forces of the bias and, for frames on the cubic lattice, the virial
    (double-precision cases only)."""
    forces = {label: rt42_force(folder, label, group) for group, label in enumerate(RT42_FOLDERS[folder])}
    context = make_context(make_system(len(RT42_ATOMS), forces.values(), triclinic_default_box("rt42")), case)
    values = {label: [] for label in forces}
    bias_forces, virials = [], []
    for frame in read_xyz(PLUMED_DATA / "rt42" / "trajectory.xyz"):
        reduced, rotation = reduce_box(frame.box_vectors)
        positions = frame_positions(frame.positions @ rotation.T, reduced, case)
        set_frame(context, positions, reduced)
        for label, force in forces.items():
            values[label].append(force.getCoordination(context))
        bias_forces.append(energy_and_forces(context)[1] @ rotation)
        if case.double and np.allclose(reduced, np.diag(np.diag(reduced))):
            virials.append(rotation.T @ strain_derivative(context, positions, reduced) @ rotation)
        else:
            virials.append(None)
    return {label: np.array(v) for label, v in values.items()}, np.array(bias_forces), virials


@pytest.mark.parametrize("label", ["c", "e"])
@pytest.mark.parametrize("case", ALL_CASES)
def test_rt42_dual_values_match_check_files(case, label):
    values, _, _ = rt42_run(case)
    reference, decimals = read_colvar(PLUMED_DATA / "rt42" / f"check_{label}.reference")[label]
    compare(case, "rt42", f"{label} values", values[label], reference, plumed_tolerance(decimals, reference, case))


#: Pairs of rt42 terms that are the same function written two ways in PLUMED's input (the CUSTOM x and
#: x2 forms of 1/(1+x^6); EXP and CUSTOM exp(-x)), and each CUSTOM term with the built-in function equal
#: to it (no cutoff: SWITCH={...} without D_MAX).
RT42_SAME_FUNCTION = [("d", "dfast"), ("g", "h")]
RT42_CLOSED_FORMS = {
    "d": dict(r0=1.0, n=6, m=12, dmax=INFINITY),
    "f": dict(r0=1.0, n=7, m=14, d0=0.1, dmax=INFINITY),
}


@pytest.mark.parametrize("case", ALL_CASES)
def test_rt42_custom_terms_equal_the_same_function_written_otherwise(case):
    values, _, _ = rt42_run(case)
    tolerance = (1e-10 if case.double else 2e-5) * np.abs(values["d"]).max()
    for first, second in RT42_SAME_FUNCTION:
        assert np.abs(values[first] - values[second]).max() <= tolerance, (first, second)
    forces = {label: coordination_force(RT42_ATOMS, RT42_ATOMS, force_group=group, **settings)
              for group, (label, settings) in enumerate(RT42_CLOSED_FORMS.items())}
    context = make_context(make_system(len(RT42_ATOMS), forces.values(), triclinic_default_box("rt42")), case)
    for index, frame in enumerate(read_xyz(PLUMED_DATA / "rt42" / "trajectory.xyz")):
        reduced, rotation = reduce_box(frame.box_vectors)
        set_frame(context, frame_positions(frame.positions @ rotation.T, reduced, case), reduced)
        for label, force in forces.items():
            assert abs(force.getCoordination(context) - values[label][index]) <= tolerance, (label, index)


@pytest.mark.parametrize("folder,label", [("rt42-matheval", "c"), ("rt42d", "c"), ("rt42d", "d")])
@pytest.mark.parametrize("case", ALL_CASES)
def test_rt42_matheval_and_rt42d_values_match_colvar(case, folder, label):
    values, _, _ = rt42_run(case, folder)
    reference, decimals = read_colvar(PLUMED_DATA / folder / "colvar.reference")[label]
    compare(case, folder, f"{label} values", values[label], reference, plumed_tolerance(decimals, reference, case))


def rt42_lattice_frames():
    """The 27 frames whose lattice is the 6 nm cube (an fcc crystal on a 1 nm grid)."""
    frames = read_xyz(PLUMED_DATA / "rt42" / "trajectory.xyz")
    return np.array([np.allclose(reduced, np.diag(np.diag(reduced)))
                     for reduced, _ in map(lambda frame: reduce_box(frame.box_vectors), frames)])


@pytest.mark.parametrize("case", ALL_CASES)
def test_rt42_forces_match_ff(case):
    # In the 27 lattice frames many pairs sit exactly half a box apart: a minimum-image tie, where sigma
    # is continuous but its gradient flips with the image chosen. PLUMED's and the double-precision
    # kernels' rounding choose the same image (forces 0 by symmetry); in single and mixed precision the
    # choice depends on float rounding (both images are equally near), so there only the 81 frames
    # without ties are compared (s, continuous, is compared on every frame).
    _, forces, _ = rt42_run(case)
    reference, _, decimals = read_dumped_forces(PLUMED_DATA / "rt42" / "ff.reference")
    compared = np.ones(len(forces), dtype=bool) if case.double else ~rt42_lattice_frames()
    assert compared.sum() in (len(forces), len(forces) - 27)
    compare(case, "rt42", "forces", forces[compared], reference[compared],
            plumed_tolerance(decimals, reference[compared], case))


@pytest.mark.parametrize("case", ALL_CASES)
def test_rt42d_forces_match_ff(case):
    # As rt42's forces: the lattice frames' minimum-image ties are compared in double precision only.
    # PLUMED's forces of c - d are all 0 (the two spellings agree); ours must cancel as well, on frames
    # where each term alone has forces.
    values, forces, _ = rt42_run(case, "rt42d")
    reference, _, decimals = read_dumped_forces(PLUMED_DATA / "rt42d" / "ff.reference")
    compared = np.ones(len(forces), dtype=bool) if case.double else ~rt42_lattice_frames()
    assert values["c"].max() > 1000
    compare(case, "rt42d", "forces", forces[compared], reference[compared],
            plumed_tolerance(decimals, reference[compared], case))


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_rt42_virial_diagonal_matches_ff_on_the_cubic_lattice(case):
    # Checked where it is well defined and finite differences are precise: the frames whose lattice is
    # the 6 nm cube. Their off-diagonal elements come from pairs exactly half a box apart, where the
    # minimum image is a tie (PLUMED prints +-0.21064 for the same lattice), so only the diagonal is
    # compared. In the frames with ~0.5 nm boxes every pair sits near many images and the energy (a sum
    # of ~1e4 terms near 1) is too coarse for finite differences at the printed 1e-5.
    _, _, virials = rt42_run(case)
    _, reference, decimals = read_dumped_forces(PLUMED_DATA / "rt42" / "ff.reference")
    cubic = [i for i, virial in enumerate(virials) if virial is not None]
    assert len(cubic) == 27
    ours = np.array([np.diag(virials[i]) for i in cubic])
    theirs = np.array([np.diag(reference[i]) for i in cubic])
    compare(case, "rt42", "virial (cubic frames, diagonal)", ours, theirs,
            plumed_tolerance(decimals, theirs, case) + STRAIN_DIFFERENCE_SLACK)


# ---------------------------------------------------------------------------------------------------
# rt42c: the same trajectory, Self mode over 1-108
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES)
def test_rt42c_self_mode_values_match_colvar(case):
    assert "c: COORDINATION GROUPA=1-108 R_0=1" in plumed_input("rt42c")
    force = coordination_force(RT42_ATOMS, mode=CoordinationForce.Self, r0=1.0)
    context = make_context(make_system(len(RT42_ATOMS), [force], triclinic_default_box("rt42c")), case)
    values = []
    for frame in read_xyz(PLUMED_DATA / "rt42c" / "trajectory.xyz"):
        reduced, rotation = reduce_box(frame.box_vectors)
        set_frame(context, frame_positions(frame.positions @ rotation.T, reduced, case), reduced)
        values.append(force.getCoordination(context))
    reference, decimals = read_colvar(PLUMED_DATA / "rt42c" / "colvar.reference")["c"]
    compare(case, "rt42c", "c values", np.array(values), reference, plumed_tolerance(decimals, reference, case))


# ---------------------------------------------------------------------------------------------------
# rt-basic-der-test: GROUPA=1,2 GROUPB=3,4,5,6, SWITCH={RATIONAL R_0=2} (no cutoff), bias = c1
# ---------------------------------------------------------------------------------------------------

BASIC = "rt-basic-der-test"


@functools.lru_cache(maxsize=None)
def basic_run(case):
    """Per frame: s, ds/dx of the 6 listed atoms, -ds/d(strain) (double-precision cases only), and the
    forces on all 108 atoms."""
    frames = read_xyz(PLUMED_DATA / "trajectories" / "trajectory.xyz")
    force = coordination_force(atom_range("1,2"), atom_range("3,4,5,6"), r0=2.0, dmax=INFINITY)
    context = make_context(make_system(len(frames[0].positions), [force], TRICLINIC_DEFAULT_BOX), case)
    values, forces, box_derivatives = [], [], []
    for frame in frames:
        set_frame(context, frame.positions, frame.box_vectors)
        values.append(force.getCoordination(context))
        forces.append(energy_and_forces(context)[1])
        if case.double:
            box_derivatives.append(-strain_derivative(context, frame.positions, frame.box_vectors))
    return np.array(values), np.array(forces), np.array(box_derivatives)


def test_basic_der_test_setting_is_that_of_plumed_input():
    lines = plumed_input(BASIC)
    assert "c1: COORDINATION GROUPA=1,2 GROUPB=3,4,5,6 SWITCH={RATIONAL R_0=2}" in lines
    assert "BIASVALUE ARG=d1c" in lines  # d1c is the same sum of the same switching function


@pytest.mark.parametrize("case", ALL_CASES)
def test_basic_der_test_values_match_colvar(case):
    values, _, _ = basic_run(case)
    colvar = read_colvar(PLUMED_DATA / BASIC / "colvar.reference")
    for label in ("c1", "d1c"):
        reference, decimals = colvar[label]
        compare(case, BASIC, f"{label} values", values, reference, plumed_tolerance(decimals, reference, case))


@pytest.mark.parametrize("case", ALL_CASES)
def test_basic_der_test_derivatives_match_deriv_c1(case):
    _, forces, _ = basic_run(case)
    reference, _, decimals = read_derivatives(PLUMED_DATA / BASIC / "deriv_c1.reference", 6)["c1"]
    compare(case, BASIC, "c1 derivatives", -forces[:, :6], reference, plumed_tolerance(decimals, reference, case))


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_basic_der_test_box_derivatives_match_deriv_c1(case):
    _, _, box_derivatives = basic_run(case)
    _, reference, decimals = read_derivatives(PLUMED_DATA / BASIC / "deriv_c1.reference", 6)["c1"]
    compare(case, BASIC, "c1 box derivatives", box_derivatives, reference,
            plumed_tolerance(decimals, reference, case) + STRAIN_DIFFERENCE_SLACK)


@pytest.mark.parametrize("case", ALL_CASES)
def test_basic_der_test_forces_match_dumped_forces(case):
    _, forces, _ = basic_run(case)
    reference, _, decimals = read_dumped_forces(PLUMED_DATA / BASIC / "forces.reference")
    compare(case, BASIC, "forces", forces, reference, plumed_tolerance(decimals, reference, case))


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_basic_der_test_virial_matches_dumped_forces(case):
    # --dump-forces without --dump-full-virial prints the diagonal: dBias/d(strain) = -(box derivatives).
    _, _, box_derivatives = basic_run(case)
    _, reference, decimals = read_dumped_forces(PLUMED_DATA / BASIC / "forces.reference")
    theirs = np.diagonal(reference, axis1=1, axis2=2)
    compare(case, BASIC, "virial (diagonal)", -np.diagonal(box_derivatives, axis1=1, axis2=2), theirs,
            plumed_tolerance(decimals, theirs, case) + STRAIN_DIFFERENCE_SLACK)


# ---------------------------------------------------------------------------------------------------
# symfunc-*: COORDINATIONNUMBER and COORDINATION_MOMENTS (CoordinationNumberForce) on trajectory.xyz
# ---------------------------------------------------------------------------------------------------

#: Each force of the symfunc folders: (folder, label) -> (its line of plumed.dat, whitespace-normalized; the same
#: settings written by hand: (mode, group A, group B, r0, dmax, stretch, R power, [(reduction type, parameters)])).
#: SWITCH={RATIONAL R_0=...} without D_MAX has no cutoff; with D_MAX it is stretched; NN=6, MM=12 by default.
SYMFUNC = {
    ("symfunc-rt20", "c2"): (
        "c2: COORDINATIONNUMBER SPECIES=1-5 SWITCH={RATIONAL R_0=0.5} MORE_THAN={EXP R_0=4.0}",
        (CoordinationForce.Self, "1-5", "", 0.5, INFINITY, True, 0.0, [(CoordinationNumberForce.MoreThan, "EXP R_0=4.0")])),
    ("symfunc-rt-single-groupb", "c1"): (
        "c1: COORDINATIONNUMBER SPECIESA=1-5 SPECIESB=6 SWITCH={RATIONAL R_0=1.0}",
        (CoordinationForce.Dual, "1-5", "6", 1.0, INFINITY, True, 0.0, [])),
    **{("symfunc-rt-coordination-powers-multi", f"cn{power}"): (
        f"cn{power}: {'COORDINATION_MOMENTS' if power else 'COORDINATIONNUMBER'} SPECIES=1-10 "
        f"SWITCH={{RATIONAL R_0=1.0 D_MAX=8}}{f' R_POWER={power}' if power else ''} MEAN",
        (CoordinationForce.Self, "1-10", "", 1.0, 8.0, True, float(power), [(CoordinationNumberForce.Mean, "")]))
       for power in (0, 1, 2)},
}
#: How the tests build each force: by hand with the API, and with the translator from the folder's plumed.dat.
SYMFUNC_SOURCES = ("api", "fromPlumedFile")
#: symfunc-rt20's only bias: PLUMED's RESTRAINT energy 0.5 KAPPA (x - AT)^2 of c2's component morethan.
SYMFUNC_RT20_BIAS = "RESTRAINT ARG=c2_morethan AT=0.1 KAPPA=10"
SYMFUNC_RT20_ENERGY = "0.5*10*(morethan-0.1)^2"
#: PLUMED actions that apply a bias (every other action of these files only computes or prints).
BIAS_ACTIONS = {"RESTRAINT", "BIASVALUE", "METAD", "PBMETAD", "UPPER_WALLS", "LOWER_WALLS", "MOVINGRESTRAINT",
                "ABMD", "EXTERNAL", "LINEAR_RESTRAINT", "OPES_METAD", "OPES_EXPANDED", "MAXENT", "EDS"}


def symfunc_quantity(quantity, source):
    """The name a quantity is recorded under: the translator's forces have their own entries."""
    return quantity if source == "api" else f"{quantity} ({source})"


def symfunc_api_force(folder, label):
    mode, group_a, group_b, r0, dmax, stretch, power, reductions = SYMFUNC[folder, label][1]
    force = CoordinationNumberForce()
    force.setMode(mode)
    force.setGroupA(atom_range(group_a))
    if group_b:
        force.setGroupB(atom_range(group_b))
    force.setSwitchingFunction(CoordinationForce.Rational)
    force.setR0(r0)
    force.setN(6)
    force.setM(12)
    force.setDMax(dmax)
    force.setStretch(stretch)
    force.setRPower(power)
    force.setUsesPeriodicBoundaryConditions(True)
    for reduction_type, parameters in reductions:
        force.addReduction(reduction_type, parameters)
    return force


@functools.lru_cache(maxsize=None)
def symfunc_plumed_input(folder):
    return openmmcoordination.fromPlumedFile(PLUMED_DATA / folder / "plumed.dat")


def symfunc_force(folder, label, source):
    """A new force of a symfunc label: by hand (source "api") or read by fromPlumedFile from plumed.dat."""
    if source == "api":
        return symfunc_api_force(folder, label)
    forces = openmmcoordination.fromPlumedFile(PLUMED_DATA / folder / "plumed.dat").forces
    assert label in forces, (f"fromPlumedFile did not read {label} of {folder} as a force; it skipped "
                             f"{symfunc_plumed_input(folder).skipped}")
    force = forces[label]
    assert isinstance(force, CoordinationNumberForce), f"{folder} {label}: fromPlumedFile gave a {type(force).__name__}"
    return force


def number_force_settings(force):
    """The settings of a CoordinationNumberForce that define its numbers (the reductions by type and name: a
    parameter text may be spelled otherwise, its values are compared by the tests)."""
    return (force.getMode(), list(force.getGroupA()), list(force.getGroupB()), force.getSwitchingFunction(),
            force.getR0(), force.getN(), force.getEffectiveM(), force.getD0(), force.getEffectiveDMax(),
            force.getStretch() if np.isfinite(force.getEffectiveDMax().value_in_unit(unit.nanometer)) else None,
            force.usesPeriodicBoundaryConditions(), force.getRPower(),
            [force.getReductionParameters(i)[0] for i in range(force.getNumReductions())],
            [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())])


def test_symfunc_settings_are_those_of_plumed_input():
    for (folder, label), (line, _) in SYMFUNC.items():
        assert line in plumed_input(folder), (folder, line)


def test_symfunc_rt20_is_biased_by_its_restraint_only():
    lines = [line for line in plumed_input("symfunc-rt20") if line and not line.startswith("#")]
    words = [line.split()[1] if line.split()[0].endswith(":") else line.split()[0] for line in lines]
    biases = [line for line, word in zip(lines, words) if word in BIAS_ACTIONS]
    assert biases == [SYMFUNC_RT20_BIAS]
    # No LABEL=... spelling of another bias: every line naming an action is accounted for.
    assert not any(f"{name} " in line for line in lines for name in BIAS_ACTIONS if line != SYMFUNC_RT20_BIAS)


@pytest.mark.parametrize("folder,label", list(SYMFUNC))
def test_fromplumedfile_reads_the_symfunc_settings(folder, label):
    assert number_force_settings(symfunc_force(folder, label, "fromPlumedFile")) == \
        number_force_settings(symfunc_api_force(folder, label))


@functools.lru_cache(maxsize=None)
def symfunc_rt20_run(case, source):
    """Per frame of trajectory.xyz: c2's morethan, the forces of the restraint on it, and its virial (dBias/d(strain),
    double-precision cases only)."""
    frames = read_xyz(PLUMED_DATA / "trajectories" / "trajectory.xyz")
    force = symfunc_force("symfunc-rt20", "c2", source)
    force.setEnergyFunction(SYMFUNC_RT20_ENERGY)
    names = [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())]
    assert names == ["morethan"], names
    context = make_context(make_system(len(frames[0].positions), [force], TRICLINIC_DEFAULT_BOX), case)
    values, forces, virials = [], [], []
    for frame in frames:
        set_frame(context, frame.positions, frame.box_vectors)
        values.append(force.getCollectiveVariableValues(context)[0])
        forces.append(energy_and_forces(context)[1])
        if case.double:
            virials.append(np.diag(strain_derivative(context, frame.positions, frame.box_vectors)))
    return np.array(values), np.array(forces), np.array(virials)


@pytest.mark.parametrize("source", SYMFUNC_SOURCES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_symfunc_rt20_morethan_matches_colv2(case, source):
    values, _, _ = symfunc_rt20_run(case, source)
    reference, decimals = read_colvar(PLUMED_DATA / "symfunc-rt20" / "colv2.reference")["c2_morethan"]
    assert len(values) == len(reference) == 5
    compare(case, "symfunc-rt20", symfunc_quantity("c2_morethan values", source), values, reference,
            plumed_tolerance(decimals, reference, case))


@pytest.mark.parametrize("source", SYMFUNC_SOURCES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_symfunc_rt20_restraint_forces_match_dumped_forces(case, source):
    _, forces, _ = symfunc_rt20_run(case, source)
    reference, _, decimals = read_dumped_forces(PLUMED_DATA / "symfunc-rt20" / "forces.reference")
    assert np.abs(reference[:, :5]).max() > 0.01 and not reference[:, 5:].any()  # atoms 1-5 only
    compare(case, "symfunc-rt20", symfunc_quantity("forces", source), forces, reference,
            plumed_tolerance(decimals, reference, case))


@pytest.mark.parametrize("source", SYMFUNC_SOURCES)
@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_symfunc_rt20_restraint_virial_matches_dumped_forces(case, source):
    _, _, virials = symfunc_rt20_run(case, source)
    _, reference, decimals = read_dumped_forces(PLUMED_DATA / "symfunc-rt20" / "forces.reference")
    theirs = np.diagonal(reference, axis1=1, axis2=2)
    compare(case, "symfunc-rt20", symfunc_quantity("virial (diagonal)", source), virials, theirs,
            plumed_tolerance(decimals, theirs, case) + STRAIN_DIFFERENCE_SLACK)


@pytest.mark.parametrize("source", SYMFUNC_SOURCES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_symfunc_single_groupb_coordination_numbers_match_colvar(case, source):
    frames = read_xyz(PLUMED_DATA / "trajectories" / "trajectory.xyz")
    force = symfunc_force("symfunc-rt-single-groupb", "c1", source)
    context = make_context(make_system(len(frames[0].positions), [force], TRICLINIC_DEFAULT_BOX), case)
    values = []
    for frame in frames:
        set_frame(context, frame.positions, frame.box_vectors)
        values.append(force.getCoordinationNumbers(context))
    colvar = read_colvar(PLUMED_DATA / "symfunc-rt-single-groupb" / "colvar.reference")
    fields = [f"c1.{k}" for k in range(1, 6)]
    assert [field for field in colvar if field != "time"] == fields
    reference = np.array([colvar[field][0] for field in fields]).T
    decimals = np.array([colvar[field][1] for field in fields]).T
    compare(case, "symfunc-rt-single-groupb", symfunc_quantity("c1.1-c1.5 values", source), np.array(values),
            reference, plumed_tolerance(decimals, reference, case))


@pytest.mark.parametrize("source", SYMFUNC_SOURCES)
@pytest.mark.parametrize("case", ALL_CASES)
def test_symfunc_coordination_powers_means_match_cn_out(case, source):
    folder = "symfunc-rt-coordination-powers-multi"
    frames = read_xyz(PLUMED_DATA / "trajectories" / "trajectory.xyz")
    labels = ["cn0", "cn1", "cn2"]
    forces = [symfunc_force(folder, label, source) for label in labels]
    for group, force in enumerate(forces):
        force.setForceGroup(group)
        assert [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())] == ["mean"]
    context = make_context(make_system(len(frames[0].positions), forces, TRICLINIC_DEFAULT_BOX), case)
    values = []
    for frame in frames:
        set_frame(context, frame.positions, frame.box_vectors)
        values.append([force.getCollectiveVariableValues(context)[0] for force in forces])
    colvar = read_colvar(PLUMED_DATA / folder / "cn_out.reference")
    reference = np.array([colvar[f"{label}_mean"][0] for label in labels]).T
    decimals = np.array([colvar[f"{label}_mean"][1] for label in labels]).T
    assert reference.shape == (5, 3)
    compare(case, folder, symfunc_quantity("cn0_mean cn1_mean cn2_mean values", source), np.array(values), reference,
            plumed_tolerance(decimals, reference, case))


# ---------------------------------------------------------------------------------------------------
# contactmap-rt28: CONTACTMAP with CMDIST (a) and per-contact components (c), built with ContactMapForce
# ---------------------------------------------------------------------------------------------------

CONTACTMAP = "contactmap-rt28"
#: a's contacts (ATOMSn, R_0, REFERENCEn, WEIGHTn) and c's (ATOMSn, R_0); every SWITCHn is RATIONAL D_MAX=2.6 NOSTRETCH.
CONTACTMAP_A = [((10, 20), 0.5, 0.1, 0.5), ((20, 30), 0.1, 1.1, 1.5), ((15, 25), 0.2, 0.5, 1.0), ((5, 20), 0.3, 0.4, 0.5),
                ((40, 108), 0.5, 0.3, 0.25)]
CONTACTMAP_C = [((1, 2), 0.5), ((2, 3), 0.1), ((5, 2), 0.2), ((4, 2), 0.3), ((4, 10), 0.5)]


def contact_map(contacts, reduction):
    """A periodic ContactMapForce of PLUMED's (atoms, r0[, reference, weight]) contacts, RATIONAL D_MAX=2.6 NOSTRETCH."""
    force = openmmcoordination.ContactMapForce("s" if reduction != openmmcoordination.ContactMapForce.Components else "0",
                                               reduction)
    force.setUsesPeriodicBoundaryConditions(True)
    for (first, second), r0, *rest in contacts:
        reference, weight = rest if rest else (0.0, 1.0)
        force.addContact(first - 1, second - 1, CoordinationForce.Rational, r0, 0.0, 2.6, False, [6, 0], reference,
                         weight)
    return force


@functools.lru_cache(maxsize=None)
def contactmap_run(case):
    """Per frame: a, c.contact-1..5, and d a / d x of each entry of a's atom list (its contacts' first atoms, then
    their second atoms: PLUMED's pair list), from a's contacts alone in force groups 1 to 5 (ds/dx = -F)."""
    frames = read_xyz(PLUMED_DATA / "trajectories" / "trajectory.xyz")
    Map = openmmcoordination.ContactMapForce
    forces = [contact_map(CONTACTMAP_A, Map.Distance)]
    for n, contact in enumerate(CONTACTMAP_A):
        single = contact_map([contact], Map.Distance)
        single.setForceGroup(1 + n)
        forces.append(single)
    components = contact_map(CONTACTMAP_C, Map.Components)
    components.setForceGroup(6)
    forces.append(components)
    context = make_context(make_system(len(frames[0].positions), forces, TRICLINIC_DEFAULT_BOX), case)
    values, derivatives = [], []
    for frame in frames:
        set_frame(context, frame.positions, frame.box_vectors)
        values.append(forces[0].getCollectiveVariableValues(context) + forces[-1].getContactValues(context))
        entries = np.zeros((10, 3))
        for n, ((first, second), *_) in enumerate(CONTACTMAP_A):
            _, group_forces = energy_and_forces(context, groups={1 + n})
            entries[n] = -group_forces[first - 1]
            entries[n + 5] = -group_forces[second - 1]
        derivatives.append(entries)
    return np.array(values), np.array(derivatives)


@pytest.mark.parametrize("case", ALL_CASES)
def test_contactmap_rt28_cmdist_and_components_match_colvar(case):
    values, _ = contactmap_run(case)
    colvar = read_colvar(PLUMED_DATA / CONTACTMAP / "colvar.reference")
    fields = ["a", "c.contact-1", "c.contact-5"]
    assert [field for field in colvar if field != "time"] == fields
    reference = np.array([colvar[field][0] for field in fields]).T
    decimals = np.array([colvar[field][1] for field in fields]).T
    compare(case, CONTACTMAP, "a c.contact-1 c.contact-5 values", values[:, [0, 1, 5]], reference,
            plumed_tolerance(decimals, reference, case))


@pytest.mark.parametrize("case", ALL_CASES)
def test_contactmap_rt28_cmdist_derivatives_match_deriv(case):
    _, derivatives = contactmap_run(case)
    atoms, _, decimals = read_derivatives(PLUMED_DATA / CONTACTMAP / "deriv.reference", 10)["a"]
    compare(case, CONTACTMAP, "a derivatives", derivatives, atoms, plumed_tolerance(decimals, atoms, case))


# ---------------------------------------------------------------------------------------------------
# Summary (keep last): how many of the folders were reproduced
# ---------------------------------------------------------------------------------------------------

#: Every quantity compared per folder; a folder counts as reproduced when all of them passed.
EXPECTED_QUANTITIES = {
    **{folder: [f"{label} {what}" for label in labels
                for what in ("values", "derivatives", "box derivatives")] for folder, labels in RT20_ALL.items()},
    "rt42": ["c values", "e values", "forces", "virial (cubic frames, diagonal)"],
    "rt42c": ["c values"],
    "rt42-matheval": ["c values"],
    "rt42d": ["c values", "d values", "forces"],
    BASIC: ["c1 values", "d1c values", "c1 derivatives", "c1 box derivatives", "forces", "virial (diagonal)"],
    **{folder: [symfunc_quantity(quantity, source) for source in SYMFUNC_SOURCES for quantity in quantities]
       for folder, quantities in {
           "symfunc-rt20": ["c2_morethan values", "forces", "virial (diagonal)"],
           "symfunc-rt-single-groupb": ["c1.1-c1.5 values"],
           "symfunc-rt-coordination-powers-multi": ["cn0_mean cn1_mean cn2_mean values"]}.items()},
    CONTACTMAP: ["a c.contact-1 c.contact-5 values", "a derivatives"],
}
#: Quantities obtained by finite differences of the energy: compared on double-precision cases only.
STRAIN_QUANTITIES = ("box derivatives", "virial")


def expected_quantities(case):
    return {folder: [q for q in quantities if case.double or not any(s in q for s in STRAIN_QUANTITIES)]
            for folder, quantities in EXPECTED_QUANTITIES.items()}


def reproduced_folders(case):
    results = PLUMED_RESULTS.get(case.id, {})
    return [folder for folder, quantities in expected_quantities(case).items()
            if all(results.get(folder, {}).get(q, (0, 0, False))[2] for q in quantities)]


@pytest.mark.parametrize("case", ALL_CASES)
def test_every_plumed_folder_is_reproduced(case):
    results = PLUMED_RESULTS.get(case.id, {})
    missing = [f"{folder}: {q}" for folder, quantities in expected_quantities(case).items() for q in quantities
               if q not in results.get(folder, {})]
    if missing:
        pytest.skip(f"{case.id}: run the whole module to count the folders; not compared: " + ", ".join(missing))
    reproduced = reproduced_folders(case)
    print(f"\nPLUMED regtest folders reproduced on {case.id}: {len(reproduced)} of {len(EXPECTED_QUANTITIES)}")
    assert sorted(EXPECTED_QUANTITIES) == sorted(path.parent.name for path in PLUMED_DATA.glob("*/plumed.dat"))
    assert reproduced == list(EXPECTED_QUANTITIES), (
        f"not reproduced on {case.id}: {sorted(set(EXPECTED_QUANTITIES) - set(reproduced))}")
