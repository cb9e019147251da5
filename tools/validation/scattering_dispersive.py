"""Plane-wave scattering by dispersive spheres (Drude, Debye, Lorentz poles): the scattering and
absorption cross-sections against the Mie series for the material's continuous eps(f)
(mie.py with complex m = sqrt(eps(f)), exp(-i omega t), Im m >= 0).

`models/validation/mie_dispersive.ini` runs once per material (`--object.ball.material=<name>`)
and once empty (`--object.ball.material=vacuum`), per cell size, the same grid, source and
monitors each time (the monitors transform as docs/MONITORS.md says):

* `scattered`, a closed box in the scattered-field region: P_sca(f); its cross_section_m2 column
  (P_sca over the incident line's |E_inc(f)|^2 / (2 eta0)) is the run's own sigma_sca(f);
* `absorbed`, a closed box inside the total-field box around the sphere: the total field's net
  outward flux, -P_abs(f); its cross_section_m2 column is -sigma_abs(f);
* `incident`, a plane normal to the travel inside the total-field box, in the empty run: the
  incident intensity I(f) = flux / area, so that sigma_sca = P_sca / I as in the `mie` case
  (both transforms by the same monitor code: the monitors' half-cell H average cancels for waves
  crossing normally, which the column's |E_inc|^2 / (2 eta0) does not).

Analytic: eps(f) = eps_inf + sum chi_p(f) + i sigma / (2 pi f eps0), from the material section
(material_eps), and pi a^2 Q_sca(x, m), pi a^2 (Q_ext - Q_sca)(x, m), x = 2 pi f a / c.
"""

import os

import numpy as np

from . import mie
from .common import C0, EPS0, CaseResult, probe_column, read_csv, read_ini
from .monitors import monitor_entry, read_flux
from .scattering import node_box, sampled_radius

MODEL = "mie_dispersive.ini"
MATERIALS = ("drude", "debye", "lorentz")
# Cell sizes (m): the file's 6 mm (sphere radius 10 cells) and 3 mm (20 cells).
CELLS_REDUCED = (0.006,)
CELLS_FULL = (0.006, 0.003)
# The band compared, per material: the monitors' 0.1 .. 2.4 GHz, but for the water-like Debye
# sphere only up to 1.0 GHz, where |n| = 4.9 leaves 10 cells per wavelength inside at 6 mm.
BAND_MAX = {"drude": 2.4e9, "debye": 1.0e9, "lorentz": 2.4e9}
# Bounds, max |sigma / sigma_Mie - 1| over the band, per material and cell size: about 1.5x the
# measured worst errors. They are the staircased sphere's, larger than the lossless m = 1.5
# sphere's (`mie`: 1.2% at 10 cells) where |eps| is large or near the plasmon resonance
# (eps ~ -2 .. -5, Drude): there the fields crowd at the surface the grid staircases, and the
# error falls only ~2.5x per halving of the cell (the convergence check below), while changing
# the time step (grid.courant 0.9 -> 0.45) leaves it unchanged to 1e-4.
BOUNDS_SCA = {("drude", 0.006): 0.20, ("drude", 0.003): 0.085,
              ("debye", 0.006): 0.11, ("debye", 0.003): 0.045,
              ("lorentz", 0.006): 0.05, ("lorentz", 0.003): 0.025}
BOUNDS_ABS = {("drude", 0.006): 0.26, ("drude", 0.003): 0.11,
              ("debye", 0.006): 0.07, ("debye", 0.003): 0.03,
              ("lorentz", 0.006): 0.05, ("lorentz", 0.003): 0.025}
# Full size: the error must fall with the cell (a solver with wrong physics converges to the wrong
# answer): RMS over the band of |error| (sca and abs together), 6 mm / 3 mm.
CONVERGENCE_MIN = 1.8
RINGDOWN_BOUND = 1e-3   # max |E| at the sphere's centre over the last 10% of the run / its peak
EMPTY_ABS_BOUND = 1e-4  # empty run: |flux out of the absorbed box| / the smallest P_abs(f)


def _numbers(sec, key):
    return [float(v) for v in sec.get(key, "").replace(",", " ").split()]


