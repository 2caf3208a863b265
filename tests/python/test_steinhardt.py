"""SteinhardtForce (PLUMED's Q_l per atom, with the reductions of every per-atom force) on every selected platform
case (Reference, CPU, CUDA, OpenCL):
PLUMED's printed values (symfunc-rt-q6), the long-double brute force of tests/python/steinhardt_reference.py on
random systems of every degree, forces against finite differences of the energy (double precision) and against the
Reference platform (every precision), an atom without neighbours and a vector that vanishes, energy conservation,
and the contract every force of the family keeps (XML, copy, pickle, cast, CustomCVForce, updates, clear errors)."""
import copy
import pickle

import numpy as np
import openmm as mm
import pytest

from coordination_testing import (
    ALL_CASES,
    DOUBLE_CASES,
    INFINITY,
    PLATFORM_CASES,
    PLUMED_DATA,
    REFERENCE,
    as_case,
    assert_close,
    assert_forces_close,
    case_params,
    context_of,
    energy_and_forces,
    energy_only,
    finite_difference_forces,
    make_system,
    plumed_tolerance,
    random_positions,
    read_colvar,
    read_xyz,
    require_case,
    short_nve_run,
)
import openmmcoordination
import steinhardt_reference as oracle
from openmmcoordination import CoordinationNumberForce, PerAtomForce, SteinhardtForce, SwitchingSettings

STEINHARDT_DATA = PLUMED_DATA.parent / "plumed-steinhardt"
RT_Q6 = STEINHARDT_DATA / "symfunc-rt-q6"


def steinhardt(degree, group_a, group_b=(), energy="0", reductions=(), r0=1.5, d0=3.0, n=12, m=0, dmax=0.0,
               periodic=True):
    """A SteinhardtForce in PLUMED's keyword form by default (D_0, R_0, NN; MM = 2 NN; automatic cutoff, stretched)."""
    force = SteinhardtForce(degree, energy)
    force.setMode(SteinhardtForce.Dual if len(group_b) else SteinhardtForce.Self)
    force.setGroupA(list(group_a))
    if len(group_b):
        force.setGroupB(list(group_b))
    force.setSwitchingSettings(SwitchingSettings.rational(r0, n, m, d0, dmax))
    force.setUsesPeriodicBoundaryConditions(periodic)
    for reduction in reductions:
        force.addReduction(*(reduction if isinstance(reduction, tuple) else (reduction,)))
    return force


#: The platforms with a SteinhardtForce kernel (CalcSteinhardtForce) where this plugin's kernels for them are installed.
STEINHARDT_PLATFORMS = ("Reference", "CPU", "CUDA", "OpenCL")


@pytest.mark.parametrize("case", ALL_CASES)
def test_q6_mean_lowest_and_q4_mean_are_plumeds_printed_values(case):
    case = require_case(case)
    frame = read_xyz(STEINHARDT_DATA / "trajectories" / "64.xyz")[0]
    printed = {**read_colvar(RT_Q6 / "colv.reference"), **read_colvar(RT_Q6 / "colv4.reference")}
    atoms = range(len(frame.positions))
    for degree, names in ((6, ("q6_mean", "q6_lowest")), (4, ("q4_mean",))):
        types = {"mean": SteinhardtForce.Mean, "lowest": SteinhardtForce.Lowest}
        force = steinhardt(degree, atoms, reductions=[types[name.split("_")[1]] for name in names])
        values = force.getCollectiveVariableValues(context_of(force, frame.positions, frame.box_vectors, case))
        for name, value in zip(names, values):
            expected, decimals = printed[name]
            assert abs(value - expected[0]) <= plumed_tolerance(decimals[0], expected[0], case), (name, value,
                                                                                                  expected[0])


