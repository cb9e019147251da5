"""2D cases: UPML reflection in the x-y plane (tm and te), and the wave equation's absorber.

Taflove's test as in the 3D case (upml.py): models/validation/plane_upml.ini (a 20 x 20-cell
interior, a line current 3 cells from the x-low UPML interface, probes 2 cells from one or two
interfaces) is run for several layer counts; the reference run puts the same interior, source and
probes R cells deeper inside a domain so large that nothing from its boundary reaches a probe
within the window (the shortest path source -> boundary -> probe, about 2 R cells, is longer than
c times the window). The error at a probe is e(n) = |E_test(n) - E_ref(n)| (the vector of its E
samples), relative to max_n |E_ref(n)| there; the case reports the largest over the window and
the probes, in dB.

The wave equation (`grid.equation = wave`) has its own absorber: the UPML cells and one ring of
cells inside them (the frame) are advanced by Yee tm with UPML, the rest by the wave update. It is
measured the same way, test and reference both run with the wave equation, and the test run is
also compared with the same model under Yee tm: the two must agree to float rounding.
"""

import numpy as np

from .common import CaseResult, ini_vector, probe_column, read_ini

MODEL = "plane_upml.ini"
INTERIOR = 20  # cells per side (plane_upml.ini)
BASE_LAYERS = 10
LAYERS = (5, 10, 20)
BOUND_DB = -60.0

FAMILIES = {
    # name: (overrides, E components the probes record)
    "tm": (["--grid.mode=tm"], ("Ez",)),
    "te": (["--grid.mode=te", "--source.s.axis=y"] +
           [f"--probe.{p}.fields=Ex Ey" for p in "abc"], ("Ex", "Ey")),
    "wave": (["--grid.mode=tm", "--grid.equation=wave"], ("Ez",)),
}


def moved(ini, offset_m, size_m):
    """Overrides placing the interior of plane_upml.ini offset_m further along x and y."""
    out = [f"--grid.size={size_m:.9g} {size_m:.9g}"]
    for sec in ini.sections():
        if sec.startswith("source.") or sec.startswith("probe."):
            q = ini_vector(ini, sec, "position") + offset_m
            out.append(f"--{sec}.position={q[0]:.9g} {q[1]:.9g}")
    return out


def probe_e(run, comps):
    cols = run.probes()
    names = sorted({p["name"] for p in run.report["probes"]})
    return {n: np.stack([cols[probe_column(n, c)] for c in comps]) for n in names}


def window_steps(ctx):
    return 300 if ctx.reduced else 500


def reflection(ctx, family, layers_list, gradings=(3,)):
    """{(layers, grading): dB}, the error curves at 10 layers grading 3, the test runs' probe
    series at 10 layers, and the reference run."""
    model = ctx.model(MODEL)
    ini = read_ini(model)
    d = float(ini["grid"]["cell_size"])
    extra, comps = FAMILIES[family]
    steps = window_steps(ctx)
    # c dt = 0.9 / sqrt(2) d = 0.64 d per step; the reference boundary must stay out of reach.
    margin = int(np.ceil(0.64 * steps / 2)) + 2
    ref_layers = 10
    offset = (margin + ref_layers - BASE_LAYERS) * d
    size = (INTERIOR + 2 * margin + 2 * ref_layers) * d
    ref = ctx.run(model, f"plane_upml/{family}/reference",
                  extra + [f"--time.steps={steps}", f"--boundary.layers={ref_layers}"] +
                  moved(ini, offset, size))
    e_ref = probe_e(ref, comps)
    table, curves, series = {}, None, None
    for m in gradings:
        for layers in layers_list:
            off = (layers - BASE_LAYERS) * d
            run = ctx.run(model, f"plane_upml/{family}/L{layers}_m{m:g}",
                          extra + [f"--time.steps={steps}", f"--boundary.layers={layers}",
                                   f"--boundary.grading={m}"] +
                          moved(ini, off, (INTERIOR + 2 * layers) * d))
            worst, errs = -np.inf, {}
            test = probe_e(run, comps)
            for name, e in test.items():
                err = np.linalg.norm(e - e_ref[name], axis=0) / \
                    np.linalg.norm(e_ref[name], axis=0).max()
                errs[name] = err
                worst = max(worst, 20 * np.log10(err.max()))
            table[(layers, m)] = worst
            if (layers, m) == (BASE_LAYERS, 3):
                curves, series = errs, test
            print(f"    {family}: layers {layers:2d}, grading {m}: max relative error "
                  f"{worst:.1f} dB")
    return table, curves, series, ref


