"""Cylindrical solver (issue 20): the same body of revolution in the cylindrical solver and in 3D
Cartesian clfdtd. A dielectric sphere on the axis, a z dipole 3 cells off the axis (every m
excited). The probes lie on the planes phi = 0, 90, 180 degrees, where the cylindrical samples
of Er, Ez, Hphi coincide with 3D Yee samples (Ex or Ey, Ez, Hy or Hx).

The time steps differ (the cylindrical one is set by the largest m), so each cylindrical series
is interpolated (cubic spline; the pulse has 50+ steps per period there) to the 3D run's times,
E at step * dt and H at step * dt - dt / 2 in both.

What the difference may be:
- free space (the sphere's eps_r set to 1): both runs against the analytic dipole field (the
  formulas of case 4), and against each other;
- the truncation of the cylindrical run to m <= 6: its difference from a run with m <= 8;
- with the sphere: the two grids staircase the sphere differently (3D: each Yee sample inside
  the sphere in x, y, z; cylindrical: inside in r, z). The size of that error is measured as the
  change of the cylindrical result when the sphere's radius moves by +- half a cell (both
  discretised surfaces lie within about half a cell of the true one). The bound per probe is the
  free-space difference plus that change.
"""

import numpy as np

from .common import C0, CaseResult, fmt_pct, ini_vector, probe_column, read_ini
from . import gpu_timing
from .dipole import dipole_field

# Its GPU timing (tools/validation/cyl_vs_3d_speed.sh, measured on a lent GPU) lives in
# docs/validation/cyl_vs_3d_gpu.md: gpu_timing.py says why.
GPU_TIMING = "cyl_vs_3d_gpu.md"

MODEL_CYL = "cyl_vs_3d.ini"
MODEL_3D = "cyl_vs_3d_cartesian.ini"
ETA0 = C0 * 4e-7 * np.pi
# Cylindrical component at a probe angle -> (3D column suffix, sign).
MAP = {0: {"Er": ("Ex", 1), "Ez": ("Ez", 1), "Hphi": ("Hy", 1)},
       90: {"Er": ("Ey", 1), "Ez": ("Ez", 1), "Hphi": ("Hx", -1)},
       180: {"Er": ("Ex", -1), "Ez": ("Ez", 1), "Hphi": ("Hy", -1)}}
FREE_BOUND = 0.02   # each solver against the analytic field (the dipole cases' bound)
TRUNC_BOUND = 1e-3
TEXT = """\
Issue 20. `models/validation/cyl_vs_3d.ini` (cylindrical, modes 0 .. 6) and
`cyl_vs_3d_cartesian.ini` (3D): a dielectric sphere (eps_r = 4, radius 0.0412 m = 8.24 cells)
centred on the axis, a z-directed dipole (the pulse of case 4, 1.5 GHz centre, 40 cells per
wavelength) 3 cells off the axis below it, so every m is excited; 5 mm cells, 10-layer absorbers
(3D: UPML on a 60^3 box; cylindrical: CPML at r = R = 30 cells and both z ends of 60 cells), 5 ns.
The 3D axis x = y = 0.15 m runs through Ez samples, so on the planes phi = 0, 90, 180 degrees the
cylindrical Er, Ez, Hphi samples are 3D Yee samples (Ex or Ey, Ez, Hy or -Hx); the probes
(a quarter cell off the samples) record those, 15 to 24 cells from the source. The cylindrical
series (its dt is 0.24 of the 3D one: the m = 6 limit) are interpolated by cubic splines to the 3D
times, E at n dt and H at n dt - dt/2 in both. Difference per probe: the relative L2 norm over the
run of all its components (H scaled by eta0) against the 3D series. The checks: free space (the
sphere's eps_r set to 1) against the analytic dipole field and 3D against cylindrical; the
truncation to m <= 6 (against a run with m <= 8); with the sphere, 3D against cylindrical within
the free-space difference plus the staircase error, the latter measured as the change of the
cylindrical result between spheres half a cell larger and half a cell smaller (each grid's
staircased surface lies within about half a cell of the true one). That bracket is a worst case:
this eps_r = 4 sphere is resonant and a radius change of +-6% moves its resonances, so the
bracket is 15 to 60% of the signal while the two staircased spheres differ much less (their
volume-equivalent radii, from the E samples inside, are given below the table). The table
therefore also lists the scattered field (sphere minus free space, relative to the 3D series)
and how well the two solvers agree on it: the measured figure the bracket bounds.
"""


def series(run, name, comp, kind):
    cols = run.probes()
    t = cols["time_s"] - (0.5 * run.dt if kind == "H" else 0.0)
    return t, cols[probe_column(name, comp)]


