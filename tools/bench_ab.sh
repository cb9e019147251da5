#!/usr/bin/env bash
# A/B benchmark of two source trees in one device call (docs/BENCHMARKS.md records what it
# printed): builds both with the CUDA engine (no VTK), runs the GPU test areas of tree B against
# the reference engine on this GPU, then times the same cases on A and B alternately (A B A B),
# so that clock and thermal drift hit both alike.
# Usage, from the project root on the GPU machine:
#   tools/bench_ab.sh DIR_A DIR_B [N]      (default N = 512)
# (e.g. A = `git archive REV | tar -x -C DIR_A` made beforehand, B = the working tree: `.`)
# Environment: CASES (lines of `clfdtd bench` options, default below), PROBLEMS (default
# vacuum_upml,pec_cube), ROUNDS (default 2), TESTS (ctest -R regex for tree B, default the GPU
# areas; "none" skips them), TEST_CASES (instead of ctest: test_engine's doctest -tc filter, e.g.
# 'tblock vs reference*', faster where one area is enough), CMAKE_A / CMAKE_B (extra configure
# options per tree; -DCLFDTD_COMMIT_ID=REV names the revision the rows say where the copied tree's
# git cannot). The two trees build at once, half the cores each. Results under $OUT (or
# out/bench-ab).
set -uo pipefail
a=$1 b=$2 n=${3:-512}
out=${OUT:-out/bench-ab}
mkdir -p "$out"
rounds=${ROUNDS:-2}
jobs=$(nproc)
cases=${CASES:-"--variant=onepass
--variant=tile --workgroup=2,4,16
--variant=tile --workgroup=2,2,30"}
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

say "== bench_ab $(date -u +%FT%TZ): A=$a B=$b N=$n"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$summary"
build() {  # side: configure and build one tree, output to its log
  local side=$1 dir extra
  dir=${!side}
  local tests=OFF  # A is only timed
  if [ "$side" = a ]; then extra=${CMAKE_A:-}; else extra=${CMAKE_B:-}; tests=$tests_b; fi
  # shellcheck disable=SC2086
  cmake -S "$dir" -B "$dir/build-ab" -DCLFDTD_CUDA=ON -DCLFDTD_VTK=OFF -DCLFDTD_TESTS=$tests \
    $extra > "$out/cmake-$side.log" 2>&1 &&
    cmake --build "$dir/build-ab" -j"$(( jobs / 2 ))" > "$out/build-$side.log" 2>&1
}
t0=$(date +%s)
tests_b=ON; [ "${TESTS:-}" = none ] && [ -z "${TEST_CASES:-}" ] && tests_b=OFF
build a & pa=$!
build b & pb=$!
for side in a b; do
  if [ "$side" = a ]; then wait $pa; else wait $pb; fi
  if [ $? = 0 ]; then say "== build $side: ok in $(( $(date +%s) - t0 )) s"
  else say "== build $side: FAILED"; tail -30 "$out/build-$side.log" | tee -a "$summary"; exit 1; fi
done

t0=$(date +%s)
if [ -n "${TEST_CASES:-}" ]; then
  "$b/build-ab/tests/test_engine" -tc="$TEST_CASES" > "$out/test-engine-b.log" 2>&1
  say "== test_engine B -tc='$TEST_CASES': exit $? in $(( $(date +%s) - t0 )) s"
  tail -4 "$out/test-engine-b.log" | tee -a "$summary"
elif [ "$tests_b" = ON ]; then
  (cd "$b" && ctest --test-dir build-ab --output-on-failure -R "${TESTS:-engine|device|backends}" \
    > "$out/ctest-b.log" 2>&1)
  say "== ctest B (${TESTS:-engine|device|backends}): exit $? in $(( $(date +%s) - t0 )) s"
  grep -E "tests passed|\(Failed\)|SKIP" "$out/ctest-b.log" | tee -a "$summary"
fi

export CLFDTD_CACHE_DIR="$out/cache"  # no tuned defaults: each case runs what it names
problems=${PROBLEMS:-vacuum_upml,pec_cube}
say "== bench: $problems N=$n, OpenCL and CUDA, $rounds rounds of A then B"
for r in $(seq "$rounds"); do
  for side in a b; do
    dir=${!side}
    while IFS= read -r c; do
      [ -z "$c" ] && continue
      # shellcheck disable=SC2086
      "$dir/build-ab/clfdtd" bench --backend=opencl,cuda --problem="$problems" --n="$n" \
        $c --csv="$out/bench-$side.csv" > "$out/run.tmp" 2>&1 || { say "$side $c FAILED"; tail -5 "$out/run.tmp" | tee -a "$summary"; }
      cat "$out/run.tmp" >> "$out/bench-$side.log"
    done <<< "$cases"
  done
done
rm -f "$out/run.tmp"
# One line per (side, backend, problem, variant with its work-group): every round's Gcells/s and
# the share of the copy bandwidth.
python3 - "$out/bench-a.csv" "$out/bench-b.csv" <<'PY' | tee -a "$summary"
import csv, sys
from collections import defaultdict
for side, path in zip("AB", sys.argv[1:]):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError:
        print(side, "no rows"); continue
    got = defaultdict(list)
    for r in rows:
        key = (r["backend"], r["problem"], r["variant"])
        got[key].append((float(r["gcells_per_s"]), float(r["roofline_ratio"])))
    for key in sorted(got, key=str):
        v = got[key]
        print("%s %-7s %-12s %-18s" % ((side,) + key),
              " ".join("%.2f (%.1f%%)" % (g, 100 * f) for g, f in v), "max %.2f" % max(g for g, _ in v))
PY
