#!/usr/bin/env python3
"""The band diagram of a photonic crystal (docs/PERIODIC.md "Bloch-periodic boundaries"): runs
models/bloch_square_rods.ini (a square lattice of alumina rods, eps_r = 8.9, radius 0.2 a, E along
the rods) once per Bloch wave vector k along Gamma-X-M-Gamma (--boundary.bloch_k), takes the
bands at each k from the probes' resonances (resonances.csv), and draws them with the bands of a
plane-wave expansion of the same crystal (docs/img/bloch_square_rods_bands.png).

  tools/validation/bloch_bands.py                     # 8 k points per segment, temporary folder
  tools/validation/bloch_bands.py --points 2          # 2 per segment (the ctest case)
  tools/validation/bloch_bands.py --work /tmp/bands   # runs kept there

Printed and checked (exit 1 past a bound): at every k, each band below 0.75 c/a within 2.5% of
the expansion's (the grid's a / 20 cells and its staircased rod, against the expansion's round
one), none missing and none added; the TM gap between bands 1 and 2 (its edges within 2.5%).
"""

import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model_runs import parse_args, run, runs_folder, with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from scipy.linalg import eigh  # noqa: E402
from scipy.special import j1  # noqa: E402

C0 = 299792458.0
MODEL = "models/bloch_square_rods.ini"
A = 0.01          # the lattice constant (m), as in the model
EPS, R = 8.9, 0.2 * A
TOP = 0.75        # c / a: the highest band compared (the probes' band ends at 0.8)
FLOOR = 1e9 * A / C0  # c / a: the probes' band starts at 1 GHz (band 1 at Gamma is at 0)
TOL = 0.025


def pwe_bands(k, n=10):
    """TM bands (normalised f a / c) of the round-rod crystal at k (rad/m): plane waves G with
    |m|, |n| <= n, the generalised eigenproblem |k + G|^2 E_G = (w / c)^2 sum eps(G - G') E_G'."""
    m = np.arange(-n, n + 1)
    gx, gy = [g.ravel() * 2 * np.pi / A for g in np.meshgrid(m, m, indexing="ij")]
    dgx, dgy = gx[:, None] - gx[None, :], gy[:, None] - gy[None, :]
    g = np.hypot(dgx, dgy)
    fill = np.pi * R * R / A / A
    with np.errstate(invalid="ignore", divide="ignore"):
        shape = np.where(g > 0, 2 * j1(g * R) / (g * R), 1.0)
    eps = (EPS - 1) * fill * shape + np.where(g > 0, 0.0, 1.0)
    kk = (k[0] + gx) ** 2 + (k[1] + gy) ** 2
    w2 = eigh(np.diag(kk), eps, eigvals_only=True)
    return np.sqrt(np.clip(w2, 0, None)) * A / (2 * np.pi)


def distinct(values, rel=2e-3):
    out = []
    for v in sorted(values):
        if not out or v > out[-1] * (1 + rel) + 1e-9:
            out.append(v)
    return out


def k_path(points):
    """(k vectors, distance along the path, tick positions): Gamma-X-M-Gamma, `points` per segment."""
    g, x, m = np.array([0, 0.0]), np.array([np.pi / A, 0]), np.array([np.pi / A, np.pi / A])
    ks, s, ticks = [], [], [0.0]
    at = 0.0
    for p, q in ((g, x), (x, m), (m, g)):
        for t in np.arange(points) / points:
            ks.append(p + t * (q - p))
            s.append(at + t * np.linalg.norm(q - p))
        at += np.linalg.norm(q - p)
        ticks.append(at)
    ks.append(g)
    s.append(at)
    return ks, np.array(s), ticks


def main():
    a = parse_args(__doc__, lambda ap: ap.add_argument("--points", type=int, default=8,
                                                       help="k points per segment of the path"))
    ks, s, ticks = k_path(max(1, a.points))
    found, expected = [], []
    bad = 0
    with runs_folder(a.work, "bloch_bands_") as work:
        for i, k in enumerate(ks):
            first = next(j for j, q in enumerate(ks) if np.allclose(q, k))  # the path's closing Gamma
            out = os.path.join(work, f"k{first:02d}")
            if first == i:
                run(a.bin, MODEL, out, f"--boundary.bloch_k={k[0]:.9g} {k[1]:.9g} 0")
            rows = list(csv.DictReader(open(os.path.join(out, "resonances.csv"))))
            f = distinct(float(r["frequency_hz"]) * A / C0 for r in rows)
            f = [v for v in f if v < TOP]
            bands = distinct(pwe_bands(k))
            want = [v for v in bands if FLOOR < v < TOP]
            below = sum(v <= FLOOR for v in bands)  # bands the probes' window does not hold
            found.append([None] * below + f)  # by band number
            expected.append([None] * below + want)
            rel = [abs(x / y - 1) for x, y in zip(f, want)]
            ok = len(f) == len(want) and all(r < TOL for r in rel)
            bad += not ok
            print(f"k = ({k[0] * A / np.pi:.3f}, {k[1] * A / np.pi:.3f}) pi/a: " +
                  " ".join(f"{x:.4f}" for x in f) + "  expansion " + " ".join(f"{y:.4f}" for y in want) +
                  (f"  worst {max(rel):.2%}" if rel else "") + ("" if ok else "  <- past the bound"))
    def edge(lists, band, pick):
        return pick(v[band] for v in lists if len(v) > band and v[band] is not None)

    top1, bottom2 = edge(found, 0, max), edge(found, 1, min)
    want_top1, want_bottom2 = edge(expected, 0, max), edge(expected, 1, min)
    gap_ok = abs(top1 / want_top1 - 1) < TOL and abs(bottom2 / want_bottom2 - 1) < TOL
    bad += not gap_ok
    print(f"TM gap: {top1:.4f} to {bottom2:.4f} c/a (expansion {want_top1:.4f} to {want_bottom2:.4f})"
          + ("" if gap_ok else "  <- past the bound"))

    fine_k, fine_s, _ = k_path(40)
    fine = np.array([pwe_bands(k)[:8] for k in fine_k])
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    ax.axhspan(want_top1, want_bottom2, color="tab:blue", alpha=0.08, label="TM gap (expansion)")
    for b in range(fine.shape[1]):
        ax.plot(fine_s, fine[:, b], color="0.55", lw=1, label="plane-wave expansion" if b == 0 else None)
    for i, f in enumerate(found):
        f = [v for v in f if v is not None]
        ax.plot([s[i]] * len(f), f, "o", color="tab:red", ms=4, label="clfdtd resonances" if i == 0 else None)
    ax.set_xticks(ticks)
    ax.set_xticklabels(["Γ", "X", "M", "Γ"])
    ax.set_xlim(0, ticks[-1])
    ax.set_ylim(0, 0.8)
    ax.set_ylabel("frequency  f a / c")
    ax.set_title("models/bloch_square_rods.ini: rods eps_r 8.9, r = 0.2 a, TM (E along the rods)", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path = os.path.join(a.out, "bloch_square_rods_bands.png")
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
