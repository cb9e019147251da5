#!/usr/bin/env python3
"""The waveguide-port examples (docs/PORTS.md "Waveguide ports"): runs models/waveguide_slab.ini,
models/waveguide_iris.ini and models/waveguide_adapter.ini (the last twice, driving its lumped port
and then its waveguide port) and draws their S-parameters (docs/img/waveguide_slab.png,
docs/img/waveguide_iris.png, docs/img/waveguide_adapter.png).

  tools/validation/waveguide_models.py                          # runs in a temporary folder
  tools/validation/waveguide_models.py --work /tmp/waveguide    # ... kept there
  tools/validation/waveguide_models.py --out pics               # pictures elsewhere

The slab (eps_r 2.56, 10.16 mm, filling WR-90 between the ports) is compared with the
transmission line of TE10 sections, each of wave impedance Z = omega mu / beta:

    G = (Z2 - Z1) / (Z2 + Z1),  P = exp(-j beta2 d),
    S11 = G (1 - P^2) / (1 - G^2 P^2) e^(-2 j beta1 L1),
    S21 = (1 - G^2) P / (1 - G^2 P^2) e^(-j beta1 (L1 + L2)),

L1, L2 the vacuum lengths from the ports' planes to the slab's faces (run.json's plane_m), beta
the analytic sqrt(eps_r mu_r omega^2 / c^2 - (pi / a)^2). The adapter's two runs give the two
columns of a coax-to-waveguide two-port: S21 (into the guide, driving the coax) must equal S12
(into the coax, driving the guide). Exit 1 when a run fails, the slab's S11 or S21 is more than
0.01 from the formula, a lossless model's |S11|^2 + |S21|^2 is more than 1e-3 from 1 (5e-3 for
the adapter, whose lumped port's spectrum rings longest), or the adapter's |S21 - S12| is above
5e-3.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model_runs import parse_args, run, runs_folder, with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

C0 = 299792458.0
MU0 = 1.25663706212e-6
A_GUIDE = 0.02286           # WR-90's broad wall
EPS_SLAB = 2.56             # models/waveguide_slab.ini: material.polystyrene, object.slab
SLAB_Z = (0.05588, 0.06604)  # the slab's faces (node planes of cells 110 and 130)
TOLERANCE = 0.01            # |S - S_formula|
POWER_TOLERANCE = 1e-3      # ||S11|^2 + |S21|^2 - 1|


def s_params(out):
    """Frequencies (Hz), S11 at port `in` and S21 at port `out` of a run."""
    a = np.genfromtxt(os.path.join(out, "ports", "in.csv"), delimiter=",", names=True)
    b = np.genfromtxt(os.path.join(out, "ports", "out.csv"), delimiter=",", names=True)
    return a["frequency_hz"], a["s11_re"] + 1j * a["s11_im"], b["s21_re"] + 1j * b["s21_im"]


def slab_formula(f, l1, l2):
    w = 2 * np.pi * f
    kc = np.pi / A_GUIDE
    b1 = np.sqrt((w / C0) ** 2 - kc ** 2)
    b2 = np.sqrt(EPS_SLAB * (w / C0) ** 2 - kc ** 2)
    z1, z2 = w * MU0 / b1, w * MU0 / b2
    g = (z2 - z1) / (z2 + z1)
    p = np.exp(-1j * b2 * (SLAB_Z[1] - SLAB_Z[0]))
    den = 1 - g * g * p * p
    return (g * (1 - p * p) / den * np.exp(-2j * b1 * l1),
            (1 - g * g) * p / den * np.exp(-1j * b1 * (l1 + l2)))


def db(x):
    return 20 * np.log10(np.abs(x))


def slab(a, plt):
    out = os.path.join(a.work, "waveguide_slab")
    info, wall = run(a.bin, "models/waveguide_slab.ini", out)
    ports = {p["name"]: p for p in info["waveguide_ports"]}
    l1 = SLAB_Z[0] - ports["in"]["plane_m"]
    l2 = ports["out"]["plane_m"] - SLAB_Z[1]
    f, s11, s21 = s_params(out)
    f11, f21 = slab_formula(f, l1, l2)
    e11, e21 = np.abs(s11 - f11), np.abs(s21 - f21)
    power = np.abs(np.abs(s11) ** 2 + np.abs(s21) ** 2 - 1)
    print(f"\nslab: eps_r {EPS_SLAB:g}, {1e3 * (SLAB_Z[1] - SLAB_Z[0]):g} mm in WR-90; ports "
          f"{1e3 * l1:g} mm before and {1e3 * l2:g} mm after it")
    print(f"{'f (GHz)':>8} {'|S11|':>8} {'formula':>8} {'|S21|':>8} {'formula':>8} {'|S11-f|':>8} {'|S21-f|':>8}")
    for k in range(0, len(f), 20):
        print(f"{f[k] / 1e9:8.3f} {abs(s11[k]):8.4f} {abs(f11[k]):8.4f} {abs(s21[k]):8.4f} "
              f"{abs(f21[k]):8.4f} {e11[k]:8.4f} {e21[k]:8.4f}")
    print(f"max |S11 - formula| {e11.max():.4f} (at {f[e11.argmax()] / 1e9:.3f} GHz), "
          f"max |S21 - formula| {e21.max():.4f}, max ||S11|^2 + |S21|^2 - 1| {power.max():.2e}")

    fine = np.linspace(f[0], f[-1], 400)
    g11, g21 = slab_formula(fine, l1, l2)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    ax.plot(fine / 1e9, db(g11), "-", color="C0", lw=1.2, label="|S11|, transmission line")
    ax.plot(fine / 1e9, db(g21), "-", color="C3", lw=1.2, label="|S21|, transmission line")
    ax.plot(f[::8] / 1e9, db(s11[::8]), "o", color="C0", mfc="none", ms=5, label="|S11|, clfdtd")
    ax.plot(f[::8] / 1e9, db(s21[::8]), "s", color="C3", mfc="none", ms=4, label="|S21|, clfdtd")
    ax.set_ylabel("|S| (dB)")
    ax.set_title("Magnitude", fontsize=10)
    ax.legend(loc="center right", fontsize=8.5, framealpha=0.9)
    ax = axes[1]
    ax.plot(fine / 1e9, np.degrees(np.angle(g11)), "-", color="C0", lw=1.0, label="arg S11, formula")
    ax.plot(fine / 1e9, np.degrees(np.angle(g21)), "-", color="C3", lw=1.0, label="arg S21, formula")
    ax.plot(f[::8] / 1e9, np.degrees(np.angle(s11[::8])), "o", color="C0", mfc="none", ms=5, label="clfdtd")
    ax.plot(f[::8] / 1e9, np.degrees(np.angle(s21[::8])), "s", color="C3", mfc="none", ms=4, label="clfdtd")
    ax.set_ylabel("phase (degrees), at the ports' planes")
    ax.set_title("Phase", fontsize=10)
    ax.legend(loc="lower left", fontsize=8, ncol=2, framealpha=0.9)
    for ax in axes:
        ax.set_xlabel("frequency (GHz)")
        ax.grid(alpha=0.3)
    fig.suptitle(f"WR-90 with a {1e3 * (SLAB_Z[1] - SLAB_Z[0]):g} mm slab of eps_r = {EPS_SLAB:g}, TE10, "
                 f"0.508 mm cells: max |S11 - formula| = {e11.max():.4f}, max |S21 - formula| = "
                 f"{e21.max():.4f}", fontsize=10.5)
    fig.tight_layout()
    path = os.path.join(a.out, "waveguide_slab.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)
    return max(e11.max(), e21.max()), power.max(), wall


def iris(a, plt):
    out = os.path.join(a.work, "waveguide_iris")
    info, wall = run(a.bin, "models/waveguide_iris.ini", out)
    f, s11, s21 = s_params(out)
    power = np.abs(s11) ** 2 + np.abs(s21) ** 2
    k = int(np.argmax(np.abs(s21)))
    print(f"\niris filter: |S21| peaks at {db(s21[k]):.2f} dB at {f[k] / 1e9:.3f} GHz "
          f"(|S11| {db(s11[k]):.1f} dB there); max ||S11|^2 + |S21|^2 - 1| {np.abs(power - 1).max():.2e}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [2, 1]})
    ax = axes[0]
    ax.plot(f / 1e9, db(s11), "-", color="C0", lw=1.5, label="|S11|")
    ax.plot(f / 1e9, db(s21), "-", color="C3", lw=1.5, label="|S21|")
    ax.plot([f[k] / 1e9], [db(s21[k])], "ko", ms=4)
    ax.annotate(f"{db(s21[k]):.2f} dB at {f[k] / 1e9:.3f} GHz", (f[k] / 1e9, db(s21[k])),
                textcoords="offset points", xytext=(8, -4), fontsize=8)
    ax.set_ylabel("|S| (dB)")
    ax.set_title("Two inductive irises, 18.29 mm apart, windows 10.16 mm: a band-pass", fontsize=10)
    ax.legend(fontsize=8.5)
    ax = axes[1]
    ax.plot(f / 1e9, power - 1, "-", color="0.3", lw=1.2)
    ax.set_ylabel("|S11|^2 + |S21|^2 - 1")
    ax.set_title("Power kept (lossless filter)", fontsize=10)
    ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
    for ax in axes:
        ax.set_xlabel("frequency (GHz)")
        ax.grid(alpha=0.3)
    fig.suptitle("models/waveguide_iris.ini: WR-90, TE10, 0.508 mm cells", fontsize=10.5)
    fig.tight_layout()
    path = os.path.join(a.out, "waveguide_iris.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)
    return np.abs(power - 1).max(), wall


def adapter(a, plt):
    runs = {}
    walls = []
    for name, over in (("coax", ()), ("guide", ("--source.coax.amplitude=0", "--source.guide.amplitude=1"))):
        out = os.path.join(a.work, "waveguide_adapter_" + name)
        info, wall = run(a.bin, "models/waveguide_adapter.ini", out, *over)
        walls.append(wall)
        runs[name] = out
    c = np.genfromtxt(os.path.join(runs["coax"], "ports", "coax.csv"), delimiter=",", names=True)
    g1 = np.genfromtxt(os.path.join(runs["coax"], "ports", "guide.csv"), delimiter=",", names=True)
    g2 = np.genfromtxt(os.path.join(runs["guide"], "ports", "guide.csv"), delimiter=",", names=True)
    c2 = np.genfromtxt(os.path.join(runs["guide"], "ports", "coax.csv"), delimiter=",", names=True)
    f = c["frequency_hz"]
    s11 = c["s11_re"] + 1j * c["s11_im"]
    s21 = g1["s21_re"] + 1j * g1["s21_im"]
    s22 = g2["s11_re"] + 1j * g2["s11_im"]
    s12 = c2["s21_re"] + 1j * c2["s21_im"]
    recip = np.abs(s21 - s12)
    p1 = np.abs(np.abs(s11) ** 2 + np.abs(s21) ** 2 - 1)
    p2 = np.abs(np.abs(s22) ** 2 + np.abs(s12) ** 2 - 1)
    print(f"\nadapter: |S11| {db(s11).min():.1f} .. {db(s11).max():.1f} dB; max |S21 - S12| {recip.max():.2e}; "
          f"max ||S11|^2 + |S21|^2 - 1| {p1.max():.2e}, ||S22|^2 + |S12|^2 - 1| {p2.max():.2e}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [2, 1]})
    ax = axes[0]
    ax.plot(f / 1e9, db(s11), "-", color="C0", lw=1.5, label="|S11|, the coax (50 ohm)")
    ax.plot(f / 1e9, db(s22), "--", color="C2", lw=1.2, label="|S22|, the guide (TE10)")
    ax.plot(f / 1e9, db(s21), "-", color="C3", lw=1.5, label="|S21|, coax to guide")
    ax.plot(f[::10] / 1e9, db(s12[::10]), "o", color="C3", mfc="none", ms=4, label="|S12|, guide to coax (the other run)")
    ax.set_ylabel("|S| (dB)")
    ax.set_title("Coax probe into WR-90, a quarter guide wavelength from a short", fontsize=10)
    ax.legend(fontsize=8)
    ax = axes[1]
    ax.semilogy(f / 1e9, recip, "-", color="C3", lw=1.2, label="|S21 - S12|")
    ax.semilogy(f / 1e9, p1, "-", color="C0", lw=1.0, label="||S11|^2 + |S21|^2 - 1|")
    ax.semilogy(f / 1e9, p2, "-", color="C2", lw=1.0, label="||S22|^2 + |S12|^2 - 1|")
    ax.set_title("Reciprocity and power, the two runs", fontsize=10)
    ax.legend(fontsize=8)
    for ax in axes:
        ax.set_xlabel("frequency (GHz)")
        ax.grid(alpha=0.3)
    fig.suptitle("models/waveguide_adapter.ini: a lumped port (coax) and a waveguide port, 0.508 mm cells",
                 fontsize=10.5)
    fig.tight_layout()
    path = os.path.join(a.out, "waveguide_adapter.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)
    return recip.max(), max(p1.max(), p2.max()), sum(walls)


def main():
    a = parse_args(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with runs_folder(a.work, "waveguide_models_") as a.work:
        worst, power_slab, wall_slab = slab(a, plt)
        power_iris, wall_iris = iris(a, plt)
        recip, power_adapter, wall_adapter = adapter(a, plt)
    print(f"\nrun times: slab {wall_slab:.1f} s, iris filter {wall_iris:.1f} s, adapter {wall_adapter:.1f} s (two runs)")
    failed = False
    if worst > TOLERANCE:
        print(f"FAIL: the slab's S-parameters are {worst:.4f} from the formula (> {TOLERANCE})")
        failed = True
    for name, p in (("slab", power_slab), ("iris filter", power_iris)):
        if p > POWER_TOLERANCE:
            print(f"FAIL: the {name}'s |S11|^2 + |S21|^2 is {p:.2e} from 1 (> {POWER_TOLERANCE})")
            failed = True
    if power_adapter > 5e-3:
        print(f"FAIL: the adapter's |S11|^2 + |S21|^2 is {power_adapter:.2e} from 1 (> 5e-3)")
        failed = True
    if recip > 5e-3:
        print(f"FAIL: the adapter's S21 and S12 differ by {recip:.2e} (> 5e-3)")
        failed = True
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
