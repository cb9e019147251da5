#!/usr/bin/env bash
# Issue 21 on one GPU: the halo paths of a run split over 2 ranks sharing the GPU (docs/MPI.md,
# "Device-to-device"). Runs an N^3 vacuum cube (1 cm cells, 10-layer UPML, a dipole, probes on
# and beside the cut) for STEPS steps on CUDA:
#   1 rank (a plain run: the reference),
#   2 ranks with device.halo_path = host, then = device,
#   each 2-rank case with the overlap of exchange and interior update on and off when the build
#   knows the key $OVERLAP_KEY (default device.halo_overlap; else one run, overlap "n/a"),
# checks every 2-rank probes.csv against the 1-rank one (each series within 1e-6 of its maximum)
# and writes OUT/halo_paths.csv:
#   case, ranks, path_asked, path_run, overlap, loop_time_s, mcells_per_s, exchange_s, exposed_s,
#   hidden_fraction, equal
# (path_run, exchange_s, exposed_s and hidden_fraction from run.json "halo" of rank 0; empty
# where the build does not report them). First, when BUILD_DIR/tests/test_distributed_backend_mpi
# exists, it runs the split test model (rows variant; UPML, materials, PEC, sources, probes,
# monitors, snapshots, energy across the cuts) with -np 2 and -np 3 sharing the GPU on each path
# against one process (every output within 1e-6 of each series' maximum). Builds nothing.
#
# usage: tools/halo_path_check.sh BUILD_DIR OUT_DIR
#   BUILD_DIR: a build with -DCLFDTD_CUDA=ON and MPI (BUILD_DIR/clfdtd)
#   MPIRUN=/path/to/mpirun (default: mpirun on PATH), N (default 512), STEPS (default 200),
#   BACKEND (default cuda), VARIANT (device.variant of every run, default tile),
#   OVERLAP_KEY (default device.halo_overlap)
# Exit 0 when every run ended with exit 0 and every 2-rank output equals the 1-rank one.
set -uo pipefail
[ $# -eq 2 ] || { sed -n '2,24p' "$0"; exit 2; }
build=$1 out=$2
bin=$build/clfdtd
mpirun=${MPIRUN:-mpirun}
n=${N:-512}
steps=${STEPS:-200}
backend=${BACKEND:-cuda}
variant=${VARIANT:-tile}
overlap_key=${OVERLAP_KEY:-device.halo_overlap}
[ -x "$bin" ] || { echo "halo_path_check.sh: no program at '$bin'" >&2; exit 2; }
command -v "$mpirun" > /dev/null || { echo "halo_path_check.sh: mpirun '$mpirun' not found (set MPIRUN)" >&2; exit 2; }
for v in "$n" "$steps"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "halo_path_check.sh: N and STEPS take integers >= 1, got '$v'" >&2; exit 2; }
done
[ "$n" -ge 40 ] || { echo "halo_path_check.sh: N >= 40 (the source and probes stay out of the 10 UPML layers)" >&2; exit 2; }
py=python3
command -v python3 > /dev/null || { echo "halo_path_check.sh: python3 not found" >&2; exit 2; }
# Root (the GPU machine's shell) needs Open MPI's consent variables; 2 ranks may exceed its slots.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
log="$out/halo_path_check.log"
: > "$log"
say() { echo "$*" | tee -a "$log"; }

model="$out/cube.ini"
size=$(awk "BEGIN{print $n*0.01}")
mid=$(awk "BEGIN{print $n*0.005}")
cut=$(awk "BEGIN{print $n*0.005 + 0.0002}")      # on the 2-rank cut (x = N/2 cells)
beside=$(awk "BEGIN{print $n*0.005 - 0.0098}")   # the cell before it
off=$(awk "BEGIN{print $n*0.0035}")
# Only the components the z dipole drives at each probe: the others are zero by symmetry, and
# their rounding noise is no measure of equality (docs/MPI.md, "On a GPU node").
cat > "$model" <<MODEL
[grid]
size = $size $size $size
cell_size = 0.01
[time]
steps = $steps
[boundary]
type = upml
layers = 10
[source.feed]
type = dipole
axis = z
position = $off $mid $mid
waveform = gaussian_pulse
frequency = 1e9
amplitude = 1e-12
[probe.cut]
position = $cut $mid $mid
fields = Ez Hy
[probe.beside]
position = $beside $off $mid
fields = Ez Hx Hy
[probe.far]
position = $(awk "BEGIN{print $n*0.0075}") $off $(awk "BEGIN{print $n*0.006}")
fields = Ex Ey Ez Hx Hy
MODEL

overlaps=("n/a")
# The help text whole first: grep -q would end the pipe early, and pipefail count that a failure.
help_text=$("$bin" run --help 2>&1)
if grep -q "^  $overlap_key " <<< "$help_text"; then overlaps=(false true); fi
say "== halo_path_check $(date -u +%FT%TZ) on $(hostname): N=$n, $steps steps, backend $backend, variant $variant, overlap key ${overlap_key} (${overlaps[*]})"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$log" 2>&1
"$mpirun" --version 2>&1 | head -1 | tee -a "$log"

