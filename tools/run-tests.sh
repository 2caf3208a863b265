#!/usr/bin/env bash
# Runs the C++ (GoogleTest) and Python (pytest) suites and prints one combined count.
# Expects a build in build/ and the package installed in the given Python (tools/setup.sh does both).
set -uo pipefail
cd "$(dirname "$0")/.."
python="${1:-python3}"
reports="build/test-reports"
rm -rf "$reports" && mkdir -p "$reports"

echo "== C++ tests (GoogleTest, Reference and CPU platforms)"
./build/tests/cpp/TestCoordination --gtest_output="json:$reports/cpp.json"
cpp_status=$?

echo "== Python tests (pytest)"
"$python" -m pytest tests/python -q --junitxml="$reports/python.xml"
python_status=$?

"$python" - "$reports" <<'PYTHON'
import json, os, sys
import xml.etree.ElementTree as ElementTree
reports = sys.argv[1]
passed = failed = skipped = 0
try:
    cpp = json.load(open(os.path.join(reports, "cpp.json")))
    failed += cpp["failures"] + cpp.get("errors", 0)
    skipped += cpp.get("disabled", 0)
    passed += cpp["tests"] - cpp["failures"] - cpp.get("errors", 0)
except (OSError, ValueError, KeyError):
    failed += 1  # the C++ suite did not report: count it as a failure
try:
    suite = ElementTree.parse(os.path.join(reports, "python.xml")).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    tests, fails, errors, skips = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
    failed += fails + errors
    skipped += skips
    passed += tests - fails - errors - skips
except (OSError, ElementTree.ParseError, AttributeError):
    failed += 1
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
PYTHON

[ $cpp_status -eq 0 ] && [ $python_status -eq 0 ]
