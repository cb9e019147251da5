#!/usr/bin/env bash
# One call on a lent GPU machine (see DEVELOPERS.md: run `source .device/setup.sh &&
# tools/bench_device.sh` with .device carried): builds without VTK (with the CUDA backend too
# where nvcc exists), checks every kernel variant of each GPU backend against the reference engine
# on that GPU, then runs the benchmark (all problems and variants at N, output costs, the tuner)
# for OpenCL and CUDA and leaves logs, CSV and JSON under $OUT (or ./out).
# Usage: tools/bench_device.sh [N] [extra clfdtd bench options...]
set -uo pipefail
n=${1:-512}
shift || true
out=${OUT:-out}
mkdir -p "$out"
build=build-device
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
  cuda=OFF
  command -v nvcc > /dev/null 2>&1 && cuda=ON
  backends=opencl
  [ $cuda = ON ] && backends=opencl,cuda
  cmake -S . -B "$build" -DCLFDTD_VTK=OFF -DCLFDTD_CUDA=$cuda -DCMAKE_BUILD_TYPE=Release \
    > "$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  "$build/clfdtd" devices
  # Correctness on this GPU first: every variant against the double-precision reference.
  "$build/tests/test_engine" -tc='engine vs reference*' > "$out/check.log" 2>&1
  echo "GPU backends vs reference on this machine: exit $? ($(tail -2 "$out/check.log" | head -1))"
  export CLFDTD_CACHE_DIR="$out/cache"
  # The copy carries no git history: the caller writes the revision into .device/commit.
  [ -f .device/commit ] && export CLFDTD_COMMIT="$(cat .device/commit)"
  "$build/clfdtd" bench --backend="$backends" --n="$n" --tune --outputs --csv="$out/bench.csv" \
    --json="$out/bench.json" "$@" 2>&1 | tee "$out/bench.log"
} 2>&1 | tee "$out/device.log"
