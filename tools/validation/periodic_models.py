#!/usr/bin/env python3
"""The periodic-boundary examples (docs/PERIODIC.md): runs models/periodic_slab.ini,
models/wire_grid.ini, models/birefringent_slab.ini and models/wire_medium_slab.ini (the latter
three twice, one run per polarisation) and models/salisbury_screen.ini, and draws their
transmittance T and reflectance R (docs/img/periodic_slab.png, docs/img/wire_grid.png,
docs/img/birefringent_slab.png, docs/img/wire_medium_slab.png, docs/img/salisbury_screen.png).

  tools/validation/periodic_models.py                          # runs in a temporary folder
  tools/validation/periodic_models.py --work /tmp/periodic     # ... kept there
  tools/validation/periodic_models.py --out pics               # pictures elsewhere

Each model is one unit cell repeated along x and y, lit by a plane wave at normal incidence;
its flux planes span the whole period, so cross_section_m2 over the period's area is T (plane
`t`, total field past the structure) and -R (plane `r`, scattered field before the total-field
box). The slab (eps_r = 4, 12 mm) is compared with the Fabry-Perot transmission

    T = 1 / (1 + ((n^2 - 1) / 2n)^2 sin^2(k d)),   R = 1 - T,

k the grid's wavenumber in the slab, sin(k dz / 2) / dz = sin(w dt / 2) / (v dt), v = c / n (dt
and dz from the run's run.json). The flux monitor reads a wave crossing its plane low by
cos(k0 dz / 2) (docs/MONITORS.md, "Cross sections"; k0 the grid's wavenumber in vacuum, -0.3%
at 15 GHz here), so T + R = cos(k0 dz / 2) rather than 1: the deviations are printed as read and
with that factor divided out. The wire grid (PEC wires along y, 5 mm period) has no closed form
here: T and R for both polarisations are printed and drawn. The birefringent slab (eps_r 4 along
x, 2.25 along y, 12 mm; docs/EQUATIONS.md "Anisotropic materials") is compared, for E along x and
along y, with the formula of that polarisation's index (2 and 1.5). The wire medium slab (a
Drude plasma along x, f_p 9 GHz, gamma 0.2 GHz, vacuum along y and z; 12 mm) is compared, for E
along x, with the slab formula for a complex index n = sqrt(eps(f)),

    T = |(1 - r^2) e^{ikd} / (1 - r^2 e^{2ikd})|^2,   r = (1 - n) / (1 + n),

k the grid's (complex) wavenumber, the root that decays into the slab, and for E along y with
T = 1 (vacuum). The Salisbury screen (a lumped 376.73 ohm resistor across the period's Ex samples,
a sheet of 376.73 ohm per square, 7.5 mm in front of a PEC plate; docs/PORTS.md "Lumped
elements") is compared with transmission-line theory,

    R = |(Z - eta0) / (Z + eta0)|^2,   1 / Z = 1 / R_s + 1 / (i eta0 tan(k0 d)),

k0 the grid's wavenumber in vacuum. Exit 1 when a run fails or a slab's T or the screen's R
(factor divided out) is more than 0.01 from its formula.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model_runs import parse_args, run, runs_folder, with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

C0 = 299792458.0
EPS_SLAB = 4.0        # models/periodic_slab.ini: material.glass, object.slab
D_SLAB = 0.012
EPS_CRYSTAL = {"x": 4.0, "y": 2.25}  # models/birefringent_slab.ini: material.crystal along x, y
F_PLASMA, GAMMA_PLASMA = 9e9, 0.2e9  # models/wire_medium_slab.ini: material.plasma (wires along x)
R_SHEET, D_SHEET = 376.73, 0.0075  # models/salisbury_screen.ini: lumped.sheet, sheet to plate
ETA0 = 376.730313668
TOLERANCE = 0.01      # |T - T_analytic|, as tests/parallel/test_periodic.cpp


def t_and_r(out, info):
    """Frequencies (Hz), T and R from the two flux planes of a run."""
    area = 1.0
    for a in (0, 1):  # the period along x and y: cells x cell size
        area *= info["cells"][a] * info["cell_size_m"][a]
    t = np.genfromtxt(os.path.join(out, "monitors", "t.csv"), delimiter=",", names=True)
    r = np.genfromtxt(os.path.join(out, "monitors", "r.csv"), delimiter=",", names=True)
    return t["frequency_hz"], t["cross_section_m2"] / area, -r["cross_section_m2"] / area


def grid_k(f, v, dt, dz):
    """The grid's wavenumber along z for a wave of speed v: sin(k dz/2)/dz = sin(w dt/2)/(v dt)."""
    return 2.0 / dz * np.arcsin(dz / (v * dt) * np.sin(np.pi * f * dt))


