#!/usr/bin/env bash
# Runs the C++ (GoogleTest) and Python (pytest) suites and prints one combined count.
# Expects the C++ build in build/cpp and the package installed in the given Python (tools/setup.sh
# does both).
#
# Platforms: the C++ program runs once per case of COORDINATION_TEST_CASES (default: the Reference
# platform and the CPU platform with the full setting matrices, the CPU platform's baseline (SSE2) loops
# with the covering subset (the CPU picks its AVX2 build where it can: `:baseline` sets
# COORDINATION_CPU_NO_AVX2), then OpenCL at each precision with the covering subset; a case whose
# platform is missing here is skipped with the reason printed, a run that crashes counts as a failure). pytest chooses its cases
# from COORDINATION_TEST_PLATFORMS (see tests/python/coordination_testing.py).
#
# OpenCL on the CPU (PoCL) is visible to these tests only: tools/setup.sh test writes an ICD directory
# build/opencl-vendors (PoCL plus the machine's own ICDs) and this script points OCL_ICD_VENDORS at it.
# Last, the wheel in dist/ is installed into a fresh virtual environment (pip and the wheel's declared
# dependencies only) and tests/wheel/smoke_test.py runs there.
set -uo pipefail
cd "$(dirname "$0")/.."
python="${1:-python3}"
reports="build/test-reports"
rm -rf "$reports" && mkdir -p "$reports"
[ -d build/opencl-vendors ] && export OCL_ICD_VENDORS="$PWD/build/opencl-vendors"
cases="${COORDINATION_TEST_CASES:-Reference CPU CPU:baseline:quick OpenCL:single:quick OpenCL:mixed:quick OpenCL:double:quick}"

status=0
for case in $cases; do
    platform="${case%:quick}"
    quick=0
    [ "$platform" != "$case" ] && quick=1
    baseline=""
    [ "${platform%:baseline}" != "$platform" ] && baseline=1 && platform="${platform%:baseline}"
    echo "== C++ tests on $platform$([ -n "$baseline" ] && echo ', baseline loops')$([ $quick = 1 ] && echo ' (covering subset of the setting matrices)')"
    name="${case%:quick}"
    COORDINATION_TEST_PLATFORM="$platform" COORDINATION_TEST_QUICK="$quick" env ${baseline:+COORDINATION_CPU_NO_AVX2=1} \
        ./build/cpp/tests/cpp/TestCoordination --gtest_brief=1 --gtest_output="json:$reports/cpp-${name//:/-}.json" \
        2>&1 | grep -v "unsupported OpenCL implementation"
    code="${PIPESTATUS[0]}"
    echo "$code" > "$reports/cpp-${name//:/-}.exit"
    [ "$code" -eq 0 ] || status=1
done

echo "== API reference (doxygen docs/api/Doxyfile: fails on an undocumented public member)"
mkdir -p build/docs/api
if doxygen docs/api/Doxyfile && [ -f build/docs/api/html/classCoordinationPlugin_1_1CoordinationForce.html ]; then
    echo "API reference: build/docs/api/html/index.html"
    echo ok > "$reports/docs.status"
else
    echo "API reference: doxygen failed" && echo failed > "$reports/docs.status"
    status=1
fi

echo "== Python tests (pytest)"
"$python" -m pytest tests/python -q -rs -p no:cacheprovider --junitxml="$reports/python.xml" \
    -W ignore::pytest.PytestUnraisableExceptionWarning
[ $? -eq 0 ] || status=1

echo "== the wheel in a fresh virtual environment (tests/wheel/smoke_test.py)"
wheel=$(ls dist/openmmcoordination-*.whl 2>/dev/null | head -1)
if [ -n "$wheel" ]; then
    version=$("$python" -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])" 2>/dev/null ||
              grep -m1 '^version' pyproject.toml | cut -d'"' -f2)
    base=$("$python" -c "import sys; print(sys._base_executable)")
    rm -rf build/wheel-venv
    if "$base" -m venv build/wheel-venv && build/wheel-venv/bin/python -m pip install -q --disable-pip-version-check "$wheel"; then
        root="$PWD"
        (cd /tmp && "$root/build/wheel-venv/bin/python" "$root/tests/wheel/smoke_test.py" "$root/tests/data/plumed" "$version") \
            2>&1 | grep -v "unsupported OpenCL implementation" | tee "$reports/wheel.log"
    else
        echo "could not install $wheel into a fresh virtual environment" | tee "$reports/wheel.log"
    fi
else
    echo "no wheel in dist/ (tools/build-wheel.sh makes it)" | tee "$reports/wheel.log"
fi
grep -q "wheel smoke test: [0-9]* passed, 0 failed" "$reports/wheel.log" || status=1

"$python" - "$reports" $cases <<'PYTHON'
import json, os, re, sys
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
try:
    suite = ElementTree.parse(os.path.join(reports, "python.xml")).getroot()
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

exit $status
