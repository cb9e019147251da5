#!/usr/bin/env python3
"""The table of tools/cyl_speedup.sh (issue 20): from its bench CSV (the columns of
docs/bench/results.csv; cells = cell-mode updates), one markdown table per backend and problem,
each distinct kernel variant once (its fastest row), fastest first, with Gcells/s, the roofline
ratio and the speed-up over the baseline: the group's first row, which cyl_speedup.sh measures
first, the engine's first form (cyl-tile 8x16x1 unaligned: global reads, 8 x 16 work-group, z
start not aligned; clamped to the grid at small n). Standard library only.
Usage: cyl_speedup_table.py CYL_SPEEDUP_CSV
"""
import csv
import sys

def main(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print("(no rows)")
        return 1
    groups = {}
    for r in rows:
        groups.setdefault((r["backend"], r["device"].split(" (")[0], r["problem"], r["n"]), []).append(r)
    for (backend, device, problem, n), rs in sorted(groups.items()):
        best = {}
        for r in rs:
            g = float(r["gcells_per_s"])
            if r["variant"] not in best or g > float(best[r["variant"]]["gcells_per_s"]):
                best[r["variant"]] = r
        base_g = float(best[rs[0]["variant"]]["gcells_per_s"])
        print(f"\n### {backend}, {device}: {problem}, {n} x {n} (r, z), modes 0 1 2\n")
        print(f"baseline: {rs[0]['variant']}\n")
        print("| variant | Gcells/s (cell-modes) | B/cell-mode | GB/s | roofline | vs baseline |")
        print("|---|---:|---:|---:|---:|---:|")
        for v, r in sorted(best.items(), key=lambda kv: -float(kv[1]["gcells_per_s"])):
            g = float(r["gcells_per_s"])
            ratio = f"{g / base_g:.2f}x" if base_g > 0 else "-"
            print(f"| {v} | {g:.2f} | {float(r['bytes_per_cell']):.1f} | "
                  f"{float(r['achieved_gbs']):.0f} | {100 * float(r['roofline_ratio']):.1f}% | {ratio} |")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