@pytest.mark.parametrize("case", ALL_CASES)
def test_fromplumedfile_reads_the_regtests_q6_and_q4_to_plumeds_printed_values(case):
    case = require_case(case)
    frame = read_xyz(STEINHARDT_DATA / "trajectories" / "64.xyz")[0]
    read = openmmcoordination.fromPlumedFile(str(RT_Q6 / "plumed.dat"))
    assert sorted(read.forces) == ["c", "q4", "q6", "w6"]  # w6 (LOCAL_Q6): test_local_steps_plumed.py
    assert read.skipped == ["PRINT", "PRINT", "PRINT", "RESTRAINT", "PRINT", "BIASVALUE"]
    printed = {**read_colvar(RT_Q6 / "colv.reference"), **read_colvar(RT_Q6 / "colv4.reference")}
    for label, degree, names in (("q6", 6, ("q6_mean", "q6_lowest")), ("q4", 4, ("q4_mean",))):
        force = read.forces[label]
        assert isinstance(force, SteinhardtForce) and force.getDegree() == degree
        assert force.getName() == label and force.getEnergyFunction() == "0"
        assert [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())] == [
            name.split("_")[1] for name in names]
        # PLUMED's keyword form: D_0, R_0, NN = 12, MM = 24, the automatic cutoff, stretched.
        assert force.getSwitchingSettings() == SwitchingSettings.rational(1.5, 12, 0, 3.0, 0.0)
        values = force.getCollectiveVariableValues(context_of(force, frame.positions, frame.box_vectors, case))
        for name, value in zip(names, values):
            expected, decimals = printed[name]
            assert abs(value - expected[0]) <= plumed_tolerance(decimals[0], expected[0], case), (name, value)


@pytest.mark.parametrize("line", [
    "q6: Q6 SPECIES=1-64 R_0=1.5 D_0=3 NN=12 MEAN LOWEST",
    "q1: Q1 SPECIESA=1-10 SPECIESB=5-40 SWITCH={RATIONAL R_0=0.3 NN=6 D_MAX=1} SUM MORE_THAN={RATIONAL R_0=0.5}",
    "q3: Q3 SPECIES=2,4,6-9 NOPBC SWITCH={EXP R_0=0.2 D_0=0.1 D_MAX=0.9} LESS_THAN1={RATIONAL R_0=0.4} "
    "LESS_THAN2={RATIONAL R_0=0.6} HIGHEST MOMENTS=2,3",
    "q4: Q4 SPECIES=1-20 SWITCH={GAUSSIAN R_0=0.2 D_MAX=0.8} BETWEEN={GAUSSIAN LOWER=0.1 UPPER=0.4 SMEAR=0.5} "
    "MIN={BETA=0.1} MAX={BETA=0.2} ALT_MIN={BETA=3}",
    "q6: Q6 SPECIESA=1-10 SPECIESB=1-40 R_0=0.3 NN=6 VSUM MEAN VMEAN",
])
def test_q_l_lines_read_and_write_back_unchanged(line):
    force = openmmcoordination.fromPlumed(line)
    assert isinstance(force, SteinhardtForce)
    assert force.getDegree() == int(line.split(":")[1].split()[0][1:])
    label = line.split(":")[0]
    assert openmmcoordination.toPlumed(force, label) == line
    again = openmmcoordination.fromPlumed(openmmcoordination.toPlumed(force, label))
    assert mm.XmlSerializer.serialize(again) == mm.XmlSerializer.serialize(force)


def test_a_q6_vector_takes_plumed_2_10_functions_as_reductions():
    read = openmmcoordination.fromPlumedFile("q6: Q6 SPECIES=1-20 R_0=0.3\nm: MEAN ARG=q6\n"
                                            "mt: MORE_THAN ARG=q6 SWITCH={RATIONAL R_0=0.5}\ns: SUM ARG=mt\n")
    force = read.forces["q6"]
    assert [force.getCollectiveVariableName(i) for i in range(force.getNumCollectiveVariables())] == ["m", "s"]
    assert read.skipped == []


