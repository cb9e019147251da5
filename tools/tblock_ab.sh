#!/usr/bin/env bash
# The tblock variant (two steps per pass) against onepass on the GPU, in one device call: first
# the tblock cases of the engine tests against the reference engine on every API of the build
# (OpenCL and CUDA), then `clfdtd bench` at N (default 512) on pec_cube and vacuum_upml, OpenCL
# and CUDA, onepass then tblock, two rounds, so that clock drift hits both alike. Builds nothing.
# Usage: tools/tblock_ab.sh BUILD OUT [N]
#   BUILD: a build with CUDA and tests (cmake -DCLFDTD_CUDA=ON), OUT: where the results go:
#   OUT/check.log (the test run), OUT/bench.log, OUT/tblock.csv (round + the bench's CSV columns)
#   and OUT/summary.txt (Gcells/s per round, bytes per cell, share of the copy bandwidth).
# Environment: BACKENDS (default opencl,cuda). vacuum_upml: tblock steps the owned box past the
# layers in its pass and the rest with its shell pass (engine/plan.hpp TBlockPass).
set -uo pipefail
build=$1 out=$2 n=${3:-512}
backends=${BACKENDS:-opencl,cuda}
mkdir -p "$out"
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
say "== tblock_ab $(date -u +%FT%TZ): build $build, N=$n"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$summary"

"$build/tests/test_engine" -tc='tblock*' > "$out/check.log" 2>&1
rc=$?
say "== reference check (test_engine -tc='tblock*', every API with a device): exit $rc"
grep -E "test cases:|assertions:|no .* device" "$out/check.log" | tee -a "$summary"
case $backends in *cuda*)
  grep -q "no cuda device" "$out/check.log" && say "WARNING: the check ran without CUDA" ;;
esac
if [ $rc != 0 ]; then tail -40 "$out/check.log" | tee -a "$summary"; exit 1; fi

export CLFDTD_CACHE_DIR="$out/cache"  # no tuned choices: each case runs what it names
csv="$out/tblock.csv"
rm -f "$csv" "$out/round.csv"
for r in 1 2; do
  for v in onepass tblock; do
    "$build/clfdtd" bench --backend="$backends" --problem=pec_cube,vacuum_upml --n="$n" \
      --variant="$v" --csv="$out/round.csv" >> "$out/bench.log" 2>&1 ||
      say "round $r $v FAILED (see bench.log)"
  done
  # Prefix this round's rows with the round number.
  if [ -f "$out/round.csv" ]; then
    if [ ! -f "$csv" ]; then head -1 "$out/round.csv" | sed 's/^/round,/' > "$csv"; fi
    tail -n +2 "$out/round.csv" | sed "s/^/$r,/" >> "$csv"
    rm -f "$out/round.csv"
  fi
done

python3 - "$csv" <<'PY' | tee -a "$summary"
import csv, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
got = defaultdict(list)
for r in rows:
    got[(r["backend"], r["problem"], r["variant"])].append(r)
for (backend, problem, variant), rs in sorted(got.items()):
    g = " ".join(f'{float(r["gcells_per_s"]):.1f}' for r in rs)
    print(f'{backend:7s} {problem:12s} {variant:38s} Gcells/s {g}  B/cell {float(rs[0]["bytes_per_cell"]):.1f}'
          f'  roofline {100 * float(rs[-1]["roofline_ratio"]):.0f}%')
PY
