"""Scratch trees for tools/fuzz/fuzz: a sentinel tree per case, its snapshot and diff, and an
optional jail (a private mount namespace) so that output paths such as `/` or `..` can be tried
without any risk to the machine.

The case tree (cwd = <case>/a/w, so `..` and `../..` stay inside it):
  <case>/thesis.tex  <case>/a/notes.md                 files the user cares about
  <case>/a/w/model.ini                                 the case's model file
  <case>/a/w/victim/{notes.txt, sub/data.bin}          a folder that is not clfdtd output
  <case>/a/w/afile                                     a plain file
  <case>/a/w/prev/                                     an earlier clfdtd output (may be replaced)
  <case>/a/w/symlink_to_victim -> victim, dangling_link -> nowhere

In the jail, the case tree is /case; / is a tmpfs holding /rootkeep.txt and empty /tmp and /home;
/usr and /etc are read-only binds of the host's, /dev holds bind-mounted null, zero, random and
urandom, /proc is the namespace's own; the program is /clfdtd/<name>, read-only. Nothing the
program does there can reach the host's files except the case tree and the shared cache folder.
"""

import hashlib
import os
import shutil
import stat
import subprocess

SENTINELS = {
    "thesis.tex": b"\\documentclass{article} % years of work\n",
    "a/notes.md": b"# notes\n",
    "a/w/victim/notes.txt": b"not clfdtd output\n",
    "a/w/victim/sub/data.bin": bytes(range(256)),
    "a/w/afile": b"a plain file\n",
    "a/w/keep/.hidden": b"hidden\n",
}
CWD = "a/w"
JAIL_MOUNTS = ("usr", "etc", "proc", "sys", "dev", "case", "cache", "clfdtd")


def make_case_tree(case_dir, model_bytes, prev_template):
    if os.path.lexists(case_dir):
        shutil.rmtree(case_dir)
    for rel, content in SENTINELS.items():
        path = os.path.join(case_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)
    cwd = os.path.join(case_dir, CWD)
    with open(os.path.join(cwd, "model.ini"), "wb") as f:
        f.write(model_bytes)
    if prev_template and os.path.isdir(prev_template):
        shutil.copytree(prev_template, os.path.join(cwd, "prev"), symlinks=True)
    os.symlink("victim", os.path.join(cwd, "symlink_to_victim"))
    os.symlink("nowhere", os.path.join(cwd, "dangling_link"))
    return cwd


def snapshot(root, skip_top=()):
    """{relative path: (kind, digest)} of everything under root, links not followed; top-level
    names in skip_top (mount points of the jail) are left out."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in skip_top]
            filenames = [f for f in filenames if f not in skip_top]
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.join(rel_dir, name))
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", oct(st.st_mode & 0o7777))
            elif stat.S_ISREG(st.st_mode):
                h = hashlib.sha256()
                with open(path, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
                out[rel] = ("file", h.hexdigest() + " " + oct(st.st_mode & 0o7777))
            else:
                out[rel] = ("other", oct(st.st_mode))
        # a folder symlink is listed, never entered (os.walk does not follow links by default)
    return out


def diff(before, after):
    created = sorted(set(after) - set(before))
    deleted = sorted(set(before) - set(after))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    return created, deleted, changed


def jail_supported():
    """True when this process may create a private mount namespace (root, or user namespaces)."""
    try:
        r = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _mount(*args):
    subprocess.run(["mount", *args], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


def _bind_ro(src, dst):
    _mount("--bind", src, dst)
    _mount("-o", "remount,bind,ro", dst)


class Jail:
    """A fresh root for one case (call only inside a private mount namespace: see fuzz)."""

    def __init__(self, root, case_dir, cache_dir, binary):
        self.root = root
        os.makedirs(root, exist_ok=True)
        _mount("-t", "tmpfs", "-o", "size=256m,mode=755", "tmpfs", root)
        for d in JAIL_MOUNTS + ("tmp", "home", "run"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        os.chmod(os.path.join(root, "tmp"), 0o1777)
        for link in ("bin", "sbin", "lib", "lib64", "lib32"):
            if os.path.islink("/" + link):
                os.symlink(os.readlink("/" + link), os.path.join(root, link))
        _bind_ro("/usr", os.path.join(root, "usr"))
        _bind_ro("/etc", os.path.join(root, "etc"))
        _mount("-t", "proc", "proc", os.path.join(root, "proc"))
        _bind_ro("/sys", os.path.join(root, "sys"))
        os.makedirs(os.path.join(root, "dev", "shm"))
        os.chmod(os.path.join(root, "dev", "shm"), 0o1777)
        for dev in ("null", "zero", "random", "urandom", "full"):
            node = os.path.join(root, "dev", dev)
            open(node, "w").close()
            _mount("--bind", "/dev/" + dev, node)
        _mount("--bind", case_dir, os.path.join(root, "case"))
        _mount("--bind", cache_dir, os.path.join(root, "cache"))
        target = os.path.join(root, "clfdtd", os.path.basename(binary))
        open(target, "w").close()
        _bind_ro(os.path.realpath(binary), target)
        self.binary = "/clfdtd/" + os.path.basename(binary)
        with open(os.path.join(root, "rootkeep.txt"), "w") as f:
            f.write("the jail's own root: must survive\n")
        self.before = self.snapshot()

    def snapshot(self):
        out = snapshot(self.root, skip_top=JAIL_MOUNTS)
        for dev in ("null", "zero", "random", "urandom", "full"):
            out.pop(os.path.join("dev", dev), None)  # bind mounts of the host's nodes
        return out

    def close(self):
        subprocess.run(["umount", "-R", "-l", self.root], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
