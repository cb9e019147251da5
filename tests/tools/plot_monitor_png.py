#!/usr/bin/env python3
"""tools/plot_monitor on short real runs of models/monitor_flux.ini, monitor_farfield.ini,
monitor_dft.ini, cavity_modes.ini, dipole_impedance.ini (a port: port_feed.png), tests/data/two_ports.ini
(a receiving port's S21), tests/data/waveguide_empty.ini and waveguide_probe.ini (waveguide ports:
waveguide_ports.png) and a 2D model with a farfield monitor (a tm line source over a
PEC wall; the 2D file has theta = 90 on every row and no directions behind the wall): it prints
exactly the PNGs each monitor type gives (flux.png; pattern_<f>GHz.png per frequency, 3D: four
panels, 2D: one polar plot; plane_Ez_re_<f>GHz.png per frequency; modes.png), each a PNG of the documented size (figure
inches x dpi) with more than a few colours inside (not blank), and the picked frequency alone with
--frequency; and Touchstone files (clfdtd sparams's two-port of the two_ports.ini runs, a run's
.s1p, a three-port written here) as sparams_<stem>.png. Bad input exits 2 with a message: an
unknown monitor, a field the file lacks, a run folder without run.json, a Touchstone file with a
line that is not numbers or in another format than HZ S RI.

Usage: tests/tools/plot_monitor_png.py <clfdtd program> <scratch folder>   (run from the root)
"""

import os
import shutil
import subprocess
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from system_python import reexec_with_system_python  # noqa: E402

reexec_with_system_python("numpy", "PIL")

from png_checks import colour_count, open_png  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "plot_monitor")
DPI = 50  # small pictures: faster, and the size check still tells figure size x dpi

# A 2D tm line source half a wavelength (at 1.5 GHz) over a PEC wall at y = 0, 8 UPML layers on the
# other three sides; the farfield contour stands on the wall (docs/MONITORS.md, 2D models).
FARFIELD_2D = """[grid]
size = 0.6 0.4
cell_size = 0.01
[time]
steps = 300
[boundary]
type = upml
layers = 8 8 0 8
[source.line]
type = current
axis = z
position = 0.3 0.1
waveform = gaussian_pulse
frequency = 1.5e9
[monitor.pattern]
type = farfield
box = 0.15 0.0 0.45 0.25
frequencies = 1e9 1.5e9
phi_step = 5
"""


