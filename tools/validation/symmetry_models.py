#!/usr/bin/env python3
"""The magnetic-wall example (docs/PERIODIC.md, "Magnetic walls: symmetry planes"): runs the
half-wave wire dipole of models/dipole_impedance.ini whole and as the quarter model
models/dipole_quarter.ini (boundary.pmc = x y, the wire on the walls' common edge), compares the
input impedances of their ports and their far-field patterns (monitor `pattern`), and draws both
(docs/img/dipole_quarter.png).

  tools/validation/symmetry_models.py                          # runs in a temporary folder
  tools/validation/symmetry_models.py --work /tmp/symmetry     # ... kept there
  tools/validation/symmetry_models.py --out pics               # pictures elsewhere

The quarter model's Ez samples on the line x = 0, y = 0 are updated from the walls' images of H
exactly as the whole model's are, so its port sees the whole dipole's voltage and current and the
two impedances agree to float rounding. Printed: R and X of both at a few frequencies, the
largest |Z_quarter - Z_full| / |Z_full| over the frequencies where |Z_full| < 2000 ohm (the
whole band of ports/feed.csv, 0.30 to 1.75 GHz, for this dipole: |Z| peaks near 830 ohm at the
antiresonance), the largest difference of their directivities (dB, every direction above -40
dBi) and radiated powers, and both runs' cells and time-loop seconds. Exit 1 when a run fails,
that relative difference exceeds 1e-3 or the directivities differ by more than 1e-3 dB.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model_runs import parse_args, run, runs_folder, with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

TOLERANCE = 1e-3      # max |Z_quarter - Z_full| / |Z_full|
Z_BAND = 2000.0       # ohm: the comparison takes the frequencies where |Z_full| is below this
TABLE_GHZ = (0.5, 0.7, 0.94, 1.2, 1.55, 1.7)
PATTERN_TOLERANCE_DB = 1e-3


def impedance(out):
    """Frequencies (Hz) and Z (ohm) of the run's port `feed`."""
    p = np.genfromtxt(os.path.join(out, "ports", "feed.csv"), delimiter=",", names=True)
    return p["frequency_hz"], p["z_re_ohm"] + 1j * p["z_im_ohm"]


def pattern(out):
    """The run's monitors/pattern.csv as a structured array."""
    return np.genfromtxt(os.path.join(out, "monitors", "pattern.csv"), delimiter=",", names=True)


def e_plane(p, f_hz):
    """Angle from +z through +x and round (deg, 0..360) and directivity (dBi) in the plane y = 0."""
    at = p["frequency_hz"] == f_hz
    front = at & (p["phi_deg"] == 0)
    back = at & (p["phi_deg"] == 180)
    angle = np.concatenate([p["theta_deg"][front], 360 - p["theta_deg"][back][::-1]])
    d = np.concatenate([p["directivity_dbi"][front], p["directivity_dbi"][back][::-1]])
    return angle, d