def material_eps(ini, name, freqs, poles=True):
    """eps(f) of [material.<name>] (SI, exp(-i omega t)): eps_r (eps_inf when poles are given)
    + debye (delta_eps tau: delta_eps / (1 - i 2 pi f tau)) + drude (f_p gamma:
    -f_p^2 / (f^2 + i f gamma)) + lorentz (delta_eps f0 gamma: delta_eps f0^2 /
    (f0^2 - f^2 - i f gamma)) + i sigma / (2 pi f eps0); poles=False: eps_inf and sigma alone
    (the same sphere without its dispersion)."""
    sec = ini[f"material.{name}"]
    f = np.asarray(freqs, dtype=float)
    eps = np.full(f.shape, float(sec.get("eps_r", "1")), dtype=complex)
    eps += 1j * float(sec.get("sigma", "0")) / (2 * np.pi * f * EPS0)
    if not poles:
        return eps
    for key, width in (("debye", 2), ("drude", 2), ("lorentz", 3)):
        v = _numbers(sec, key)
        if len(v) % width:
            raise ValueError(f"material.{name}.{key}: {len(v)} numbers, not groups of {width}")
        for p in range(0, len(v), width):
            if key == "debye":
                de, tau = v[p:p + 2]
                eps += de / (1 - 2j * np.pi * f * tau)
            elif key == "drude":
                fp, g = v[p:p + 2]
                eps += -fp ** 2 / (f ** 2 + 1j * f * g)
            else:
                de, f0, g = v[p:p + 3]
                eps += de * f0 ** 2 / (f0 ** 2 - f ** 2 - 1j * f * g)
    return eps


def material_text(ini, name):
    sec = ini[f"material.{name}"]
    parts = [f"eps_inf = {float(sec.get('eps_r', '1')):g}"]
    for key in ("debye", "drude", "lorentz"):
        if key in sec:
            parts.append(f"{key} = {' '.join(f'{v:g}' for v in _numbers(sec, key))}")
    if float(sec.get("sigma", "0")):
        parts.append(f"sigma = {float(sec['sigma']):g} S/m")
    return ", ".join(parts)


def run_set(ctx, cell, base, steps0):
    steps = int(round(steps0 * base / cell))
    common = [f"--grid.cell_size={cell}", f"--time.steps={steps}"]
    tag = f"mie_dispersive/cell_{cell * 1000:g}mm"
    runs = {"empty": ctx.run(ctx.model(MODEL), f"{tag}/empty",
                             common + ["--object.ball.material=vacuum"])}
    for mat in MATERIALS:
        runs[mat] = ctx.run(ctx.model(MODEL), f"{tag}/{mat}",
                            common + [f"--object.ball.material={mat}"])
    return runs


def own_warnings(run):
    """run.json's warnings less the expected ones (the materials the run leaves unused)."""
    return [w for w in run.report.get("warnings", []) if "is used by no object" not in w]


