#!/usr/bin/env bash
# Runs every test and prints one combined count: the C++ suite (GoogleTest) once per platform case, the Python
# suite (pytest) in shards by platform case, the documentation site (tools/build-docs.sh, then tools/check-site.py
# in headless Chromium), and the wheel's smoke test in a fresh virtual environment. Expects the C++ build in
# build/cpp and the package installed in the given Python (tools/setup.sh does both). Usage: bash tools/run-tests.sh [PYTHON]
#
# The jobs run COORDINATION_TEST_JOBS at a time (default: the number of cores), longest first: most of a GPU
# case's time on PoCL is compiling kernel sources on one core. Each job writes build/test-reports/<job>.log,
# printed when the job ends.
#
# C++ cases: COORDINATION_TEST_CASES (default: the Reference platform and the CPU platform with the full setting
# matrices, the CPU platform's baseline (SSE2) loops with the covering designs (the CPU picks its AVX2 build
# where it can: `:baseline` sets COORDINATION_CPU_NO_AVX2), then OpenCL in single and double precision with the
# covering designs (`:quick`: the matrices of the engine's logic spread over the two, onThisPrecision in
# tests/cpp/TestPlatform.h); mixed precision, float pair terms with double sums, is the Python suite's shard
# OpenCL:mixed here and both suites' on a GPU machine (tools/gpu-check.sh); a case whose platform is missing here
# is skipped with the reason printed, a run that crashes counts as a failure).
# Python shards: COORDINATION_TEST_SHARDS (default "Reference,CPU OpenCL:single OpenCL:mixed OpenCL:double"):
# each shard sets COORDINATION_TEST_PLATFORMS (tests/python/coordination_testing.py); the first runs every test
# that is not per platform too, the others only their case's (pytest -k <case id>). They run with
# COORDINATION_TEST_QUICK=1: a test marked spread_over_precisions runs each of its settings on one of the GPU
# precisions (the same in every run) instead of all three, the Python suite's covering design (tools/gpu-check.sh
# runs every setting on every precision).
#
# OpenCL on the CPU (PoCL) is visible to these tests only: tools/setup.sh test writes an ICD directory
# build/opencl-vendors (PoCL plus the machine's own ICDs) and this script points OCL_ICD_VENDORS at it, with PoCL's
# 'auto' work-group method (POCL_WORK_GROUP_METHOD=auto, unless set), whose kernels compile faster than with its
# default: 15 cold C++ OpenCL tests took 44.6-48.2 s with it and 48.6-50.6 s without (PoCL 3.1, four runs each).
# PoCL also builds every program with -cl-opt-disable (POCL_EXTRA_BUILD_FLAGS, unless set): PoCL here stands in for a
# GPU to run the kernel sources, and most of a test's time is LLVM optimising each program; the optimised builds
# are the GPU compilers' (tools/gpu-check.sh). The C++ tests Centers and ContactMap (31 tests, cold cache, one job)
# took 56.1 s optimised and 31.6 s without; the Python OpenCL:single shard 279 s alone (478 s in a full run).
set -uo pipefail
cd "$(dirname "$0")/.."
python="${1:-python3}"
reports="build/test-reports"
rm -rf "$reports" && mkdir -p "$reports"
[ -d build/opencl-vendors ] && export OCL_ICD_VENDORS="$PWD/build/opencl-vendors"
export POCL_WORK_GROUP_METHOD="${POCL_WORK_GROUP_METHOD:-auto}"
export POCL_EXTRA_BUILD_FLAGS="${POCL_EXTRA_BUILD_FLAGS--cl-opt-disable}"
cpp_cases="${COORDINATION_TEST_CASES:-Reference CPU CPU:baseline:quick OpenCL:single:quick OpenCL:double:quick}"
shards="${COORDINATION_TEST_SHARDS:-Reference,CPU OpenCL:single OpenCL:mixed OpenCL:double}"
parallel="${COORDINATION_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}"
start=$SECONDS

