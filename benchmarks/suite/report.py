"""Results (rewritten to results.csv and results.md after every row), the Markdown tables, the agreement of s,
the performance targets with PASS/MISS, the plot, and reading a results.csv back."""
import csv
import math
import os
import platform
import statistics
import sys
import time

import openmm as mm

import openmmcoordination

from .common import (ALL_FAMILIES, CONTENDER_ORDER, CUSTOM_NONBONDED, NO_BIAS, NONBONDED, OPENMM, PAIR_FAMILIES, PLUGIN,
                     PLUMED, PRECISION_ORDER, VALUE_CONTENDERS, log)

FIELDS = ["case", "label", "mode", "atoms", "particles", "dmax_nm", "pbc", "moving", "pairs", "pairs_method",
          "kernel_candidates", "contender", "platform", "precision", "ms_per_evaluation", "pairs_per_second",
          "ceiling_percent", "added_ms_per_step", "base_ms_per_step", "steps_per_rep", "reps", "s", "ns_per_day",
          "slowdown_percent", "status", "note", "run"]
NUMERIC_FIELDS = ("particles", "pairs", "kernel_candidates", "ms_per_evaluation", "pairs_per_second", "ceiling_percent",
                  "added_ms_per_step", "base_ms_per_step", "steps_per_rep", "reps", "s", "ns_per_day",
                  "slowdown_percent")
#: The timings of a row, each the median over the runs of one call (--runs).
TIMED_FIELDS = ("ms_per_evaluation", "pairs_per_second", "added_ms_per_step", "base_ms_per_step", "ns_per_day",
                "slowdown_percent")


class Results:
    """The rows, rewritten to results.csv and results.md after every addition. With previous rows (--resume), a
    new row replaces the previous one of its case, contender, platform and precision; the others stay. A row
    measured more than once in this call (--runs) holds the median of its measurements (median_row); a later run
    that could not measure it (the budget spent) leaves it so."""

    def __init__(self, out_dir, header, ceilings, ceiling_note, run, previous=()):
        self.out_dir = out_dir
        self.header = header  # a function of the rows returning the method lines
        self.ceilings = ceilings
        self.ceiling_note = ceiling_note
        self.run = run  # a function returning this run's description (date, device, command)
        self.rows = list(previous)
        self.measured = {}  # row key -> this call's measured rows of it, in order
        self.target_lines = []
        os.makedirs(out_dir, exist_ok=True)

    def add(self, row):
        """Add a row (missing fields empty) and rewrite the files."""
        complete = {name: row.get(name) for name in FIELDS}
        pairs_per_second = complete["pairs_per_second"]
        complete["ceiling_percent"] = ceiling_percent(self.ceilings, complete["platform"] or "",
                                                      complete["precision"], pairs_per_second)
        complete["run"] = self.run()
        key = row_key(complete)
        if complete["status"] == "ok":
            self.measured.setdefault(key, []).append(complete)
            complete = median_row(self.measured[key])
            complete["ceiling_percent"] = ceiling_percent(self.ceilings, complete["platform"] or "",
                                                          complete["precision"], complete["pairs_per_second"])
        elif key in self.measured:
            return  # an earlier run of this call measured it
        self.rows = [r for r in self.rows if row_key(r) != key] + [complete]
        self.write()

    def write(self):
        """results.csv and results.md."""
        with open(os.path.join(self.out_dir, "results.csv"), "w", newline="", encoding="utf-8") as stream:
            writer = csv.DictWriter(stream, fieldnames=FIELDS)
            writer.writeheader()
            writer.writerows({k: "" if row.get(k) is None else row.get(k) for k in FIELDS} for row in self.rows)
        with open(os.path.join(self.out_dir, "results.md"), "w", encoding="utf-8") as stream:
            stream.write(self.markdown(full=True))

    def markdown(self, full):
        """The tables (full: with the method header and the skipped list)."""
        parts = []
        if full:
            parts += self.header(self.rows) + [""]
        parts += [self.ceiling_note, "", *main_table(self.rows), "", *md_table(self.rows), "",
                  *types_table(self.rows), "", *cpu_table(self.rows)]
        if full:
            parts += ["", *skipped_list(self.rows)]
        if self.target_lines:
            parts += ["", "## Targets", "", *self.target_lines]
        return "\n".join(parts) + "\n"


