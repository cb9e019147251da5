"""Shared by the test scripts of tests/tools/: run under the system's python3 when the python3 on
PATH (a venv, pyenv) lacks the modules a script needs (numpy, PIL: Debian's python3-numpy,
python3-pil)."""

import importlib
import os
import sys


def reexec_with_system_python(*modules):
    """Imports each module; on ImportError re-executes this script with /usr/bin/python3, or
    raises the ImportError when that is the interpreter already running."""
    try:
        for name in modules:
            importlib.import_module(name)
    except ImportError:
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            os.execv(system, [system] + sys.argv)
        raise
