#!/usr/bin/env bash
# Before/after timings on the GPU machine, in one call: this tree ("after") against an older tree of the
# plugin ("before"), both built and installed on the same machine, timed by THIS tree's benchmark suite
# (the same cases and contenders for both), alternately, so that drift of the machine shows as the spread
# between runs of the same tree. Run in the repository root on the GPU machine:
#
#   here:   rm -rf .compare && mkdir -p .compare/before && git archive COMMIT | tar -x -C .compare/before
#           echo /.compare/ >> .git/info/exclude      (once; run's carry: .whl .compare)
#   there:  OUT=$OUT bash tools/device-compare.sh
#
# Environment: PLATFORM (default CUDA), WHEELS (default .whl: OpenMM and the build's tools as wheels,
# installed into /tmp/site; empty: the Python environment as it is), BEFORE (default .compare/before), RUNS
# (default "before after before after"; empty: only install both trees, into /tmp/site-before and
# /tmp/site-after, which later calls on the warm machine reuse unless REINSTALL=1), CASES (default S2; the
# suite's --cases), BENCH_ARGS (more suite options, e.g. "--precisions single"), GUARD (default 560 s:
# no run starts unless the longest run so far still fits). Logs: $OUT/bench-<tree>-<n>.log, the suite's
# results.csv/md per run, and a table of ms per evaluation (plugin and anchors) per run at the end.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
BEFORE=${BEFORE:-$ROOT/.compare/before}
OUT=${OUT:-/tmp/device-compare}
GUARD=${GUARD:-560}
SITE=/tmp/site
mkdir -p "$OUT"
exec > >(tee -a "$OUT/device-compare.log") 2>&1
export PYTHONUNBUFFERED=1
# The driver takes PTX of CUDA 13.0: the toolkit's own NVRTC, not a newer one.
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
left() { echo $((GUARD - SECONDS)); }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
[ -d "$BEFORE" ] || { echo "no before tree at $BEFORE (see the top of this script)"; exit 2; }
WHEELS=${WHEELS-.whl}
if [ -n "$WHEELS" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" "$WHEELS"/*.whl || exit 1
    export PATH="$SITE/bin:$PATH"
fi

# install TREE NAME: pip-install TREE's plugin into /tmp/site-NAME.
install() {
    local t0=$SECONDS rc
    if [ -f "/tmp/site-$2/openmmcoordination/__init__.py" ] && [ -z "${REINSTALL:-}" ]; then
        echo "$2: already installed in /tmp/site-$2 (REINSTALL=1 rebuilds it)"; return 0
    fi
    (cd "$1" && PYTHONPATH=$SITE python3 -m pip install -q --upgrade --no-build-isolation --no-deps --no-index \
        --target "/tmp/site-$2" .) > "$OUT/pip-$2.log" 2>&1
    rc=$?
    echo "$2: pip install exit status $rc in $((SECONDS - t0)) s"
    [ $rc = 0 ] || tail -30 "$OUT/pip-$2.log"
    return $rc
}
install "$ROOT" after & after_pid=$!
install "$BEFORE" before & before_pid=$!
wait $after_pid && wait $before_pid || exit 1

longest=${ESTIMATE:-150} number_after=0 number_before=0 logs=()
for tree in ${RUNS-before after before after}; do
    if [ "$tree" = before ]; then number_before=$((number_before + 1)); n=$number_before
    else number_after=$((number_after + 1)); n=$number_after; fi
    log="$OUT/bench-$tree-$n.log"
    if [ "$(left)" -lt "$longest" ]; then
        echo "$tree-$n: skipped ($(left) s left of $GUARD; a run takes about $longest s)"
        continue
    fi
    budget=$(( $(left) - 60 )); [ "$budget" -ge 30 ] || budget=30  # the suite starts no new work after it
    t0=$SECONDS
    # shellcheck disable=SC2086
    PYTHONPATH="/tmp/site-$tree:$SITE" timeout -k 15 "$(( $(left) - 5 ))" python3 benchmarks/benchmark_suite.py \
        --platform "${PLATFORM:-CUDA}" --cases "${CASES:-S2}" --no-targets --cpu-platforms "" --budget-seconds "$budget" \
        --out "$OUT/results-$tree-$n" ${BENCH_ARGS:-} > "$log" 2>&1
    echo "exit status $?" >> "$log"
    took=$((SECONDS - t0)); [ "$took" -gt "$longest" ] && longest=$took
    echo "$tree-$n: $took s, $(tail -1 "$log")"
    logs+=("$log")
done
[ ${#logs[@]} -gt 0 ] || exit 0

echo "== ms per evaluation (S6: ns/day and % slower) per run"
python3 - "${logs[@]}" <<'EOF'
import re, sys
rows, columns = {}, []
# "[ t s] label | contender | platform precision: x ms/eval, ..." and S6's "[ t s] label | contender: x ns/day, y % slower"
measured = re.compile(r"^\[\s*[\d.]+ s\] (.+?) \| (.+?)(?: \| (\S+ \S+))?: ([-\d.e+]+) (ms/eval|ns/day)(?:, ([-\d.e+]+) % slower)?")
for path in sys.argv[1:]:
    column = path.rsplit("/", 1)[-1][len("bench-"):-len(".log")]
    columns.append(column)
    for line in open(path, errors="replace"):
        match = measured.match(line)
        if match:
            label, contender, where, value, unit, slower = match.groups()
            key = (label, contender, where or "", unit)
            rows.setdefault(key, {})[column] = value + (f" ({slower} %)" if slower else "")
print("| case | contender | platform | unit | " + " | ".join(columns) + " |")
print("|---|---|---|---|" + "---:|" * len(columns))
for key, values in rows.items():
    print("| " + " | ".join(key) + " | " + " | ".join(values.get(column, "") for column in columns) + " |")
EOF
