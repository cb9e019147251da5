"""Mutated model files and command lines for tools/fuzz/fuzz.

A case is a model file (bytes) plus the arguments after `clfdtd run`. Seeds are the project's own
model files, shortened (time.steps capped, snapshot and probe steps scaled to match) so that the
cases that get through run in about a second; mutations then target one thing at a time: bytes,
lines, one key with an extreme value (in the file or on the command line), the output path, the
order of the arguments.
"""

import os
import random
import re

# Values that break naive parsing or arithmetic: zero, negative, overflow to inf, NaN, integers
# past 32/64 bits, empty, long, control and escape characters, non-UTF-8 bytes.
EXTREME_VALUES = [
    "0", "-1", "-0", "1e308", "-1e308", "1e-308", "4.9e-324", "nan", "NaN", "inf", "-inf",
    "Infinity", "9e15", "9223372036854775807", "9223372036854775808", "18446744073709551616",
    "2147483648", "-2147483649", "99999999999999999999999999999", "0x10", "1e", "1..2", "+",
    "", " ", "true", "false", "x" * 5000, "1" * 400, "0.6 " * 200, "\x1b]0;title\x07\x1b[2J",
    "\x00", "1\x002", "\t", "\u00e9t\u00e9", "\xff\xfe", "1,", ",,,", "1 2", "1 2 3", "1 2 3 4 5 6",
    "1 2 3 4 5 6 7", "-1 -1 -1", "0 0 0", "1e308 1e308 1e308", "nan nan nan", "# comment",
    "[grid]", "=", "a=b", "\\", "'\"", "%s%s%n", "../../../etc/passwd",
]

# Numbers near the seeds' own values, for mutations that keep a key's type.
SCALES = ["0", "-1", "1e-30", "1e-6", "0.5", "2", "10", "1e3", "1e6", "1e30", "1e300"]

# Values of output.dir, as the case runner resolves them (see fuzz: PATHS). Names in <> are
# replaced by the runner with paths of the scratch tree.
OUTPUT_DIRS = [
    "..", "../..", ".", "./", "", "/", "//", "<abs_case>", "<abs_victim>", "<abs_tmp_new>",
    "victim", "victim/", "victim/sub", "<model>", "<abs_model>", "afile", "afile/sub",
    "prev", "prev/", "out/../victim", "out/deep/er/path", "out/" + "n" * 300,
    "/".join(["d"] * 300), "out/\x1b[2Jx", "out/\ttab", "out/ space", "-", "--help", "~",
    "/proc/self", "/dev/null", "/usr/share/doc", "symlink_to_victim", "dangling_link",
    "out\x00hidden", "new_out",
]


def option_table(model_keys_md):
    """[(section, key)] from docs/MODEL_KEYS.md; <name> sections get a name per case."""
    table = []
    section = None
    for line in open(model_keys_md, encoding="utf-8"):
        m = re.match(r"## `\[(.+?)\]`", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"\| `([a-z_0-9]+)` \|", line)
        if m and section:
            table.append((section, m.group(1)))
    if not table:
        raise SystemExit(f"{model_keys_md}: no option table found")
    return table


