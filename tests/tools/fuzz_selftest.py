#!/usr/bin/env python3
"""tools/fuzz/fuzz catches what it is meant to catch: run against stand-in programs (shell
scripts) that each misbehave in one way, it must exit 1 and name that class; against one that
refuses every input with exit 2 and writes nothing, it must find nothing.

Usage: tests/tools/fuzz_selftest.py <scratch folder>   (run from the project root)
"""

import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: (script body, class the fuzzer must report, or None for no finding)
PROGRAMS = {
    "refuses": ('echo "clfdtd: bad input: model.ini: no" >&2; exit 2', None),
    "deletes_victim": ('rm -rf victim; exit 0', "touched outside the output folder"),
    "exit1": ('echo "clfdtd: error: boom" >&2; exit 1', "exit 1 (internal error)"),
    "exit9": ('exit 9', "exit 9: not a documented code"),
    "crashes": ('kill -SEGV $$', "crash: signal SIGSEGV"),
    "sanitizer": ('echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow" >&2; exit 2',
                  "sanitizer: "),
    "writes_on_exit2": ('echo x > newfile; exit 2', "exit 2 (bad input) but files were written"),
    "leaves_tmp": ('mkdir -p out.tmp-123; exit 0', "temporary <dir>.tmp-<pid> left behind"),
    "interrupt_exit0": ("trap 'exit 0' INT; while :; do sleep 0.1; done",
                        "interrupt: exit 0 after SIGINT, expected 6"),
    "interrupt_ok": ("trap 'exit 6' INT; while :; do sleep 0.1; done", None),
}


def main():
    scratch = os.path.abspath(sys.argv[1])
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    def judge(name):
        body, expected = PROGRAMS[name]
        prog = os.path.join(scratch, name)
        with open(prog, "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(prog, 0o755)
        slow = name.startswith("interrupt")
        work = os.path.join(scratch, "work-" + name)
        r = subprocess.run([os.path.join(ROOT, "tools", "fuzz", "fuzz"), "--bin", prog,
                            "--cases", "1" if slow else "3", "--jobs", "1", "--timeout",
                            "1" if slow else "20", "--work", work, "--no-prev"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            found = json.load(open(os.path.join(work, "report.json")))["findings"]
        except (OSError, ValueError):
            return f"{name}: no report.json (exit {r.returncode}):\n{r.stdout[-800:]}"
        if expected is None:
            if r.returncode != 0 or found:
                return f"{name}: expected no finding, got exit {r.returncode}, {list(found)}"
        elif r.returncode != 1 or not any(cls.startswith(expected) for cls in found):
            return f"{name}: expected a finding '{expected}', got exit {r.returncode}, {list(found)}"
        return None

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        problems = [p for p in pool.map(judge, PROGRAMS) if p]
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(f"ok: {len(PROGRAMS)} stand-in programs judged as expected")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
