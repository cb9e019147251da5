#!/usr/bin/env python3
"""Runs the 2D example models (models/plane_*.ini) and draws their README pictures
(docs/img/plane_*.png) from the runs' own outputs: snapshots (.vti) and probes.csv.

  tools/validation/plane_models.py --bin build/clfdtd                # full runs -> out/plane_models/png/
  tools/validation/plane_models.py --bin build/clfdtd --out docs/img # ... the README's pictures
  tools/validation/plane_models.py --bin build/clfdtd --short --out DIR --work DIR  # ctest

--out defaults to out/plane_models/png and --work to out/plane_models of the checkout (git-ignored),
whatever the current folder; docs/img only when asked for. A run that fails: one line naming it and
the program's output, exit 1.

plane_gpr.ini is one trace; the B-scan picture runs it at SCAN positions along the surface (source
and receiver moved together) and stacks the receiver traces.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from validation.model_runs import with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

from validation.common import Context, ini_vector, probe_column, read_ini  # noqa: E402

SCAN_FULL = np.arange(0.2, 1.0001, 0.025)  # source x positions of the B-scan (m)
SCAN_SHORT = np.array([0.3, 0.6])


def plane_field(snap, name):
    """One component of a 2D snapshot as an (nx, ny) array: the named array when the file has it,
    else that component of the 3-component E or H array."""
    if name in snap:
        return np.asarray(snap[name])[:, :, 0]
    vec = snap[name[0]]
    return np.asarray(vec)[:, :, 0, "xyz".index(name[1])]


def last_snapshot(run):
    steps = sorted(int(f[len("fields_"):-len(".vti")])
                   for f in os.listdir(os.path.join(run.dir, "snapshots")))
    return steps[-1], run.snapshot(steps[-1])


def show_field(ax, run, field, step, snap, title, clip=99.5, scale_from_x=0.0):
    """Draws one component; the colour scale is the `clip` percentile of |field| over x >=
    scale_from_x (m), so a weak region of interest is not drowned by the field at the source."""
    import matplotlib.pyplot as plt
    values = plane_field(snap, field)
    extent = [0, run.n[0] * run.d[0], 0, run.n[1] * run.d[1]]
    region = values[int(round(scale_from_x / run.d[0])):, :]
    vmax = np.percentile(np.abs(region), clip) or 1.0
    im = ax.imshow(values.T, origin="lower", extent=extent, cmap="RdBu_r", vmin=-vmax, vmax=vmax)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title(f"{title}: {field} at step {step} ({step * run.dt * 1e9:.2f} ns)", fontsize=9)
    plt.colorbar(im, ax=ax, label=f"{field} ({'V/m' if field[0] == 'E' else 'A/m'})", shrink=0.8)


def outline(ax, ini, kind_color="k"):
    """Draws the model's objects (box: rectangle, sphere: disc, prism: polygon) from the model
    file."""
    import matplotlib.patches as mp
    for sec in ini.sections():
        if not sec.startswith("object."):
            continue
        c = ini_vector(ini, sec, "center")
        if ini[sec]["shape"] == "box":
            s = ini_vector(ini, sec, "size")
            ax.add_patch(mp.Rectangle(c - s / 2, s[0], s[1], fill=False, lw=0.8, ec=kind_color))
        elif ini[sec]["shape"] == "prism":
            v = ini_vector(ini, sec, "vertices").reshape(-1, 2) + c
            ax.add_patch(mp.Polygon(v, closed=True, fill=False, lw=0.8, ec=kind_color))
        else:
            ax.add_patch(mp.Circle(c, float(ini[sec]["radius"]), fill=False, lw=0.8,
                                   ec=kind_color))


def run_model(ctx, name, steps, snapshot_steps):
    over = []
    if steps:
        over += [f"--time.steps={steps}", f"--snapshot.steps={' '.join(map(str, snapshot_steps))}"]
    return ctx.run(os.path.join(ROOT, "models", f"{name}.ini"), name, over)


def picture_scatter(ctx, out, short):
    import matplotlib.pyplot as plt
    ini = read_ini(os.path.join(ROOT, "models", "plane_tm_scatter.ini"))
    run = run_model(ctx, "plane_tm_scatter", 300 if short else None, [300])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4))
    step, snap = (300, run.snapshot(300)) if short else (400, run.snapshot(400))
    show_field(ax1, run, "Ez", step, snap, "plane_tm_scatter.ini")
    outline(ax1, ini)
    cols = run.probes()
    for probe in ("front", "inside", "shadow"):
        ax2.plot(cols["time_s"] * 1e9, cols[probe_column(probe, "Ez")], lw=0.9, label=probe)
    ax2.set_xlabel("t (ns)")
    ax2.set_ylabel("Ez (V/m)")
    ax2.set_title("probes: in front of the disc, inside it, in its shadow", fontsize=9)
    ax2.legend(fontsize=8)
    return save(fig, out, "plane_tm_scatter.png")


def picture_waveguide(ctx, out, short):
    import matplotlib.pyplot as plt
    ini = read_ini(os.path.join(ROOT, "models", "plane_te_waveguide.ini"))
    run = run_model(ctx, "plane_te_waveguide", 300 if short else None, [300])
    step, snap = last_snapshot(run)
    fig, ax = plt.subplots(figsize=(9, 4))
    show_field(ax, run, "Ey", step, snap, "plane_te_waveguide.ini (te)", clip=99.9)
    outline(ax, ini)
    return save(fig, out, "plane_te_waveguide.png")


def picture_taper(ctx, out, short):
    import matplotlib.pyplot as plt
    ini = read_ini(os.path.join(ROOT, "models", "plane_taper.ini"))
    run = run_model(ctx, "plane_taper", 400 if short else None, [400])
    step, snap = last_snapshot(run)
    fig, ax = plt.subplots(figsize=(10, 4.2))
    show_field(ax, run, "Ey", step, snap, "plane_taper.ini (te, a prism: the guide's polygon)",
               scale_from_x=0.15)  # scaled away from the feed's own cell
    outline(ax, ini)
    return save(fig, out, "plane_taper.png")


def picture_wave(ctx, out, short):
    import matplotlib.pyplot as plt
    ini = read_ini(os.path.join(ROOT, "models", "plane_wave.ini"))
    run = run_model(ctx, "plane_wave", 300 if short else None, [300])
    step, snap = last_snapshot(run)
    fig, ax = plt.subplots(figsize=(8, 5.5))
    show_field(ax, run, "Ez", step, snap, "plane_wave.ini (equation = wave)", clip=99.0,
               scale_from_x=0.25)  # scaled to the fringes behind the screen
    outline(ax, ini)
    return save(fig, out, "plane_wave.png")


def picture_oblique(ctx, out, short):
    import matplotlib.pyplot as plt
    import matplotlib.patches as mp
    ini = read_ini(os.path.join(ROOT, "models", "plane_oblique.ini"))
    run = run_model(ctx, "plane_oblique", 600 if short else None, [600])
    step, snap = 600, run.snapshot(600)
    fig, ax = plt.subplots(figsize=(7, 5.5))
    show_field(ax, run, "Ez", step, snap, "plane_oblique.ini (30 degrees onto glass)")
    outline(ax, ini)
    c, s = ini_vector(ini, "source.wave", "position"), ini_vector(ini, "source.wave", "size")
    ax.add_patch(mp.Rectangle(c - s / 2, s[0], s[1], fill=False, lw=0.8, ls="--", ec="0.4"))
    return save(fig, out, "plane_oblique.png")


def picture_gpr(ctx, out, short):
    import matplotlib.pyplot as plt
    model = os.path.join(ROOT, "models", "plane_gpr.ini")
    ini = read_ini(model)
    tx = ini_vector(ini, "source.tx", "position")
    rx = ini_vector(ini, "probe.rx", "position")
    steps = 500 if short else int(ini["time"]["steps"])
    traces, xs, t = [], [], None
    for x in (SCAN_SHORT if short else SCAN_FULL):
        shift = x - tx[0]
        run = ctx.run(model, f"plane_gpr/x{1000 * x:.0f}mm",
                      [f"--time.steps={steps}",
                       f"--source.tx.position={tx[0] + shift:.6g} {tx[1]:.6g}",
                       f"--probe.rx.position={rx[0] + shift:.6g} {rx[1]:.6g}"])
        cols = run.probes()
        traces.append(cols[probe_column("rx", "Ez")])
        xs.append(0.5 * (tx[0] + rx[0]) + shift)
        t = cols["time_s"]
    data = np.array(traces)
    # The direct wave and the ground reflection are the same at every position: the mean trace
    # removes them and leaves what changes along the line, the pipe's hyperbola.
    scattered = data - data.mean(axis=0)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    vmax = np.abs(scattered).max() or 1.0
    ax1.imshow(scattered.T, aspect="auto", cmap="gray", vmin=-vmax, vmax=vmax,
               extent=[xs[0], xs[-1], t[-1] * 1e9, t[0] * 1e9])
    ax1.set_xlabel("antenna midpoint x (m)")
    ax1.set_ylabel("two-way time (ns)")
    ax1.set_title("B-scan, mean trace removed: the pipe's hyperbola", fontsize=9)
    mid = int(np.argmin(np.abs(np.array(xs) - 0.6)))
    ax2.plot(t * 1e9, data[mid], lw=0.9, label=f"raw trace at x = {xs[mid]:.2f} m")
    ax2.plot(t * 1e9, scattered[mid], lw=0.9, label="mean trace removed")
    ax2.set_xlabel("t (ns)")
    ax2.set_ylabel("Ez (V/m)")
    ax2.set_title("plane_gpr.ini: receiver trace over the pipe", fontsize=9)
    ax2.legend(fontsize=8)
    return save(fig, out, "plane_gpr.png")


def save(fig, out, name):
    import matplotlib.pyplot as plt
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(f"wrote {path}", flush=True)
    return path


PICTURES = {"plane_tm_scatter": picture_scatter, "plane_te_waveguide": picture_waveguide,
            "plane_wave": picture_wave, "plane_gpr": picture_gpr, "plane_taper": picture_taper,
            "plane_oblique": picture_oblique}


def main():
    import matplotlib
    matplotlib.use("Agg")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "clfdtd"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "plane_models", "png"),
                    help="folder for the PNGs (default out/plane_models/png of the checkout; the "
                         "README's pictures: --out docs/img)")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "plane_models"),
                    help="folder for the runs (default out/plane_models of the checkout)")
    ap.add_argument("--short", action="store_true", help="short runs (ctest): 300-500 steps")
    ap.add_argument("--model", action="append", choices=list(PICTURES))
    ap.add_argument("--backend", choices=["opencl", "cuda", "reference"], default=None)
    args = ap.parse_args()
    if not os.access(os.path.abspath(args.bin), os.X_OK):
        sys.exit(f"tools/validation/plane_models.py: {args.bin} is not an executable (build "
                 "clfdtd, or pass --bin)")
    ctx = Context(os.path.abspath(args.bin), args.work, args.short, None, ROOT, args.backend)
    for name in args.model or list(PICTURES):
        try:
            path = PICTURES[name](ctx, args.out, args.short)
        except RuntimeError as e:  # Context.run: "clfdtd failed (exit N): command\noutput"
            sys.exit(f"tools/validation/plane_models.py: {name}: {e}")
        if not os.path.getsize(path):
            sys.exit(f"{path}: empty picture")
    return 0


if __name__ == "__main__":
    sys.exit(main())