def fabry_perot(f, dt, dz, eps=EPS_SLAB):
    """Transmittance of the slab, with the grid's wavenumber in it."""
    n = eps ** 0.5
    k = grid_k(f, C0 / n, dt, dz)
    return 1.0 / (1.0 + ((n * n - 1) / (2 * n)) ** 2 * np.sin(k * D_SLAB) ** 2)


def slab_complex(f, dt, dz, eps, reflected=False):
    """Transmittance (or reflectance) of a slab of complex permittivity eps(f) (Im eps > 0:
    loss), with the grid's wavenumber in it: the root that decays into the slab."""
    n = np.sqrt(eps.astype(complex))
    k = 2.0 / dz * np.arcsin(dz * n / (C0 * dt) * np.sin(np.pi * f * dt))
    k = np.where((k.imag < 0) | ((k.imag == 0) & (k.real < 0)), -k, k)
    r = (1 - n) / (1 + n)
    round_trip = np.exp(2j * k * D_SLAB)
    if reflected:
        return np.abs(r * (1 - round_trip) / (1 - r * r * round_trip)) ** 2
    return np.abs((1 - r * r) * np.exp(1j * k * D_SLAB) / (1 - r * r * round_trip)) ** 2


def plasma_eps(f):
    return 1 - F_PLASMA ** 2 / (f * f + 1j * f * GAMMA_PLASMA)


