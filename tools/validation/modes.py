"""Modal projections of a PEC cavity's field (issue 18, modes monitors).

models/cavity_modes.ini: a PEC box rung by three short dipoles (x, y, z, Gaussian moment: no static
charge left) with a modes monitor projecting E every step on the lowest modes, which
tools/cavity_modes writes for the grid of the run. Each mode there is an exact eigenmode of the
Yee scheme and the modes are exactly orthogonal on the grid, so once the sources have ended the
projection on mode k, a_k(t) = sum over cells of E . mode_k dV, is one undamped sinusoid at mode
k's Yee resonance and nothing else. Any error in the chain (the tool's Yee positions, the modes
file reader's layout, the device's sampling or reduction) mixes other modes in, which shows as
spectral energy at their resonances.

The record from T_START on is windowed (4-term Blackman-Harris, whose main lobe is +-4 bins of
1/T and whose side lobes are below -92 dB) and transformed (zero-padded FFT, mean kept: a static
part counts against the mode). Checks: every mode is excited (its RMS is at least 1% of the
strongest's); per mode, the fraction of its spectral energy within +-5/T of its Yee resonance
(from the tool's CSV) is over 99%; and the peak, refined on the windowed DTFT, lies at the Yee
resonance within 1e-4 relative.
"""

import csv
import os
import subprocess
import sys

import numpy as np

from . import spectrum
from .common import CaseResult, read_csv

MODEL = "cavity_modes.ini"
T_START = 3e-9        # s; the Gaussian moments (e^-1 at 1.5 GHz, peak at 0.85 ns) have ended
SIZE = (0.24, 0.20, 0.16)
ENERGY_BOUND = 0.99   # fraction of a mode's spectral energy within the band
BAND_BINS = 5         # band half-width in bins of 1/T (the window's main lobe is 4)
PEAK_BOUND = 1e-4     # |f_peak / f_yee - 1|
EXCITED_BOUND = 0.01  # a mode's RMS / the strongest mode's RMS


def make_modes(ctx, cell, count, folder):
    """Runs tools/cavity_modes for the run's grid; returns the modes file's path and, from its
    CSV, each mode's name (TM110, ...), analytic and Yee resonances."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "modes.vti")
    tool = os.path.join(ctx.root, "tools", "cavity_modes")
    cmd = [sys.executable, tool, "--size", *map(str, SIZE), "--cell", str(cell), str(count), path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"tools/cavity_modes failed (exit {p.returncode}): {p.stdout}")
    print(f"    {p.stdout.strip()}", flush=True)
    with open(os.path.join(folder, "modes.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    names = [f"{r['type']}{r['m']}{r['n']}{r['p']}" for r in rows]
    f_exact = np.array([float(r["f_analytic_hz"]) for r in rows])
    f_yee = np.array([float(r["f_yee_hz"]) for r in rows])
    return path, names, f_exact, f_yee


def mode_spectrum(x, dt):
    """Windowed (mean kept) record's zero-padded spectrum: (freqs, |X|^2)."""
    xw = np.asarray(x, dtype=float) * spectrum.blackman_harris(len(x))
    freqs, mag = spectrum.padded_spectrum(xw, dt)
    return freqs, mag ** 2, xw


