#!/usr/bin/env bash
# Builds the documentation site into build/docs/html: the C++ API as Doxygen XML (docs/api/Doxyfile, warnings as
# errors: an undocumented public member fails), then Sphinx over docs/ (docs/conf.py) with warnings as errors,
# which documents the installed Python package, reads the XML for the C++ reference and runs the tutorials (the
# scripts of examples/, on the CPU platform). tools/check-site.py then checks the result in headless Chromium.
# Usage: bash tools/build-docs.sh [PYTHON]   (default .venv/bin/python: it has openmmcoordination and Sphinx)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-.venv/bin/python}"
rm -rf build/docs/doxygen build/docs/html build/docs/doctrees build/docs/gallery-output docs/tutorials
mkdir -p build/docs
doxygen docs/api/Doxyfile
"$python" -m sphinx -W --keep-going -n -q -b html -d build/docs/doctrees docs build/docs/html
echo "documentation: build/docs/html/index.html"
