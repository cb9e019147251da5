"""Case 7: symmetry. symmetry.ini is symmetric under the mirrors of x, y and z through the
centre, and its z dipole sits on all three planes, so each field component is even or odd under
each mirror. The snapshot's cell-centred arrays (model.vti cells map onto cells under these
mirrors: the planes lie on cell faces) are compared with their flipped, signed copies:
asymmetry = max |f - s flip(f)| / (largest |value| of E, or of H, over the run's snapshots) per
component, mirror and snapshot. Rounding errors scale with the values rounded, so the scale is the
field's largest value: a component's own peak would overstate it for Hz (~1% of H here), and a late
snapshot's own peak, after the pulse has left through the UPML, measures the decay instead.

The discrete model is exactly symmetric: the double-precision reference engine, and the float
engine with PEC walls instead of UPML, give bitwise-symmetric fields. With UPML the float engine
is symmetric to float32 rounding only: a PML cell is i < L or i >= n - L (docs/EQUATIONS.md), so
the E samples on the high-side interface plane (integer position n - L) go through the UPML
update with neutral profiles, E + ((D + dt/eps0 C) - D), while their mirror images on the
low-side plane (position L) take the plain update E + dt/eps0 C: equal in exact arithmetic,
different in the last bits in float32.

Parities f(M r) = s f(r): E is a vector, H a pseudovector (H -> -M H under a mirror M), and the
z mirror also reverses the dipole (so all fields change sign once more).
"""

import os
import re
import subprocess

import numpy as np

from .common import CaseResult

MODEL = "symmetry.ini"
# s per mirror axis (x, y, z) for Ex Ey Ez Hx Hy Hz.
PARITY = {
    0: (-1, +1, +1, +1, -1, -1),
    1: (+1, -1, +1, -1, +1, -1),
    2: (-1, -1, +1, +1, +1, -1),
}
NAMES = ("Ex", "Ey", "Ez", "Hx", "Hy", "Hz")
EPS32 = 2.0 ** -23  # float32 unit roundoff (relative spacing at 1)
BOUND = 1e-5       # of the field's peak: ~84 float32 ulps of it


def variants(ctx):
    """The OpenCL kernel variants this build offers (device.variant in `clfdtd run --help`)."""
    text = subprocess.run([ctx.binary, "run", "--help"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True).stdout
    m = re.search(r"device\.variant\s+\(one of ([^;]*);", text)
    return [w.strip() for w in m.group(1).split(",") if w.strip() != "auto"] if m else ["auto"]


def asymmetry(snap, peaks):
    """max |f - s flip(f)| per (component, mirror axis), relative to peaks["E"] or peaks["H"]."""
    worst = {}
    for c, name in enumerate(NAMES):
        f = snap["E" if c < 3 else "H"][..., c % 3].astype(np.float64)
        peak = peaks["E" if c < 3 else "H"]
        for axis in range(3):
            s = PARITY[axis][c]
            if peak == 0:
                worst[(name, axis)] = 0.0
                continue
            worst[(name, axis)] = np.abs(f - s * np.flip(f, axis=axis)).max() / peak
    return worst


def case_symmetry(ctx):
    r = CaseResult("symmetry", "Symmetry of a symmetric model")
    overall, upml_run = 0.0, None
    lines = ["| run | " + " | ".join(NAMES) + " |", "|---" * 7 + "|"]
    steps_list = []
    runs = [(f"UPML, variant {v}", f"symmetry/{v}", [f"--device.variant={v}"])
            for v in variants(ctx)]
    runs.append(("PEC walls (no UPML), auto variant", "symmetry/pec",
                 ["--boundary.type=pec", "--boundary.layers=0"]))
    for label, run_name, overrides in runs:
        if not ctx.reduced:
            overrides = overrides + ["--time.steps=400", "--snapshot.steps=100 160 250 400"]
        run = ctx.run(ctx.model(MODEL), run_name, overrides)
        if run_name != "symmetry/pec":
            upml_run = run
        snaps = sorted(int(f[len("fields_"):-len(".vti")])
                       for f in os.listdir(os.path.join(run.dir, "snapshots")))
        steps_list = snaps
        per_comp = {n: 0.0 for n in NAMES}
        fields = [run.snapshot(st) for st in snaps]
        # Rounding errors scale with the values rounded, largest while the pulse is near the
        # source: normalise by the largest |E| (|H|) of the run's snapshots, not by each
        # snapshot's own peak, which decays as the pulse leaves through the UPML.
        peaks = {k: max(float(np.abs(f[k]).max()) for f in fields) for k in ("E", "H")}
        for snap in fields:
            for (name, axis), a in asymmetry(snap, peaks).items():
                per_comp[name] = max(per_comp[name], a)
        worst = max(per_comp.values())
        overall = max(overall, worst)
        lines.append(f"| {label} | " + " | ".join(f"{per_comp[n]:.1e}" for n in NAMES) + " |")
        print(f"    {label}: max asymmetry {worst:.2e} of the largest field "
              f"({worst / EPS32:.1f} float32 ulps); " +
              ", ".join(f"{n} {per_comp[n]:.1e}" for n in NAMES))
    r.notes.append("max |f - s flip(f)| / (largest |E| or |H| of the run) over the three mirrors "
                   f"and the snapshots at steps {', '.join(map(str, steps_list))}:")
    r.notes.append("")
    r.notes += lines
    r.check("max |f - mirror(f)| / largest field (6 components, 3 mirrors, every kernel variant)",
            f"<= {BOUND:.0e} (float32 rounding; {BOUND / EPS32:.0f} ulps)",
            f"{overall:.1e} ({overall / EPS32:.1f} ulps)", overall <= BOUND)
    r.size = f"{'x'.join(map(str, run.n))} cells (1 cm), UPML 8 layers, snapshots at steps " \
             f"{', '.join(map(str, steps_list))}"
    path = ctx.plot_path("symmetry.png")
    if path:
        import matplotlib.pyplot as plt
        snap = upml_run.snapshot(steps_list[0])
        ez = snap["E"][..., 2]
        k = ez.shape[2] // 2
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
        im = ax1.imshow(ez[:, :, k].T, origin="lower", cmap="RdBu_r")
        ax1.set_title(f"Ez, plane k = {k}, step {steps_list[0]}")
        fig.colorbar(im, ax=ax1)
        diff = ez - np.flip(ez, axis=0)
        im2 = ax2.imshow((diff[:, :, k] / np.abs(ez).max()).T, origin="lower", cmap="RdBu_r")
        ax2.set_title("UPML: (Ez - x-mirror of Ez) / max |Ez|")
        fig.colorbar(im2, ax=ax2)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        r.plot = path
    return r
