#!/usr/bin/env bash
# tblock work-group shapes against onepass on a GPU, by their probes: tests/data/tblock_check.ini
# (200 x 100 x 120 cells, PEC walls, a dielectric sphere, two sine sources, 140 probes read at step
# 200 only, so the tblock pass pairs every step) run with onepass (OpenCL) and with tblock at each
# SHAPES entry on each backend; the worst max |diff| / max |value| over the probes is printed per
# run, and the script exits 1 when one passes 1e-4 (float rounding between the two update orders is
# ~1e-6). Complements the engine tests (cell by cell against the reference engine on small grids
# where shapes are clamped): here the shapes run as they do at scale. Builds nothing.
# Usage: tools/tblock_shape_check.sh BUILD OUT
# Environment: SHAPES (default "32,9,14 32,13,14 32,9,30 32,5,30 64,9,14": the defaults and
# others whose rows fill whole warps), BACKENDS
# (opencl cuda), DEVICE (gpu), MODEL (upml: the same model in 10 UPML layers, set on the command
# line, which tblock steps with its pass and its shell pass).
set -uo pipefail
build=${1:?usage: tools/tblock_shape_check.sh BUILD OUT}
out=${2:?usage: tools/tblock_shape_check.sh BUILD OUT}
bin="$build/clfdtd"
[ -x "$bin" ] || { echo "tblock_shape_check.sh: $bin is not an executable clfdtd"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
model="$root/tests/data/tblock_check.ini"
case ${MODEL:-} in
  "") boundary=() ;;
  upml) boundary=(--boundary.type=upml --boundary.layers=10) ;;
  *) echo "tblock_shape_check.sh: MODEL is upml or unset, not '$MODEL'"; exit 2 ;;
esac
mkdir -p "$out"
export CLFDTD_CACHE_DIR="$out/cache"  # no tuned choice of the machine
run() { "$bin" run "$model" "${boundary[@]}" --device="${DEVICE:-gpu}" --quiet "$@" 2>&1 | grep -E "^(device|done|clfdtd)"; }
run --backend=opencl --variant=onepass --output.dir="$out/onepass" || exit 2
runs=()
for be in ${BACKENDS:-opencl cuda}; do
  "$bin" devices 2>/dev/null | grep -qi "^$be devices" || { echo "($be: no device)"; continue; }
  for wg in ${SHAPES:-32,9,14 32,13,14 32,9,30 32,5,30 64,9,14}; do
    d="$out/tblock_${be}_${wg//,/x}"
    run --backend="$be" --variant=tblock --workgroup="$wg" --output.dir="$d"
    runs+=("$d/probes.csv")
  done
done
python3 - "$out/onepass/probes.csv" "${runs[@]}" <<'PY'
import csv, sys
def last_row(path):
    return [float(x) for x in list(csv.reader(open(path)))[-1][2:]]
ref = last_row(sys.argv[1])
scale = max(abs(x) for x in ref) or 1.0
worst = 0.0
for path in sys.argv[2:]:
    d = max(abs(x - y) for x, y in zip(ref, last_row(path))) / scale
    worst = max(worst, d)
    print(f"{path}: max |diff| / max |value| = {d:.2e} over {len(ref)} values")
print("PASS" if worst < 1e-4 else "FAIL")
sys.exit(0 if worst < 1e-4 else 1)
PY
