"""Rules the GPU platforms (CUDA, OpenCL: one common kernel) keep beyond the shared suite.

Every test runs on each selected GPU case (coordination_testing.GPU_CASES: OpenCL and CUDA in single,
mixed and double precision where registered, or as COORDINATION_TEST_PLATFORMS says) and skips with a
reason when none is selected. Numbers are compared with the Reference platform at the same positions,
within the tolerance of the case's precision (coordination_testing.Tolerance).

- determinism: the same positions give bit for bit the same s, energy and forces, every time and in
  a second Context;
- atom reordering: after dynamics long enough for OpenMM to reorder and wrap atoms, the groups still
  name the user's particles, and forces without PBC see unwrapped distances (also after their PBC flag
  is switched off by updateParametersInContext or before Context.reinitialize(preserveState=True));
- culled tiles: with a cutoff the kernel sorts the slots spatially and skips pairs of 32-slot tiles whose
  bounding boxes are beyond it; it still counts every pair within the cutoff (rectangular, triclinic
  and no PBC; after the atoms moved far from the sorted order; after a re-sort; atoms listed twice);
- accuracy at size: 2e8 pairs without cutoff, 4e7 with one (COORDINATION_LARGE_TESTS=1 adds 5e9);
- the switching function on a dense grid of distances, including its special points;
- several devices (COORDINATION_TEST_DEVICE_INDEX, e.g. "0,0" or "0,1");
- updateParametersInContext of groups (and their sizes), mode, switching parameters and PBC flag.
"""
import functools
import os

import numpy as np
import openmm as mm
import openmm.unit as unit
import pytest

from coordination_testing import (
    GPU_CASES,
    INFINITY,
    NEAR_ONE_BAND,
    REFERENCE,
    assert_close,
    assert_forces_close,
    case_matrix,
    coordination_force,
    energy_and_forces,
    energy_only,
    make_context,
    make_system,
    scalar_tolerance,
    set_frame,
)
from openmmcoordination import CoordinationForce

DEVICE_INDEX_VARIABLE = "COORDINATION_TEST_DEVICE_INDEX"
LARGE_TESTS_VARIABLE = "COORDINATION_LARGE_TESTS"


def evaluate(context, force, groups=-1):
    """(s, energy, forces) of a context; energy and forces of the given force groups."""
    energy, forces = energy_and_forces(context, groups)
    return force.getCoordination(context), energy, forces


def assert_matches(ours, reference, case, what):
    """(s, energy, forces) within the case's tolerance of the Reference platform's."""
    assert_close(ours[0], reference[0], case, what=f"{what}: s")
    assert_close(ours[1], reference[1], case, what=f"{what}: energy")
    assert_forces_close(ours[2], reference[2], case, what=f"{what}: forces")


# ---------------------------------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------------------------------

DETERMINISM_ATOMS = 700
DETERMINISM_BOX = 2.4  # nm: ~50 atoms/nm^3, every atom has neighbours inside the cutoff
#: mode -> (group A, group B): several 32x32 tiles and thread blocks, groups not in index order.
_order = np.random.default_rng(17).permutation(DETERMINISM_ATOMS)
DETERMINISM_GROUPS = {
    "Self": (CoordinationForce.Self, _order[:600], []),
    "Dual": (CoordinationForce.Dual, _order[:250], _order[250:650]),
    "Pair": (CoordinationForce.Pair, _order[:300], _order[300:600]),
}


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case,mode", case_matrix(GPU_CASES, DETERMINISM_GROUPS))
def test_same_positions_give_bitwise_identical_results(case, mode):
    mode_value, group_a, group_b = DETERMINISM_GROUPS[mode]
    force = coordination_force(mode_value, group_a, group_b, energy="0.5*k*(s-s0)^2 + sin(s)",
                               parameters=[("k", 3.0), ("s0", 10.0)], r0=0.25, dmax=1.0)
    box = np.eye(3) * DETERMINISM_BOX
    system = make_system(DETERMINISM_ATOMS, [force], box)
    rng = np.random.default_rng(23)
    positions = rng.uniform(0, DETERMINISM_BOX, size=(DETERMINISM_ATOMS, 3))
    elsewhere = rng.uniform(0, DETERMINISM_BOX, size=(DETERMINISM_ATOMS, 3))
    results = []
    for _ in range(2):  # two Contexts
        context = make_context(system, case)
        for _ in range(3):
            set_frame(context, positions, box)
            results.append(evaluate(context, force))
            energy_only(context)  # an evaluation without forces in between
            set_frame(context, elsewhere, box)  # and one at other positions
            energy_and_forces(context)
    first = results[0]
    assert first[0] > 1 and np.abs(first[2]).max() > 0, "the system has pairs inside the cutoff"
    for number, result in enumerate(results[1:], start=2):
        assert result[0] == first[0], f"evaluation {number}: s {result[0]!r} != {first[0]!r}"
        assert result[1] == first[1], f"evaluation {number}: energy {result[1]!r} != {first[1]!r}"
        np.testing.assert_array_equal(result[2], first[2], err_msg=f"evaluation {number}: forces")
    reference = make_context(system, REFERENCE)
    set_frame(reference, positions, box)
    assert_matches(first, evaluate(reference, force), case, "vs the Reference platform")


# ---------------------------------------------------------------------------------------------------
# Culled tiles (a cutoff much shorter than the system)
# ---------------------------------------------------------------------------------------------------