def analyse(ini, cell, mat, run, empty):
    d = float(run.report["cell_size_m"][0])
    radius = float(ini["object.ball"]["radius"])
    freqs, p_sca = read_flux(run, "scattered")
    f2, p_out = read_flux(run, "absorbed")
    f3, inc_flux = read_flux(empty, "incident")
    f4, empty_abs = read_flux(empty, "absorbed")
    if not all(np.array_equal(freqs, g) for g in (f2, f3, f4)):
        raise RuntimeError("monitors scattered, absorbed and incident list different frequencies")
    b = node_box(ini, "monitor.incident", d)
    intensity = inc_flux / ((b[4] - b[1]) * d * (b[5] - b[2]) * d)
    sigma_sca = p_sca / intensity
    sigma_abs = -p_out / intensity
    cols_sca = read_csv(os.path.join(run.dir, monitor_entry(run, "scattered")["file"]))
    cols_abs = read_csv(os.path.join(run.dir, monitor_entry(run, "absorbed")["file"]))
    col_sca = cols_sca["cross_section_m2"]
    col_abs = -cols_abs["cross_section_m2"]

    eps = material_eps(ini, mat, freqs)
    m = mie.refractive_index(eps)
    x = 2 * np.pi * freqs * radius / C0
    area = np.pi * radius ** 2
    q_sca = mie.q_sca(x, m)
    q_abs = mie.q_abs(x, m)
    # The same sphere without its poles (eps_inf, and sigma where the material has one).
    ctrl_m = mie.refractive_index(material_eps(ini, mat, freqs, poles=False))
    ctrl_sca = mie.q_sca(x, ctrl_m)
    band = freqs <= BAND_MAX[mat] * (1 + 1e-9)
    err_sca = sigma_sca / (area * q_sca) - 1
    err_col = col_sca / (area * q_sca) - 1
    err_abs = col_abs / (area * q_abs) - 1
    err_abs_pi = sigma_abs / (area * q_abs) - 1
    ctrl_err = ctrl_sca / q_sca - 1

    # Ring-down at the sphere's centre: the fields must die out (no growth, no late field).
    cols = run.probes()
    e = np.hypot(cols[probe_column("centre", "Ex")], cols[probe_column("centre", "Ez")])
    finite = bool(np.all(np.isfinite(e)))
    tail = e[int(0.9 * e.size):]
    ringdown = float(np.max(tail) / np.max(e)) if finite and np.max(e) > 0 else np.inf
    radii = sampled_radius(np.array([float(v) for v in ini["object.ball"]["center"].split()]),
                           radius, d, run.n)
    return dict(mat=mat, cell=cell, d=d, radius=radius, freqs=freqs, x=x, eps=eps, band=band,
                q_sca=q_sca, q_abs=q_abs, sigma_sca=sigma_sca, sigma_abs=sigma_abs,
                col_sca=col_sca, col_abs=col_abs, err_sca=err_sca, err_col=err_col,
                err_abs=err_abs, err_abs_pi=err_abs_pi, ctrl_sca=ctrl_sca, ctrl_err=ctrl_err,
                cells_per_wl=C0 / freqs / np.abs(m) / d, ringdown=ringdown, finite=finite,
                empty_abs=np.abs(empty_abs), p_abs=-p_out, a_eq=float(np.mean(radii)),
                warnings=own_warnings(run), run=run)


CASE_TEXT = """\
`models/validation/mie_dispersive.ini`: a sphere of radius a = {a_cm:g} cm (centred on a node)
inside the total-field box of a `type = plane_wave` source (E along z, travelling +x; the `mie`
case's gaussian_pulse, 1.3 GHz centre, 2.4 GHz bandwidth, 1 V/m), 6 cells of vacuum between the
sphere and the box, of one of three dispersive materials (SI; eps(f) = eps_inf + sum chi +
i sigma / (2 pi f eps0), time factor exp(-i omega t)):

* **drude**: {drude}; chi = -f_p^2 / (f^2 + i f gamma): Re eps < 0 below 1.17 GHz, and the
  sphere's localized (Froehlich-like) resonance, damped by gamma and by radiation, peaks near
  0.6 GHz (x = 0.75, eps = -2.2 + 1.6i);
* **debye**: water-like, {debye}; chi = delta_eps / (1 - i 2 pi f tau), the relaxation at
  1 / (2 pi tau) = 0.30 GHz (water's ~19 GHz scaled into the band); compared up to 1.0 GHz,
  where |n| = 4.9 leaves 10 cells per wavelength inside the sphere at 6 mm;
* **lorentz**: {lorentz}; chi = delta_eps f0^2 / (f0^2 - f^2 - i f gamma), Re eps dipping to
  -0.2 at 1.3 GHz; the static conductivity dominates the loss at low frequency.

Each cell size runs the three materials (`--object.ball.material=<name>`) and an empty run
(`vacuum`). A closed flux box (monitor `scattered`) 3 cells outside the total-field box gives
P_sca(f) and, in its cross_section_m2 column, the run's own sigma_sca(f) (the flux over the
incident line's |E_inc(f)|^2 / (2 eta0), docs/MONITORS.md); a closed box inside the total-field
box, 3 cells from the sphere (monitor `absorbed`), gives the total field's net outward flux,
-P_abs(f), and in its column -sigma_abs(f); the empty run's plane monitor `incident` gives
I(f) = flux / area for sigma_sca = P_sca / I as in the `mie` case. **Analytic**:
pi a^2 Q_sca(x, m) and pi a^2 (Q_ext - Q_sca)(x, m), m = sqrt(eps(f)) with Im m >= 0, from the
Mie series with complex m (`tools/validation/mie.py`; its self-test checks the complex path
against Wiscombe's MIEV0 test cases, scipy's spherical Bessel functions of complex argument,
the Rayleigh limits of Q_sca and Q_abs and the real path as Im m -> 0), at {nf} frequencies
0.1 .. 2.4 GHz, x = {x0:.2f} .. {x1:.2f}. **Bounds** per material (about 1.5x the measured worst
errors): they are the staircased sphere's, larger than the lossless `mie` sphere's where |eps|
is large or near the plasmon resonance, where the fields crowd at the staircased surface; the
error falls about 2.5x per halving of the cell (checked at full size), while halving the time
step (grid.courant 0.9 -> 0.45) left the 6 mm Drude figures unchanged to 1e-4: the poles' time
discretisation (trapezoidal, second order in omega dt) is not what is measured. **Control**:
without its poles (eps_r = eps_inf, sigma kept) each sphere's Mie sigma_sca differs from the
dispersive one by far more than the bound (tables: "no poles"), so a solver that ignored the
poles, or mis-scaled them, fails. **Ring-down**: |E| at the sphere's centre over the last 10% of
the run against its peak (no growth, the poles' energy gone). Run: `tools/validate --case
mie_dispersive --bin build/clfdtd` (6 and 3 mm, eight runs, {full_time} on two CPU cores through
PoCL); `--reduced` (what ctest runs) is the 6 mm set alone, {reduced_time}.
"""