@pytest.mark.parametrize("text, message", [
    ("Q6 SPECIES=1-4 R_0=1 VMEAN={x}", "VMEAN is a flag"),
    ("Q6 SPECIES=1-4 R_0=1 R_POWER=2", "R_POWER"),
    ("Q6 SPECIESA=1-4 R_0=1", "SPECIESA needs SPECIESB"),
    ("Q6 SPECIES=1-4 R_0=1 MASK=m", "MASK is not supported"),
])
def test_q_l_lines_plumed_cannot_mean_or_we_do_not_read_are_refused(text, message):
    with pytest.raises(mm.OpenMMException, match=message):
        openmmcoordination.fromPlumed(text)


def test_to_plumed_refuses_a_degree_plumed_has_no_action_for():
    for degree in (2, 5, 7, 12):
        with pytest.raises(mm.OpenMMException, match=f"of degree {degree}: PLUMED's Steinhardt actions are Q1, Q3, "
                                                     f"Q4 and Q6 .*it has no Q{degree}"):
            openmmcoordination.toPlumed(steinhardt(degree, range(4), reductions=[SteinhardtForce.Mean]))


#: Every seed on the Reference platform; on the others the first four (Self and Dual, periodic or not).
RANDOM_SYSTEM_CASES = [pytest.param(case, seed, id=f"{case.id}-{seed}")
                       for case in [REFERENCE] + [case for case in PLATFORM_CASES if case != REFERENCE]
                       for seed in (range(12) if case == REFERENCE else range(4))]


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case, seed", RANDOM_SYSTEM_CASES)
def test_random_systems_of_every_degree_match_the_long_double_brute_force(case, seed):
    """Q_l(i) and the reductions of random settings (degree 1 to 12, Self or Dual with overlapping groups, periodic
    or not, r0, d0, n, m, a cutoff with or without stretch) against steinhardt_reference, in long double; an atom
    without neighbours is 0 here where the brute force (PLUMED) gives NaN."""
    case = require_case(case)
    random = np.random.default_rng(seed)
    degree = int(random.integers(1, SteinhardtForce.MaxDegree + 1))
    count, box = 30, 1.8
    positions = random.uniform(0, box, (count, 3))
    positions[-1] = positions[0] + [0.6, 0.0, 0.0] if seed % 3 else positions[-1]
    periodic = bool(seed % 2)
    r0, d0 = random.uniform(0.1, 0.3), random.choice([0.0, random.uniform(0.0, 0.1)])
    n = int(random.integers(2, 9))
    m = int(random.choice([0, n + random.integers(1, 6)]))
    dmax, stretch = random.uniform(0.5, 0.85), bool(random.integers(2))
    group_a = sorted(random.choice(count, 12, replace=False).tolist())
    group_b = sorted(random.choice(count, 20, replace=False).tolist()) if seed % 4 >= 2 else []
    force = steinhardt(degree, group_a, group_b, energy="0", periodic=periodic, r0=r0, d0=d0, n=n, m=m, dmax=dmax,
                       reductions=[SteinhardtForce.Mean, SteinhardtForce.Lowest, SteinhardtForce.Highest,
                                   (SteinhardtForce.MoreThan, "RATIONAL R_0=0.5 D_MAX=2")])
    settings = force.getSwitchingSettings()
    settings.setStretch(stretch)
    force.setSwitchingSettings(settings)
    box_vectors = np.diag([box] * 3) if periodic else None
    context = context_of(force, positions, box_vectors, case)
    values = np.array(force.getOrderParameters(context))
    switch = oracle.Rational(r0, d0, n, m, dmax, stretch)
    expected = oracle.steinhardt(positions, degree, switch, group_a, group_b or None,
                                 [box] * 3 if periodic else None)
    lone = np.isnan(expected)
    assert np.all(values[lone] == 0.0)
    expected = np.where(lone, 0.0, expected).astype(float)
    more_than = float(oracle.more_than(oracle.ld(expected), oracle.Rational(0.5, 0.0, 6, 0, 2.0, True)))
    reductions = [expected.mean(), expected.min(), expected.max(), more_than]
    if case == REFERENCE:
        np.testing.assert_allclose(values, expected, rtol=1e-11, atol=1e-13, err_msg=f"seed {seed}, l = {degree}")
        np.testing.assert_allclose(force.getCollectiveVariableValues(context), reductions, rtol=1e-11, atol=1e-13)
    else:
        assert_close(values, expected, case, what=f"Q_l, seed {seed}, l = {degree}")
        assert_close(force.getCollectiveVariableValues(context), reductions, case, what="reductions")


