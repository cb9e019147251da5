#!/usr/bin/env python3
"""clfdtd modes (docs/MODES.md) against the runs it describes, and the picture of
models/si_wire.ini's modes (docs/img/si_wire_modes.png).

  tools/validation/mode_models.py                      # runs in a temporary folder
  tools/validation/mode_models.py --work /tmp/modes    # ... kept there
  tools/validation/mode_models.py --out pics           # picture elsewhere
  tools/validation/mode_models.py --wire-run           # also runs the silicon wire (3 minutes on 2 cores)

1. tests/data/mode_loaded_guide.ini: a metal guide with a dielectric block in one corner (hybrid
   modes, no formula), one mode travelling from 6 to 8 GHz. The run's dft monitors `near` and
   `far` (30 mm apart) hold E_x, E_y, H_x, H_y; at each of their frequencies the forward amplitude
   of the mode clfdtd modes solves is the two-wave split of docs/MODES.md ("Projecting a run on
   a mode"): with S_E = sum (E x H_m) . z / N, S_H = sum (E_m x H') . z / N, N = sum (E_m x H_m) . z,
   H' the run's H moved to E's plane by exp(j beta dz / 2),

       a = (S_H + S_E exp(j beta dz)) / (1 + exp(j beta dz)),

   and a_far / a_near must be
   exp(-j beta L): the solver's beta is the run's, to the files' float precision (it is the 3D
   scheme's own mode; the transforms take every step, and the source's band stays clear of the
   cutoff, where a mode rings on past any run, so that the transforms are the whole series').
2. models/si_wire.ini: TE0 and TM0 of a 500 x 220 nm silicon wire on silica at 1550 nm, drawn
   (docs/img/si_wire_modes.png; with --wire-run also its ports, docs/img/si_wire_ports.png).
   With --wire-run the model is run (two to three minutes on 2 cores): its waveguide ports of the
   solved TE0 (1.4 um apart) must give |S21| within 1e-3 of 1 and S21 within 1e-3 rad of
   exp(-j beta L) over the band, |S11| below -60 dB; its mode_expansion monitor `modes_end` TE0's
   forward energy within 1e-3 of what port `in` launches, TM0's below 1e-4 of it
   (docs/img/si_wire_expansion.png); and TE0's amplitude between its dft monitors `mid` and `end`
   (0.6 um apart) the solver's beta within 1e-4 (the window's walls are not the model's, so the
   overlap's rejection of the rest is not exact there).

Exit 1 when a command fails or a check misses its bound.
"""

import csv
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model_runs import ROOT, parse_args, run, runs_folder, with_numpy  # noqa: E402

with_numpy()
import numpy as np  # noqa: E402

from common import read_vti  # noqa: E402

GUIDE = "tests/data/mode_loaded_guide.ini"
GUIDE_AT = ["--axis=z", "--position=0.012 0.006 0.06"]
GUIDE_DZ = 0.0015
GUIDE_L = 0.03
WIRE = "models/si_wire.ini"
WIRE_AT = ["--axis=z", "--position=1.51e-6 1.41e-6 1.2e-6", "--size=2.42e-6 2.22e-6"]
WIRE_DZ = 20e-9
WIRE_L = 0.6e-6
WIRE_PORTS_L = 1.4e-6
# |beta_run / beta_solver - 1| and ||a_far / a_near| - 1|: 1.4e-7 measured, the files' float32
# values (the mode's samples and the transforms) the limit.
GUIDE_TOLERANCE = 1e-6
WIRE_TOLERANCE = 1e-4


