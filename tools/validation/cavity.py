"""Cases 1-3: PEC cavity resonances, their convergence, a dielectric and a lossy fill."""

import itertools

import numpy as np

from . import spectrum
from .common import C0, EPS0, CaseResult, fmt_pct

CAVITY = "cavity.ini"
DIELECTRIC = "dielectric.ini"
T_START = 3e-9   # s; the sources (Gaussian moment, e^-1 at 1.5 GHz or 0.75 GHz) have ended
NMODES = 5


def analytic_modes(size, count, speed=C0):
    """The `count` lowest distinct resonances of a PEC box: [(f, [(m, n, p), ...]), ...].
    A mode needs at most one zero index; (m, n, p) with none zero is a TE/TM pair."""
    table = {}
    for m, n, p in itertools.product(range(8), repeat=3):
        if (m == 0) + (n == 0) + (p == 0) > 1:
            continue
        f = speed / 2 * np.sqrt((m / size[0]) ** 2 + (n / size[1]) ** 2 + (p / size[2]) ** 2)
        table.setdefault(round(f, 3), []).append((m, n, p))
    return sorted(table.items())[:count]


def yee_frequency(mnp, size, d, dt, speed=C0):
    """The Yee scheme's own resonance for wavevector k = (m pi/a, n pi/b, p pi/d):
    sin(pi f dt)^2 / (c dt)^2 = sum_i (sin(k_i d_i / 2) / d_i)^2."""
    s = sum((np.sin(q * np.pi / L * di / 2) / di) ** 2 for q, L, di in zip(mnp, size, d))
    return np.arcsin(speed * dt * np.sqrt(s)) / (np.pi * dt)


def probe_signals(run, t_start):
    cols = run.probes()
    t = cols["time_s"]
    keep = t >= t_start
    names = [c for c in cols if c.startswith("p.")]
    return [cols[c][keep] for c in names], names


def measure_modes(run, speed=C0, t_start=T_START):
    """Runs the estimator on a cavity run; returns (analytic list, measured f, yee f, spectrum)."""
    size = run.n * run.d
    modes = analytic_modes(size, NMODES + 1, speed)
    exact = np.array([f for f, _ in modes[:NMODES]])
    yee = np.array([yee_frequency(t[0], size, run.d, run.dt, speed) for _, t in modes[:NMODES]])
    signals, _ = probe_signals(run, t_start)
    fmax = 0.5 * (modes[NMODES - 1][0] + modes[NMODES][0])  # between the 5th and 6th
    found, spec, _ = spectrum.mode_frequencies(signals, run.dt, NMODES, 0.7 * exact[0], fmax)
    if len(found) < NMODES:
        found = np.concatenate([found, np.full(NMODES - len(found), np.nan)])
    return modes[:NMODES], found, exact, yee, spec


def mode_label(triples):
    return "/".join("".join(str(q) for q in t) for t in triples)


def plot_spectrum(path, title, spec, exact, found, extra=None):
    import matplotlib.pyplot as plt
    freqs, mag = spec
    fig, ax = plt.subplots(figsize=(8, 4))
    band = (freqs > 0.5 * exact[0]) & (freqs < 1.3 * exact[-1])
    ax.semilogy(freqs[band] / 1e9, mag[band] / mag[band].max(), lw=0.8, label="probe spectrum")
    for i, f in enumerate(exact):
        ax.axvline(f / 1e9, color="r", ls="--", lw=0.8, label="analytic" if i == 0 else None)
    for i, f in enumerate(found):
        ax.plot(f / 1e9, 1.0, "kv", ms=5, label="estimated peak" if i == 0 else None)
    if extra:
        extra(ax)
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("normalised |X(f)|")
    ax.set_title(title)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def case_cavity(ctx):
    r = CaseResult("cavity", "PEC cavity resonances")
    steps = 8000 if ctx.reduced else 16000
    run = ctx.run(ctx.model(CAVITY), "cavity/vacuum", [f"--time.steps={steps}"])
    modes, found, exact, yee, spec = measure_modes(run)
    r.size = f"{'x'.join(map(str, run.n))} cells (1 cm, {1 / (run.d[0] * exact[-1] / C0):.1f} " \
             f"cells per wavelength of the 5th mode), {steps} steps, record from {T_START * 1e9:g} ns"
    err_exact = found / exact - 1
    err_yee = found / yee - 1
    lines = ["| mode (m n p) | analytic (GHz) | Yee dispersion (GHz) | measured (GHz) | "
             "vs analytic | vs Yee |", "|---|---|---|---|---|---|"]
    for (f, t), fm, fy, ea, ey in zip(modes, found, yee, err_exact, err_yee):
        lines.append(f"| {mode_label(t)} | {f / 1e9:.6f} | {fy / 1e9:.6f} | {fm / 1e9:.6f} | "
                     f"{100 * ea:+.4f}% | {100 * ey:+.1e}% |")
        print(f"    mode {mode_label(t)}: analytic {f / 1e9:.6f} GHz, Yee {fy / 1e9:.6f}, "
              f"measured {fm / 1e9:.6f} ({100 * ea:+.4f}% / {100 * ey:+.1e}%)")
    r.notes += lines
    worst_a = np.nanmax(np.abs(err_exact)) if np.all(np.isfinite(found)) else np.inf
    worst_y = np.nanmax(np.abs(err_yee)) if np.all(np.isfinite(found)) else np.inf
    r.check("5 lowest modes vs analytic (max |error|)", "<= 0.5%", fmt_pct(worst_a), worst_a <= 5e-3)
    r.check("5 lowest modes vs Yee dispersion relation (max |error|)", "<= 0.05%",
            f"{100 * worst_y:.1e}%", worst_y <= 5e-4)
    path = ctx.plot_path("cavity.png")
    if path:
        plot_spectrum(path, "PEC cavity 24x20x16 cells: probe spectrum (6 components)", spec,
                      exact, found)
        r.plot = path
    return r