def median_row(measured):
    """One row of several measurements of it (the runs of one call, in order): the last one's fields, each timing
    the median over the runs, and the note saying so with the runs' added ms per step."""
    if len(measured) == 1:
        return measured[0]
    merged = dict(measured[-1])
    for name in TIMED_FIELDS:
        values = [r[name] for r in measured if isinstance(r.get(name), (int, float))]
        merged[name] = statistics.median(values) if values else None
    runs = ", ".join(format_value(r.get("added_ms_per_step"), ".4g") or "-" for r in measured)
    note = merged.get("note") or ""
    merged["note"] = (note + "; " if note else "") + f"median of {len(measured)} runs (added ms/step {runs})"
    return merged


def row_key(row):
    """What identifies a row: its case, contender, platform and precision."""
    return row["label"], row["contender"], row["platform"], row["precision"]


def format_value(value, spec):
    """A number for the tables ('' for none)."""
    if value is None or value == "":
        return ""
    return format(value, spec)


def sort_key(row, case_order):
    """Rows by case, then contender, platform and precision."""
    return (case_order.get(row["label"], 99), CONTENDER_ORDER.get(row["contender"], 9), row["platform"] != "CUDA",
            row["platform"], PRECISION_ORDER.get(row["precision"], 9))


def case_order_of(rows):
    """Case label -> its rank: by family, then in the order measured rows appear (the order of the cases)."""
    def family_then_published(row):
        return ALL_FAMILIES.index(row["case"]) if row["case"] in ALL_FAMILIES else 99, row["contender"] == PLUMED

    labels = []
    for row in sorted(rows, key=family_then_published):
        if row["label"] not in labels:
            labels.append(row["label"])
    return {label: index for index, label in enumerate(labels)}


def candidates_ratio(row):
    """The plugin's kernel's candidate pairs per pair in the sum ('n/a' where not counted; '' for the others)."""
    if row["contender"] != PLUGIN or row["status"] != "ok":
        return ""
    if row["kernel_candidates"] is None or not row["pairs"]:
        return "n/a"
    return format(row["kernel_candidates"] / row["pairs"], ".3g")


def main_table(rows):
    """Markdown table of cases S0-S5 (measured and published rows)."""
    lines = ["| case | mode | atoms | dmax (nm) | pairs | pairs from | candidates/pairs | contender | platform | "
             "precision | ms/eval | unique pairs/s | % ceiling | added ms/step | s | note |",
             "|---|---|---:|---:|---:|---|---:|---|---|---|---:|---:|---:|---:|---:|---|"]
    shown = [r for r in rows if r["case"] in PAIR_FAMILIES and r["status"] in ("ok", "published")]
    if not shown:
        return []
    order = case_order_of(shown)
    for r in sorted(shown, key=lambda row: sort_key(row, order)):
        s = "no s" if r["contender"] == NONBONDED else format_value(r["s"], ".7g")
        lines.append(f"| {r['label']} | {r['mode']} | {r['atoms']} | {r['dmax_nm']} | "
                     f"{format_value(r['pairs'], '.3g')} | {r['pairs_method']} | {candidates_ratio(r)} | "
                     f"{r['contender']} | {r['platform']} | {r['precision']} | "
                     f"{format_value(r['ms_per_evaluation'], '.4g')} | {format_value(r['pairs_per_second'], '.3e')} | "
                     f"{format_value(r['ceiling_percent'], '.1f')} | {format_value(r['added_ms_per_step'], '.4g')} | "
                     f"{s} | {r['note'] or ''} |")
    return lines


