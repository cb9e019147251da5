"""2D plane-wave scattering: the scattering width of a dielectric cylinder (seen end-on) against
the Bessel series, tm (E along the axis) and te (H along it).

`models/validation/cylinder_2d.ini` (a 2D model: eps_r = 4, radius a = 8 cm) runs in each mode
with the cylinder, and once more with its material set to vacuum. The flux monitor's box lies in
the scattered-field region, so its flux is the power scattered per metre of depth, and its
`scattering_width_m` column that over the incident intensity (the run's own, from the plane
wave's line: docs/EQUATIONS.md "Plane waves"). The series: with k0 = 2 pi f / c, k1 = sqrt(eps_r)
k0, the scattered field's coefficients

    a_n = (g J_n(k0 a) J_n'(k1 a) - k0 J_n'(k0 a) J_n(k1 a)) / (k0 H_n'(k0 a) J_n(k1 a) - g H_n(k0 a) J_n'(k1 a))

(H_n the Hankel function of the second kind, exp(+i omega t) convention; g = k1 for tm, where E
and its radial derivative are continuous, g = k1 / eps_r for te, where H and (1/eps) dH/drho
are), and the scattering width W = (4 / k0) sum_n |a_n|^2 (m). The empty runs check the source:
the scattered-field region holds nothing (the monitor's flux, and a probe 1.5 cells upstream of
the total-field box).

`models/validation/cylinder_2d_medium.ini` checks the far-field transform in a medium: a PEC rod
(radius 4 cm) in eps_r = 4 filling the domain, its farfield monitor's contour in that background;
the pattern at 1 GHz against the series |sum_n a_n exp(i n phi)|^2, a_n = J_n(k a) / H_n(k a) at
k = 2 k0 (the transform takes the medium's k and eta).
"""

import os

import numpy as np

from .common import CaseResult, read_csv
from .monitors import monitor_entry, read_flux

MODEL = "cylinder_2d.ini"
MEDIUM_MODEL = "cylinder_2d_medium.ini"  # a PEC rod in eps_r = 4: the far field in a medium
MEDIUM_BOUND_DB = 0.4  # max |D - D_series| where D_series is within 10 dB of its peak (0.13 measured)
RADIUS = 0.08
EPS_R = 4.0
# Cell sizes (m): the file's 5 mm (a = 16 cells), and 2.5 mm (32 cells) at full size.
CELLS_REDUCED = (0.005,)
CELLS_FULL = (0.005, 0.0025)
# max |W / W_series - 1| over the band (17 frequencies): about 2x what was measured (3.3% tm and
# 3.0% te at 5 mm, 2.6% and 2.8% at 2.5 mm). The largest errors sit on the steep flanks of the
# resonances, where the staircased circle's slightly different radius shifts them; elsewhere the
# error halves with the cell.
BOUNDS = {0.005: 0.07, 0.0025: 0.06}
LEAK_FLUX_BOUND = 1e-6        # |flux out of the scattered-field box| / scattered flux (empty run)
LEAK_PROBE_BOUND_DB = -100.0  # peak |E| 1.5 cells upstream of the box / amplitude (empty run)
MODES = {
    "tm": (["--grid.mode=tm"], "Ez"),
    "te": (["--grid.mode=te", "--source.wave.axis=y", "--probe.outside.fields=Ey"], "Ey"),
}


def series_width(freqs, radius, eps_r, te):
    """The scattering width (m) of a dielectric cylinder in a plane wave, per frequency."""
    from scipy.special import h2vp, hankel2, jv, jvp
    out = []
    for f in np.atleast_1d(freqs):
        k0 = 2 * np.pi * f / 2.99792458e8
        k1 = np.sqrt(eps_r) * k0
        g = k1 / eps_r if te else k1
        n_max = int(k1 * radius) + 20
        total = 0.0
        for n in range(-n_max, n_max + 1):
            num = g * jv(n, k0 * radius) * jvp(n, k1 * radius) - k0 * jvp(n, k0 * radius) * jv(n, k1 * radius)
            den = k0 * h2vp(n, k0 * radius) * jv(n, k1 * radius) - g * hankel2(n, k0 * radius) * jvp(n, k1 * radius)
            total += abs(num / den) ** 2
        out.append(4 / k0 * total)
    return np.array(out)


