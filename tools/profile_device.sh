#!/usr/bin/env bash
# Per-kernel time and DRAM bytes of one benchmark problem on an NVIDIA GPU, through Nsight Compute
# on the CUDA backend (the OpenCL kernels are the same source; ncu does not see NVIDIA's OpenCL).
# Where the whole-step numbers of `clfdtd bench` say "too slow", this says which kernel.
# Usage (on the lent machine, .device carried):
#   source .device/setup.sh && tools/profile_device.sh [problem] [variant] [N]
# SKIP / COUNT: launches skipped and profiled; BENCH_ARGS: more clfdtd bench options.
# Writes $OUT/ncu.csv (raw metrics per launch) and prints a per-kernel summary.
set -uo pipefail
problem=${1:-vacuum_upml}
variant=${2:-tile}
n=${3:-512}
out=${OUT:-out}
build=build-device
mkdir -p "$out"
if [ ! -x "$build/clfdtd" ]; then
  cmake -S . -B "$build" -DCLFDTD_VTK=OFF -DCLFDTD_CUDA=ON -DCMAKE_BUILD_TYPE=Release \
    > "$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
# Skip the warm-up and the copy-bandwidth probe; profile a few steps' launches (onepass runs three
# or four launches per step, tblock three or four per pair: more than ~60 skipped of the 20 steps
# leaves nothing to profile).
"$ncu" --clock-control none --metrics "$metrics" --csv --page raw --launch-skip "${SKIP:-40}" \
  --launch-count "${COUNT:-60}" "$build/clfdtd" bench --backend=cuda --variant="$variant" \
  --problem="$problem" --n="$n" --steps=20 --repeats=1 ${BENCH_ARGS:-} > "$out/ncu.csv" 2> "$out/ncu.err"
echo "ncu exit $? ($(wc -l < "$out/ncu.csv") lines)"
grep -q "No kernels were profiled" "$out/ncu.csv" "$out/ncu.err" &&
  echo "nothing profiled: SKIP (${SKIP:-40}) passed every launch of the run; set a smaller SKIP"
/usr/bin/env python3 - "$out/ncu.csv" <<'PY'
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
if head is None:
    print(open(sys.argv[1]).read()[-3000:]); sys.exit(0)
h = rows[head]; data = [r for r in rows[head + 2:] if len(r) == len(h)]
col = {name: h.index(name) for name in h}
def num(r, m):
    try: return float(r[col[m]].replace(",", ""))
    except Exception: return 0.0
agg = collections.OrderedDict()
# A kernel launched with several grids (tblock's pass and its two shell programs) is one row per
# grid and group.
shape = [c for c in ("Grid Size", "Block Size") if c in col]
for r in data:
    k = " ".join([r[col["Kernel Name"]][:24]] + [r[col[c]] for c in shape])[:40]
    a = agg.setdefault(k, [0, 0.0, 0.0, 0.0, 0.0, 0, 0.0])
    a[0] += 1; a[1] += num(r, "gpu__time_duration.sum"); a[2] += num(r, "dram__bytes_read.sum")
    a[3] += num(r, "dram__bytes_write.sum"); a[4] += num(r, "lts__t_bytes.sum")
    a[5] = num(r, "launch__registers_per_thread"); a[6] += num(r, "sm__warps_active.avg.pct_of_peak_sustained_active")
print("units:", rows[head + 1][col["gpu__time_duration.sum"]], rows[head + 1][col["dram__bytes_read.sum"]])
print(f"{'kernel':40} {'n':>4} {'time/launch':>12} {'rd/launch':>12} {'wr/launch':>12} {'GB/s':>8} {'L2/launch':>12} regs occ%")
for k, a in agg.items():
    n = a[0]
    print(f"{k:40} {n:4d} {a[1]/n:12.1f} {a[2]/n:12.4g} {a[3]/n:12.4g} {(a[2]+a[3])/max(a[1],1e-9):8.4g} {a[4]/n:12.4g} {a[5]:4.0f} {a[6]/n:5.1f}")
PY
