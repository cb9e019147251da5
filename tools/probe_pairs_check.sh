#!/usr/bin/env bash
# tblock with probes on the GPU (docs/BENCHMARKS.md, "tblock with probes"): one device call
#   1. the reference check: BUILD/tests/test_engine's tblock cases with probes (the samples inside
#      a pair predicted, against the double reference engine) on every API the build has;
#   2. `clfdtd run` of a 512^3 UPML model (1 mm cells, 10 layers, a centre z dipole, 400 steps)
#      with and without a probe of Ez and Hx 5 cells away, tblock and onepass, OpenCL then CUDA,
#      twice each: Gcells/s and the variant from run.json, in OUT/summary.txt;
#   3. the probe series of tblock against onepass's, per API (max |diff| / max |value|).
# Builds nothing. Usage, from the project root on the GPU machine:
#   tools/probe_pairs_check.sh BUILD_DIR OUT_DIR
# Environment: TARGETS (opencl cuda), STEPS (400).
set -uo pipefail
build=${1:?usage: tools/probe_pairs_check.sh BUILD_DIR OUT_DIR}
out=${2:?usage: tools/probe_pairs_check.sh BUILD_DIR OUT_DIR}
targets=${TARGETS:-opencl cuda}
steps=${STEPS:-400}
bin="$build/clfdtd"
[ -x "$bin" ] || { echo "probe_pairs_check.sh: $bin is not an executable clfdtd"; exit 2; }
mkdir -p "$out"
summary="$out/summary.txt"
: > "$summary"

"$build/tests/test_engine" -tc='*probe*,*samplers between*' --duration=true > "$out/check.log" 2>&1
echo "reference check: rc=$? ($(tail -2 "$out/check.log" | head -1))" >> "$summary"

cat > "$out/probe512.ini" <<INI
[grid]
size = 0.512 0.512 0.512
cell_size = 0.001
[time]
steps = $steps
[boundary]
type = upml
layers = 10
[source.d]
type = dipole
axis = z
position = 0.2565 0.2565 0.2565
waveform = gaussian
frequency = 10e9
amplitude = 1e-12
[probe.p]
position = 0.2615 0.2565 0.2565
fields = Ez Hx
INI
sed '/^\[probe.p\]/,/^fields/d' "$out/probe512.ini" > "$out/noprobe512.ini"

for api in $targets; do
  for v in tblock onepass; do
    for model in probe512 noprobe512; do
      for round in 1 2; do
        dir="$out/runs/${api}_${v}_${model}_$round"
        "$bin" run "$out/$model.ini" --backend="$api" --variant="$v" --output.dir="$dir" \
          --output.overwrite=true --quiet > "$out/run.log" 2>&1 || { tail -3 "$out/run.log"; continue; }
        python3 - "$dir" "$api $v $model" >> "$summary" <<'PY'
import json, sys
j = json.load(open(sys.argv[1] + "/run.json"))
print(f"{sys.argv[2]:32} {j['mcells_per_s'] / 1000:7.2f} Gcells/s  {j['kernel_variant']}")
PY
      done
    done
  done
  python3 - "$out/runs" "$api" >> "$summary" <<'PY'
import sys
import numpy as np
runs, api = sys.argv[1], sys.argv[2]
a = np.genfromtxt(f"{runs}/{api}_tblock_probe512_1/probes.csv", delimiter=",", names=True)
b = np.genfromtxt(f"{runs}/{api}_onepass_probe512_1/probes.csv", delimiter=",", names=True)
for c in a.dtype.names[2:]:
    print(f"{api} {c}: max |tblock - onepass| / max |onepass| = "
          f"{np.max(np.abs(a[c] - b[c])) / np.max(np.abs(b[c])):.3g}")
PY
done
cat "$summary"
