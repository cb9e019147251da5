#!/usr/bin/env bash
# Weak and strong scaling of a distributed run (docs/MPI.md, "Scaling"): runs a free-space dipole
# model under mpirun with several rank counts, split along x ("K 1 1"), and writes
#   <out>/scaling.csv   mode, ranks, cells, steps, loop time, Mcells/s, speed-up, efficiency, then
#                       label, kernel variant, halo path run, rank 0's exchange and exposed seconds,
#                       and whether the probe series equal the 1-rank run's (strong mode)
#   <out>/scaling.png   weak-scaling efficiency and strong-scaling speed-up against ranks
# weak:   N x N x N cells per rank, the grid growing along x (K N x N x N): efficiency t(1) / t(K)
# strong: N x N x N cells in all: speed-up t(1) / t(K), efficiency speed-up / K
# Times are rank 0's time loop (run.json loop_time_s; the ranks wait for each other every step).
# The model: cells of 1 cm, PEC walls (--layers 0) or that many UPML layers on every face, a
# z dipole (Gaussian pulse, 1 GHz) at the centre, probes of Ez and Hy 5 cells from it (fewer when
# N < 20) along x (across the first cut) and y. Strong mode compares each run's probes.csv with the first
# count's: within 1e-6 of each series' maximum is "yes".
#
# usage: tools/scaling.sh [--ranks K | --counts "1 2 4"] [--n N] [--steps S] [--layers L]
#                         [--bin build/clfdtd] [--out DIR] [--mpirun "mpirun"]
#                         [--modes "weak strong"] [--label NAME] [-- clfdtd run options...]
#   --ranks K runs 1..K ranks; --counts lists them (the first is the reference of both modes).
#   e.g. on CPU ranks (PoCL): tools/scaling.sh --ranks 3 --n 32 --steps 20 --out out/scaling
#        on a GPU node:       tools/scaling.sh --counts "1 2 4" --n 1024 --layers 10 --steps 200 \
#                               -- --device.variant=tile --device.backend=cuda --device.halo_path=device
# Under root (CI, containers) the Open MPI consent variables are set; more ranks than cores are
# allowed (oversubscribed: the times then say little), and PoCL gets one thread per rank.
# Exit 0: every run succeeded (and every strong-mode probe series was equal); 1: a run failed or
# differed (the table still has every row); 2: bad arguments or no program / mpirun.
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=4; counts=""; n=64; steps=50; layers=0; bin=build/clfdtd; out=out/scaling; mpirun=mpirun
modes="weak strong"; label=""
extra=()
# numpy and matplotlib: the python3 on PATH, else the system's (a venv or pyenv may lack them).
py=python3
if ! python3 -c "import numpy, matplotlib" 2> /dev/null && [ -x /usr/bin/python3 ]; then
  py=/usr/bin/python3
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift 2 ;;
    --counts) counts=$2; shift 2 ;;
    --n) n=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --layers) layers=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "scaling.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
