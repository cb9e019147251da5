#!/usr/bin/env python3
"""tools/slice on a short real run: PNGs of model.vti (eps_r, sigma, material; an anisotropic
model's eps_r per axis, each with its own range) and of a snapshot (|E|) exist, are PNGs of the documented size (640x520 at the default dpi), are not blank inside
the plot (the slab of models/current_over_slab.ini must show in eps_r, sigma and material; the
field must vary) and name file, quantity, plane and step in their title. Bad input exits 2.
A cylindrical run's model.vti and per-mode images: drawn as the (r, z) image (axes r and z, no
plane in the title, the mode m named), the parts of a mode's fields in V/m or A/m on a diverging
colour map (read from the PNG's Description text).

Usage: tests/tools/slice_png.py <clfdtd program> <scratch folder>   (run from the project root)
"""

import os
import shutil
import subprocess
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from system_python import reexec_with_system_python  # noqa: E402

reexec_with_system_python("numpy", "PIL")

import numpy as np  # noqa: E402
from png_checks import colour_count, open_png  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    binary, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    run_dir = os.path.join(scratch, "run")
    r = subprocess.run([binary, "run", os.path.join(ROOT, "models", "current_over_slab.ini"),
                        "--time.steps=30", "--snapshot.steps=30", f"--output.dir={run_dir}",
                        "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: clfdtd run exited {r.returncode}:\n{r.stdout}")
    png_dir = os.path.join(scratch, "png")
    r = subprocess.run([os.path.join(ROOT, "tools", "slice"), run_dir, "--axis", "y", "--out",
                        png_dir], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: tools/slice exited {r.returncode}: {r.stderr}")
    printed = r.stdout.split()
    want = {"model_eps_r_y20.png": 2, "model_sigma_y20.png": 2, "model_material_y20.png": 2,
            "fields_30_E_magnitude_y20.png": 5}  # distinct colours the plot must show at least
    problems = []
    if sorted(os.path.basename(p) for p in printed) != sorted(want):
        problems.append(f"printed {printed}, expected {sorted(want)} in {png_dir}")
    for name, min_colours in want.items():
        img = open_png(os.path.join(png_dir, name), (640, 520), problems, name)
        if img is None:
            continue
        x0, y0, x1, y1 = (int(v) for v in img.text.get("Description", "").split(";")[0].split()[1:5])
        colours = colour_count(np.asarray(img.convert("RGB"))[y0 + 2:y1 - 2, x0 + 2:x1 - 2])
        if colours < min_colours:
            problems.append(f"{name}: {colours} colours inside the plot, expected >= {min_colours}")
        if name.startswith("model_material") and "soil" not in img.text.get("Description", ""):
            problems.append(f"{name}: the colour bar does not name the material soil")
        title = img.text.get("Title", "")
        for part in [run_dir, "plane y = ", "cell 20 of 40"] + \
                (["step 30, t = ", "|E|"] if name.startswith("fields") else []):
            if part not in title:
                problems.append(f"{name}: title '{title}' lacks '{part}'")
    # An anisotropic model: model.vti's 3-vectors drawn one axis at a time, each axis its own
    # values (models/birefringent_slab.ini: eps_r 4, 2.25, 9 along x, y, z in the slab).
    aniso_dir = os.path.join(scratch, "aniso")
    r = subprocess.run([binary, "run", os.path.join(ROOT, "models", "birefringent_slab.ini"),
                        "--time.steps=2", "--backend=reference", f"--output.dir={aniso_dir}", "--quiet"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    r = subprocess.run([os.path.join(ROOT, "tools", "slice"), os.path.join(aniso_dir, "model.vti"),
                        "--axis", "y", "--out", os.path.join(scratch, "aniso_png")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pngs = [os.path.basename(x) for x in r.stdout.split()]
    want_aniso = [f"model_eps_r_{c}_y4.png" for c in "xyz"] + ["model_sigma_y4.png", "model_material_y4.png"]
    if r.returncode != 0 or pngs != want_aniso:
        problems.append(f"anisotropic slice: exit {r.returncode}, got {pngs}, want {want_aniso}: {r.stderr.strip()}")
    else:
        for c, value in zip("xyz", (4, 2.25, 9)):  # the colour bar's top tick: the slab's value
            name = f"model_eps_r_{c}_y4.png"
            img = open_png(os.path.join(scratch, "aniso_png", name), (640, 520), problems, name)
            if img is None:
                continue
            description = img.text.get("Description", "")
            if f"colour bar label relative permittivity along {c} eps_r_{c} (1)" not in description:
                problems.append(f"{name}: Description '{description}' lacks the axis' label")
            ticks = [float(t) for t in description.split("colour bar: ")[-1].split(", ")]
            if not 0.9 * value <= max(ticks) <= 1.1 * value:
                problems.append(f"{name}: colour bar ticks {ticks}, expected the top near {value}")
    bad = subprocess.run([os.path.join(ROOT, "tools", "slice"), run_dir, "--array", "nope",
                          "--out", png_dir], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if bad.returncode != 2 or "no array 'nope'" not in bad.stderr:
        problems.append(f"unknown array: exit {bad.returncode}, {bad.stderr.strip()}")
    # A cylindrical run: model.vti and the per-mode images are one cell thick along y; slice cuts
    # them there by default and draws each mode's E components.
    cyl_dir = os.path.join(scratch, "cyl")
    r = subprocess.run([binary, "run", os.path.join(ROOT, "models", "cyl_cavity.ini"),
                        "--time.steps=40", "--snapshot.steps=40", "--snapshot.phi_samples=0",
                        "--output.dir=" + cyl_dir, "--quiet"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        problems.append(f"cyl_cavity run: exit {r.returncode}: {r.stdout[-400:]}")
    else:
        r = subprocess.run([os.path.join(ROOT, "tools", "slice"), cyl_dir, "--out",
                            os.path.join(scratch, "cyl_png")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        pngs = [os.path.basename(x) for x in r.stdout.split()]
        want_cyl = {"model_material_y0.png", "fields_40_m0_Ez_re_y0.png",
                    "fields_40_m2_Ephi_re_y0.png"}
        if r.returncode != 0 or not want_cyl <= set(pngs):
            problems.append(f"cylindrical slice: exit {r.returncode}, got {pngs}, "
                            f"want {sorted(want_cyl)}: {r.stderr.strip()}")
        # Each is the whole (r, z) image (no y plane, whose spacing is a dummy 1), axes r and z;
        # a mode's field parts are signed, in SI units (E: V/m; H: A/m, --array), on the
        # diverging map of 3D components, titled with the mode m.
        r = subprocess.run([os.path.join(ROOT, "tools", "slice"),
                            os.path.join(cyl_dir, "snapshots", "fields_40_m1.vti"), "--array",
                            "Hphi_im", "--out", os.path.join(scratch, "cyl_png")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            problems.append(f"cylindrical slice --array Hphi_im: exit {r.returncode}: "
                            f"{r.stderr.strip()}")
        cyl_want = {  # PNG: (parts of its title, parts of its Description)
            "model_material_y0.png": (["(r, z) half-plane phi = 0"],
                                      ["colour bar label material (id)"]),
            "fields_40_m0_Ez_re_y0.png": (["mode m = 0, Ez real part, step 40, t = "],
                                          ["colour map RdBu_r",
                                           "colour bar label Ez real part (V/m)"]),
            "fields_40_m2_Ephi_re_y0.png": (["mode m = 2, Ephi real part, step 40, t = "],
                                            ["colour map RdBu_r",
                                             "colour bar label Ephi real part (V/m)"]),
            "fields_40_m1_Hphi_im_y0.png": (["mode m = 1, Hphi imaginary part, step 40, t = "],
                                            ["colour map RdBu_r",
                                             "colour bar label Hphi imaginary part (A/m)"])}
        for name, (title_parts, description_parts) in cyl_want.items():
            img = open_png(os.path.join(scratch, "cyl_png", name), (640, 520), problems, name)
            if img is None:
                continue
            title, description = img.text.get("Title", ""), img.text.get("Description", "")
            for part in title_parts:
                if part not in title:
                    problems.append(f"{name}: title '{title}' lacks '{part}'")
            if "plane" in title.replace("half-plane", ""):
                problems.append(f"{name}: title '{title}' names a plane of the (r, z) image")
            for part in description_parts + ["axis labels r (m), z (m)"]:
                if part not in description:
                    problems.append(f"{name}: Description '{description}' lacks '{part}'")
        bad = subprocess.run([os.path.join(ROOT, "tools", "slice"), cyl_dir, "--axis", "z",
                              "--out", os.path.join(scratch, "cyl_png")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if bad.returncode != 2 or "one cell thick along y" not in bad.stderr:
            problems.append(f"cylindrical --axis z: exit {bad.returncode}, {bad.stderr.strip()}")
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(f"ok: {len(want)} PNGs in {png_dir}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