# models/scattering_sphere.ini lit obliquely, with a farfield monitor beside its flux monitor:
# the pattern's title gives the monostatic RCS (its code path runs here; the numbers are the
# CLI tests' and docs/MONITORS.md's).
RCS_PATTERN = """
[monitor.pattern]
type = farfield
box = 0.1 0.1 0.1 0.5 0.5 0.5
frequencies = 1e9
theta_step = 15
phi_step = 30
"""


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main():
    binary, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    problems = []
    farfield_2d = os.path.join(scratch, "farfield_2d.ini")
    with open(farfield_2d, "w") as f:
        f.write(FARFIELD_2D)
    rcs = os.path.join(scratch, "rcs_sphere.ini")
    with open(os.path.join(ROOT, "models", "scattering_sphere.ini")) as src, open(rcs, "w") as f:
        f.write(src.read().replace("max_frequency = 4e9", "max_frequency = 2e9")
                .replace("direction = +x", "direction = 0.75 0.4330127 -0.5") + RCS_PATTERN)
    # model (models/<name>.ini, or a path), steps, extra tool arguments,
    # {PNG name: (width, height) in pixels}
    cases = [
        (farfield_2d, 300, [], {f"pattern_{f}GHz.png": (320, 320) for f in ("1", "1.5")}),
        (farfield_2d, 300, ["--frequency", "1.6e9"], {"pattern_1.5GHz.png": (320, 320)}),
        ("monitor_flux", 200, [], {"flux.png": (350, 210)}),
        (rcs, 1155, ["--monitor", "pattern"], {"pattern_1GHz.png": (550, 450)}),
        ("monitor_farfield", 200, [],
         {f"pattern_{f}GHz.png": (550, 450) for f in ("1", "1.5", "2")}),
        ("monitor_farfield", 200, ["--frequency", "1.4e9"], {"pattern_1.5GHz.png": (550, 450)}),
        ("monitor_dft", 200, ["--field", "Ez", "--part", "re"],
         {f"plane_Ez_re_{f}GHz.png": (320, 260) for f in ("1", "1.5", "2")}),
        ("cavity_modes", 400, [], {"modes.png": (600, 250)}),
        # a port and a farfield monitor: the pattern's title gives the gain
        ("dipole_impedance", 400, [], {"port_feed.png": (500, 200),
                                       **{f"pattern_{f}GHz.png": (550, 450) for f in ("0.6", "0.94", "1.5")}}),
        ("pec_cavity", 400, [], {"probes.png": (400, 320)}),  # a probe's E and H: two axes
        (os.path.join(ROOT, "tests", "data", "two_ports.ini"), 300, [],
         {"port_a.png": (500, 200), "port_b.png": (250, 200)}),
        # waveguide ports: |S11|, |S21| and the power they account for
        (os.path.join(ROOT, "tests", "data", "waveguide_empty.ini"), 600, [],
         {"waveguide_ports.png": (550, 210), "probes.png": (400, 160)}),
        # a lumped port driving a waveguide port: its port_<name>.png, the guide's S21 alone
        (os.path.join(ROOT, "tests", "data", "waveguide_probe.ini"), 600, [],
         {"port_p.png": (500, 200), "waveguide_ports.png": (375, 210)}),
    ]
    done = {}
    for k, (model, steps, extra, want) in enumerate(cases):
        run_dir = os.path.join(scratch, os.path.basename(model).replace(".ini", ""))
        if model not in done:
            path = model if model.endswith(".ini") else os.path.join(ROOT, "models", model + ".ini")
            r = run([binary, "run", path, f"--time.steps={steps}", f"--output.dir={run_dir}",
                     "--quiet"])
            if r.returncode != 0:
                sys.exit(f"FAIL: clfdtd run {model} exited {r.returncode}:\n{r.stdout}{r.stderr}")
            done[model] = run_dir
        png_dir = os.path.join(scratch, f"png{k}")
        r = run([TOOL, run_dir, "--out", png_dir, "--dpi", str(DPI)] + extra)
        if r.returncode != 0:
            problems.append(f"{model} {extra}: tools/plot_monitor exited {r.returncode}: {r.stderr}")
            continue
        printed = sorted(os.path.basename(p) for p in r.stdout.split())
        if printed != sorted(want):
            problems.append(f"{model} {extra}: printed {printed}, expected {sorted(want)}")
        for name, size in want.items():
            img = open_png(os.path.join(png_dir, name), size, problems, f"{model}: {name}")
            if img is None:
                continue
            colours = colour_count(img)
            if colours < 20:
                problems.append(f"{model}: {name} has {colours} colours (blank?)")
    # Touchstone files: the two-port of clfdtd sparams (version 2.0: 50 and 100 ohm), the run's
    # .s1p, and a three-port written here (version 1.1, rows on lines of their own).
    two = os.path.join(ROOT, "tests", "data", "two_ports.ini")
    run_b = os.path.join(scratch, "two_ports_b")
    r = run([binary, "run", two, "--time.steps=300", f"--output.dir={run_b}", "--quiet",
             "--source.a.amplitude=0", "--source.b.amplitude=1"])
    s2p = os.path.join(scratch, "two_ports.s2p")
    if r.returncode == 0:
        r = run([binary, "sparams", done[two], run_b, f"--output={s2p}"])
    if r.returncode != 0:
        sys.exit(f"FAIL: the second two-port run or clfdtd sparams exited {r.returncode}:\n"
                 f"{r.stdout}{r.stderr}")
    s3p = os.path.join(scratch, "three.s3p")
    with open(s3p, "w") as f:
        f.write("! made up\n# HZ S RI R 50\n")
        for k, fr in enumerate((1e9, 1.5e9, 2e9)):
            rows = [[0.5 - 0.1 * k if i == j else 0.1 + 0.05 * (i + j) for j in range(3)]
                    for i in range(3)]
            f.write(f"{fr:g}" + "\n".join(" " + " ".join(f"{v:g} 0.01" for v in row)
                                        for row in rows) + "\n")
    files = [(s2p, {"sparams_two_ports.png": (500, 200)}),
             (os.path.join(done[two], "ports", "a.s1p"), {"sparams_a.png": (500, 200)}),
             (s3p, {"sparams_three.png": (500, 200)})]
    for k, (path, want) in enumerate(files):
        png_dir = os.path.join(scratch, f"touchstone{k}")
        r = run([TOOL, path, "--out", png_dir, "--dpi", str(DPI)])
        printed = sorted(os.path.basename(p) for p in r.stdout.split())
        if r.returncode != 0 or printed != sorted(want):
            problems.append(f"{path}: exit {r.returncode}, printed {printed}: {r.stderr}")
            continue
        for name, size in want.items():
            img = open_png(os.path.join(png_dir, name), size, problems, f"{path}: {name}")
            if img is not None and colour_count(img) < 20:
                problems.append(f"{path}: {name} is blank")
    garbage = os.path.join(scratch, "garbage.s2p")
    with open(garbage, "w") as f:
        f.write("# HZ S RI R 50\n1e9 0.5 x\n")
    magnitude = os.path.join(scratch, "magnitude.s1p")
    with open(magnitude, "w") as f:
        f.write("# GHZ S MA R 50\n1 0.5 10\n")
    bad = [([garbage], "a data line that is not numbers"),
           ([magnitude], "expected the option line '# HZ S RI R <ohm>'"),
           ([done["monitor_flux"], "--monitor", "nope"], "no monitor or port 'nope'"),
           ([done["monitor_dft"], "--field", "Hz"], "no field 'Hz'"),
           ([scratch], "cannot read a run report")]
    for args, text in bad:
        r = run([TOOL] + args + ["--out", os.path.join(scratch, "bad")])
        if r.returncode != 2 or text not in r.stderr:
            problems.append(f"{args}: exit {r.returncode}, stderr '{r.stderr.strip()}', "
                            f"expected 2 and '{text}'")
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(f"ok: {len(cases)} plot runs, {len(files)} Touchstone files and {len(bad)} refusals")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
