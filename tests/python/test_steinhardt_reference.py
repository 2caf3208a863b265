"""The long-double brute force of PLUMED's Steinhardt family (steinhardt_reference.py), the oracle of the plugin's
Steinhardt-type forces, checked on its own and against PLUMED's printed regression data.

On its own: the RATIONAL switching function (against the double-precision model of coordination_testing.py, its
limit n/m at x = 1, the stretch and the keyword form's cutoff), the minimum image, the spherical harmonics (closed
forms, sum rule, orthonormality by quadrature, symmetry), rotation invariance of Q_l and the textbook Q_4, Q_6 of the
simple cubic and fcc shells, the cubic shell functions on their ideal shells, LOCAL_Q and LOCAL_AVERAGE on a perfect
lattice, the SPECIESA/SPECIESB forms and the reductions.

Against PLUMED (tests/data/plumed-steinhardt/symfunc-rt-q6, -rt-averaged-q6, -rt-localav-test, -rt-simplecubic, on
trajectories/64.xyz; see the README there): every printed value to its printed digits (|ours - printed| <= half a
unit of the last digit + PRINTED_SLACK), and forces.reference (forces of the sum of the file's RESTRAINT and
BIASVALUE biases, and the virial's diagonal) by central finite differences of the oracle's long-double bias, within
half a unit of the 4th decimal + FORCE_SLACK. Nothing here is computed with OpenMM (coordination_testing.py gives
the file readers and the double-precision switching function).
"""
import functools
import itertools
import math

import numpy as np
import pytest

import steinhardt_reference as ref
from coordination_testing import PLUMED_DATA, read_colvar, read_dumped_forces, read_xyz, switching_function

#: PLUMED's Steinhardt regtests (kept apart from tests/data/plumed until the translator reads their actions).
STEINHARDT_DATA = PLUMED_DATA.parent / "plumed-steinhardt"

#: Slack on top of half a unit in the last printed digit of a value: PLUMED's double-precision value differs from
#: the exact one by round-off (~1e-15 here), and ours (long double) by less.
PRINTED_SLACK = 1e-12
#: Slack on top of half a unit in the 4th decimal of a dumped force or virial component: our derivatives are central
#: differences of step FD_STEP in long double, whose truncation error (step^2/6 |E'''| ~ 1e-13 |E'''|) and round-off
#: (~eps_ld |E| / step ~ 1e-12 for |E| <= 10) are ~1e-12 (steps 1e-6 and 2e-6 agree to 5e-12 on all four folders);
#: PLUMED's analytic double-precision derivatives are exact to ~1e-12 before printing. 1e-8 covers both with a wide
#: margin, while an error in a definition moves some force by far more (the largest forces are 2e-3 to 0.3).
FORCE_SLACK = 1e-8
FD_STEP = 1e-6

STEINHARDT_FOLDERS = ("symfunc-rt-q6", "symfunc-rt-averaged-q6", "symfunc-rt-localav-test", "symfunc-rt-simplecubic")
FRAME = read_xyz(STEINHARDT_DATA / "trajectories" / "64.xyz")[0]
POSITIONS = ref.ld(FRAME.positions)
BOX = ref.ld(np.diag(FRAME.box_vectors))
ATOMS = np.arange(64)  # SPECIES=1-64

# The switching functions of the four plumed.dat files (test_plumed_inputs_are_those_modelled checks the lines).
#: `SWITCH={RATIONAL D_0=3.0 R_0=1.5}`: n = 6, m = 12, no cutoff, not stretched.
SWITCH_D3_R15 = ref.Rational(r0=1.5, d0=3.0)
#: `SWITCH={RATIONAL D_0=3.0 R_0=1.5 NN=12 MM=24}` (no cutoff).
SWITCH_D3_R15_12_24 = ref.Rational(r0=1.5, d0=3.0, n=12, m=24)
#: `SWITCH={RATIONAL D_0=3.0 R_0=2.0 NN=12 MM=24}` (no cutoff).
SWITCH_D3_R2_12_24 = ref.Rational(r0=2.0, d0=3.0, n=12, m=24)
#: The keyword form `D_0=3.0 R_0=1.5 NN=12` (MM = 24, also written out in rt-averaged-q6): cutoff 6.915, stretched.
KEYWORD_D3_R15_12 = ref.Rational.keyword(r0=1.5, d0=3.0, n=12)


# ---------------------------------------------------------------------------------------------------
# The four folders as functions of (positions, box): every printed quantity, and the bias of forces.reference
# ---------------------------------------------------------------------------------------------------


