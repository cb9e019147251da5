#!/usr/bin/env python3
"""tools/cyl_models.py on short runs (--steps 600) of models/cyl_cavity.ini and cyl_lens.ini: it
prints the two PNGs it wrote, each is a PNG of the figure's size (cavity 800x420, lens 720x500 at
dpi 100), not blank (many colours: curves, lines and the field image), and a bad --steps exits 2.

Usage: tests/tools/cyl_models_png.py <clfdtd program> <scratch folder>   (run from the project root)
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from system_python import reexec_with_system_python  # noqa: E402

reexec_with_system_python("numpy", "PIL", "matplotlib", "scipy")

from png_checks import colour_count, open_png  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "cyl_models.py")


def main():
    binary, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    png_dir, work = os.path.join(scratch, "png"), os.path.join(scratch, "work")
    r = subprocess.run([sys.executable, TOOL, "--bin", binary, "--out", png_dir, "--work", work,
                        "--steps", "600"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(f"FAIL: tools/cyl_models.py exited {r.returncode}:\n{r.stdout[-2000:]}")
    problems = []
    want = {"cyl_cavity_spectrum.png": (800, 420), "cyl_lens.png": (720, 500)}
    printed = [os.path.basename(line) for line in r.stdout.split() if line.endswith(".png")]
    if sorted(printed) != sorted(want):
        problems.append(f"printed {printed}, expected {sorted(want)}")
    for name, size in want.items():
        img = open_png(os.path.join(png_dir, name), size, problems, name)
        if img is None:
            continue
        colours = colour_count(img)
        if colours < 100:
            problems.append(f"{name}: {colours} colours, expected >= 100 (a blank plot?)")
    # Both runs happened: their run.json say completed at 600 steps.
    for model in ("cyl_cavity", "cyl_lens"):
        report = os.path.join(work, model, "run.json")
        text = open(report).read() if os.path.isfile(report) else ""
        if '"status": "completed"' not in text or '"steps_done": 600' not in text:
            problems.append(f"{report}: not a completed 600-step run")
    bad = subprocess.run([sys.executable, TOOL, "--bin", binary, "--steps", "1", "--out", png_dir,
                          "--work", work], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT)
    if bad.returncode != 2 or "--steps" not in bad.stderr:
        problems.append(f"--steps 1: exit {bad.returncode}, {bad.stderr.strip()}")
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(f"ok: {len(want)} PNGs in {png_dir}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
