#!/usr/bin/env python3
"""Writes a block of labelled voxels (a numpy array of whole numbers) as the .vti file that
object.*.shape = voxels reads (docs/MODEL_KEYS.md): VTK XML image data, the labels one cell
array, raw appended binary. Labels must be whole numbers within Int32. Needs numpy only.

  tools/voxels_to_vti.py labels.npy out.vti --spacing 0.005            # cubes of 5 mm, origin 0
  tools/voxels_to_vti.py labels.npy out.vti --spacing 0.005 0.005 0.01 --origin 0.1 0.1 0

labels.npy holds an array of shape (nx, ny, nz): labels[i, j, k] is the voxel whose low corner
is origin + (i dx, j dy, k dz). From python, import it and call write_vti(path, labels,
spacing, origin).
"""

import argparse
import sys

import numpy as np

_TYPES = {np.dtype(np.int8): "Int8", np.dtype(np.uint8): "UInt8", np.dtype(np.int16): "Int16",
          np.dtype(np.uint16): "UInt16", np.dtype(np.int32): "Int32",
          np.dtype(np.uint32): "UInt32", np.dtype(np.int64): "Int64"}


def write_vti(path, labels, spacing, origin=(0.0, 0.0, 0.0), name="labels"):
    """labels: (nx, ny, nz) integers; spacing, origin: 3 numbers each (any length unit, the
    model's `scale` turns it into metres)."""
    labels = np.asarray(labels)
    if labels.ndim != 3:
        raise ValueError(f"labels must have 3 axes (nx, ny, nz), got shape {labels.shape}")
    if labels.dtype.newbyteorder("=") in _TYPES and labels.dtype.byteorder not in "=|<":
        labels = labels.astype(labels.dtype.newbyteorder("<"))
    if labels.size and labels.dtype != np.bool_ and (labels.min() < -2**31 or labels.max() > 2**31 - 1):
        raise ValueError("labels must lie in -2^31 .. 2^31 - 1 (Int32): clfdtd reads no others")
    if labels.dtype not in _TYPES or labels.dtype in (np.dtype(np.int64), np.dtype(np.uint32)):
        values = labels.astype(np.float64)  # bool, int64, uint32, floats, ...: as Int32
        if not np.all(np.equal(np.mod(values, 1), 0)):
            raise ValueError("labels must be whole numbers")
        labels = values.astype(np.int32)
    data = np.ascontiguousarray(labels.transpose(2, 1, 0)).astype(labels.dtype.newbyteorder("<"))
    nx, ny, nz = labels.shape
    sx, sy, sz = (float(s) for s in spacing)
    ox, oy, oz = (float(o) for o in origin)
    raw = data.tobytes()
    head = (
        '<?xml version="1.0"?>\n'
        '<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n'
        f'  <ImageData WholeExtent="0 {nx} 0 {ny} 0 {nz}" Origin="{ox!r} {oy!r} {oz!r}" '
        f'Spacing="{sx!r} {sy!r} {sz!r}">\n'
        f'    <Piece Extent="0 {nx} 0 {ny} 0 {nz}">\n'
        f'      <CellData Scalars="{name}">\n'
        f'        <DataArray type="{_TYPES[labels.dtype]}" Name="{name}" format="appended" offset="0"/>\n'
        '      </CellData>\n'
        '    </Piece>\n'
        '  </ImageData>\n'
        '  <AppendedData encoding="raw">\n   _')
    with open(path, "wb") as f:
        f.write(head.encode())
        f.write(np.uint64(len(raw)).astype("<u8").tobytes())
        f.write(raw)
        f.write(b"\n  </AppendedData>\n</VTKFile>\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("labels", help=".npy file with an (nx, ny, nz) array of whole numbers")
    ap.add_argument("out", help="the .vti to write")
    ap.add_argument("--spacing", type=float, nargs="+", required=True, help="one or three voxel edges")
    ap.add_argument("--origin", type=float, nargs=3, default=[0.0, 0.0, 0.0])
    a = ap.parse_args()
    spacing = a.spacing * 3 if len(a.spacing) == 1 else a.spacing
    if len(spacing) != 3:
        sys.exit("--spacing: one or three numbers")
    write_vti(a.out, np.load(a.labels), spacing, a.origin)


if __name__ == "__main__":
    main()