def case_mie_dispersive(ctx):
    r = CaseResult("mie_dispersive", "Plane wave: Mie scattering and absorption of dispersive "
                   "spheres (Drude, Debye, Lorentz)")
    model = ctx.model(MODEL)
    ini = read_ini(model)
    base = float(ini["grid"]["cell_size"])
    steps0 = int(ini["time"]["steps"])
    results = {}   # (mat, cell) -> analysis
    empties = {}
    for cell in (CELLS_REDUCED if ctx.reduced else CELLS_FULL):
        runs = run_set(ctx, cell, base, steps0)
        empties[cell] = runs["empty"]
        for mat in MATERIALS:
            res = analyse(ini, cell, mat, runs[mat], runs["empty"])
            results[(mat, cell)] = res
            print(f"    {cell * 1000:g} mm, {mat} ({material_text(ini, mat)}; a = "
                  f"{res['radius'] / res['d']:.0f} cells, sampled a_eq = "
                  f"{res['a_eq'] / res['d']:.3f}):")
            area = np.pi * res["radius"] ** 2
            for i, f in enumerate(res["freqs"]):
                mark = "" if res["band"][i] else "  (outside the compared band)"
                print(f"      {f / 1e9:.2f} GHz x = {res['x'][i]:.3f} eps = "
                      f"{res['eps'][i].real:+.3f}{res['eps'][i].imag:+.3f}i "
                      f"({res['cells_per_wl'][i]:.0f} cells/wavelength): Q_sca Mie "
                      f"{res['q_sca'][i]:.4f}, column {res['col_sca'][i] / area:.4f} "
                      f"({100 * res['err_col'][i]:+.2f}%), P/I {100 * res['err_sca'][i]:+.2f}%; "
                      f"Q_abs Mie {res['q_abs'][i]:.4f}, column {res['col_abs'][i] / area:.4f} "
                      f"({100 * res['err_abs'][i]:+.2f}%), P/I {100 * res['err_abs_pi'][i]:+.2f}%; "
                      f"no poles: Q_sca {res['ctrl_sca'][i]:.4f} ({100 * res['ctrl_err'][i]:+.0f}%)"
                      + mark)
            print(f"      ring-down: late |E| / peak at the centre {res['ringdown']:.1e}; "
                  f"warnings: {res['warnings'] or 'none'}")
        leak = max(np.max(results[(m, cell)]["empty_abs"] / results[(m, cell)]["p_abs"])
                   for m in MATERIALS)
        print(f"    {cell * 1000:g} mm, empty run: absorbed-box flux / P_abs at most {leak:.1e}; "
              f"warnings: {own_warnings(runs['empty']) or 'none'}")

    cells = sorted({c for _, c in results}, reverse=True)
    first = results[(MATERIALS[0], cells[0])]
    r.notes.append(CASE_TEXT.format(
        a_cm=100 * first["radius"], drude=material_text(ini, "drude"),
        debye=material_text(ini, "debye"), lorentz=material_text(ini, "lorentz"),
        nf=first["freqs"].size, x0=first["x"][0], x1=first["x"][-1],
        full_time="about 3 minutes", reduced_time="about 15 s"))
    for mat in MATERIALS:
        head = f"| {mat}: f (GHz) | eps | Q_sca Mie | Q_abs Mie | no poles: Q_sca |"
        rule = "|---|---|---|---|---|"
        for cell in cells:
            mm = f"{cell * 1000:g} mm"
            head += f" {mm}: sigma_sca / Mie - 1 | {mm}: column | {mm}: sigma_abs / Mie - 1 |"
            rule += "---|---|---|"
        r.notes += [head, rule]
        base_res = results[(mat, cells[0])]
        for i, f in enumerate(base_res["freqs"]):
            if not base_res["band"][i]:
                continue
            e = base_res["eps"][i]
            row = (f"| {f / 1e9:.1f} | {e.real:.2f} {'+' if e.imag >= 0 else '-'} "
                   f"{abs(e.imag):.2f}i | {base_res['q_sca'][i]:.4f} | "
                   f"{base_res['q_abs'][i]:.4f} | {base_res['ctrl_sca'][i]:.4f} "
                   f"({100 * base_res['ctrl_err'][i]:+.0f}%) |")
            for cell in cells:
                res = results[(mat, cell)]
                row += (f" {100 * res['err_sca'][i]:+.2f}% | {100 * res['err_col'][i]:+.2f}% | "
                        f"{100 * res['err_abs'][i]:+.2f}% |")
            r.notes.append(row)
        r.notes.append("")

    for mat in MATERIALS:
        for cell in cells:
            res = results[(mat, cell)]
            band = res["band"]
            mm = f"{cell * 1000:g} mm"
            nb = int(band.sum())
            span = f"{nb} frequencies, x = {res['x'][band][0]:.2f} .. {res['x'][band][-1]:.2f}"
            bs, ba = BOUNDS_SCA[(mat, cell)], BOUNDS_ABS[(mat, cell)]
            worst = np.max(np.abs(res["err_sca"][band]))
            r.check(f"{mat}, {mm} (a = {res['radius'] / res['d']:.0f} cells): |sigma_sca / "
                    f"(pi a^2 Q_Mie) - 1|, P_sca / I, {span} (max)", f"<= {100 * bs:g}%",
                    f"{100 * worst:.2f}%", worst <= bs and np.all(res["sigma_sca"][band] > 0))
            worst = np.max(np.abs(res["err_col"][band]))
            r.check(f"{mat}, {mm}: the scattered box's cross_section_m2 column vs Mie (max)",
                    f"<= {100 * bs:g}%", f"{100 * worst:.2f}%",
                    bool(np.all(np.isfinite(res["err_col"][band]))) and worst <= bs)
            worst = np.max(np.abs(res["err_abs"][band]))
            r.check(f"{mat}, {mm}: sigma_abs, minus the absorbed box's cross_section_m2 column, "
                    f"vs pi a^2 (Q_ext - Q_sca) (max)", f"<= {100 * ba:g}%",
                    f"{100 * worst:.2f}%",
                    bool(np.all(np.isfinite(res["err_abs"][band]))) and worst <= ba)
    for cell in cells:
        mm = f"{cell * 1000:g} mm"
        worst = max(results[(m, cell)]["ringdown"] for m in MATERIALS)
        fine = all(results[(m, cell)]["finite"] for m in MATERIALS)
        r.check(f"{mm}: ring-down, |E| at the sphere's centre over the last 10% of the run / its "
                f"peak (3 materials, max)", f"<= {RINGDOWN_BOUND:g}", f"{worst:.1e}",
                fine and worst <= RINGDOWN_BOUND)
        worst = max(np.max(results[(m, cell)]["empty_abs"] / results[(m, cell)]["p_abs"])
                    for m in MATERIALS)
        r.check(f"{mm}: empty run, |flux out of the absorbed box| / the spheres' P_abs (max)",
                f"<= {EMPTY_ABS_BOUND:g}", f"{worst:.1e}", worst <= EMPTY_ABS_BOUND)
    if len(cells) == 2:
        for mat in MATERIALS:
            coarse, fine = results[(mat, cells[0])], results[(mat, cells[1])]
            band = coarse["band"]

            def rms(res):
                return np.sqrt(np.mean(np.concatenate([res["err_sca"][band],
                                                       res["err_abs"][band]]) ** 2))
            ratio = rms(coarse) / rms(fine)
            text = (f"{mat}: RMS error (sigma_sca P/I and sigma_abs column over the band) "
                    f"{100 * rms(coarse):.2f}% at {cells[0] * 1000:g} mm, "
                    f"{100 * rms(fine):.2f}% at {cells[1] * 1000:g} mm")
            print("    " + text + f": ratio {ratio:.2f}")
            r.notes.append(text + f", ratio {ratio:.2f}.")
            r.check(f"{mat}: the error falls with the cell, RMS over the band (sca and abs), "
                    f"{cells[0] * 1000:g} mm / {cells[1] * 1000:g} mm", f">= {CONVERGENCE_MIN:g}",
                    f"{ratio:.2f}", ratio >= CONVERGENCE_MIN)
        r.notes.append("")
    r.size = "; ".join(
        f"{'x'.join(map(str, results[(MATERIALS[0], c)]['run'].n))} cells of {c * 1000:g} mm "
        f"(a = {results[(MATERIALS[0], c)]['radius'] / c:.0f} cells), UPML 10 layers, "
        f"{results[(MATERIALS[0], c)]['run'].report['steps_done']} steps, 4 runs" for c in cells)
    path = ctx.plot_path("mie_dispersive.png")
    if path:
        plot(path, ini, results, cells)
        r.plot = path
    return r


