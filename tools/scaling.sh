#!/usr/bin/env bash
# Weak and strong scaling of a distributed run (docs/MPI.md, "Scaling"): runs a free-space dipole
# model under mpirun with 1..K ranks, split along x ("K 1 1"), and writes
#   <out>/scaling.csv   mode, ranks, cells, steps, loop time, Mcells/s, speed-up, efficiency
#   <out>/scaling.png   weak-scaling efficiency and strong-scaling speed-up against ranks
# weak:   N x N x N cells per rank, the grid growing along x (K N x N x N): efficiency t(1) / t(K)
# strong: N x N x N cells in all: speed-up t(1) / t(K), efficiency speed-up / K
# Times are rank 0's time loop (run.json loop_time_s; the ranks wait for each other every step).
#
# usage: tools/scaling.sh [--ranks K] [--n N] [--steps S] [--bin build/clfdtd] [--out DIR]
#                         [--mpirun "mpirun"] [--modes "weak strong"] [-- clfdtd run options...]
#   e.g. on CPU ranks (PoCL): tools/scaling.sh --ranks 3 --n 32 --steps 20 --out out/scaling
#        on a GPU node:       tools/scaling.sh --ranks 8 --n 512 --steps 200 -- --variant=tile
# Under root (CI, containers) the Open MPI consent variables are set; more ranks than cores are
# allowed (oversubscribed: the times then say little), and PoCL gets one thread per rank.
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=4; n=64; steps=50; bin=build/clfdtd; out=out/scaling; mpirun=mpirun; modes="weak strong"
extra=()
# numpy and matplotlib: the python3 on PATH, else the system's (a venv or pyenv may lack them).
py=python3
if ! python3 -c "import numpy, matplotlib" 2> /dev/null && [ -x /usr/bin/python3 ]; then
  py=/usr/bin/python3
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift 2 ;;
    --n) n=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "scaling.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
done
for v in "$ranks" "$n" "$steps"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: --ranks, --n and --steps take integers >= 1, got '$v'" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "scaling.sh: no program at '$bin' (build first, or --bin)" >&2; exit 2; }
command -v "${mpirun%% *}" > /dev/null || { echo "scaling.sh: '$mpirun' not found (openmpi-bin)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-1}
mkdir -p "$out"
csv="$out/scaling.csv"
echo "mode,ranks,nx,ny,nz,cells,steps,loop_time_s,mcells_per_s,speedup,efficiency" > "$csv"

# The model: N cells of 1 cm per rank along x (weak) or in all (strong), PEC walls, a dipole at the
# centre: the stepping and the halo exchange, nothing else.
write_model() {  # file nx ny nz
  local f=$1 nx=$2 ny=$3 nz=$4
  cat > "$f" <<MODEL
[grid]
size = $(awk "BEGIN{print $nx*0.01, $ny*0.01, $nz*0.01}")
cell_size = 0.01
[time]
steps = $steps
[boundary]
type = pec
[source.feed]
type = dipole
axis = z
position = $(awk "BEGIN{print $nx*0.005, $ny*0.005, $nz*0.005}")
waveform = gaussian_pulse
frequency = 1e9
amplitude = 1e-12
MODEL
}

for mode in $modes; do
  t1=""
  for k in $(seq 1 "$ranks"); do
    if [ "$mode" = weak ]; then nx=$((n * k)); else nx=$n; fi
    model="$out/${mode}_$k.ini"
    run_dir="$out/${mode}_$k"
    write_model "$model" "$nx" "$n" "$n"
    echo "scaling.sh: $mode, $k rank(s), $nx x $n x $n cells, $steps steps"
    $mpirun -np "$k" "$bin" run "$model" --quiet --output.dir="$run_dir" --output.overwrite=true \
      --device.decomposition="$k 1 1" "${extra[@]}" > "$out/${mode}_$k.log" 2>&1 || {
      echo "scaling.sh: the run failed; its output: $out/${mode}_$k.log" >&2; tail -5 "$out/${mode}_$k.log" >&2; exit 1; }
    read -r t mc < <("$py" -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['loop_time_s'], r['mcells_per_s'])" "$run_dir/run.json")
    [ -n "$t1" ] || t1=$t
    "$py" - "$mode" "$k" "$nx" "$n" "$steps" "$t" "$mc" "$t1" >> "$csv" <<'ROW'
import sys
mode, k, nx, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
t, mc, t1 = float(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8])
# weak: the work grows with k, so the ideal time stays t1; strong: the ideal time is t1 / k
speedup = (t1 / t * k if mode == "weak" else t1 / t) if t > 0 else 0.0
eff = speedup / k
print(f"{mode},{k},{nx},{n},{n},{nx*n*n},{steps},{t:.6g},{mc:.6g},{speedup:.4g},{eff:.4g}")
ROW
  done
done

"$py" - "$csv" "$out/scaling.png" <<'PLOT'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = list(csv.DictReader(open(sys.argv[1])))
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, mode in zip(axes, ("weak", "strong")):
    r = [x for x in rows if x["mode"] == mode]
    if not r:
        ax.set_visible(False)
        continue
    k = [int(x["ranks"]) for x in r]
    if mode == "weak":
        ax.plot(k, [float(x["efficiency"]) for x in r], "o-", label="measured")
        ax.plot(k, [1.0] * len(k), "k--", label="ideal")
        ax.set_ylabel("efficiency t(1) / t(K)")
        ax.set_ylim(0, 1.1)
        ax.set_title(f"weak: {r[0]['ny']}^3 cells per rank")
    else:
        ax.plot(k, [float(x["speedup"]) for x in r], "o-", label="measured")
        ax.plot(k, k, "k--", label="ideal")
        ax.set_ylabel("speed-up t(1) / t(K)")
        ax.set_title(f"strong: {r[0]['nx']}^3 cells")
    ax.set_xlabel("MPI ranks K (split K 1 1)")
    ax.set_xticks(k)
    ax.grid(True, alpha=0.3)
    ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
PLOT
column -s, -t "$csv"
echo "scaling.sh: $csv and $out/scaling.png"
