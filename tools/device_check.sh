#!/usr/bin/env bash
# Checks the CUDA variant on a machine with an NVIDIA GPU, in one go (docs/BENCHMARKS.md records
# what it printed): builds build-devcheck/ with both GPU backends (-DCLFDTD_CUDA=ON, no VTK), runs
# the whole test suite (CUDA and OpenCL against the reference engine included), lists the
# devices, then times `clfdtd run` of the dipole model grown to N^3 cells on --backend=cuda and
# --backend=opencl, and the per-shape benchmark cases of both backends.
# Usage, from the project root:  tools/device_check.sh [N ...]   (default 256 512; STEPS=300,
# REPEAT=2 runs of each). The probe series of the CUDA and the OpenCL run are compared.
# Results go to $OUT (or out/device-check): summary.txt first, the logs beside it.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device-check}
mkdir -p "$out"
sizes=${*:-256 512}
steps=${STEPS:-300}
repeat=${REPEAT:-2}
jobs=$(nproc)
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

say "== device_check $(date -u +%FT%TZ) on $(hostname), $jobs cores"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; \
  nvcc --version | tail -2; cmake --version | head -1; } 2>&1 | tee -a "$summary"

t0=$(date +%s)
if cmake -S . -B build-devcheck -DCLFDTD_CUDA=ON -DCLFDTD_VTK=OFF > "$out/build.log" 2>&1 &&
   cmake --build build-devcheck -j"$jobs" >> "$out/build.log" 2>&1; then
  say "== build: ok in $(( $(date +%s) - t0 )) s"
else
  say "== build: FAILED (tail of build.log follows)"; tail -40 "$out/build.log" | tee -a "$summary"
  exit 1
fi
b=build-devcheck

t0=$(date +%s)
ctest --test-dir $b --output-on-failure > "$out/ctest.log" 2>&1
say "== ctest: exit $? in $(( $(date +%s) - t0 )) s"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log" | tee -a "$summary"
# The vs-reference cases again, verbose enough to show the variants and devices that ran.
$b/tests/test_engine > "$out/backends.log" 2>&1
say "== test_engine (every API and variant): exit $?"
grep -E "test cases:|assertions:" "$out/backends.log" | tee -a "$summary"

$b/clfdtd devices > "$out/devices.txt" 2>&1
say "== clfdtd devices: exit $?"; cat "$out/devices.txt" >> "$summary"

say "== clfdtd run models/dipole.ini, N^3 cells of 1 cm, $steps steps, no snapshots, each run $repeat times"
for n in $sizes; do
  size=$(awk "BEGIN { printf \"%.2f\", $n * 0.01 }")
  for run in "cuda" "cuda --variant=tile" "cuda --workgroup=1,8,32" "opencl" "opencl --variant=tile"; do
    dir=out/devcheck-$n-$(echo $run | tr -c 'a-z0-9\n' '_')
    for rep in $(seq "$repeat"); do
      if $b/clfdtd run models/dipole.ini --backend=$run --grid.cell_size=0.01 \
           --grid.size=$size,$size,$size --time.steps=$steps --snapshot.steps= \
           --output.dir=$dir --quiet > "$out/run.tmp" 2>&1; then
        [ "$rep" = 1 ] && say "N=$n --backend=$run | $(grep '^device' "$out/run.tmp" | sed 's/^device *//')"
        say "    $(grep '^done' "$out/run.tmp")"
      else
        say "N=$n --backend=$run FAILED:"; tail -5 "$out/run.tmp" | tee -a "$summary"
      fi
      cat "$out/run.tmp" >> "$out/runs.log"
    done
  done
  # Same model, same outputs: every probe series of the CUDA run against the OpenCL run's.
  python3 - out/devcheck-$n-cuda/probes.csv out/devcheck-$n-opencl/probes.csv <<'PY' 2>&1 | tee -a "$summary"
import csv, sys
def load(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(v) for v in r] for r in rows[1:]]
(hc, c), (ho, o) = load(sys.argv[1]), load(sys.argv[2])
assert hc == ho and len(c) == len(o), "different columns or rows"
# Series that vanish by symmetry hold only rounding noise: scale by the largest E (H) any probe saw.
for kind in "EH":
    cols = [j for j, name in enumerate(hc) if j >= 2 and name.split(".")[-1].startswith(kind)]
    scale = max(abs(r[j]) for r in o for j in cols) or 1.0
    diff = max(abs(a[j] - b[j]) for a, b in zip(c, o) for j in cols)
    print("    probes.csv cuda vs opencl, %d %s series x %d rows: max |diff| = %.3g = %.3g of max |%s| %.3g"
          % (len(cols), kind, len(c), diff, diff / scale, kind, scale))
PY
done
rm -f "$out/run.tmp"

say "== benchmark cases (time steps only, 256^3 vacuum cube with 10-layer UPML, 200 steps)"
CLFDTD_BENCH_N=256 CLFDTD_BENCH_STEPS=200 $b/tests/test_engine \
  -tc='engine benchmark*' --no-skip > "$out/bench.log" 2>&1
say "   exit $?"
grep -E "Gcells/s" "$out/bench.log" | sed 's/^ */   /' | tee -a "$summary"