def modes(a, model, at, out_csv, *extra):
    """clfdtd modes into out_csv (and its .vti); returns the table's rows as dicts."""
    cmd = [a.bin, "modes", model, *at, "--output=" + out_csv, "--overwrite", *extra]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        print(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        sys.exit(1)
    print(r.stdout.strip())
    if r.stderr.strip():
        print(r.stderr.strip())
    with open(out_csv) as f:
        return list(csv.DictReader(f))


def forward_amplitude(monitor, fi, mode, k, beta, dz):
    """The overlap of a dft monitor's fields at frequency index fi with mode k of a modes .vti (z
    axis), sample by sample at the Yee positions: exact for the grid's modes."""
    emx, emy, hmx, hmy = (mode[f"{c}_{k}"][..., 0] for c in ("Ex", "Ey", "Hx", "Hy"))

    def field(c):
        return (monitor[f"{c}_re_{fi}"] + 1j * monitor[f"{c}_im_{fi}"])[..., 0]

    shift = np.exp(1j * beta * dz / 2)  # H half a cell on, referred to E's plane as the mode's is
    ex, ey, hx, hy = field("Ex"), field("Ey"), field("Hx") * shift, field("Hy") * shift
    norm = np.sum(emx * hmy - emy * hmx)
    s_e = np.sum(ex * hmy - ey * hmx) / norm
    s_h = np.sum(emx * hy - emy * hx) / norm
    turn = np.exp(1j * beta * dz)
    return (s_h + s_e * turn) / (1 + turn)


def beta_between(a1, a2, length, beta_guess):
    """beta from a2 / a1 = exp(-j beta L), the 2 pi branch nearest beta_guess; and |a2 / a1|."""
    r = a2 / a1
    phase = -np.angle(r)
    turns = np.round((beta_guess * length - phase) / (2 * np.pi))
    return (phase + 2 * np.pi * turns) / length, abs(r)


def loaded_guide(a):
    out = os.path.join(a.work, "loaded_guide")
    info, wall = run(a.bin, GUIDE, out)
    near = read_vti(os.path.join(out, "monitors", "near.vti"))
    far = read_vti(os.path.join(out, "monitors", "far.vti"))
    worst = 0.0
    rows = []
    for fi, f in enumerate((7.0e9, 7.5e9, 8.0e9)):
        table = modes(a, GUIDE, GUIDE_AT, os.path.join(a.work, f"loaded_guide_modes_{fi}.csv"),
                      f"--frequency={f:.17g}", "--count=2")
        if len(table) != 1:
            print(f"FAIL: {len(table)} modes travel at {f:g} Hz, expected 1")
            sys.exit(1)
        beta = float(table[0]["beta_rad_per_m"])
        mode = read_vti(os.path.join(a.work, f"loaded_guide_modes_{fi}.vti"))
        b, mag = beta_between(forward_amplitude(near, fi, mode, 1, beta, GUIDE_DZ),
                              forward_amplitude(far, fi, mode, 1, beta, GUIDE_DZ), GUIDE_L, beta)
        err = max(abs(b / beta - 1), abs(mag - 1))
        worst = max(worst, err)
        rows.append((f, float(table[0]["n_eff"]), beta, b, mag))
        print(f"loaded guide {f / 1e9:.2f} GHz: n_eff {float(table[0]['n_eff']):.8f}, beta solver "
              f"{beta:.9g} rad/m, run {b:.9g} rad/m ({b / beta - 1:+.2e}), |a_far / a_near| {mag:.8f}")
    return worst, wall


def save(a, plt, fig, title, name):
    """The picture `name` in the picture folder, with its title."""
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path = os.path.join(a.out, name)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)