def pec_rod_pattern_db(phis_deg, ka):
    """The directivity (dBi) of the field a PEC rod scatters in a tm plane wave (E along the
    rod), per direction phi from the travel: 2 pi |F|^2 / integral |F|^2 dphi, F = sum_n a_n
    exp(i n phi), a_n = J_n(ka) / H_n^(2)(ka)."""
    from scipy.special import hankel2, jv
    n = np.arange(-40, 41)
    a = jv(n, ka) / hankel2(n, ka)
    fine = np.radians(np.arange(0, 360, 0.5))
    f2 = np.abs(np.exp(1j * np.outer(fine, n)) @ a) ** 2
    at = np.abs(np.exp(1j * np.outer(np.radians(phis_deg), n)) @ a) ** 2
    return 10 * np.log10(at / f2.mean())


def far_field_in_medium(ctx, r):
    """A PEC rod in eps_r = 4: the farfield monitor's pattern against the series at k = 2 k0."""
    run = ctx.run(ctx.model(MEDIUM_MODEL), "cylinder_2d/medium")
    cols = read_csv(os.path.join(run.dir, monitor_entry(run, "ff")["file"]))
    phis, dbi = cols["phi_deg"], cols["directivity_dbi"]
    k0 = 2 * np.pi * 1e9 / 2.99792458e8
    want = pec_rod_pattern_db(phis, 2 * k0 * 0.04)
    vacuum_k = pec_rod_pattern_db(phis, k0 * 0.04)
    shown = want >= want.max() - 10
    dev = float(np.max(np.abs(dbi - want)[shown]))
    off = float(np.max(np.abs(vacuum_k - want)[shown]))
    print(f"    far field in eps_r = 4: max |D - D_series| {dev:.2f} dB (vacuum's k would be {off:.1f} dB off)")
    r.check("tm, PEC rod in eps_r = 4, 2.5 mm cells: far-field pattern at 1 GHz vs the series at "
            "k = 2 k0 (max |D - D_series| within 10 dB of the peak)",
            f"<= {MEDIUM_BOUND_DB:g} dB", f"{dev:.2f} dB", dev <= MEDIUM_BOUND_DB)
    return phis, dbi, want


def width_column(run):
    entry = monitor_entry(run, "scattered")
    cols = read_csv(os.path.join(run.dir, entry["file"]))
    if "scattering_width_m" not in cols:
        raise RuntimeError(f"{entry['file']}: no scattering_width_m column")
    listed = np.array([np.nan if v is None else v for v in entry["scattering_width_m"]], dtype=float)
    if not np.allclose(listed, cols["scattering_width_m"], rtol=1e-6, atol=0, equal_nan=True):
        raise RuntimeError(f"{run.dir}: run.json scattering_width_m differs from {entry['file']}")
    return cols["frequency_hz"], cols["scattering_width_m"]