# ---- the jobs -------------------------------------------------------------------------------------------------
# cpp CASE: the C++ program on one platform case (report cpp-<case>.json, exit code cpp-<case>.exit).
cpp_job() {
    local case="$1" platform quick=0 baseline=""
    platform="${case%:quick}"
    [ "$platform" != "$case" ] && quick=1
    [ "${platform%:baseline}" != "$platform" ] && baseline=1 && platform="${platform%:baseline}"
    local name="${case%:quick}"
    echo "C++ tests on $platform$([ -n "$baseline" ] && echo ', baseline loops')$([ $quick = 1 ] && echo ' (covering designs of the setting matrices)')"
    COORDINATION_TEST_PLATFORM="$platform" COORDINATION_TEST_QUICK="$quick" env ${baseline:+COORDINATION_CPU_NO_AVX2=1} \
        ./build/cpp/tests/cpp/TestCoordination --gtest_brief=1 --gtest_output="json:$reports/cpp-${name//:/-}.json" \
        2>&1 | grep -v "unsupported OpenCL implementation"
    local code="${PIPESTATUS[0]}"
    echo "$code" > "$reports/cpp-${name//:/-}.exit"
    return "$code"
}
# python SHARD: the Python suite's tests of one shard of platform cases (report python-<n>.xml).
python_job() {
    local shard="$1" index="$2" filter=()
    # The first shard also runs the tests that are not per platform; the others only their case's.
    [ "$index" -gt 0 ] && filter=(-k "$(echo "$shard" | tr ':' '-')")
    echo "Python tests, platform cases $shard"
    COORDINATION_TEST_PLATFORMS="$shard" COORDINATION_TEST_QUICK=1 "$python" -m pytest tests/python -q -rs -p no:cacheprovider \
        --junitxml="$reports/python-$index.xml" -W ignore::pytest.PytestUnraisableExceptionWarning "${filter[@]}" \
        2>&1 | grep -v "unsupported OpenCL implementation"
    return "${PIPESTATUS[0]}"
}
docs_job() {
    echo "documentation site (tools/build-docs.sh, then tools/check-site.py in headless Chromium)"
    if bash tools/build-docs.sh "$python" && "$python" tools/check-site.py; then
        echo "documentation site: build/docs/html/index.html"
        echo ok > "$reports/docs.status"
    else
        echo "documentation site: failed"
        echo failed > "$reports/docs.status"
        return 1
    fi
}
# The wheel in dist/, installed into a fresh virtual environment (pip and the wheel's declared dependencies only).
wheel_job() {
    local wheel version base root="$PWD"
    echo "the wheel in a fresh virtual environment (tests/wheel/smoke_test.py)"
    wheel=$(ls dist/openmmcoordination-*.whl 2>/dev/null | head -1)
    if [ -z "$wheel" ]; then
        echo "no wheel in dist/ (tools/build-wheel.sh makes it)" | tee "$reports/wheel.log"
        return 1
    fi
    version=$("$python" -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])" 2>/dev/null ||
              grep -m1 '^version' pyproject.toml | cut -d'"' -f2)
    base=$("$python" -c "import sys; print(sys._base_executable)")
    rm -rf build/wheel-venv
    if "$base" -m venv build/wheel-venv && build/wheel-venv/bin/python -m pip install -q --disable-pip-version-check "$wheel"; then
        (cd /tmp && "$root/build/wheel-venv/bin/python" "$root/tests/wheel/smoke_test.py" "$root/tests/data/plumed" "$version") \
            2>&1 | grep -v "unsupported OpenCL implementation" | tee "$reports/wheel.log"
    else
        echo "could not install $wheel into a fresh virtual environment" | tee "$reports/wheel.log"
    fi
    grep -q "wheel smoke test: [0-9]* passed, 0 failed" "$reports/wheel.log"
}

