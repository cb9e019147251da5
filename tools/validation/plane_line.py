"""2D case: a line current in free space (tm, UPML) against the 2D Green's function.

A `type = current` source along z of amplitude A (A/m^2) and waveform w in a 2D tm model is a
line current I(t) = A w(t) dx dy (A) on one Ez sample; the engine applies J[s] = A w((s + 1/2) dt)
(host/model/sources.cpp). In the frequency domain (transforms X(f) = sum_n x(t_n) exp(-i 2 pi f
t_n) dt, so x(t) = Re X exp(+i omega t)) the field of a line current in free space is

  Ez(f) = -(omega mu0 / 4) I(f) H0^(2)(k r),   k = omega / c,

H0^(2) the outgoing Hankel function (scipy.special.hankel2). Two checks per direction and
frequency: the ratio Ez(r2) / Ez(r1) between the two probes of one direction against
H0^(2)(k r2) / H0^(2)(k r1), magnitude and phase (independent of the source's strength and of
the lattice's near field at the source), and Ez(r2) itself against the formula (the source's
strength: the one-cell current is the line current). r is measured between the probe's Ez sample
(run.json) and the source's.
"""

import numpy as np

from .common import C0, MU0, CaseResult, ini_vector, probe_column, read_ini
from .dipole import gaussian_pulse

MODEL = "plane_line.ini"
FREQS = (1.0e9, 1.5e9, 2.0e9)    # 60, 40, 30 cells per wavelength at 5 mm
DIRECTIONS = (("x10", "x30"), ("d10", "d30"))
RATIO_MAG_BOUND = 0.005          # |  |ratio| / |ratio_exact| - 1  |
RATIO_PHASE_BOUND = 1.0          # degrees
ABS_MAG_BOUND = 0.01
ABS_PHASE_BOUND = 1.0


def yee_wavenumber(f, dt, d, direction):
    """The 2D Yee lattice's wavenumber along the unit vector `direction` at frequency f:
    sin(pi f dt)^2 / (c dt)^2 = sum_i (sin(k n_i d_i / 2) / d_i)^2, solved by bisection."""
    lhs = (np.sin(np.pi * f * dt) / (C0 * dt)) ** 2
    lo, hi = 0.0, 2 * np.pi * f / C0 * 1.5
    for _ in range(200):
        k = 0.5 * (lo + hi)
        rhs = sum((np.sin(k * n * di / 2) / di) ** 2 for n, di in zip(direction, d))
        lo, hi = (k, hi) if rhs < lhs else (lo, k)
    return 0.5 * (lo + hi)


def transform(x, t, f):
    return np.sum(x * np.exp(-2j * np.pi * f * t)) * (t[1] - t[0])


