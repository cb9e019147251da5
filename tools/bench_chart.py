#!/usr/bin/python3
"""Turns `clfdtd bench --csv` rows into one PNG bar chart per device: Gcells/s per problem and
kernel variant (best work-group of each variant), with the fraction of the device's measured copy
bandwidth printed on each bar. Tuner rows (several work-groups of one variant) collapse to the
best; OpenCL and CUDA rows of one GPU share its chart; the title names driver and commits.

usage: tools/bench_chart.py results.csv [--out DIR] [--n N]
--out: default out/bench of the checkout (git-ignored), whatever the current folder; the charts
of docs/bench: --out docs/bench.
"""
import argparse
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def variant_family(v):
    """'float4-tile 2x4x16 (tuned)' -> 'tile', 'plain 1x1x64' -> 'plain'."""
    name = v.split()[0]
    return "tile" if name.startswith("float4-tile") else name


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--out", default=os.path.join(root, "out", "bench"),
                    help="folder for the PNGs (default out/bench of the checkout)")
    ap.add_argument("--n", type=int, default=0, help="only rows of this cube size (default: largest)")
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        # Header lines repeated inside the file (runs appended with `>>`) are skipped.
        rows = [r for r in csv.DictReader(f) if r["n"] != "n"]
    if not rows:
        sys.exit(f"bench_chart: no rows in {a.csv}")
    os.makedirs(a.out, exist_ok=True)
    # One chart per physical device: its OpenCL and CUDA rows side by side (the backends describe
    # the device differently after its name).
    def base(r):
        return r["device"].split(" (")[0]

    for device in sorted({base(r) for r in rows}):
        mine = [r for r in rows if base(r) == device]
        n = a.n or max(int(r["n"]) for r in mine)
        mine = [r for r in mine if int(r["n"]) == n]
        best = {}  # (problem, backend, family) -> row with the highest Gcells/s
        for r in mine:
            key = (r["problem"], r["backend"], variant_family(r["variant"]))
            if key not in best or float(r["gcells_per_s"]) > float(best[key]["gcells_per_s"]):
                best[key] = r
        problems = sorted({k[0] for k in best}, key=lambda p: (("+" in p), p))
        series = sorted({(k[1], k[2]) for k in best})
        width = 0.8 / max(1, len(series))
        fig, ax = plt.subplots(figsize=(max(6, 1.8 * len(problems) + 2), 4.5))
        for s, (backend, fam) in enumerate(series):
            xs, ys, labels = [], [], []
            for p, prob in enumerate(problems):
                r = best.get((prob, backend, fam))
                if r is None:
                    continue
                xs.append(p + (s - (len(series) - 1) / 2) * width)
                ys.append(float(r["gcells_per_s"]))
                labels.append(f"{100 * float(r['roofline_ratio']):.0f}%")
            bars = ax.bar(xs, ys, width, label=f"{backend} {fam}")
            for b, lab in zip(bars, labels):
                ax.annotate(lab, (b.get_x() + b.get_width() / 2, b.get_height()), ha="center",
                            va="bottom", fontsize=7)
        ax.set_xticks(range(len(problems)))
        ax.set_xticklabels(problems, fontsize=8)
        ax.set_ylabel("Gcells/s (cells x steps / s)")
        r0 = mine[-1]
        commits = sorted({r["commit"] for r in best.values()})
        ax.set_title(f"{device}, driver {r0['driver']}, N={n}, copy {float(r0['copy_gbs']):.0f} GB/s\n"
                     f"best work-group per variant; commits {', '.join(commits)}  (% = of copy bandwidth)",
                     fontsize=8)
        ax.legend(fontsize=8)
        fig.tight_layout()
        slug = re.sub(r"[^A-Za-z0-9]+", "_", device).strip("_").lower()
        path = os.path.join(a.out, f"bench_{slug}_n{n}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(path)


if __name__ == "__main__":
    main()
