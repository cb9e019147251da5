"""Cylindrical solver (issue 20): a closed PEC cylinder's TM and TE resonances for m = 0, 1, 2
against the Bessel-zero formulas, their convergence with resolution, and mode selection.

Each angular order m runs alone (`grid.modes = m`): the probe then sees only that m's resonances
(TE0np and TM1np share a frequency, x'_0n = x_1n, so a run with several modes could not tell them
apart). A resonance is measured where the Blackman-Harris windowed spectrum of the probe peaks
within +-2% of the analytic frequency (it must be a local maximum there, above 1e-4 of the
spectrum's largest peak), refined by golden-section search on the windowed DTFT (spectrum.py).
"""

import numpy as np

from . import spectrum
from .common import C0, CaseResult, fmt_pct, ini_vector, read_ini

MODEL = "cyl_cavity.ini"
T_START = 1e-9        # s; the sources (Gaussian moment, e^-1 at 4 GHz, t0 = 0.32 ns) have ended
SEARCH = 0.02         # relative half-width of the window searched around each analytic frequency
PEAK_FLOOR = 1e-4     # a resonance is a local maximum above this fraction of the largest peak
# (TM?, m, n, p) checked per m: the lowest TM with p = 0 and p = 1 and the lowest TE, and for
# m = 0 its lowest TE (TE011).
CHECKED = {0: [(True, 0, 1, 0), (True, 0, 1, 1), (False, 0, 1, 1)],
           1: [(False, 1, 1, 1), (True, 1, 1, 0), (True, 1, 1, 1)],
           2: [(False, 2, 1, 1), (True, 2, 1, 0), (True, 2, 1, 1)]}


def bessel_root(m, n, derivative):
    """The n-th positive zero of J_m (TM) or J_m' (TE)."""
    from scipy.special import jn_zeros, jnp_zeros
    return (jnp_zeros if derivative else jn_zeros)(m, n)[n - 1]


def cylinder_frequency(tm, m, n, p, radius, length):
    x = bessel_root(m, n, not tm)
    return C0 / (2 * np.pi) * np.hypot(x / radius, p * np.pi / length)


def mode_name(mode):
    tm, m, n, p = mode
    return f"{'TM' if tm else 'TE'}{m}{n}{p}"


def cavity_size(run):
    """(R, L) of the run's grid: nr dr and nz dz (run.json's cells and cell_size_m)."""
    return run.n[0] * run.d[0], run.n[2] * run.d[2]


def probe_records(run, t_start=T_START):
    cols = run.probes()
    keep = cols["time_s"] >= t_start
    names = [c for c in cols if c.startswith("p.")]
    return [spectrum.windowed(cols[c][keep]) for c in names], names


def combined_spectrum(xws, dt):
    """The padded spectra of the windowed records, each normalised to its largest value, combined
    as the root sum of squares (as in the 3D cavity case)."""
    spectra = [spectrum.padded_spectrum(xw, dt) for xw in xws]
    freqs = spectra[0][0]
    norm = [m / m[1:].max() for _, m in spectra]
    return freqs, np.sqrt(np.sum(np.square(norm), axis=0))


def measure_resonance(xws, dt, freqs, combined, f_exact):
    """The resonance near f_exact: (frequency, peak height / largest peak), or (nan, height) when
    no local maximum above PEAK_FLOOR lies within +-SEARCH of f_exact."""
    band = np.nonzero((freqs >= f_exact * (1 - SEARCH)) & (freqs <= f_exact * (1 + SEARCH)))[0]
    i = band[int(np.argmax(combined[band]))]
    height = combined[i] / combined[1:].max()
    if i in (band[0], band[-1]) or height < PEAK_FLOOR:
        return np.nan, height
    k = int(np.argmax([spectrum.dtft_mag(xw, dt, freqs[i]) / np.abs(xw).max() for xw in xws]))
    return spectrum.refine_peak(xws[k], dt, freqs[i], freqs[1] - freqs[0]), height


def model_radius(ctx):
    return ini_vector(read_ini(ctx.model(MODEL)), "grid", "size")[0]


