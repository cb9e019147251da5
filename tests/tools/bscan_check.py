#!/usr/bin/env python3
"""tools/bscan on models/plane_gpr.ini (2D, 700 steps, 7 traces over the buried pipe, antennas
moved together by 5 cm):
- every column of bscan.csv is the receiver's series of a plain `clfdtd run` with the source and
  probe moved to that trace's positions (equal to the digit);
- the pipe's echo (the scan minus the same scan with the pipe made of soil) peaks first at the
  trace over the pipe, and the later traces' delays match the geometry: the shortest path
  source -> pipe surface -> receiver (Fermat: air above the ground, v = c / sqrt(6) in it), within
  0.02 ns, and eps_r fitted to them is 6 +- 0.3;
- run again, every trace is kept (nothing reruns) and bscan.csv is the same; with other options
  they all run again;
- bad input exits 2, runs nothing and leaves things as they were: a foreign file in --out or in
  its traces/ (kept), a bscan.csv without a scan's bscan.json, an option after `--` that moves the
  source or sets output.overwrite, a trace outside the grid, an unknown probe, a field the probe
  does not record (after trace 0); a trace whose run fails (its source on the PEC pipe; the last
  trace's source in the UPML, which runs second) exits 3 and bscan.json says so; a model with
  output.overwrite = true still never replaces a trace folder holding someone's file;
- SIGINT to the script in the middle of a trace exits 6, and the next call resumes (keeps the
  traces done before it).

Usage: tests/tools/bscan_check.py <clfdtd program> <scratch folder>   (run from the root)
"""

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from system_python import reexec_with_system_python  # noqa: E402

reexec_with_system_python("numpy", "matplotlib")

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "bscan")
MODEL = os.path.join(ROOT, "models", "plane_gpr.ini")
STEPS = 700
C0 = 299792458.0

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) if x != "" else np.nan for x in r] for r in rows[1:]])


def scan(clfdtd, model, out, extra=(), traces=7):
    cmd = [TOOL, model, "--step", "0.05", "0", "--traces", str(traces), "--out", out,
           "--bin", clfdtd, "--dpi", "40", "--", f"--time.steps={STEPS}"] + list(extra)
    return run(cmd)


def travel_time(tx, rx, centre, radius, v, surface=0.5):
    """Fermat's shortest time source -> pipe surface -> receiver: the antennas are in air (c) above
    the ground's surface y = `surface`, the pipe in soil (v); each leg crosses the surface where
    its time is least (at large offsets part of the way runs along the surface in air)."""
    phi = np.linspace(0, 2 * np.pi, 1441)[:-1]
    p = np.stack([centre[0] + radius * np.cos(phi), centre[1] + radius * np.sin(phi)], axis=1)
    xe = np.arange(0.0, 1.2, 0.0005)  # where a leg crosses the surface

    def leg(a):
        air = np.hypot(xe - a[0], a[1] - surface) / C0
        soil = np.hypot(p[:, :1] - xe[None, :], p[:, 1:] - surface) / v
        return (air[None, :] + soil).min(axis=1)

    return (leg(tx) + leg(rx)).min()


