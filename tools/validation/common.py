"""Shared plumbing of tools/validate: running the real program, reading its outputs, and the
result records every case returns."""

import csv
import json
import os
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np

C0 = 299792458.0
MU0 = 1.25663706212e-6
EPS0 = 1.0 / (MU0 * C0 * C0)


@dataclass
class Check:
    """One bounded figure: what is measured, its bound (as text and as a test), the value."""
    name: str
    bound: str
    measured: str
    passed: bool


@dataclass
class CaseResult:
    name: str
    title: str
    size: str = ""                 # grids and steps used, for the report
    checks: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # extra lines for the report (tables, estimator)
    plot: str = ""                 # PNG path, when plots were asked for
    seconds: float = 0.0

    @property
    def passed(self):
        return bool(self.checks) and all(c.passed for c in self.checks)

    def check(self, name, bound, measured, passed):
        self.checks.append(Check(name, bound, measured, bool(passed)))
        print(f"  {'PASS' if passed else 'FAIL'}  {name}: measured {measured} (bound {bound})",
              flush=True)


class Context:
    """Where the program is, where runs go, and which sizes to use."""

    def __init__(self, binary, work, reduced, plots_dir=None, root=".", backend=None, keys=()):
        self.binary = binary
        self.backend = backend  # device.backend for every run (None: the model's, OpenCL)
        self.keys = list(keys)  # "key=value" for every run (tools/validate --set)
        self.work = work
        self.reduced = reduced
        self.plots_dir = plots_dir
        self.root = root
        self.devices = set()
        self.commit = ""  # the program's commit, for the report

    def model(self, name):
        return os.path.join(self.root, "models", "validation", name)

    def run(self, model, run_name, overrides=(), expect_ok=True):
        """Runs `clfdtd run <model> --output.dir=<work>/<run_name> <overrides>` on the OpenCL
        engine (the model's default backend; `backend` given to the Context replaces it) and
        returns a Run with its outputs."""
        out = os.path.join(self.work, run_name)
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        chosen = any(o.startswith("--device.backend=") for o in overrides)
        backend = [f"--device.backend={self.backend}"] if self.backend and not chosen else []
        own = {o[2:].split("=", 1)[0] for o in overrides if o.startswith("--")}
        keys = [f"--{kv}" for kv in self.keys if kv.split("=", 1)[0] not in own]
        cmd = [self.binary, "run", model, "--quiet", f"--output.dir={out}", *backend, *keys,
               *overrides]
        t0 = time.time()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall = time.time() - t0
        if expect_ok and p.returncode != 0:
            raise RuntimeError(f"clfdtd failed (exit {p.returncode}): {' '.join(cmd)}\n{p.stdout}")
        run = Run(out, p.stdout, p.returncode)
        if run.report:
            rj = run.report
            self.devices.add(f"{rj['device']} ({rj['backend']})")
            print(f"    ran {run_name}: {rj['cells'][0]}x{rj['cells'][1]}x{rj['cells'][2]} cells, "
                  f"{rj['steps_done']} steps, {wall:.1f} s, {rj['mcells_per_s']:.0f} Mcells/s "
                  f"[{rj['backend']}, {rj['kernel_variant']}]", flush=True)
        return run

    def plot_path(self, name):
        if not self.plots_dir:
            return None
        os.makedirs(self.plots_dir, exist_ok=True)
        return os.path.join(self.plots_dir, name)


def probe_column(probe, field_name):
    """probes.csv's column of one probe sample: '<probe>.<field>_<unit>' (V_per_m for E, A_per_m
    for H)."""
    return f"{probe}.{field_name}_{'V' if field_name.startswith('E') else 'A'}_per_m"


def flux_column(cols):
    """A flux monitor CSV's flux column: flux_J_s (3D, cylindrical) or flux_J_s_per_m (2D)."""
    for name in ("flux_J_s", "flux_J_s_per_m"):
        if name in cols:
            return cols[name]
    raise KeyError("no flux_J_s or flux_J_s_per_m column")