def run_mode(ctx, cells, m, tag):
    """The cavity with `cells` cells across the radius, mode m alone."""
    return ctx.run(ctx.model(MODEL), f"{tag}/n{cells}_m{m}",
                   [f"--grid.cell_size={model_radius(ctx) / cells!r}", f"--grid.modes={m}"])


CAVITY_TEXT = """\
Issue 20. `models/validation/cyl_cavity.ini`: a closed PEC cylinder, R = 0.1 m, L = 0.11 m
(`coordinates = cylindrical`, `boundary.type = pec`: PEC at r = R and both z walls, which lie on
the grid, so nothing is staircased), dr = dz = R / N for N cells across the radius, `courant` 0.9
of the limit of the run's m. Each m = 0, 1, 2 runs alone (`grid.modes = m`; TE0np and TM1np have
the same frequency since J0' = -J1). A z-directed and a phi-directed short dipole (Gaussian moment,
e^-1 at 4 GHz) off the axis ring the TM and TE modes; the probe records all six components for
40 ns from 1 ns on. Analytic: f = c/(2 pi) sqrt((x/R)^2 + (p pi/L)^2), x the n-th zero of J_m (TM)
or J_m' (TE) (`scipy.special.jn_zeros`, `jnp_zeros`). Estimator: the windowed spectrum of the
probe (Blackman-Harris, 16x padded, the six components combined) peaks within +-2% of each
analytic frequency, and the peak is refined by golden-section search on the windowed DTFT
(section "Spectral estimator"). The bound the discretisation allows: the scheme is second order
in dr = dz (dt follows the cell), f(h) = f0 + C h^2, so the error falls 4x per halving of the
cell and the Richardson extrapolation (q f(h/s) - f(h)) / (q - 1), q = s^2, removes the leading
term; at 30+ cells the issue asks 0.3% and the reference engine's tests reach 0.1%, which is
the bound here. Table: relative error per mode and size, the observed order
log(e1/e2) / log(N2/N1) between consecutive sizes, and the extrapolated frequency's error.
"""