def main():
    clfdtd, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # The model's source starts at 0.475; shift it and the probe 5 cm back through the model file
    # (the scan refuses options that move them), so the traces' midpoints are 0.45 .. 0.75 m.
    model_text = open(MODEL).read().replace("position = 0.475 0.51", "position = 0.425 0.51") \
                                  .replace("position = 0.525 0.51", "position = 0.475 0.51")
    model = os.path.join(work, "plane_gpr_scan.ini")
    with open(model, "w") as f:
        f.write(model_text)

    out = os.path.join(work, "scan")
    r = scan(clfdtd, model, out)
    check(r.returncode == 0, f"tools/bscan exits 0 ({r.returncode}): {r.stdout[-400:]}")
    if r.returncode != 0:
        return
    for name in ("bscan.csv", "bscan.json", "bscan.png"):
        check(os.path.isfile(os.path.join(out, name)), f"{name} written")
    header, data = read_csv(os.path.join(out, "bscan.csv"))
    check(header == ["time_s"] + [f"trace_{i}" for i in range(7)], f"bscan.csv header {header}")
    record = json.load(open(os.path.join(out, "bscan.json")))
    check(record["field"] == "Ez" and record["unit"] == "V/m", "bscan.json: field Ez in V/m")
    check([t["state"] for t in record["traces"]] == ["completed"] * 7, "every trace completed")

    # Columns against plain runs at trace 2's and 6's positions.
    for i in (2, 6):
        s, rcv = record["traces"][i]["source_m"], record["traces"][i]["receiver_m"]
        check(abs(s[0] - (0.425 + 0.05 * i)) < 1e-12 and abs(rcv[0] - (0.475 + 0.05 * i)) < 1e-12,
              f"trace {i} positions {s} {rcv}")
        d = os.path.join(work, f"direct{i}")
        rr = run([clfdtd, "run", model, f"--time.steps={STEPS}",
                  f"--source.tx.position={s[0]:.9g} {s[1]:.9g}",
                  f"--probe.rx.position={rcv[0]:.9g} {rcv[1]:.9g}", f"--output.dir={d}"])
        h, p = read_csv(os.path.join(d, "probes.csv"))
        col = p[:, h.index("rx.Ez_V_per_m")]
        same = np.array_equal(np.float32(col), np.float32(data[:, 1 + i]))
        check(rr.returncode == 0 and same, f"trace {i} equals a plain run at its positions")

    # The pipe's echo: the scan minus the same scan with the pipe made of soil.
    nopipe = os.path.join(work, "nopipe")
    r = scan(clfdtd, model, nopipe, ["--object.pipe.material=soil"])
    check(r.returncode == 0, "the scan without the pipe")
    _, ground = read_csv(os.path.join(nopipe, "bscan.csv"))
    t = data[:, 0]
    echo = data[:, 1:] - ground[:, 1:]
    arrival = np.array([t[np.argmax(np.abs(echo[:, i]))] for i in range(7)])
    check(int(np.argmin(arrival)) == 3, f"the echo arrives first over the pipe (trace 3, x = 0.6 m): "
          f"arrivals {np.round(arrival * 1e9, 3)} ns")
    def delays(v):
        times = np.array([travel_time(np.array(e["source_m"]), np.array(e["receiver_m"]),
                                      (0.6, 0.25), 0.05, v) for e in record["traces"]])
        return times - times[3]

    measured = arrival - arrival[3]
    predicted = delays(C0 / np.sqrt(6.0))
    worst = np.abs(predicted - measured).max()
    check(worst < 0.02e-9, f"echo delays against the ray times at c/sqrt(6): worst {worst * 1e9:.3f} "
          f"ns (measured {np.round(measured * 1e9, 3)}, predicted {np.round(predicted * 1e9, 3)})")
    # The soil's eps_r that fits the delays best: 6 (eps_r 5 or 7 would be off by 0.025-0.04 ns).
    grid = np.arange(4.0, 8.01, 0.1)
    misfit = [np.sum((delays(C0 / np.sqrt(e)) - measured) ** 2) for e in grid]
    best = grid[int(np.argmin(misfit))]
    check(abs(best - 6.0) < 0.35, f"... the eps_r fitting them best: {best:.1f} (the soil's: 6)")

    # Run again: everything kept, same CSV.
    before = open(os.path.join(out, "bscan.csv")).read()
    r = scan(clfdtd, model, out)
    check(r.returncode == 0 and r.stdout.count("kept from the earlier scan") == 7 and
          "(0 traces run, 7 kept)" in r.stdout, "a second call keeps every trace")
    check(open(os.path.join(out, "bscan.csv")).read() == before, "... and writes the same CSV")
    again = json.load(open(os.path.join(out, "bscan.json")))
    check(again["complete"] and len(again["traces"]) == 7 and
          again["traces"][3]["receiver_sample_m"][:2] == [0.625, 0.51],
          f"... and bscan.json again, with the receiver's sample ({again['traces'][3]['receiver_sample_m']})")
    r = scan(clfdtd, model, out, ["--source.tx.amplitude=2"])
    check(r.returncode == 0 and "(7 traces run, 0 kept)" in r.stdout, "other options rerun them")
    # Another program (here a script that runs the same clfdtd): every trace runs again.
    other_bin = os.path.join(work, "clfdtd-wrapper")
    with open(other_bin, "w") as f:
        f.write(f"#!/bin/sh\nexec '{clfdtd}' \"$@\"\n")
    os.chmod(other_bin, 0o755)
    r = scan(other_bin, model, out, ["--source.tx.amplitude=2"])
    check(r.returncode == 0 and "(7 traces run, 0 kept)" in r.stdout and "program_sha256" in r.stdout,
          "another --bin reruns them")

    # Bad input.
    foreign = os.path.join(work, "foreign")
    os.makedirs(foreign)
    with open(os.path.join(foreign, "notes.txt"), "w") as f:
        f.write("mine\n")
    r = scan(clfdtd, model, foreign)
    check(r.returncode == 2 and "notes.txt" in r.stdout and
          os.listdir(foreign) == ["notes.txt"], f"a foreign file in --out: exit 2, kept ({r.returncode})")
    r = scan(clfdtd, model, os.path.join(work, "x1"), ["--source.tx.position=0.5 0.5"])
    check(r.returncode == 2 and "source.tx.position" in r.stdout, "an option moving the source: exit 2")
    r = run([TOOL, model, "--step", "0.2", "0", "--traces", "7", "--out", os.path.join(work, "x2"),
             "--bin", clfdtd])
    check(r.returncode == 2 and "outside the grid" in r.stdout and
          not os.path.exists(os.path.join(work, "x2")), "a trace outside the grid: exit 2, nothing written")
    r = run([TOOL, model, "--step", "0.05", "0", "--traces", "2", "--probe", "nope",
             "--out", os.path.join(work, "x3"), "--bin", clfdtd])
    check(r.returncode == 2 and "no [probe.nope]" in r.stdout, "an unknown probe: exit 2")
    # The last trace's source in the UPML: it runs second, so the scan stops after one trace.
    x4 = os.path.join(work, "x4")
    r = run([TOOL, model, "--start", "0.4", "0.51", "--step", "0.19", "0", "--receiver-step", "0",
             "0", "--traces", "5", "--out", x4, "--bin", clfdtd, "--", f"--time.steps={STEPS}"])
    states = [t["state"] for t in json.load(open(os.path.join(x4, "bscan.json")))["traces"]]
    check(r.returncode == 3 and "UPML" in r.stdout and states == ["completed", "failed (exit 2)"],
          f"the last trace's source in the UPML: exit 3 after one trace ({r.returncode}, {states})")
    r = run([TOOL, model, "--step", "0.05", "0", "--traces", "3", "--field", "Hx",
             "--out", os.path.join(work, "x5"), "--bin", clfdtd])
    check(r.returncode == 2 and "records Ez, not Hx" in r.stdout and
          not os.path.exists(os.path.join(work, "x5", "bscan.csv")), "a field the probe lacks: exit 2")
    # output.overwrite = true in the model: the traces still never replace a folder holding
    # someone's file (the scan passes output.overwrite = false).
    ow_model = os.path.join(work, "overwrite.ini")
    with open(ow_model, "w") as f:
        f.write(model_text + "\n[output]\noverwrite = true\n" if "[output]" not in model_text
                else model_text.replace("[output]", "[output]\noverwrite = true"))
    ow = os.path.join(work, "ow")
    r = run([TOOL, ow_model, "--step", "0.05", "0", "--traces", "2", "--out", ow, "--bin", clfdtd,
             "--", f"--time.steps={STEPS}"])
    with open(os.path.join(ow, "traces", "001", "notes.txt"), "w") as f:
        f.write("mine\n")
    r = run([TOOL, ow_model, "--step", "0.05", "0", "--traces", "2", "--out", ow, "--bin", clfdtd,
             "--", f"--time.steps={STEPS}", "--source.tx.amplitude=3"])
    check(r.returncode == 3 and os.path.exists(os.path.join(ow, "traces", "001", "notes.txt")),
          f"overwrite = true in the model: a trace folder holding my file is kept, exit 3 ({r.returncode})")
    r = scan(clfdtd, model, os.path.join(work, "x6"), ["--output.overwrite=true"])
    check(r.returncode == 2 and "output.overwrite" in r.stdout, "output.overwrite after --: exit 2")
    # Trace 1's source lands on the PEC pipe (0.6, 0.25): the ends pass the check, trace 1 fails.
    failed = os.path.join(work, "failed")
    r = run([TOOL, model, "--start", "0.4", "0.25", "--step", "0.2", "0", "--receiver-step", "0",
             "0", "--traces", "3", "--out", failed, "--bin", clfdtd, "--", f"--time.steps={STEPS}"])
    states = [t["state"] for t in json.load(open(os.path.join(failed, "bscan.json")))["traces"]]
    check(r.returncode == 3 and states == ["completed", "failed (exit 2)", "completed"] and
          "off PEC" in r.stdout,
          f"a trace whose run fails: exit 3, {states}")
    # A folder holding someone's bscan.csv but no bscan.json of a scan is refused, the file kept.
    theirs = os.path.join(work, "theirs")
    os.makedirs(theirs)
    with open(os.path.join(theirs, "bscan.csv"), "w") as f:
        f.write("mine\n")
    r = scan(clfdtd, model, theirs)
    check(r.returncode == 2 and open(os.path.join(theirs, "bscan.csv")).read() == "mine\n",
          "a bscan.csv without a scan's bscan.json: exit 2, kept")
    # A foreign file inside traces/ of a real scan is refused too.
    with open(os.path.join(out, "traces", "notes.txt"), "w") as f:
        f.write("mine\n")
    r = scan(clfdtd, model, out)
    check(r.returncode == 2 and "notes.txt" in r.stdout, "a foreign file in traces/: exit 2")
    os.remove(os.path.join(out, "traces", "notes.txt"))

    # SIGINT to the script alone in the second trace run (trace 2 of 3 long ones: the last runs
    # second): exit 6, then resume.
    inter = os.path.join(work, "interrupted")
    cmd = [TOOL, model, "--step", "0.05", "0", "--traces", "3", "--out", inter, "--bin", clfdtd,
           "--dpi", "40", "--", "--time.steps=20000"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and not os.path.exists(os.path.join(inter, "traces", "002.log")):
        time.sleep(0.05)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    text, _ = p.communicate(timeout=300)
    check(p.returncode == 6 and "resume" in text, f"SIGINT: exit 6 ({p.returncode}): {text[-300:]}")
    states = {t["index"]: t["state"] for t in json.load(open(os.path.join(inter, "bscan.json")))["traces"]}
    check(states == {0: "completed", 2: "interrupted"}, f"bscan.json after SIGINT: {states}")
    r = run(cmd)
    check(r.returncode == 0 and "(2 traces run, 1 kept)" in r.stdout, "the next call resumes")


if __name__ == "__main__":
    main()
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)
