#!/usr/bin/env python3
"""The resonances of a PEC cavity (docs/MONITORS.md "Resonances"): runs models/pec_cavity.ini,
whose probe finds the resonances of Ez, Hx and Hy between 1 and 2.6 GHz after the pulse
(probe.p.resonances), and draws the probe's spectrum with them and the cavity's analytic and
Yee-grid resonances (docs/img/pec_cavity_resonances.png).

  tools/validation/cavity_resonances.py                     # runs in a temporary folder
  tools/validation/cavity_resonances.py --work /tmp/cavity  # ... kept there
  tools/validation/cavity_resonances.py --out pics          # pictures elsewhere

Printed and checked (exit 1 past a bound): each resonance of Ez against the nearest Yee-grid
resonance of a mode with Ez (m, n >= 1; relative 1e-6), every such mode in the band found, and
|1/Q| (1e-5: the cavity is lossless). Printed: the analytic resonance c/2 sqrt((m/a)^2 + (n/b)^2
+ (p/d)^2), which the Yee grid's dispersion lowers.
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

C0 = 299792458.0
MODEL = "models/pec_cavity.ini"
BAND = (1e9, 2.6e9)


def ez_modes(cells, d, dt):
    """(f_yee, f_analytic, (m, n, p)) of the modes with Ez in BAND, one per distinct frequency."""
    out = []
    size = [n * h for n, h in zip(cells, d)]
    for m in range(1, 8):
        for n in range(1, 8):
            for p in range(0, 8):
                k = [i * np.pi / s for i, s in zip((m, n, p), size)]
                s2 = sum((np.sin(ki * hi / 2) / hi) ** 2 for ki, hi in zip(k, d))
                f = np.arcsin(C0 * dt * np.sqrt(s2)) / (np.pi * dt)
                fa = C0 / 2 * np.sqrt(sum((i / s) ** 2 for i, s in zip((m, n, p), size)))
                if BAND[0] <= f <= BAND[1] and all(abs(f / o[0] - 1) > 1e-9 for o in out):
                    out.append((f, fa, (m, n, p)))
    return sorted(out)


def main():
    a = parse_args(__doc__)
    with runs_folder(a.work, "cavity_resonances_") as work:
        out = os.path.join(work, "pec_cavity")
        info, _ = run(a.bin, MODEL, out)
        rows = list(csv.DictReader(open(os.path.join(out, "resonances.csv"))))
        probes = np.genfromtxt(os.path.join(out, "probes.csv"), delimiter=",", names=True)
    dt = info["dt_s"]
    modes = ez_modes(info["cells"], info["cell_size_m"], dt)
    ez = [r for r in rows if r["field"] == "Ez"]
    bad = 0
    print(f"{'found (Hz)':>16} {'Yee grid (Hz)':>16} {'relative':>10} {'analytic (Hz)':>16} "
          f"{'(m, n, p)':>10} {'Q':>12} {'error':>9}")
    for r in ez:
        f = float(r["frequency_hz"])
        fy, fa, mnp = min(modes, key=lambda m: abs(m[0] - f))
        rel = f / fy - 1
        q = float(r["q"])
        ok = abs(rel) < 1e-6 and abs(1 / q) < 1e-5
        bad += not ok
        print(f"{f:16.1f} {fy:16.1f} {rel:10.2e} {fa:16.1f} {str(mnp):>10} {q:12.4g} "
              f"{float(r['error']):9.2e}{'' if ok else '  <- past the bound'}")
    missing = [m for m in modes if all(abs(float(r["frequency_hz"]) / m[0] - 1) > 1e-6 for r in ez)]
    for m in missing:
        print(f"not found: {m[2]} at {m[0]:.1f} Hz")
    bad += len(missing)

    # The probe's spectrum after the pulse (the same series harmonic inversion took), Hann window.
    from_step = next(x for x in info["resonances"] if x["field"] == "Ez")["from_step"]
    series = probes["pEz_V_per_m"][from_step:]
    n = 1 << (int(np.ceil(np.log2(len(series)))) + 3)
    spectrum = np.abs(np.fft.rfft(series * np.hanning(len(series)), n))
    freqs = np.fft.rfftfreq(n, dt)
    keep = (freqs > 0.8e9) & (freqs < 2.8e9)
    fig, ax = plt.subplots(figsize=(9, 4.2))
    ax.semilogy(freqs[keep] / 1e9, spectrum[keep] / spectrum[keep].max(), color="0.35", lw=1,
                label="|FFT| of the probe's Ez after the pulse")
    for i, (fy, fa, mnp) in enumerate(modes):
        ax.axvline(fa / 1e9, color="tab:green", lw=0.8, ls=":", label="analytic" if i == 0 else None)
    amps = np.array([float(r["amplitude"]) for r in ez])
    for i, r in enumerate(ez):
        f = float(r["frequency_hz"]) / 1e9
        ax.plot([f], [amps[i] / amps.max()], "v", color="tab:red", ms=7,
                label="resonances.csv (amplitude)" if i == 0 else None)
    ax.axvspan(BAND[0] / 1e9, BAND[1] / 1e9, color="tab:blue", alpha=0.06, label="probe.p.resonances")
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("relative magnitude")
    ax.set_ylim(1e-5, 3)
    ax.set_title(f"models/pec_cavity.ini: {len(ez)} resonances of Ez found, each within "
                 f"{max(abs(float(r['frequency_hz']) / min(modes, key=lambda m: abs(m[0] - float(r['frequency_hz'])))[0] - 1) for r in ez):.1e} "
                 "of the Yee grid's", fontsize=10)
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    path = os.path.join(a.out, "pec_cavity_resonances.png")
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