def case_cyl_cavity(ctx):
    r = CaseResult("cyl_cavity",
                   "Cylindrical solver: PEC cylinder cavity, TM and TE for m = 0, 1, 2")
    r.notes += [CAVITY_TEXT]
    sizes = [10, 20, 40] if ctx.reduced else [10, 20, 30, 40, 60, 80]
    modes = [mode for m in CHECKED for mode in CHECKED[m]]
    err = {}      # (cells, mode) -> relative error
    exact = {}
    steps = []
    spectra = {}  # m -> (freqs, combined) at the resolution nearest 30 cells
    show = min(sizes, key=lambda n: abs(n - 30))
    for cells in sizes:
        for m in CHECKED:
            run = run_mode(ctx, cells, m, "cyl_cavity")
            radius, length = cavity_size(run)
            xws, _ = probe_records(run)
            freqs, combined = combined_spectrum(xws, run.dt)
            if cells == show:
                spectra[m] = (freqs, combined, radius, length)
            steps.append(run.report["steps_done"])
            for mode in CHECKED[m]:
                fa = cylinder_frequency(*mode, radius, length)
                fm, height = measure_resonance(xws, run.dt, freqs, combined, fa)
                exact[mode] = fa
                err[(cells, mode)] = fm / fa - 1
                print(f"    {cells} cells, {mode_name(mode)}: analytic {fa / 1e9:.6f} GHz, "
                      f"measured {fm / 1e9:.6f} ({100 * (fm / fa - 1):+.4f}%, peak {height:.1e})")
    r.size = (f"R = 0.1 m, L = 0.11 m; {', '.join(map(str, sizes))} cells across R (dz = dr), "
              f"one run per m and size, 40 ns each ({min(steps)} .. {max(steps)} steps)")
    lines = ["| mode | analytic (GHz) | " + " | ".join(f"{n} cells" for n in sizes) +
             " | observed order | Richardson (2 finest) vs analytic |",
             "|---" * (len(sizes) + 4) + "|"]
    orders, rich = [], []
    for mode in modes:
        e = np.array([err[(n, mode)] for n in sizes])
        # Observed order between consecutive sizes: log(e1/e2) / log(n2/n1).
        o = np.log(np.abs(e[:-1] / e[1:])) / np.log(np.array(sizes[1:]) / np.array(sizes[:-1]))
        orders.append(o)
        # Richardson extrapolation of f(h) = f0 + C h^2 from the two finest sizes.
        q = (sizes[-1] / sizes[-2]) ** 2
        f_fine, f_coarse = (1 + e[-1]), (1 + e[-2])
        rich.append((q * f_fine - f_coarse) / (q - 1) - 1)
        lines.append(f"| {mode_name(mode)} | {exact[mode] / 1e9:.6f} | " +
                     " | ".join(f"{100 * x:+.4f}%" for x in e) +
                     f" | {', '.join(f'{x:.2f}' for x in o)} | {100 * rich[-1]:+.5f}% |")
    r.notes += lines
    fine = [n for n in sizes if n >= 30]
    worst = max(abs(err[(n, mode)]) for n in fine for mode in modes)
    worst_at = {n: max(abs(err[(n, mode)]) for mode in modes) for n in fine}
    print("    worst |error| at " + ", ".join(f"{n} cells {fmt_pct(w, 4)}"
                                           for n, w in worst_at.items()))
    r.check(f"9 resonances vs Bessel-zero formula at >= 30 cells across R (max |error|; "
            f"{', '.join(map(str, fine))} cells)", "<= 0.1%", fmt_pct(worst, 4), worst <= 1e-3)
    all_o = np.concatenate(orders)
    r.check("observed order of convergence, every mode and size pair (min .. max)", "1.8 .. 2.2",
            f"{np.nanmin(all_o):.3f} .. {np.nanmax(all_o):.3f}",
            np.all(np.isfinite(all_o)) and 1.8 <= all_o.min() and all_o.max() <= 2.2)
    worst_r = np.max(np.abs(rich))
    r.check(f"Richardson extrapolation ({sizes[-2]}, {sizes[-1]} cells) vs analytic (max |error|)",
            "<= 0.01%", fmt_pct(worst_r, 5), worst_r <= 1e-4)
    path = ctx.plot_path("cyl_cavity.png")
    if path:
        plot(path, sizes, modes, err, spectra, show)
        r.plot = path
    return r


def plot(path, sizes, modes, err, spectra, show):
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    colours = {0: "C0", 1: "C1", 2: "C2"}
    for m, (freqs, combined, radius, length) in spectra.items():
        band = (freqs > 0.9e9) & (freqs < 3.2e9)
        ax1.semilogy(freqs[band] / 1e9, combined[band] / combined[band].max(), lw=0.8,
                     color=colours[m], label=f"modes = {m}")
        for mode in CHECKED[m]:
            ax1.axvline(cylinder_frequency(*mode, radius, length) / 1e9, color=colours[m],
                        ls="--", lw=0.6)
    ax1.set_xlabel("frequency (GHz)")
    ax1.set_ylabel("normalised |X(f)|")
    ax1.set_title(f"Probe spectra at {show} cells across R (dashed: Bessel-zero formula)",
                  fontsize=9)
    ax1.legend(fontsize=8, loc="lower left")
    h = np.array(sizes, dtype=float)
    for mode in modes:
        ax2.loglog(h, [abs(err[(n, mode)]) for n in sizes], marker="o", ms=3, lw=0.8,
                   color=colours[mode[1]], ls="-" if mode[0] else ":", label=mode_name(mode))
    top = max(abs(err[(sizes[0], mode)]) for mode in modes)
    ax2.loglog(h, top * (h / h[0]) ** -2, "k--", lw=1, label="slope -2")
    ax2.set_xticks(sizes)
    ax2.set_xticklabels([str(n) for n in sizes])
    ax2.minorticks_off()
    ax2.set_xlabel("cells across the radius")
    ax2.set_ylabel("|f_measured / f_analytic - 1|")
    ax2.set_title("Convergence (solid TM, dotted TE)", fontsize=9)
    ax2.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