#: Forces of four settings (l = 6 Self, l = 3 Dual with B containing A, l = 12 Dual overlapping, l = 5 Self: an odd
#: degree's neighbour terms change sign), with energies of several reductions.
FORCE_SETTINGS = [
    (6, dict(group_a=range(24)), "10*(mean-0.3)^2+lowest", [SteinhardtForce.Mean, SteinhardtForce.Lowest]),
    (3, dict(group_a=range(0, 24, 2), group_b=range(24)), "morethan+2*sum",
     [(SteinhardtForce.MoreThan, "RATIONAL R_0=0.4"), SteinhardtForce.Sum]),
    (12, dict(group_a=range(10), group_b=range(5, 24)), "max", [(SteinhardtForce.Max, "BETA=0.1")]),
    (5, dict(group_a=range(1, 24)), "3*highest-sum", [SteinhardtForce.Highest, SteinhardtForce.Sum]),
]


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_the_forces_are_minus_the_gradient_of_the_energy(case):
    case = require_case(case)
    box = 2.2
    box_vectors = np.diag([box] * 3)
    positions = random_positions(24, box, seed=3)
    for degree, groups, energy, reductions in FORCE_SETTINGS:
        force = steinhardt(degree, energy=energy, reductions=reductions, r0=0.25, d0=0.1, n=6, m=12, dmax=0.9,
                           **groups)
        context = context_of(force, positions, box_vectors, case)
        energy_value, forces = energy_and_forces(context)
        assert np.isfinite(energy_value) and energy_value != 0.0
        expected = finite_difference_forces(context, positions, step=1e-5)
        scale = np.abs(expected).max()
        assert scale > 0
        np.testing.assert_allclose(forces, expected, rtol=0, atol=2e-6 * scale, err_msg=f"l = {degree}, {energy}")


@pytest.mark.parametrize("case", ALL_CASES)
def test_energies_and_forces_are_the_reference_platforms_in_every_precision(case):
    case = require_case(case)
    box = 2.2
    box_vectors = np.diag([box] * 3)
    positions = random_positions(24, box, seed=3)
    for degree, groups, energy, reductions in FORCE_SETTINGS:
        force = steinhardt(degree, energy=energy, reductions=reductions, r0=0.25, d0=0.1, n=6, m=12, dmax=0.9,
                           **groups)
        expected_energy, expected_forces = energy_and_forces(context_of(copy.copy(force), positions, box_vectors))
        energy_value, forces = energy_and_forces(context_of(force, positions, box_vectors, case))
        assert_close(energy_value, expected_energy, case, what=f"energy, l = {degree}")
        assert_forces_close(forces, expected_forces, case, what=f"forces, l = {degree}")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
@pytest.mark.parametrize("mode", ["Self", "Dual"])
def test_a_thousand_atoms_match_the_reference_platform(case, mode):
    """Enough atoms for the platforms' cell grids and neighbour lists (and, on the CPU, several threads' buffers)."""
    case = require_case(case)
    random = np.random.default_rng(17)
    box = 3.0
    positions = random.uniform(0, box, (1000, 3))
    groups = dict(group_a=range(1000)) if mode == "Self" else dict(group_a=range(0, 1000, 3), group_b=range(200, 1000))
    force = steinhardt(6, energy="10*(mean-0.5)^2+morethan", reductions=[
        SteinhardtForce.Mean, (SteinhardtForce.MoreThan, "RATIONAL R_0=0.5")], r0=0.3, d0=0.0, n=6, m=12, dmax=0.7,
        **groups)
    reference = copy.copy(force)
    expected_context = context_of(reference, positions, np.diag([box] * 3))
    context = context_of(force, positions, np.diag([box] * 3), case)
    assert_close(force.getOrderParameters(context), reference.getOrderParameters(expected_context), case,
                 what="Q6 of each atom")
    expected_energy, expected_forces = energy_and_forces(expected_context)
    energy_value, forces = energy_and_forces(context)
    assert_close(energy_value, expected_energy, case, what="energy")
    assert_forces_close(forces, expected_forces, case)


