#!/usr/bin/env python3
"""Runs the cylindrical example models and draws the README's pictures of them.

  tools/cyl_models.py --bin build/clfdtd [--backend reference] [--out DIR] [--work /tmp/cyl_models]
                      [--steps N]

--out: the PNGs' folder, default out/cyl_models of the checkout (git-ignored); the README's
pictures: --out docs/img. The models are the checkout's (models/ next to tools/), whatever the
current folder; --bin, --out and --work relative to the current folder. A run that fails: its
message, then one line naming it, exit 1.

--steps N shortens both runs to N steps, with the lens snapshots at N/2 and N and 12 angles (a
quick check of the script: tests/tools/cyl_models_png.py; the README's pictures take the models'
own steps).

models/cyl_cavity.ini: the probe's spectrum (Ez and Hz) against the closed PEC cylinder's
resonances f = c/(2 pi) sqrt((x/R)^2 + (p pi/L)^2), x the zeros of J_m (TM_mnp, p >= 0) and of
J_m' (TE_mnp, p >= 1), for the simulated m = 0, 1, 2 -> cyl_cavity_spectrum.png.
models/cyl_lens.ini: E_x of the 3D reconstruction (fields_<n>_3d.vts) in the plane y = 0 through
the axis (its phi = 0 and phi = 180 deg halves: the feed's E-plane) at the snapshot steps, the lens
outlined from model.vti -> cyl_lens.png. Reads the appended-raw VTK XML files clfdtd writes with numpy alone.
"""
import argparse
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:  # as tools/slice: a python3 on PATH without numpy (pyenv, venv) -> the system one
    import matplotlib
    import numpy  # noqa: F401
    import scipy  # noqa: F401
except ImportError:
    if os.path.exists("/usr/bin/python3") and \
            os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("tools/cyl_models.py: needs numpy, scipy and matplotlib "
             "(apt-get install python3-numpy python3-scipy python3-matplotlib)")


matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.special import jn_zeros, jnp_zeros  # noqa: E402

C0 = 299792458.0
DTYPES = {"Float32": "<f4", "Float64": "<f8", "UInt8": "<u1", "Int32": "<i4", "Int64": "<i8"}


def read_vtk_xml(path):
    """(root element, {array name: numpy array (tuples, components)}) of a clfdtd .vti/.vts."""
    data = open(path, "rb").read()
    marker = data.index(b"<AppendedData")
    start = data.index(b"_", marker) + 1
    root = ET.fromstring(data[:marker].decode() + "</VTKFile>")
    arrays = {}
    for arr in root.iter("DataArray"):
        if arr.get("format") != "appended" or arr.get("type") not in DTYPES:
            continue
        off = start + int(arr.get("offset"))
        nbytes = int(np.frombuffer(data[off:off + 8], "<u8")[0])
        values = np.frombuffer(data[off + 8:off + 8 + nbytes], DTYPES[arr.get("type")])
        comps = int(arr.get("NumberOfComponents", "1"))
        arrays[arr.get("Name") or "Points"] = values.reshape(-1, comps)
    return root, arrays


class RunFailed(Exception):
    pass


def run(binary, model, out_dir, backend, extra=()):
    """clfdtd run ROOT/models/<model>; its own messages go to the terminal; RunFailed if it fails."""
    cmd = [binary, "run", os.path.join(ROOT, "models", model), "--output.dir=" + out_dir,
           "--quiet", "--output.overwrite=true"] + \
        (["--backend=" + backend] if backend else []) + list(extra)
    try:
        code = subprocess.run(cmd).returncode
    except OSError as e:
        raise RunFailed(f"cannot run {binary} ({e.strerror}; pass the clfdtd program as --bin)")
    if code != 0:
        raise RunFailed(f"clfdtd run models/{model} failed (exit {code}; its message is above): "
                        + " ".join(cmd))


def cavity_picture(run_dir, png):
    lines = open(os.path.join(run_dir, "probes.csv")).read().splitlines()
    header = lines[0].split(",")
    table = np.array([[float(v) for v in row.split(",")] for row in lines[1:]])
    t = table[:, 1]
    dt = t[1] - t[0]
    R, L = 0.1, 0.15  # models/cyl_cavity.ini
    fmax = 2.6e9
    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=100)
    for name, colour in (("p.Ez_V_per_m", "tab:blue"), ("p.Hz_A_per_m", "tab:red")):
        x = table[:, header.index(name)]
        n = len(x)
        spec = np.abs(np.fft.rfft(x * np.hanning(n), 16 * n))
        f = np.fft.rfftfreq(16 * n, dt)
        keep = f <= fmax
        ax.semilogy(f[keep] / 1e9, spec[keep] / spec[keep].max(), colour, lw=1, label=name)
    styles = {0: ("k", "-"), 1: ("tab:green", "--"), 2: ("tab:purple", ":")}
    for m in (0, 1, 2):
        freqs = []
        for x in jn_zeros(m, 3):
            freqs += [(C0 / (2 * np.pi)) * np.hypot(x / R, p * np.pi / L) for p in range(0, 4)]
        for x in jnp_zeros(m, 3):
            freqs += [(C0 / (2 * np.pi)) * np.hypot(x / R, p * np.pi / L) for p in range(1, 4)]
        for k, fr in enumerate(sorted(f for f in freqs if f <= fmax)):
            ax.axvline(fr / 1e9, color=styles[m][0], ls=styles[m][1], lw=0.7, alpha=0.6,
                       label=f"analytic, m = {m}" if k == 0 else None)
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("|spectrum| (normalised)")
    ax.set_ylim(1e-5, 2)
    ax.set_title("models/cyl_cavity.ini: probe spectrum vs the PEC cylinder's TM/TE resonances",
                 fontsize=10)
    ax.legend(fontsize=8, loc="lower right", ncol=2)
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)