def case_cylinder_2d(ctx):
    r = CaseResult("cylinder_2d", "2D plane wave: a dielectric cylinder's scattering width vs the "
                                  "Bessel series, tm and te")
    cells = CELLS_REDUCED if ctx.reduced else CELLS_FULL
    model = ctx.model(MODEL)
    results = {}
    for mode, (extra, field) in MODES.items():
        te = mode == "te"
        scattered = None  # the first cell size's flux, for the empty run's leak
        for cell in cells:
            run = ctx.run(model, f"cylinder_2d/{mode}_{cell * 1000:g}mm",
                          extra + [f"--grid.cell_size={cell}"])
            freqs, width = width_column(run)
            if scattered is None:
                scattered = read_flux(run, "scattered")[1]
            exact = series_width(freqs, RADIUS, EPS_R, te)
            err = width / exact - 1
            results[(mode, cell)] = (freqs, width, exact, err)
            for f, w, e, x in zip(freqs, width, exact, err):
                print(f"    {mode}, {cell * 1000:g} mm, {f / 1e9:.2f} GHz: W = {w:.5f} m, "
                      f"series {e:.5f} m ({100 * x:+.2f}%)")
            worst = float(np.max(np.abs(err)))
            r.check(f"{mode}, {cell * 1000:g} mm cells (a = {RADIUS / cell:g} cells): max |W / "
                    f"W_series - 1| over {freqs[0] / 1e9:g}-{freqs[-1] / 1e9:g} GHz",
                    f"<= {BOUNDS[cell]:g}", f"{worst:.4f}", worst <= BOUNDS[cell])
        empty = ctx.run(model, f"cylinder_2d/{mode}_empty", extra + ["--material.glass.eps_r=1"])
        _, leak = read_flux(empty, "scattered")
        leak_ratio = float(np.max(np.abs(leak) / scattered))
        r.check(f"{mode}, empty run: |flux out of the scattered-field box| / the cylinder's",
                f"<= {LEAK_FLUX_BOUND:g}", f"{leak_ratio:.1e}", leak_ratio <= LEAK_FLUX_BOUND)
        cols = empty.probes()
        column = next(c for c in cols if c.startswith("outside.") and field in c)
        peak = float(np.nanmax(np.abs(cols[column])))
        peak_db = 20 * np.log10(max(peak, 1e-30))
        r.check(f"{mode}, empty run: peak |{field}| 1.5 cells upstream of the total-field box / "
                "amplitude", f"<= {LEAK_PROBE_BOUND_DB:g} dB", f"{peak_db:.1f} dB",
                peak_db <= LEAK_PROBE_BOUND_DB)
    pattern = far_field_in_medium(ctx, r)
    r.size = ", ".join(f"{round(0.6 / c)}^2 cells ({c * 1000:g} mm)" for c in cells) + \
        ", 40 ns; tm and te, with the cylinder and empty; the rod in eps_r = 4: 240^2 cells, 25 ns"
    path = ctx.plot_path("cylinder_2d.png")
    if path:
        plot(path, results, cells, pattern)
        r.plot = path
    return r


def plot(path, results, cells, pattern):
    import matplotlib.pyplot as plt
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 4))
    fine = np.linspace(0.3e9, 2.1e9, 200)
    for mode, color in (("tm", "C0"), ("te", "C1")):
        ax1.plot(fine / 1e9, series_width(fine, RADIUS, EPS_R, mode == "te"), color=color, lw=1,
                 label=f"{mode}: Bessel series")
        for cell, marker in zip(cells, ("o", "s")):
            freqs, width, _, err = results[(mode, cell)]
            ax1.plot(freqs / 1e9, width, marker, color=color, ms=5, mfc="none",
                     label=f"{mode}: clfdtd, {cell * 1000:g} mm cells")
            ax2.plot(freqs / 1e9, 100 * err, marker + "-", color=color, ms=4, lw=0.8,
                     label=f"{mode}, {cell * 1000:g} mm")
    ax1.set_xlabel("frequency (GHz)")
    ax1.set_ylabel("scattering width (m)")
    ax1.set_title(f"eps_r = {EPS_R:g} cylinder, radius {RADIUS * 100:g} cm", fontsize=10)
    ax1.legend(fontsize=7)
    ax1.grid(alpha=0.3)
    ax2.axhline(0, color="k", lw=0.5)
    ax2.set_xlabel("frequency (GHz)")
    ax2.set_ylabel("W / W_series - 1 (%)")
    ax2.set_title("relative error", fontsize=10)
    ax2.legend(fontsize=7)
    ax2.grid(alpha=0.3)
    phis, dbi, want = pattern
    ax3.plot(phis, want, "-", color="k", lw=1, label="Bessel series, k = 2 k0")
    ax3.plot(phis, dbi, "o", color="C2", ms=4, mfc="none", label="clfdtd farfield monitor")
    ax3.set_xlabel("phi (deg, from the travel)")
    ax3.set_ylabel("directivity (dBi)")
    ax3.set_title("PEC rod (4 cm) in eps_r = 4, 1 GHz: far field in the medium", fontsize=10)
    ax3.legend(fontsize=7)
    ax3.grid(alpha=0.3)
    fig.suptitle("2D plane wave (total-field/scattered-field) on a dielectric cylinder; a PEC rod "
                 "in a dielectric")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
