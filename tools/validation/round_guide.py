#!/usr/bin/env python3
"""The round metal waveguide (docs/PORTS.md "Modes that share a beta"): runs models/round_guide.ini
(two ports of TE11 with E along y, `axis = y`, a mode_expansion monitor between them), solves
the guide's modes with clfdtd modes at 10 GHz and draws both (docs/img/round_guide.png).

  tools/validation/round_guide.py                          # runs in a temporary folder
  tools/validation/round_guide.py --work /tmp/round        # ... kept there
  tools/validation/round_guide.py --out pics               # pictures elsewhere

Printed and checked (exit 1 past a bound): ||S21| - 1| in dB (0.02), S21's phase against
exp(-j beta L) with the ports' beta (2e-3 rad), |S11| (-60 dB), the monitor's forward wave in the
pair's other member (E along x) against the launched one (-150 dB) and its y member's energy
against the launched wave's (2e-3). Printed, not checked: n_eff against the analytic TE11 of the
10 mm circle, and the radius whose analytic TE11 has the grid's beta (the staircase's).
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model_runs import ROOT, parse_args, run, runs_folder, with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

from common import read_vti  # noqa: E402

C0 = 299792458.0
MODEL = "models/round_guide.ini"
RADIUS = 0.01             # object.bore
CENTRE = 0.0105           # the circle's centre, x and y
CELL = 0.0005
PORTS_L = 0.06            # z 0.02 .. 0.08
X11 = 1.841183781         # first root of J1': TE11's k_c a
BOUNDS = {"s21_db": 0.02, "phase": 2e-3, "s11_db": -60.0, "cross_db": -150.0, "energy": 2e-3}


def main():
    a = parse_args(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with runs_folder(a.work, "round_guide_") as work:
        out = os.path.join(work, "round_guide")
        info, wall = run(a.bin, MODEL, out)
        table_csv = os.path.join(work, "round_modes.csv")
        cmd = [a.bin, "modes", MODEL, "--axis=z", f"--position={CENTRE} {CENTRE} 0.05", "--frequency=10e9",
               "--count=2", "--output=" + table_csv, "--overwrite"]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if r.returncode != 0:
            print(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
            sys.exit(1)
        print(r.stdout.strip())
        modes = read_vti(table_csv.replace(".csv", ".vti"))
        pin = np.genfromtxt(os.path.join(out, "ports", "in.csv"), delimiter=",", names=True)
        pout = np.genfromtxt(os.path.join(out, "ports", "out.csv"), delimiter=",", names=True)
        mon = np.genfromtxt(os.path.join(out, "monitors", "middle.csv"), delimiter=",", names=True)

    f = pin["frequency_hz"]
    s11 = pin["s11_re"] + 1j * pin["s11_im"]
    s21 = pout["s21_re"] + 1j * pout["s21_im"]
    beta = pout["beta_rad_per_m"]
    launched = np.abs(pin["a_re"] + 1j * pin["a_im"]) ** 2
    along_x, along_y = mon[mon["mode"] == 1], mon[mon["mode"] == 2]
    got = {
        "s21_db": np.max(np.abs(20 * np.log10(np.abs(s21)))),
        "phase": np.max(np.abs(np.angle(s21 * np.exp(1j * beta * PORTS_L)))),
        "s11_db": 20 * np.log10(np.max(np.abs(s11))),
        "cross_db": 10 * np.log10(np.max(along_x["forward_J_s"] / along_y["forward_J_s"])),
        "energy": np.max(np.abs(along_y["forward_J_s"] / launched - 1)),
    }
    k0 = 2 * np.pi * f / C0
    n_circle = np.sqrt(np.maximum(1 - (X11 / RADIUS / k0) ** 2, 0))
    a_grid = X11 / np.sqrt(k0 ** 2 - beta ** 2)
    print(f"{'f (GHz)':>8} {'n_eff grid':>11} {'n_eff a=10mm':>13} {'radius fit (mm)':>16} "
          f"{'|S21| (dB)':>11} {'|S11| (dB)':>11} {'E along x (dB)':>15}")
    for i in range(len(f)):
        print(f"{f[i] / 1e9:8.2f} {beta[i] / k0[i]:11.6f} {n_circle[i]:13.6f} {a_grid[i] * 1e3:16.4f} "
              f"{20 * np.log10(abs(s21[i])):11.5f} {20 * np.log10(abs(s11[i])):11.2f} "
              f"{10 * np.log10(along_x['forward_J_s'][i] / along_y['forward_J_s'][i]):15.1f}")
    print(f"||S21| - 1| <= {got['s21_db']:.3g} dB, S21 within {got['phase']:.2e} rad of exp(-j beta L), "
          f"|S11| <= {got['s11_db']:.1f} dB, E-along-x member <= {got['cross_db']:.1f} dB, "
          f"E-along-y energy / launched within {got['energy']:.2e}; run {wall:.1f} s "
          f"(time loop {info['loop_time_s']:.1f} s)")

    fig = plt.figure(figsize=(12.5, 5.0))
    eps = modes["eps_r"][..., 0]
    nx, ny = eps.shape
    x = (np.arange(nx) + 0.5) * CELL * 1e3
    y = (np.arange(ny) + 0.5) * CELL * 1e3
    for k in (1, 2):
        ax = fig.add_subplot(1, 3, k)
        e = modes[f"E_{k}"][..., 0, :]
        intensity = np.sum(e[..., :2] ** 2, axis=-1)
        ax.pcolormesh(x, y, (intensity / intensity.max()).T, shading="auto", cmap="inferno")
        ax.contour(x, y, eps.T, levels=[0.5], colors=["white"], linewidths=0.8)
        s = slice(1, None, 3)
        ex, ey = e[s, s, 0], e[s, s, 1]
        strong = (ex ** 2 + ey ** 2) > 0.01 * intensity.max()
        ax.quiver(*np.meshgrid(x[s], y[s], indexing="ij"), np.where(strong, ex, np.nan),
                  np.where(strong, ey, np.nan), color="#9be29b", angles="xy")
        t = np.linspace(0, 2 * np.pi, 200)
        ax.plot((CENTRE + RADIUS * np.cos(t)) * 1e3, (CENTRE + RADIUS * np.sin(t)) * 1e3, "--", color="#7fd3ff",
                lw=0.8)
        share = np.sum(e[..., 0] ** 2) / np.sum(e[..., :2] ** 2)
        ax.set_title(f"mode {k} at 10 GHz: E along x {100 * share:.1f}%", fontsize=10)
        ax.set_xlabel("x (mm)")
        ax.set_ylabel("y (mm)")
        ax.set_aspect("equal")
    ax = fig.add_subplot(1, 3, 3)
    g = f / 1e9
    ax.plot(g, 20 * np.log10(np.abs(s11)), "o-", ms=3.5, label="|S11| (dB)")
    ax.plot(g, 10 * np.log10(along_x["forward_J_s"] / along_y["forward_J_s"]), "s-", ms=3.5,
            label="monitor: E-along-x member / E-along-y (dB)")
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("dB")
    ax.set_ylim(-200, 0)
    ax.grid(alpha=0.3)
    ax2 = ax.twinx()
    ax2.plot(g, 1e3 * 20 * np.log10(np.abs(s21)), "^-", ms=3.5, color="C2", label="|S21| (mdB, right)")
    ax2.set_ylabel("|S21| (mdB)")
    ax2.set_ylim(-20, 20)
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], fontsize=8, loc="upper center",
              bbox_to_anchor=(0.5, -0.14), ncol=1)
    ax.set_title("ports in / out (axis = y), monitor between", fontsize=10)
    fig.suptitle("models/round_guide.ini: a round metal guide (radius 10 mm, 0.5 mm cells) and its TE11 pair "
                 "(arrows: E; dashed: the circle)", fontsize=10.5)
    fig.tight_layout()
    path = os.path.join(a.out, "round_guide.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)

    worst = [key for key, bound in BOUNDS.items() if not got[key] <= bound]
    if worst:
        print("FAIL: " + ", ".join(f"{key} {got[key]:.3g} (bound {BOUNDS[key]:g})" for key in worst))
        sys.exit(1)


if __name__ == "__main__":
    main()
