#!/usr/bin/env python3
"""clfdtd under mpirun (issue 21; docs/MPI.md), run by ctest:

  mpi_runs.py <clfdtd> <work dir> <test_communicator_mpi> [mpiexec]

1. tests/data/mpi_split.ini in one process, then under mpirun -np 2 and -np 3 (3: an uneven split
   along z): every output (probes.csv, energy.csv, monitors/*.csv, monitors/*.vti, ports/*.csv,
   every snapshot)
   equal to the one-process run's within 1e-6 of each series' maximum; run.json names the ranks
   and boxes; the ranks other than 0 print nothing.
   tests/data/mpi_waves.ini (plane waves, dispersive materials) the same way under -np 2.
2. Bad input under mpirun -np 2 (a decomposition that does not fit, a 2D model): exit 2, one
   message, nothing written.
3. A memory refusal on rank 1 alone (CLFDTD_HOST_MEMORY_LIMIT in its environment only): every rank
   ends with exit 4, the message names rank 1, nothing written. Non-finite fields (the test hook)
   under -np 3: exit 3 and the one-process message, partial output kept.
4. SIGINT to rank 1 alone during the loop: every rank stops at the same step, exit 6, rank 0
   keeps the partial output.
5. Communicator::abort on rank 1 while rank 0 waits: every rank ends with the abort's code.
Exit 0 when all hold; otherwise each problem is printed and the exit code is 1.
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
from system_python import reexec_with_system_python  # noqa: E402

reexec_with_system_python("numpy")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tools"))
from validation.common import read_vti  # noqa: E402

MODEL = os.path.join(ROOT, "tests", "data", "mpi_split.ini")
TOLERANCE = 1e-6
problems = []


def mpi_env():
    env = dict(os.environ)
    # CI runs as root; 3 ranks on 2 cores need oversubscription; one PoCL thread per rank.
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", POCL_MAX_PTHREAD_COUNT="1")
    return env


def run(cmd, timeout=300):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=mpi_env(), timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def clfdtd_lines(text):
    """The program's own lines (mpirun adds its boxed notices)."""
    return [l for l in text.splitlines() if l.startswith("clfdtd:")]


def compare_series(what, one, many):
    one = np.asarray(one, dtype=float)
    many = np.asarray(many, dtype=float)
    if one.shape != many.shape:
        problems.append(f"{what}: shape {many.shape}, one process {one.shape}")
        return
    scale = np.max(np.abs(one)) if one.size else 0.0
    diff = np.max(np.abs(one - many)) if one.size else 0.0
    if not np.isfinite(diff) or diff > TOLERANCE * scale or (scale == 0 and diff != 0):
        problems.append(f"{what}: differs by {diff:.3g}, series maximum {scale:.3g}")


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [l.strip().split(",") for l in f if l.strip()]
    return header, rows


def compare_csv(rel, one_dir, many_dir, label):
    h1, r1 = read_csv(os.path.join(one_dir, rel))
    h2, r2 = read_csv(os.path.join(many_dir, rel))
    if h1 != h2:
        problems.append(f"{label} {rel}: header {h2}, one process {h1}")
        return
    if len(r1) != len(r2):
        problems.append(f"{label} {rel}: {len(r2)} rows, one process {len(r1)}")
        return
    for c, name in enumerate(h1):
        try:
            a = [float(r[c]) for r in r1]
            b = [float(r[c]) for r in r2]
        except ValueError:  # a text column: equal as text
            if [r[c] for r in r1] != [r[c] for r in r2]:
                problems.append(f"{label} {rel}: column {name} differs")
            continue
        compare_series(f"{label} {rel} column {name}", a, b)


def compare_vti(rel, one_dir, many_dir, label):
    a = read_vti(os.path.join(one_dir, rel))
    b = read_vti(os.path.join(many_dir, rel))
    if sorted(a) != sorted(b):
        problems.append(f"{label} {rel}: arrays {sorted(b)}, one process {sorted(a)}")
        return
    for name in a:
        compare_series(f"{label} {rel} array {name}", a[name], b[name])


def files_under(d):
    out = set()
    for base, _, names in os.walk(d):
        for n in names:
            out.add(os.path.relpath(os.path.join(base, n), d))
    return out