def resample(t_from, x_from, t_to):
    from scipy.interpolate import CubicSpline
    inside = (t_to >= t_from[0]) & (t_to <= t_from[-1])
    out = np.zeros_like(t_to)
    out[inside] = CubicSpline(t_from, x_from)(t_to[inside])
    return out


def probe_list(run):
    names, seen = [], {}
    for p in run.report["probes"]:
        if p["name"] not in seen:
            seen[p["name"]] = p["phi_deg"]
            names.append(p["name"])
    return [(n, int(round(seen[n])) % 360) for n in names]


def cyl_on_3d_times(cyl, run3d, name, phi):
    """{cylindrical component: (series at the 3D run's times, the 3D series)}."""
    out = {}
    for p in cyl.report["probes"]:
        if p["name"] != name:
            continue
        comp = p["field"]
        kind = comp[0]
        t3, x3 = series(run3d, name, MAP[phi][comp][0], kind)
        tc, xc = series(cyl, name, comp, kind)
        out[comp] = (resample(tc, xc, t3), MAP[phi][comp][1] * x3)
    return out


def rel_l2(pairs, ref=None):
    """sqrt(sum |a - b|^2 / sum |ref|^2) over the components {comp: (a, b)}, H scaled by eta0;
    ref {comp: series} defaults to b."""
    num = den = 0.0
    for comp, (a, b) in pairs.items():
        s = ETA0 if comp.startswith("H") else 1.0
        num += np.sum((s * (a - b)) ** 2)
        den += np.sum((s * (b if ref is None else ref[comp])) ** 2)
    return np.sqrt(num / den)


def analytic_pairs(run, name, src, amp, f0, bw, cylindrical):
    """{component: (probe series, analytic series)} for the free-space run, in the run's own
    components (cylindrical: at the probe's phi)."""
    out = {}
    for p in run.report["probes"]:
        if p["name"] != name:
            continue
        comp = p["field"]
        kind = comp[0]
        pos = np.array(p["position_m"])
        t, x = series(run, name, comp, kind)
        if cylindrical:
            phi = np.radians(p["phi_deg"])
            pos = np.array([pos[0] * np.cos(phi), pos[0] * np.sin(phi), pos[2]])
            e, h = dipole_field(pos - src, t, amp, f0, bw)
            v = e if kind == "E" else h
            axis = comp[1:]
            exact = {"r": np.cos(phi) * v[0] + np.sin(phi) * v[1],
                     "phi": -np.sin(phi) * v[0] + np.cos(phi) * v[1], "z": v[2]}[axis]
        else:
            e, h = dipole_field(pos - src, t, amp, f0, bw)
            exact = (e if kind == "E" else h)["xyz".index(comp[1])]
        out[comp] = (x, exact)
    return out


def equivalent_radii(n3, nc, centre3, centre_c, radius):
    """Volume-equivalent radius (cells) of the sphere as each grid samples it: per E component,
    (3 V / (4 pi))^(1/3) with V the volume of the samples inside (3D: one cell each; cylindrical:
    the ring 2 pi r dr dz, the axis disc pi (dr/2)^2 dz). Inside: distance <= radius, as the
    mesher tests each component's own sample point."""
    def eff(v):
        return (3 * v / (4 * np.pi)) ** (1 / 3)
    out = {}
    axes = [np.arange(n) for n in n3]
    for comp, off in (("Ex", (0.5, 0, 0)), ("Ey", (0, 0.5, 0)), ("Ez", (0, 0, 0.5))):
        x, y, z = np.meshgrid(*(a + o for a, o in zip(axes, off)), indexing="ij")
        d2 = (x - centre3[0]) ** 2 + (y - centre3[1]) ** 2 + (z - centre3[2]) ** 2
        inside = d2 <= radius ** 2
        out[f"3D {comp}"] = eff(inside.sum())
    for comp, (ro, zo) in (("Er", (0.5, 0)), ("Ephi", (0, 0)), ("Ez", (0, 0.5))):
        r, z = np.meshgrid(np.arange(nc[0] + 1) + ro, np.arange(nc[1] + 1) + zo, indexing="ij")
        ring = np.where(r > 0, 2 * np.pi * r, np.pi / 4)
        inside = r ** 2 + (z - centre_c) ** 2 <= radius ** 2
        out[f"cylindrical {comp}"] = eff(np.sum(ring * inside))
    return out


