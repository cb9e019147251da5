#!/usr/bin/env python3
"""Seed 000's and seed 001's tables from tools/plane_speedup.sh's files (issue 19).

Reads OUT/cpu_loop.csv (clfdtd_plane_loop), OUT/bench_*.json (clfdtd bench rows, the variant
asked for: auto by default) and OUT/pairsum_*.json (the wave problems again with --variant=tile:
wave-pairsum), writes OUT/plane_speedup.csv (one row per measurement, with the kernel that ran and
the speed-up over the CPU loop at the same size) and OUT/plane_speedup.md (the tables
docs/BENCHMARKS.md takes). Standard library only.
Usage: plane_speedup_table.py OUT_DIR
"""
import csv
import glob
import json
import os
import sys

SEED000_PROBLEM = "plane_tm_pec"  # the loop's own work: vacuum, PEC walls, Yee tm
PAIRS = [("plane_tm_pec", "plane_wave_pec"), ("plane_tm", "plane_wave")]  # seed 001: tm vs wave


def label(row):
    """backend + the device's name without its platform part, e.g. 'opencl NVIDIA H100 80GB HBM3'."""
    return f"{row['backend']} {row['device'].split(' (')[0]}"


def kernel(row):
    """The kernel that ran: the first word of the bench row's variant ('wave-cross 8x32x1 ...')."""
    return row["variant"].split(" ")[0]


def load_rows(out, prefix):
    rows = []
    for path in sorted(glob.glob(os.path.join(out, prefix + "_*.json"))):
        with open(path) as f:
            rows.extend(json.load(f))
    return rows


def load(out):
    loop = {}
    with open(os.path.join(out, "cpu_loop.csv"), newline="") as f:
        for r in csv.DictReader(f):
            loop[int(r["n"])] = float(r["gcells_per_s"]), float(r["mode_error"]), r
    return loop, load_rows(out, "bench"), load_rows(out, "pairsum")


def fmt(x, digits=3):
    return "" if x is None else f"{x:.{digits}g}"


