"""Case 5: UPML reflection (Taflove's test).

The test domain (upml.ini: a 20^3-cell interior, source 3 cells and probes 2 cells from the
UPML) is run for several layer counts and grading orders; the reference run puts the same
interior, source and probes R cells deeper inside a domain so large that no reflection from its
boundary reaches a probe within the window (the shortest path source -> boundary -> probe is
longer than c * window). The error at a probe is e(n) = |E_test(n) - E_ref(n)| (the vector of
its Ex, Ey, Ez samples), relative to max_n |E_ref(n)| there; the case reports the largest over
the window and the probes, in dB.
"""

import numpy as np

from .common import CaseResult, ini_vector, probe_column, read_ini

MODEL = "upml.ini"
INTERIOR = 20  # cells per side (upml.ini)
BASE_LAYERS = 10


def moved(ini, offset_m, size_m):
    """Overrides that place the interior of upml.ini offset_m further along every axis."""
    out = [f"--grid.size={size_m:.9g} {size_m:.9g} {size_m:.9g}"]
    for sec in ini.sections():
        if sec.startswith("source.") or sec.startswith("probe."):
            q = ini_vector(ini, sec, "position") + offset_m
            out.append(f"--{sec}.position={q[0]:.9g} {q[1]:.9g} {q[2]:.9g}")
    return out


def probe_e(run):
    cols = run.probes()
    names = sorted({p["name"] for p in run.report["probes"]})
    return {n: np.stack([cols[probe_column(n, c)] for c in ("Ex", "Ey", "Ez")]) for n in names}


def case_upml(ctx):
    r = CaseResult("upml", "UPML reflection")
    model = ctx.model(MODEL)
    ini = read_ini(model)
    d = float(ini["grid"]["cell_size"])
    steps = 250 if ctx.reduced else 400
    # Reference: the shortest path source -> reference boundary -> probe is about 2 R cells;
    # c dt = 0.52 d per step (courant 0.9), so R > 0.52 * steps / 2 keeps it out of the window.
    margin = int(np.ceil(0.52 * steps / 2)) + 2
    ref_layers = 10
    offset = (margin + ref_layers - BASE_LAYERS) * d
    size = (INTERIOR + 2 * margin + 2 * ref_layers) * d
    ref = ctx.run(model, "upml/reference",
                  [f"--time.steps={steps}", f"--boundary.layers={ref_layers}"] +
                  moved(ini, offset, size))
    e_ref = probe_e(ref)

    def error_db(layers, grading):
        off = (layers - BASE_LAYERS) * d
        run = ctx.run(model, f"upml/L{layers}_m{grading:g}",
                      [f"--time.steps={steps}", f"--boundary.layers={layers}",
                       f"--boundary.grading={grading}"] +
                      moved(ini, off, (INTERIOR + 2 * layers) * d))
        worst, curves = -np.inf, {}
        for name, e in probe_e(run).items():
            ref_e = e_ref[name]
            err = np.linalg.norm(e - ref_e, axis=0) / np.linalg.norm(ref_e, axis=0).max()
            curves[name] = err
            worst = max(worst, 20 * np.log10(err.max()))
        return worst, curves

    layers_list, gradings = [5, 10, 20], [2, 3, 4]
    table = {}
    curves10 = None
    for m in gradings:
        for L in layers_list:
            table[(L, m)], curves = error_db(L, m)
            if (L, m) == (BASE_LAYERS, 3):
                curves10 = curves
            print(f"    layers {L:2d}, grading {m}: max relative error {table[(L, m)]:.1f} dB")
    lines = ["Max over the window and the three probes of |E - E_ref| / max |E_ref| (dB); "
             "sigma_max = 0.8 (m+1)/(eta0 d), kappa_max = 1:", "",
             "| grading m \\ layers | " + " | ".join(str(L) for L in layers_list) + " |",
             "|---" * (len(layers_list) + 1) + "|"]
    for m in gradings:
        lines.append(f"| {m} | " + " | ".join(f"{table[(L, m)]:.1f}" for L in layers_list) + " |")
    for line in lines:
        print("    " + line)
    if not ctx.reduced:
        # Not bounded: what a moment with a zero-frequency part (a Gaussian p(t)) leaves behind.
        lines += ["", "Late-time residual (not bounded; test domain only, 10 layers, grading 3, "
                  "3000 steps): max |E| over steps 1000 .. 3000 at the probes, relative to the "
                  "pulse's peak there. In free space the field must vanish once p(t) is back to 0.",
                  "", "| moment p(t) | probe a | probe b | probe c |", "|---|---|---|---|"]
        for label, wave in (("Ricker (no zero-frequency part)", []),
                             ("Gaussian (zero-frequency part)",
                              ["--source.s.waveform=gaussian", "--source.s.frequency=1.5e9"])):
            run = ctx.run(model, f"upml/late_{'gaussian' if wave else 'ricker'}",
                          ["--time.steps=3000"] + wave)
            cells = []
            for name, e in sorted(probe_e(run).items()):
                mag = np.linalg.norm(e, axis=0)
                cells.append(f"{20 * np.log10(mag[1000:].max() / mag.max()):.0f} dB")
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
            print(f"    late-time residual, {label}: " + ", ".join(cells))
    r.notes += lines
    v = table[(10, 3)]
    r.check("10 layers, grading 3 (the default): max relative error", "<= -60 dB", f"{v:.1f} dB",
            v <= -60)
    r.size = (f"test {INTERIOR}^3 interior + 5/10/20 layers (1 cm cells), reference "
              f"{'x'.join(map(str, ref.n))} cells, {steps} steps")
    path = ctx.plot_path("upml.png")
    if path:
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        for m in gradings:
            ax1.plot(layers_list, [table[(L, m)] for L in layers_list], "o-", label=f"grading {m}")
        ax1.axhline(-60, color="r", ls="--", lw=0.8, label="-60 dB")
        ax1.set_xlabel("UPML layers")
        ax1.set_ylabel("max relative error (dB)")
        ax1.set_title("Reflection error vs layers")
        ax1.legend(fontsize=8)
        t = np.arange(steps + 1)
        for name, err in sorted(curves10.items()):
            ax2.plot(t, 20 * np.log10(np.maximum(err, 1e-12)), lw=0.8, label=f"probe {name}")
        ax2.set_ylim(-140, 0)
        ax2.set_xlabel("step")
        ax2.set_ylabel("|E - E_ref| / max |E_ref| (dB)")
        ax2.set_title("10 layers, grading 3: error in time")
        ax2.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r