def case_plane_line(ctx):
    from scipy.special import hankel2
    r = CaseResult("plane_line", "2D line source against the Green's function H0^(2)(kr)")
    model = ctx.model(MODEL)
    ini = read_ini(model)
    steps = 1600 if ctx.reduced else 2400
    run = ctx.run(model, "plane_line/run", [f"--time.steps={steps}"])
    d = run.d[:2]
    pos = ini_vector(ini, "source.s", "position")
    src = np.round(pos / d) * d  # the Ez sample nearest to the position (Ez at (i, j) cells)
    amp = float(ini["source.s"]["amplitude"])
    f0 = float(ini["source.s"]["frequency"])
    bw = float(ini["source.s"]["bandwidth"])
    cols = run.probes()
    t = cols["time_s"]
    ts = (np.arange(steps + 1) + 0.5) * run.dt  # J[s] at (s + 1/2) dt
    current = amp * gaussian_pulse(ts, f0, bw)[0] * d[0] * d[1]
    radius = {}
    for p in run.report["probes"]:
        radius[p["name"]] = np.linalg.norm(np.array(p["position_m"])[:2] - src)
    peak = max(np.abs(cols[probe_column(n, "Ez")]).max() for n in radius)
    tail = max(np.abs(cols[probe_column(n, "Ez")][-50:]).max() for n in radius) / peak
    lines = ["| direction | r1, r2 (cells) | f (GHz) | \\|ratio\\| / \\|H0 ratio\\| - 1 | "
             "phase error (deg) | Yee k: phase error (deg) | \\|Ez(r2)\\| / formula - 1 | "
             "phase vs formula (deg) |", "|---|---|---|---|---|---|---|---|"]
    worst = {"rm": 0.0, "rp": 0.0, "am": 0.0, "ap": 0.0}
    curves = {}
    for near, far in DIRECTIONS:
        r1, r2 = radius[near], radius[far]
        unit = (np.array([p["position_m"] for p in run.report["probes"] if p["name"] == far][0])[:2]
                - src) / r2
        e1, e2 = cols[probe_column(near, "Ez")], cols[probe_column(far, "Ez")]
        curves[(near, far)] = (e1, e2)
        for f in FREQS:
            k = 2 * np.pi * f / C0
            kn = yee_wavenumber(f, run.dt, d, unit)
            x1, x2 = transform(e1, t, f), transform(e2, t, f)
            ratio = x2 / x1
            exact = hankel2(0, k * r2) / hankel2(0, k * r1)
            yee = hankel2(0, kn * r2) / hankel2(0, kn * r1)
            rm = abs(ratio) / abs(exact) - 1
            rp = np.degrees(np.angle(ratio / exact))
            yp = np.degrees(np.angle(ratio / yee))
            i_f = transform(current, ts, f)
            formula = -(2 * np.pi * f * MU0 / 4) * i_f * hankel2(0, k * r2)
            am = abs(x2) / abs(formula) - 1
            ap = np.degrees(np.angle(x2 / formula))
            for key, v in (("rm", rm), ("rp", rp), ("am", am), ("ap", ap)):
                worst[key] = max(worst[key], abs(v))
            lines.append(f"| {near[0]} | {r1 / d[0]:.2f}, {r2 / d[0]:.2f} | {f / 1e9:g} | "
                         f"{100 * rm:+.3f}% | {rp:+.3f} | {yp:+.3f} | {100 * am:+.3f}% | "
                         f"{ap:+.3f} |")
            print(f"    {near}->{far} at {f / 1e9:g} GHz: |ratio| {100 * rm:+.3f}%, phase "
                  f"{rp:+.3f} deg (vs Yee k {yp:+.3f}); Ez({far}) vs formula {100 * am:+.3f}%, "
                  f"{ap:+.3f} deg")
    lines += ["", f"Largest |Ez| over the last 50 steps at the probes: {tail:.1e} of the peak "
              "(the record holds the whole response)."]
    print(f"    tail: {tail:.1e} of the peak")
    r.notes += lines
    r.check("ratio Ez(r2)/Ez(r1) vs H0^(2)(k r2)/H0^(2)(k r1): magnitude (max |error|)",
            f"<= {100 * RATIO_MAG_BOUND:g}%", f"{100 * worst['rm']:.3f}%",
            worst["rm"] <= RATIO_MAG_BOUND)
    r.check("ratio Ez(r2)/Ez(r1): phase (max |error|)", f"<= {RATIO_PHASE_BOUND:g} deg",
            f"{worst['rp']:.3f} deg", worst["rp"] <= RATIO_PHASE_BOUND)
    r.check("Ez(r2) vs -(omega mu0/4) I H0^(2)(k r2): magnitude (max |error|)",
            f"<= {100 * ABS_MAG_BOUND:g}%", f"{100 * worst['am']:.3f}%",
            worst["am"] <= ABS_MAG_BOUND)
    r.check("Ez(r2) vs the formula: phase (max |error|)", f"<= {ABS_PHASE_BOUND:g} deg",
            f"{worst['ap']:.3f} deg", worst["ap"] <= ABS_PHASE_BOUND)
    r.size = (f"{run.n[0]}x{run.n[1]} cells of 5 mm, UPML 10 layers, {steps} steps; "
              f"frequencies {', '.join(f'{f / 1e9:g}' for f in FREQS)} GHz")
    path = ctx.plot_path("plane_line.png")
    if path:
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        for (near, far), (e1, e2) in curves.items():
            ax1.plot(t * 1e9, e1, lw=0.9, label=f"{near} ({radius[near] / d[0]:.1f} cells)")
            ax1.plot(t * 1e9, e2, lw=0.9, label=f"{far} ({radius[far] / d[0]:.1f} cells)")
        ax1.set_xlim(0, min(t[-1], 12e-9) * 1e9)
        ax1.set_xlabel("t (ns)")
        ax1.set_ylabel("Ez (V/m)")
        ax1.set_title("probe series")
        ax1.legend(fontsize=8)
        fs = np.linspace(0.6e9, 2.4e9, 61)
        for near, far in DIRECTIONS:
            e1, e2 = curves[(near, far)]
            meas = [abs(transform(e2, t, f) / transform(e1, t, f)) for f in fs]
            exact = [abs(hankel2(0, 2 * np.pi * f / C0 * radius[far]) /
                         hankel2(0, 2 * np.pi * f / C0 * radius[near])) for f in fs]
            ax2.plot(fs / 1e9, meas, "o", ms=3, label=f"clfdtd {far}/{near}")
            ax2.plot(fs / 1e9, exact, "-", lw=1, label=f"H0 ratio {far}/{near}")
        ax2.set_xlabel("frequency (GHz)")
        ax2.set_ylabel("|Ez(r2) / Ez(r1)|")
        ax2.set_title("magnitude ratio between the radii")
        ax2.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r