def md_table(rows):
    """Markdown table of case S6 (MD)."""
    shown = find(rows, case="S6")
    if not shown:
        return []
    lines = ["| S6 variant | contender | platform | precision | pairs | ms/step | ns/day | added ms/step | "
             "slowdown % | s |", "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in shown:
        step = r["base_ms_per_step"] if r["contender"] == NO_BIAS else r["base_ms_per_step"] + r["added_ms_per_step"]
        lines.append(f"| {r['label']} | {r['contender']} | {r['platform']} | {r['precision']} | "
                     f"{format_value(r['pairs'], '.3g')} | {step:.4g} | {format_value(r['ns_per_day'], '.1f')} | "
                     f"{format_value(r['added_ms_per_step'], '.4g')} | {format_value(r['slowdown_percent'], '.2f')} | "
                     f"{format_value(r['s'], '.7g')} |")
    return lines


def types_table(rows):
    """Markdown table of case T: every switching type, without and with a cutoff, per precision."""
    shown = find(rows, case="T")
    if not shown:
        return []
    lines = ["Case T: every switching type, Self over " + shown[0]["atoms"] + " atoms at water density, PBC, "
             "r0 = 0.3 nm; ms/eval:", "", "| switching function | dmax (nm) | platform | precision | ms/eval | s |",
             "|---|---:|---|---|---:|---:|"]
    for r in shown:
        name = r["label"][len("T "):r["label"].rindex(" dmax=")]
        lines.append(f"| {name} | {r['dmax_nm']} | {r['platform']} | {r['precision']} | "
                     f"{format_value(r['ms_per_evaluation'], '.4g')} | {format_value(r['s'], '.7g')} |")
    return lines


def cpu_table(rows):
    """Markdown table of case C: the Reference platform and the CPU platform at every thread count."""
    shown = find(rows, case="C")
    if not shown:
        return []
    reference = {r["label"]: r["ms_per_evaluation"] for r in shown if r["platform"] == "Reference"}
    lines = ["Case C: the CPU-side platforms (double precision); ms/eval and the speed-up over the Reference "
             "platform:", "", "| case | mode | atoms | dmax (nm) | pairs | platform | ms/eval | x Reference | s |",
             "|---|---|---:|---:|---:|---|---:|---:|---:|"]
    for r in shown:
        speedup = reference.get(r["label"]) / r["ms_per_evaluation"] if reference.get(r["label"]) else None
        lines.append(f"| {r['label']} | {r['mode']} | {r['atoms']} | {r['dmax_nm']} | {format_value(r['pairs'], '.3g')} | "
                     f"{r['platform']} | {format_value(r['ms_per_evaluation'], '.4g')} | "
                     f"{format_value(speedup, '.3g')} | {format_value(r['s'], '.7g')} |")
    return lines


def skipped_list(rows):
    """Bulleted list of what was skipped or failed, and why."""
    lines = [f"- {r['label']} | {r['contender']} | {r['platform']} {r['precision']}: {r['status']}: {r['note']}"
             for r in rows if r["status"] in ("skipped", "failed")]
    return ["## Skipped or failed", "", *lines] if lines else []


def case_fields(case, pairs, method):
    """The row fields that describe a case."""
    dmax = case.effective_dmax
    return {"case": case.family, "label": case.label, "mode": case.mode, "atoms": case.atoms,
            "particles": case.particles, "dmax_nm": "inf" if math.isinf(dmax) else f"{dmax:.4g}",
            "pbc": case.pbc, "moving": case.moving, "pairs": pairs, "pairs_method": method}


def measured_fields(measurement, pairs, s):
    """The row fields of a measurement."""
    added = measurement.added
    return {"ms_per_evaluation": added * 1e3, "added_ms_per_step": added * 1e3,
            "pairs_per_second": pairs / added if added > 0 else None, "base_ms_per_step": measurement.base * 1e3,
            "steps_per_rep": measurement.steps, "reps": measurement.reps, "s": s, "status": "ok",
            "note": "" if added > 0 else "added time below the noise"}


def host_description():
    """The machine's processor and its cores (what case C runs on)."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as stream:
            model = next((line.split(":", 1)[1].strip() for line in stream if line.startswith("model name")), "")
    except OSError:
        pass
    return f"host {model or platform.processor() or 'unknown processor'}, {os.cpu_count()} cores"


def run_description(options, state):
    """This run: its date, device, host, OpenMM version and command."""
    return (f"{time.strftime('%Y-%m-%d')}; {state.get('device', options.platform)}; {host_description()}; "
            f"OpenMM {mm.__version__}, openmmcoordination {getattr(openmmcoordination, '__version__', '?')}; "
            f"`python3 benchmarks/benchmark_suite.py {' '.join(sys.argv[1:])}`")


def header_lines(rows):
    """The title, the runs the rows come from (with the families each measured) and the method paragraph."""
    runs = {}
    for r in rows:
        if r.get("run"):
            runs.setdefault(r["run"], [])
            if r["case"] not in runs[r["run"]]:
                runs[r["run"]].append(r["case"])
    lines = ["# CoordinationForce benchmark suite", "",
             "Regenerate with the command of each run below (on the same kind of machine); "
             "`--report-only docs/benchmarks/results.csv` rewrites this page and the plot from the CSV.", ""]
    lines += [f"- cases {', '.join(families)}: {run}" for run, families in runs.items()]
    return lines + [
        "",
        "Method: massless particles (a VerletIntegrator leaves them in place); the same System with the bias and "
        "with a do-nothing force; per repetition `integrator.step(K)` then `getState(getEnergy=True)` on an empty "
        "force group (drains the queue, no extra evaluation); repetitions alternate; medians. "
        "**ms/eval = the added time per MD step** (with - without), so it includes the force's launches and "
        "its share of the step. Unique pairs/s = pairs in the sum / that time. Candidates/pairs = the pairs the "
        "plugin's kernel tests against the cutoff per evaluation (`getNumCandidatePairsInContext`) "
        "/ the pairs in the sum. % ceiling: of "
        "`benchmarks/pair_ceiling.cu` on the same GPU (single-precision ceiling for single and mixed, double for "
        "double). OpenMM's route = CustomCVForce(E(s)) with s = CustomNonbondedForce (interaction groups, cutoff "
        "dmax) or CustomBondForce (Pair), built as cvpack does. Anchors (Self and Dual cases with a cutoff): "
        "CustomNonbondedForce with energy sigma(r) (sums to s; no interaction groups, per-particle flags zero the "
        "pairs outside the groups), a CustomCVForce over it, and NonbondedForce LJ + reaction field on the same "
        "particles (an MD pair loop; no s). The moving rows (S2 ... moving) run an LJ fluid (18 amu, sigma 0.2 nm, "
        "Langevin 1 fs, 300 K) with and without the plugin, so its neighbour list is rebuilt as in MD. PLUMED rows "
        "are PLUMED's published numbers.",
    ]


def ceiling_percent(ceilings, platform, precision, pairs_per_second):
    """pairs/s as % of the ceiling of its precision (single's for mixed), for CUDA rows."""
    if not platform.startswith("CUDA") or pairs_per_second is None:
        return None
    ceiling = ceilings.get("double" if precision == "double" else "single")
    return None if ceiling is None else 100.0 * pairs_per_second / ceiling


# ---------------------------------------------------------------------------------------------------
# Agreement of s, targets, plot
# ---------------------------------------------------------------------------------------------------

def check_agreement(results):
    """Note on OpenMM's rows (its route and the anchors with an s) where s differs from the plugin's (same case,
    platform, precision)."""
    plugin = {(r["label"], r["platform"], r["precision"]): r["s"] for r in results.rows
              if r["contender"] == PLUGIN and r["status"] == "ok"}
    for row in results.rows:
        key = (row["label"], row["platform"], row["precision"])
        if row["contender"] not in VALUE_CONTENDERS or row["status"] != "ok" or key not in plugin:
            continue
        difference = abs(row["s"] - plugin[key]) / max(abs(plugin[key]), 1e-30)
        tolerance = 1e-9 if row["precision"] == "double" else 1e-4
        if difference > tolerance and "NoCutoff" not in (row["note"] or ""):
            note = f"s differs from the plugin's by {difference:.2e}"
            row["note"] = f"{row['note']}; {note}" if row["note"] else note
            log(f"WARNING {row['label']} {row['platform']} {row['precision']}: {row['contender']}'s s {row['s']:.9g} "
                f"vs the plugin's {plugin[key]:.9g} (relative {difference:.2e})")
    results.write()


def find(rows, contender=None, **criteria):
    """The ok (measured) rows matching every field in criteria, of one contender or (None) of any."""
    return [r for r in rows if contender in (None, r["contender"]) and r["status"] == "ok"
            and all(r[k] == v for k, v in criteria.items())]


def verdict(passed):
    """PASS / MISS."""
    return "PASS" if passed else "MISS"


def target_time(rows, label, limit_ms, **criteria):
    """Lines: the plugin's ms/eval of the matching rows (one per precision) against a limit."""
    matches = find(rows, PLUGIN, **criteria)
    if not matches:
        return [f"- {label} <= {limit_ms} ms per evaluation: not measured"]
    return [f"- {label} <= {limit_ms} ms per evaluation ({r['precision']}): {r['ms_per_evaluation']:.4g} ms -> "
            f"{verdict(r['ms_per_evaluation'] <= limit_ms)}" for r in matches]


def target_throughput(rows):
    """S1 N=128k: single >= 7e11 pairs/s; mixed within 1.5x of single."""
    single = find(rows, PLUGIN, case="S1", atoms="131072", precision="single")
    mixed = find(rows, PLUGIN, case="S1", atoms="131072", precision="mixed")
    if single:
        value = single[0]["pairs_per_second"] or 0.0
        lines = [f"- S1 N=128k single >= 7.0e11 pairs/s: {value:.3e} -> {verdict(value >= 7.0e11)}"]
    else:
        lines = ["- S1 N=128k single >= 7.0e11 pairs/s: not measured"]
    if single and mixed:
        ratio = mixed[0]["ms_per_evaluation"] / single[0]["ms_per_evaluation"]
        lines.append(f"- S1 N=128k mixed within 1.5x of single: {ratio:.2f}x -> {verdict(ratio <= 1.5)}")
    else:
        lines.append("- S1 N=128k mixed within 1.5x of single: not measured")
    return lines


def target_million(rows):
    """The 1M cases (S2 N=1M at both cutoffs, S4 1M pairs) run."""
    wanted = [("S2", "1000000"), ("S4", "1000000 pairs")]
    expected = [r for r in rows if r["contender"] == PLUGIN and (r["case"], r["atoms"]) in wanted]
    if not expected:
        return ["- 1M runs: not run"]
    found = [r for r in expected if r["status"] == "ok"]
    names = ", ".join(f"{r['label']} {r['precision']} {r['ms_per_evaluation']:.3g} ms" for r in found)
    return [f"- 1M runs: {len(found)} of {len(expected)} measured ({names}) -> {verdict(len(found) == len(expected))}"]


def target_small(rows):
    """Groups of <= 1k atoms (S0 1k, S1 1k, S3 1k x 1k, S4 1k) <= 0.005 ms added per step (S6's restraints: target_md;
    M 1k: target_contacts)."""
    wanted = [("S0", "1000"), ("S1", "1024"), ("S3", "1000 x 1000"), ("S4", "1000 pairs")]
    found = [r for family, atoms in wanted for r in find(rows, PLUGIN, case=family, atoms=atoms)]
    title = "groups <= 1k atoms <= 0.005 ms added per step"
    if not found:
        return [f"- {title}: not measured"]
    worst = max(found, key=lambda r: r["added_ms_per_step"])
    return [f"- {title}: worst {worst['added_ms_per_step']:.4g} ms ({worst['label']} {worst['precision']}; "
            f"{len(found)} rows) -> {verdict(worst['added_ms_per_step'] <= 0.005)}"]


def target_versus_anchor(rows):
    """Self with a cutoff (S2 at dmax = 1 nm, each size run): the plugin >= 2x faster than OpenMM's
    CustomNonbondedForce on the same pairs (same case and precision)."""
    title = "Self, dmax = 1 nm: >= 2x faster than CustomNonbondedForce on the same pairs"
    anchors = {(r["label"], r["precision"]): r["added_ms_per_step"] for r in find(rows, CUSTOM_NONBONDED)}
    expected = [r for r in rows if r["contender"] == PLUGIN and r["case"] == "S2" and r["dmax_nm"] == "1"
                and not r["moving"]]
    if not expected:
        return [f"- {title}: not measured"]
    lines = []
    for r in expected:
        theirs = anchors.get((r["label"], r["precision"]))
        ours = r["added_ms_per_step"] if r["status"] == "ok" else None
        if theirs is None or ours is None or ours <= 0:
            lines.append(f"- {title} ({r['label']}, {r['precision']}): not measured")
            continue
        lines.append(f"- {title} ({r['label']}, {r['precision']}): {theirs / ours:.2f}x ({ours:.4g} vs {theirs:.4g} "
                     f"ms) -> {verdict(theirs / ours >= 2.0)}")
    return lines


def target_general_switching(rows):
    """S5's general switching function (d0 = 0.1 nm; n = 5, m = 11): the plugin >= 1.5x faster than OpenMM's
    CustomNonbondedForce on the same pairs and function (same case and precision)."""
    title = "S5 general switching function: >= 1.5x faster than CustomNonbondedForce on the same pairs"
    anchors = {(r["label"], r["precision"]): r["added_ms_per_step"] for r in find(rows, CUSTOM_NONBONDED, case="S5")}
    expected = [r for r in find(rows, PLUGIN, case="S5") if "d0=" in r["label"] or "n=5" in r["label"]]
    if not expected:
        return [f"- {title}: not measured"]
    lines = []
    for r in expected:
        theirs = anchors.get((r["label"], r["precision"]))
        ours = r["added_ms_per_step"]
        if theirs is None or ours <= 0:
            lines.append(f"- {title} ({r['label']}, {r['precision']}): not measured")
            continue
        lines.append(f"- {title} ({r['label']}, {r['precision']}): {theirs / ours:.2f}x ({ours:.4g} vs {theirs:.4g} "
                     f"ms) -> {verdict(theirs / ours >= 1.5)}")
    return lines


def target_versus_openmm(rows):
    """Every case: >= 5x lower added time than OpenMM's route (same case and precision)."""
    plugin = {(r["label"], r["precision"]): r["added_ms_per_step"] for r in find(rows, PLUGIN) if r["case"] != "S6"}
    ratios = []
    for r in find(rows, OPENMM):
        ours = plugin.get((r["label"], r["precision"]))
        if r["case"] != "S6" and ours is not None and ours > 0:
            ratios.append((r["added_ms_per_step"] / ours, r["label"], r["precision"]))
    if not ratios:
        return ["- >= 5x lower added time than OpenMM's route: no case with both measured"]
    worst = min(ratios)
    return [f"- >= 5x lower added time than OpenMM's route in every case: worst {worst[0]:.1f}x ({worst[1]} "
            f"{worst[2]}; {len(ratios)} cases compared) -> {verdict(worst[0] >= 5.0)}"]


def target_md(rows):
    """S6: each of the plugin's restraints (Dual 1k x 1k water oxygens, Self 100 oxygens) costs <= 2.5 % of the
    no-bias step."""
    found = find(rows, PLUGIN, case="S6")
    if not found:
        return ["- S6 restraints <= 2.5 % slower than no bias: not measured"]
    return [f"- S6 restraint <= 2.5 % slower than no bias ({r['label']}, {r['precision']}): "
            f"{r['slowdown_percent']:.2f} % -> {verdict(r['slowdown_percent'] <= 2.5)}" for r in found]


def target_numbers(rows):
    """N: CoordinationNumberForce SPECIES (MoreThan + Mean) at 10k and 100k atoms <= 1.4x CoordinationForce Self on
    the same atoms (same precision); SPECIES 1k <= 0.012 ms added per step; mixed within 1.3x of single."""
    species = [r for r in find(rows, PLUGIN, case="N") if r["label"].startswith("N SPECIES") and r["status"] == "ok"]
    if not species:
        return ["- N: CoordinationNumberForce targets: not measured"]
    coordination = {(r["atoms"], r["precision"]): r["added_ms_per_step"] for r in find(rows, PLUGIN, case="N")
                    if r["label"].startswith("N s ") and r["status"] == "ok"}
    lines = []
    for r in species:
        ours, theirs = r["added_ms_per_step"], coordination.get((r["atoms"], r["precision"]))
        if r["atoms"] == "1000":
            lines.append(f"- N SPECIES N=1k <= 0.012 ms added per step ({r['precision']}): {ours:.4g} ms -> "
                         f"{verdict(ours <= 0.012)}")
        elif theirs:
            lines.append(f"- {r['label']} <= 1.4x CoordinationForce Self on the same atoms ({r['precision']}): "
                         f"{ours / theirs:.2f}x ({ours:.4g} vs {theirs:.4g} ms) -> {verdict(ours <= 1.4 * theirs)}")
    single = {r["atoms"]: r["added_ms_per_step"] for r in species if r["precision"] == "single"}
    for r in species:
        if r["precision"] == "mixed" and single.get(r["atoms"]):
            ratio = r["added_ms_per_step"] / single[r["atoms"]]
            lines.append(f"- {r['label']} mixed within 1.3x of single: {ratio:.2f}x -> {verdict(ratio <= 1.3)}")
    return lines


def number_species_times(rows):
    """Family N's CoordinationNumberForce SPECIES rows: the added ms per step by (atoms, precision)."""
    return {(r["atoms"], r["precision"]): r["added_ms_per_step"] for r in find(rows, PLUGIN, case="N")
            if r["label"].startswith("N SPECIES") and r["status"] == "ok"}


def versus_number_species(row, numbers, limit):
    """A family Q row against family N's CoordinationNumberForce SPECIES on the same atoms (same precision): at most
    `limit` times its added time, PASS/MISS (numbers: number_species_times)."""
    ours, theirs = row["added_ms_per_step"], numbers.get((row["atoms"], row["precision"]))
    if not theirs:
        return f"- {row['label']} <= {limit:g}x CoordinationNumberForce SPECIES: not measured (no N row)"
    return (f"- {row['label']} <= {limit:g}x CoordinationNumberForce SPECIES on the same atoms ({row['precision']}): "
            f"{ours / theirs:.2f}x ({ours:.4g} vs {theirs:.4g} ms) -> {verdict(ours <= limit * theirs)}")


def target_steinhardt(rows):
    """Q: SteinhardtForce Q6 SPECIES (Mean + MoreThan) at 1k atoms <= 0.020 ms added per step; at 10k and 100k
    <= 2.5x family N's CoordinationNumberForce SPECIES on the same atoms (same precision)."""
    q6 = [r for r in find(rows, PLUGIN, case="Q") if r["status"] == "ok" and r["label"].startswith("Q Q6")]
    if not q6:
        return ["- Q: SteinhardtForce targets: not measured"]
    numbers = number_species_times(rows)
    return [f"- {r['label']} <= 0.020 ms added per step ({r['precision']}): {r['added_ms_per_step']:.4g} ms -> "
            f"{verdict(r['added_ms_per_step'] <= 0.020)}" if r["atoms"] == "1000"
            else versus_number_species(r, numbers, 2.5) for r in q6]


def target_local_steps(rows):
    """Q: LOCAL_Q6 and LOCAL_AVERAGE of Q6 SPECIES (Mean + MoreThan) at 10k and 100k atoms <= 4x family N's
    CoordinationNumberForce SPECIES on the same atoms (same precision)."""
    local = [r for r in find(rows, PLUGIN, case="Q") if r["status"] == "ok" and r["label"].startswith("Q LOCAL")
             and r["atoms"] != "1000"]
    if not local:
        return ["- Q: LOCAL_Q6 and LOCAL_AVERAGE targets: not measured"]
    numbers = number_species_times(rows)
    return [versus_number_species(r, numbers, 4) for r in local]


def target_contacts(rows):
    """M: a contact map (SUM of rational contacts) adds at most 5 us per evaluation at 1,000 contacts and 25 us at
    100,000 (every precision measured)."""
    limits = {"1000 pairs": 0.005, "100000 pairs": 0.025}
    lines = [f"- {r['label']} <= {1e3 * limits[r['atoms']]:g} us added per evaluation ({r['precision']}): "
             + (f"{1e3 * r['added_ms_per_step']:.3g} us -> {verdict(r['added_ms_per_step'] <= limits[r['atoms']])}"
                if r["added_ms_per_step"] > 0 else "not measured (the added time was below the run's noise)")
             for r in find(rows, PLUGIN, case="M") if r["atoms"] in limits and r["status"] == "ok"]
    return lines or ["- M: contact map targets (1k <= 5 us, 100k <= 25 us): not measured"]


def target_centers(rows):
    """V: a Dual force with a 1,000-atom centre of mass in group A at most 3 us slower per evaluation than the same
    force with one atom in its place (same precision)."""
    atoms = {r["precision"]: r for r in find(rows, PLUGIN, case="V") if r["label"].startswith("V atom")}
    lines = []
    for r in find(rows, PLUGIN, case="V"):
        plain = atoms.get(r["precision"])
        if r["label"].startswith("V COM") and plain:
            extra_us = 1e3 * (r["added_ms_per_step"] - plain["added_ms_per_step"])
            lines.append(f"- {r['label']} <= 3 us slower than {plain['label']} ({r['precision']}): {extra_us:+.2f} us "
                         f"({r['added_ms_per_step']:.4g} vs {plain['added_ms_per_step']:.4g} ms) -> "
                         f"{verdict(extra_us <= 3.0)}")
    return lines or ["- V: a centre in a group <= 3 us over an atom: not measured"]


def target_cpu_steinhardt(rows):
    """C: SteinhardtForce Q6 SPECIES at 10k atoms on the CPU platform with 16 threads >= 50x the Reference platform
    (case C's rows; the most threads measured where 16 were not)."""
    q6 = [r for r in find(rows, PLUGIN, case="C") if r["label"].startswith("C Q6") and r["status"] == "ok"]
    reference = {r["label"]: r["ms_per_evaluation"] for r in q6 if r["platform"] == "Reference"}
    threaded = [(int(r["platform"].split("(")[1].split()[0]), r) for r in q6 if r["platform"].startswith("CPU (")]
    if not threaded or not reference:
        return ["- C Q6: the CPU platform against the Reference platform: not measured"]
    lines = []
    for label in reference:
        counts = sorted((count, r) for count, r in threaded if r["label"] == label)
        if not counts:
            continue
        count, r = counts[-1]
        ratio = reference[label] / r["ms_per_evaluation"]
        verdict_text = verdict(ratio >= 50) if count >= 16 else f"not measured on 16 threads (the most here: {count})"
        lines.append(f"- {label}: the CPU platform on {count} threads >= 50x the Reference platform: {ratio:.1f}x "
                     f"({r['ms_per_evaluation']:.4g} vs {reference[label]:.4g} ms) -> {verdict_text}")
    return lines


def evaluate_targets(rows, platform):
    """The performance targets, one line each, with the measured number and PASS/MISS (rows on `platform`; case C's
    on the CPU-side platforms)."""
    cpu_lines = target_cpu_steinhardt(rows)
    rows = [r for r in rows if r["platform"] == platform]
    lines = target_throughput(rows) + target_versus_anchor(rows) + target_general_switching(rows)
    lines += target_time(rows, "S2 N=100k dmax=1 nm", 0.15, case="S2", atoms="100000", dmax_nm="1", moving=False)
    lines += target_time(rows, "S2 N=1M dmax=1 nm moving (list rebuilds included)", 1.0, case="S2",
                         atoms="1000000", dmax_nm="1", moving=True)
    lines += target_time(rows, "S0 N=128k", 0.3, case="S0", atoms="128000")
    lines += target_million(rows) + target_small(rows) + target_versus_openmm(rows) + target_md(rows)
    lines += target_numbers(rows) + target_steinhardt(rows) + target_local_steps(rows) + target_contacts(rows) + target_centers(rows)
    return lines + cpu_lines


def write_plot(rows, path):
    """results.png: ms per evaluation and unique pairs/s against the pairs in the sum. Returns a note."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no plot: matplotlib is not importable"
    shown = [r for r in rows if r["case"] in PAIR_FAMILIES and r["status"] in ("ok", "published") and r["pairs"]
             and r["ms_per_evaluation"] and r["ms_per_evaluation"] > 0]
    figure, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5))
    series = {}
    for r in shown:
        series.setdefault(f"{r['contender']} | {r['platform']} | {r['precision']}", []).append(r)
    for name, members in sorted(series.items()):
        members.sort(key=lambda r: r["pairs"])
        pairs = [r["pairs"] for r in members]
        marker = "*" if members[0]["contender"] == PLUMED else "o" if members[0]["contender"] == PLUGIN else "s"
        left.plot(pairs, [r["ms_per_evaluation"] for r in members], marker, label=name, alpha=0.8)
        right.plot(pairs, [r["pairs_per_second"] for r in members], marker, label=name, alpha=0.8)
    for precision, ceiling in ceilings_from_rows(rows).items():
        right.axhline(ceiling, linestyle="--", color="gray")
        right.annotate(f"pair-kernel ceiling ({precision})", (1.0, ceiling), xycoords=("axes fraction", "data"),
                       ha="right", va="bottom", fontsize=8, color="gray")
    for axis, label in ((left, "ms per evaluation (added per MD step)"), (right, "unique pairs per second")):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("unique pairs in the sum")
        axis.set_ylabel(label)
        axis.grid(True, which="both", alpha=0.3)
    right.legend(fontsize=7, loc="lower right")
    figure.suptitle("CoordinationForce benchmark suite (cases S0-S5)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return f"plot: {path}"


def ceilings_from_rows(rows):
    """{precision: ceiling pairs/s} recovered from rows that carry both pairs/s and % of the ceiling."""
    found = {}
    for r in rows:
        if r["pairs_per_second"] and r["ceiling_percent"]:
            key = "double" if r["precision"] == "double" else "single"
            found[key] = 100.0 * r["pairs_per_second"] / r["ceiling_percent"]
    return found


def read_csv(path):
    """Rows of a results.csv, numbers and flags converted back (so that evaluate_targets reads them as it reads
    the rows of a run)."""
    with open(path, newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    for row in rows:
        for name in NUMERIC_FIELDS:
            row[name] = float(row[name]) if row.get(name) not in (None, "") else None
        for name in ("pbc", "moving"):
            if name in row:
                row[name] = (row[name] == "True")
    return rows
