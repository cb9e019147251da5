#!/usr/bin/env bash
# Where one kernel's warps wait, by SASS instruction: Nsight Compute's warp stall sampling on the
# CUDA backend (the OpenCL kernels are the same source), for the lines that profile_device.sh's
# per-kernel times cannot show (a load waited for right after it is issued, a barrier, a
# dependent index load).
# Usage (on the lent machine, .device carried):
#   source .device/setup.sh && tools/profile_stalls.sh [problem] [variant] [N] [kernel]
# SKIP / COUNT: launches of that kernel skipped and profiled (several launches of one kernel, as
# tblock's pass and shell programs, are listed apart). Writes $OUT/stalls-<problem>.txt: the
# stall reasons' shares, then the TOP (40) instructions by samples with their main reasons.
set -uo pipefail
problem=${1:-vacuum_upml}
variant=${2:-tblock}
n=${3:-512}
kernel=${4:-update_tblock}
out=${OUT:-out}
build=build-device
mkdir -p "$out"
if [ ! -x "$build/clfdtd" ]; then
  cmake -S . -B "$build" -DCLFDTD_VTK=OFF -DCLFDTD_CUDA=ON -DCMAKE_BUILD_TYPE=Release \
    > "$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target clfdtd > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
rep=$(mktemp -d)/stalls
"$ncu" --clock-control none --kernel-name "$kernel" --launch-skip "${SKIP:-6}" \
  --launch-count "${COUNT:-1}" --section WarpStateStats --section SourceCounters \
  --import-source no -o "$rep" -f "$build/clfdtd" bench --backend=cuda --variant="$variant" \
  --problem="$problem" --n="$n" --steps=20 --repeats=1 > "$out/stalls-ncu.log" 2>&1
echo "ncu exit $?"
"$ncu" -i "$rep.ncu-rep" --page source --csv --print-source sass > "$rep.csv" 2>> "$out/stalls-ncu.log"
/usr/bin/env python3 - "$rep.csv" "$out/stalls-$problem.txt" "${TOP:-40}" <<'PY'
import csv, io, sys
text, dest, top = open(sys.argv[1]).read().splitlines(), open(sys.argv[2], "w"), int(sys.argv[3])
# One table per profiled launch, each after a "Kernel Name" line.
tables, cur = [], None
for line in text:
    if line.startswith('"Kernel Name"'):
        cur = []; tables.append(cur)
    elif cur is not None:
        cur.append(line)
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
for n, t in enumerate(tables):
    rows = list(csv.reader(io.StringIO("\n".join(t))))
    if len(rows) < 2: continue
    h = rows[0]; data = [r for r in rows[1:] if len(r) == len(h)]
    src, samp = h.index("Source"), h.index("Warp Stall Sampling (All Samples)")
    reasons = [i for i, c in enumerate(h) if c.startswith("stall_") and "(Not Issued)" not in c]
    total = sum(num(r[samp]) for r in data) or 1.0
    dest.write(f"launch {n + 1}: {len(data)} instructions, {total:.0f} samples\n")
    for i in sorted(reasons, key=lambda i: -sum(num(r[i]) for r in data)):
        share = sum(num(r[i]) for r in data) / total
        if share >= 0.005: dest.write(f"  {h[i]:28} {100 * share:5.1f}%\n")
    for r in sorted(data, key=lambda r: -num(r[samp]))[:top]:
        main = sorted(reasons, key=lambda i: -num(r[i]))[:2]
        why = ", ".join(f"{h[i][6:]} {100 * num(r[i]) / total:.1f}%" for i in main if num(r[i]) > 0)
        dest.write(f"  {100 * num(r[samp]) / total:5.1f}%  {r[src].strip()[:60]:60}  {why}\n")
PY
cat "$out/stalls-$problem.txt" | head -60