def rt_q6(positions, box):
    """symfunc-rt-q6: c (COORDINATIONNUMBER), q6 and q4 (keyword form), w6 (LOCAL_Q6 SPECIES=q6)."""
    keyword_shell = ref.shell(positions, KEYWORD_D3_R15_12, ATOMS, box_lengths=box)
    local_shell = ref.shell(positions, SWITCH_D3_R15, ATOMS, box_lengths=box)
    q6_vectors = ref.shell_steinhardt_vectors(keyword_shell, 6)
    q6 = ref.vector_norms(q6_vectors) / keyword_shell.counts
    q4 = ref.vector_norms(ref.shell_steinhardt_vectors(keyword_shell, 4)) / keyword_shell.counts
    w6 = ref.shell_local_steinhardt(local_shell, q6_vectors)
    return {"c_mean": ref.mean(local_shell.counts), "q6_mean": ref.mean(q6), "q6_lowest": ref.lowest(q6),
            "q4_mean": ref.mean(q4), "w6_mean": ref.mean(w6)}


def rt_q6_bias(positions, box):
    """RESTRAINT ARG=q4_mean,q6_lowest AT=0.2,0.2 KAPPA=10,10 and BIASVALUE ARG=w6_mean."""
    values = rt_q6(positions, box)
    return (ref.restraint(values["q4_mean"], 0.2, 10) + ref.restraint(values["q6_lowest"], 0.2, 10)
            + values["w6_mean"])


def rt_averaged_q6(positions, box):
    """symfunc-rt-averaged-q6: q6 (keyword form with MM=24), w6 = LOCAL_AVERAGE SPECIES=q6 (of the vectors q/N)."""
    q6_vectors, counts = ref.steinhardt_vectors(positions, 6, KEYWORD_D3_R15_12, ATOMS, box_lengths=box)
    averaged = ref.local_average(positions, ref.normalised_steinhardt_vectors(q6_vectors, counts), SWITCH_D3_R15,
                                 ATOMS, box_lengths=box)
    return {"q6_mean": ref.mean(ref.vector_norms(q6_vectors) / counts), "w6_mean": ref.mean(ref.vector_norms(averaged))}


def rt_averaged_q6_bias(positions, box):
    """rr: RESTRAINT ARG=w6_mean AT=0.1 KAPPA=10."""
    return ref.restraint(rt_averaged_q6(positions, box)["w6_mean"], 0.1, 10)


def rt_localav_test(positions, box):
    """symfunc-rt-localav-test: laverage = LOCAL_AVERAGE SPECIES=ccord of a COORDINATIONNUMBER."""
    ccord = ref.coordination_numbers(positions, SWITCH_D3_R15_12_24, ATOMS, box_lengths=box)
    laverage = ref.local_average(positions, ccord, SWITCH_D3_R2_12_24, ATOMS, box_lengths=box)
    return {"laverage_mean": ref.mean(laverage)}


def rt_localav_test_bias(positions, box):
    """rr: RESTRAINT ARG=laverage_mean AT=13 KAPPA=10."""
    return ref.restraint(rt_localav_test(positions, box)["laverage_mean"], 13, 10)


def rt_simplecubic(positions, box):
    """symfunc-rt-simplecubic: SIMPLECUBIC (c), COORDINATION_SHELL_FUNCTION of (x^4+y^4+z^4)/r^4 (c2), FCCUBIC (d),
    FCCUBIC_FUNC times the weights summed over the row (d2), TETRAHEDRAL (t); one switching function for all."""
    neighbourhood = ref.shell(positions, SWITCH_D3_R15, ATOMS, box_lengths=box)
    fccubic = ref.fccubic_function(alpha=3.0)

    def values(function, normalise):
        return ref.mean(ref.shell_function_values(neighbourhood, function, normalise))

    return {"c_mean": values(ref.simple_cubic_function, True), "c2_mean": values(ref.simple_cubic_function, False),
            "d_mean": values(fccubic, True), "d2_mean": values(fccubic, False),
            "t_mean": values(ref.tetrahedral_function, True)}


def rt_simplecubic_bias(positions, box):
    """RESTRAINT ARG=c_mean,d_mean,t_mean AT=0.6,-0.02,-0.02 KAPPA=100,100,100."""
    values = rt_simplecubic(positions, box)
    return (ref.restraint(values["c_mean"], 0.6, 100) + ref.restraint(values["d_mean"], -0.02, 100)
            + ref.restraint(values["t_mean"], -0.02, 100))


#: folder -> (printed quantities, bias of forces.reference)
MODELS = {
    "symfunc-rt-q6": (rt_q6, rt_q6_bias),
    "symfunc-rt-averaged-q6": (rt_averaged_q6, rt_averaged_q6_bias),
    "symfunc-rt-localav-test": (rt_localav_test, rt_localav_test_bias),
    "symfunc-rt-simplecubic": (rt_simplecubic, rt_simplecubic_bias),
}