def main(out):
    loop, rows, pairsum = load(out)
    labels = list(dict.fromkeys(label(r) for r in rows))
    by = {(label(r), r["problem"], r["n"]): r for r in rows}

    fields = ["label", "backend", "device", "kernel", "variant", "problem", "n", "cells", "steps",
              "seconds",
              "gcells_per_s", "cpu_loop_gcells_per_s", "speedup_vs_cpu_loop", "bytes_per_cell",
              "achieved_gbs", "copy_gbs", "roofline_ratio", "storage_bytes_per_cell",
              "device_bytes_per_cell", "timer", "commit"]
    with open(os.path.join(out, "plane_speedup.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for n, (g, _, lr) in sorted(loop.items()):
            w.writerow({"label": "cpu_loop", "backend": "cpu_loop", "device": "one thread, -O3",
                        "kernel": "cpu-loop", "variant": "plain loops",
                        "problem": SEED000_PROBLEM, "n": n,
                        "cells": n * n, "steps": lr["steps"], "seconds": lr["seconds"],
                        "gcells_per_s": g, "cpu_loop_gcells_per_s": g,
                        "speedup_vs_cpu_loop": 1, "storage_bytes_per_cell": 12})
        for r in rows + pairsum:
            base = loop.get(r["n"], (None,))[0]
            w.writerow({**{k: r.get(k) for k in fields if k in r}, "label": label(r),
                        "kernel": kernel(r),
                        "cpu_loop_gcells_per_s": base,
                        "speedup_vs_cpu_loop": r["gcells_per_s"] / base if base else None,
                        "device_bytes_per_cell": r.get("device_bytes", 0) / r["cells"]})

    md = ["## Seed 000: 2D Yee tm (PEC walls) against the single-threaded CPU loop", "",
          "Gcells/s (speed-up over the loop at the same size); `clfdtd bench --problem="
          + SEED000_PROBLEM + "`, the loop `clfdtd_plane_loop` (float, -O3).", ""]
    md.append("| N^2 | CPU loop |" + "".join(f" {lb} |" for lb in labels))
    md.append("|---|---|" + "---|" * len(labels))
    sizes = sorted(set(loop) | {r["n"] for r in rows if r["problem"] == SEED000_PROBLEM})
    for n in sizes:
        base = loop.get(n, (None,))[0]
        cells = []
        for lb in labels:
            r = by.get((lb, SEED000_PROBLEM, n))
            if r is None:
                cells.append("")
            else:
                sp = f" ({r['gcells_per_s'] / base:.1f}x)" if base else ""
                cells.append(fmt(r["gcells_per_s"]) + sp)
        md.append(f"| {n}^2 | {fmt(base)} |" + "".join(f" {c} |" for c in cells))
    md.append("")
    for lb in labels:
        losing = [n for n in sizes if n in loop and (lb, SEED000_PROBLEM, n) in by
                  and by[(lb, SEED000_PROBLEM, n)]["gcells_per_s"] <= loop[n][0]]
        md.append(f"- {lb}: " + (f"not faster than the loop at N = {', '.join(map(str, losing))}"
                                  if losing else "faster than the loop at every size measured"))
    worst = max((v[1] for v in loop.values()), default=None)
    md += [f"- CPU loop: largest mode_error (against the discrete cavity mode) {fmt(worst)}", ""]

    md += ["## Seed 001: scalar wave equation against Yee tm, same grid and device", "",
           "Gcells/s, roofline (achieved GB/s over the copy bandwidth, bytes per cell as "
           "roofline.hpp counts), memory: fields and ids per plain cell, and the device "
           "allocation per cell.", "",
           "| device | N^2 | boundary | tm Gcells/s | wave Gcells/s | wave/tm | tm B/cell, roof | "
           "wave B/cell, roof | tm memory B/cell (alloc) | wave memory B/cell (alloc) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for lb in labels:
        for n in sorted({r["n"] for r in rows if label(r) == lb}):
            for tm_p, wave_p in PAIRS:
                tm, wave = by.get((lb, tm_p, n)), by.get((lb, wave_p, n))
                if tm is None or wave is None:
                    continue
                md.append(
                    f"| {lb} | {n}^2 | {'PEC' if tm_p.endswith('_pec') else 'UPML 10'} | "
                    f"{fmt(tm['gcells_per_s'])} | {fmt(wave['gcells_per_s'])} | "
                    f"{wave['gcells_per_s'] / tm['gcells_per_s']:.2f} | "
                    f"{tm['bytes_per_cell']:.1f}, {100 * tm['roofline_ratio']:.0f}% | "
                    f"{wave['bytes_per_cell']:.1f}, {100 * wave['roofline_ratio']:.0f}% | "
                    f"{tm['storage_bytes_per_cell']:g} ({tm['device_bytes'] / tm['cells']:.1f}) | "
                    f"{wave['storage_bytes_per_cell']:g} ({wave['device_bytes'] / wave['cells']:.1f}) |")
    md.append("")

    md += ["## The wave solver's kernels: pair-sum tile against the auto kernel", "",
           "Gcells/s on the same grid and device: `--variant=tile` (wave-pairsum: seed 001's "
           "pair sums shared through local memory) and `--variant=auto` (wave-cross on a "
           "GPU: the plain cross stencil; wave-rows on a CPU), each with its roofline ratio.", "",
           "| device | N^2 | boundary | auto kernel | auto Gcells/s, roof | pair-sum Gcells/s, roof "
           "| auto / pair-sum |",
           "|---|---|---|---|---|---|---|"]
    # Pair-sum rows wherever they came from (VARIANT=tile,auto puts them among bench_*.json too);
    # the other kernel: the main run's row of another kernel.
    by_pairsum = {(label(r), r["problem"], r["n"]): r for r in rows + pairsum
                  if kernel(r) == "wave-pairsum"}
    by_other = {(label(r), r["problem"], r["n"]): r for r in rows if kernel(r) != "wave-pairsum"}
    for lb in labels:
        for n in sorted({key[2] for key in by_pairsum if key[0] == lb}):
            for p in ("plane_wave_pec", "plane_wave"):
                auto, ps = by_other.get((lb, p, n)), by_pairsum.get((lb, p, n))
                if auto is None or ps is None:
                    continue
                md.append(
                    f"| {lb} | {n}^2 | {'PEC' if p.endswith('_pec') else 'UPML 10'} | "
                    f"{kernel(auto)} | {fmt(auto['gcells_per_s'])}, "
                    f"{100 * auto['roofline_ratio']:.0f}% | {fmt(ps['gcells_per_s'])}, "
                    f"{100 * ps['roofline_ratio']:.0f}% | "
                    f"{auto['gcells_per_s'] / ps['gcells_per_s']:.2f} |")
    md.append("")
    with open(os.path.join(out, "plane_speedup.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: plane_speedup_table.py OUT_DIR")
    main(sys.argv[1])
