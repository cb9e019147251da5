#!/usr/bin/env bash
# Runs the kernels of a tiny model under oclgrind (OpenCL API misuse, out-of-bounds accesses,
# data races in local and global memory) through the engine-vs-reference test case, and fails on
# any message oclgrind reports, on a failed comparison, or if the case did not run at all.
# Usage: tools/oclgrind_check.sh [test_engine binary] [doctest case filter]   (from the root)
set -euo pipefail

bin=${1:-build-cl/tests/test_engine}
filter=${2:-'*tiny magnetic UPML model (oclgrind)*'}

if ! command -v oclgrind > /dev/null; then
  echo "oclgrind_check: oclgrind is not installed" >&2
  exit 2
fi
if [[ ! -x $bin ]]; then
  echo "oclgrind_check: $bin not found; build the test_engine target first" >&2
  exit 2
fi

log=$(mktemp)
out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT

# oclgrind's own messages go to $log; the test's output to $out. The kernels are compiled
# unoptimised (OCLGRIND_BUILD_OPTIONS, default -cl-opt-disable): optimised, Debian's oclgrind
# stops on update_h_rows ("Undefined external function: llvm.experimental.noalias.scope.decl",
# an intrinsic its interpreter does not know) and the rows variant's cases never run.
set +e
oclgrind --check-api --data-races --build-options "${OCLGRIND_BUILD_OPTIONS--cl-opt-disable}" \
  --log "$log" "$bin" -tc="$filter" > "$out" 2>&1
rc=$?
set -e
cat "$out"

status=0
if [[ -s $log ]]; then
  echo "oclgrind_check: oclgrind reported problems:" >&2
  cat "$log" >&2
  status=1
fi
if [[ $rc -ne 0 ]]; then
  echo "oclgrind_check: the test exited with status $rc" >&2
  status=1
fi
# A filter that matches nothing, or a machine where the case skips, must not pass silently.
if ! grep -Eq 'test cases: +[1-9][0-9]* \| +[1-9][0-9]* passed \| +0 failed' "$out" ||
   grep -q 'OpenCL case skipped' "$out"; then
  echo "oclgrind_check: the case '$filter' did not run under oclgrind" >&2
  status=1
fi
if [[ $status -eq 0 ]]; then
  echo "oclgrind_check: no errors reported"
fi
exit $status