#: The lines of each plumed.dat (whitespace-normalised) that the functions above model.
MODELLED_LINES = {
    "symfunc-rt-q6": [
        "COORDINATIONNUMBER SPECIES=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN LABEL=c",
        "Q6 SPECIES=1-64 D_0=3.0 R_0=1.5 NN=12 MEAN LOWEST LABEL=q6",
        "Q4 SPECIES=1-64 D_0=3.0 R_0=1.5 NN=12 MEAN LABEL=q4",
        "RESTRAINT ARG=q4_mean,q6_lowest AT=0.2,0.2 KAPPA=10,10",
        "LOCAL_Q6 SPECIES=q6 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN LABEL=w6",
        "BIASVALUE ARG=w6_mean",
    ],
    "symfunc-rt-averaged-q6": [
        "Q6 SPECIES=1-64 D_0=3.0 R_0=1.5 NN=12 MM=24 MEAN LABEL=q6",
        "w6: LOCAL_AVERAGE SPECIES=q6 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN",
        "rr: RESTRAINT ARG=w6_mean AT=0.1 KAPPA=10",
    ],
    "symfunc-rt-localav-test": [
        "ccord: COORDINATIONNUMBER SPECIES=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5 NN=12 MM=24}",
        "laverage: LOCAL_AVERAGE SPECIES=ccord SWITCH={RATIONAL D_0=3.0 R_0=2.0 NN=12 MM=24} MEAN",
        "rr: RESTRAINT ARG=laverage_mean AT=13 KAPPA=10",
    ],
    "symfunc-rt-simplecubic": [
        "SIMPLECUBIC SPECIES=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN LABEL=c",
        "c2: COORDINATION_SHELL_FUNCTION SPECIES=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5} FUNCTION=(x^4+y^4+z^4)/(r^4)",
        "c2_mean: MEAN ARG=c2 PERIODIC=NO",
        "FCCUBIC SPECIES=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN LABEL=d",
        "d2_fcub: FCCUBIC_FUNC ARG=c2_mat.x,c2_mat.y,c2_mat.z",
        "d2_wfcub: CUSTOM ARG=c2_mat.w,d2_fcub FUNC=x*y PERIODIC=NO",
        "d2_ones: ONES SIZE=64",
        "d2: MATRIX_VECTOR_PRODUCT ARG=d2_wfcub,d2_ones",
        "d2_mean: MEAN ARG=d2 PERIODIC=NO",
        "TETRAHEDRAL SPECIES=1-64 SWITCH={RATIONAL D_0=3.0 R_0=1.5} MEAN LABEL=t",
        "RESTRAINT ARG=c_mean,d_mean,t_mean AT=0.6,-0.02,-0.02 KAPPA=100,100,100",
    ],
}


def plumed_lines(folder):
    """The folder's plumed.dat: whitespace-normalised lines, comments and blanks dropped."""
    lines = [" ".join(line.split("#")[0].split()) for line in (STEINHARDT_DATA / folder / "plumed.dat").read_text()
             .splitlines()]
    return [line for line in lines if line]


def action_name(line):
    """The action of a plumed.dat line, `label: NAME ...` or `NAME ... LABEL=label`."""
    words = line.split()
    return words[1] if words[0].endswith(":") else words[0]


def printed_values(folder):
    """{field: (value, decimals)} of every *.reference except forces.reference (one frame each)."""
    printed = {}
    for path in sorted((STEINHARDT_DATA / folder).glob("*.reference")):
        if path.name != "forces.reference":
            for field, (values, decimals) in read_colvar(path).items():
                if field != "time":
                    assert len(values) == 1, path
                    printed[field] = (float(values[0]), int(decimals[0]))
    return printed


@functools.lru_cache(maxsize=None)
def oracle_values(folder):
    return MODELS[folder][0](POSITIONS, BOX)


@functools.lru_cache(maxsize=None)
def oracle_forces_and_virial(folder):
    """-dBias/dx (64 x 3) and dBias/d(strain) (diagonal) by central differences of the long-double bias."""
    bias = MODELS[folder][1]
    forces = ref.finite_difference_forces(lambda positions: bias(positions, BOX), POSITIONS, FD_STEP)
    virial = ref.finite_difference_virial_diagonal(bias, POSITIONS, BOX, FD_STEP)
    return forces, virial


def assert_printed_values_match(folder, fields):
    printed = printed_values(folder)
    ours = oracle_values(folder)
    for field in fields:
        expected, decimals = printed[field]
        deviation = abs(float(ours[field]) - expected)
        tolerance = 0.5 * 10.0**-decimals + PRINTED_SLACK
        assert deviation <= tolerance, (f"{folder} {field}: ours {ours[field]!r}, PLUMED {expected} (%.{decimals}f), "
                                        f"{deviation / 10.0**-decimals:.3f} units of the last digit")


# ---------------------------------------------------------------------------------------------------
# The RATIONAL switching function and the minimum image
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("settings", [dict(r0=1.3, n=5, m=11), dict(r0=1.3, n=6, m=0, dmax=2.6),
                                      dict(r0=1.5, d0=3.0, n=12, m=24, dmax=7.0), dict(r0=0.3, n=8, m=10)],
                         ids=["n5-m11", "n6-m12-dmax", "d0-n12-m24", "n8-m10"])
