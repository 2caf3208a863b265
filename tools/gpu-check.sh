#!/usr/bin/env bash
# The GPU check: builds the plugin and runs the C++ and Python suites on this machine's GPU platforms (CUDA,
# OpenCL) at single, mixed and double precision, one job per platform and precision, spread over the machine's
# GPUs (one job per GPU at a time), then prints a table of the counts. CI has no GPU: run this on one.
#
#     bash tools/gpu-check.sh [PYTHON]
#
# PYTHON (default .venv/bin/python, else python3) is an interpreter whose environment has openmm (plus
# openmm-cuda-13/-12 for CUDA), numpy, pytest, swig==4.5.0, setuptools and wheel (tools/setup.sh makes one);
# the plugin is built and pip-installed into it (pip's own PIP_TARGET, PIP_NO_INDEX and PIP_FIND_LINKS apply).
# GoogleTest: the system's, or its sources in GTEST_SOURCE_DIR (default /usr/src/googletest).
#
# Environment:
#   GPU_CHECK_PLATFORMS   platforms to check (default: CUDA and OpenCL, those OpenMM has here)
#   GPU_CHECK_PRECISIONS  default "single mixed double"
#   GPU_CHECK_STEPS       default "build cpp python"
#   GPU_CHECK_FULL=1      the C++ suite's full setting matrices instead of the covering designs CI runs on PoCL
#   GPU_CHECK_GTEST_FILTER, GPU_CHECK_PYTEST   narrow the C++ suite (a gtest filter) and the Python suite (paths)
#   GPU_CHECK_GPUS        the GPUs to use, e.g. "0 1" (default: every GPU nvidia-smi lists)
#   GPU_CHECK_OUT         where the logs go (default build/gpu-check)
# The Python suite's opt-in cases are passed through: COORDINATION_LARGE_TESTS=1 (a 5e9-pair sum),
# COORDINATION_TEST_DEVICE_INDEX ("0,0": a context over two devices).
set -uo pipefail
cd "$(dirname "$0")/.."
python="${1:-}"
if [ -z "$python" ]; then
    if [ -x .venv/bin/python ]; then python="$PWD/.venv/bin/python"; else python="$(command -v python3)"; fi
fi
[[ "$python" == */* ]] && python="$(cd "$(dirname "$python")" && pwd)/$(basename "$python")" # CMake wants it absolute
out="${GPU_CHECK_OUT:-build/gpu-check}"
steps="${GPU_CHECK_STEPS:-build cpp python}"
precisions="${GPU_CHECK_PRECISIONS:-single mixed double}"
mkdir -p "$out"
want() { [[ " $steps " == *" $1 "* ]]; }
export PYTHONUNBUFFERED=1
start=$SECONDS

echo "== machine"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
"$python" --version

if want build; then
    echo "== build: the Python package (pip install .) and the C++ tests (build/gpu-check/cpp)"
    "$python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps --upgrade . \
        > "$out/pip.log" 2>&1 || { tail -30 "$out/pip.log"; exit 1; }
    cmake -S . -B build/gpu-check/cpp -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$python" \
        -DCOORDINATION_GTEST_SOURCE_DIR="${GTEST_SOURCE_DIR:-/usr/src/googletest}" > "$out/cmake.log" 2>&1 ||
        { tail -30 "$out/cmake.log"; exit 1; }
    grep -E "plugin:" "$out/cmake.log"
    cmake --build build/gpu-check/cpp --parallel "$(nproc)" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
    echo "built in $((SECONDS - start)) s"
fi

# The GPU platforms OpenMM has here (with the plugin loaded), unless named.
platforms="${GPU_CHECK_PLATFORMS:-$("$python" -c "import openmmcoordination, openmm as mm
names = [mm.Platform.getPlatform(i).getName() for i in range(mm.Platform.getNumPlatforms())]
print(' '.join(name for name in ('CUDA', 'OpenCL') if name in names))" 2>/dev/null)}"
[ -n "$platforms" ] || { echo "gpu-check: OpenMM has no CUDA or OpenCL platform here"; exit 1; }
read -r -a gpu_list <<< "${GPU_CHECK_GPUS:-$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr '\n' ' ')}"
[ "${#gpu_list[@]}" -ge 1 ] || gpu_list=("")
gpus=${#gpu_list[@]}
echo "== platforms: $platforms; precisions: $precisions; GPUs: ${gpu_list[*]:-default}"

# One job: "cpp|python PLATFORM:PRECISION", its log $out/<kind>-<platform>-<precision>.log.
job() {
    local kind=${1% *} case=${1#* }
    local log="$out/$kind-${case/:/-}.log"
    if [ "$kind" = cpp ]; then
        COORDINATION_TEST_PLATFORM="$case" COORDINATION_TEST_QUICK=$([ "${GPU_CHECK_FULL:-0}" = 1 ] && echo 0 || echo 1) \
            ./build/gpu-check/cpp/tests/cpp/TestCoordination --gtest_brief=1 \
            --gtest_filter="${GPU_CHECK_GTEST_FILTER:-*}" > "$log" 2>&1
    else
        # shellcheck disable=SC2086
        COORDINATION_TEST_PLATFORMS="$case" "$python" -m pytest ${GPU_CHECK_PYTEST:-tests/python} -q -rfs \
            -p no:cacheprovider -W ignore::pytest.PytestUnraisableExceptionWarning > "$log" 2>&1
    fi
    echo "exit status $?" >> "$log"
    echo "$kind $case: done at $((SECONDS - start)) s (GPU ${CUDA_VISIBLE_DEVICES:-default})"
}
jobs=()
for platform in $platforms; do
    for precision in $precisions; do
        want cpp && jobs+=("cpp $platform:$precision")
        want python && jobs+=("python $platform:$precision")
    done
done
# Job k on the (k mod $gpus)-th GPU, one at a time per GPU (a second CUDA process on a GPU may be refused contexts).
for ((g = 0; g < gpus; g++)); do
    (
        [ -n "${gpu_list[g]}" ] && export CUDA_VISIBLE_DEVICES=${gpu_list[g]}
        for ((k = g; k < ${#jobs[@]}; k += gpus)); do
            job "${jobs[k]}"
        done
    ) &
done
wait

echo "== summary ($((SECONDS - start)) s)"
printf "| %-6s | %-16s | %s |\n" suite case result
status=0
for entry in "${jobs[@]}"; do
    kind=${entry% *} case=${entry#* }
    log="$out/$kind-${case/:/-}.log"
    code=$(grep -h "^exit status" "$log" | awk '{ print $3 }')
    if [ "$kind" = cpp ]; then
        result="$(grep -oE "^\[  PASSED  \] [0-9]+" "$log" | grep -oE "[0-9]+$" || echo 0) passed, $(grep -oE "^\[  FAILED  \] [0-9]+ test" "$log" | grep -oE "[0-9]+" || echo 0) failed, $(grep -oE "^\[  SKIPPED \] [0-9]+" "$log" | grep -oE "[0-9]+$" || echo 0) skipped"
    else
        result="$(tail -3 "$log" | grep -E "passed|failed|error" | tail -1)"
    fi
    printf "| %-6s | %-16s | %s (exit %s) |\n" "$kind" "$case" "$result" "$code"
    [ "$code" = 0 ] || status=1
done
exit $status
