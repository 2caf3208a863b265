#!/usr/bin/env bash
# The CUDA check, run on the GPU machine in the repository root (see the README, "Checking CUDA on a
# GPU machine"). It needs the wheels in .whl/ (openmm and openmm-cuda-13 for Python 3.12, swig, pytest
# and its dependencies, setuptools, wheel) and, if that machine has no GoogleTest, its sources in
# .devcarry/googletest. Steps:
#   1. install the wheels into /tmp/site;
#   2. build and install the plugin (C++ libraries, Reference/OpenCL/CUDA plugins, Python module);
#   3. the C++ suite and the Python suite on CUDA at single, mixed and double precision;
#   4. a short NVE run per precision; 5. host transfers per step; 6. a first timing (10k atoms, Self);
#   7. the benchmark suite (benchmarks/benchmark_suite.py; BENCH_ARGS adds options, e.g. "--cases S1,S2");
#      7b. every switching type (benchmarks/switching_types.py); 7c. the CPU platform (benchmarks/benchmark_cpu.py);
#      7d. (only if asked) the NaCl metadynamics showcase's long run (examples/nacl_metadynamics.py --long);
#      7e. (only if asked: step "docs") the migration pages' CUDA tables (examples/from_plumed.py and
#          examples/from_customcv.py --markdown, to $OUT/from-plumed.md and $OUT/from-customcv-cuda.md);
#   8. Nsight Compute profiles of the tile kernel (S1 all pairs, N = 131072; S2 dmax = 1 nm, N = 100000);
# then a summary table. Logs go to $OUT (default /tmp/device-check). DEVICE_CHECK_LARGE=0 leaves out the
# Python suite's 5e9-pair case (its Reference value takes minutes); DEVICE_CHECK_CASES and
# DEVICE_CHECK_PYTEST narrow the Python suite's platform cases and files.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/device-check}"
mkdir -p "$OUT"
exec > >(tee -a "$OUT/device-check.log") 2>&1
export PYTHONUNBUFFERED=1
# The driver takes PTX of CUDA 13.0: use the toolkit's own NVRTC, not a newer one.
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
site=/tmp/site
# DEVICE_CHECK_STEPS picks steps (default all but showcase): "cpp python nve transfers timing bench types cpubench
# showcase profile".
steps="${DEVICE_CHECK_STEPS:-cpp python nve transfers timing bench types cpubench profile}"
want() { [[ " $steps " == *" $1 "* ]]; }
summary=()
record() { summary+=("| $1 | $2 |"); }

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 --version

echo "== 1. wheels"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" .whl/*.whl || exit 1
export PYTHONPATH="$site" PATH="$site/bin:$PATH"
python3 -c "import openmm; print('OpenMM', openmm.__version__, [openmm.Platform.getPlatform(i).getName() for i in range(openmm.Platform.getNumPlatforms())]); print(openmm.Platform.getPluginLoadFailures())"

echo "== 2. build"
start=$SECONDS
# DEVICE_CHECK_PIP=0 leaves out the Python module (the C++ suite needs only the CMake build).
if [ "${DEVICE_CHECK_PIP:-1}" = 1 ]; then
    python3 -m pip install -q --upgrade --no-build-isolation --no-deps --no-index --target "$site" . || exit 1
fi
cmake -S . -B build/cpp -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$(command -v python3)" \
      -DCOORDINATION_GTEST_SOURCE_DIR="$PWD/.devcarry/googletest" > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
grep -E "plugin:" "$OUT/cmake.log"
cmake --build build/cpp --parallel 16 > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
[ "${DEVICE_CHECK_PIP:-1}" = 1 ] && python3 -c "import openmmcoordination as c; print('plugins loaded:', c.pluginLoadedLibNames)"
record "build (pip install + C++ tests)" "$((SECONDS - start)) s"
echo "build: $((SECONDS - start)) s"

