#!/usr/bin/env python3
"""The cyl_vs_3d validation case's GPU timing survives a rewrite of its report section: the case
adds docs/validation/cyl_vs_3d_gpu.md (tools/validation/cyl_vs_3d_speed.sh's table, measured
apart on a lent GPU) to its notes through tools/validation/gpu_timing.py, and docs/VALIDATION.md
holds those lines in its section 19. Standard library only (the case module, which needs numpy,
is checked too where numpy is there). Usage: validation_gpu_timing.py"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from validation import gpu_timing  # noqa: E402

NAME = "cyl_vs_3d_gpu.md"
lines = gpu_timing.lines(NAME)
if len(lines) < 5 or not any(line.startswith("| CUDA |") for line in lines):
    sys.exit(f"FAIL: {gpu_timing.path(NAME)}: expected the GPU table, got {len(lines)} lines")
doc = open(os.path.join(ROOT, "docs", "VALIDATION.md")).read()
section = doc[doc.index("## 19."):doc.index("## 20.")]
if "\n".join(lines[1:]) not in section:
    sys.exit(f"FAIL: docs/VALIDATION.md section 19 lacks the lines of docs/validation/{NAME}")
if importlib.util.find_spec("numpy"):
    from validation import cyl_vs_3d  # noqa: E402
    if cyl_vs_3d.GPU_TIMING != NAME:
        sys.exit(f"FAIL: the cyl_vs_3d case adds {cyl_vs_3d.GPU_TIMING!r}, not {NAME!r}")
print(f"ok: {len(lines) - 1} lines of the GPU timing in section 19")