def slab(a, plt):
    out = os.path.join(a.work, "periodic_slab")
    info, wall = run(a.bin, "models/periodic_slab.ini", out)
    f, T, R = t_and_r(out, info)
    dt, dz = info["dt_s"], info["cell_size_m"][2]
    Ta = fabry_perot(f, dt, dz)
    read_low = np.cos(grid_k(f, C0, dt, dz) * dz / 2)  # the flux planes' cos(k0 dz / 2)
    print(f"\nslab: eps_r {EPS_SLAB:g}, d = {D_SLAB * 1e3:g} mm, dz = {dz * 1e3:g} mm, dt = {dt:.6g} s")
    print(f"{'f (GHz)':>8} {'T':>8} {'T an.':>8} {'R':>8} {'R an.':>8} {'T+R':>8} {'cos(k0dz/2)':>12}")
    for row in zip(f / 1e9, T, Ta, R, 1 - Ta, T + R, read_low):
        print(f"{row[0]:8.2f} {row[1]:8.4f} {row[2]:8.4f} {row[3]:8.4f} {row[4]:8.4f} {row[5]:8.4f} {row[6]:12.5f}")
    dT, dR, dS = np.abs(T - Ta), np.abs(R - (1 - Ta)), np.abs(T + R - 1)
    Tc, Rc = T / read_low, R / read_low
    dTc, dRc, dSc = np.abs(Tc - Ta), np.abs(Rc - (1 - Ta)), np.abs(Tc + Rc - 1)
    print(f"as read:             max |T - T_an| {dT.max():.4f} (at {f[dT.argmax()] / 1e9:g} GHz), "
          f"max |R - R_an| {dR.max():.4f}, max |T + R - 1| {dS.max():.4f} (at {f[dS.argmax()] / 1e9:g} GHz)")
    print(f"/ cos(k0 dz / 2):    max |T - T_an| {dTc.max():.4f} (at {f[dTc.argmax()] / 1e9:g} GHz), "
          f"max |R - R_an| {dRc.max():.4f}, max |T + R - 1| {dSc.max():.4f}")

    fine = np.linspace(1.5e9, 15.5e9, 500)
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    ax.plot(fine / 1e9, fabry_perot(fine, dt, dz), "-", color="C0", lw=1.2, label="T, Fabry-Perot")
    ax.plot(fine / 1e9, 1 - fabry_perot(fine, dt, dz), "-", color="C3", lw=1.2, label="R = 1 - T")
    ax.plot(f / 1e9, T, "o", color="C0", mfc="none", ms=6, label="T, clfdtd (flux plane t)")
    ax.plot(f / 1e9, R, "s", color="C3", mfc="none", ms=5, label="R, clfdtd (flux plane r)")
    ax.plot(f / 1e9, T + R, "^", color="0.4", ms=4, label="T + R, clfdtd")
    ax.set_xlim(fine[0] / 1e9, fine[-1] / 1e9)
    ax.set_ylim(-0.03, 1.08)
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("transmittance, reflectance")
    ax.set_title(f"Slab eps_r = 4, {D_SLAB * 1e3:g} mm, in a periodic 4 x 4 mm cell, "
                 f"normal incidence\n{dz * 1e3:g} mm cells; max |T - T_analytic| = {dT.max():.4f}, "
                 f"max |T + R - 1| = {dS.max():.4f}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="center", ncol=3, fontsize=8.5, framealpha=0.9)
    fig.tight_layout()
    path = os.path.join(a.out, "periodic_slab.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)
    return dTc.max(), wall


def both_polarisations(a, name):
    """models/<name>.ini run with E along x and along y: (f, T and R) per polarisation, the two
    wall times, dt, dz, and the flux planes' cos(k0 dz / 2) at the frequencies f."""
    res, walls = {}, []
    for pol in ("x", "y"):
        out = os.path.join(a.work, name + "_" + pol)
        info, wall = run(a.bin, f"models/{name}.ini", out, "--source.pw.axis=" + pol)
        res[pol] = t_and_r(out, info)
        walls.append(wall)
    dt, dz = info["dt_s"], info["cell_size_m"][2]
    read_low = np.cos(grid_k(res["x"][0], C0, dt, dz) * dz / 2)
    return res, walls, dt, dz, read_low


def birefringent(a, plt):
    """Both polarisations through models/birefringent_slab.ini; returns the worst |T - T_an| (the
    flux planes' factor divided out) and the two wall times."""
    res, walls, dt, dz, read_low = both_polarisations(a, "birefringent_slab")
    f = res["x"][0]
    print("\nbirefringent slab: eps_r 4 along x, 2.25 along y, d = 12 mm")
    print(f"{'f (GHz)':>8} {'T (E x)':>8} {'T an.':>8} {'T (E y)':>8} {'T an.':>8}")
    worst = 0.0
    Ta = {pol: fabry_perot(f, dt, dz, EPS_CRYSTAL[pol]) for pol in ("x", "y")}
    for row in zip(f / 1e9, res["x"][1], Ta["x"], res["y"][1], Ta["y"]):
        print(f"{row[0]:8.2f} {row[1]:8.4f} {row[2]:8.4f} {row[3]:8.4f} {row[4]:8.4f}")
    for pol in ("x", "y"):
        d = np.abs(res[pol][1] / read_low - Ta[pol])
        other = np.abs(res[pol][1] / read_low - Ta["y" if pol == "x" else "x"])
        print(f"E along {pol}: max |T - T_an| {d.max():.4f} (factor divided out; at "
              f"{f[d.argmax()] / 1e9:g} GHz); against the other index's formula {other.max():.4f}")
        worst = max(worst, d.max())

    fine = np.linspace(1.5e9, 15.5e9, 500)
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    for pol, color, mark in (("x", "C0", "o"), ("y", "C2", "s")):
        n = EPS_CRYSTAL[pol] ** 0.5
        ax.plot(fine / 1e9, fabry_perot(fine, dt, dz, EPS_CRYSTAL[pol]), "-", color=color, lw=1.2,
                label=f"E along {pol} (n = {n:g}): Fabry-Perot")
        ax.plot(f / 1e9, res[pol][1], mark, color=color, mfc="none", ms=6, label=f"E along {pol}: clfdtd")
    ax.set_xlim(fine[0] / 1e9, fine[-1] / 1e9)
    ax.set_ylim(0.55, 1.03)
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("transmittance")
    ax.set_title("Birefringent slab (eps_r = 4 2.25 9), 12 mm, in a periodic 4 x 4 mm cell, "
                 f"normal incidence\n{dz * 1e3:g} mm cells; max |T - T_analytic| = {worst:.4f} "
                 "(flux planes' cos(k0 dz / 2) divided out)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", ncol=2, fontsize=8.5, framealpha=0.9)
    fig.tight_layout()
    path = os.path.join(a.out, "birefringent_slab.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)
    return worst, walls


def wire_medium(a, plt):
    """Both polarisations through models/wire_medium_slab.ini; returns the worst |T - T_an| (the
    flux planes' factor divided out) and the two wall times."""
    res, walls, dt, dz, read_low = both_polarisations(a, "wire_medium_slab")
    f = res["x"][0]
    Ta = {"x": slab_complex(f, dt, dz, plasma_eps(f)), "y": np.ones_like(f)}
    print(f"\nwire medium slab: Drude along x (f_p {F_PLASMA / 1e9:g} GHz, gamma "
          f"{GAMMA_PLASMA / 1e9:g} GHz), vacuum along y and z, d = 12 mm")
    print(f"{'f (GHz)':>8} {'T (E x)':>8} {'T an.':>8} {'R (E x)':>8} {'T (E y)':>8}")
    for row in zip(f / 1e9, res["x"][1], Ta["x"], res["x"][2], res["y"][1]):
        print(f"{row[0]:8.2f} {row[1]:8.4f} {row[2]:8.4f} {row[3]:8.4f} {row[4]:8.4f}")
    worst = 0.0
    for pol in ("x", "y"):
        d = np.abs(res[pol][1] / read_low - Ta[pol])
        print(f"E along {pol}: max |T - T_an| {d.max():.5f} (factor divided out; at {f[d.argmax()] / 1e9:g} GHz)")
        worst = max(worst, d.max())

    fine = np.linspace(1.5e9, 15.5e9, 500)
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    ax.plot(fine / 1e9, slab_complex(fine, dt, dz, plasma_eps(fine)), "-", color="C0", lw=1.2,
            label="E along x (the wires): T, formula")
    ax.plot(f / 1e9, res["x"][1], "o", color="C0", mfc="none", ms=6, label="E along x: T, clfdtd")
    ax.plot(fine / 1e9, slab_complex(fine, dt, dz, plasma_eps(fine), reflected=True), "-", color="C3",
            lw=1.0, label="E along x: R, formula")
    ax.plot(f / 1e9, res["x"][2], "^", color="C3", mfc="none", ms=5, label="E along x: R, clfdtd")
    ax.plot(fine / 1e9, np.ones_like(fine), "-", color="C2", lw=1.2, label="E along y (across): vacuum, T = 1")
    ax.plot(f / 1e9, res["y"][1], "s", color="C2", mfc="none", ms=5, label="E along y: T, clfdtd")
    ax.axvline(F_PLASMA / 1e9, color="0.5", lw=0.8, ls=":")
    ax.text(F_PLASMA / 1e9 + 0.1, 0.02, "f_p", color="0.4", fontsize=9)
    ax.set_xlim(fine[0] / 1e9, fine[-1] / 1e9)
    ax.set_ylim(-0.03, 1.08)
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("transmittance, reflectance")
    ax.set_title("Wire medium slab, 12 mm (axes = plasma vacuum vacuum: Drude along x, f_p 9 GHz),\n"
                 f"periodic 4 x 4 mm cell, normal incidence, {dz * 1e3:g} mm cells; "
                 f"max |T - T_analytic| = {worst:.4f}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(0.01, 0.55), fontsize=8.5, framealpha=0.9)
    fig.tight_layout()
    path = os.path.join(a.out, "wire_medium_slab.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)
    return worst, walls


def wire_grid(a, plt):
    res = {}
    walls = []
    for pol, over in (("parallel", ()), ("perpendicular", ("--source.pw.axis=x",))):
        out = os.path.join(a.work, "wire_grid_" + pol)
        info, wall = run(a.bin, "models/wire_grid.ini", out, *over)
        res[pol] = t_and_r(out, info)
        walls.append(wall)
    f, Tp, Rp = res["parallel"]
    _, Ts, Rs = res["perpendicular"]
    print("\nwire grid: PEC wires 1 x 1 mm along y, 5 mm apart along x")
    print(f"{'f (GHz)':>8} {'T (E//)':>9} {'R (E//)':>9} {'T (E_|_)':>9} {'R (E_|_)':>9} "
          f"{'T_|_/T// (dB)':>14}")
    for row in zip(f / 1e9, Tp, Rp, Ts, Rs):
        print(f"{row[0]:8.1f} {row[1]:9.4f} {row[2]:9.4f} {row[3]:9.4f} {row[4]:9.4f} "
              f"{10 * np.log10(row[3] / row[1]):14.1f}")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    ax.plot(f / 1e9, Ts, "o-", color="C0", ms=4, label="T, E across the wires (axis = x)")
    ax.plot(f / 1e9, Tp, "s-", color="C3", ms=4, label="T, E along the wires (axis = y)")
    ax.plot(f / 1e9, Rs, "o--", color="C0", ms=3, mfc="none", lw=0.8, label="R, E across")
    ax.plot(f / 1e9, Rp, "s--", color="C3", ms=3, mfc="none", lw=0.8, label="R, E along")
    ax.set_ylim(-0.03, 1.05)
    ax.set_ylabel("transmittance, reflectance")
    ax.set_title("Transmittance and reflectance", fontsize=10)
    ax.legend(loc="center right", fontsize=8.5, framealpha=0.9)
    ax = axes[1]
    ax.plot(f / 1e9, 10 * np.log10(Ts), "o-", color="C0", ms=4, label="T, E across the wires")
    ax.plot(f / 1e9, 10 * np.log10(Tp), "s-", color="C3", ms=4, label="T, E along the wires")
    ax.set_ylabel("transmittance (dB)")
    ax.set_title("Transmittance in dB: the polariser's extinction", fontsize=10)
    ax.legend(loc="center right", fontsize=8.5, framealpha=0.9)
    for ax in axes:
        ax.set_xlabel("frequency (GHz)")
        ax.set_xlim(0, f[-1] / 1e9 + 1)
        ax.grid(alpha=0.3)
    fig.suptitle("Wire grid: PEC wires 1 x 1 mm along y, period 5 mm along x (diffraction above "
                 "60 GHz), normal incidence, 0.5 mm cells", fontsize=10.5)
    fig.tight_layout()
    path = os.path.join(a.out, "wire_grid.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)
    return walls


def salisbury_r(f, dt, dz):
    """Reflectance of the resistive sheet R_SHEET in front of a short at D_SHEET (the grid's k0)."""
    shorted = 1j * ETA0 * np.tan(grid_k(f, C0, dt, dz) * D_SHEET)
    z = 1 / (1 / R_SHEET + 1 / shorted)
    return np.abs((z - ETA0) / (z + ETA0)) ** 2


def salisbury(a, plt):
    """models/salisbury_screen.ini; returns the worst |R - R_an| (the flux plane's factor divided
    out) and the wall time."""
    out = os.path.join(a.work, "salisbury_screen")
    info, wall = run(a.bin, "models/salisbury_screen.ini", out)
    area = info["cells"][0] * info["cell_size_m"][0] * info["cells"][1] * info["cell_size_m"][1]
    r = np.genfromtxt(os.path.join(out, "monitors", "r.csv"), delimiter=",", names=True)
    f, R = r["frequency_hz"], -r["cross_section_m2"] / area
    dt, dz = info["dt_s"], info["cell_size_m"][2]
    Ra = salisbury_r(f, dt, dz)
    read_low = np.cos(grid_k(f, C0, dt, dz) * dz / 2)
    print(f"\nSalisbury screen: {R_SHEET:g} ohm per square (lumped.sheet), "
          f"{D_SHEET * 1e3:g} mm in front of a PEC plate")
    print(f"{'f (GHz)':>8} {'R':>9} {'R an.':>9}")
    for row in zip(f / 1e9, R, Ra):
        print(f"{row[0]:8.2f} {row[1]:9.5f} {row[2]:9.5f}")
    d = np.abs(R / read_low - Ra)
    print(f"max |R - R_an| {np.abs(R - Ra).max():.5f} as read, {d.max():.5f} with the factor divided "
          f"out (at {f[d.argmax()] / 1e9:g} GHz); R at 10 GHz {R[np.argmin(np.abs(f - 10e9))]:.2e}")

    fine = np.linspace(1.5e9, 18.5e9, 500)
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    ax.plot(fine / 1e9, salisbury_r(fine, dt, dz), "-", color="C3", lw=1.2,
            label="R, transmission-line formula")
    ax.plot(f / 1e9, R, "o", color="C3", mfc="none", ms=6, label="R, clfdtd (flux plane r)")
    with np.errstate(divide="ignore"):
        db = 10 * np.log10(np.maximum(R, 1e-12))
    ax2 = ax.twinx()
    ax2.plot(f / 1e9, db, "s", color="C0", mfc="none", ms=4, label="R, clfdtd (dB, right)")
    ax2.plot(fine / 1e9, 10 * np.log10(np.maximum(salisbury_r(fine, dt, dz), 1e-12)), "-",
             color="C0", lw=0.8, alpha=0.6)
    ax2.set_ylim(-60, 5)
    ax2.set_ylabel("reflectance (dB)")
    ax.set_xlim(fine[0] / 1e9, fine[-1] / 1e9)
    ax.set_ylim(-0.02, 1.0)
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("reflectance")
    ax.set_title(f"Salisbury screen: a lumped {R_SHEET:g} ohm sheet {D_SHEET * 1e3:g} mm in front of "
                 f"a PEC plate,\nperiodic 4 x 4 mm cell, normal incidence, {dz * 1e3:g} mm cells; "
                 f"max |R - R_analytic| = {np.abs(R - Ra).max():.4f}", fontsize=10)
    ax.grid(alpha=0.3)
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper center", fontsize=8.5,
              framealpha=0.9)
    fig.tight_layout()
    path = os.path.join(a.out, "salisbury_screen.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)
    return d.max(), wall


def main():
    a = parse_args(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with runs_folder(a.work, "periodic_models_") as a.work:
        worst, wall_slab = slab(a, plt)
        walls = wire_grid(a, plt)
        worst_crystal, walls_crystal = birefringent(a, plt)
        worst_wires, walls_wires = wire_medium(a, plt)
        worst_screen, wall_screen = salisbury(a, plt)
    print(f"\nrun times: slab {wall_slab:.1f} s, wire grid {walls[0]:.1f} s (E along) + "
          f"{walls[1]:.1f} s (E across), birefringent slab {walls_crystal[0]:.1f} s (E x) + "
          f"{walls_crystal[1]:.1f} s (E y), wire medium slab {walls_wires[0]:.1f} s (E x) + "
          f"{walls_wires[1]:.1f} s (E y), Salisbury screen {wall_screen:.1f} s")
    failed = False
    for name, w in (("slab", worst), ("birefringent slab", worst_crystal), ("wire medium slab", worst_wires)):
        if w > TOLERANCE:
            print(f"FAIL: the {name}'s T is {w:.4f} from the Fabry-Perot formula (> {TOLERANCE})")
            failed = True
    if worst_screen > TOLERANCE:
        print(f"FAIL: the Salisbury screen's R is {worst_screen:.4f} from its formula (> {TOLERANCE})")
        failed = True
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