@pytest.mark.parametrize("stretch", [False, True])
def test_rational_switch_matches_the_double_precision_model(settings, stretch):
    r = np.concatenate([np.linspace(0.0, 8.0, 801), [1.3 * (1 + 1e-3), 3.0 + 1.5 * (1 - 1e-3)]])
    dmax = settings.get("dmax", math.inf)
    ours = ref.rational_switch(r, stretch=stretch, **settings)
    expected = switching_function(r, stretch=stretch, **{**settings, "dmax": dmax})
    assert np.max(np.abs(ours.astype(float) - expected)) < 1e-12


def test_rational_switch_is_one_below_d0_and_its_limit_at_x_one_is_n_over_m():
    assert np.all(ref.rational_switch([0.0, 1.0, 3.0], r0=1.5, d0=3.0, n=12, m=24) == 1)
    for n, m in [(6, 12), (5, 11), (12, 24), (8, 10)]:
        assert ref.rational_switch(1.0, r0=1.0, n=n, m=m) == ref.LD(n) / ref.LD(m)
        # Just off x = 1 the closed form, in long double, agrees with the cancellation-free geometric sums.
        for e in (1e-4, -1e-4, 1e-3):
            x = ref.LD(1) + ref.LD(e)
            closed = (1 - x**n) / (1 - x**m)
            assert abs(ref.rational_switch(x, r0=1.0, n=n, m=m) - closed) < 1e-13


def test_stretched_rational_is_one_at_zero_and_zero_at_and_beyond_dmax():
    switch = ref.Rational(r0=1.3, n=5, m=11, dmax=2.6)
    assert switch(0.0) == 1 and switch(2.6) == 0 and switch(2.6 + 1e-12) == 0
    unstretched = ref.Rational(r0=1.3, n=5, m=11, dmax=2.6, stretch=False)
    assert unstretched(2.6) > 0 and unstretched(2.6 + 1e-12) == 0
    assert ref.Rational(r0=1.3, n=5, m=11)(1e6) > 0  # no D_MAX: no cutoff


def test_keyword_form_has_plumeds_cutoff_and_is_stretched():
    dmax = ref.keyword_dmax(r0=1.5, d0=3.0, n=12)
    assert float(dmax) == pytest.approx(3.0 + 1.5 * 1e-5 ** (1 / (12 - 24)), rel=1e-15)
    assert 6.91 < dmax < 6.92  # beyond half of rt-q6's box (6.208): the minimum image decides
    assert ref.keyword_dmax(1.5, 3.0, 12, 24) == dmax  # MM = 0 means 2 NN
    keyword = ref.Rational.keyword(r0=1.5, d0=3.0, n=12)
    r = np.linspace(0.0, 8.0, 81)
    assert np.all(keyword(r) == ref.keyword_switch(r, r0=1.5, d0=3.0, n=12))
    assert keyword(dmax) == 0 and keyword(0.0) == 1
    plain = ref.Rational(r0=1.5, d0=3.0, n=12)  # SWITCH={RATIONAL D_0=3 R_0=1.5 NN=12}: neither
    assert plain(dmax) > 0 and abs(plain(5.0) - keyword(5.0)) > 1e-6


def test_minimum_image_is_the_shortest_periodic_image():
    box = ref.ld([2.0, 3.0, 5.0])
    delta = ref.ld(np.random.default_rng(3).uniform(-12, 12, size=(500, 3)))
    images = ref.ld(list(itertools.product(range(-7, 8), repeat=3))) * box
    lengths = np.linalg.norm((delta[:, None, :] + images[None]).astype(float), axis=-1)
    assert np.allclose(np.linalg.norm(ref.minimum_image(delta, box).astype(float), axis=1), lengths.min(axis=1),
                       rtol=0, atol=1e-14)
    assert np.all(ref.minimum_image(delta) == delta)  # no box: no periodic boundaries


# ---------------------------------------------------------------------------------------------------
# Spherical harmonics
# ---------------------------------------------------------------------------------------------------


def random_directions(count, seed):
    vectors = np.random.default_rng(seed).normal(size=(count, 3))
    # Include the poles and an equatorial direction, where a naive angle-based evaluation is singular.
    return ref.ld(np.vstack([vectors, [[0, 0, 1], [0, 0, -2], [0.5, 0, 0]]]))


