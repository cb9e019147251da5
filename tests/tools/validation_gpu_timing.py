#!/usr/bin/env python3
"""The cyl_vs_3d validation case's GPU timing survives a rewrite of its report section: the case
adds docs/validation/cyl_vs_3d_gpu.md (tools/validation/cyl_vs_3d_speed.sh's table, measured
apart on a lent GPU) to its notes, and docs/VALIDATION.md holds those lines in its section 19.
Needs numpy (the validation package imports it). Usage: validation_gpu_timing.py"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from validation import cyl_vs_3d  # noqa: E402

lines = cyl_vs_3d.gpu_timing_lines()
if len(lines) < 5 or not any(line.startswith("| CUDA |") for line in lines):
    sys.exit(f"FAIL: {cyl_vs_3d.GPU_TIMING}: expected the GPU table, got {len(lines)} lines")
doc = open(os.path.join(ROOT, "docs", "VALIDATION.md")).read()
section = doc[doc.index("## 19."):doc.index("## 20.")]
block = "\n".join(lines[1:])
if block not in section:
    sys.exit("FAIL: docs/VALIDATION.md section 19 lacks the lines of docs/validation/cyl_vs_3d_gpu.md")
print(f"ok: {len(lines) - 1} lines of the GPU timing in the case's notes and in section 19")