@pytest.mark.parametrize("case", ALL_CASES)
def test_an_atom_without_neighbours_has_q_0_and_no_force(case):
    case = require_case(case)
    # Atoms 0-2 are a cluster; atom 3 is alone beyond the cutoff (PLUMED would give it 0/0).
    positions = [[0, 0, 0], [0.3, 0, 0], [0, 0.25, 0.1], [5, 5, 5]]
    force = steinhardt(6, range(4), energy="(sum-1)^2", reductions=[SteinhardtForce.Sum], r0=0.3, d0=0.0, n=6,
                       m=12, dmax=1.0, periodic=False)
    context = context_of(force, positions, case=case)
    values = force.getOrderParameters(context)
    assert values[3] == 0.0 and all(0 < value <= 1 for value in values[:3])
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value)
    assert np.all(forces[3] == 0.0)
    expected = energy_and_forces(context_of(copy.copy(force), positions))[1]
    assert_forces_close(forces, expected, case)
    if case.double:
        np.testing.assert_allclose(forces, finite_difference_forces(context, np.array(positions, float)), atol=1e-6)


@pytest.mark.parametrize("case", ALL_CASES)
def test_a_vanishing_vector_gives_0_and_finite_forces(case):
    case = require_case(case)
    # Two neighbours opposite each other: every q_lm of odd l cancels (Y_lm(-d) = -Y_lm(d)), so Q_1 of atom 0 is 0.
    positions = [[0, 0, 0], [0.3, 0.1, 0], [-0.3, -0.1, 0], [0.2, 0.9, 0.3]]
    force = steinhardt(1, [0], range(4), energy="q", reductions=[(SteinhardtForce.Sum, "", "q")], r0=0.3, d0=0.0,
                       n=6, m=12, dmax=1.0, periodic=False)
    moved = np.array(positions, float)
    moved[3] = [5, 5, 5]  # the fourth atom out of range: only the opposite pair remains
    context = context_of(force, moved, case=case)
    assert force.getOrderParameters(context)[0] == pytest.approx(0.0, abs=1e-15 if case.double else 1e-6)
    energy_value, forces = energy_and_forces(context)
    assert np.isfinite(energy_value) and np.all(np.isfinite(forces))


def test_one_neighbour_gives_the_norm_of_the_harmonics_at_every_degree():
    # One neighbour: q_lm = sigma Y_lm(d), so Q_l = sqrt(sum_m |Y_lm|^2) = sqrt((2l+1)/(4 pi)) for every l and d.
    for degree in range(1, SteinhardtForce.MaxDegree + 1):
        for d in ([0.2, 0, 0], [0, 0, -0.35], [0.1, -0.2, 0.15]):
            force = steinhardt(degree, [0], [1], r0=0.3, d0=0.0, n=6, m=12, dmax=1.0, periodic=False)
            value = force.getOrderParameters(context_of(force, [[0, 0, 0], d]))[0]
            assert value == pytest.approx(np.sqrt((2 * degree + 1) / (4 * np.pi)), rel=1e-14)


@pytest.mark.parametrize("case", DOUBLE_CASES)
def test_energy_is_conserved_in_a_short_nve_run(case):
    case = require_case(case)
    energies, _, bias = short_nve_run(steinhardt(6, range(20), energy="500*(mean-0.6)^2",
                                                 reductions=[SteinhardtForce.Mean], r0=0.3, d0=0.0, n=6, m=12,
                                                 dmax=0.7), case)
    assert np.isfinite(bias)
    assert np.ptp(energies) < 1e-3 * max(1.0, np.abs(energies).max()), energies