def test_spherical_harmonics_match_their_closed_forms():
    vectors = random_directions(200, 1)
    x, y, z = (vectors / np.sqrt(np.sum(vectors * vectors, axis=1))[:, None]).T
    pi = ref.PI
    closed = {
        (0, 0): np.full(x.shape, 1 / (2 * np.sqrt(pi))),
        (1, 0): np.sqrt(3 / (4 * pi)) * z,
        (1, 1): -np.sqrt(3 / (8 * pi)) * (x + 1j * y),
        (1, -1): np.sqrt(3 / (8 * pi)) * (x - 1j * y),
        (2, 0): np.sqrt(5 / (16 * pi)) * (3 * z * z - 1),
        (2, 1): -np.sqrt(15 / (8 * pi)) * z * (x + 1j * y),
        (2, 2): np.sqrt(15 / (32 * pi)) * (x + 1j * y) ** 2,
        (3, 0): np.sqrt(7 / (16 * pi)) * (5 * z**3 - 3 * z),
        (4, 0): 3 / (16 * np.sqrt(pi)) * (35 * z**4 - 30 * z * z + 3),
        (6, 0): np.sqrt(13 / pi) / 32 * (231 * z**6 - 315 * z**4 + 105 * z * z - 5),
        (6, 6): np.sqrt(3003 / pi) / 64 * (x + 1j * y) ** 6,
    }
    for (l, m), expected in closed.items():
        ours = ref.spherical_harmonics(l, vectors)[:, l + m]
        assert np.max(np.abs(ours - expected)) < 1e-17, (l, m)
    # Y_ll = (-1)^l / (2^l l!) sqrt((2l+1)!/(4 pi)) (x + i y)^l for every l up to 12.
    for l in range(13):
        expected = (-1) ** l / ref.LD(2**l * math.factorial(l)) * np.sqrt(
            ref.LD(math.factorial(2 * l + 1)) / (4 * pi)) * (x + 1j * y) ** l
        assert np.max(np.abs(ref.spherical_harmonics(l, vectors)[:, 2 * l] - expected)) < 1e-16, l


@pytest.mark.parametrize("l", range(13))
def test_spherical_harmonics_sum_rule_and_negative_m(l):
    harmonics = ref.spherical_harmonics(l, random_directions(300, 2 + l))
    total = np.sum(harmonics.real**2 + harmonics.imag**2, axis=1)
    assert np.max(np.abs(total / ((2 * l + 1) / (4 * ref.PI)) - 1)) < 1e-17
    for m in range(1, l + 1):
        assert np.all(harmonics[:, l - m] == (-1) ** m * np.conj(harmonics[:, l + m]))


def test_spherical_harmonics_are_orthonormal_up_to_degree_12():
    # Gauss-Legendre in cos(theta) and the trapezoidal rule in phi integrate these polynomials exactly.
    t, weights = np.polynomial.legendre.leggauss(16)
    phi = np.arange(32) * (2 * np.pi / 32)
    t, phi = np.meshgrid(t, phi, indexing="ij")
    sine = np.sqrt(1 - t * t)
    directions = np.stack([sine * np.cos(phi), sine * np.sin(phi), t], axis=-1).reshape(-1, 3)
    quadrature = (weights[:, None] * np.full(phi.shape, 2 * np.pi / 32)).reshape(-1)
    harmonics = np.concatenate([ref.spherical_harmonics(l, directions) for l in range(13)], axis=1)
    gram = (np.conj(harmonics).T * quadrature) @ harmonics
    assert gram.shape == (169, 169)
    assert np.max(np.abs(gram - np.eye(169))) < 1e-13  # the double-precision nodes limit this


def test_q_l_is_rotation_invariant_and_gives_the_textbook_cubic_values():
    """Q_l(i) is invariant under rotations; sqrt(4 pi/(2l+1)) Q_l of the ideal shells are the literature values
    (simple cubic: Q4 = sqrt(7/12), Q6 = sqrt(1/8); fcc: Q4 = sqrt(7/192), Q6 = 13/sqrt(512))."""
    switch = ref.Rational(r0=1.2, d0=0.0, n=6, m=12, dmax=1.5)
    simple_cubic = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]
    fcc = [[a, b, 0] for a in (-1, 1) for b in (-1, 1)] + [[a, 0, b] for a in (-1, 1) for b in (-1, 1)] + \
          [[0, a, b] for a in (-1, 1) for b in (-1, 1)]
    fcc = np.array(fcc) / np.sqrt(2)
    rotation, _ = np.linalg.qr(np.random.default_rng(5).normal(size=(3, 3)))
    textbook = {("sc", 4): np.sqrt(ref.LD(7) / 12), ("sc", 6): np.sqrt(ref.LD(1) / 8),
                ("fcc", 4): np.sqrt(ref.LD(7) / 192), ("fcc", 6): 13 / np.sqrt(ref.LD(512))}
    for name, shell_vectors in (("sc", simple_cubic), ("fcc", fcc)):
        positions = np.vstack([[0.0, 0.0, 0.0], shell_vectors])
        for l in (4, 6):
            q = ref.steinhardt(positions, l, switch, [0], np.arange(1, len(positions)))[0]
            rotated = ref.steinhardt(positions @ rotation.T, l, switch, [0], np.arange(1, len(positions)))[0]
            assert abs(rotated - q) < 1e-16
            assert abs(np.sqrt(4 * ref.PI / (2 * l + 1)) * q - textbook[name, l]) < 1e-17, (name, l)


# ---------------------------------------------------------------------------------------------------
# Per-atom quantities on ideal shells and lattices, the SPECIESA/SPECIESB forms, reductions
# ---------------------------------------------------------------------------------------------------