# Longest first: the GPU cases of both suites (the Python shards first, each suite's last case first: double
# precision has the most tests), then the rest.
jobs=()
index=0
for shard in $shards; do
    [ "$index" -gt 0 ] && jobs=("python_job $shard $index" "${jobs[@]}")
    index=$((index + 1))
done
gpu_cpp=()
for case in $cpp_cases; do [[ "$case" == OpenCL* || "$case" == CUDA* ]] && gpu_cpp=("cpp_job $case" "${gpu_cpp[@]}"); done
jobs+=("${gpu_cpp[@]}")
jobs+=("python_job ${shards%% *} 0")
for case in $cpp_cases; do [[ "$case" == OpenCL* || "$case" == CUDA* ]] || jobs+=("cpp_job $case"); done
jobs+=("wheel_job" "docs_job")

# ---- run them, $parallel at a time; print each job's log when it ends ----------------------------------------
status=0
declare -A running=()
finish() { # finish PID: print the job's log, record its status
    local pid=$1 code
    wait "$pid"
    code=$?
    local log="${running[$pid]}"
    echo "== $(head -1 "$log") [exit $code, $((SECONDS - start)) s]"
    tail -n +2 "$log"
    [ "$code" -eq 0 ] || status=1
    unset "running[$pid]"
}
number=0
for job in "${jobs[@]}"; do
    while [ "${#running[@]}" -ge "$parallel" ]; do
        wait -n -p done_pid "${!running[@]}" 2>/dev/null
        finish "$done_pid"
    done
    number=$((number + 1))
    log="$reports/job-$number.log"
    $job > "$log" 2>&1 &
    running[$!]="$log"
done
while [ "${#running[@]}" -gt 0 ]; do
    wait -n -p done_pid "${!running[@]}" 2>/dev/null
    finish "$done_pid"
done

"$python" - "$reports" $cpp_cases <<'PYTHON'
import glob, json, os, re, sys
import xml.etree.ElementTree as ElementTree
reports = sys.argv[1]
passed = failed = skipped = 0
for case in sys.argv[2:]:
    name = case[:-len(":quick")] if case.endswith(":quick") else case
    path = os.path.join(reports, "cpp-" + name.replace(":", "-") + ".json")
    if not os.path.exists(path):
        # The program printed "SKIPPED: ..." (platform not available here) and exited 0, or it crashed;
        # the Reference case must run.
        try:
            crashed = open(path[:-len(".json")] + ".exit").read().strip() != "0"
        except OSError:
            crashed = True
        if name == "Reference" or crashed:
            failed += 1
        else:
            skipped += 1
        continue
    try:
        report = json.load(open(path))
    except ValueError:
        failed += 1
        continue
    for suite in report.get("testsuites", []):
        for test in suite.get("testsuite", []):
            if test.get("failures"):
                failed += 1
            elif test.get("result") == "SKIPPED" or test.get("status") == "NOTRUN":
                skipped += 1
            else:
                passed += 1
shards = sorted(glob.glob(os.path.join(reports, "python-*.xml")))
if not shards:
    failed += 1
for path in shards:
    try:
        suite = ElementTree.parse(path).getroot()
        suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
        tests, fails, errors, skips = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
        failed += fails + errors
        skipped += skips
        passed += tests - fails - errors - skips
    except (OSError, ElementTree.ParseError, AttributeError):
        failed += 1
try:
    if open(os.path.join(reports, "docs.status")).read().strip() == "ok":
        passed += 1
    else:
        failed += 1
except OSError:
    failed += 1
try:
    counts = re.search(r"wheel smoke test: (\d+) passed, (\d+) failed", open(os.path.join(reports, "wheel.log")).read())
    passed += int(counts.group(1))
    failed += int(counts.group(2))
except (OSError, AttributeError):
    failed += 1  # no wheel, or the smoke test did not finish
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
PYTHON
echo "run-tests: $((SECONDS - start)) s with $parallel jobs at a time"
exit $status