def plot(path, ini, results, cells):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 3, figsize=(16, 8))
    styles = {cells[0]: "o", cells[-1]: "s"}
    for j, mat in enumerate(MATERIALS):
        res0 = results[(mat, cells[0])]
        fmax = BAND_MAX[mat]
        fs = np.linspace(0.08e9, fmax * 1.02, 300)
        eps = material_eps(ini, mat, fs)
        x = 2 * np.pi * fs * res0["radius"] / C0
        m = mie.refractive_index(eps)
        ax = axes[0, j]
        ax.plot(fs / 1e9, mie.q_sca(x, m), "r-", lw=1.2, label="Mie Q_sca")
        ax.plot(fs / 1e9, mie.q_abs(x, m), "b-", lw=1.2, label="Mie Q_abs")
        ctrl = mie.refractive_index(material_eps(ini, mat, fs, poles=False))
        ax.plot(fs / 1e9, mie.q_sca(x, ctrl), "k:", lw=0.9, label="Q_sca without the poles")
        for cell in cells:
            res = results[(mat, cell)]
            b = res["band"]
            area = np.pi * res["radius"] ** 2
            lab = f"a = {res['radius'] / res['d']:.0f} cells"
            ax.plot(res["freqs"][b] / 1e9, res["sigma_sca"][b] / area, "r" + styles[cell],
                    ms=4, mfc="none", label=f"clfdtd sca, {lab}")
            ax.plot(res["freqs"][b] / 1e9, res["col_abs"][b] / area, "b" + styles[cell],
                    ms=4, mfc="none", label=f"clfdtd abs, {lab}")
        ax.set_xlabel("f (GHz)")
        ax.set_ylabel("Q = sigma / (pi a^2)")
        ax.set_title(f"{mat}: {material_text(ini, mat)}", fontsize=8)
        ax.legend(fontsize=7)
        ax2 = axes[1, j]
        for cell in cells:
            res = results[(mat, cell)]
            b = res["band"]
            mm = f"{cell * 1000:g} mm"
            ax2.plot(res["freqs"][b] / 1e9, 100 * res["err_sca"][b], "r" + styles[cell] + "-",
                     ms=4, mfc="none", lw=0.8, label=f"sca (P/I), {mm}")
            ax2.plot(res["freqs"][b] / 1e9, 100 * res["err_abs"][b], "b" + styles[cell] + "-",
                     ms=4, mfc="none", lw=0.8, label=f"abs, {mm}")
            for bnd, col in ((BOUNDS_SCA[(mat, cell)], "r"), (BOUNDS_ABS[(mat, cell)], "b")):
                ax2.axhline(100 * bnd, color=col, ls="--", lw=0.5)
                ax2.axhline(-100 * bnd, color=col, ls="--", lw=0.5)
        ax2.set_xlabel("f (GHz)")
        ax2.set_ylabel("sigma / sigma_Mie - 1 (%)")
        ax2.set_title(f"{mat}: error (dashed: bounds)", fontsize=9)
        ax2.legend(fontsize=7)
    fig.suptitle("Plane wave (TFSF) on dispersive spheres: Mie with eps(f) vs clfdtd")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