def test_cubic_shell_functions_on_their_ideal_shells():
    rotation, _ = np.linalg.qr(np.random.default_rng(11).normal(size=(3, 3)))
    x, y, z, r = (ref.ld(v) for v in (0.3, -0.4, 1.2, 1.3))
    assert ref.simple_cubic_function(x, y, z, r) == (x**4 + y**4 + z**4) / r**4
    # SIMPLECUBIC is 1 on the 6 axis directions; FCCUBIC is 1 on the 12 fcc directions for any alpha.
    assert np.all(np.abs(ref.simple_cubic_function(*np.eye(3) * 2.0, 2.0) - 1) < 1e-18)
    for alpha in (3.0, 27.0, 0.5):
        f = ref.fccubic_function(alpha)
        assert abs(f(ref.LD(1), ref.LD(-1), ref.LD(0), np.sqrt(ref.LD(2))) - 1) < 1e-17
        assert abs(f(ref.LD(0), ref.LD(1), ref.LD(1), np.sqrt(ref.LD(2))) - 1) < 1e-17
    # TETRAHEDRAL is 8/sqrt(3) on the four tetrahedral directions and odd: -8/sqrt(3) on the opposite ones.
    tetrahedron = ref.ld([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]])
    values = ref.tetrahedral_function(*tetrahedron.T, np.sqrt(ref.LD(3)))
    assert np.max(np.abs(values - 8 / np.sqrt(ref.LD(3)))) < 1e-17
    assert np.max(np.abs(ref.tetrahedral_function(*(-tetrahedron).T, np.sqrt(ref.LD(3))) + values)) < 1e-17
    # Normalised by the weights: an ideal shell at one distance gives the function's value; direction i -> j.
    switch = ref.Rational(r0=0.5, dmax=2.0)
    positions = np.vstack([[5.0, 5.0, 5.0], 5.0 + tetrahedron.astype(float) * 0.6])
    value = ref.tetrahedral(positions, switch, [0], [1, 2, 3, 4], box_lengths=[10, 10, 10])[0]
    assert abs(value - 8 / np.sqrt(ref.LD(3))) < 1e-16
    shell_sum = ref.shell_function(positions, ref.tetrahedral_function, switch, [0], [1, 2, 3, 4], [10, 10, 10])[0]
    weights = ref.shell(positions, switch, [0], [1, 2, 3, 4], [10, 10, 10]).counts[0]
    assert abs(shell_sum - weights * value) < 1e-16
    assert abs(ref.simple_cubic(ref.ld([[0, 0, 0], [0, 0, 1]]) @ rotation.T, switch, [0], [1])[0]
               - ref.simple_cubic_function(*(rotation @ [0, 0, 1]), 1.0)) < 1e-16
    # No neighbours: 0/0 is 0 in PLUMED.
    assert ref.fccubic(positions, switch, [0], [0]) == 0


def simple_cubic_lattice(cells=4, spacing=1.0):
    grid = np.array(list(itertools.product(range(cells), repeat=3)), dtype=float) * spacing
    return grid, np.full(3, cells * spacing)


def test_local_q_and_local_average_of_a_perfect_lattice():
    positions, box = simple_cubic_lattice()
    atoms = np.arange(len(positions))
    switch = ref.Rational(r0=1.05, n=6, m=12, dmax=1.2)  # the first shell only (the second is at sqrt(2))
    q, counts = ref.steinhardt_vectors(positions, 6, switch, atoms, box_lengths=box)
    q6 = ref.vector_norms(q) / counts
    # Every atom has the same environment, so the same vector: LOCAL_Q6 = 1, LOCAL_AVERAGE of Q6 = Q6.
    assert np.max(np.abs(ref.local_steinhardt(positions, q, switch, atoms, box_lengths=box) - 1)) < 1e-17
    averaged = ref.local_average_steinhardt(positions, 6, switch, switch, atoms, box_lengths=box)
    assert np.max(np.abs(averaged - q6)) < 1e-17
    assert abs(q6[0] * np.sqrt(4 * ref.PI / 13) - np.sqrt(ref.LD(1) / 8)) < 1e-17
    # LOCAL_AVERAGE of a scalar: (c_i + sum_j w_ij c_j) / (1 + sum_j w_ij).
    values = ref.ld(np.arange(len(positions)))
    weights = ref.shell(positions, switch, atoms, box_lengths=box).weights
    expected = (values + weights @ values) / (1 + weights.sum(axis=1))
    assert np.all(ref.local_average(positions, values, switch, atoms, box_lengths=box) == expected)


