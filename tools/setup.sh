#!/usr/bin/env bash
# Installs everything openmm-coordination needs on a Debian machine, builds it, then either runs the
# demo or runs every test. Usage: bash tools/setup.sh demo | test
#   - system packages (apt): compiler, CMake, GoogleTest, Python with venv and headers, and OpenCL on
#     the CPU (PoCL + the OpenCL headers) so the GPU kernel source runs on OpenMM's OpenCL platform
#   - a virtual environment .venv with OpenMM 8.6 (PyPI), numpy, pytest, SWIG 4.5 (the openmm wheel's)
#   - `pip install .` into it: the C++ libraries, the platform plugins and the Python module
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-test}"
case "$what" in demo|test) ;; *) echo "usage: bash tools/setup.sh demo|test" >&2; exit 2 ;; esac

packages=(build-essential cmake libgtest-dev python3 python3-venv python3-dev python3-pip
          pocl-opencl-icd ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers doxygen)
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "== installing system packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "== creating .venv with $($python --version)"
    "$python" -m venv .venv
fi
venv_python="$PWD/.venv/bin/python"
echo "== installing Python packages"
"$venv_python" -m pip install -q --disable-pip-version-check --upgrade pip
"$venv_python" -m pip install -q --disable-pip-version-check "openmm==8.6.*" numpy pytest "swig==4.5.0" tqdm matplotlib
echo "== building and installing openmm-coordination (pip install .)"
"$venv_python" -m pip install -q --disable-pip-version-check .

if [ "$what" = demo ]; then
    exec "$venv_python" examples/nacl_metadynamics.py --out examples/output
fi

echo "== building the C++ tests"
jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S . -B build/cpp -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$venv_python" >/dev/null
cmake --build build/cpp --parallel "$jobs" >/dev/null
exec bash tools/run-tests.sh "$venv_python"