CULL_EVALUATIONS = 110  # more than the kernel's re-sort interval (100 evaluations)
#: name -> (mode, slices of a permutation of the atoms for group A and group B, box kind)
CULL_SETTINGS = {
    "Self rectangular": (CoordinationForce.Self, [(0, 7000)], [], "rectangular"),
    "Self triclinic": (CoordinationForce.Self, [(0, 7000)], [], "triclinic"),
    "Self no PBC": (CoordinationForce.Self, [(0, 7000)], [], None),
    "Self atoms listed twice": (CoordinationForce.Self, [(0, 5000), (3000, 5000)], [], "rectangular"),
    "Dual rectangular": (CoordinationForce.Dual, [(0, 2000)], [(2000, 7500)], "rectangular"),
    "Dual no PBC": (CoordinationForce.Dual, [(0, 3000)], [(3000, 7500)], None),
    "Dual overlapping groups": (CoordinationForce.Dual, [(0, 4000)], [(3000, 7500)], "rectangular"),
}


def cull_system(case, name):
    """(force, system, box, number of atoms) of a CULL_SETTINGS entry at 12 atoms/nm^3, dmax = 0.8 nm.

    The kernel culls only when there are more pairs of 32-slot tiles than one pass of the device's warps:
    on CUDA the full 8,000-atom system (> 8,000 tile pairs); OpenCL on a CPU (PoCL, CI) culls far smaller
    groups, so there the slices shrink to 3/16 (1,500 atoms) to keep the test quick.
    """
    mode, slices_a, slices_b, kind = CULL_SETTINGS[name]
    scale = 1.0 if case.platform == "CUDA" else 3 / 16
    atoms = int(8000 * scale)
    order = np.random.default_rng(29).permutation(atoms)
    pick = lambda slices: np.concatenate([order[int(a * scale):int(b * scale)] for a, b in slices] + [[]]).astype(int)
    edge = (atoms / 12.0) ** (1 / 3)
    box = None
    if kind is not None:
        box = np.eye(3) * edge
        if kind == "triclinic":
            box[1] = [0.24 * edge, edge, 0.0]
            box[2] = [-0.22 * edge, 0.34 * edge, edge]
    force = coordination_force(mode, pick(slices_a), pick(slices_b), energy="0.5*k*(s-s0)^2",
                               parameters=[("k", 0.01), ("s0", 50.0)], periodic=box is not None, r0=0.3, dmax=0.8)
    return force, make_system(atoms, [force], box), box, atoms, edge


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case,name", case_matrix(GPU_CASES, CULL_SETTINGS))
def test_culled_tiles_count_every_pair_within_the_cutoff(case, name):
    force, system, box, atoms, edge = cull_system(case, name)
    rng = np.random.default_rng(31)
    # Without PBC the atoms spread beyond one box edge, so that the cell offsets matter too.
    first = rng.uniform(0, edge if box is not None else 1.3 * edge, size=(atoms, 3))
    # Far moves: the sorted order no longer matches space; the bounding boxes must still hold.
    moved = first + rng.normal(0.0, 0.6, size=first.shape)
    context = make_context(system, case)
    reference = make_context(system, REFERENCE)
    for label, positions in (("first frame", first), ("after far moves", moved)):
        set_frame(context, positions, box)
        set_frame(reference, positions, box)
        expected = evaluate(reference, force)
        assert expected[0] > 20, "the system has pairs inside the cutoff"
        assert_matches(evaluate(context, force), expected, case, f"{name}, {label}")
    for _ in range(CULL_EVALUATIONS):
        energy_only(context)
    assert_matches(evaluate(context, force), expected, case, f"{name}, after a re-sort")


#: The neighbour list's skin for dmax = 0.8 nm (the kernel's: 10 % of dmax, at least 0.05 nm); a list is
#: rebuilt once an atom has moved half of it.
LIST_SKIN = 0.08