def lens_picture(run_dir, png):
    root, model = read_vtk_xml(os.path.join(run_dir, "model.vti"))
    image = root.find("ImageData")
    ext = [int(v) for v in image.get("WholeExtent").split()]
    nr, nz = ext[1], ext[5]
    sp = [float(v) for v in image.get("Spacing").split()]
    eps = model["eps_r"][:, 0].reshape(nz, nr)  # VTK order: r fastest
    snaps = sorted((int(f.split("_")[1]), f) for f in os.listdir(os.path.join(run_dir, "snapshots"))
                   if f.endswith("_3d.vts"))
    fig, axes = plt.subplots(1, len(snaps), figsize=(3.0 * len(snaps) + 1.2, 5.0), dpi=100,
                             sharey=True, constrained_layout=True)
    halves = []
    for step, name in snaps:
        root, a = read_vtk_xml(os.path.join(run_dir, "snapshots", name))
        nphi = int(root.find("StructuredGrid").get("WholeExtent").split()[3]) + 1
        ex = a["E"][:, 0].reshape(nz, nphi, nr)
        n_half = (nphi - 1) // 2  # phi = 180 deg
        plane = np.concatenate([ex[:, n_half, ::-1], ex[:, 0, :]], axis=1)  # x = -r .. r
        halves.append((step, plane))
    extent = [-nr * sp[0], nr * sp[0], 0, nz * sp[2]]
    x = np.linspace(extent[0], extent[1], 2 * nr)
    z = np.linspace(0, extent[3], nz)
    # The feed's near field (1/r^3) dwarfs the radiated wave: the colour scale is set by the
    # field more than 3 cm from the feed (models/cyl_lens.ini: on the axis at z = 0.2 m).
    far = np.hypot(x[None, :], z[:, None] - 0.2) > 0.03
    vmax = max(np.percentile(np.abs(plane[far]), 99.5) for _, plane in halves)
    lens = np.concatenate([eps[:, ::-1], eps], axis=1)
    for ax, (step, plane) in zip(np.atleast_1d(axes), halves):
        im = ax.imshow(plane, origin="lower", extent=extent, cmap="RdBu_r", vmin=-vmax, vmax=vmax)
        ax.contour(x, z, lens, levels=[2], colors="k", linewidths=0.8)
        ax.set_title(f"step {step}", fontsize=9)
        ax.set_xlabel("x (m), plane y = 0")
    np.atleast_1d(axes)[0].set_ylabel("z (m)")
    fig.colorbar(im, ax=axes, shrink=0.8, label="E_x (V/m), clipped near the feed")
    fig.suptitle("models/cyl_lens.ini: E_x from the 3D reconstruction (phi = 0 and 180 deg)",
                 fontsize=10)
    fig.savefig(png)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="the clfdtd program")
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "cyl_models"),
                    help="folder for the PNGs (default out/cyl_models of the checkout; the "
                         "README's pictures: --out docs/img)")
    ap.add_argument("--work", default="/tmp/cyl_models", help="folder for the runs")
    ap.add_argument("--backend", default="", help="device.backend (reference, opencl, cuda)")
    ap.add_argument("--steps", type=int, default=0,
                    help="shorten each run to this many steps (>= 2; the lens snapshots at N/2, N)")
    args = ap.parse_args()
    if args.steps == 1 or args.steps < 0:
        ap.error(f"--steps: at least 2 steps, got {args.steps}")
    short = [f"--time.steps={args.steps}"] if args.steps else []
    os.makedirs(args.out, exist_ok=True)
    cavity, lens = os.path.join(args.work, "cyl_cavity"), os.path.join(args.work, "cyl_lens")
    try:
        run(args.bin, "cyl_cavity.ini", cavity, args.backend, short + (
            ["--snapshot.steps=" + str(args.steps), "--snapshot.phi_samples=0"] if args.steps
            else []))
        run(args.bin, "cyl_lens.ini", lens, args.backend, short + (
            [f"--snapshot.steps={args.steps // 2},{args.steps}", "--snapshot.phi_samples=12"]
            if args.steps else []))
    except RunFailed as e:
        print(f"tools/cyl_models.py: {e}", file=sys.stderr)
        return 1
    for path in (os.path.join(args.out, "cyl_cavity_spectrum.png"),
                 os.path.join(args.out, "cyl_lens.png")):
        (cavity_picture if "cavity" in path else lens_picture)(cavity if "cavity" in path else lens, path)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
