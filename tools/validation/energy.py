"""Case 6: energy in a lossless cavity, from energy.csv (output.energy = true).

energy.csv's energy_J is the energy the Yee scheme conserves exactly in a lossless, source-free
domain with PEC walls, W^n = 1/2 sum (eps E^n.E^n + mu H^(n-1/2).H^(n+1/2)) dV, summed on the
device (cl_kernels/energy.cl: a local-memory tree reduction per work-group, the groups' partial
sums added on the host in double). naive_J, 1/2 sum (eps E^n.E^n + mu H^(n-1/2).H^(n-1/2)) dV,
is shown for contrast: it oscillates with the fields.
"""

import numpy as np

from .common import CaseResult

MODEL = "energy.ini"
SPAN = 10000


def case_energy(ctx):
    r = CaseResult("energy", "Energy in a lossless cavity")
    if ctx.reduced:
        start, overrides = 300, []
    else:
        # Full size: 0.5 cm cells (48 x 40 x 32), the sources end by step 400.
        start, overrides = 500, ["--grid.cell_size=0.005"]
    steps = start + SPAN + 2
    run = ctx.run(ctx.model(MODEL), "energy/run", [f"--time.steps={steps}"] + overrides)
    e = run.energy()
    step = e["step"].astype(int)
    sel = (step >= start) & (step <= start + SPAN)
    w = e["energy_J"][sel]
    naive = e["naive_J"][sel]
    w0 = w[0]
    drift = np.max(np.abs(w - w0)) / w0
    naive_swing = (naive.max() - naive.min()) / naive.mean()
    print(f"    energy at step {start}: {w0:.9e} J; over steps {start}..{start + SPAN}: "
          f"max |W - W0| / W0 = {drift:.3e}; naive sum of squares swings by "
          f"{100 * naive_swing:.2f}% (max - min) / mean")
    r.notes.append(f"Energy at step {start}: {w0:.9e} J. Over steps {start} .. {start + SPAN}: "
                   f"max |W(n) - W({start})| / W({start}) = {drift:.2e}; final "
                   f"W / W0 - 1 = {w[-1] / w0 - 1:+.2e}. The naive sum of squares swings by "
                   f"{100 * naive_swing:.2f}% of its mean over the same steps.")
    r.check(f"Yee energy, max |W(n) - W({start})| / W({start}) over {SPAN} steps", "<= 1e-4",
            f"{drift:.2e}", drift <= 1e-4)
    r.size = f"{'x'.join(map(str, run.n))} cells, {steps} steps (energy every step, on the device)"
    path = ctx.plot_path("energy.png")
    if path:
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        ax1.plot(step, e["energy_J"], lw=0.8, label="Yee energy (conserved)")
        ax1.plot(step, e["naive_J"], lw=0.5, alpha=0.7, label="naive sum of squares")
        ax1.axvline(start, color="k", ls=":", lw=0.8)
        ax1.set_xlabel("step")
        ax1.set_ylabel("J")
        ax1.set_xlim(0, 600)
        ax1.set_title("Energy while the sources ring the cavity")
        ax1.legend(fontsize=8)
        ax2.plot(step[sel], w / w0 - 1, lw=0.6, label="Yee energy W / W0 - 1")
        ax2.set_xlabel("step")
        ax2.set_ylabel("relative change")
        ax2.set_title(f"After the sources: max |W/W0 - 1| = {drift:.1e} (bound 1e-4)")
        ax2.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
        ax2.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r
