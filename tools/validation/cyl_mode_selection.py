"""Cylindrical solver (issue 20): mode selection. The cyl_cavity model (off-axis sources that ring
every m) run with modes = 0 shows no m >= 1 resonance; with modes = 0 1 the m = 1 ones appear,
and that run is exactly the sum of a modes = 0 and a modes = 1 run at the same time step."""

import numpy as np

from .common import C0, CaseResult
from .cyl_cavity import (MODEL, cavity_size, combined_spectrum, cylinder_frequency, mode_name,
                         model_radius, probe_records)

DURATION = 120e-9  # s: bins of 8.3 MHz, TM110 (m = 1) 5.6 bins from TM011 (m = 0)
COURANT = 0.9
WINDOW = 0.003     # relative half-width around each resonance where the spectrum is read
ABSENT = 1e-3      # with modes = 0, the spectrum there stays below this fraction of its peak
PRESENT = 1e-2     # with modes = 0 1, the m = 1 resonances rise above this fraction
# m >= 1 resonances read: m = 1 TE111, TM110 (TM111 shares its frequency with TE011 of m = 0),
# m = 2 TE211, TM210.
HIGHER = [(False, 1, 1, 1), (True, 1, 1, 0), (False, 2, 1, 1), (True, 2, 1, 0)]
SELECTION_TEXT = """\
Issue 20. The cyl_cavity model (section above; its two off-axis dipoles ring every m), 120 ns
(bins of 8.3 MHz: TM110 of m = 1 lies 5.6 bins from TM011 of m = 0, outside the window's main
lobe), run three times at the same time step: modes = 0 1 (`courant` 0.9 of the m = 1 limit),
modes = 0 and modes = 1 (`courant` set so that dt is the same; run.json's dt_s is compared). The
spectrum (the six probe components, windowed and combined as in cyl_cavity) is read within
+-0.3% of each m >= 1 resonance, relative to its largest peak. The modes do not couple, so the
modes = 0 1 probe series must equal the sum of the other two to float rounding (the probe sums
Re(F_m exp(i m phi)) over the simulated modes).
"""


def courant_limit_dt(m_max, dr, dz):
    """docs/CYLINDRICAL.md, Time step: the stable step of the largest listed mode."""
    return 1 / (C0 * np.sqrt(((m_max + 1) ** 2 + 0.25) / dr ** 2 + 1 / dz ** 2))


def case_cyl_mode_selection(ctx):
    r = CaseResult("cyl_mode_selection", "Cylindrical solver: mode selection (modes = 0 vs 0 1)")
    r.notes += [SELECTION_TEXT]
    cells = 20 if ctx.reduced else 30
    dr = model_radius(ctx) / cells
    dt = COURANT * courant_limit_dt(1, dr, dr)
    runs = {}
    for modes, m_max in (("0 1", 1), ("0", 0), ("1", 1)):
        courant = dt / courant_limit_dt(m_max, dr, dr)
        tag = modes.replace(" ", "")
        runs[modes] = ctx.run(ctx.model(MODEL), f"cyl_mode_selection/modes_{tag}",
                              [f"--grid.cell_size={dr!r}", f"--grid.modes={modes}",
                               f"--grid.courant={courant!r}", f"--time.duration={DURATION!r}"])
    both, zero, one = runs["0 1"], runs["0"], runs["1"]
    dts = [x.dt for x in runs.values()]
    r.size = (f"R = 0.1 m, L = 0.11 m, {cells} cells across R, {both.report['steps_done']} steps "
              f"of {dt * 1e12:.3f} ps ({DURATION * 1e9:g} ns) per run, three runs")
    radius, length = cavity_size(both)
    spectra = {}
    for name, run in runs.items():
        xws, _ = probe_records(run)
        spectra[name] = combined_spectrum(xws, run.dt)
    lines = ["| resonance | frequency (GHz) | modes = 0: spectrum / peak | modes = 0 1 | "
             "modes = 1 |",
             "|---|---|---|---|---|"]
    absent, present = [], []
    for mode in HIGHER:
        f = cylinder_frequency(*mode, radius, length)
        level = {}
        for name, (freqs, combined) in spectra.items():
            near = (freqs >= f * (1 - WINDOW)) & (freqs <= f * (1 + WINDOW))
            level[name] = combined[near].max() / combined[1:].max()
        absent.append(level["0"])
        if mode[1] == 1:
            present.append(level["0 1"])
        lines.append(f"| {mode_name(mode)} (m = {mode[1]}) | {f / 1e9:.4f} | {level['0']:.1e} | "
                     f"{level['0 1']:.1e} | {level['1']:.1e} |")
        print(f"    {mode_name(mode)} {f / 1e9:.4f} GHz: spectrum / peak with modes = 0 "
              f"{level['0']:.1e}, modes = 0 1 {level['0 1']:.1e}, modes = 1 {level['1']:.1e}")
    r.notes += lines
    r.check("modes = 0: spectrum within +-0.3% of the m = 1, 2 resonances TE111 TM110 TE211 TM210 "
            "/ its peak (max)", f"<= {ABSENT:g}", f"{max(absent):.1e}", max(absent) <= ABSENT)
    r.check("modes = 0 1: the same at the m = 1 resonances TE111 TM110 (min)", f">= {PRESENT:g}",
            f"{min(present):.1e}", min(present) >= PRESENT)
    # Independence of the modes: series(0 1) = series(0) + series(1).
    a, b, c = both.probes(), zero.probes(), one.probes()
    comps = [k for k in a if k.startswith("p.")]
    worst = max(np.max(np.abs(a[k] - b[k] - c[k])) / np.max(np.abs(a[k])) for k in comps)
    dt_spread = (max(dts) - min(dts)) / min(dts)
    r.check("same time step in the three runs (run.json dt_s, relative spread)", "<= 1e-12",
            f"{dt_spread:.1e}", dt_spread <= 1e-12)
    r.check("probe series: modes = 0 1 minus (modes = 0 plus modes = 1), every step, 6 "
            "components (max |difference| / peak)", "<= 1e-5 (float rounding)", f"{worst:.1e}",
            worst <= 1e-5)
    path = ctx.plot_path("cyl_mode_selection.png")
    if path:
        plot(path, spectra, radius, length)
        r.plot = path
    return r


def plot(path, spectra, radius, length):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 4))
    for name, style in (("0 1", "C1-"), ("0", "C0-")):
        freqs, combined = spectra[name]
        band = (freqs > 1.0e9) & (freqs < 2.6e9)
        ax.semilogy(freqs[band] / 1e9, combined[band] / combined[1:].max(), style, lw=0.8,
                    label=f"modes = {name}")
    for i, mode in enumerate(HIGHER):
        ax.axvline(cylinder_frequency(*mode, radius, length) / 1e9, color="C3", ls="--", lw=0.7,
                   label="m = 1, 2 resonances" if i == 0 else None)
    ax.axhline(ABSENT, color="k", ls=":", lw=0.7, label="bound with modes = 0")
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("normalised |X(f)|")
    ax.set_title("PEC cylinder, off-axis sources: probe spectrum with modes = 0 and modes = 0 1")
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
