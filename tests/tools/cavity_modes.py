#!/usr/bin/env python3
"""tools/cavity_modes: every mode it writes is an eigenmode of the discrete curl-curl operator
(docs/EQUATIONS.md, PEC walls) at the Yee resonance its CSV gives, the modes are orthonormal
(sum |mode|^2 dV = 1) and, asked for all of them, as many as the grid holds; they come lowest
analytic frequency first; float32 matches float64; the shipped models/cavity_modes.vti and .csv
are what the tool writes for models/cavity_modes.ini; bad input exits 2 with one line.

Usage: tests/tools/cavity_modes.py <scratch folder>   (run from anywhere)
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
    ]
    for args, expect in cases:
        r = run(*args)
        line = r.stderr.strip()
        check(r.returncode == 2 and expect in line and "\n" not in line and
              not os.path.exists("x.vti"),
              f"{' '.join(os.path.basename(a) for a in args)}: exit 2, '{expect}' ({line})")


def main():
    scratch = os.path.abspath(sys.argv[1])
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    os.chdir(scratch)  # a stray x.vti from an error case would land here
    check_grid_modes(scratch)
    check_shipped_model(scratch)
    check_errors(scratch)
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
