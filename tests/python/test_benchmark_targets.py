"""The benchmark suite's performance targets (benchmarks/suite/report.py, listed in benchmarks/README.md): each line's
threshold, judged on rows written to a results.csv and read back as --report-only reads them. Each target gets a row
just inside its threshold (PASS) and one just past it (MISS); a time limit also on the threshold itself."""
import csv
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from suite import report  # noqa: E402
from suite.common import CUSTOM_NONBONDED, PLUGIN  # noqa: E402


def row(case, label, atoms, contender=PLUGIN, precision="single", **fields):
    """A measured row of the suite on CUDA (the fields a target does not read left empty)."""
    values = {name: "" for name in report.FIELDS}
    values.update(case=case, label=label, atoms=atoms, contender=contender, platform="CUDA", precision=precision,
                  status="ok", moving=False, pbc=True, dmax_nm="", mode="Self")
    values.update(fields)
    return values


def targets(rows, tmp_path):
    """The target lines of rows, after a round trip through results.csv."""
    path = tmp_path / "results.csv"
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, fieldnames=report.FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    return report.evaluate_targets(report.read_csv(path), "CUDA")


def verdict_of(lines, *words):
    """The verdict of the one line containing every word."""
    found = [line for line in lines if all(word in line for word in words)]
    assert len(found) == 1, (words, lines)
    return found[0].rsplit("-> ", 1)[1]


def pair_with_anchor(case, label, ours, theirs, **fields):
    return [row(case, label, "10000", added_ms_per_step=ours, **fields),
            row(case, label, "10000", contender=CUSTOM_NONBONDED, added_ms_per_step=theirs, **fields)]


@pytest.mark.parametrize("theirs, expected", [(0.1005, "PASS"), (0.0995, "MISS")])
def test_self_with_a_cutoff_is_judged_at_twice_customnonbondedforce(tmp_path, theirs, expected):
    rows = pair_with_anchor("S2", "S2 N=10k dmax=1 nm", 0.05, theirs, dmax_nm="1")
    assert verdict_of(targets(rows, tmp_path), ">= 2x", "S2 N=10k") == expected


@pytest.mark.parametrize("label", ["S5 N=10k d0=0.1", "S5 N=10k n=5 m=11"])
@pytest.mark.parametrize("theirs, expected", [(0.151, "PASS"), (0.149, "MISS")])
def test_general_switching_function_is_judged_at_one_and_a_half_customnonbondedforce(tmp_path, label, theirs,
                                                                                      expected):
    rows = pair_with_anchor("S5", label, 0.1, theirs)
    assert verdict_of(targets(rows, tmp_path), ">= 1.5x", label) == expected


def test_general_switching_function_without_its_anchor_is_not_measured(tmp_path):
    lines = targets([row("S5", "S5 N=10k d0=0.1", "10000", added_ms_per_step=0.1)], tmp_path)
    assert [line for line in lines if "S5 N=10k d0=0.1" in line][0].endswith("not measured")


@pytest.mark.parametrize("ms, expected", [(1.0, "PASS"), (1.01, "MISS")])
def test_moving_million_atoms_is_judged_at_one_millisecond(tmp_path, ms, expected):
    rows = [row("S2", "S2 N=1M dmax=1 nm moving", "1000000", dmax_nm="1", moving=True, ms_per_evaluation=ms)]
    assert verdict_of(targets(rows, tmp_path), "moving", "<= 1.0 ms") == expected


@pytest.mark.parametrize("ms, expected", [(0.005, "PASS"), (0.0051, "MISS")])
def test_small_groups_are_judged_at_five_microseconds(tmp_path, ms, expected):
    rows = [row("S0", "S0 N=1k", "1000", added_ms_per_step=0.003),
            row("S3", "S3 1k x 1k", "1000 x 1000", added_ms_per_step=ms, mode="Dual")]
    line = [line for line in targets(rows, tmp_path) if "groups <= 1k atoms" in line][0]
    assert "<= 0.005 ms" in line and "S3 1k x 1k" in line and line.endswith(expected)


@pytest.mark.parametrize("percent, expected", [(2.5, "PASS"), (2.6, "MISS")])
@pytest.mark.parametrize("label, mode", [("S6 + Dual 1000 x 1000 O", "Dual"), ("S6 + Self 100 O", "Self")])
def test_each_md_restraint_is_judged_at_two_and_a_half_percent(tmp_path, label, mode, percent, expected):
    rows = [row("S6", label, "100", precision="mixed", mode=mode, slowdown_percent=percent)]
    assert verdict_of(targets(rows, tmp_path), "<= 2.5 %", label) == expected


@pytest.mark.parametrize("ms, expected", [(0.012, "PASS"), (0.0121, "MISS")])
def test_coordination_numbers_at_1k_are_judged_at_twelve_microseconds(tmp_path, ms, expected):
    rows = [row("N", "N SPECIES N=1k dmax=1 nm", "1000", added_ms_per_step=ms)]
    assert verdict_of(targets(rows, tmp_path), "N SPECIES N=1k", "<= 0.012 ms") == expected


@pytest.mark.parametrize("ours, expected", [(0.139, "PASS"), (0.141, "MISS")])
def test_coordination_numbers_at_10k_are_judged_at_one_point_four_self(tmp_path, ours, expected):
    rows = [row("N", "N s N=10k dmax=1 nm", "10000", added_ms_per_step=0.1),
            row("N", "N SPECIES N=10k dmax=1 nm", "10000", added_ms_per_step=ours)]
    assert verdict_of(targets(rows, tmp_path), "N SPECIES N=10k", "<= 1.4x") == expected


@pytest.mark.parametrize("ms, expected", [(0.005, "PASS"), (0.0051, "MISS")])
def test_contact_map_of_1k_is_judged_at_five_microseconds(tmp_path, ms, expected):
    rows = [row("M", "M 1k contacts", "1000 pairs", mode="Pair", added_ms_per_step=ms)]
    assert verdict_of(targets(rows, tmp_path), "M 1k contacts", "<= 5 us") == expected


def test_a_row_measured_in_several_runs_holds_their_median(tmp_path):
    results = report.Results(str(tmp_path), lambda rows: [], {}, "", lambda: "this call")
    for added in (0.030, 0.010, 0.020):
        results.add(row("S0", "S0 lattice N=1k", "1000", added_ms_per_step=added, ms_per_evaluation=added,
                        pairs_per_second=1e6 / added, status="ok"))
    results.add(row("S0", "S0 lattice N=1k", "1000", status="skipped", note="suite time budget spent"))
    [kept] = results.rows
    assert kept["status"] == "ok"
    assert kept["added_ms_per_step"] == pytest.approx(0.020) and kept["ms_per_evaluation"] == pytest.approx(0.020)
    assert kept["pairs_per_second"] == pytest.approx(1e6 / 0.020)
    assert "median of 3 runs (added ms/step 0.03, 0.01, 0.02)" in kept["note"]
    [line] = [line for line in report.read_csv(tmp_path / "results.csv")]
    assert line["added_ms_per_step"] == pytest.approx(0.020)


def test_a_row_measured_once_is_as_measured(tmp_path):
    results = report.Results(str(tmp_path), lambda rows: [], {}, "", lambda: "this call")
    results.add(row("S0", "S0 lattice N=1k", "1000", added_ms_per_step=0.012, note=""))
    [kept] = results.rows
    assert kept["added_ms_per_step"] == 0.012 and kept["note"] == ""