def case_convergence(ctx):
    r = CaseResult("convergence", "Convergence order of the cavity resonances")
    cells = [0.02, 0.01, 0.005] if ctx.reduced else [0.01, 0.005, 0.0025]
    errors, sizes, per_mode = [], [], []
    base_steps = 8000  # at 1 cm; the same simulated time at every resolution
    for d in cells:
        steps = int(round(base_steps * 0.01 / d))
        run = ctx.run(ctx.model(CAVITY), f"convergence/d{d * 1000:g}mm",
                      [f"--grid.cell_size={d}", f"--time.steps={steps}"])
        modes, found, exact, _, _ = measure_modes(run)
        e = found / exact - 1
        per_mode.append(e)
        errors.append(np.sqrt(np.mean(e ** 2)))  # RMS over the five modes
        sizes.append(f"{'x'.join(map(str, run.n))} ({steps} steps)")
        print(f"    d = {d * 100:g} cm: RMS relative error {100 * errors[-1]:.5f}% "
              f"(per mode {', '.join(f'{100 * x:+.5f}%' for x in e)})")
    r.size = "cells " + ", ".join(f"{d * 100:g} cm: {s}" for d, s in zip(cells, sizes))
    lines = ["| cell | " + " | ".join(mode_label(t) for _, t in modes) + " | RMS |",
             "|---" * (len(modes) + 2) + "|"]
    for d, e, rms in zip(cells, per_mode, errors):
        lines.append(f"| {d * 100:g} cm | " + " | ".join(f"{100 * x:+.5f}%" for x in e) +
                     f" | {100 * rms:.5f}% |")
    r.notes += lines
    for k in range(2):
        ratio = errors[k] / errors[k + 1]
        r.check(f"error ratio {cells[k] * 100:g} cm / {cells[k + 1] * 100:g} cm (RMS of 5 modes)",
                "3 .. 5", f"{ratio:.3f}", 3 <= ratio <= 5)
    path = ctx.plot_path("convergence.png")
    if path:
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        h = np.array(cells) * 100
        ax.loglog(h, errors, "o-", label="RMS relative error, 5 modes")
        for i in range(NMODES):
            ax.loglog(h, [abs(e[i]) for e in per_mode], ".:", lw=0.7,
                      label=f"mode {mode_label(modes[i][1])}")
        ax.loglog(h, errors[-1] * (h / h[-1]) ** 2, "k--", lw=0.8, label="slope 2")
        ax.set_xlabel("cell size (cm)")
        ax.set_ylabel("|f_measured / f_analytic - 1|")
        ax.set_title("Cavity resonances: convergence")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r