want cpp && echo "== 3a. C++ suite on CUDA"
# DEVICE_CHECK_PRECISIONS picks precisions (default "single mixed double"), DEVICE_CHECK_GTEST_FILTER narrows
# the suite.
# One CUDA process per GPU: a second process on the same GPU is refused contexts ("No compatible CUDA device").
# With several GPUs the work is spread over them: each precision's C++ suite in DEVICE_CHECK_SHARDS GoogleTest
# shards (GTEST_SHARD_INDEX; default one per GPU, each its own process), and the Python suite's cases.
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l); [ "$gpus" -ge 1 ] || gpus=1
shards=${DEVICE_CHECK_SHARDS:-$gpus}
# cpp_shard "PRECISION SHARD": one shard of one precision's suite, into cpp-PRECISION.log (one shard) or
# cpp-PRECISION-SHARD.log.
cpp_log() { if [ "$shards" = 1 ]; then echo "$OUT/cpp-$1.log"; else echo "$OUT/cpp-$1-$2.log"; fi; }
cpp_shard() {
    local precision=${1% *} shard=${1#* } log
    log=$(cpp_log "$precision" "$shard")
    # The setting matrices as in CI's OpenCL runs (covering subset); DEVICE_CHECK_FULL=1 runs all 48 settings.
    GTEST_SHARD_INDEX=$shard GTEST_TOTAL_SHARDS=$shards COORDINATION_TEST_PLATFORM="CUDA:$precision" \
        COORDINATION_TEST_QUICK=$([ "${DEVICE_CHECK_FULL:-0}" = 1 ] && echo 0 || echo 1) \
        ./build/cpp/tests/cpp/TestCoordination --gtest_brief=1 --gtest_filter="${DEVICE_CHECK_GTEST_FILTER:-*}" \
        > "$log" 2>&1
    echo "exit status $?" >> "$log"
    echo "CUDA $precision, shard $((shard + 1)) of $shards, done at $SECONDS s"
}
# on_gpus CMD ITEM...: runs "CMD ITEM" for every item, item k on GPU k mod $gpus; one at a time per GPU.
on_gpus() {
    local cmd=$1; shift
    local items=("$@") g k
    for ((g = 0; g < gpus; g++)); do
        ( for ((k = g; k < ${#items[@]}; k += gpus)); do CUDA_VISIBLE_DEVICES=$g "$cmd" "${items[k]}"; done ) &
    done
    wait
}
# count WORD FILE...: the sum of GoogleTest's "[  WORD  ] N tests" lines over the files.
count() {
    local word=$1; shift
    grep -hE "^\[ +$word +\] [0-9]+ test" "$@" | awk '{ n += $4 } END { print n + 0 }'
}
if want cpp; then
    items=()
    for precision in ${DEVICE_CHECK_PRECISIONS:-single mixed double}; do
        for ((shard = 0; shard < shards; shard++)); do items+=("$precision $shard"); done
    done
    on_gpus cpp_shard "${items[@]}"
    for precision in ${DEVICE_CHECK_PRECISIONS:-single mixed double}; do
        logs=()
        for ((shard = 0; shard < shards; shard++)); do logs+=("$(cpp_log "$precision" "$shard")"); done
        line="$(count PASSED "${logs[@]}") passed, $(count FAILED "${logs[@]}") failed, $(count SKIPPED "${logs[@]}") skipped"
        line+=" ($shards shard(s), exit status $(grep -h "^exit status" "${logs[@]}" | awk '{ print $3 }' | sort -u | tr '\n' ' '))"
        echo "CUDA $precision (filter ${DEVICE_CHECK_GTEST_FILTER:-*}): $line"
        grep -hE "^\[  FAILED  \]" "${logs[@]}" | head -20
        record "C++ suite, CUDA $precision" "$line"
    done
fi

if want python; then
echo "== 3b. Python suite on CUDA (large-N and multi-context cases on)"
# DEVICE_CHECK_PYTEST picks what pytest runs (default: the whole suite), e.g. "tests/python/test_gpu_platforms.py".
# The cases (DEVICE_CHECK_CASES, comma-separated) are split over the GPUs: with two, single + mixed on GPU 0
# and double on GPU 1 (double alone takes about as long as the other two); with three or more, one each;
# pytest-<cases>.log each.
cases="${DEVICE_CHECK_CASES:-CUDA:single,CUDA:mixed,CUDA:double}"
groups=("$cases")
if [ -z "${DEVICE_CHECK_CASES:-}" ]; then
    if [ "$gpus" -ge 3 ]; then groups=("CUDA:single" "CUDA:mixed" "CUDA:double")
    elif [ "$gpus" = 2 ]; then groups=("CUDA:single,CUDA:mixed" "CUDA:double"); fi
fi
pytest_cases() {
    local log="$OUT/pytest-$(echo "$1" | tr -d 'A-Z:' | tr ',' '-').log"
    COORDINATION_TEST_PLATFORMS="$1" COORDINATION_LARGE_TESTS="${DEVICE_CHECK_LARGE:-1}" COORDINATION_TEST_DEVICE_INDEX="0,0" \
        python3 -m pytest ${DEVICE_CHECK_PYTEST:-tests/python} -q -rs -p no:cacheprovider > "$log" 2>&1
    echo "exit status $?" >> "$log"
}
on_gpus pytest_cases "${groups[@]}"
for group in "${groups[@]}"; do
    log="$OUT/pytest-$(echo "$group" | tr -d 'A-Z:' | tr ',' '-').log"
    tail -30 "$log"
    record "Python suite, $group" "$(tail -2 "$log" | tr '\n' ' ')"
done
fi

want nve && echo "== 4. NVE energy conservation"
want nve && for precision in single mixed double; do
    python3 tools/nve_check.py --platform CUDA --precision "$precision" --steps 10000 > "$OUT/nve-$precision.log" 2>&1
    cat "$OUT/nve-$precision.log"
    record "NVE, CUDA $precision" "$(grep RESULT "$OUT/nve-$precision.log")"
done

if want transfers; then
echo "== 5. host transfers per step"
cc -shared -fPIC -O2 -o /tmp/libtransfercount.so tools/transfer_count.c -ldl
LD_PRELOAD=/tmp/libtransfercount.so python3 tools/count_transfers.py --platform CUDA --precision mixed --atoms 8000 \
    --steps 1000 > "$OUT/transfers.log" 2>&1
cat "$OUT/transfers.log"
record "host transfers/syncs added per step" "$(grep RESULT "$OUT/transfers.log")"
fi

if want timing; then
echo "== 6. first timing: Self mode, 10,000 atoms"
python3 benchmarks/benchmark_gpu.py --platform CUDA --sizes 10000 --steps 50 --csv "$OUT/timing.csv" \
    > "$OUT/timing.log" 2>&1
cat "$OUT/timing.log"
fi

if want bench; then
echo "== 7. benchmark suite"
# shellcheck disable=SC2086
python3 benchmarks/benchmark_suite.py --platform CUDA --out "$OUT/benchmarks" ${BENCH_ARGS:-} \
    > "$OUT/benchmark-suite.log" 2>&1
echo "exit status $?" >> "$OUT/benchmark-suite.log"
cat "$OUT/benchmark-suite.log"
record "benchmark suite" "$(tail -1 "$OUT/benchmark-suite.log")"
fi

if want types; then
echo "== 7b. every switching type: time per evaluation (16,384 atoms, no cutoff and dmax = 1 nm)"
for precision in single mixed; do
    python3 benchmarks/switching_types.py --platform CUDA --precision "$precision" --atoms 16384 \
        --out "$OUT/switching-types-$precision" > "$OUT/switching-types-$precision.log" 2>&1
    echo "exit status $?" >> "$OUT/switching-types-$precision.log"
    cat "$OUT/switching-types-$precision.log"
done
fi

if want cpubench; then
echo "== 7c. the CPU platform's kernel against the Reference kernel, every core of this machine"
python3 benchmarks/benchmark_cpu.py --out "$OUT/cpu" > "$OUT/benchmark-cpu.log" 2>&1
echo "exit status $?" >> "$OUT/benchmark-cpu.log"
cat "$OUT/benchmark-cpu.log"
fi

if want docs; then
echo "== 7e. the migration pages' CUDA tables (mixed precision)"
python3 examples/from_plumed.py --platforms Reference,CPU,CUDA --markdown "$OUT/from-plumed.md" > "$OUT/from-plumed.log" 2>&1
echo "exit status $?" >> "$OUT/from-plumed.log"
python3 examples/from_customcv.py --platforms CUDA --markdown "$OUT/from-customcv-cuda.md" > "$OUT/from-customcv.log" 2>&1
echo "exit status $?" >> "$OUT/from-customcv.log"
cat "$OUT/from-plumed.log" "$OUT/from-customcv.log"
record "migration pages' CUDA tables" "$(grep -h "exit status" "$OUT/from-plumed.log" "$OUT/from-customcv.log" | tr '\n' ' ')"
fi

if want showcase; then
echo "== 7d. the NaCl metadynamics showcase, long run on CUDA (SHOWCASE_MINUTES of wall time)"
python3 examples/nacl_metadynamics.py --long --platform CUDA --max-minutes "${SHOWCASE_MINUTES:-8}" \
    --out "$OUT/showcase" > "$OUT/showcase.log" 2>&1
echo "exit status $?" >> "$OUT/showcase.log"
tr '\r' '\n' < "$OUT/showcase.log" | grep -v "it/s\|step/s" | tail -8
fi

if want profile; then
echo "== 8. Nsight Compute profiles of the tile kernel"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for spec in "S1 131072" "S2 100000"; do
    read -r case atoms <<< "$spec"
    "$ncu" --target-processes all -k regex:computeCoordinationTiles --launch-skip 3 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis \
        --section MemoryWorkloadAnalysis --section InstructionStats --section LaunchStats \
        --metrics sm__sass_thread_inst_executed_op_ffma_pred_on.sum,sm__sass_thread_inst_executed_op_fadd_pred_on.sum,sm__sass_thread_inst_executed_op_fmul_pred_on.sum,sm__cycles_elapsed.avg.per_second \
        python3 benchmarks/profile_case.py --case "$case" --atoms "$atoms" > "$OUT/profile-$case.log" 2>&1
    echo "exit status $?" >> "$OUT/profile-$case.log"
    grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Executed Ipc A|Issue Slots Busy|L1/TEX Hit|pred_on.sum|per_second|exit status|s=" \
        "$OUT/profile-$case.log"
done
fi

echo "== summary"
echo "| check | result |"
echo "|---|---|"
printf '%s\n' "${summary[@]}"
