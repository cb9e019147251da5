#!/usr/bin/env bash
# device.upml_form on the GPU (issue 22 item 1, docs/BENCHMARKS.md): how the tile and onepass
# variants' UPML slab kernels store their auxiliaries (float, bfloat16), timed against
# pec_cube (no UPML) of the same variant. One device call:
#   1. the reference check: BUILD/tests/test_engine's device.upml_form cases (bfloat16 on tile
#      and onepass, OpenCL and CUDA, cell by cell against the double reference engine; its bound
#      is in tests/engine/test_engine_upml_form.cpp) and the float engine's slab-edge case
#      (1e-4), output in OUT/check.log;
#   2. `clfdtd bench`, N = 512, OpenCL then CUDA, ROUNDS rounds: vacuum_upml with each form and
#      pec_cube, onepass (8x2x32) and tile (2x4x16), rows appended to OUT/upml_forms.csv (the
#      bench CSV columns; the variant column ends in " aux=bfloat16");
#   3. OUT/summary.txt: per backend, variant and form the median Gcells/s over the rounds and
#      vacuum_upml's share of pec_cube's.
# Builds nothing. Usage, from the project root on the GPU machine:
#   tools/upml_form_ab.sh BUILD_DIR OUT_DIR
# Environment: N (512), ROUNDS (2), REPEATS (3), TARGETS (opencl cuda), FORMS (float,bfloat16),
# DEVICE (gpu).
set -uo pipefail
build=${1:?usage: tools/upml_form_ab.sh BUILD_DIR OUT_DIR}
out=${2:?usage: tools/upml_form_ab.sh BUILD_DIR OUT_DIR}
n=${N:-512}
rounds=${ROUNDS:-2}
repeats=${REPEATS:-3}
targets=${TARGETS:-opencl cuda}
forms=${FORMS:-float,bfloat16}
device=${DEVICE:-gpu}
bin="$build/clfdtd"
[ -x "$bin" ] || { echo "upml_form_ab.sh: $bin is not an executable clfdtd"; exit 2; }
mkdir -p "$out"
csv="$out/upml_forms.csv"
summary="$out/summary.txt"
rm -f "$csv"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
export CLFDTD_CACHE_DIR="$out/cache"  # no tuning cache of the machine: each case runs what it names
rm -rf "$CLFDTD_CACHE_DIR"

say "== upml_form_ab $(date -u +%FT%TZ): N=$n rounds=$rounds repeats=$repeats forms=$forms"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$summary"

t0=$(date +%s)
if [ -x "$build/tests/test_engine" ]; then
  "$build/tests/test_engine" -tc='device.upml_form*,engine vs reference: plain cells next to every kind of UPML slab' \
    > "$out/check.log" 2>&1
  rc=$?
  say "== reference check (test_engine, upml_form and slab-edge cases): exit $rc in $(( $(date +%s) - t0 )) s"
  grep -E "^\[doctest\] (test cases|assertions)|skipped" "$out/check.log" | tee -a "$summary"
else
  say "== reference check: $build/tests/test_engine not built (configure with tests on): NOT CHECKED"
fi

for backend in $targets; do
  if ! "$bin" devices 2>/dev/null | grep -qi "^$backend devices"; then
    say "($backend: no $backend device in this build)"
    continue
  fi
  for r in $(seq "$rounds"); do
    for shape in "--variant=onepass" "--variant=tile --workgroup=2,4,16"; do
      # shellcheck disable=SC2086
      "$bin" bench --backend="$backend" --device="$device" --n="$n" --repeats="$repeats" --csv="$csv" \
        --problem=vacuum_upml --upml-form="$forms" $shape >> "$out/bench_$backend.log" 2>&1 ||
        say "($backend round $r $shape vacuum_upml: exit $?)"
      # shellcheck disable=SC2086
      "$bin" bench --backend="$backend" --device="$device" --n="$n" --repeats="$repeats" --csv="$csv" \
        --problem=pec_cube $shape >> "$out/bench_$backend.log" 2>&1 ||
        say "($backend round $r $shape pec_cube: exit $?)"
    done
  done
  say "== $backend done at $(( $(date +%s) - t0 )) s"
done

py=python3
command -v "$py" > /dev/null || { say "(no python3: see $csv)"; exit 0; }
"$py" - "$csv" <<'EOF' | tee -a "$summary"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
speed = {}
for r in rows:
    v = r["variant"]
    form = "float"
    for f in ("bfloat16",):
        if f" aux={f}" in v:
            form, v = f, v.replace(f" aux={f}", "")
    key = (r["backend"], v.split(" (")[0], r["problem"], form)
    speed.setdefault(key, []).append(float(r["gcells_per_s"]))
print("backend | variant | problem | upml_form | Gcells/s (median; rounds) | of pec_cube")
for key in sorted(speed):
    b, v, p, f = key
    med = statistics.median(speed[key])
    pec = speed.get((b, v, "pec_cube", "float"))
    share = f"{100 * med / statistics.median(pec):.1f}%" if pec and p != "pec_cube" else ""
    print(f"{b} | {v} | {p} | {f} | {med:.2f} ({', '.join(f'{x:.2f}' for x in speed[key])}) | {share}")
EOF