def test_settings_round_trip_through_xml_copy_and_pickle():
    force = steinhardt(4, [0, 1, 2], [1, 2, 3], energy="k*mean", reductions=[SteinhardtForce.Mean,
                       (SteinhardtForce.Moment, "2")])
    force.addGlobalParameter("k", 2.5)
    for duplicate in (pickle.loads(pickle.dumps(force)), copy.copy(force), copy.deepcopy(force),
                      SteinhardtForce.cast(mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(force)))):
        assert isinstance(duplicate, SteinhardtForce)
        assert duplicate.getDegree() == 4 and list(duplicate.getGroupB()) == [1, 2, 3]
        assert [duplicate.getCollectiveVariableName(i) for i in range(2)] == ["mean", "moment_2"]
        assert mm.XmlSerializer.serialize(duplicate) == mm.XmlSerializer.serialize(force)


def test_class_tree_cast_and_isinstance():
    force = SteinhardtForce()
    assert force.getDegree() == 6 and force.getEnergyFunction() == "0"
    assert PerAtomForce.isinstance(force) and SteinhardtForce.isinstance(force)
    assert not CoordinationNumberForce.isinstance(force)
    assert PerAtomForce.isinstance(CoordinationNumberForce())
    with pytest.raises(mm.OpenMMException, match="not a CoordinationNumberForce"):
        CoordinationNumberForce.cast(force)
    # The reduction types are PerAtomForce's, reached through either class.
    assert SteinhardtForce.Mean == CoordinationNumberForce.Mean == PerAtomForce.Mean


@pytest.mark.parametrize("setting, message", [
    (lambda f: f.setDegree(0), "the degree l must be an integer from 1 to 12"),
    (lambda f: f.setDegree(13), "the degree l must be an integer from 1 to 12"),
    (lambda f: f.setMode(SteinhardtForce.Pair), "SteinhardtForce: Pair mode has no per-atom order parameters"),
    (lambda f: f.addReduction(SteinhardtForce.Min, "BETA=0"), r'SteinhardtForce: reduction "min" \(Min "BETA=0"\)'),
    (lambda f: f.setEnergyFunction("mean+"), "SteinhardtForce"),
])
def test_bad_settings_are_refused_with_what_to_fix(setting, message):
    force = steinhardt(6, range(3), reductions=[SteinhardtForce.Mean])
    setting(force)
    if force.getMode() == SteinhardtForce.Pair:
        force.setGroupB([0, 1, 2])
    with pytest.raises(mm.OpenMMException, match=message):
        context_of(force, [[0, 0, 0], [0.3, 0, 0], [0, 0.3, 0]], np.diag([3.0] * 3))


def test_python_arguments_follow_openmms_conventions():
    with pytest.raises(TypeError, match="degree must be an integer"):
        SteinhardtForce(6.0)
    force = SteinhardtForce(np.int64(4), "0")
    assert force.getDegree() == 4
    force.setDegree(np.int32(3))
    assert force.getDegree() == 3
    assert "Q_l" in SteinhardtForce.__doc__ and "Q_l(i)" in SteinhardtForce.getOrderParameters.__doc__


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", ALL_CASES)
def test_inside_a_custom_cv_force_and_with_updated_parameters(case):
    case = require_case(case)
    positions = random_positions(12, 1.5, seed=5)
    box_vectors = np.diag([1.5] * 3)
    # In a CustomCVForce the variable is the inner force's energy: here its mean.
    inner = steinhardt(6, range(12), energy="mean", reductions=[SteinhardtForce.Mean], r0=0.3, d0=0.0, n=6, m=12,
                       dmax=0.7)
    cv = mm.CustomCVForce("3*q")
    cv.addCollectiveVariable("q", inner)
    context = context_of(cv, positions, box_vectors, case)
    direct = steinhardt(6, range(12), reductions=[SteinhardtForce.Mean], r0=0.3, d0=0.0, n=6, m=12, dmax=0.7)
    direct_context = context_of(direct, positions, box_vectors, case)
    reference = copy.copy(direct)
    mean = reference.getCollectiveVariableValues(context_of(reference, positions, box_vectors))[0]
    assert mean > 0.1
    assert_close(energy_only(context), 3 * mean, case, what="energy of the CustomCVForce")
    assert_close(inner.getCollectiveVariableValues(context)[0], mean, case, what="mean inside the CustomCVForce")
    # A new degree takes effect through updateParametersInContext.
    direct.setDegree(4)
    direct.updateParametersInContext(direct_context)
    fresh = steinhardt(4, range(12), reductions=[SteinhardtForce.Mean], r0=0.3, d0=0.0, n=6, m=12, dmax=0.7)
    assert_close(direct.getCollectiveVariableValues(direct_context)[0],
                 fresh.getCollectiveVariableValues(context_of(fresh, positions, box_vectors))[0], case,
                 what="mean after the update")


