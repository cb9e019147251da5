#!/usr/bin/env python3
"""tools/cavity_modes: every mode it writes is an eigenmode of the discrete curl-curl operator
(docs/EQUATIONS.md, PEC walls) at the Yee resonance its CSV gives, the modes are orthonormal
(sum |mode|^2 dV = 1) and, asked for all of them, as many as the grid holds; they come lowest
analytic frequency first; float32 matches float64; the shipped models/cavity_modes.vti and .csv
are what the tool writes for models/cavity_modes.ini; bad input exits 2 with one line.

2D: the tm and te modes of a rectangle are eigenmodes of the 2D curl-curl (d/dz = 0) at their
Yee resonances, orthonormal over dx dy, an nx x ny x 1 image; with the clfdtd program given, a 2D
PEC cavity (tm and te) driven at mode 2's resonance projects mode 2 above the others through a
modes monitor reading the tool's file.

Usage: tests/tools/cavity_modes.py <scratch folder> [<clfdtd program>]   (run from anywhere)
"""

import csv
import itertools
import math
import os
import shutil
import subprocess
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from system_python import reexec_with_system_python  # noqa: E402

reexec_with_system_python("numpy")

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "cavity_modes")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from validation.common import read_vti  # noqa: E402

C0 = 299792458.0
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(*args):
    return subprocess.run([TOOL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def read_table(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def modes_of(path):
    arrays = read_vti(path)
    k = 0
    out = []
    while f"mode_{k}" in arrays:
        out.append(arrays[f"mode_{k}"].astype(np.float64))  # (nx, ny, nz, 3)
        k += 1
    return out


def nxt(a, axis):
    """a[idx + 1] along axis, zero past the end (the PEC wall / outside the grid)."""
    pad = np.zeros_like(np.take(a, [0], axis=axis))
    return np.concatenate([np.take(a, range(1, a.shape[axis]), axis=axis), pad], axis=axis)


def prv(a, axis):
    """a[idx - 1] along axis, zero before the start."""
    pad = np.zeros_like(np.take(a, [0], axis=axis))
    return np.concatenate([pad, np.take(a, range(0, a.shape[axis] - 1), axis=axis)], axis=axis)


def curl_curl(e, d):
    """The update equations' two curls (H from E, then E from H), without coefficients."""
    ex, ey, ez = e[..., 0], e[..., 1], e[..., 2]
    dx, dy, dz = d
    hx = (nxt(ez, 1) - ez) / dy - (nxt(ey, 2) - ey) / dz
    hy = (nxt(ex, 2) - ex) / dz - (nxt(ez, 0) - ez) / dx
    hz = (nxt(ey, 0) - ey) / dx - (nxt(ex, 1) - ex) / dy
    rx = (hz - prv(hz, 1)) / dy - (hy - prv(hy, 2)) / dz
    ry = (hx - prv(hx, 2)) / dz - (hz - prv(hz, 0)) / dx
    rz = (hy - prv(hy, 0)) / dx - (hx - prv(hx, 1)) / dy
    return np.stack([rx, ry, rz], axis=-1)


def pec_mask(n):
    """True at the E samples on the low wall planes (tangential E there is held at zero)."""
    m = np.zeros(tuple(n) + (3,), dtype=bool)
    m[0, :, :, 1] = m[0, :, :, 2] = True    # Ey, Ez at i = 0
    m[:, 0, :, 0] = m[:, 0, :, 2] = True    # Ex, Ez at j = 0
    m[:, :, 0, 0] = m[:, :, 0, 1] = True    # Ex, Ey at k = 0
    return m


def all_modes_analytic(n, d):
    """Every mode the grid holds, independently of the tool: [(f, kind, (m, n, p))]."""
    L = n * d
    out = []
    for m, q, p in itertools.product(range(n[0]), range(n[1]), range(n[2])):
        f = C0 / 2 * math.sqrt((m / L[0]) ** 2 + (q / L[1]) ** 2 + (p / L[2]) ** 2)
        if p >= 1 and (m or q):
            out.append((f, "TE", (m, q, p)))
        if m >= 1 and q >= 1:
            out.append((f, "TM", (m, q, p)))
    return sorted(out, key=lambda e: e[0])


def check_grid_modes(scratch):
    n = np.array([7, 5, 4])
    d = np.array([0.01, 0.012, 0.009])
    courant = 0.8
    dt = courant / (C0 * math.sqrt(np.sum(1 / d ** 2)))
    size = [f"{v:g}" for v in n * d]
    base = ["--size", *size, "--cell", ",".join(map(str, d)), "--courant", str(courant)]
    total = (n[0] * n[1] - 1) * (n[2] - 1) + (n[0] - 1) * (n[1] - 1) * n[2]
    # The non-static part of the grid's E: E samples off the PEC wall minus interior nodes.
    dofs = int(np.sum(~pec_mask(n))) - int(np.prod(n - 1))
    check(total == dofs == 198, f"a 7x5x4 grid holds {total} modes = {dofs} E degrees of freedom "
                                f"off the wall minus the static ones")

    f64 = os.path.join(scratch, "all64.vti")
    r = run(*base, "--float64", str(total), f64)
    check(r.returncode == 0, f"all {total} modes, float64: exit 0 ({r.stderr.strip()})")
    modes = modes_of(f64)
    table = read_table(os.path.join(scratch, "all64.csv"))
    check(len(modes) == len(table) == total, f"{total} arrays and CSV rows ({len(modes)}, "
                                             f"{len(table)})")
    check(all(m.shape == (7, 5, 4, 3) for m in modes), "each mode 7x5x4 cells x 3 components")

    dv = float(np.prod(d))
    flat = np.array([m.ravel() for m in modes])
    gram = flat @ flat.T * dv
    err = np.abs(gram - np.eye(total)).max()
    check(err < 1e-10, f"orthonormal: max |sum mode_a . mode_b dV - delta_ab| = {err:.1e} "
                       f"(bound 1e-10)")

    mask = pec_mask(n)
    worst_res, worst_f, pec_max = 0.0, 0.0, 0.0
    for m, row in zip(modes, table):
        pec_max = max(pec_max, np.abs(m[mask]).max())
        cc = curl_curl(m, d)
        lam = float(np.sum(cc[~mask] * m[~mask]) / np.sum(m[~mask] ** 2))
        res = np.abs(cc - lam * m)[~mask].max() / (abs(lam) * np.abs(m).max())
        worst_res = max(worst_res, res)
        # The Yee resonance of eigenvalue lam: (2 sin(pi f dt) / (c dt))^2 = lam.
        f = math.asin(C0 * dt * math.sqrt(lam) / 2) / (math.pi * dt)
        worst_f = max(worst_f, abs(f / float(row["f_yee_hz"]) - 1))
    check(pec_max == 0.0, f"tangential E on the low walls is zero (max {pec_max:g})")
    check(worst_res < 1e-9, f"curl curl mode = lambda mode off the wall (max relative residual "
                            f"{worst_res:.1e}, bound 1e-9)")
    check(worst_f < 1e-9, f"lambda's Yee frequency = the CSV's f_yee_hz (max relative "
                          f"difference {worst_f:.1e}, bound 1e-9)")

    expected = all_modes_analytic(n, d)
    fa = np.array([float(r["f_analytic_hz"]) for r in table])
    fe = np.array([e[0] for e in expected])
    check(np.abs(fa / fe - 1).max() < 1e-9, "f_analytic_hz: c/2 sqrt((m/a)^2 + (n/b)^2 + "
                                            "(p/d)^2), ascending, the grid's whole set")
    got = sorted((r["type"], int(r["m"]), int(r["n"]), int(r["p"])) for r in table)
    want = sorted((k, *idx) for _, k, idx in expected)
    check(got == want, "the CSV lists each TE_mnp (p >= 1, m n not both 0) and TM_mnp "
                       "(m, n >= 1) once")
    fy = np.array([float(r["f_yee_hz"]) for r in table])
    check(bool(np.all(fy < fa)), "f_yee_hz below f_analytic_hz (the grid's dispersion)")

    # The lowest 25 in float32: the first 25 of the full list, values to float precision.
    f32 = os.path.join(scratch, "low32.vti")
    r = run(*base, "25", f32, "--csv", os.path.join(scratch, "low.csv"))
    check(r.returncode == 0, f"25 modes, float32: exit 0 ({r.stderr.strip()})")
    low = modes_of(f32)
    low_table = read_table(os.path.join(scratch, "low.csv"))
    check(low_table == table[:25], "25 modes: the first 25 rows of the full table")
    diff = max(np.abs(a - b).max() / np.abs(b).max() for a, b in zip(low, modes[:25]))
    check(len(low) == 25 and diff < 1e-6, f"float32 arrays = float64 ones (max relative "
                                          f"difference {diff:.1e})")
    with open(f32, "rb") as f:
        head = f.read(400).decode(errors="replace")
    check('type="Float32"' in head and 'header_type="UInt64"' in head and
          'Spacing="0.01 0.012 0.009"' in head, "Float32 arrays, UInt64 headers, exact spacing")


def curl_curl_2d(e, d, mode):
    """The 2D update equations' two curls (d/dz = 0; contract: tm Ez -> Hx Hy -> Ez, te Ex Ey ->
    Hz -> Ex Ey), without coefficients, on (nx, ny, 1, 3) arrays."""
    dx, dy = d
    out = np.zeros_like(e)
    if mode == "tm":
        ez = e[..., 2]
        hx = -(nxt(ez, 1) - ez) / dy
        hy = (nxt(ez, 0) - ez) / dx
        out[..., 2] = -((hy - prv(hy, 0)) / dx - (hx - prv(hx, 1)) / dy)
    else:
        ex, ey = e[..., 0], e[..., 1]
        hz = -((nxt(ey, 0) - ey) / dx - (nxt(ex, 1) - ex) / dy)
        out[..., 0] = -(hz - prv(hz, 1)) / dy
        out[..., 1] = (hz - prv(hz, 0)) / dx
    return out


def check_2d_modes(scratch):
    n = np.array([7, 5])
    d = np.array([0.01, 0.012])
    courant = 0.8
    dt = courant / (C0 * math.sqrt(np.sum(1 / d ** 2)))
    base = ["--size", *[f"{v:g}" for v in n * d], "--cell", ",".join(map(str, d)),
            "--courant", str(courant), "--float64"]
    for mode, total in (("tm", (n[0] - 1) * (n[1] - 1)), ("te", n[0] * n[1] - 1)):
        path = os.path.join(scratch, f"rect_{mode}.vti")
        r = run(*base, "--mode", mode, str(total), path)
        check(r.returncode == 0, f"2D {mode}: all {total} modes: exit 0 ({r.stderr.strip()})")
        modes = modes_of(path)
        table = read_table(os.path.join(scratch, f"rect_{mode}.csv"))
        check(len(modes) == len(table) == total and
              all(m.shape == (7, 5, 1, 3) for m in modes),
              f"2D {mode}: {total} arrays of 7x5x1 cells x 3 components, {len(table)} CSV rows")
        with open(path, "rb") as f:
            head = f.read(400).decode(errors="replace")
        check('WholeExtent="0 7 0 5 0 1"' in head and 'Spacing="0.01 0.012 1.0"' in head,
              f"2D {mode}: an image of 7 x 5 x 1 cells, Spacing dx dy 1 (1 m of depth)")
        carried = [2] if mode == "tm" else [0, 1]
        other = max(np.abs(m[..., [c for c in range(3) if c not in carried]]).max()
                    for m in modes)
        check(other == 0.0, f"2D {mode}: only the {'Ez' if mode == 'tm' else 'Ex Ey'} "
                            f"components are set (others max {other:g})")
        flat = np.array([m.ravel() for m in modes])
        err = np.abs(flat @ flat.T * float(np.prod(d)) - np.eye(total)).max()
        check(err < 1e-10, f"2D {mode}: orthonormal over dx dy (max error {err:.1e})")
        # Tangential E on the low walls: Ez at i = 0 or j = 0; Ex at j = 0; Ey at i = 0.
        wall = np.zeros((7, 5, 1, 3), dtype=bool)
        wall[0, :, :, 2] = wall[:, 0, :, 2] = wall[:, 0, :, 0] = wall[0, :, :, 1] = True
        keep = ~wall
        keep[..., [c for c in range(3) if c not in carried]] = False
        worst_res, worst_f, on_wall = 0.0, 0.0, 0.0
        for m, row in zip(modes, table):
            on_wall = max(on_wall, np.abs(m[wall]).max())
            cc = curl_curl_2d(m, d, mode)
            lam = float(np.sum(cc[keep] * m[keep]) / np.sum(m[keep] ** 2))
            res = np.abs(cc - lam * m)[keep].max() / (abs(lam) * np.abs(m).max())
            worst_res = max(worst_res, res)
            f = math.asin(C0 * dt * math.sqrt(lam) / 2) / (math.pi * dt)
            worst_f = max(worst_f, abs(f / float(row["f_yee_hz"]) - 1))
        check(on_wall == 0.0, f"2D {mode}: tangential E on the low walls is zero")
        check(worst_res < 1e-9, f"2D {mode}: curl curl mode = lambda mode (max relative residual "
                                f"{worst_res:.1e}, bound 1e-9)")
        check(worst_f < 1e-9, f"2D {mode}: lambda's Yee frequency (2D dt) = the CSV's f_yee_hz "
                              f"(max relative difference {worst_f:.1e})")
        want = sorted((mode.upper(), m, q) for m in range(7) for q in range(5)
                      if (mode == "tm" and m >= 1 and q >= 1) or (mode == "te" and (m or q)))
        got = sorted((r["type"], int(r["m"]), int(r["n"])) for r in table)
        fa = [float(r["f_analytic_hz"]) for r in table]
        check(got == want and fa == sorted(fa) and all(r["p"] == "0" for r in table),
              f"2D {mode}: each {mode.upper()}_mn the grid holds once, lowest first, p = 0")


def write_2d_cavity(path, mode, f_hz, steps, out_vti):
    """A 2D PEC rectangle (0.2 x 0.15 m, 1 cm cells) driven by a sine line current at f_hz away
    from every nodal line of the low modes, with a modes monitor on out_vti."""
    axis = "z" if mode == "tm" else "x"
    with open(path, "w") as f:
        f.write(f"""[grid]
size = 0.2 0.15
cell_size = 0.01
mode = {mode}
courant = 0.9

[time]
steps = {steps}

[boundary]
type = pec

[source.drive]
type = current
axis = {axis}
position = 0.063 0.047
waveform = sine
frequency = {f_hz!r}
amplitude = 1

[monitor.modes]
type = modes
modes_file = {out_vti}
every = 1
""")


def check_2d_run(scratch, binary):
    """A 2D cavity run whose modes monitor reads the tool's file: driven at the Yee resonance of
    mode 2, the projection on mode 2 grows above every other mode's (tm and te)."""
    for mode in ("tm", "te"):
        model = os.path.join(scratch, f"cavity_{mode}.ini")
        vti = os.path.join(scratch, f"cavity_{mode}.vti")
        write_2d_cavity(model, mode, 1e9, 1, vti)  # the tool reads the grid from it
        r = run(model, "6", vti)
        check(r.returncode == 0, f"2D {mode} model: 6 modes from the model file ({r.stderr.strip()})")
        table = read_table(vti[:-4] + ".csv")
        check(all(row["type"] == mode.upper() for row in table),
              f"2D {mode} model: the model's grid.mode picks {mode.upper()} modes")
        f2 = float(table[2]["f_yee_hz"])
        write_2d_cavity(model, mode, f2, 1500, vti)
        out = os.path.join(scratch, f"run_{mode}")
        r = subprocess.run([binary, "run", model, "--backend=reference", "--quiet",
                            f"--output.dir={out}"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode == 2 and "VTK" in r.stdout:
            print(f"skip  2D {mode} run: this build reads no modes files ({r.stdout.strip()})")
            continue
        check(r.returncode == 0, f"2D {mode} run with the tool's modes file: exit 0" +
              ("" if r.returncode == 0 else f" ({r.stdout.strip()[-300:]})"))
        if r.returncode != 0:
            continue
        with open(os.path.join(out, "monitors", "modes.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        peak = [max(abs(float(row[f"mode_{k}"])) for row in rows) for k in range(6)]
        rest = max(p for k, p in enumerate(peak) if k != 2)
        check(peak[2] > 5 * rest, f"2D {mode} run driven at {table[2]['type']}"
                                  f"{table[2]['m']}{table[2]['n']}'s Yee resonance: its projection "
                                  f"peaks at {peak[2]:.3g}, the others at most {rest:.3g} "
                                  f"(bound: 5x)")


def check_shipped_model(scratch):
    out = os.path.join(scratch, "model.vti")
    r = run(os.path.join(ROOT, "models", "cavity_modes.ini"), "10", out)
    check(r.returncode == 0, f"models/cavity_modes.ini 10 modes: exit 0 ({r.stderr.strip()})")
    shipped = modes_of(os.path.join(ROOT, "models", "cavity_modes.vti"))
    made = modes_of(out)
    same = len(shipped) == len(made) == 10 and all(
        a.shape == b.shape and np.abs(a - b).max() <= 1e-6 * np.abs(b).max()
        for a, b in zip(shipped, made))
    check(same, "models/cavity_modes.vti is what the tool writes for models/cavity_modes.ini "
                "(regenerate: see the model's header)")
    with open(os.path.join(ROOT, "models", "cavity_modes.csv")) as a, \
            open(os.path.join(scratch, "model.csv")) as b:
        check(a.read() == b.read(), "models/cavity_modes.csv likewise")


def check_errors(scratch):
    cases = [
        ([os.path.join(ROOT, "models", "dipole.ini"), "3", "x.vti"], "'boundary.type': pec"),
        ([os.path.join(scratch, "none.ini"), "3", "x.vti"], "cannot read the model"),
        (["--size", "0.05", "0.04", "0.03", "--cell", "0.01", "0", "x.vti"],
         "COUNT: a whole number"),
        (["--size", "0.05", "0.04", "0.03", "--cell", "0.01", "200", "x.vti"],
         "at most 74 modes on a 5x4x3-cell grid"),
        (["--size", "0.05", "0.04", "0.03", "--cell", "0.01,0.02", "1", "x.vti"],
         "--cell: expected 1 or 3 numbers"),
        (["--size", "0.05", "0.04", "0.03", "--cell", "0.01,-0.02,0.01", "1", "x.vti"],
         "--cell: expected positive numbers"),
        (["--size", "0.05", "0.04", "0.03", "--cell", "0.01", "2",
          os.path.join(scratch, "no", "such", "x.vti")], "does not exist"),
        (["3", "x.vti"], "MODEL.ini COUNT OUT.vti"),
        (["--size", "0.05", "0.04", "0.03", "--cell", "0.01", "--mode", "te", "1", "x.vti"],
         "--mode: 2D only"),
        (["--size", "0.05", "0.04", "--cell", "0.01", "--mode", "tm", "13", "x.vti"],
         "at most 12 tm modes on a 5x4-cell grid"),
    ]
    for args, expect in cases:
        r = run(*args)
        line = r.stderr.strip()
        check(r.returncode == 2 and expect in line and "\n" not in line and
              not os.path.exists("x.vti"),
              f"{' '.join(os.path.basename(a) for a in args)}: exit 2, '{expect}' ({line})")


def main():
    scratch = os.path.abspath(sys.argv[1])
    binary = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    os.chdir(scratch)  # a stray x.vti from an error case would land here
    check_grid_modes(scratch)
    check_2d_modes(scratch)
    if binary:
        check_2d_run(scratch, binary)
    check_shipped_model(scratch)
    check_errors(scratch)
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