def compare_runs(one_dir, many_dir, label, ranks, parts, min_files=10):
    f1, f2 = files_under(one_dir), files_under(many_dir)
    if f1 != f2:
        problems.append(f"{label}: files {sorted(f2 ^ f1)} not in both outputs")
    compared = 0
    for rel in sorted(f1 & f2):
        if rel.endswith(".csv"):
            compare_csv(rel, one_dir, many_dir, label)
        elif rel.endswith(".vti"):
            compare_vti(rel, one_dir, many_dir, label)
        else:
            continue
        compared += 1
    # mpi_split.ini: probes, energy, flux, farfield, dft plane, model, 2 snapshots, the port's two files
    if compared < min_files:
        problems.append(f"{label}: only {compared} output files compared: {sorted(f1)}")
    report = json.load(open(os.path.join(many_dir, "run.json")))
    if report.get("status") != "completed" or report.get("ranks") != ranks:
        problems.append(f"{label}: run.json status {report.get('status')}, ranks {report.get('ranks')}")
    dec = report.get("decomposition", {})
    if dec.get("parts") != parts or len(dec.get("boxes", [])) != ranks:
        problems.append(f"{label}: run.json decomposition {dec}, expected parts {parts}")
    one = json.load(open(os.path.join(one_dir, "run.json")))
    if one.get("ranks") != 1 or one.get("steps_done") != report.get("steps_done"):
        problems.append(f"{label}: one-process run.json ranks {one.get('ranks')}, steps "
                        f"{one.get('steps_done')} vs {report.get('steps_done')}")
    return compared


