"""Shared by the test scripts of tests/tools/ that check the PNGs a tool drew (numpy and PIL:
call system_python.reexec_with_system_python("numpy", "PIL") first)."""

import os

import numpy as np
from PIL import Image


def open_png(path, size, problems, label):
    """The image at `path` when it exists and is a PNG (None otherwise); what is wrong with it,
    a missing file, not a PNG, a size other than `size` (width, height), goes to `problems`,
    each line starting with `label`."""
    if not os.path.isfile(path):
        problems.append(f"{label}: not written")
        return None
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            problems.append(f"{label}: not a PNG")
            return None
    img = Image.open(path)
    if img.size != tuple(size):
        problems.append(f"{label}: {img.size[0]}x{img.size[1]} pixels, expected {size[0]}x{size[1]}")
    return img


def colour_count(pixels):
    """Distinct RGB colours of an image, or of an (h, w, 3) array cut from one."""
    rgb = np.asarray(pixels.convert("RGB")) if hasattr(pixels, "convert") else np.asarray(pixels)
    return len(np.unique(rgb.reshape(-1, 3), axis=0))