def case_cyl_vs_3d(ctx):
    r = CaseResult("cyl_vs_3d", "Cylindrical solver vs 3D Cartesian: a sphere on the axis")
    r.notes += [TEXT]
    model_c, model_3 = ctx.model(MODEL_CYL), ctx.model(MODEL_3D)
    ini_c, ini_3 = read_ini(model_c), read_ini(model_3)
    radius = float(ini_c["object.ball"]["radius"])
    h = float(ini_c["grid"]["cell_size"])
    free = ["--material.glass.eps_r=1"]
    s3 = ctx.run(model_3, "cyl_vs_3d/cartesian_sphere")
    f3 = ctx.run(model_3, "cyl_vs_3d/cartesian_free", free)
    sc = ctx.run(model_c, "cyl_vs_3d/cyl_sphere")
    fc = ctx.run(model_c, "cyl_vs_3d/cyl_free", free)
    big = ctx.run(model_c, "cyl_vs_3d/cyl_sphere_plus",
                  [f"--object.ball.radius={radius + h / 2!r}"])
    small = ctx.run(model_c, "cyl_vs_3d/cyl_sphere_minus",
                    [f"--object.ball.radius={radius - h / 2!r}"])
    more = ctx.run(model_c, "cyl_vs_3d/cyl_sphere_m8", ["--grid.modes=0 1 2 3 4 5 6 7 8"])
    amp = float(ini_c["source.p"]["amplitude"])
    f0 = float(ini_c["source.p"]["frequency"])
    bw = float(ini_c["source.p"]["bandwidth"])
    # The sources' Ez samples (the nearest ones to the positions; the same point in both grids).
    pc = ini_vector(ini_c, "source.p", "position")
    src_c = np.array([pc[0], 0.0, (np.round(pc[2] / h - 0.5) + 0.5) * h])
    p3 = ini_vector(ini_3, "source.p", "position")
    src_3 = np.array([np.round(p3[0] / h) * h, np.round(p3[1] / h) * h,
                      (np.round(p3[2] / h - 0.5) + 0.5) * h])
    lines = ["| probe | phi | distance (cells) | free: cyl vs analytic | free: 3D vs analytic | "
             "free: cyl vs 3D | m <= 6 vs m <= 8 | staircase (radius +- h/2) | sphere: cyl vs 3D "
             "| bound (free + staircase) | scattered field | scattered field: cyl vs 3D |",
             "|---" * 12 + "|"]
    worst = {"fc": 0.0, "f3": 0.0, "trunc": 0.0}
    over, ratio_scat = [], []
    curves = {}
    for name, phi in probe_list(sc):
        sample = next(np.array(p["position_m"]) for p in sc.report["probes"] if p["name"] == name)
        xyz = np.array([sample[0] * np.cos(np.radians(phi)), sample[0] * np.sin(np.radians(phi)),
                        sample[2]])
        dist = np.linalg.norm(xyz - src_c) / h
        e_fc = rel_l2(analytic_pairs(fc, name, src_c, amp, f0, bw, True))
        e_f3 = rel_l2(analytic_pairs(f3, name, src_3, amp, f0, bw, False))
        d_free = rel_l2(cyl_on_3d_times(fc, f3, name, phi))
        pairs_s = cyl_on_3d_times(sc, s3, name, phi)
        d_sphere = rel_l2(pairs_s)
        ref = {c: b for c, (_, b) in pairs_s.items()}  # differences relative to the 3D series

        def diff(run_a, run_b):
            pa = cyl_on_3d_times(run_a, s3, name, phi)
            pb = cyl_on_3d_times(run_b, s3, name, phi)
            return rel_l2({c: (pa[c][0], pb[c][0]) for c in pa}, ref)
        trunc = diff(sc, more)
        stair = diff(big, small)
        scat = diff(sc, fc)
        # The sphere's own effect in both: (sphere - free space), cylindrical against 3D.
        pf = cyl_on_3d_times(fc, f3, name, phi)
        scat_3d = {c: pairs_s[c][1] - pf[c][1] for c in pairs_s}
        d_scat = rel_l2({c: (pairs_s[c][0] - pf[c][0], scat_3d[c]) for c in pairs_s})
        bound = d_free + stair
        worst["fc"] = max(worst["fc"], e_fc)
        worst["f3"] = max(worst["f3"], e_f3)
        worst["trunc"] = max(worst["trunc"], trunc)
        over.append((name, d_sphere, bound))
        ratio_scat.append(scat / d_sphere)
        curves[name] = (phi, pairs_s)
        lines.append(f"| {name} | {phi} | {dist:.1f} | {fmt_pct(e_fc, 2)} | {fmt_pct(e_f3, 2)} | "
                     f"{fmt_pct(d_free, 2)} | {trunc:.1e} | {fmt_pct(stair, 2)} | "
                     f"{fmt_pct(d_sphere, 2)} | {fmt_pct(bound, 2)} | {fmt_pct(scat, 1)} | "
                     f"{fmt_pct(d_scat, 2)} |")
        print(f"    {name:8s} phi {phi:3d}, {dist:4.1f} cells: free cyl/analytic "
              f"{fmt_pct(e_fc, 2)}, "
              f"3D/analytic {fmt_pct(e_f3, 2)}, cyl/3D {fmt_pct(d_free, 2)}; truncation "
              f"{trunc:.1e}; staircase {fmt_pct(stair, 2)}; sphere cyl/3D {fmt_pct(d_sphere, 2)} "
              f"(bound {fmt_pct(bound, 2)}); scattered {fmt_pct(scat, 1)}, "
              f"cyl/3D {fmt_pct(d_scat, 2)}")
    c3 = ini_vector(ini_3, "object.ball", "center") / h
    cc = ini_vector(ini_c, "object.ball", "center") / h
    eq = equivalent_radii(s3.n, (sc.n[0], sc.n[2]), c3, cc[1], radius / h)
    lines += ["", f"The sphere (radius {radius / h:.2f} cells) as each grid samples it, "
              "volume-equivalent radius in cells: " +
              ", ".join(f"{k} {v:.3f}" for k, v in eq.items()) + "."]
    print("    volume-equivalent radii (cells): " +
          ", ".join(f"{k} {v:.3f}" for k, v in eq.items()))
    t3, tc = s3.report["loop_time_s"], sc.report["loop_time_s"]
    b3, bc = s3.report["device_bytes"], sc.report["device_bytes"]
    lines += ["", f"Cost of the sphere runs on {s3.report['device']} ({s3.report['backend']}): "
              f"3D {s3.n[0]}x{s3.n[1]}x{s3.n[2]} cells, {s3.report['steps_done']} steps, time loop "
              f"{t3:.2f} s, {b3 / 2 ** 20:.1f} MiB on the device; cylindrical {sc.n[0]}x{sc.n[2]} "
              f"(r, z) cells x {len(sc.report['modes'])} modes, {sc.report['steps_done']} steps, "
              f"{tc:.2f} s, {bc / 2 ** 20:.2f} MiB. Ratios 3D / cylindrical for the same 5 ns: "
              f"time {t3 / tc:.1f}, memory {b3 / bc:.1f}."]
    print(f"    time loop 3D {t3:.2f} s, cylindrical {tc:.2f} s (ratio {t3 / tc:.1f}); "
          f"device bytes "
          f"3D {b3}, cylindrical {bc} (ratio {b3 / bc:.1f})")
    lines += gpu_timing.lines(GPU_TIMING)
    r.notes += lines
    r.check("free space: cylindrical (m <= 6, off-axis source) vs analytic dipole "
            "(max over probes)",
            f"<= {100 * FREE_BOUND:g}%", fmt_pct(worst["fc"], 3), worst["fc"] <= FREE_BOUND)
    r.check("free space: 3D vs analytic dipole (max over probes)", f"<= {100 * FREE_BOUND:g}%",
            fmt_pct(worst["f3"], 3), worst["f3"] <= FREE_BOUND)
    r.check("truncation: modes 0..6 vs 0..8, sphere (max over probes, relative to the 3D series)",
            f"<= {TRUNC_BOUND:g}", f"{worst['trunc']:.1e}", worst["trunc"] <= TRUNC_BOUND)
    name_w, d_w, b_w = max(over, key=lambda x: x[1] / x[2])
    r.check("sphere: cylindrical vs 3D, every probe within free-space difference + staircase "
            f"(worst: {name_w})", f"<= {fmt_pct(b_w, 2)} there", fmt_pct(d_w, 2),
            all(d <= b for _, d, b in over))
    r.size = (f"3D {s3.n[0]}x{s3.n[1]}x{s3.n[2]} cells ({s3.report['steps_done']} steps); "
              f"cylindrical {sc.n[0]}x{sc.n[2]} cells, modes 0..6 "
              f"({sc.report['steps_done']} steps) "
              f"and 0..8; 5 mm cells, 5 ns; 2 3D and 5 cylindrical runs")
    path = ctx.plot_path("cyl_vs_3d.png")
    if path:
        plot(path, curves, s3)
        r.plot = path
    return r


def plot(path, curves, s3):
    import matplotlib.pyplot as plt
    show = [("side0", "Ez"), ("side90", "Ez"), ("side180", "Er"), ("up0", "Hphi"),
            ("low180", "Ez"), ("top", "Ez")]
    t = s3.probes()["time_s"]
    fig, axes = plt.subplots(2, 3, figsize=(12, 6))
    for ax, (name, comp) in zip(axes.flat, show):
        if name not in curves or comp not in curves[name][1]:
            continue
        phi, pairs = curves[name]
        a, b = pairs[comp]
        ax.plot(t * 1e9, b, "r-", lw=1.2, label="3D Cartesian")
        ax.plot(t * 1e9, a, "k--", lw=0.9, label="cylindrical, m <= 6")
        ax.set_title(f"{comp} at {name} (phi = {phi})", fontsize=9)
        ax.set_xlabel("t (ns)", fontsize=8)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Dielectric sphere on the axis, off-axis dipole: 3D vs cylindrical probes")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
