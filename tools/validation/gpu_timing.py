"""GPU timings that a validation case's section of docs/VALIDATION.md carries but the case itself
does not measure (they come from a lent GPU, e.g. tools/validation/cyl_vs_3d_speed.sh): each lives
in its own file under docs/validation/, which the case adds to its notes, so that rewriting the
section (tools/validate --case X --report) keeps it. Standard library only."""
import os

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "validation")


def path(name):
    """docs/validation/<name>."""
    return os.path.join(DOCS, name)


def lines(name):
    """The report lines of docs/validation/<name> (a blank line first), none when it is absent."""
    p = path(name)
    if not os.path.exists(p):
        return []
    return [""] + open(p).read().rstrip("\n").split("\n")