class Run:
    """The outputs of one clfdtd run."""

    def __init__(self, out, log, code):
        self.dir = out
        self.log = log
        self.code = code
        path = os.path.join(out, "run.json")
        self.report = json.load(open(path)) if os.path.exists(path) else None

    @property
    def dt(self):
        return self.report["dt_s"]

    @property
    def d(self):
        return np.array(self.report["cell_size_m"], dtype=float)

    @property
    def n(self):
        return np.array(self.report["cells"], dtype=int)

    def probes(self):
        """probes.csv as {column: float array}; empty cells (outside a window) become NaN."""
        return read_csv(os.path.join(self.dir, "probes.csv"))

    def energy(self):
        return read_csv(os.path.join(self.dir, "energy.csv"))

    def probe_position(self, probe, field_name):
        for p in self.report["probes"]:
            if p["name"] == probe and p["field"] == field_name:
                return np.array(p["position_m"], dtype=float)
        raise KeyError(f"{probe}.{field_name} not in run.json")

    def snapshot(self, step):
        return read_vti(os.path.join(self.dir, "snapshots", f"fields_{step}.vti"))


def read_ini(path):
    """A model file as configparser sections (keys as written; '#' comments dropped)."""
    import configparser
    cp = configparser.ConfigParser(inline_comment_prefixes=("#",))
    cp.optionxform = str
    cp.read(path)
    return cp


def ini_vector(ini, section, key):
    return np.array([float(v) for v in ini[section][key].replace(",", " ").split()])


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    cols = {}
    for i, name in enumerate(header):
        cols[name] = np.array([float(r[i]) if r[i] != "" else np.nan for r in body])
    return cols


def read_vti(path):
    """A .vti written by clfdtd (appended raw binary, no compression, UInt64 headers): returns
    {array name: numpy array shaped (nx, ny, nz[, components])}, indexed [i, j, k]."""
    data = open(path, "rb").read()
    marker = data.index(b"<AppendedData")
    start = data.index(b"_", marker) + 1
    root = ET.fromstring(data[:marker].decode() + "</VTKFile>"
                         if b"</VTKFile>" not in data[:marker] else data[:marker].decode())
    if root.get("byte_order") != "LittleEndian" or root.get("header_type") != "UInt64":
        raise ValueError(f"{path}: unexpected .vti layout")
    if root.get("compressor"):
        raise ValueError(f"{path}: compressed .vti not supported")
    extent = [int(v) for v in root.find("ImageData").get("WholeExtent").split()]
    # A 2D model's image is one point thick (extent 0 0 in z): its cells form one layer.
    n = tuple(max(extent[2 * a + 1] - extent[2 * a], 1) for a in range(3))
    types = {"Float32": "<f4", "Float64": "<f8", "UInt8": "u1", "Int32": "<i4"}
    out = {}
    for arr in root.iter("DataArray"):
        if arr.get("format") != "appended":
            continue
        off = start + int(arr.get("offset"))
        nbytes = int(np.frombuffer(data[off:off + 8], "<u8")[0])
        dtype = types.get(arr.get("type"))
        if dtype is None:
            continue
        values = np.frombuffer(data[off + 8:off + 8 + nbytes], dtype)
        comps = int(arr.get("NumberOfComponents", "1"))
        if values.size != n[0] * n[1] * n[2] * comps:
            continue  # field data (TimeValue) and the like
        shaped = values.reshape(n[2], n[1], n[0], comps).transpose(2, 1, 0, 3)
        out[arr.get("Name")] = shaped[..., 0] if comps == 1 else shaped
    return out


def fmt_pct(x, digits=3):
    return f"{100 * x:.{digits}f}%"


def git_describe(root):
    try:
        return subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True).stdout.strip()
    except OSError:
        return ""