def pairs_near_distance(positions, rows, columns, distance, margin, edge):
    """(row atoms, column atoms, separations row - column) of the pairs of rows x columns whose distance is
    within margin of `distance` (minimum image in a cubic box of the given edge, or none). A grid of cells
    at least distance + margin wide, so that only the 27 neighbouring cells are searched."""
    rows, columns = np.asarray(rows), np.asarray(columns)
    origin = positions[np.concatenate([rows, columns])].min(axis=0)
    span = None if edge is None else edge
    width = distance + margin
    if span is not None:
        cells = max(1, int(span // width))
        width = span / cells
    def cell_of(atoms):
        coordinates = np.floor((positions[atoms] - (0.0 if span is not None else origin)) / width).astype(np.int64)
        return np.mod(coordinates, cells) if span is not None else coordinates
    row_cells, column_cells = cell_of(rows), cell_of(columns)
    scale = (cells if span is not None else int(column_cells.max()) + 3)
    key = lambda c: (c[:, 0] * scale + c[:, 1]) * scale + c[:, 2]
    order = np.argsort(key(column_cells), kind="stable")
    sorted_keys = key(column_cells)[order]
    found = []
    for offset in np.array([(i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]):
        neighbour = row_cells + offset
        if span is not None:
            neighbour = np.mod(neighbour, cells)
        keys = key(np.maximum(neighbour, 0))
        first = np.searchsorted(sorted_keys, keys, side="left")
        last = np.searchsorted(sorted_keys, keys, side="right")
        if span is None:
            last = np.where(np.any(neighbour < 0, axis=1), first, last)
        counts = last - first
        row_index = np.repeat(np.arange(len(rows)), counts)
        column_index = order[np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())]
        found.append((row_index, column_index))
    row_index = np.concatenate([f[0] for f in found])
    column_index = np.concatenate([f[1] for f in found])
    if span is not None and cells < 3:  # fewer than 3 cells: the offsets repeat cells
        unique = np.unique(np.stack([row_index, column_index]), axis=1)
        row_index, column_index = unique[0], unique[1]
    delta = positions[rows[row_index]] - positions[columns[column_index]]
    if span is not None:
        delta -= np.round(delta / span) * span
    length = np.sqrt((delta ** 2).sum(-1))
    near = np.abs(length - distance) < margin
    return rows[row_index[near]], columns[column_index[near]], delta[near]


def away_from_cutoff(positions, group_a, group_b, cutoff, edge, margin=1e-5):
    """positions, with one atom of any pair (Self: A x A, Dual: A x B) within margin of the cutoff moved by
    3 margins along the pair's separation, away from the cutoff: without stretch sigma jumps there, and
    single-precision rounding of such a pair's distance would decide whether it counts."""
    positions = positions.copy()
    others = group_b if group_b else group_a
    for _ in range(10):
        shifts = {}
        for row, other, delta in zip(*pairs_near_distance(positions, group_a, others, cutoff, margin, edge)):
            if group_b or row < other:  # Self lists each pair twice: move one atom
                length = np.sqrt(delta @ delta)
                shifts[int(row)] = (1.0 if length >= cutoff else -1.0) * 3 * margin * delta / length
        if not shifts:
            return positions
        for atom, shift in shifts.items():
            positions[atom] += shift
    raise AssertionError("could not move the pairs away from the cutoff")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case,name", case_matrix(GPU_CASES, ["Self rectangular", "Dual no PBC"]))
def test_neighbour_list_follows_small_moves(case, name):
    """Thirty small random steps (about half the half skin per atom and step): the list is kept
    for a few steps and rebuilt once some atom has moved half the skin. Every step must match the
    Reference platform. Without stretch and with r0 = 0.5 nm a pair at the cutoff still counts 0.056,
    so a pair that entered the cutoff after the list was built and is missing shows in s."""
    mode, slices_a, slices_b, kind = CULL_SETTINGS[name]
    # CUDA: 6,000 atoms, still culled on an H100 (Dual: 71 x 106 tile pairs); the numpy check of every
    # frame (away_from_cutoff) costs O(N^2).
    scale = 0.75 if case.platform == "CUDA" else 3 / 16
    atoms = int(8000 * scale)
    order = np.random.default_rng(43).permutation(atoms)
    pick = lambda slices: np.concatenate([order[int(a * scale):int(b * scale)] for a, b in slices] + [[]]).astype(int)
    edge = (atoms / 12.0) ** (1 / 3)
    box = np.eye(3) * edge if kind is not None else None
    force = coordination_force(mode, pick(slices_a), pick(slices_b), energy="0.5*k*(s-s0)^2",
                               parameters=[("k", 0.01), ("s0", 50.0)], periodic=box is not None, r0=0.5, dmax=0.8,
                               stretch=False)
    system = make_system(atoms, [force], box)
    context = make_context(system, case)
    reference = make_context(system, REFERENCE)
    rng = np.random.default_rng(47)
    positions = rng.uniform(0, edge, size=(atoms, 3))
    step = LIST_SKIN / 2 / 2 / np.sqrt(3)  # per coordinate: |step| ~ half the half skin
    group_a, group_b = list(force.getGroupA()), list(force.getGroupB())
    for number in range(30):
        positions = away_from_cutoff(positions, group_a, group_b, 0.8, edge if box is not None else None)
        set_frame(context, positions, box)
        set_frame(reference, positions, box)
        assert_matches(evaluate(context, force), evaluate(reference, force), case, f"{name}, step {number}")
        positions = positions + rng.normal(0.0, step, size=positions.shape)


def count_pairs_within(positions, atoms, cutoff, edge):
    """Self pairs of the atoms within the cutoff (minimum image in a cubic box), by cells of the cutoff."""
    found = pairs_near_distance(positions, atoms, atoms, cutoff / 2, cutoff / 2, edge)[0]
    return len(found) // 2  # each pair of distinct atoms is found from both ends (and no atom with itself)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
def test_neighbour_list_holds_every_pair_within_its_cutoff_and_few_beyond(case):
    """Self over a random box at water density (100 atoms/nm^3), dmax = 0.8 nm: the tile kernel's candidate
    pairs (getNumCandidatePairsInContext: Self's diagonal tiles and the list's chunks) include every pair
    within the list's cutoff (dmax + the 0.08 nm skin), and at least 22 % of them are within dmax. Counted on
    OpenCL (4,000 and 20,000 atoms): 13 % with row tiles in Morton order and column atoms tested against the row
    tile's box, 18 % in Hilbert order, 23 % in Morton order with the per-atom test, 25 % with both (the kernel)."""
    atoms = 20000 if case.platform == "CUDA" else 4000
    edge = (atoms / 100.0) ** (1 / 3)
    box = np.eye(3) * edge
    force = coordination_force(CoordinationForce.Self, range(atoms), periodic=True, r0=0.3, dmax=0.8)
    context = make_context(make_system(atoms, [force], box), case)
    positions = np.random.default_rng(59).uniform(0, edge, size=(atoms, 3))
    set_frame(context, positions, box)
    candidates = force.getNumCandidatePairsInContext(context)
    listed_at_least = count_pairs_within(positions, np.arange(atoms), 0.8 + LIST_SKIN - 1e-4, edge)
    within = count_pairs_within(positions, np.arange(atoms), 0.8, edge)
    assert candidates >= listed_at_least, f"{candidates} candidates, {listed_at_least} pairs within dmax + skin"
    assert within >= 0.22 * candidates, f"list efficiency {within / candidates:.3f} ({within} of {candidates})"


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
def test_unbalanced_dual_lists_the_larger_group_as_rows(case):
    """Dual of a small group spread over a large one (1 atom in 200 against the rest, water density,
    dmax = 1 nm): the kernel makes the larger group the row tiles whichever group the user calls A, so both
    orders have the same candidate pairs (small-group rows: 32-atom tiles spread over the box list nearly
    all of the other group; counted on OpenCL, 100 x 19,900 atoms: 823,488 candidates, 140,116 with the larger
    group as rows), and s matches the Reference platform in both."""
    atoms = 80000 if case.platform == "CUDA" else 20000  # culled on an H100 too (7 x 2,500 tile pairs)
    edge = (atoms / 100.0) ** (1 / 3)
    box = np.eye(3) * edge
    positions = np.random.default_rng(61).uniform(0, edge, size=(atoms, 3))
    small = list(range(0, atoms, 200))
    large = [atom for atom in range(atoms) if atom % 200]
    candidates = []
    for group_a, group_b in ((small, large), (large, small)):
        force = coordination_force(CoordinationForce.Dual, group_a, group_b, periodic=True, r0=0.3, dmax=1.0)
        system = make_system(atoms, [force], box)
        context = make_context(system, case)
        reference = make_context(system, REFERENCE)
        set_frame(context, positions, box)
        set_frame(reference, positions, box)
        candidates.append(force.getNumCandidatePairsInContext(context))
        assert_matches(evaluate(context, force), evaluate(reference, force), case, f"A of {len(group_a)} atoms")
    assert candidates[0] == candidates[1]
    assert candidates[0] < 0.2 * len(small) * len(large), f"{candidates[0]} candidates of {len(small) * len(large)} pairs"


@pytest.mark.parametrize("case", GPU_CASES)
def test_dual_pairs_half_a_box_apart_take_the_reference_image_in_either_order(case):
    """A 4 x 4 x 4 lattice of 0.5 nm in a 2 nm box with dmax = 1.2 nm: pairs exactly half a box apart count,
    and their minimum image is a tie. With 16 atoms in A and 48 in B the kernel makes B the row group; the
    ties must still take the Reference platform's image (its force sign), as with the groups the other way."""
    edge = 2.0
    grid = np.arange(4) * 0.5
    positions = np.array([(x, y, z) for x in grid for y in grid for z in grid])
    box = np.eye(3) * edge
    small, large = list(range(0, 64, 4)), [atom for atom in range(64) if atom % 4]
    for group_a, group_b in ((small, large), (large, small)):
        force = coordination_force(CoordinationForce.Dual, group_a, group_b, periodic=True, r0=0.4, dmax=1.2)
        system = make_system(64, [force], box)
        context = make_context(system, case)
        reference = make_context(system, REFERENCE)
        set_frame(context, positions, box)
        set_frame(reference, positions, box)
        assert_matches(evaluate(context, force), evaluate(reference, force), case, f"A of {len(group_a)} atoms")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
def test_candidate_pairs_after_the_list_overflowed(case):
    """The atoms crowd together between two re-sorts, so the list's next build needs more room than it has:
    getNumCandidatePairsInContext grows it and counts it (at least every pair within dmax), and s still
    matches the Reference platform."""
    atoms, edge = 4000, 10.0
    box = np.eye(3) * edge
    force = coordination_force(CoordinationForce.Self, range(atoms), periodic=True, r0=0.3, dmax=1.0)
    system = make_system(atoms, [force], box)
    context = make_context(system, case)
    positions = np.random.default_rng(67).uniform(0, edge, size=(atoms, 3))
    set_frame(context, positions, box)
    spread = force.getNumCandidatePairsInContext(context)
    for _ in range(5):
        force.getCoordination(context)
    crowded = 0.4 * positions
    set_frame(context, crowded, box)
    candidates = force.getNumCandidatePairsInContext(context)
    within = count_pairs_within(crowded, np.arange(atoms), 1.0, edge)
    assert candidates > spread and candidates >= within, f"{candidates} candidates, {within} pairs within dmax"
    reference = make_context(system, REFERENCE)
    set_frame(reference, crowded, box)
    assert_matches(evaluate(context, force), evaluate(reference, force), case, "crowded")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
def test_neighbour_list_grows_when_it_overflows(case):
    """A dense system with a long cutoff needs far more list room than the kernel's first guess (8 chunks of
    32 atoms per row tile): the first evaluations run without the list, the host grows it after reading
    the size the build needed, and every evaluation, before and after, matches the Reference platform."""
    atoms = 8000 if case.platform == "CUDA" else 1500
    edge = (atoms / 30.0) ** (1 / 3)
    box = np.eye(3) * edge
    force = coordination_force(CoordinationForce.Self, range(atoms), periodic=True, r0=0.3, dmax=0.4 * edge)
    system = make_system(atoms, [force], box)
    context = make_context(system, case)
    reference = make_context(system, REFERENCE)
    positions = np.random.default_rng(53).uniform(0, edge, size=(atoms, 3))
    set_frame(context, positions, box)
    set_frame(reference, positions, box)
    expected = evaluate(reference, force)
    for number in range(4):
        assert_matches(evaluate(context, force), expected, case, f"evaluation {number + 1}")
    for _ in range(CULL_EVALUATIONS):
        energy_only(context)
    assert_matches(evaluate(context, force), expected, case, "after a re-sort")


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
def test_a_nan_position_in_a_culled_tile_reaches_s(case):
    """Dual: a small group A in one corner and a large group B filling a long box, so that most tiles of B
    are culled. One atom of a far tile of B becomes NaN after the slots were sorted: s must be NaN, as
    without culling (the tile's bounding box must not simply leave the NaN out)."""
    scale = 1.0 if case.platform == "CUDA" else 1 / 16
    num_b = int(256000 * scale)
    length = num_b / (12.0 * 4.0 * 4.0)  # a 4 nm x 4 nm bar at 12 atoms/nm^3
    rng = np.random.default_rng(37)
    positions_b = rng.uniform(0, 1, size=(num_b, 3)) * [length, 4.0, 4.0]
    positions_a = rng.uniform(0, 1.5, size=(64, 3))
    positions = np.concatenate([positions_a, positions_b])
    force = coordination_force(CoordinationForce.Dual, range(64), range(64, 64 + num_b), periodic=False, r0=0.3,
                               dmax=0.8)
    system = make_system(64 + num_b, [force])
    context = make_context(system, case)
    set_frame(context, positions)
    assert np.isfinite(force.getCoordination(context))  # sorts the slots
    far = 64 + int(np.argmax(positions_b[:, 0]))  # the far end of the bar, > 100 nm from group A
    positions[far] = np.nan
    set_frame(context, positions)
    assert np.isnan(force.getCoordination(context)), "a NaN position was culled away"


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
@pytest.mark.parametrize("culled", [False, True], ids=["all-tiles", "culled"])
def test_an_infinite_coordinate_gives_nan_and_no_force_as_on_the_reference_platform(case, culled):
    """An atom of the group at infinity (no periodicity, so every distance to it is beyond the cutoff): the
    configuration has no coordination number, so s and the energy are NaN and no force is applied, on the GPU as on
    the Reference platform; the next finite frame is right again."""
    num_atoms = 8000 if culled else 3000  # 8000: more tiles than the culling threshold
    edge = (num_atoms / 100.0) ** (1.0 / 3.0)
    positions = np.random.default_rng(5).uniform(0, edge, size=(num_atoms, 3))
    broken = positions.copy()
    broken[17] = [np.inf, 0.5 * edge, 0.5 * edge]
    force = coordination_force(CoordinationForce.Self, range(num_atoms), energy="0.5*(s-10)^2", periodic=False,
                               r0=0.3, dmax=0.8)
    system = make_system(num_atoms, [force])
    results = []
    for platform_case in (case, REFERENCE):
        context = make_context(system, platform_case)
        set_frame(context, broken)
        s, energy, forces = evaluate(context, force)
        assert np.isnan(s) and np.isnan(energy), f"{platform_case}: s {s}, energy {energy}"
        assert not np.any(forces), f"{platform_case}: forces applied with a NaN energy"
        set_frame(context, positions)
        results.append(evaluate(context, force))
    ours, reference = results
    assert_close(ours[0], reference[0], case, what="s")
    assert_forces_close(ours[2], reference[2], case, what="forces of the finite frame")


# ---------------------------------------------------------------------------------------------------
# Atom reordering
# ---------------------------------------------------------------------------------------------------

REORDER_ATOMS = 3000
REORDER_SPACING = 0.36  # nm: simple cubic start, 15 x 15 x 14 sites
REORDER_STEPS = 300  # OpenMM reorders atoms every 250 steps when a nonbonded force has a cutoff


def lattice_neighbours(atoms):
    """For each atom of the reordering lattice (site i + 15 j + 225 k), the atom on the next site along x."""
    atoms = np.asarray(atoms)
    return np.where(atoms % 15 < 14, atoms + 1, atoms - 1)


def reorder_system():
    """3000 Lennard-Jones atoms (group 0) and four CoordinationForces (groups 1-4) on scattered atoms; the
    fourth does not use periodic boundary conditions, so it must see the atoms unwrapped."""
    sites = np.array([(i, j, k) for k in range(14) for j in range(15) for i in range(15)])[:REORDER_ATOMS]
    box = np.diag([15, 15, 14]) * REORDER_SPACING
    # The lattice is shifted so that a third of the atoms start outside the box: OpenMM wraps them on the
    # device, and a force without PBC must still see the distances of the unwrapped coordinates.
    positions = (sites + 0.5) * REORDER_SPACING + np.array([1.8, -1.7, 1.6])
    lennard_jones = mm.NonbondedForce()
    lennard_jones.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
    lennard_jones.setCutoffDistance(1.0)
    for _ in range(REORDER_ATOMS):
        lennard_jones.addParticle(0.0, 0.32, 1.0)
    order = np.random.default_rng(29).permutation(REORDER_ATOMS)  # groups scattered through the indices
    forces = {
        1: coordination_force(CoordinationForce.Self, order[:300], energy="0.01*s", r0=0.4, dmax=1.2,
                              force_group=1),
        2: coordination_force(CoordinationForce.Dual, order[300:400], order[400:900], energy="0.5*k*(s-s0)^2",
                              parameters=[("k", 0.001), ("s0", 50.0)], r0=0.45, n=5, m=11, d0=0.05, dmax=1.4,
                              force_group=2),
        3: coordination_force(CoordinationForce.Pair, order[900:1100], lattice_neighbours(order[900:1100]),
                              energy="2*s", r0=0.5, dmax=INFINITY, force_group=3),
        4: coordination_force(CoordinationForce.Self, order[1300:1600], energy="0.05*s", r0=0.5, dmax=INFINITY,
                              periodic=False, force_group=4),
    }
    system = make_system(REORDER_ATOMS, [lennard_jones, *forces.values()], box)
    for atom in range(REORDER_ATOMS):
        system.setParticleMass(atom, 39.9)
    return system, forces, positions, box


#: (phase, what changes before it, steps): each phase ends comparing the GPU context's own state with a
#: Reference context at the positions the GPU context reports.
REORDER_PHASES = [
    ("1", "nothing", REORDER_STEPS),
    ("2", "force 1 switched to no PBC with updateParametersInContext", REORDER_STEPS),
    ("3a", "force 2 switched to no PBC, then Context.reinitialize(preserveState=True)", 0),
    ("3b", "nothing", REORDER_STEPS),
]


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
def test_groups_follow_atom_reordering_during_dynamics(case):
    # OpenMM reorders atoms on the device and wraps each molecule into the box (every 250 steps). A
    # force with PBC must follow the new order; a force without PBC must also see the unwrapped
    # distances, including after its PBC flag is switched off when its atoms were already wrapped.
    system, forces, positions, box = reorder_system()
    integrator = mm.LangevinMiddleIntegrator(120 * unit.kelvin, 5 / unit.picosecond, 0.004 * unit.picoseconds)
    integrator.setRandomNumberSeed(31)
    context = make_context(system, case, integrator)
    set_frame(context, positions, box)
    context.setVelocitiesToTemperature(120 * unit.kelvin, 37)
    failures = []
    for phase, change, steps in REORDER_PHASES:
        if phase == "2":
            forces[1].setUsesPeriodicBoundaryConditions(False)
            forces[1].updateParametersInContext(context)
        if phase == "3a":
            forces[2].setUsesPeriodicBoundaryConditions(False)
            context.reinitialize(preserveState=True)
        integrator.step(steps)
        state = context.getState(getPositions=True)
        moved = state.getPositions(asNumpy=True).value_in_unit(unit.nanometer)
        moved_box = state.getPeriodicBoxVectors(asNumpy=True).value_in_unit(unit.nanometer)
        assert np.all(np.isfinite(moved))
        assert np.sqrt(np.mean(np.sum((moved - positions) ** 2, axis=1))) > 0.1, "atoms moved"
        outside = (moved < 0) | (moved > np.diag(moved_box))
        assert outside.any(), "some atoms are outside the box (OpenMM wraps them on the device)"
        reference = make_context(system, REFERENCE)
        set_frame(reference, moved, moved_box)
        for group, force in forces.items():
            ours = evaluate(context, force, groups={group})
            assert ours[0] > 1.0, f"phase {phase}: force group {group} has pairs inside its cutoff"
            try:
                assert_matches(ours, evaluate(reference, force, groups={group}), case,
                               f"phase {phase} (before it: {change}), force group {group} "
                               f"({'PBC' if force.usesPeriodicBoundaryConditions() else 'no PBC'})")
            except AssertionError as error:
                failures.append(str(error).splitlines()[0])
    assert not failures, f"{len(failures)} comparisons failed: " + "; ".join(failures)


# ---------------------------------------------------------------------------------------------------
# Accuracy at size
# ---------------------------------------------------------------------------------------------------

DENSITY = 100.0  # atoms/nm^3

#: name -> (number of atoms, mode, size of group A (group B: all atoms), dmax, opt-in)
LARGE_SYSTEMS = {
    "self 20000 no cutoff (2e8 pairs)": (20000, CoordinationForce.Self, 20000, INFINITY, False),
    "dual 2000x20000 automatic cutoff (4e7 pairs)": (20000, CoordinationForce.Dual, 2000, 0.0, False),
    "self 100000 no cutoff (5e9 pairs)": (100000, CoordinationForce.Self, 100000, INFINITY, True),
}


def large_system(name):
    count, mode, size_a, dmax, _ = LARGE_SYSTEMS[name]
    length = (count / DENSITY) ** (1 / 3)
    rng = np.random.default_rng(41)
    positions = rng.uniform(0, length, size=(count, 3))
    if mode == CoordinationForce.Self:
        group_a, group_b = range(count), []
    else:
        group_a, group_b = rng.permutation(count)[:size_a], range(count)
    force = coordination_force(mode, group_a, group_b, energy="s", r0=0.3, dmax=dmax)
    box = np.eye(3) * length
    return make_system(count, [force], box), force, positions, box


@functools.lru_cache(maxsize=None)
def large_reference(name):
    """s and forces (E = s, so one evaluation gives both) from the Reference platform; shared by the cases."""
    system, force, positions, box = large_system(name)
    context = make_context(system, REFERENCE)
    set_frame(context, positions, box)
    energy, forces = energy_and_forces(context)
    return energy, forces


def large_params():
    large = os.environ.get(LARGE_TESTS_VARIABLE) == "1"
    params = []
    for param in case_matrix(GPU_CASES, LARGE_SYSTEMS):
        case, name = param.values
        if LARGE_SYSTEMS[name][4] and not large:
            marks = [pytest.mark.skip(reason=f"{name}: set {LARGE_TESTS_VARIABLE}=1 (practical on a real GPU; its "
                                             "Reference value takes minutes)")]
            params.append(pytest.param(case, name, id=param.id, marks=marks))
        else:
            params.append(param)
    return params


@pytest.mark.parametrize("case,name", large_params())
def test_accuracy_at_size_matches_the_reference_platform(case, name):
    system, force, positions, box = large_system(name)
    context = make_context(system, case)
    set_frame(context, positions, box)
    energy, forces = energy_and_forces(context)
    s = force.getCoordination(context)
    reference_s, reference_forces = large_reference(name)
    assert reference_s > 1000
    assert_close(s, reference_s, case, what=f"{name}: s")
    assert_close(energy, reference_s, case, what=f"{name}: energy (= s)")
    assert_forces_close(forces, reference_forces, case, what=f"{name}: forces")


# ---------------------------------------------------------------------------------------------------
# The switching function on a dense grid
# ---------------------------------------------------------------------------------------------------

SWITCH_R0 = 0.3
#: Offsets of x from 1: inside PLUMED's Taylor band (1.1e-5), at its edge, and out to 0.3 (beyond the
#: single-precision kernel's 0.25 band of the cancellation-free form).
X_OFFSETS = [0.0, 1e-7, 1e-6, 5e-6, 1.0e-5, 1.1e-5, 1.2e-5, 2e-5, 5e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1,
             0.2, 0.24, 0.25, 0.26, 0.3]
EXPONENTS = [(6, 12), (6, 10), (5, 11), (8, 16)]
#: name -> (d0, dmax (0 = automatic), stretch)
SWITCH_SETTINGS = {
    f"d0={d0} {cutoff} {'stretch' if stretch else 'nostretch'}": (d0, dmax, stretch)
    for d0 in (0.0, 0.1) for cutoff, dmax in (("dmax=d0+2r0", d0 + 2 * SWITCH_R0), ("automatic dmax", 0.0))
    for stretch in (True, False)
}


def switching_grid(d0, dmax):
    """Distances: 0, a uniform grid to 1.2 dmax, r = d0, x = 1 and 1 +- X_OFFSETS, r = dmax and nearby.

    Rounded to float, so that every precision sees exactly the same two positions.
    """
    special = [0.0, d0, d0 + SWITCH_R0, dmax, dmax * (1 - 1e-6), dmax * (1 + 1e-6), d0 + 1e-4]
    special += [d0 + SWITCH_R0 * (1 + sign * offset) for offset in X_OFFSETS for sign in (1, -1)]
    distances = np.concatenate([np.linspace(0.0, 1.2 * dmax, 241), special])
    return np.unique(distances.astype(np.float32).astype(float))


def scan(case, n, m, d0, dmax, stretch, distances):
    """sigma(r) (s of two atoms) and d sigma/dr (from the force on the second atom) for each distance."""
    force = coordination_force(CoordinationForce.Self, [0, 1], energy="s", periodic=False, r0=SWITCH_R0, n=n, m=m,
                               d0=d0, dmax=dmax, stretch=stretch)
    context = make_context(make_system(2, [force]), case)
    sigma, slope = [], []
    for r in distances:
        set_frame(context, [[0.0, 0.0, 0.0], [r, 0.0, 0.0]])
        sigma.append(force.getCoordination(context))
        slope.append(-energy_and_forces(context)[1][1, 0])
    return np.array(sigma), np.array(slope)


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case,exponents", case_matrix(GPU_CASES, EXPONENTS))
def test_switching_function_on_a_dense_grid_matches_the_reference_platform(case, exponents):
    n, m = exponents
    checked = 0
    for name, (d0, dmax, stretch) in SWITCH_SETTINGS.items():
        cutoff = coordination_force(CoordinationForce.Self, [0, 1], r0=SWITCH_R0, n=n, m=m, d0=d0,
                                    dmax=dmax).getEffectiveDMax().value_in_unit(unit.nanometer)
        distances = switching_grid(d0, cutoff)
        sigma, slope = scan(case, n, m, d0, dmax, stretch, distances)
        expected_sigma, expected_slope = scan(REFERENCE, n, m, d0, dmax, stretch, distances)
        # d sigma/dr is compared on the scale of its largest value (it is ~n/r0 near x = 1, 0 at r = 0);
        # just outside the Taylor band with the near-one tolerance (see coordination_testing.Tolerance).
        slope_scale = np.abs(expected_slope).max()
        sigma_ok = np.abs(sigma - expected_sigma) <= scalar_tolerance(expected_sigma, case)
        slope_ok = np.abs(slope - expected_slope) <= scalar_tolerance(expected_slope, case, scale=slope_scale)
        e = np.abs((distances - d0) / SWITCH_R0 - 1)
        near_one = (e >= NEAR_ONE_BAND[0]) & (e < NEAR_ONE_BAND[1])
        slope_ok |= near_one & (np.abs(slope - expected_slope) <= case.tolerance.near_one_relative *
                                np.abs(expected_slope) + scalar_tolerance(0.0, case))
        # At r = dmax (and within rounding of it) the pair may fall on either side of the cutoff: there
        # the limit from inside (sigma(dmax), slope) and the value outside (0, 0) are both accepted.
        edge = np.abs(distances - cutoff) <= 1e-6 * cutoff
        if edge.any():
            inside, inside_slope = scan(REFERENCE, n, m, d0, dmax, stretch, [cutoff * (1 - 1e-12)])
            for values, ok, limit, scale in ((sigma, sigma_ok, inside, 0.0), (slope, slope_ok, inside_slope, slope_scale)):
                near_limit = np.abs(values - limit) <= scalar_tolerance(limit, case, scale)
                ok |= edge & (near_limit | (np.abs(values) <= scalar_tolerance(0.0, case)))
        for what, ok, ours, expected in (("sigma", sigma_ok, sigma, expected_sigma),
                                         ("d sigma/dr", slope_ok, slope, expected_slope)):
            bad = np.flatnonzero(~ok)
            assert bad.size == 0, (
                f"n={n} m={m} {name}: {what} differs at {bad.size} distances, first r = {distances[bad[0]]!r} "
                f"(x = {(distances[bad[0]] - d0) / SWITCH_R0!r}): ours {ours[bad[0]]!r}, Reference "
                f"{expected[bad[0]]!r}")
        checked += len(distances)
    assert checked > 1000


# ---------------------------------------------------------------------------------------------------
# Several devices
# ---------------------------------------------------------------------------------------------------


def device_index_params():
    device_index = os.environ.get(DEVICE_INDEX_VARIABLE)
    if not device_index:
        return [pytest.param(None, id="no-device-index", marks=pytest.mark.skip(
            reason=f"set {DEVICE_INDEX_VARIABLE} (e.g. '0,0' or '0,1') to test a Context on several devices"))]
    return [param for param in GPU_CASES if param.values[0] is None or param.values[0].platform in ("CUDA", "OpenCL")]


MULTI_DEVICE_EVALUATIONS = 60


@pytest.mark.parametrize("case", device_index_params())
def test_several_devices_give_the_single_device_forces(case):
    # OpenMM splits the nonbonded work between the devices and sums every device's forces into the
    # first one's; CoordinationForce runs on the first device. Evaluated many times: the devices work in
    # their own threads, so a missing synchronization shows up only in some evaluations.
    device_index = os.environ[DEVICE_INDEX_VARIABLE]
    mode, group_a, group_b = DETERMINISM_GROUPS["Dual"]
    force = coordination_force(mode, group_a, group_b, energy="0.5*k*(s-s0)^2", parameters=[("k", 3.0), ("s0", 10.0)],
                               r0=0.25, dmax=1.0, force_group=1)
    lennard_jones = mm.NonbondedForce()
    lennard_jones.setNonbondedMethod(mm.NonbondedForce.CutoffPeriodic)
    lennard_jones.setCutoffDistance(1.0)
    for _ in range(DETERMINISM_ATOMS):
        lennard_jones.addParticle(0.0, 0.3, 0.0)
    box = np.eye(3) * DETERMINISM_BOX
    system = make_system(DETERMINISM_ATOMS, [lennard_jones, force], box)
    positions = np.random.default_rng(23).uniform(0, DETERMINISM_BOX, size=(DETERMINISM_ATOMS, 3))
    single = make_context(system, case)
    set_frame(single, positions, box)
    expected = evaluate(single, force, groups={1})
    expected_total = energy_and_forces(single)
    several = make_context(system, case, properties={"DeviceIndex": device_index})
    assert several.getPlatform().getPropertyValue(several, "DeviceIndex") == device_index
    set_frame(several, positions, box)
    failures = []
    for number in range(MULTI_DEVICE_EVALUATIONS):
        try:
            if number % 2:
                total = energy_and_forces(several)
                assert_close(total[0], expected_total[0], case, what="total energy")
                assert_forces_close(total[1], expected_total[1], case, what="total forces")
            else:
                assert_matches(evaluate(several, force, groups={1}), expected, case, "coordination force group")
        except AssertionError as error:
            failures.append(f"evaluation {number + 1}: {str(error).splitlines()[0]}")
    assert not failures, (f"DeviceIndex {device_index}: {len(failures)} of {MULTI_DEVICE_EVALUATIONS} evaluations "
                          f"differ from one device; " + "; ".join(failures[:3]))


# ---------------------------------------------------------------------------------------------------
# updateParametersInContext
# ---------------------------------------------------------------------------------------------------

UPDATE_ATOMS = 400
UPDATE_BOX = 2.0


def update_steps():
    """Successive changes, each applied to the force left by the previous one."""
    rng = np.random.default_rng(43)
    return [
        ("larger group A", lambda f: f.setGroupA(rng.permutation(UPDATE_ATOMS)[:350])),
        ("smaller group A", lambda f: f.setGroupA([5, 17, 3, 250, 199, 42, 7])),
        ("dual mode", lambda f: (f.setMode(CoordinationForce.Dual), f.setGroupA(range(0, 400, 3)),
                                 f.setGroupB(rng.permutation(UPDATE_ATOMS)[:200]))),
        ("larger group B", lambda f: f.setGroupB(range(UPDATE_ATOMS))),
        ("pair mode", lambda f: (f.setMode(CoordinationForce.Pair), f.setGroupA(range(0, 150)),
                                 f.setGroupB(range(399, 249, -1)))),
        ("switching parameters", lambda f: (f.setR0(0.35), f.setN(5), f.setM(9), f.setD0(0.05))),
        ("cutoff and no stretch", lambda f: (f.setDMax(0.8), f.setStretch(False))),
        ("no PBC", lambda f: f.setUsesPeriodicBoundaryConditions(False)),
        ("self mode, no cutoff, PBC", lambda f: (f.setMode(CoordinationForce.Self), f.setGroupA(range(100, 300)),
                                                 f.setGroupB([]), f.setDMax(INFINITY),
                                                 f.setUsesPeriodicBoundaryConditions(True))),
    ]


@pytest.mark.spread_over_precisions
@pytest.mark.parametrize("case", GPU_CASES)
def test_update_parameters_in_context_gives_what_a_fresh_context_gives(case):
    force = coordination_force(CoordinationForce.Self, range(0, 200), energy="0.5*k*(s-s0)^2",
                               parameters=[("k", 2.0), ("s0", 30.0)], r0=0.3, dmax=1.0)
    box = np.eye(3) * UPDATE_BOX
    system = make_system(UPDATE_ATOMS, [force], box)
    positions = np.random.default_rng(47).uniform(0, UPDATE_BOX, size=(UPDATE_ATOMS, 3))
    context = make_context(system, case)
    set_frame(context, positions, box)
    previous = evaluate(context, force)
    for change, apply in update_steps():
        apply(force)
        force.updateParametersInContext(context)
        updated = evaluate(context, force)
        fresh = make_context(system, case)
        set_frame(fresh, positions, box)
        assert updated[1] != previous[1], f"{change}: the change matters for this system"
        assert_matches(updated, evaluate(fresh, force), case, f"after '{change}' vs a fresh Context")
        previous = updated