def plot_curves(path, title, tables, curves_by_family, steps):
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for family, table in tables.items():
        ax1.plot(LAYERS, [table[(layers, 3)] for layers in LAYERS], "o-", label=family)
    ax1.axhline(BOUND_DB, color="r", ls="--", lw=0.8, label=f"{BOUND_DB:g} dB")
    ax1.set_xlabel("UPML layers (grading 3)")
    ax1.set_ylabel("max relative error (dB)")
    ax1.set_title("Reflection error vs layers")
    ax1.legend(fontsize=8)
    t = np.arange(steps + 1)
    for family, curves in curves_by_family.items():
        for name, err in sorted(curves.items()):
            ax2.plot(t, 20 * np.log10(np.maximum(err, 1e-12)), lw=0.8,
                     label=f"{family} probe {name}")
    ax2.set_ylim(-140, 0)
    ax2.set_xlabel("step")
    ax2.set_ylabel("|E - E_ref| / max |E_ref| (dB)")
    ax2.set_title("10 layers, grading 3: error in time")
    ax2.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def table_lines(tables):
    lines = ["Max over the window and the three probes of |E - E_ref| / max |E_ref| (dB), "
             "grading 3:", "", "| family \\ layers | " + " | ".join(str(x) for x in LAYERS) + " |",
             "|---" * (len(LAYERS) + 1) + "|"]
    for family, table in tables.items():
        lines.append(f"| {family} | " +
                     " | ".join(f"{table[(layers, 3)]:.1f}" for layers in LAYERS) + " |")
    return lines


def case_plane_upml(ctx):
    r = CaseResult("plane_upml", "2D UPML reflection, tm and te")
    tables, curves, ref = {}, {}, None
    for family in ("tm", "te"):
        tables[family], curves[family], _, ref = reflection(ctx, family, LAYERS)
        v = tables[family][(BASE_LAYERS, 3)]
        r.check(f"{family}: 10 layers, grading 3 (the default): max relative error",
                f"<= {BOUND_DB:g} dB", f"{v:.1f} dB", v <= BOUND_DB)
    r.notes += table_lines(tables)
    steps = window_steps(ctx)
    r.size = (f"test {INTERIOR}^2 interior + 5/10/20 layers (1 cm cells), reference "
              f"{ref.n[0]}x{ref.n[1]} cells, {steps} steps")
    path = ctx.plot_path("plane_upml.png")
    if path:
        plot_curves(path, "2D UPML reflection (tm: Ez; te: Ex, Ey)", tables, curves, steps)
        r.plot = path
    return r


def case_plane_wave_absorber(ctx):
    r = CaseResult("plane_wave_absorber", "The wave equation's absorber (2D, equation = wave)")
    table, curves, series, ref = reflection(ctx, "wave", LAYERS)
    v = table[(BASE_LAYERS, 3)]
    r.check("wave: 10 layers, grading 3: max relative error against a larger wave-equation "
            "domain", f"<= {BOUND_DB:g} dB", f"{v:.1f} dB", v <= BOUND_DB)
    # The same test domain under Yee tm: the frame is Yee tm + UPML, so the two agree to rounding.
    steps = window_steps(ctx)
    maxwell = ctx.run(ctx.model(MODEL), "plane_upml/wave/maxwell_L10",
                      ["--grid.mode=tm", "--grid.equation=maxwell", f"--time.steps={steps}",
                       f"--boundary.layers={BASE_LAYERS}", "--boundary.grading=3"])
    yee = probe_e(maxwell, ("Ez",))
    diff = max(np.abs(series[n] - yee[n]).max() / np.abs(yee[n]).max() for n in yee)
    r.check("wave vs Yee tm on the same UPML model, 10 layers (max |difference| / peak at each "
            "probe)", "<= 1e-5 (float rounding)", f"{diff:.1e}", diff <= 1e-5)
    r.notes += table_lines({"wave": table})
    r.notes += ["", f"Same test domain under `equation = maxwell`: max |Ez_wave - Ez_yee| / "
                f"max |Ez_yee| = {diff:.1e} over the three probes and {steps} steps."]
    r.size = (f"test {INTERIOR}^2 interior + 5/10/20 layers (1 cm cells), reference "
              f"{ref.n[0]}x{ref.n[1]} cells, {steps} steps")
    path = ctx.plot_path("plane_wave_absorber.png")
    if path:
        plot_curves(path, "The wave equation's absorber (frame: Yee tm + UPML)", {"wave": table},
                    {"wave": curves}, steps)
        r.plot = path
    return r
