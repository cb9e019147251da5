#!/usr/bin/env bash
# The seed's GPU optimisations, measured on the cylindrical engine (issue 20, docs/BENCHMARKS.md
# "cylindrical"): `clfdtd bench` on cyl_cpml and cyl_pec (n x n (r, z), modes 0 1 2) for every
# choice, on OpenCL and CUDA:
#   1. baseline: the engine's first form (tile 8x16, global reads, z start unaligned: the
#      configuration of the first H100 timing), then the same 8x16 with each choice switched;
#   2. the automatic work-group rule (no --workgroup, no tuning cache): staging global/local x
#      z alignment on/off (the "padding"), and the rows variant;
#   3. block shapes: `clfdtd bench --tune` (every shape of cyl_tuning_candidates for cyl-tile and
#      cyl-tile-local, stored in OUT/cache/tuning.json), then the tuned runs (" (tuned)").
# Builds nothing: give it the clfdtd binary. Every row goes to OUT/cyl_speedup.csv (the bench CSV
# columns of docs/bench/results.csv); tools/cyl_speedup_table.py writes OUT/cyl_speedup.md (per
# backend and problem: Gcells/s (cell-mode updates), roofline ratio, speed-up over the baseline).
# Usage: tools/cyl_speedup.sh OUT_DIR CLFDTD_BINARY
# Environment: N (4000: cells along r and z), REPEATS (5), TARGETS (opencl cuda), DEVICE (gpu),
# PROBLEMS (cyl_cpml,cyl_pec), TUNE (1; 0: skip step 3).
set -uo pipefail
out=${1:?usage: tools/cyl_speedup.sh OUT_DIR CLFDTD_BINARY}
bin=${2:?usage: tools/cyl_speedup.sh OUT_DIR CLFDTD_BINARY}
n=${N:-4000}
repeats=${REPEATS:-5}
targets=${TARGETS:-opencl cuda}
device=${DEVICE:-gpu}
problems=${PROBLEMS:-cyl_cpml,cyl_pec}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "cyl_speedup.sh: $bin is not an executable clfdtd"; exit 2; }
mkdir -p "$out"
csv="$out/cyl_speedup.csv"
rm -f "$csv"
if [ -f .device/commit ]; then
  CLFDTD_COMMIT="$(cat .device/commit)"
  export CLFDTD_COMMIT
fi
export CLFDTD_CACHE_DIR="$out/cache"  # the tuning of step 3 only; no cache of the machine
rm -rf "$CLFDTD_CACHE_DIR"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
  "$bin" devices 2>&1 || true
} > "$out/machine.txt"

bench() {  # backend label repeats problems args...: one bench call, its log kept, a failure
           # reported and skipped
  local backend=$1 label=$2 reps=$3 probs=$4
  shift 4
  echo "== $backend: $label"
  "$bin" bench --backend="$backend" --device="$device" --problem="$probs" --n="$n" \
    --repeats="$reps" --csv="$csv" "$@" > "$out/${backend}_$label.log" 2>&1
  local rc=$?
  cat "$out/${backend}_$label.log"
  [ $rc = 0 ] || echo "($backend $label: exit $rc, no rows)"
}

for backend in $targets; do
  if ! "$bin" devices 2>/dev/null | grep -qi "^$backend devices"; then
    echo "($backend: no $backend device in this build)"
    continue
  fi
  bench "$backend" baseline "$repeats" "$problems" --variant=tile --workgroup=8,16,1 \
    --staging=global,local --align=false,true
  bench "$backend" auto_rule "$repeats" "$problems" --variant=tile --staging=global,local \
    --align=false,true
  bench "$backend" rows "$repeats" "$problems" --variant=rows
  if [ "${TUNE:-1}" = 1 ]; then
    # The shapes on the first problem (3 repeats each), both stagings, aligned.
    bench "$backend" tune 3 "${problems%%,*}" --tune --variant=tile
    bench "$backend" tuned "$repeats" "$problems" --variant=tile --staging=global,local \
      --align=false,true
  fi
done

python3 "$here/cyl_speedup_table.py" "$csv" > "$out/cyl_speedup.md" && cat "$out/cyl_speedup.md"
