#!/usr/bin/env python3
"""README command 1 runs verbatim on a fresh Debian, in a root shell and as a user with sudo.

The command is taken from the README as written and run by bash and by sh (dash) against stub
programs that behave like a fresh system: apt-get refuses to install before `apt-get update` (empty
package lists) and refuses to run without root; a root shell has no sudo. The stubs log every call,
and the log must show update before install, the packages of tools/packages.txt, the build, and
the run of models/dipole.ini. .ci/run must install the same list (it reads tools/packages.txt).

Usage: tests/tools/readme_command1.py [repository root]   (default: the current directory)
"""

import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")


def command1(readme_text):
    """The shell line under the `# 1.` comment of the README's first sh block."""
    block = readme_text.split("```sh\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# 1."))
    for line in lines[start + 1:]:
        if line.strip() and not line.lstrip().startswith("#"):
            return line
    raise SystemExit("README: no command after '# 1.'")


def packages(root):
    with open(os.path.join(root, "tools", "packages.txt")) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


STUBS = {
    # uid 0 in a root shell, 1000 for the user; other id calls are not expected.
    "id": '[ "$1" = -u ] || { echo "id stub: unexpected $*" >&2; exit 2; }; echo "$STUB_UID"',
    "apt-get": r'''
echo "apt-get $*" >> "$STUB_LOG"
if [ "$STUB_UID" != 0 ] && [ -z "$STUB_AS_ROOT" ]; then
  echo "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)" >&2
  exit 100
fi
case "$1" in
  update) touch "$STUB_STATE/lists" ;;
  install) [ -e "$STUB_STATE/lists" ] || { echo "E: Unable to locate package $3" >&2; exit 100; } ;;
esac''',
    "cmake": 'echo "cmake $*" >> "$STUB_LOG"; [ -z "$STUB_AS_ROOT" ] || { echo "cmake ran as root" >&2; exit 3; }',
}
SUDO_PRESENT = 'echo "sudo $*" >> "$STUB_LOG"; STUB_AS_ROOT=1 exec "$@"'
SUDO_ABSENT = 'echo "sudo $*" >> "$STUB_LOG"; echo "bash: sudo: command not found" >&2; exit 127'
CLFDTD = 'echo "build/clfdtd $*" >> "$STUB_LOG"'


def write_script(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)


def run_case(cmd, shell, uid, pkgs):
    """Runs cmd in a scratch copy of the tree; returns a list of problems (empty when fine)."""
    with tempfile.TemporaryDirectory() as tmp:
        stubs, work, state = (os.path.join(tmp, d) for d in ("stubs", "work", "state"))
        for d in (stubs, os.path.join(work, "tools"), os.path.join(work, "build"), state):
            os.makedirs(d)
        for name, body in STUBS.items():
            write_script(os.path.join(stubs, name), body)
        write_script(os.path.join(stubs, "sudo"), SUDO_PRESENT if uid else SUDO_ABSENT)
        write_script(os.path.join(work, "build", "clfdtd"), CLFDTD)
        with open(os.path.join(work, "tools", "packages.txt"), "w") as f:
            f.write(open(os.path.join(ROOT, "tools", "packages.txt")).read())
        log = os.path.join(tmp, "log")
        open(log, "w").close()
        env = {"PATH": stubs + ":/usr/bin:/bin", "HOME": tmp, "STUB_LOG": log,
               "STUB_STATE": state, "STUB_UID": str(uid)}
        proc = subprocess.run([shell, "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=60)
        calls = open(log).read().splitlines()
    who = f"{shell} as {'root' if uid == 0 else 'a user with sudo'}"
    problems = []
    if proc.returncode != 0:
        problems.append(f"{who}: exit {proc.returncode}: {proc.stdout.strip()}")
    words = [shlex.split(c) for c in calls]
    plain = [w[1:] if w[0] == "sudo" else w for w in words]
    sudo_calls = [c for c in calls if c.startswith("sudo ")]
    if uid == 0 and sudo_calls:
        problems.append(f"{who}: calls sudo: {sudo_calls[0]}")
    if uid != 0:
        apt = [c for c in calls if c.startswith("apt-get ")]
        if len([c for c in sudo_calls if c.startswith("sudo apt-get ")]) != len(apt):
            problems.append(f"{who}: apt-get without sudo in {calls}")
    verbs = [(w[0], w[1] if len(w) > 1 else "") for w in plain]
    if ("apt-get", "update") not in verbs:
        problems.append(f"{who}: no apt-get update (a fresh system has empty package lists)")
    elif ("apt-get", "install") in verbs and \
            verbs.index(("apt-get", "update")) > verbs.index(("apt-get", "install")):
        problems.append(f"{who}: apt-get install before apt-get update")
    installs = [w for w in plain if w[:2] == ["apt-get", "install"]]
    if not installs or sorted(a for a in installs[0][2:] if not a.startswith("-")) != sorted(pkgs):
        problems.append(f"{who}: does not install exactly tools/packages.txt: {calls}")
    if ["build/clfdtd", "run", "models/dipole.ini"] not in plain:
        problems.append(f"{who}: does not run build/clfdtd run models/dipole.ini: {calls}")
    if not any(w[:3] == ["cmake", "--build", "build"] for w in plain):
        problems.append(f"{who}: does not build build/: {calls}")
    return problems


def main():
    readme = open(os.path.join(ROOT, "README.md")).read()
    cmd = command1(readme)
    pkgs = packages(ROOT)
    problems = []
    for shell in ("bash", "sh"):
        for uid in (0, 1000):
            problems += run_case(cmd, shell, uid, pkgs)
    ci = open(os.path.join(ROOT, ".ci", "run")).read()
    if "tools/packages.txt" not in ci:
        problems.append(".ci/run does not read tools/packages.txt")
    listed_in_ci = [p for p in pkgs if p in ci.split()]
    if listed_in_ci:
        problems.append(f".ci/run names packages itself ({listed_in_ci}): install tools/packages.txt")
    print("README command 1:", cmd)
    for p in problems:
        print("FAIL", p)
    if not problems:
        print("ok: bash and sh, as root without sudo and as a user with sudo")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
