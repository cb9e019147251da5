#!/usr/bin/env bash
# The speed and memory ratio of the cyl_vs_3d validation case (docs/VALIDATION.md, section 19)
# on a GPU: the same body of revolution (models/validation/cyl_vs_3d.ini, modes 0 .. 6, and
# cyl_vs_3d_cartesian.ini, 3D) at 5, 2.5 and 1.25 mm cells (3D: 60^3 .. 240^3 cells), 5 ns each,
# on every backend the build has (OpenCL; CUDA when nvcc is found). On a CPU (PoCL) the small
# grids are bound by the per-step launch cost, so the ratio measured there says little.
#   1. builds clfdtd (Release, no VTK) unless BUILD_DIR/clfdtd exists;
#   2. runs `tools/validate --case cyl_vs_3d` on OpenCL (its checks; skipped without numpy/scipy);
#   3. runs both models per cell size and backend and writes OUT_DIR/cyl_vs_3d_speed.md: time
#      loop seconds and device bytes from run.json, and the 3D / cylindrical ratios. Its table
#      goes into docs/validation/cyl_vs_3d_gpu.md (by hand, with the GPU, driver and commit), which
#      the case adds to its section of docs/VALIDATION.md whenever that section is rewritten.
# Usage: tools/validation/cyl_vs_3d_speed.sh OUT_DIR [BUILD_DIR]   (BUILD_DIR default build-speed)
# Environment: CELLS (default "0.005 0.0025 0.00125"), VALIDATE (1; 0 skips step 2).
set -uo pipefail
out=${1:?usage: tools/validation/cyl_vs_3d_speed.sh OUT_DIR [BUILD_DIR]}
build=${2:-build-speed}
cells=${CELLS:-0.005 0.0025 0.00125}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ ! -x "$build/clfdtd" ]; then
  cuda=OFF
  command -v nvcc > /dev/null 2>&1 && cuda=ON
  cmake -S "$root" -B "$build" -DCLFDTD_VTK=OFF -DCLFDTD_CUDA=$cuda -DCLFDTD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release > "$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target clfdtd > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
fi
bin=$(cd "$build" && pwd)/clfdtd
export CLFDTD_CACHE_DIR="$out/cache"  # no tuning cache of the machine changes 'auto'
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
  "$bin" devices 2>&1 || true
} > "$out/machine.txt"

if [ "${VALIDATE:-1}" = 0 ]; then
  echo "VALIDATE=0: tools/validate --case cyl_vs_3d skipped" | tee "$out/validate.log"
elif /usr/bin/python3 -c "import numpy, scipy, matplotlib" 2> /dev/null; then
  "$root/tools/validate" --case cyl_vs_3d --bin "$bin" --work "$out/validate" \
    --plots "$out/validate/png" --backend opencl 2>&1 | tee "$out/validate.log"
else
  echo "numpy/scipy/matplotlib missing: tools/validate --case cyl_vs_3d skipped" | tee "$out/validate.log"
fi

mkdir -p "$out/runs"
backends=opencl
"$bin" devices 2>&1 | grep -q "^CUDA devices" && backends="opencl cuda"
for backend in $backends; do
  for h in $cells; do
    for model in cyl_vs_3d cyl_vs_3d_cartesian; do
      dir="$out/runs/${backend}_${h}_${model}"
      echo "run $model, cell $h m, $backend"
      "$bin" run "$root/models/validation/$model.ini" --quiet --output.dir="$dir" \
        --grid.cell_size="$h" --device.backend="$backend" > "$dir.log" 2>&1 ||
        { echo "failed: $(tail -3 "$dir.log")"; continue; }
    done
  done
done

/usr/bin/python3 - "$out" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
rows = {}
for path in glob.glob(os.path.join(out, "runs", "*", "run.json")):
    backend, h, model = os.path.basename(os.path.dirname(path)).split("_", 2)
    rows.setdefault((backend, float(h)), {})[model] = json.load(open(path))
lines = ["| backend | cell (mm) | 3D cells | 3D steps | 3D loop (s) | 3D device MiB | cyl (r, z) cells "
         "x modes | cyl steps | cyl loop (s) | cyl device MiB | time ratio 3D / cyl | memory ratio |",
         "|---" * 12 + "|"]
device = ""
for (backend, h), r in sorted(rows.items()):
    if "cyl_vs_3d" not in r or "cyl_vs_3d_cartesian" not in r:
        continue
    a, c = r["cyl_vs_3d_cartesian"], r["cyl_vs_3d"]
    device = a["device"]
    lines.append(f"| {backend} | {1000 * h:g} | {'x'.join(map(str, a['cells']))} | {a['steps_done']} | "
                 f"{a['loop_time_s']:.3f} | {a['device_bytes'] / 2**20:.1f} | "
                 f"{c['cells'][0]}x{c['cells'][2]} x {len(c['modes'])} | {c['steps_done']} | "
                 f"{c['loop_time_s']:.3f} | {c['device_bytes'] / 2**20:.2f} | "
                 f"{a['loop_time_s'] / c['loop_time_s']:.1f} | "
                 f"{a['device_bytes'] / c['device_bytes']:.1f} |")
text = f"cyl_vs_3d speed and memory on {device}, 5 ns simulated per run\n\n" + "\n".join(lines) + "\n"
open(os.path.join(out, "cyl_vs_3d_speed.md"), "w").write(text)
print(text)
EOF
