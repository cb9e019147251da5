"""2D case: PEC cavity resonances of the tm and te families (issue 19).

A rectangle a x b with PEC walls carries tm modes Ez = sin(m pi x/a) sin(n pi y/b) (m, n >= 1)
and te modes Hz = cos(m pi x/a) cos(n pi y/b) (m, n >= 0, not both 0), both at
f = c/2 sqrt((m/a)^2 + (n/b)^2). The Yee scheme's own resonance for k = (m pi/a, n pi/b) is
sin(pi f dt)^2 / (c dt)^2 = sum_i (sin(k_i d_i / 2) / d_i)^2 over x and y. The peaks are found
by the cavity cases' estimator (spectrum.py) on the probe record after the sources have ended.
"""

import itertools

import numpy as np

from . import spectrum
from .cavity import yee_frequency
from .common import C0, CaseResult, fmt_pct

MODELS = {"tm": "plane_cavity_tm.ini", "te": "plane_cavity_te.ini"}
T_START = 4e-9  # s; the gaussian_pulse currents (delay 4 tau, tau <= 0.4 ns) have ended
NMODES = 5


def plane_modes(size, family, count):
    """The `count` lowest resonances of the family: [(f, [(m, n), ...]), ...]."""
    table = {}
    for m, n in itertools.product(range(10), repeat=2):
        if family == "tm" and (m == 0 or n == 0):
            continue
        if family == "te" and m == 0 and n == 0:
            continue
        f = C0 / 2 * np.hypot(m / size[0], n / size[1])
        table.setdefault(round(f, 3), []).append((m, n))
    return sorted(table.items())[:count]


def measure(run, family):
    size = (run.n * run.d)[:2]
    modes = plane_modes(size, family, NMODES + 1)
    exact = np.array([f for f, _ in modes[:NMODES]])
    yee = np.array([yee_frequency(t[0], size, run.d[:2], run.dt) for _, t in modes[:NMODES]])
    cols = run.probes()
    keep = cols["time_s"] >= T_START
    signals = [cols[c][keep] for c in cols if c.startswith("p.")]
    fmax = 0.5 * (modes[NMODES - 1][0] + modes[NMODES][0])
    found, spec, _ = spectrum.mode_frequencies(signals, run.dt, NMODES, 0.7 * exact[0], fmax)
    if len(found) < NMODES:
        found = np.concatenate([found, np.full(NMODES - len(found), np.nan)])
    return modes[:NMODES], found, exact, yee, spec


def case_plane_cavity(ctx):
    r = CaseResult("plane_cavity", "2D PEC cavity resonances, tm and te")
    steps = 8000 if ctx.reduced else 16000
    lines = ["| family | mode (m n) | analytic (GHz) | Yee dispersion (GHz) | measured (GHz) | "
             "vs analytic | vs Yee |", "|---|---|---|---|---|---|---|"]
    sizes, plots = [], []
    for family, model in MODELS.items():
        run = ctx.run(ctx.model(model), f"plane_cavity/{family}", [f"--time.steps={steps}"])
        modes, found, exact, yee, spec = measure(run, family)
        err_a = found / exact - 1
        err_y = found / yee - 1
        for (f, t), fm, fy, ea, ey in zip(modes, found, yee, err_a, err_y):
            label = "/".join(f"{m}{n}" for m, n in t)
            lines.append(f"| {family} | {label} | {f / 1e9:.6f} | {fy / 1e9:.6f} | "
                         f"{fm / 1e9:.6f} | {100 * ea:+.4f}% | {100 * ey:+.1e}% |")
            print(f"    {family} mode {label}: analytic {f / 1e9:.6f} GHz, Yee {fy / 1e9:.6f}, "
                  f"measured {fm / 1e9:.6f} ({100 * ea:+.4f}% / {100 * ey:+.1e}%)")
        ok = np.all(np.isfinite(found))
        worst_a = np.max(np.abs(err_a)) if ok else np.inf
        worst_y = np.max(np.abs(err_y)) if ok else np.inf
        r.check(f"{family}: 5 lowest modes vs the 2D Yee dispersion relation (max |error|)",
                "<= 0.05%", f"{100 * worst_y:.1e}%", worst_y <= 5e-4)
        r.check(f"{family}: 5 lowest modes vs analytic c/2 sqrt((m/a)^2 + (n/b)^2) (max |error|)",
                "<= 0.5%", fmt_pct(worst_a), worst_a <= 5e-3)
        sizes.append(f"{family} {run.n[0]}x{run.n[1]}")
        plots.append((family, spec, exact, found))
    r.notes += lines
    r.size = (f"{', '.join(sizes)} cells of 5 mm, {steps} steps each, record from "
              f"{T_START * 1e9:g} ns")
    path = ctx.plot_path("plane_cavity.png")
    if path:
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(12, 4))
        for ax, (family, (freqs, mag), exact, found) in zip(axes, plots):
            band = (freqs > 0.5 * exact[0]) & (freqs < 1.3 * exact[-1])
            ax.semilogy(freqs[band] / 1e9, mag[band] / mag[band].max(), lw=0.8,
                        label="probe spectrum")
            for i, f in enumerate(exact):
                ax.axvline(f / 1e9, color="r", ls="--", lw=0.8, label="analytic" if i == 0 else None)
            for i, f in enumerate(found):
                ax.plot(f / 1e9, 1.0, "kv", ms=5, label="estimated peak" if i == 0 else None)
            ax.set_xlabel("frequency (GHz)")
            ax.set_ylabel("normalised |X(f)|")
            ax.set_title(f"2D PEC cavity 48x33 cells, {family}: probe spectrum")
            ax.legend(loc="lower left", fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r
