#!/usr/bin/env python3
"""tools/cyl_speedup_table.py on a hand-made bench CSV (the columns clfdtd bench writes): one table
per backend and problem, each variant once at its fastest, fastest first, the speed-up over the
group's first row (the baseline tools/cyl_speedup.sh measures first). Standard library only.
Usage: cyl_speedup_table.py (from the project root or anywhere)"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "..", "tools", "cyl_speedup_table.py")
HEADER = ("device,driver,backend,variant,problem,n,cells,pml_cells,steps,repeats,seconds,"
          "gcells_per_s,bytes_per_cell,achieved_gbs,copy_gbs,roofline_ratio,timer,commit")


def row(backend, variant, problem, g):
    return (f'"GPU X (platform, 1.0)",1,{backend},{variant},{problem},4000,48000000,0,100,5,0.1,'
            f"{g},147,{g * 147},3000,{g * 147 / 3000},device,abc")


def main():
    rows = [
        row("cuda", "cyl-tile 8x16x1 unaligned (3 modes)", "cyl_pec", 10.0),  # baseline: first
        row("cuda", "cyl-tile 8x32x1 (3 modes)", "cyl_pec", 20.0),
        row("cuda", "cyl-tile 8x32x1 (3 modes)", "cyl_pec", 15.0),  # slower repeat: not shown
        row("cuda", "cyl-tile-local 8x32x1 (3 modes)", "cyl_pec", 12.5),
        row("opencl", "cyl-tile 8x16x1 unaligned (3 modes)", "cyl_pec", 8.0),
    ]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cyl_speedup.csv")
        with open(path, "w") as f:
            f.write(HEADER + "\n" + "\n".join(rows) + "\n")
        out = subprocess.run([sys.executable, TABLE, path], capture_output=True, text=True,
                             check=True).stdout
    cuda = out[out.index("### cuda"):out.index("### opencl")]
    lines = [l for l in cuda.splitlines() if l.startswith("| cyl-")]
    assert len(lines) == 3, out
    assert lines[0].startswith("| cyl-tile 8x32x1 (3 modes) | 20.00 |"), out
    assert lines[0].endswith("| 2.00x |"), out
    assert lines[1].startswith("| cyl-tile-local 8x32x1") and lines[1].endswith("| 1.25x |"), out
    assert lines[2].startswith("| cyl-tile 8x16x1 unaligned") and lines[2].endswith("| 1.00x |"), out
    assert "baseline: cyl-tile 8x16x1 unaligned (3 modes)" in cuda, out
    assert "roofline" in cuda and "98.0%" in out, out  # 20 x 147 / 3000
    print("cyl_speedup_table: ok")


if __name__ == "__main__":
    main()
