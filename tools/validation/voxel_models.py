#!/usr/bin/env python3
"""The voxel-object example (models/voxel_soil.ini): writes its soil file, runs it and draws the
README picture (docs/img/voxel_soil.png): the permittivity the grid holds and the radar wave in
it, a slice through the pipe.

  tools/validation/voxel_models.py --write-vti models/voxels/soil.vti   # the model's voxels
  tools/validation/voxel_models.py --bin build/clfdtd                   # run -> out/voxel_models/
  tools/validation/voxel_models.py --bin build/clfdtd --out docs/img    # ... the README's picture

The soil is 60 x 40 x 30 voxels of 1 cm (labels 1 sand, 2 clay lenses, 3 stones), drawn with a
fixed seed: a few flat ellipsoids of clay and some fifty stones of 1.5 to 3 cm in the sand.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from validation.model_runs import with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

from validation.common import read_vti  # noqa: E402
from voxels_to_vti import write_vti  # noqa: E402


def soil_labels():
    """(60, 40, 30) labels of 1 cm voxels: 1 sand, 2 clay, 3 stone."""
    rng = np.random.default_rng(2026)
    n = (60, 40, 30)
    c = [(np.arange(k) + 0.5) * 0.01 for k in n]
    x, y, z = np.meshgrid(*c, indexing="ij")
    labels = np.ones(n, np.uint8)
    for _ in range(4):  # flat clay lenses
        cx, cy, cz = rng.uniform(0.05, 0.55), rng.uniform(0.05, 0.35), rng.uniform(0.03, 0.2)
        ax, ay, az = rng.uniform(0.08, 0.18), rng.uniform(0.06, 0.14), rng.uniform(0.015, 0.03)
        labels[((x - cx) / ax) ** 2 + ((y - cy) / ay) ** 2 + ((z - cz) / az) ** 2 <= 1] = 2
    for _ in range(50):  # stones
        cx, cy, cz = rng.uniform(0, 0.6), rng.uniform(0, 0.4), rng.uniform(0, 0.27)
        r = rng.uniform(0.015, 0.03)
        labels[(x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2 <= r * r] = 3
    return labels


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write-vti", metavar="PATH", help="write the model's voxel file and stop")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "clfdtd"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "voxel_models"), help="picture folder")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "voxel_models"), help="run's folder")
    a = ap.parse_args()
    if a.write_vti:
        labels = soil_labels()
        write_vti(a.write_vti, labels, (10, 10, 10))  # mm, as the model's scale = 1e-3 reads it
        counts = {int(v): int((labels == v).sum()) for v in np.unique(labels)}
        print(f"{a.write_vti}: {labels.shape} voxels, labels {counts}")
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out = os.path.join(a.work, "voxel_soil")
    r = subprocess.run([a.bin, "run", "models/voxel_soil.ini", "--output.dir=" + out,
                        "--output.overwrite=true"], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        print(f"models/voxel_soil.ini: exit {r.returncode}\n{r.stdout}{r.stderr}")
        sys.exit(1)
    model = read_vti(os.path.join(out, "model.vti"))
    snap = read_vti(os.path.join(out, "snapshots", "fields_500.vti"))
    eps = model["eps_r"]
    j = eps.shape[1] // 2
    d = 0.005
    extent = [0, eps.shape[0] * d, 0, eps.shape[2] * d]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    im = axes[0].imshow(eps[:, j, :].T, origin="lower", extent=extent, cmap="viridis")
    fig.colorbar(im, ax=axes[0], label="eps_r")
    axes[0].set_title("eps_r the grid holds (y = 0.2 m): sand, clay, stones, pipe")
    e = snap["E"][:, j, :, 0] if "E" in snap else snap["Ex"][:, j, :]
    lim = np.percentile(np.abs(e), 99.5)
    axes[1].imshow(e.T, origin="lower", extent=extent, cmap="RdBu_r", vmin=-lim, vmax=lim)
    axes[1].contour(np.linspace(0, extent[1], eps.shape[0]), np.linspace(0, extent[3], eps.shape[2]),
                    eps[:, j, :].T, levels=[4.5, 10], colors="k", linewidths=0.5)
    axes[1].set_title("Ex at step 500 (4.3 ns), soil outlines")
    for ax in axes:
        ax.set_xlabel("x (m)")
        ax.set_ylabel("z (m)")
    fig.tight_layout()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "voxel_soil.png")
    fig.savefig(path, dpi=100)
    print(path)


if __name__ == "__main__":
    main()
