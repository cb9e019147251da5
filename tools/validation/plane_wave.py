"""2D case: the scalar wave equation (equation = wave) equals Yee tm.

Eliminating Hx, Hy from Yee tm with Yee's own coefficients per material id (ca, cb) gives
u^(n+1) = (1 + ca) u^n - ca u^(n-1) + cb (dt/mu0) Lap u^n - cb (J[s] - J[s-1]) for u = Ez
(docs/TWO_D.md): the same numbers in exact arithmetic, dielectrics, conductivity and PEC included
(ca = cb = 0 keeps u = 0). models/validation/plane_wave_equiv.ini (PEC walls, a dielectric disc,
a lossy block, PEC objects) is run under both equations on the same device, and the probe series
compared. What float rounding alone does is measured beside it: the same Yee tm run on the
double-precision reference engine against the device's float run.
"""

import numpy as np

from .common import CaseResult, probe_column

MODEL = "plane_wave_equiv.ini"
BOUND = 1e-5  # max |Ez_wave - Ez_yee| / max |Ez_yee| per probe


def series(run):
    cols = run.probes()
    names = sorted({p["name"] for p in run.report["probes"]})
    return {n: cols[probe_column(n, "Ez")] for n in names}


def worst_difference(a, b):
    """max over probes of max_n |a - b| / max_n |b|, and the per-probe values."""
    per = {n: np.abs(a[n] - b[n]).max() / np.abs(b[n]).max() for n in b}
    return max(per.values()), per


def case_plane_wave_equiv(ctx):
    r = CaseResult("plane_wave_equiv", "Wave equation == Yee tm (dielectrics, loss, PEC)")
    steps = 1500 if ctx.reduced else 3000
    model = ctx.model(MODEL)
    yee = ctx.run(model, "plane_wave_equiv/maxwell",
                  ["--grid.equation=maxwell", f"--time.steps={steps}"])
    wave = ctx.run(model, "plane_wave_equiv/wave", ["--grid.equation=wave", f"--time.steps={steps}"])
    ref = ctx.run(model, "plane_wave_equiv/reference",
                  ["--grid.equation=maxwell", f"--time.steps={steps}", "--device.backend=reference"])
    s_yee, s_wave, s_ref = series(yee), series(wave), series(ref)
    diff, per = worst_difference(s_wave, s_yee)
    rounding, per_ref = worst_difference(s_yee, s_ref)
    lines = [f"Device: {yee.report['device']} ({yee.report['backend']}); wave engine "
             f"`{wave.report['kernel_variant']}`, Yee tm `{yee.report['kernel_variant']}`.", "",
             "| probe | \\|wave - Yee tm\\| / peak | \\|Yee tm float - reference double\\| / peak |",
             "|---|---|---|"]
    for n in sorted(per):
        lines.append(f"| {n} | {per[n]:.1e} | {per_ref[n]:.1e} |")
        print(f"    probe {n}: |wave - yee| / peak {per[n]:.1e}, |yee - reference| / peak "
              f"{per_ref[n]:.1e}")
    r.notes += lines
    r.check("wave vs Yee tm probe series, every step (max |difference| / peak)",
            f"<= {BOUND:g} (float rounding)", f"{diff:.1e}", diff <= BOUND)
    r.check("scale of float rounding: Yee tm on the device vs the double reference engine "
            "(max |difference| / peak)", f"<= {BOUND:g}", f"{rounding:.1e}", rounding <= BOUND)
    r.size = f"{yee.n[0]}x{yee.n[1]} cells of 5 mm, PEC walls, {steps} steps"
    path = ctx.plot_path("plane_wave_equiv.png")
    if path:
        import matplotlib.pyplot as plt
        names = sorted(s_yee)
        fig, axes = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
        t = yee.probes()["time_s"] * 1e9
        for n in names:
            axes[0].plot(t, s_yee[n], lw=0.8, label=f"{n}: Yee tm")
            axes[0].plot(t, s_wave[n], "--", lw=0.8, label=f"{n}: wave")
            peak = np.abs(s_yee[n]).max()
            axes[1].semilogy(t, np.maximum(np.abs(s_wave[n] - s_yee[n]) / peak, 1e-12), lw=0.7,
                             label=f"{n}: |wave - Yee| / peak")
        axes[0].set_ylabel("Ez (V/m)")
        axes[0].legend(fontsize=6, ncol=4)
        axes[1].axhline(BOUND, color="r", ls="--", lw=0.8)
        axes[1].set_xlabel("t (ns)")
        axes[1].set_ylabel("relative difference")
        axes[1].legend(fontsize=7)
        fig.suptitle("Scalar wave equation vs Yee tm on the same model and device")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r