def rank_process(launcher_pid, rank):
    """The pid of the child of mpirun that is MPI rank `rank` (from its environment), or None."""
    children = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == launcher_pid:  # field 4: the parent's pid
            children.append(pid)
    for pid in children:
        try:
            env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
        except OSError:
            continue
        if f"OMPI_COMM_WORLD_RANK={rank}".encode() in env:
            return int(pid)
    return None


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    clfdtd, work, comm_test = (os.path.abspath(a) for a in sys.argv[1:4])
    mpiexec = sys.argv[4] if len(sys.argv) > 4 else "mpirun"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    one_dir = os.path.join(work, "one")
    rc, out, err = run([clfdtd, "run", MODEL, f"--output.dir={one_dir}", "--quiet"])
    if rc != 0:
        print(f"the one-process run failed ({rc}):\n{out}\n{err}")
        return 1

    # 1. np 2 and np 3 against the one-process run.
    for np_, parts in ((2, [1, 1, 2]), (3, [1, 1, 3])):
        d = os.path.join(work, f"np{np_}")
        rc, out, err = run([mpiexec, "-np", str(np_), clfdtd, "run", MODEL,
                            f"--output.dir={d}", "--quiet"])
        label = f"mpirun -np {np_}"
        if rc != 0:
            problems.append(f"{label}: exit {rc}\n{out}\n{err}")
            continue
        n = compare_runs(one_dir, d, label, np_, parts)
        if out.count("model      ") != 1 or out.count("done       ") != 1:
            problems.append(f"{label}: the summary is not printed once (rank 0 alone):\n{out}")
        print(f"{label}: {n} output files compared with the one-process run")

    # 1b. Plane waves and dispersive materials (a Debye soil through the UPML, a Drude sphere in
    #     the total-field box, the box across the cut) under -np 2.
    waves = os.path.join(ROOT, "tests", "data", "mpi_waves.ini")
    one_waves = os.path.join(work, "waves_one")
    rc, out, err = run([clfdtd, "run", waves, f"--output.dir={one_waves}", "--quiet"])
    if rc != 0:
        problems.append(f"mpi_waves.ini in one process: exit {rc}\n{out}\n{err}")
    else:
        d = os.path.join(work, "waves_np2")
        rc, out, err = run([mpiexec, "-np", "2", clfdtd, "run", waves, f"--output.dir={d}",
                            "--quiet"])
        if rc != 0:
            problems.append(f"mpi_waves.ini under mpirun -np 2: exit {rc}\n{out}\n{err}")
        else:
            # probes, energy, flux, dft plane, model, 3 snapshots
            n = compare_runs(one_waves, d, "mpi_waves.ini under mpirun -np 2", 2, [1, 1, 2], 8)
            print(f"mpi_waves.ini under mpirun -np 2: {n} output files compared with one process")

    # 2. Bad input: exit 2 on every rank, one message, nothing written.
    plane = os.path.join(ROOT, "models", "plane_tm_scatter.ini")
    for model, extra, key in ((MODEL, ["--device.decomposition=3 1 1"], "device.decomposition"),
                              (plane, [], "grid.size")):
        d = os.path.join(work, "bad_" + key)
        rc, out, err = run([mpiexec, "-np", "2", clfdtd, "run", model, f"--output.dir={d}",
                            "--quiet"] + extra)
        lines = clfdtd_lines(err)
        if rc != 2 or len(lines) != 1 or f"'{key}'" not in lines[0] or os.path.exists(d):
            problems.append(f"bad {key} under mpirun -np 2: exit {rc} (expected 2), messages "
                            f"{lines}, output {'written' if os.path.exists(d) else 'absent'}\n{err}")
        else:
            print(f"bad {key} under mpirun: exit 2, one message: {lines[0]}")

    # 3. A memory refusal on rank 1 alone: all ranks end, exit 4, naming rank 1.
    d = os.path.join(work, "memory")
    args = ["run", MODEL, f"--output.dir={d}", "--quiet"]
    rc, out, err = run([mpiexec, "-np", "1", clfdtd] + args +
                       [":", "-np", "1", "env", "CLFDTD_HOST_MEMORY_LIMIT=1000", clfdtd] + args)
    lines = clfdtd_lines(err)
    if rc != 4 or not lines or not lines[0].startswith("clfdtd: rank 1: not enough memory") \
            or os.path.exists(d):
        problems.append(f"memory refusal on rank 1: exit {rc} (expected 4), messages {lines}, "
                        f"output {'written' if os.path.exists(d) else 'absent'}\n{err}")
    else:
        print(f"memory refusal on rank 1: exit 4: {lines[0][:100]}")

    # 3b. Non-finite fields (the test hook's NaN in the first source) under -np 3: the same step
    #     and message as one process, exit 3, rank 0 keeps the partial output.
    texts = []
    for cmd in ([], [mpiexec, "-np", "3", "-x", "CLFDTD_TEST_NAN_AT_STEP"]):
        d = os.path.join(work, f"nan{len(cmd)}")
        env = mpi_env()
        env["CLFDTD_TEST_NAN_AT_STEP"] = "10"
        p = subprocess.run(cmd + [clfdtd, "run", MODEL, f"--output.dir={d}", "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                           timeout=300)
        lines = [l.replace(d, "DIR") for l in clfdtd_lines(p.stderr)]
        texts.append((p.returncode, lines, os.path.exists(os.path.join(d + ".partial", "run.json"))))
    if texts[0] != texts[1] or texts[0][0] != 3 or not texts[0][2]:
        problems.append(f"non-finite: one process {texts[0]}, mpirun -np 3 {texts[1]}")
    else:
        print(f"non-finite under mpirun -np 3: exit 3, as one process: {texts[1][1][0][:90]}")

    # 4. SIGINT to rank 1 alone, once the loop runs: every rank stops at the same step (the
    #    signal is agreed every 32 steps), exit 6, rank 0 keeps the partial output.
    d = os.path.join(work, "signal")
    proc = subprocess.Popen([mpiexec, "-np", "2", clfdtd, "run", MODEL, "--time.steps=10000000",
                             f"--output.dir={d}", "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=mpi_env())
    rank1 = None
    for _ in range(1200):  # until rank 0's temporary folder holds run.json (the loop is next)
        if proc.poll() is not None:
            break
        if glob.glob(d + ".tmp-*/run.json"):
            rank1 = rank_process(proc.pid, 1)
            if rank1:
                break
        time.sleep(0.05)
    if rank1 is None:
        proc.kill()
        problems.append("signal: rank 1's process or rank 0's run.json never appeared")
    else:
        os.kill(rank1, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            problems.append(f"signal: the ranks did not end after SIGINT to rank 1\n{err}")
        report_path = os.path.join(d + ".partial", "run.json")
        report = json.load(open(report_path)) if os.path.exists(report_path) else {}
        done = report.get("steps_done", -1)
        if proc.returncode != 6 or report.get("status") != "interrupted" or done % 32 != 0 \
                or os.path.exists(d):
            problems.append(f"signal to rank 1: exit {proc.returncode} (expected 6), run.json "
                            f"status {report.get('status')}, steps_done {done}\n{err}")
        else:
            print(f"SIGINT to rank 1: every rank stopped at step {done}, exit 6, partial output kept")

    # 5. Communicator::abort on one rank ends every rank with its code.
    rc, out, err = run([mpiexec, "-np", "2", comm_test, "--abort-rank=1"], timeout=120)
    if rc != 9 or "rank 1: test abort" not in err:
        problems.append(f"abort on rank 1: exit {rc} (expected 9)\n{err}")
    else:
        print("abort on rank 1: every rank ended, exit 9")

    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