def main():
    a = parse_args(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with runs_folder(a.work, "symmetry_models_") as work:
        out_full = os.path.join(work, "dipole_impedance")
        out_quarter = os.path.join(work, "dipole_quarter")
        info_f, wall_f = run(a.bin, "models/dipole_impedance.ini", out_full)
        info_q, wall_q = run(a.bin, "models/dipole_quarter.ini", out_quarter)
        f, zf = impedance(out_full)
        fq, zq = impedance(out_quarter)
        pf, pq = pattern(out_full), pattern(out_quarter)

    if len(f) != len(fq) or np.max(np.abs(f - fq)) > 1e-6 * f.max():
        print(f"FAIL: the two ports' frequencies differ ({len(f)} and {len(fq)} rows)")
        sys.exit(1)
    band = np.abs(zf) < Z_BAND
    if not band.any():
        print(f"FAIL: |Z_full| is nowhere below {Z_BAND:g} ohm")
        sys.exit(1)
    rel = np.abs(zq - zf) / np.abs(zf)
    worst = rel[band].max()
    at = f[band][rel[band].argmax()]
    rows = sorted({int(np.argmin(np.abs(f - g * 1e9))) for g in TABLE_GHZ})

    print(f"\n{'f (GHz)':>8} {'R full':>10} {'R quarter':>10} {'X full':>10} {'X quarter':>10} "
          f"{'|dZ|/|Z|':>10}   (ohm)")
    for i in rows:
        print(f"{f[i] / 1e9:8.4f} {zf[i].real:10.4f} {zq[i].real:10.4f} {zf[i].imag:10.4f} "
              f"{zq[i].imag:10.4f} {rel[i]:10.2e}")
    print(f"max |Z_quarter - Z_full| / |Z_full| = {worst:.3g} (at {at / 1e9:.4f} GHz) over "
          f"{band.sum()} of {len(f)} frequencies, {f[band][0] / 1e9:.3f} .. "
          f"{f[band][-1] / 1e9:.3f} GHz, where |Z_full| < {Z_BAND:g} ohm")
    print(f"max |Z_quarter - Z_full| = {np.abs(zq - zf).max():.3g} ohm over the whole band")
    if len(pf) != len(pq):
        print(f"FAIL: the two patterns have {len(pf)} and {len(pq)} rows")
        sys.exit(1)
    seen = pf["directivity_dbi"] > -40
    d_worst = np.abs(pq["directivity_dbi"] - pf["directivity_dbi"])[seen].max()
    print(f"patterns: max |D_quarter - D_full| = {d_worst:.3g} dB over {seen.sum()} of {len(pf)} "
          f"directions x frequencies (D_full > -40 dBi); the quarter's NaNs: "
          f"{int(np.isnan(pq['directivity_dbi']).sum())}")
    for m_f, m_q in zip(info_f["monitors"], info_q["monitors"]):
        if m_f["name"] == "pattern":
            pw = np.abs(np.array(m_q["radiated_power_J_s"]) / np.array(m_f["radiated_power_J_s"]) - 1)
            print(f"radiated power: quarter / full - 1 at most {pw.max():.3g}")
    nf, nq = info_f["cells_total"], info_q["cells_total"]
    tf, tq = info_f["loop_time_s"], info_q["loop_time_s"]
    print(f"cells: full {nf}, quarter {nq} ({nq / nf:.3f} of them); time loop: full {tf:.2f} s, "
          f"quarter {tq:.2f} s ({tq / tf:.2f} of it); in all: full {wall_f:.1f} s, "
          f"quarter {wall_q:.1f} s")

    every = 4
    fig = plt.figure(figsize=(11.5, 4.6))
    ax = fig.add_subplot(1, 2, 1)
    g = f / 1e9
    ax.plot(g, zf.real, "-", color="C0", lw=1.4, label="R, full model")
    ax.plot(g, zf.imag, "-", color="C3", lw=1.4, label="X, full model")
    ax.plot(g[::every], zq.real[::every], "o", color="C0", mfc="none", ms=5,
            label=f"R, quarter model (pmc = x y), every {every}th point")
    ax.plot(g[::every], zq.imag[::every], "s", color="C3", mfc="none", ms=4.5,
            label=f"X, quarter model (pmc = x y), every {every}th point")
    ax.axhline(0, color="0.5", lw=0.6)
    ax.set_xlim(g[0], g[-1])
    ax.set_ylim(-800, 950)
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("input impedance (ohm)")
    ax.set_title(f"Half-wave wire dipole, whole and as a quarter (magnetic walls at x = 0, y = 0)\n"
                 f"max |Z_quarter - Z_full| / |Z_full| = {worst:.1e}; "
                 f"cells: full {nf}, quarter {nq}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8.5, framealpha=0.9)
    pol = fig.add_subplot(1, 2, 2, projection="polar")
    pol.set_theta_zero_location("N")
    pol.set_theta_direction(-1)
    for k, f_hz in enumerate(sorted(set(pf["frequency_hz"]))):
        angle, d_full = e_plane(pf, f_hz)
        _, d_quarter = e_plane(pq, f_hz)
        r_full, r_quarter = np.maximum(d_full, -30) + 30, np.maximum(d_quarter, -30) + 30
        pol.plot(np.radians(angle), r_full, "-", color=f"C{k}", lw=1.3, label=f"{f_hz / 1e9:g} GHz, full")
        pol.plot(np.radians(angle[::3]), r_quarter[::3], "o", color=f"C{k}", mfc="none", ms=4,
                 label=f"{f_hz / 1e9:g} GHz, quarter")
    pol.set_rticks([10, 20, 30])
    pol.set_yticklabels(["-20", "-10", "0 dBi"], fontsize=7)
    pol.set_title(f"Directivity in the plane y = 0 (from +z)\n"
                  f"max |D_quarter - D_full| = {d_worst:.1e} dB", fontsize=10)
    pol.legend(loc="lower left", bbox_to_anchor=(1.08, -0.02), fontsize=7.5, framealpha=0.9)
    fig.tight_layout()
    path = os.path.join(a.out, "dipole_quarter.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)

    print(f"\nrun times: full {wall_f:.1f} s, quarter {wall_q:.1f} s")
    if worst > TOLERANCE:
        print(f"FAIL: the quarter model's Z is {worst:.3g} from the full model's (> {TOLERANCE:g})")
        sys.exit(1)
    if not d_worst <= PATTERN_TOLERANCE_DB:
        print(f"FAIL: the quarter model's directivity is {d_worst:.3g} dB from the full model's "
              f"(> {PATTERN_TOLERANCE_DB:g})")
        sys.exit(1)


if __name__ == "__main__":
    main()