def case_dielectric(ctx):
    r = CaseResult("dielectric", "Dielectric fill (eps_r = 4) and conductivity")
    steps = 16000 if ctx.reduced else 32000
    vac = ctx.run(ctx.model(CAVITY), "dielectric/vacuum", [f"--time.steps={steps // 2}"])
    _, f_vac, exact, _, _ = measure_modes(vac)
    die = ctx.run(ctx.model(DIELECTRIC), "dielectric/eps4", [f"--time.steps={steps}"])
    modes, f_die, exact4, _, spec = measure_modes(die, speed=C0 / 2, t_start=2 * T_START)
    ratio = f_die / f_vac
    err_ratio = np.max(np.abs(2 * ratio - 1))
    err_exact = np.max(np.abs(f_die / (exact / 2) - 1))
    for (f, t), fv, fd in zip(modes, f_vac, f_die):
        print(f"    mode {mode_label(t)}: vacuum {fv / 1e9:.6f} GHz, eps_r 4 {fd / 1e9:.6f} GHz, "
              f"ratio {fd / fv:.6f}")
    lines = ["| mode | vacuum (GHz) | eps_r = 4 (GHz) | ratio | analytic / 2 (GHz) |",
             "|---|---|---|---|---|"]
    for (f, t), fv, fd in zip(modes, f_vac, f_die):
        lines.append(f"| {mode_label(t)} | {fv / 1e9:.6f} | {fd / 1e9:.6f} | {fd / fv:.6f} | "
                     f"{f / 1e9:.6f} |")
    r.check("eps_r = 4: f / f_vacuum vs 1/2 (max |error|, 5 modes)", "<= 0.5%",
            fmt_pct(err_ratio, 4), err_ratio <= 5e-3)
    r.check("eps_r = 4: f vs analytic f_vacuum / 2 (max |error|)", "<= 0.5%",
            fmt_pct(err_exact, 4), err_exact <= 5e-3)

    # Lossy fill: every mode of a uniformly lossy cavity decays as exp(-sigma/(2 eps) t).
    sigma = 1.5e-3
    alpha = sigma / (2 * 4 * EPS0)
    lossy = ctx.run(ctx.model(DIELECTRIC), "dielectric/lossy",
                    [f"--time.steps={steps}", f"--material.fill.sigma={sigma}"])
    signals, names = probe_signals(lossy, 2 * T_START)
    # Window: 5 bins of the smallest mode spacing at least.
    spacing = np.min(np.diff(f_die))
    window = int(np.ceil(6 / (spacing * lossy.dt)))
    lines.append("")
    lines.append(f"Lossy fill, sigma = {sigma:g} S/m: expected decay sigma/(2 eps) = "
                 f"{alpha:.6g} 1/s (the scheme's own rate, atanh(sigma dt/(2 eps))/dt, differs by "
                 f"{(np.arctanh(alpha * lossy.dt) / lossy.dt / alpha - 1):.1e} relative).")
    lines.append("")
    lines.append("| mode | measured decay (1/s) | vs sigma/(2 eps) |")
    lines.append("|---|---|---|")
    worst = 0.0
    fits = []
    for (f, t), fd in zip(modes, f_die):
        # The component that sees this mode best.
        mags = [spectrum.dtft_mag(spectrum.windowed(s), lossy.dt, fd) / np.abs(s).max()
                for s in signals]
        k = int(np.argmax(mags))
        a, tc, logs = spectrum.decay_rate(signals[k], lossy.dt, fd, window)
        e = a / alpha - 1
        worst = max(worst, abs(e))
        fits.append((mode_label(t), tc, logs, a))
        lines.append(f"| {mode_label(t)} | {a:.6g} | {100 * e:+.3f}% |")
        print(f"    lossy mode {mode_label(t)} ({names[k]}): decay {a:.6g} 1/s, "
              f"expected {alpha:.6g} ({100 * e:+.3f}%)")
    r.notes += lines
    r.check("sigma: envelope decay rate vs sigma/(2 eps) (max |error|, 5 modes)", "<= 2%",
            fmt_pct(worst, 3), worst <= 0.02)
    r.size = (f"{'x'.join(map(str, die.n))} cells (1 cm), {steps} steps (vacuum reference "
              f"{steps // 2}), decay windows of {window} steps")
    path = ctx.plot_path("dielectric.png")
    if path:
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        freqs, mag = spec
        band = (freqs > 0.3 * exact[0]) & (freqs < 0.7 * exact[-1])
        ax1.semilogy(freqs[band] / 1e9, mag[band] / mag[band].max(), lw=0.8,
                     label="eps_r = 4 spectrum")
        for i, f in enumerate(exact):
            ax1.axvline(f / 2e9, color="r", ls="--", lw=0.8,
                        label="analytic vacuum / 2" if i == 0 else None)
        ax1.set_xlabel("frequency (GHz)")
        ax1.set_title("eps_r = 4 fill")
        ax1.legend(fontsize=8, loc="lower left")
        for label, tc, logs, a in fits:
            ax2.plot((tc + 2 * T_START) * 1e9, logs - logs[0], ".", ms=3, label=f"mode {label}")
        tt = np.array([fits[0][1][0], fits[0][1][-1]])
        ax2.plot((tt + 2 * T_START) * 1e9, -alpha * (tt - tt[0]), "k--", lw=1,
                 label="-sigma/(2 eps) t")
        ax2.set_xlabel("window start (ns)")
        ax2.set_ylabel("ln |X_k| (relative)")
        ax2.set_title(f"sigma = {sigma:g} S/m: mode envelopes")
        ax2.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r