done
[ -n "$counts" ] || counts=$(seq -s ' ' 1 "$ranks")
for v in "$ranks" "$n" "$steps" $counts; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: --ranks, --counts, --n and --steps take integers >= 1, got '$v'" >&2; exit 2; }
done
[[ "$layers" =~ ^[0-9]+$ ]] || { echo "scaling.sh: --layers takes an integer >= 0, got '$layers'" >&2; exit 2; }
[[ "$label" =~ ^[A-Za-z0-9_.+-]*$ ]] || { echo "scaling.sh: --label takes letters, digits and _.+- only" >&2; exit 2; }
[ -x "$bin" ] || { echo "scaling.sh: no program at '$bin' (build first, or --bin)" >&2; exit 2; }
command -v "${mpirun%% *}" > /dev/null || { echo "scaling.sh: '$mpirun' not found (openmpi-bin)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-1}
mkdir -p "$out"
csv="$out/scaling.csv"
echo "mode,ranks,nx,ny,nz,cells,steps,loop_time_s,mcells_per_s,speedup,efficiency,label,variant,halo_path,exchange_s,exposed_s,probes_equal" > "$csv"

write_model() {  # file nx ny nz
  local f=$1 nx=$2 ny=$3 nz=$4
  # Positions a quarter cell past a cell's corner: the same cell whether a position is floored
  # or rounded to the grid.
  local cx cy cz d
  d=$(( n / 4 < 5 ? (n / 4 < 1 ? 1 : n / 4) : 5 ))  # probe offset in cells: 5, fewer on tiny grids
  cx=$(awk "BEGIN{print (int($nx/2)+0.25)*0.01}")
  cy=$(awk "BEGIN{print (int($ny/2)+0.25)*0.01}")
  cz=$(awk "BEGIN{print (int($nz/2)+0.25)*0.01}")
  {
    echo "[grid]"
    echo "size = $(awk "BEGIN{print $nx*0.01, $ny*0.01, $nz*0.01}")"
    echo "cell_size = 0.01"
    echo "[time]"
    echo "steps = $steps"
    echo "[boundary]"
    if [ "$layers" -gt 0 ]; then echo "type = upml"; echo "layers = $layers"; else echo "type = pec"; fi
    echo "[source.feed]"
    echo "type = dipole"
    echo "axis = z"
    echo "position = $cx $cy $cz"
    echo "waveform = gaussian_pulse"
    echo "frequency = 1e9"
    echo "amplitude = 1e-12"
    echo "[probe.along_x]"
    echo "position = $(awk "BEGIN{print $cx+$d*0.01}") $cy $cz"
    echo "fields = Ez Hy"
    echo "[probe.along_y]"
    echo "position = $cx $(awk "BEGIN{print $cy+$d*0.01}") $cz"
    echo "fields = Ez Hx"
  } > "$f"
}

status=0
for mode in $modes; do
  t1=""; ref=""
  for k in $counts; do
    if [ "$mode" = weak ]; then nx=$((n * k)); else nx=$n; fi
    model="$out/${mode}_$k.ini"
    run_dir="$out/${mode}_$k"
    write_model "$model" "$nx" "$n" "$n"
    echo "scaling.sh: $mode${label:+ ($label)}, $k rank(s), $nx x $n x $n cells, $steps steps"
    if ! $mpirun -np "$k" "$bin" run "$model" --quiet --output.dir="$run_dir" --output.overwrite=true \
        --device.decomposition="$k 1 1" "${extra[@]}" > "$out/${mode}_$k.log" 2>&1; then
      echo "scaling.sh: the run failed; its output: $out/${mode}_$k.log" >&2
      tail -5 "$out/${mode}_$k.log" >&2
      status=1
      continue
    fi
    [ -n "$ref" ] || ref=$run_dir
    "$py" - "$mode" "$k" "$nx" "$n" "$steps" "$run_dir" "${t1:-0}" "$label" "$ref" >> "$csv" <<'ROW' || status=1
import csv, json, os, sys
mode, k, nx, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
run_dir, t1, label, ref = sys.argv[6], float(sys.argv[7]), sys.argv[8], sys.argv[9]
r = json.load(open(os.path.join(run_dir, "run.json")))
t, mc = float(r["loop_time_s"]), float(r["mcells_per_s"])
t1 = t1 or t
# weak: the work grows with k, so the ideal time stays t1; strong: the ideal time is t1 / k
speedup = (t1 / t * k if mode == "weak" else t1 / t) if t > 0 else 0.0
halo = r.get("halo") if isinstance(r.get("halo"), dict) else {}

def series(d):
    rows = list(csv.reader(open(os.path.join(d, "probes.csv"))))
    return rows[0], [[float(x) for x in row] for row in rows[1:] if row]

equal = "n/a"
if mode == "strong":
    equal = "reference"
    if os.path.abspath(ref) != os.path.abspath(run_dir):
        (h1, a), (h2, b) = series(ref), series(run_dir)
        equal = "yes"
        if h1 != h2 or len(a) != len(b):
            equal = "no (probes.csv header or rows differ)"
        else:
            for c, name in enumerate(h1):
                x, y = [row[c] for row in a], [row[c] for row in b]
                scale, diff = max(abs(v) for v in x), max(abs(p - q) for p, q in zip(x, y))
                if diff > 1e-6 * scale or (scale == 0 and diff != 0):
                    equal = f"no ({name} off by {diff:.3g} of {scale:.3g})"
                    break
print(f"{mode},{k},{nx},{n},{n},{nx*n*n},{steps},{t:.6g},{mc:.6g},{speedup:.4g},{speedup / k:.4g},"
      f"{label},{r.get('kernel_variant', '')},{halo.get('path', '')},{halo.get('exchange_s', '')},"
      f"{halo.get('exposed_s', '')},{equal}")
sys.exit(0 if equal in ("n/a", "reference", "yes") else 1)
ROW
    [ -n "$t1" ] || t1=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['loop_time_s'])" "$run_dir/run.json")
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
# The table aligned (column(1) is in bsdextrautils, which a bare machine may lack).
"$py" -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
for r in rows: print('  '.join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip())" "$csv"
echo "scaling.sh: $csv and $out/scaling.png"
exit $status
