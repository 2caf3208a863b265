#!/usr/bin/env bash
# Before/after timings on one machine: this tree against another tree of the plugin (e.g. the commit before a
# change), both built here, timed alternately by THIS tree's benchmark suite (the same cases and contenders for
# both), so that the machine's drift shows as the spread between runs of the same tree.
#
#     git worktree add /tmp/before COMMIT          # or: mkdir /tmp/before && git archive COMMIT | tar -x -C /tmp/before
#     bash tools/compare-trees.sh /tmp/before [PYTHON]
#
# PYTHON (default .venv/bin/python, else python3): an interpreter whose environment has openmm (and for CUDA
# openmm-cuda-13/-12), numpy, swig==4.5.0, setuptools and wheel. Each tree is pip-installed into its own folder
# ($OUT/site-before, $OUT/site-after; reused unless REINSTALL=1) and imported from there.
#
# Environment: PLATFORM (default CUDA), CASES (default S2; the suite's --cases), MATCH (the suite's --match),
# BENCH_ARGS (more suite options, e.g. "--precisions single"), RUNS (default "before after before after"),
# GUARD (seconds; no run starts unless the longest run so far still fits, default: no limit), OUT (default
# build/compare). Logs: $OUT/bench-<tree>-<n>.log and the suite's results per run; at the end a table of each
# case's ms per evaluation (S6: ns/day and % slower) per run. A case that needs what a tree's module lacks (an
# older tree without ContactMapForce, say) is skipped by the suite in that tree's runs, one log line per case: its
# cells stay empty and the list under the table names it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$PWD
before=${1:?usage: bash tools/compare-trees.sh OTHER_TREE [PYTHON]}
before=$(cd "$before" && pwd) || exit 2
python="${2:-}"
if [ -z "$python" ]; then
    if [ -x .venv/bin/python ]; then python="$PWD/.venv/bin/python"; else python="$(command -v python3)"; fi
fi
[[ "$python" == */* ]] && python="$(cd "$(dirname "$python")" && pwd)/$(basename "$python")" # CMake wants it absolute
out=${OUT:-build/compare}
mkdir -p "$out" && out=$(cd "$out" && pwd)
guard=${GUARD:-0}
export PYTHONUNBUFFERED=1
left() { if [ "$guard" -gt 0 ]; then echo $((guard - SECONDS)); else echo 1000000; fi; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null

# install TREE NAME: pip-install TREE's plugin into $out/site-NAME.
install() {
    local t0=$SECONDS rc
    if [ -f "$out/site-$2/openmmcoordination/__init__.py" ] && [ -z "${REINSTALL:-}" ]; then
        echo "$2: already installed in $out/site-$2 (REINSTALL=1 rebuilds it)"; return 0
    fi
    # The interpreter's folder first on PATH: an older tree's CMake finds SWIG only on PATH (swig==4.5.0 from PyPI
    # lives next to the interpreter of a virtual environment that is not activated).
    (cd "$1" && PATH="$(dirname "$python"):$PATH" "$python" -m pip install -q --disable-pip-version-check --upgrade \
        --no-build-isolation --no-deps --target "$out/site-$2" .) > "$out/pip-$2.log" 2>&1
    rc=$?
    echo "$2: pip install exit status $rc in $((SECONDS - t0)) s"
    [ $rc = 0 ] || tail -30 "$out/pip-$2.log"
    return $rc
}
install "$root" after & after_pid=$!
install "$before" before & before_pid=$!
wait $after_pid && wait $before_pid || exit 1

longest=0 number_after=0 number_before=0 logs=()
for tree in ${RUNS-before after before after}; do
    if [ "$tree" = before ]; then number_before=$((number_before + 1)); n=$number_before
    else number_after=$((number_after + 1)); n=$number_after; fi
    log="$out/bench-$tree-$n.log"
    if [ "$(left)" -lt "$longest" ]; then
        echo "$tree-$n: skipped ($(left) s left of $guard; a run takes about $longest s)"
        continue
    fi
    budget=$(( $(left) - 60 )); [ "$budget" -ge 30 ] || budget=30  # the suite starts no new work after it
    t0=$SECONDS
    # shellcheck disable=SC2086
    PYTHONPATH="$out/site-$tree${PYTHONPATH:+:$PYTHONPATH}" "$python" benchmarks/benchmark_suite.py \
        --platform "${PLATFORM:-CUDA}" --cases "${CASES:-S2}" ${MATCH:+--match "$MATCH"} --no-targets \
        --cpu-platforms "" --budget-seconds "$budget" --out "$out/results-$tree-$n" ${BENCH_ARGS:-} > "$log" 2>&1
    echo "exit status $?" >> "$log"
    took=$((SECONDS - t0)); [ "$took" -gt "$longest" ] && longest=$took
    echo "$tree-$n: $took s, $(tail -1 "$log")"
    logs+=("$log")
done
[ ${#logs[@]} -gt 0 ] || exit 0

echo "== ms per evaluation (S6: ns/day and % slower) per run"
"$python" - "${logs[@]}" <<'PYTHON'
import re, sys
rows, columns, order, skipped = {}, [], [], {}
# "[ t s] label | contender | platform precision: x ms/eval, ..." and S6's "[ t s] label | contender: x ns/day, y % slower"
measured = re.compile(r"^\[\s*[\d.]+ s\] (.+?) \| (.+?)(?: \| (\S+ \S+))?: ([-\d.e+]+) (ms/eval|ns/day)(?:, ([-\d.e+]+) % slower)?")
# "[ t s] label: skipped: this tree has no ContactMapForce": a case the tree's module cannot build
lacking = re.compile(r"^\[\s*[\d.]+ s\] (.+?): skipped: (this tree has no .+)$")
for path in sys.argv[1:]:
    column = path.rsplit("/", 1)[-1][len("bench-"):-len(".log")]
    columns.append(column)
    previous = None
    for line in open(path, errors="replace"):
        match = measured.match(line)
        if match:
            label, contender, where, value, unit, slower = match.groups()
            key = (label, contender, where or "", unit)
            rows.setdefault(key, {})[column] = value + (f" ({slower} %)" if slower else "")
            if key not in order:  # a row one tree skipped goes where the tree that has it measured it
                order.insert(order.index(previous) + 1 if previous is not None else 0, key)
            previous = key
        match = lacking.match(line.rstrip("\n"))
        if match:
            skipped.setdefault(match.groups(), []).append(column)
print("| case | contender | platform | unit | " + " | ".join(columns) + " |")
print("|---|---|---|---|" + "---:|" * len(columns))
for key in order:
    print("| " + " | ".join(key) + " | " + " | ".join(rows[key].get(column, "") for column in columns) + " |")
if skipped:
    print("Skipped (the tree's module lacks what the case needs; empty cells above):")
    for (label, reason), skipping in skipped.items():
        print(f"- {label}: {reason} ({', '.join(skipping)})")
PYTHON
