#!/usr/bin/env python3
"""The mesh-object example (models/mesh_sphere.ini): writes its surface file, runs it next to
models/scattering_sphere.ini (the same glass sphere as an analytic shape) and draws both cross
sections against the Mie series (docs/img/mesh_sphere_cross_section.png).

  tools/validation/mesh_models.py --write-stl models/mesh/sphere_mm.stl   # the model's surface
  tools/validation/mesh_models.py --bin build/clfdtd                      # runs -> out/mesh_models/
  tools/validation/mesh_models.py --bin build/clfdtd --out docs/img       # ... the README's picture

The surface is an icosahedron subdivided three times (1280 triangles) with its corners on a
sphere of radius 80, in millimetres as a CAD program would export it: the model reads it with
scale = 1e-3 and puts its centre at the domain's. Prints the largest difference between the two
runs' cross sections and each one's against Mie up to 1.5 GHz; exit 1 when a run fails.
"""

import argparse
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from validation.model_runs import with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

from validation import mie  # noqa: E402

RADIUS_MM = 80.0
EPS_R = 4.0


def icosphere(levels):
    """Corners on the unit sphere and triangles (outward, counter-clockwise) of an icosahedron
    subdivided `levels` times."""
    t = (1 + 5 ** 0.5) / 2
    pts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
           (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    pts = [np.array(p, float) / np.linalg.norm(p) for p in pts]
    tris = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
            (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
            (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(levels):
        mid = {}

        def middle(a, b):
            key = (min(a, b), max(a, b))
            if key not in mid:
                p = pts[a] + pts[b]
                pts.append(p / np.linalg.norm(p))
                mid[key] = len(pts) - 1
            return mid[key]
        new = []
        for a, b, c in tris:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            new += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        tris = new
    return np.array(pts), tris


def write_stl(path, pts, tris):
    """Binary STL: an 80-byte header, the count, then normal and corners per triangle (float32)."""
    with open(path, "wb") as f:
        f.write(b"clfdtd icosphere, radius 80 mm, units mm".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for a, b, c in tris:
            n = np.cross(pts[b] - pts[a], pts[c] - pts[a])
            n /= np.linalg.norm(n)
            f.write(struct.pack("<12fH", *n, *pts[a], *pts[b], *pts[c], 0))


def run(binary, model, out):
    r = subprocess.run([binary, "run", model, "--output.dir=" + out, "--output.overwrite=true"],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        print(f"{model}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        sys.exit(1)


def cross_section(out):
    d = np.genfromtxt(os.path.join(out, "monitors", "scattered.csv"), delimiter=",", names=True)
    return d["frequency_hz"], d["cross_section_m2"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write-stl", metavar="PATH", help="write the model's surface file and stop")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "clfdtd"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "mesh_models"), help="picture folder")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "mesh_models"), help="runs' folder")
    a = ap.parse_args()
    if a.write_stl:
        pts, tris = icosphere(3)
        write_stl(a.write_stl, pts * RADIUS_MM, tris)
        print(f"{a.write_stl}: {len(tris)} triangles")
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    runs = {}
    for name in ("scattering_sphere", "mesh_sphere"):
        out = os.path.join(a.work, name)
        run(a.bin, os.path.join("models", name + ".ini"), out)
        runs[name] = cross_section(out)
    f, analytic = runs["scattering_sphere"]
    _, meshed = runs["mesh_sphere"]
    r = RADIUS_MM * 1e-3
    x = 2 * np.pi * f / 299792458.0 * r
    exact = np.pi * r * r * np.array([mie.q_sca(xi, EPS_R ** 0.5) for xi in x])
    low = f <= 1.5e9
    print(f"up to 1.5 GHz: mesh vs analytic sphere {100 * np.max(np.abs(meshed / analytic - 1)[low]):.2f}%, "
          f"analytic vs Mie {100 * np.max(np.abs(analytic / exact - 1)[low]):.2f}%, "
          f"mesh vs Mie {100 * np.max(np.abs(meshed / exact - 1)[low]):.2f}%")
    fine = np.linspace(f[0], f[-1], 400)
    xf = 2 * np.pi * fine / 299792458.0 * r
    os.makedirs(a.out, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(fine / 1e9, np.pi * r * r * np.array([mie.q_sca(xi, EPS_R ** 0.5) for xi in xf]) * 1e4,
            "k-", lw=1, label="Mie series")
    ax.plot(f / 1e9, analytic * 1e4, "o", mfc="none", label="sphere (object shape = sphere)")
    ax.plot(f / 1e9, meshed * 1e4, "x", label="STL surface, 1280 triangles (shape = mesh)")
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("scattering cross section (cm$^2$)")
    ax.set_title("Glass sphere (eps_r = 4, radius 80 mm), 7.5 mm cells")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path = os.path.join(a.out, "mesh_sphere_cross_section.png")
    fig.savefig(path, dpi=110)
    print(path)


if __name__ == "__main__":
    main()