def shorten(text, max_steps=40):
    """A seed: the model with time.steps capped (duration replaced) and step lists scaled.
    Only the examples of models/ need it; tests/data/ files are small and kept as they are."""
    lines = text.split("\n")
    steps = None
    for line in lines:
        m = re.match(r"\s*steps\s*=\s*(\d+)", line)
        if m and steps is None:
            steps = int(m.group(1))
    out = []
    section = ""
    for line in lines:
        m = re.match(r"\s*\[(.+?)\]", line)
        if m:
            section = m.group(1)
        body = line.split("#", 1)[0]
        if section == "time" and re.match(r"\s*(steps|duration)\s*=", body):
            if "steps = " + str(max_steps) not in out:
                out.append(f"steps = {max_steps}")
            continue
        m = re.match(r"(\s*steps\s*=\s*)([\d ,]+)$", body.rstrip())
        if m and section in ("snapshot",) or (m and section.startswith("probe.")):
            old = [int(v) for v in re.split(r"[ ,]+", m.group(2).strip()) if v]
            total = steps or max_steps
            new = sorted({min(max_steps, v * max_steps // max(total, 1)) for v in old})
            if section.startswith("probe.") and len(new) == 1:
                new = [new[0], new[0]]
            out.append(m.group(1) + " ".join(str(v) for v in new))
            continue
        out.append(line)
    return "\n".join(out)


class Mutator:
    def __init__(self, seeds, table, rng):
        self.seeds = seeds  # [(name, text)]
        self.table = table
        self.rng = rng

    def value(self):
        r = self.rng.random()
        if r < 0.7:
            return self.rng.choice(EXTREME_VALUES)
        if r < 0.9:
            return self.rng.choice(SCALES)
        return "".join(chr(self.rng.randrange(1, 256)) for _ in range(self.rng.randrange(1, 30)))

    def section_name(self, section):
        if "<name>" not in section:
            return section
        names = ["feed", "glass", "ball", "r5", "x", "", "a.b", "pec", "vacuum", "\x1b[31m",
                 "n" * 300]
        return section.replace("<name>", self.rng.choice(names))

    def case(self):
        """(description, model bytes, extra args, touched keys)."""
        # Seeds that run (models/, good_model.ini) two times in three: mutations of them reach
        # the mesh, the device and the outputs; the bad_*.ini ones mostly exercise the parser.
        good = [s for s in self.seeds if "/bad_" not in s[0]]
        bad = [s for s in self.seeds if "/bad_" in s[0]]
        name, text = self.rng.choice(good if self.rng.random() < 0.67 or not bad else bad)
        args = []
        kinds = []
        data = text.encode()
        for _ in range(self.rng.choice([1, 1, 1, 2, 3])):
            kind = self.rng.choice(["bytes", "lines", "key_file", "key_cli", "key_cli",
                                    "output_dir", "output_dir", "form", "order"])
            kinds.append(kind)
            data, args = getattr(self, "m_" + kind)(data, args)
        if "<model_here>" not in args:  # the model path first, unless m_order placed it
            args.insert(0, "<model_here>")
        if self.rng.random() < 0.15:
            args.append("--backend=reference")
        if self.rng.random() < 0.5:
            args.append("--quiet")
        return f"{name}: {'+'.join(kinds)}", data, args

    def m_bytes(self, data, args):
        b = bytearray(data)
        for _ in range(self.rng.choice([1, 1, 2, 5, 20])):
            if not b:
                break
            i = self.rng.randrange(len(b))
            op = self.rng.random()
            if op < 0.4:
                b[i] ^= 1 << self.rng.randrange(8)
            elif op < 0.7:
                b[i] = self.rng.choice(b"0123456789.-+e=[]# \n\t\x00\xff")
            elif op < 0.85:
                del b[i]
            else:
                b.insert(i, self.rng.randrange(256))
        return bytes(b), args

    def m_lines(self, data, args):
        lines = data.split(b"\n")
        i = self.rng.randrange(len(lines))
        op = self.rng.random()
        if op < 0.4:
            del lines[i]
        elif op < 0.7:
            lines.insert(i, lines[i])
        elif op < 0.85:
            j = self.rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines = lines[:i]  # truncated file
        return b"\n".join(lines), args

    def _key(self):
        section, key = self.rng.choice(self.table)
        return self.section_name(section), key

    def m_key_file(self, data, args):
        section, key = self._key()
        line = f"{key} = {self.value()}".encode("utf-8", "surrogateescape")
        lines = data.split(b"\n")
        header = f"[{section}]".encode("utf-8", "surrogateescape")
        if header in [ln.strip() for ln in lines] and self.rng.random() < 0.8:
            at = [ln.strip() for ln in lines].index(header)
            # replace the key if present in that section, else add it after the header
            for j in range(at + 1, len(lines)):
                s = lines[j].strip()
                if s.startswith(b"["):
                    break
                if s.split(b"=")[0].strip() == key.encode():
                    lines[j] = line
                    return b"\n".join(lines), args
            lines.insert(at + 1, line)
        else:
            lines += [header, line]
        return b"\n".join(lines), args

    def m_key_cli(self, data, args):
        section, key = self._key()
        v = self.value()
        if self.rng.random() < 0.8:
            args.append(f"--{section}.{key}={v}")
        else:
            args += [f"--{section}.{key}", v]
        return data, args

    def m_output_dir(self, data, args):
        d = self.rng.choice(OUTPUT_DIRS)
        if self.rng.random() < 0.5:
            args.append(f"--output.dir={d}")
        else:
            data = re.sub(rb"(?m)^dir\s*=.*$", b"dir = " + d.encode("utf-8", "surrogateescape"),
                          data)
            if b"dir = " not in data:
                data += b"\n[output]\ndir = " + d.encode("utf-8", "surrogateescape") + b"\n"
        if self.rng.random() < 0.3:
            args.append("--output.overwrite=" + self.rng.choice(["true", "false", "1", "yes"]))
        return data, args

    def m_form(self, data, args):
        op = self.rng.random()
        if op < 0.25:
            data = b"\xef\xbb\xbf" + data  # UTF-8 BOM
        elif op < 0.45:
            data = data.replace(b"\n", b"\r\n")
        elif op < 0.6:
            data = data.replace(b" = ", b"\t=\t")
        elif op < 0.7:
            data = data.rstrip(b"\n")
        elif op < 0.8:
            data = data * 2  # every section and key twice
        elif op < 0.9:
            data = b""
        else:
            data = data + b"\n" + b"# " + b"y" * 200000 + b"\n"
        return data, args

    def m_order(self, data, args):
        """Arguments shuffled; the model path moved (the runner puts <model> where it lands)."""
        extra = self.rng.choice([[], ["--quiet"], ["--help"], ["--device=cpu"], ["--variant=rows"],
                                 ["--workgroup=1 1 1"], ["--nonexistent=1"], ["-x"], ["--"],
                                 ["<model>"], ["--time.steps=5", "--time.steps=6"]])
        args = args + extra
        self.rng.shuffle(args)
        args.insert(self.rng.randrange(len(args) + 1), "<model_here>")
        return data, args


def load_seeds(root, max_steps):
    seeds = []
    for sub in ("models", os.path.join("tests", "data")):
        folder = os.path.join(root, sub)
        for f in sorted(os.listdir(folder)):
            if f.endswith(".ini"):
                text = open(os.path.join(folder, f), encoding="utf-8").read()
                seeds.append((f"{sub}/{f}", shorten(text, max_steps) if sub == "models" else text))
    return seeds


def make_mutator(root, seed, max_steps=40):
    table = option_table(os.path.join(root, "docs", "MODEL_KEYS.md"))
    return Mutator(load_seeds(root, max_steps), table, random.Random(seed))
