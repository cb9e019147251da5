#!/usr/bin/env bash
# Where untuned `auto` should switch from onepass to tblock, measured around the rule's edges
# (host/engine/variant_choice.hpp tblock_preferred: cells per compute unit, owned share): per
# model and size, onepass and tblock timed, then `auto` in a bench run of its own (its rows name
# the variant it took), and whether auto took the faster one. For recalibrating kTBlock* on a GPU
# other than the H200, or after a kernel change moves one variant more than the other. Builds
# nothing; a few minutes on an H200 (14 and 17 sizes at REPEATS=2, both backends: 3 and about 4 minutes).
# Usage: tools/auto_crossover.sh BUILD OUT
#   BUILD: a build directory holding clfdtd; OUT: where the results go: OUT/variants.csv,
#   OUT/auto.csv (the bench's CSV columns), OUT/summary.txt (the table below).
# Environment: BACKENDS (default opencl,cuda); REPEATS (default 3); CASES, words
#   "problem:n,n,..." (default: around the H200 edges: N = 136 with PEC walls and with 5 or 10
#   layers, 156 with 20 layers, 222 with 30).
set -uo pipefail
build=$1 out=$2
backends=${BACKENDS:-opencl,cuda}
repeats=${REPEATS:-3}
cases=${CASES:-"pec_cube:128,136,144 vacuum_upml@5:120,136,144 vacuum_upml:128,136,144,160 vacuum_upml@20:144,156,160,176 vacuum_upml@30:192,222,224,256"}
mkdir -p "$out"
rm -f "$out/variants.csv" "$out/auto.csv"
summary="$out/summary.txt"
echo "== auto_crossover $(date -u +%FT%TZ): build $build, backends $backends" > "$summary"
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$summary" 2>&1
rc=0
for c in $cases; do
  problem=${c%%:*} sizes=${c#*:}
  "$build/clfdtd" bench --backend="$backends" --problem="$problem" --n="$sizes" \
    --variant=onepass,tblock --repeats="$repeats" --csv="$out/variants.csv" \
    >> "$out/bench.log" 2>&1 || { echo "bench failed: $problem $sizes (bench.log)" >> "$summary"; rc=1; }
  "$build/clfdtd" bench --backend="$backends" --problem="$problem" --n="$sizes" \
    --variant=auto --repeats="$repeats" --csv="$out/auto.csv" \
    >> "$out/bench.log" 2>&1 || { echo "bench failed: auto $problem $sizes (bench.log)" >> "$summary"; rc=1; }
done
python3 - "$out/variants.csv" "$out/auto.csv" <<'PY' >> "$summary" || rc=1
import csv, sys
def rows(path):
    try:
        return list(csv.DictReader(open(path)))
    except OSError:
        return []
speed, took = {}, {}
for r in rows(sys.argv[1]):
    speed[(r["backend"], r["problem"], int(r["n"]), r["variant"].split()[0])] = float(r["gcells_per_s"])
for r in rows(sys.argv[2]):
    took[(r["backend"], r["problem"], int(r["n"]))] = r["variant"].split()[0]
print("backend  problem            N  onepass   tblock  tblock/onepass  auto     auto's loss")
for key in sorted(took):
    o, t = speed.get(key + ("onepass",)), speed.get(key + ("tblock",))
    if o is None or t is None:
        print(*key, "missing a variant's row")
        continue
    a = took[key]
    best = max(o, t)
    got = {"onepass": o, "tblock": t}.get(a)
    loss = "" if got is None else "%.1f%%" % (100 * (1 - got / best))
    print("%-8s %-14s %5d %8.2f %8.2f %15.3f  %-8s %s" % (*key, o, t, t / o, a, loss))
PY
cat "$summary"
exit $rc