def case_modes(ctx):
    r = CaseResult("modes", "Modal projections of a PEC cavity (modes monitor)")
    cell, count, steps = (0.02, 10, 4000) if ctx.reduced else (0.01, 20, 8000)
    folder = os.path.join(ctx.work, "modes")
    modes_path, names, f_exact, f_yee = make_modes(ctx, cell, count, folder)
    run = ctx.run(os.path.join(ctx.root, "models", MODEL), "modes/run",
                  [f"--grid.cell_size={cell}", f"--time.steps={steps}",
                   f"--monitor.modes.modes_file={modes_path}"])
    cols = read_csv(os.path.join(run.dir, "monitors", "modes.csv"))
    t = cols["time_s"]
    keep = t >= T_START
    dt = run.dt
    record = keep.sum()
    span = record * dt
    band = BAND_BINS / span
    r.size = (f"{'x'.join(map(str, run.n))} cells ({cell * 100:g} cm), {count} modes "
              f"({names[0]} {f_exact[0] / 1e9:.3f} GHz .. {names[-1]} "
              f"{f_exact[-1] / 1e9:.3f} GHz), "
              f"{steps} steps, record from {T_START * 1e9:g} ns ({record} samples, "
              f"band +-{band / 1e6:.1f} MHz)")

    rms = np.array([np.sqrt(np.mean(cols[f"mode_{k}"][keep] ** 2)) for k in range(count)])
    fractions, peaks, spectra = [], [], []
    lines = ["| k | mode | analytic (GHz) | Yee (GHz) | peak (GHz) | peak vs Yee | "
             "energy within the band | RMS / strongest |", "|---|---|---|---|---|---|---|---|"]
    for k in range(count):
        x = cols[f"mode_{k}"][keep]
        freqs, power, xw = mode_spectrum(x, dt)
        inside = np.abs(freqs - f_yee[k]) <= band
        frac = power[inside].sum() / power.sum()
        f0 = freqs[inside][np.argmax(power[inside])]
        peak = spectrum.refine_peak(xw, dt, f0, freqs[1] - freqs[0])
        fractions.append(frac)
        peaks.append(peak)
        spectra.append((freqs, power))
        lines.append(f"| {k} | {names[k]} | {f_exact[k] / 1e9:.6f} | {f_yee[k] / 1e9:.6f} | "
                     f"{peak / 1e9:.6f} | {peak / f_yee[k] - 1:+.1e} | {100 * frac:.5f}% "
                     f"({1 - frac:.0e} outside) | {rms[k] / rms.max():.3f} |")
        print(f"    mode {k} {names[k]}: Yee {f_yee[k] / 1e9:.6f} GHz, peak {peak / 1e9:.6f} "
              f"({peak / f_yee[k] - 1:+.1e}), {100 * frac:.5f}% of its energy ({1 - frac:.1e} "
              f"outside) within "
              f"+-{band / 1e6:.1f} MHz, RMS {rms[k] / rms.max():.3f} of the strongest", flush=True)
    r.notes += [__doc__.split("\n\n", 1)[1].strip(), ""] + lines
    fractions = np.array(fractions)
    peak_err = np.abs(np.array(peaks) / f_yee - 1)
    weakest = rms.min() / rms.max()
    r.check(f"every one of the {count} modes excited (smallest RMS / largest)",
            f">= {EXCITED_BOUND:g}", f"{weakest:.3f}", weakest >= EXCITED_BOUND)
    r.check(f"spectral energy within +-{BAND_BINS}/T of the mode's Yee resonance (min over "
            f"{count} modes)", f"> {100 * ENERGY_BOUND:g}%",
            f"{100 * fractions.min():.5f}% (outside the band: {1 - fractions.min():.1e})",
            fractions.min() > ENERGY_BOUND)
    r.check("spectral peak vs Yee resonance (max |error|)", f"<= {PEAK_BOUND:g}",
            f"{peak_err.max():.1e}", peak_err.max() <= PEAK_BOUND)

    path = ctx.plot_path("modes.png")
    if path:
        plot(path, cols, keep, spectra, f_yee, names, fractions, band, run)
        r.plot = path
    return r


def plot(path, cols, keep, spectra, f_yee, names, fractions, band, run):
    import matplotlib.pyplot as plt
    count = len(names)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 7.5))
    t = cols["time_s"]
    show = t <= T_START + 12e-9
    for k in range(min(count, 4)):
        x = cols[f"mode_{k}"]
        ax1.plot(t[show] * 1e9, x[show] / np.abs(x[keep]).max() + 2.2 * k, lw=0.8,
                 label=f"mode {k} {names[k]}")
    ax1.axvline(T_START * 1e9, color="k", ls=":", lw=0.8)
    ax1.set_xlabel("time (ns)")
    ax1.set_ylabel("projection (normalised, offset)")
    ax1.set_title(f"Projections of E on the cavity's modes ({'x'.join(map(str, run.n))} cells): "
                  f"first {min(count, 4)}; the record starts at the dotted line")
    ax1.legend(fontsize=7, loc="upper right")
    cmap = plt.get_cmap("tab10" if count <= 10 else "tab20")
    fmax = 1.15 * f_yee[-1]
    for k, (freqs, power) in enumerate(spectra):
        sel = (freqs > 0.5 * f_yee[0]) & (freqs < fmax)
        ax2.plot(freqs[sel] / 1e9, 10 * np.log10(power[sel] / power.max() + 1e-30), lw=0.7,
                 color=cmap(k % cmap.N), label=f"{k} {names[k]}: {100 * fractions[k]:.3f}%")
        ax2.axvline(f_yee[k] / 1e9, color=cmap(k % cmap.N), ls="--", lw=0.6)
    ax2.set_ylim(-160, 5)
    ax2.set_xlabel("frequency (GHz)")
    ax2.set_ylabel("|X_k(f)|^2 (dB, each mode's own peak = 0)")
    ax2.set_title(f"Each projection's spectrum; dashed: its Yee resonance; legend: energy within "
                  f"+-{band / 1e6:.0f} MHz")
    ax2.legend(fontsize=6, ncol=2 if count <= 10 else 4, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
