#!/usr/bin/env bash
# The project's test command (README step 2; CI runs exactly this after installing packages):
#   build/       the default build (OpenCL + reference engines, VTK), then its ctest;
#   build-asan/  the program with ASan+UBSan, fuzzed (tools/fuzz/fuzz, 150 cases);
#   build-cuda/  when nvcc is found, the CUDA variant (-DCLFDTD_CUDA=ON; VTK left out there, which
#                build/ covers, to save build time), then its ctest. Its GPU cases skip with a
#                message on machines without a CUDA device; everything else runs.
# JOBS sets the parallel build jobs (default: all cores); CLFDTD_CUDA=OFF skips build-cuda/,
# CLFDTD_ASAN=OFF skips build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc)}

echo "run_tests: build/ (default options)"
cmake -S . -B build
cmake --build build -j"$jobs"
CLFDTD_TEST_REQUIRE=opencl ctest --test-dir build --output-on-failure

# The sanitizer check: the program built with ASan+UBSan (build-asan/, the clfdtd target only),
# run by the fuzzer at its reduced count; any sanitizer report fails it. CLFDTD_ASAN=OFF skips it.
if [ "${CLFDTD_ASAN:-ON}" != OFF ]; then
  echo "run_tests: build-asan/ (ASan+UBSan) and tools/fuzz/fuzz --cases 150 on it"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLFDTD_TESTS=OFF \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
  cmake --build build-asan -j"$jobs" --target clfdtd
  tools/fuzz/fuzz --bin build-asan/clfdtd --cases 150 --work build-asan/fuzz
else
  echo "run_tests: ASan+UBSan build and its fuzz run skipped (CLFDTD_ASAN=OFF)"
fi

if [ "${CLFDTD_CUDA:-auto}" = OFF ]; then
  echo "run_tests: CUDA variant skipped (CLFDTD_CUDA=OFF)"
  exit 0
fi
# CUDA toolkits install nvcc outside PATH.
if ! command -v nvcc > /dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if ! command -v nvcc > /dev/null 2>&1; then
  echo "run_tests: nvcc not found: CUDA variant NOT built (install the CUDA toolkit or put nvcc on PATH)"
  exit 0
fi
nvcc=$(command -v nvcc)
echo "run_tests: nvcc found ($nvcc, $(nvcc --version | grep -o 'release [0-9.]*')): building the CUDA variant in build-cuda/"
cmake -S . -B build-cuda -DCLFDTD_CUDA=ON -DCLFDTD_VTK=OFF -DCMAKE_CUDA_COMPILER="$nvcc"
cmake --build build-cuda -j"$jobs"
# The physics validation ran in build/ already (it drives the OpenCL engine and reads VTK
# snapshots, which build-cuda/ leaves out): skip it here.
ctest --test-dir build-cuda --output-on-failure -LE validation