def ports_picture(a, plt, pin, pout, s11, s21):
    """docs/img/si_wire_ports.png: the straight wire between its two TE0 ports."""
    f = pin["frequency_hz"] / 1e12
    fig, (ax, ap) = plt.subplots(1, 2, figsize=(10, 3.8))
    ax.plot(f, 20 * np.log10(np.abs(s11)), "o-", ms=3, label="|S11| (dB)")
    ax.set_ylabel("|S11| (dB)")
    ax.set_xlabel("frequency (THz)")
    ax.grid(alpha=0.3)
    ax.set_title("port in: what comes back", fontsize=10)
    ap.plot(f, np.abs(s21) - 1, "o-", ms=3, label="|S21| - 1")
    ap.plot(f, np.angle(s21 * np.exp(1j * pout["beta_rad_per_m"] * WIRE_PORTS_L)), "s-", ms=3,
            label="arg(S21 exp(j beta L)) (rad)")
    ap.set_xlabel("frequency (THz)")
    ap.grid(alpha=0.3)
    ap.legend(fontsize=8)
    ap.set_title("port out: S21 against exp(-j beta L), L = 1.4 um", fontsize=10)
    save(a, plt, fig, "models/si_wire.ini: two waveguide ports of the solved TE0 (mode = 1), launched "
         "at 193.4 THz, solved again at each frequency", "si_wire_ports.png")


def expansion_check(a, plt, out, pin):
    """models/si_wire.ini's mode_expansion monitor at z = 1.8 um: TE0 carries what port `in`
    launches (within 1e-3), TM0 nothing (below 1e-4 of it); docs/img/si_wire_expansion.png."""
    x = np.genfromtxt(os.path.join(out, "monitors", "modes_end.csv"), delimiter=",", names=True)
    launched = np.abs(pin["a_re"] + 1j * pin["a_im"]) ** 2
    worst = 0.0
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for mode, name in ((1, "TE0 (mode 1)"), (2, "TM0 (mode 2)")):
        rows = x[x["mode"] == mode]
        at = np.searchsorted(pin["frequency_hz"], rows["frequency_hz"])
        t = rows["forward_J_s"] / launched[at]
        worst = max(worst, np.max(np.abs(t - 1)) if mode == 1 else np.max(t) * 10)
        print(f"silicon wire expansion at z = 1.8 um, {name}: forward / launched "
              f"{np.min(t):.7g}..{np.max(t):.7g}")
        ax.plot(rows["frequency_hz"] / 1e12, 10 * np.log10(t), "o-", ms=3, label=name)
    ax.set_xlabel("frequency (THz)")
    ax.set_ylabel("forward energy / launched (dB)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    save(a, plt, fig, "models/si_wire.ini: mode_expansion monitor `modes_end` (z = 1.8 um)\n"
         "the run split into the wire's TE0 and TM0", "si_wire_expansion.png")
    return 1.0 if worst > 1e-3 else 0.0