status=0
equal_prog="$build/tests/test_distributed_backend_mpi"
if [ -x "$equal_prog" ]; then
  api=$([ "$backend" = cuda ] && echo cuda || echo opencl)
  for path in host device; do
    for run in "2 0 0 0" "3 3 1 1"; do
      set -- $run
      elog="$out/equal_${path}_np$1.log"
      "$mpirun" -np "$1" "$equal_prog" --api "$api" --rows --halo-path "$path" "$2" "$3" "$4" > "$elog" 2>&1
      rc=$?
      [ $rc -eq 0 ] || status=1
      if [ $rc -eq 0 ]; then
        say "== split model, $1 ranks, halo_path $path: exit 0: $(grep -m1 '^halo path' "$elog"); $(grep -m1 'every rank' "$elog")"
      else
        say "== split model, $1 ranks, halo_path $path: exit $rc: $(grep -m1 'error' "$elog")"
      fi
    done
  done
else
  say "== no $equal_prog: the split-model check is skipped"
fi

# One kernel variant for every run: different work-group shapes round differently on CUDA.
common=(--quiet --output.overwrite=true --device.backend="$backend" --device.variant="$variant")
rows="$out/rows.txt"
: > "$rows"
run_case() {  # name ranks path overlap
  local name=$1 ranks=$2 path=$3 ov=$4 dir="$out/$1" rc
  local args=("${common[@]}" --output.dir="$dir")
  [ "$ranks" -gt 1 ] && args+=(--device.halo_path="$path")
  [ "$ov" != "n/a" ] && args+=(--"$overlap_key"="$ov")
  rm -rf "$dir"  # a refused run writes nothing: no earlier run.json may stand in for it
  if [ "$ranks" -eq 1 ]; then
    "$bin" run "$model" "${args[@]}" > "$out/$name.log" 2>&1
  else
    "$mpirun" -np "$ranks" "$bin" run "$model" "${args[@]}" > "$out/$name.log" 2>&1
  fi
  rc=$?
  [ $rc -eq 0 ] || status=1
  say "== $name: $ranks rank(s), halo_path $path, overlap $ov: exit $rc$([ $rc -eq 0 ] || echo " ($(grep -m1 '^clfdtd:' "$out/$name.log"))")"
  echo "$name $ranks $path $ov $rc" >> "$rows"
}

run_case one 1 - n/a
for path in host device; do
  for ov in "${overlaps[@]}"; do
    run_case "np2_${path}_overlap-${ov//\//}" 2 "$path" "$ov"
  done
done

$py - "$out" "$rows" <<'PY' || status=1
import csv, json, os, sys
out, rows = sys.argv[1], sys.argv[2]
TOL = 1e-6

def probes(d):
    with open(os.path.join(d, "probes.csv")) as f:
        r = list(csv.reader(f))
    return r[0], [[float(x) for x in row] for row in r[1:] if row]

def equal(d):
    try:
        h1, a = probes(os.path.join(out, "one"))
        h2, b = probes(d)
    except (OSError, ValueError) as e:
        return f"no ({e})"
    if h1 != h2 or len(a) != len(b):
        return "no (header or rows differ)"
    for c, name in enumerate(h1):
        x = [r[c] for r in a]
        y = [r[c] for r in b]
        scale = max(abs(v) for v in x) if x else 0.0
        diff = max(abs(p - q) for p, q in zip(x, y)) if x else 0.0
        if diff > TOL * scale or (scale == 0 and diff != 0):
            return f"no ({name}: {diff:.3g} of {scale:.3g})"
    return "yes"

ok = True
with open(os.path.join(out, "halo_paths.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["case", "ranks", "path_asked", "path_run", "overlap", "loop_time_s",
                "mcells_per_s", "exchange_s", "exposed_s", "hidden_fraction", "equal"])
    for line in open(rows):
        name, ranks, path, ov, rc = line.split()
        d = os.path.join(out, name)
        try:
            run = json.load(open(os.path.join(d, "run.json")))
        except (OSError, ValueError):
            run = {}
        halo = run.get("halo", {}) if isinstance(run.get("halo"), dict) else {}
        eq = "reference" if name == "one" else (equal(d) if rc == "0" else "no (exit %s)" % rc)
        ok = ok and (eq in ("yes", "reference"))
        w.writerow([name, ranks, path, halo.get("path", ""), ov, run.get("loop_time_s", ""),
                    run.get("mcells_per_s", ""), halo.get("exchange_s", ""),
                    halo.get("exposed_s", ""), halo.get("hidden_fraction", ""), eq])
print(open(os.path.join(out, "halo_paths.csv")).read(), end="")
sys.exit(0 if ok else 1)
PY
say "== halo_path_check: $([ $status -eq 0 ] && echo ok || echo FAILED) ($out/halo_paths.csv)"
exit $status
