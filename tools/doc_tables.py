#!/usr/bin/env python3
"""Keeps the tables of README.md and docs/**/*.md equal to the measurements they come from.

A generated table sits in a page between two comments:

    <!-- generated: SOURCE -->
    | ... |
    <!-- end generated -->

SOURCE is either a Markdown file written by a script (the first table in it is copied: e.g.
docs/migration/from-plumed.md, written by examples/from_plumed.py --markdown) or the name of a
summary made here from the benchmark suite's docs/benchmarks/results.csv (`gpu-summary`, `cpu-summary`).

    python tools/doc_tables.py --check    # exit 1 and show the difference if a page is stale (the test suite runs this)
    python tools/doc_tables.py --write    # rewrite the generated tables from their sources
"""
import argparse
import csv
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "docs" / "benchmarks"
BLOCK = re.compile(r"(<!-- generated: (?P<source>\S+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)


def first_table(path):
    """The first Markdown table (consecutive lines starting with '|') of a file."""
    lines, started = [], False
    for line in path.read_text().splitlines():
        if line.startswith("|"):
            lines.append(line)
            started = True
        elif started:
            break
    if not lines:
        raise SystemExit(f"{path}: no Markdown table")
    return "\n".join(lines)


def rows(name):
    with open(BENCHMARKS / name) as stream:
        return list(csv.DictReader(stream))


def lookup(table, label, contender="openmm-coordination", precision="single", field="added_ms_per_step"):
    for row in table:
        if (row["label"], row["contender"], row["precision"]) == (label, contender, precision) and row[field]:
            return float(row[field])
    return None


def duration(ms):
    """A time as the performance page writes it: µs below 0.1 ms, two significant digits."""
    if ms is None:
        return "—"
    if ms < 0.1:
        return f"{ms * 1000:.2g} µs" if ms * 1000 < 10 else f"{ms * 1000:.0f} µs"
    return f"{ms:.2g} ms" if ms < 1 else (f"{ms:.1f} ms" if ms < 100 else f"{ms:.0f} ms")


def scientific(value):
    """8.6e9, not 8.6e+09."""
    mantissa, exponent = f"{value:.2g}".split("e")
    return f"{mantissa}e{int(exponent)}"


def single_mixed(table, label):
    single, mixed = lookup(table, label), lookup(table, label, precision="mixed")
    first, second = duration(single), duration(mixed)
    unit = first.split()[-1]
    if unit == second.split()[-1]:
        return f"{first.split()[0]} / {second.split()[0]} {unit}"
    return f"{first} / {second}"


def gpu_summary():
    """The performance page's H100 table (docs/performance.md): added time per MD step, from the last suite run
    (results.csv): this plugin, the anchors on the same pairs (OpenMM's CustomNonbondedForce summing sigma,
    NonbondedForce LJ + reaction field), OpenMM's CustomCVForce route and PLUMED's published numbers."""
    results = rows("results.csv")
    custom, plain = "OpenMM CustomNonbondedForce", "OpenMM NonbondedForce LJ+RF"
    route = "OpenMM CustomCVForce"
    lines = ["| case | this plugin (single / mixed) | CustomNonbondedForce, same pairs (single) | "
             "NonbondedForce LJ+RF (single) | OpenMM's CustomCVForce route (single) | PLUMED |",
             "|---|---|---|---|---|---|"]

    def others(label, contenders):
        return " | ".join(duration(lookup(results, label, contender)) if contender else "—" for contender in contenders)

    labels = ["S0 lattice N=1k", "S0 lattice N=16k", "S0 lattice N=128k"]
    plumed = [lookup(results, label, "PLUMED (published)", field="ms_per_evaluation") for label in labels]
    lines.append("| PLUMED's lattice benchmark, 1k / 16k / 128k atoms | "
                 + " / ".join(duration(lookup(results, label)) for label in labels) + " (single) | "
                 + " | ".join(" / ".join(duration(lookup(results, label, contender)) for label in labels)
                              for contender in (custom, plain, route))
                 + " | GPU port " + " / ".join(f"{value:g}" for value in plumed) + " ms |")
    label = "S1 all pairs N=128k"
    pairs = float(next(row["pairs"] for row in results if row["label"] == label))
    rate = lookup(results, label, field="pairs_per_second")
    lines.append(f"| all pairs, 128k atoms ({scientific(pairs)} pairs) | {single_mixed(results, label)} "
                 f"({scientific(rate)} pairs/s) | — | — | — (interaction-group set-up too large) | |")
    cases = [("all pairs, 32k atoms", "S1 all pairs N=32k", (None, None, route)),
             ("10k atoms, dmax = 1 nm", "S2 N=10k dmax=1 nm", (custom, plain, route)),
             ("100k atoms, dmax = 1 nm (neighbour list)", "S2 N=100k dmax=1 nm", (custom, plain, route)),
             ("1M atoms, dmax = 1 nm", "S2 N=1M dmax=1 nm", (custom, plain, route)),
             ("1M atoms, dmax = 1 nm, moving (list rebuilds included)", "S2 N=1M dmax=1 nm moving", (None, None, None)),
             ("Dual 10k × 10k atoms, automatic dmax", "S3 10k x 10k", (custom, plain, route)),
             ("Dual 1 × 100k atoms", "S3 1 x 100k", (custom, plain, route)),
             ("1k Pair restraints", "S4 1k pairs", (None, None, route))]
    for title, label, contenders in cases:
        lines.append(f"| {title} | {single_mixed(results, label)} | {others(label, contenders)} | |")
    for title, label in (("23.6k-atom water MD + 100-atom Self restraint (mixed)", "S6 + Self 100 O"),
                         ("23.6k-atom water MD + 1k × 1k Dual restraint (mixed)", "S6 + Dual 1000 x 1000 O")):
        ours = lookup(results, label, precision="mixed", field="slowdown_percent")
        theirs = lookup(results, label, route, precision="mixed", field="slowdown_percent")
        lines.append(f"| {title} | {ours:.1f} % slower than without | — | — | {theirs:.0f} % slower | |")
    return "\n".join(lines)


def milliseconds(value):
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


def cpu_summary():
    """The performance page's CPU-platform table: the suite's case C (results.csv), the CPU platform at 1 thread and
    at its fastest thread count against the Reference platform, and PLUMED's published CPU time for its lattice."""
    results = rows("results.csv")
    cases = [("20k water atoms, Self, dmax 1 nm", "C N=20k dmax=1 nm", None),
             ("20k water atoms, Self, automatic dmax 2.04 nm", "C N=20k dmax=auto", None),
             ("Dual 2k × 18k, automatic dmax", "C Dual 2k x 18k", None),
             ("PLUMED's lattice, 1k atoms", "C lattice N=1k", "S0 lattice N=1k"),
             ("PLUMED's lattice, 16k atoms", "C lattice N=16k", "S0 lattice N=16k"),
             ("Q6 (SteinhardtForce), 10k atoms, Self, dmax 1 nm", "C Q6 SPECIES N=10k dmax=1 nm", None)]
    lines = ["| case | CPU, 1 thread | CPU, best (threads; × Reference) | Reference | PLUMED CPU, 16 threads |",
             "|---|---:|---:|---:|---:|"]
    for title, label, plumed_label in cases:
        measured = [row for row in results if row["label"] == label and row["status"] == "ok"]
        reference = float(next(row["ms_per_evaluation"] for row in measured if row["platform"] == "Reference"))
        cpu = [row for row in measured if row["platform"].startswith("CPU")]
        one = float(next(row["ms_per_evaluation"] for row in cpu if row["platform"] == "CPU (1 thread)"))
        best = min(cpu, key=lambda row: float(row["ms_per_evaluation"]))
        threads = best["platform"].split("(")[1].split()[0]
        plumed = next((float(row["ms_per_evaluation"]) for row in results if row["label"] == plumed_label and
                       row["contender"] == "PLUMED (published)" and row["platform"] == "CPU (16 threads)"), None)
        lines.append(f"| {title} | {milliseconds(one)} | {milliseconds(float(best['ms_per_evaluation']))} "
                     f"({threads}; {reference / float(best['ms_per_evaluation']):.0f}×) | {milliseconds(reference)} | "
                     f"{milliseconds(plumed) if plumed else ''} |")
    return "\n".join(lines)


SUMMARIES = {"gpu-summary": gpu_summary, "cpu-summary": cpu_summary}


def generate(source):
    if source in SUMMARIES:
        return SUMMARIES[source]()
    return first_table(ROOT / source)


def pages():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="fail if a generated table differs from its source")
    action.add_argument("--write", action="store_true", help="rewrite the generated tables")
    args = parser.parse_args()
    stale, count = [], 0
    for page in pages():
        text = page.read_text()

        def replace(match):
            nonlocal count
            count += 1
            body = generate(match.group("source")) + "\n"
            if body != match.group("body"):
                stale.append((page, match.group("source"), match.group("body"), body))
            return match.group(1) + body + match.group(4)

        updated = BLOCK.sub(replace, text)
        if args.write and updated != text:
            page.write_text(updated)
    for page, source, old, new in stale:
        print(f"{page.relative_to(ROOT)}: the table from {source} is {'rewritten' if args.write else 'stale'}")
        if args.check:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "page", source))
    print(f"generated tables checked: {count}, stale: {len(stale)}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
