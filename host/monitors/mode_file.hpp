// Modes files: the mode shapes a modes monitor projects E on (docs/MONITORS.md). A VTK XML image
// data file (.vti) on the model's grid, nx x ny x nz cells (extent 0..n), spacing d (metres),
// whose cell arrays mode_0, mode_1, ... (consecutive from 0; other arrays are ignored) hold the E
// of each mode: 3 components, float32 or float64, component c of cell (i, j, k) at that
// component's own Yee position (Ex at (i+1/2, j, k) cells, Ey at (i, j+1/2, k), Ez at
// (i, j, k+1/2); docs/EQUATIONS.md), not averaged to the cell centre. The origin is not read:
// cell (i, j, k) of the file is cell (i, j, k) of the model. tools/cavity_modes writes such files.
// Reading needs VTK; in a build without it (CLFDTD_VTK=OFF) both functions throw a ConfigError.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "model/field_layout.hpp"

namespace clfdtd {

struct ModeFileInfo {
  std::array<int, 3> cells{};         // nx ny nz
  std::array<double, 3> spacing_m{};  // dx dy dz
  int nmodes = 0;                     // arrays mode_0 .. mode_<nmodes-1>
  std::size_t value_bytes = 4;        // 4 (float32) or 8 (float64), as stored in the file
};

// The file's grid and number of modes, from its XML header only (the arrays are not read), so a
// caller can count the memory the modes take before loading them. Errors (a ConfigError whose
// file is `path` and key is `key`, e.g. "monitor.m.modes_file", saying what was expected and
// what was found): no such file, not a .vti image, no mode_0, a gap in the numbering, a mode that
// is not 3 components of float32 or float64.
// False in a build without VTK, where modes files cannot be read.
bool mode_files_readable();

ModeFileInfo read_mode_file_info(const std::string& path, const std::string& key);

// Reads every mode into `modes` in MonitorModel's layout (model/monitors.hpp):
// modes[(k * 3 + c) * layout.cells() + layout.index(i, j, l)], zero in the padding cells; one
// array at a time, so memory peaks at `modes` plus one mode. Returns the number of modes. Besides
// the errors above: the file's cells must equal (layout.nx, layout.ny, layout.nz) and its spacing
// cell_m within 1e-6 relative, and every value must be finite as a float.
int read_mode_file(const std::string& path, const std::string& key, const FieldLayout& layout,
                   const std::array<double, 3>& cell_m, std::vector<float>& modes);

}  // namespace clfdtd