def test_species_a_b_forms_and_atoms_without_neighbours():
    positions = ref.ld([[0, 0, 0], [1, 0, 0], [0, 1.1, 0], [5, 5, 5], [0.2, 0.3, 1.0]])
    switch = ref.Rational(r0=1.0, n=6, m=12, dmax=2.0)
    centres, neighbours = [0, 1, 3], [0, 1, 2, 4]
    # SPECIESA/SPECIESB: an atom in both lists does not count itself; atom 3 has no neighbours.
    numbers = ref.coordination_numbers(positions, switch, centres, neighbours)
    expected = [sum(switch(np.sqrt(np.sum((positions[j] - positions[i]) ** 2))) for j in neighbours if j != i)
                for i in centres]
    assert np.max(np.abs(numbers - ref.ld(expected))) < 1e-18 and numbers[2] == 0
    with np.errstate(invalid="ignore"):
        q6 = ref.steinhardt(positions, 6, switch, centres, neighbours)
    assert np.isnan(q6[2]) and np.all(np.isfinite(q6[:2]))  # Q_l = 0/0 = NaN in PLUMED
    # LOCAL_Q, SPECIES form: an atom without neighbours adds nothing but counts in the weights; 0/0 gives 0.
    atoms = np.arange(5)
    q, counts = ref.steinhardt_vectors(positions, 6, switch, atoms)
    assert counts[3] == 0 and np.all(q[3] == 0)
    local = ref.local_steinhardt(positions, q, switch, atoms)
    assert local[3] == 0
    assert np.max(np.abs(local - local_q_brute_force(positions, q, q, switch, atoms, atoms))) < 1e-18
    # LOCAL_Q, SPECIESA/SPECIESB form: the centres' vectors against those of the neighbours' own Q_l action.
    q_b, _ = ref.steinhardt_vectors(positions, 6, switch, [0, 1, 2])
    local_ab = ref.local_steinhardt(positions, q[[0, 1]], switch, [0, 1], [0, 1, 2], q_b)
    expected = local_q_brute_force(positions, q[[0, 1]], q_b, switch, [0, 1], [0, 1, 2])
    assert np.max(np.abs(local_ab - expected)) < 1e-18
    # ... where a neighbour without neighbours of its own (q = 0: atom 3) gives NaN, as in PLUMED, if it is within
    # the range of LOCAL_Q's switching function (atom 3 is 8.5 nm away from atom 0).
    q_b, _ = ref.steinhardt_vectors(positions, 6, switch, [1, 3], atoms)  # Q6 SPECIESA=2,4 SPECIESB=1-5
    assert np.all(q_b[1] == 0)
    long_range = ref.Rational(r0=1.0, n=6, m=12, dmax=10.0)
    assert np.isnan(ref.local_steinhardt(positions, q[[0]], long_range, [0], [1, 3], q_b)[0])
    assert np.isfinite(ref.local_steinhardt(positions, q[[0]], switch, [0], [1, 3], q_b)[0])
    # LOCAL_AVERAGE, SPECIESA/SPECIESB form: the self term of row i is the i-th atom of SPECIESB (so the centres'
    # own values, zeros here, are not used).
    values_b = ref.ld([10.0, 20.0, 30.0, 40.0])
    weights = ref.shell(positions, switch, [0, 1], [2, 4, 0, 1]).weights
    expected = (values_b[:2] + weights @ values_b) / (1 + weights.sum(axis=1))
    assert np.all(ref.local_average(positions, ref.ld([0, 0]), switch, [0, 1], [2, 4, 0, 1], values_b) == expected)


def local_q_brute_force(positions, q_centres, q_neighbours, switch, centres, neighbours):
    """LOCAL_Q by loops: sum over neighbours j != i of w'_ij Re(conj(q^_i) . q^_j), divided by sum w'_ij (the
    neighbours with q = 0 count in the denominator only)."""
    result = []
    for row, i in enumerate(centres):
        numerator = denominator = ref.LD(0)
        for column, j in enumerate(neighbours):
            if j == i:
                continue
            weight = switch(np.sqrt(np.sum((positions[j] - positions[i]) ** 2)))
            a, b = q_centres[row], q_neighbours[column]
            norms = ref.vector_norms(a) * ref.vector_norms(b)
            if norms > 0:  # a vector q = 0 adds nothing to the numerator (the SPECIES form)
                numerator += weight * np.sum(np.conj(a) * b).real / norms
            denominator += weight
        result.append(numerator / denominator if denominator > 0 else 0)  # 0/0 is 0 in PLUMED
    return ref.ld(result)


def test_reductions():
    values = ref.ld([0.1, 0.5, 0.2, 0.9])
    assert ref.mean(values) == np.sum(values) / 4 and ref.total(values) == np.sum(values)
    assert ref.lowest(values) == values[0] and ref.highest(values) == values[3]
    switch = ref.Rational(r0=0.4)
    assert ref.less_than(values, switch) == np.sum(switch(values))
    assert ref.more_than(values, switch) == np.sum(1 - switch(values))
    assert abs(ref.less_than(values, switch) + ref.more_than(values, switch) - 4) < 1e-18
    # VMEAN and VSUM: norm of the mean and of the sum of q(i)/N_i (an atom with N = 0 contributes 0).
    q = np.array([[1 + 1j, 2], [3j, -1], [5, 5]], dtype=np.clongdouble)
    counts = ref.ld([2, 1, 0])
    normalised = np.array([[0.5 + 0.5j, 1], [3j, -1], [0, 0]], dtype=np.clongdouble)
    assert abs(ref.vector_sum(q, counts) - ref.vector_norms(normalised.sum(axis=0))) < 1e-18
    assert abs(ref.vector_mean(q, counts) - ref.vector_norms(normalised.sum(axis=0)) / 3) < 1e-18
    assert abs(ref.vector_sum(q, counts) - np.sqrt(ref.LD(0.25 + 3.5**2 + 0))) < 1e-18


