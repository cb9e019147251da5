"""What the example-model picture scripts (periodic_models.py, symmetry_models.py, ...) share: the
system python3 when this one lacks numpy (with_numpy), their command line (--bin, --out, --work)
and one clfdtd run of a model into a folder."""

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def with_numpy():
    """Imports numpy and matplotlib, or re-runs the script with the system python3 when this one
    (a pyenv or venv python on PATH, as tools/validate meets) has none of them."""
    try:
        import numpy  # noqa: F401
        import matplotlib  # noqa: F401
    except ImportError:
        if os.path.exists("/usr/bin/python3") and \
                os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        raise


def parse_args(doc, extra=None):
    """--bin (the clfdtd binary), --out (picture folder), --work (runs' folder), as absolute paths;
    work is None for a temporary folder (runs_folder). extra(parser) adds a script's own options."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if extra:
        extra(ap)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "clfdtd"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"), help="picture folder")
    ap.add_argument("--work", help="runs' folder (default: a temporary one, removed at the end)")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    a.out = os.path.abspath(a.out)
    a.work = os.path.abspath(a.work) if a.work else None
    os.makedirs(a.out, exist_ok=True)
    return a


@contextlib.contextmanager
def runs_folder(work, prefix):
    """The folder the runs go to: `work`, or a temporary one removed afterwards."""
    if work:
        yield work
        return
    path = tempfile.mkdtemp(prefix=prefix)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def run(binary, model, out, *overrides):
    """Runs one model into `out` (exit 1 when it fails); returns its run.json and the wall time in
    seconds, and prints its warnings and a line of its size and times."""
    t0 = time.monotonic()
    r = subprocess.run([binary, "run", model, "--output.dir=" + out, "--output.overwrite=true",
                        "--quiet", *overrides], capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        print(f"{model} {' '.join(overrides)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        sys.exit(1)
    with open(os.path.join(out, "run.json")) as f:
        info = json.load(f)
    for w in info.get("warnings", []):
        print(f"{model}: warning: {w}")
    cells = info["cells"]
    print(f"{model} {' '.join(overrides)}: {cells[0]} x {cells[1]} x {cells[2]} = "
          f"{info['cells_total']} cells, {info['steps_done']} steps of {info['dt_s']:.6g} s, "
          f"{info['loop_time_s']:.2f} s time loop, {wall:.2f} s in all")
    return info, wall