def test_a_system_with_it_runs_on_the_fastest_platform_that_has_its_kernel():
    force = steinhardt(6, range(3), reductions=[SteinhardtForce.Mean])
    platforms = [mm.Platform.getPlatform(i) for i in range(mm.Platform.getNumPlatforms())]
    having = [platform for platform in platforms if platform.supportsKernels(["CalcSteinhardtForce"])]
    # (a GPU platform has it where this plugin's kernels for it are installed)
    assert "Reference" in {platform.getName() for platform in having}
    assert {platform.getName() for platform in having} <= set(STEINHARDT_PLATFORMS)
    try:
        context = mm.Context(make_system(3, [force], np.diag([3.0] * 3)), mm.VerletIntegrator(0.001))
    except mm.OpenMMException as error:  # the fastest platform may not start here (no device)
        pytest.skip(f"the default platform cannot create a Context here: {error}")
    assert context.getPlatform().getName() == max(having, key=lambda platform: platform.getSpeed()).getName()


@pytest.mark.parametrize("lattice, basis, shell, literature", [
    # Steinhardt, Nelson and Ronchetti (1983), and Lechner and Dellago (2008): the first shell of each lattice.
    ("fcc", [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]], (0.3, 0.35), {4: 0.19094, 6: 0.57452}),
    ("bcc", [[0, 0, 0], [0.5, 0.5, 0.5]], (0.46, 0.5), {4: 0.03637, 6: 0.51069}),
    ("sc", [[0, 0, 0]], (0.41, 0.5), {4: 0.76376, 6: 0.35355}),
])
def test_perfect_lattices_have_the_literature_values_in_plumeds_normalisation(lattice, basis, shell, literature):
    """Steinhardt's Q_l of a lattice's first shell, times sqrt((2l+1)/4pi): PLUMED's Q_l has no 4pi/(2l+1) factor."""
    # bcc: its 14 neighbours (8 at 0.39 nm, 6 at 0.45 nm), the shell of the literature values; the next is at 0.64 nm.
    cells, a = 3, 0.4 if lattice != "bcc" else 0.45
    positions = np.array([(np.array(cell) + b) * a for cell in np.ndindex(cells, cells, cells) for b in np.array(basis)])
    box_vectors = np.eye(3) * cells * a
    for degree, value in literature.items():
        force = steinhardt(degree, range(len(positions)), reductions=[SteinhardtForce.Mean, SteinhardtForce.Highest,
                                                                        SteinhardtForce.Lowest], r0=0.01, d0=shell[0],
                           n=6, m=12, dmax=shell[1])
        mean, highest, lowest = force.getCollectiveVariableValues(context_of(force, positions, box_vectors))
        assert mean == pytest.approx(value * np.sqrt((2 * degree + 1) / (4 * np.pi)), abs=1e-5), (lattice, degree)
        assert highest - lowest < 1e-12