def test_finite_difference_forces_and_virial_of_a_known_energy():
    positions = ref.ld([[0.1, 0.2, 0.3], [1.0, -0.4, 0.6]])
    box = ref.ld([3.0, 4.0, 5.0])
    forces = ref.finite_difference_forces(lambda p: np.sum(p**3), positions)
    assert np.max(np.abs(forces + 3 * positions**2)) < 1e-11
    virial = ref.finite_difference_virial_diagonal(lambda p, b: np.sum(p**2) + np.prod(b), positions, box)
    assert np.max(np.abs(virial - (2 * np.sum(positions**2, axis=0) + np.prod(box)))) < 1e-9


# ---------------------------------------------------------------------------------------------------
# PLUMED's printed values and dumped forces
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("folder", STEINHARDT_FOLDERS)
def test_plumed_inputs_are_those_modelled(folder):
    lines = plumed_lines(folder)
    for line in MODELLED_LINES[folder]:
        assert line in lines, f"{folder}: `{line}` not in plumed.dat"
    biases = [line for line in lines if action_name(line) in ("RESTRAINT", "BIASVALUE")]
    assert all(bias in MODELLED_LINES[folder] for bias in biases), biases
    # The one trajectory: 64 atoms in an orthorhombic box.
    assert "--ixyz 64.xyz" in (STEINHARDT_DATA / folder / "config").read_text()
    assert FRAME.positions.shape == (64, 3) and np.all(FRAME.box_vectors == np.diag(np.diag(FRAME.box_vectors)))


#: The printed values each of the tests below compares: (folder, fields).
PRINTED_CHECKS = {
    "q6 and q4": ("symfunc-rt-q6", ("q6_mean", "q6_lowest", "q4_mean")),
    "coordination number": ("symfunc-rt-q6", ("c_mean",)),
    "local q6": ("symfunc-rt-q6", ("w6_mean",)),
    "local average of q6": ("symfunc-rt-averaged-q6", ("q6_mean", "w6_mean")),
    "local average of a scalar": ("symfunc-rt-localav-test", ("laverage_mean",)),
    "cubic": ("symfunc-rt-simplecubic", ("c_mean", "c2_mean", "d_mean", "d2_mean")),
}


@pytest.mark.parametrize("folder", STEINHARDT_FOLDERS)
def test_every_printed_value_is_compared(folder):
    compared = {field for checked, fields in PRINTED_CHECKS.values() if checked == folder for field in fields}
    assert set(printed_values(folder)) == compared


@pytest.mark.parametrize("check", sorted(PRINTED_CHECKS))
def test_the_printed_values_match_plumed(check):
    """q6 and q4, the coordination number, local q6, the local averages of q6 and of a scalar, the cubic functions."""
    assert_printed_values_match(*PRINTED_CHECKS[check])


def test_the_keyword_form_and_the_switch_form_give_different_q6():
    """rt-q6 tells the keyword form (cutoff, stretched) apart from SWITCH={RATIONAL ...} (neither)."""
    expected, decimals = printed_values("symfunc-rt-q6")["q6_mean"]
    plain = ref.steinhardt(POSITIONS, 6, ref.Rational(r0=1.5, d0=3.0, n=12), ATOMS, box_lengths=BOX)
    assert abs(float(ref.mean(plain)) - expected) > 5 * 10.0**-decimals


@pytest.mark.parametrize("folder", STEINHARDT_FOLDERS)
def test_forces_of_the_biases_match_plumed(folder):
    printed, _, decimals = read_dumped_forces(STEINHARDT_DATA / folder / "forces.reference")
    assert printed.shape == (1, 64, 3)
    forces, _ = oracle_forces_and_virial(folder)
    deviation = np.abs(forces.astype(float) - printed[0])
    worst = np.unravel_index(np.argmax(deviation), deviation.shape)
    assert deviation.max() <= 0.5 * 10.0**-decimals + FORCE_SLACK, (
        f"{folder}: atom {worst[0] + 1} component {'xyz'[worst[1]]}: ours {forces[worst]!r}, PLUMED "
        f"{printed[0][worst]}")
    assert np.max(np.abs(forces)) > 10 * 10.0**-decimals  # the biases are not flat here


@pytest.mark.parametrize("folder", STEINHARDT_FOLDERS)
def test_virial_of_the_biases_matches_plumed(folder):
    _, printed, decimals = read_dumped_forces(STEINHARDT_DATA / folder / "forces.reference")
    _, virial = oracle_forces_and_virial(folder)
    deviation = np.abs(virial.astype(float) - np.diag(printed[0]))
    assert deviation.max() <= 0.5 * 10.0**-decimals + FORCE_SLACK, (folder, virial, np.diag(printed[0]))
