#!/usr/bin/env bash
# The halo overlap timed (docs/MPI.md, "Overlap"): mpirun -np NP (default 2, split along x) on a
# free-space UPML model of N^3 cells (default 512), once with device.halo_overlap = true and once
# false, and writes OUT/halo_timing.csv: overlap, path, ranks, n, steps, loop_s, mcells_per_s,
# exchange_s, exposed_s, hidden_fraction, exchange_s_max, exposed_s_max (over the ranks; run.json's
# "halo" block) and probes_equal (the two runs' probes.csv within 1e-6 of each series' maximum).
# Builds nothing.
#
# usage: tools/halo_timing.sh BUILD OUT [clfdtd run options...]
#   BUILD: a build folder with clfdtd (MPI on); OUT: the output folder. Extra options pass to
#   both runs (e.g. --device.variant=tile --device.backend=cuda).
# Environment: N (512), STEPS (200), NP (2), MPIRUN (mpirun).
# On the GPU machine, with Open MPI unpacked as tools/mpi_gpu_check.sh says:
#   tools/halo_timing.sh build-mpicheck out/halo --device.backend=cuda
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,15p' "$0"; exit 2; }
build=$1 out=$2
shift 2
extra=("$@")
n=${N:-512} steps=${STEPS:-200} np=${NP:-2} mpirun=${MPIRUN:-mpirun}
bin="$build/clfdtd"
[ -x "$bin" ] || { echo "halo_timing.sh: no program at '$bin'" >&2; exit 2; }
if [ -x /opt/deps/usr/bin/mpirun ] && ! command -v mpirun > /dev/null 2>&1; then
  export OPAL_PREFIX=/opt/deps/usr PATH="/opt/deps/usr/bin:$PATH"
  export LD_LIBRARY_PATH="/opt/deps/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}"
fi
command -v "${mpirun%% *}" > /dev/null || { echo "halo_timing.sh: '$mpirun' not found" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-1}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
mkdir -p "$out"

# N cells of 1 cm per axis, 10 UPML layers, a dipole at the centre and probes beside the cut.
model="$out/halo_n$n.ini"
half=$(awk "BEGIN{print $n*0.005}")
cat > "$model" <<MODEL
[grid]
size = $(awk "BEGIN{print $n*0.01, $n*0.01, $n*0.01}")
cell_size = 0.01
[time]
steps = $steps
[boundary]
type = upml
layers = 10
[source.feed]
type = dipole
axis = z
position = $(awk "BEGIN{print $n*0.004, $half, $half}")
waveform = gaussian_pulse
frequency = 1e9
bandwidth = 1e9
amplitude = 1e-12
[probe.near]
position = $(awk "BEGIN{print $n*0.0045, $half, $half}")
fields = Ex Ez Hy
[probe.cut]
position = $half $half $half
fields = Ex Ez Hy
MODEL

csv="$out/halo_timing.csv"
echo "overlap,path,ranks,n,steps,loop_s,mcells_per_s,exchange_s,exposed_s,hidden_fraction,exchange_s_max,exposed_s_max,probes_equal" > "$csv"
status=0
for overlap in true false; do
  dir="$out/run_overlap_$overlap"
  log="$out/run_overlap_$overlap.log"
  echo "halo_timing.sh: $np ranks, N=$n, $steps steps, halo_overlap=$overlap"
  if ! $mpirun -np "$np" "$bin" run "$model" --quiet --output.dir="$dir" --output.overwrite=true \
       --device.decomposition="$np 1 1" --device.halo_overlap=$overlap "${extra[@]}" > "$log" 2>&1; then
    echo "halo_timing.sh: the run failed; its output: $log" >&2; tail -5 "$log" >&2; status=1; continue
  fi
done
"$py" - "$out" "$np" "$n" "$steps" >> "$csv" <<'ROWS'
import csv, json, os, sys
out, np_, n, steps = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def probes(d):
    p = os.path.join(d, "probes.csv")
    if not os.path.exists(p):
        return None
    rows = [r for r in csv.reader(open(p)) if r and not r[0].startswith("#")]
    return [[float(x) for x in r] for r in rows[1:]]
a, b = probes(os.path.join(out, "run_overlap_true")), probes(os.path.join(out, "run_overlap_false"))
equal = "n/a"
if a is not None and b is not None and len(a) == len(b):
    ok = True
    for c in range(len(a[0]) if a else 0):
        peak = max(abs(r[c]) for r in a + b) or 1.0
        ok = ok and all(abs(x[c] - y[c]) <= 1e-6 * peak for x, y in zip(a, b))
    equal = "yes" if ok else "NO"
elif a is not None or b is not None:
    equal = "NO"
for overlap in ("true", "false"):
    p = os.path.join(out, f"run_overlap_{overlap}", "run.json")
    if not os.path.exists(p):
        print(f"{overlap},,{np_},{n},{steps},,,,,,,,failed")
        continue
    r = json.load(open(p))
    h = r.get("halo", {})
    m = h.get("max_over_ranks", {})
    hf = h.get("hidden_fraction")
    print(",".join(str(x) for x in [overlap, h.get("path", ""), r.get("ranks"), n, steps,
          r.get("loop_time_s"), r.get("mcells_per_s"), h.get("exchange_s"), h.get("exposed_s"),
          "" if hf is None else hf, m.get("exchange_s"), m.get("exposed_s"), equal]))
ROWS
column -s, -t "$csv"
echo "halo_timing.sh: $csv"
exit $status
