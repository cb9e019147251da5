#!/usr/bin/env bash
# Seed 000's table and seed 001's comparison on this machine (issue 19, docs/BENCHMARKS.md "2D"):
#   1. tools/plane_cpu_loop (clfdtd_plane_loop): the single-threaded -O3 2D Yee tm loop, PEC walls;
#   2. `clfdtd bench` on the 2D problems (plane_tm_pec: the same work as the loop; plane_tm with
#      10-layer UPML; plane_wave_pec, plane_wave: the scalar wave solver) with OpenCL on the GPU,
#      CUDA where the build has it, and OpenCL on the CPU (PoCL), at the small sizes (where the
#      GPU stops winning), seed 000's 500^2 .. 4000^2, and 16000^2 on GPUs;
#   3. the wave solver's two tile kernels at the same sizes: plane_wave_pec and plane_wave again
#      with --variant=tile (wave-pairsum, seed 001's pair sums) beside step 2's auto (wave-cross on
#      a GPU, wave-rows on a CPU);
#   4. tools/plane_speedup_table.py: plane_speedup.csv and plane_speedup.md in the output folder
#      (Gcells/s and the speed-up over the loop; wave vs maxwell tm: speed, roofline, memory/cell;
#      wave-pairsum vs the auto kernel; a kernel column naming what ran).
# Usage: tools/plane_speedup.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default build-plane; built here,
#        with CUDA when nvcc is found, unless BUILD_DIR/clfdtd exists)
# Environment: SMALL (default 50,100,200,300,400), SIZES (500,1000,2000,4000), HUGE (16000, GPUs
# only), REPEATS (5), VARIANT (auto; e.g. tile,rows for both), LOOP_SECONDS (1 per size), LOOP
# (0: keep OUT_DIR/cpu_loop.csv of an earlier call), TARGETS (opencl_gpu cuda_gpu opencl_cpu),
# PAIRSUM (1; 0: no wave-pairsum runs).
set -uo pipefail
out=${1:?usage: tools/plane_speedup.sh OUT_DIR [BUILD_DIR]}
build=${2:-build-plane}
small=${SMALL:-50,100,200,300,400}
sizes=${SIZES:-500,1000,2000,4000}
huge=${HUGE:-16000}
repeats=${REPEATS:-5}
variant=${VARIANT:-auto}
targets=${TARGETS:-opencl_gpu cuda_gpu opencl_cpu}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

if [ ! -x "$build/clfdtd" ]; then
  cuda=OFF
  command -v nvcc > /dev/null 2>&1 && cuda=ON
  cmake -S "$here/.." -B "$build" -DCLFDTD_VTK=OFF -DCLFDTD_CUDA=$cuda -DCLFDTD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release > "$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target clfdtd clfdtd_plane_loop > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
fi
[ -f .device/commit ] && export CLFDTD_COMMIT="$(cat .device/commit)"
export CLFDTD_CACHE_DIR="$out/cache"  # no tuning cache of the machine changes 'auto'

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
  lscpu 2>/dev/null | grep -E '^(Model name|CPU\(s\)|Thread|CPU max MHz)' || true
  "$build/clfdtd" devices 2>&1 || true
} > "$out/machine.txt"

if [ "${LOOP:-1}" = 1 ]; then
  echo "CPU loop (one thread, -O3): $small,$sizes"
  "$build/tools/plane_cpu_loop/clfdtd_plane_loop" --seconds "${LOOP_SECONDS:-1}" \
    ${small//,/ } ${sizes//,/ } | tee "$out/cpu_loop.csv"
fi

problems="plane_tm_pec plane_tm plane_wave_pec plane_wave"
bench_one() {  # label backend device sizes problem variant file-prefix
  echo "clfdtd bench: $1 ($2, device $3), $5, variant $6"
  "$build/clfdtd" bench --backend="$2" --device="$3" --problem="$5" --variant="$6" \
    --n="$4" --repeats="$repeats" --json="$out/$7_$1_$5.json" --csv="$out/bench.csv" \
    > "$out/$7_$1_$5.log" 2>&1
  local rc=$?
  cat "$out/$7_$1_$5.log"
  [ $rc = 0 ] || echo "($1 $5 $6: exit $rc, no rows)"
}
run_bench() {  # label backend device sizes: one call per problem, so one failing keeps the rest
  for p in $problems; do bench_one "$1" "$2" "$3" "$4" "$p" "$variant" bench; done
  # The wave's pair-sum tile (variant tile) at the same sizes, against auto's kernel above.
  if [ "${PAIRSUM:-1}" = 1 ]; then
    for p in plane_wave_pec plane_wave; do bench_one "$1" "$2" "$3" "$4" "$p" tile pairsum; done
  fi
}
for target in $targets; do
  case $target in
    opencl_gpu) run_bench opencl_gpu opencl gpu "$small,$sizes,$huge" ;;
    cuda_gpu)
      if "$build/clfdtd" devices 2>/dev/null | grep -q '^CUDA devices'; then
        run_bench cuda_gpu cuda gpu "$small,$sizes,$huge"
      else
        echo "(cuda_gpu: no CUDA device in this build)"
      fi ;;
    opencl_cpu) run_bench opencl_cpu opencl cpu "$small,$sizes" ;;
    *) echo "TARGETS: opencl_gpu, cuda_gpu or opencl_cpu, got '$target'"; exit 2 ;;
  esac
done

python3 "$here/plane_speedup_table.py" "$out"