def si_wire(a, plt, wire_run):
    table = modes(a, WIRE, WIRE_AT, os.path.join(a.work, "si_wire_modes.csv"), "--count=2")
    mode = read_vti(os.path.join(a.work, "si_wire_modes.vti"))
    err = 0.0
    if wire_run:
        out = os.path.join(a.work, "si_wire")
        run(a.bin, WIRE, out)
        mid = read_vti(os.path.join(out, "monitors", "mid.vti"))
        end = read_vti(os.path.join(out, "monitors", "end.vti"))
        beta = float(table[0]["beta_rad_per_m"])
        b, mag = beta_between(forward_amplitude(mid, 0, mode, 1, beta, WIRE_DZ),
                              forward_amplitude(end, 0, mode, 1, beta, WIRE_DZ), WIRE_L, beta)
        err = abs(b / beta - 1)
        print(f"silicon wire TE0: beta solver {beta:.9g} rad/m, run {b:.9g} rad/m "
              f"({b / beta - 1:+.2e}), |a_end / a_mid| {mag:.5f}")
        pin = np.genfromtxt(os.path.join(out, "ports", "in.csv"), delimiter=",", names=True)
        pout = np.genfromtxt(os.path.join(out, "ports", "out.csv"), delimiter=",", names=True)
        s11 = pin["s11_re"] + 1j * pin["s11_im"]
        s21 = pout["s21_re"] + 1j * pout["s21_im"]
        mag21 = np.max(np.abs(np.abs(s21) - 1))
        phase21 = np.max(np.abs(np.angle(s21 * np.exp(1j * pout["beta_rad_per_m"] * WIRE_PORTS_L))))
        worst11 = 20 * np.log10(np.max(np.abs(s11)))
        print(f"silicon wire ports: ||S21| - 1| <= {mag21:.2e}, S21 within {phase21:.2e} rad of "
              f"exp(-j beta L), |S11| <= {worst11:.1f} dB over {pin['frequency_hz'][0] / 1e12:.1f}.."
              f"{pin['frequency_hz'][-1] / 1e12:.1f} THz")
        if mag21 > 1e-3 or phase21 > 1e-3 or worst11 > -60:
            err = max(err, 1.0)
        ports_picture(a, plt, pin, pout, s11, s21)
        err = max(err, expansion_check(a, plt, out, pin))
    eps = mode["eps_r"][..., 0]
    dx = dy = WIRE_DZ
    nx, ny = eps.shape
    x = (np.arange(nx) + 0.5) * dx * 1e6 + 0.30
    y = (np.arange(ny) + 0.5) * dy * 1e6 + 0.30
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for k, ax in enumerate(axes, start=1):
        e = mode[f"E_{k}"][..., 0, :]
        intensity = np.sum(e ** 2, axis=-1)
        im = ax.pcolormesh(x, y, (intensity / intensity.max()).T, shading="auto", cmap="inferno")
        ax.contour(x, y, eps.T, levels=[1.5], colors=["#7fd3ff"], linewidths=0.8)
        ax.contour(x, y, eps.T, levels=[6.0], colors=["white"], linewidths=1.0)
        # The transverse E as arrows, every 5th cell, where |E|^2 is above 2% of its peak.
        s = slice(2, None, 5)
        ex, ey = e[s, s, 0], e[s, s, 1]
        strong = (ex ** 2 + ey ** 2) > 0.02 * intensity.max()
        peak = np.sqrt(intensity.max())
        ax.quiver(*np.meshgrid(x[s], y[s], indexing="ij"), np.where(strong, ex, np.nan),
                  np.where(strong, ey, np.nan), color="#9be29b", angles="xy",
                  scale_units="xy", scale=peak / 0.16, width=0.005)
        ax.set_xlim(0.7, 2.3)
        ax.set_ylim(0.7, 2.1)
        row = table[k - 1]
        name = "TE0" if float(row["u_fraction"]) > 0.5 else "TM0"
        ax.set_title(f"mode {k} ({name}): n_eff {float(row['n_eff']):.5f}, "
                     f"E along x {100 * float(row['u_fraction']):.1f}%", fontsize=10)
        ax.set_xlabel("x (um)")
        ax.set_ylabel("y (um)")
        ax.set_aspect("equal")
        fig.colorbar(im, ax=ax, label="|E|^2 (normalised)", shrink=0.85)
    save(a, plt, fig, "models/si_wire.ini: clfdtd modes at 1550 nm, 20 nm cells (silicon white, "
         "silica below blue; arrows: E_x, E_y)", "si_wire_modes.png")
    return err


def main():
    wire_run = "--wire-run" in sys.argv
    if wire_run:
        sys.argv.remove("--wire-run")
    a = parse_args(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t0 = time.monotonic()
    with runs_folder(a.work, "mode_models_") as a.work:
        worst_guide, _ = loaded_guide(a)
        wire_err = si_wire(a, plt, wire_run)
    print(f"\n{time.monotonic() - t0:.1f} s in all")
    failed = False
    if worst_guide > GUIDE_TOLERANCE:
        print(f"FAIL: the loaded guide's run departs from the solver's mode by {worst_guide:.2e} (> {GUIDE_TOLERANCE})")
        failed = True
    if wire_err > WIRE_TOLERANCE:
        print(f"FAIL: the silicon wire's TE0 travels {wire_err:.2e} off the solver's beta (> {WIRE_TOLERANCE}), "
              "or its ports miss their bounds (above)")
        failed = True
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
