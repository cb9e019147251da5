// The wave solver's frames, from the UPML layers (wave_frame.hpp).
#include "engine/wave/wave_frame.hpp"

#include <algorithm>
#include <string>

#include "errors.hpp"

namespace clfdtd::engine {

WaveFrame build_wave_frame(const SimulationModel& m) {
  const int nx = m.grid.n[0], ny = m.grid.n[1];
  const std::array<int, 3>& n = m.grid.n;
  auto pml = [&](int i, int j) { return m.upml.in_pml(i, j, 0, n); };
  auto inside = [&](int i, int j) { return i >= 0 && i < nx && j >= 0 && j < ny; };
  // E frame: the cell or its low x or low y neighbour is a UPML cell.
  auto e_frame = [&](int i, int j) {
    return inside(i, j) &&
           (pml(i, j) || (i > 0 && pml(i - 1, j)) || (j > 0 && pml(i, j - 1)));
  };
  // H frame: an E frame cell reads this cell's H (itself, or its high x or high y neighbour).
  auto h_frame = [&](int i, int j) {
    return e_frame(i, j) || e_frame(i + 1, j) || e_frame(i, j + 1);
  };

  WaveFrame f;
  const auto& L = m.upml.layers;
  f.i0 = std::min(nx, L[0] + (L[0] > 0 ? 1 : 0));
  f.i1 = std::max(f.i0, nx - L[1]);
  f.j0 = std::min(ny, L[2] + (L[2] > 0 ? 1 : 0));
  f.j1 = std::max(f.j0, ny - L[3]);

  // Compact H index of each H frame cell, by cell (i*ny + j); -1 elsewhere. Only the frame's
  // rows are kept: this table lives on the host during setup.
  std::vector<std::int32_t> h_index(static_cast<std::size_t>(nx) * ny, -1);
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) {
      if (!h_frame(i, j)) continue;
      h_index[static_cast<std::size_t>(i) * ny + j] = f.h_count();
      f.h_cells.push_back(i);
      f.h_cells.push_back(j);
    }
  }
  auto h_at = [&](int i, int j) -> std::int32_t {
    if (!inside(i, j)) return -1;
    const std::int32_t h = h_index[static_cast<std::size_t>(i) * ny + j];
    // Every H an E frame cell reads is in the H frame by construction.
    if (h < 0) throw DeviceError("wave frame: no H sample at cell (" + std::to_string(i) + ", " +
                                 std::to_string(j) + ")");
    return h;
  };
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) {
      const bool frame = e_frame(i, j);
      const bool interior = i >= f.i0 && i < f.i1 && j >= f.j0 && j < f.j1;
      if (frame == interior) {  // the rectangle must be the exact complement of the E frame
        throw DeviceError("wave frame: cell (" + std::to_string(i) + ", " + std::to_string(j) +
                          ") is " + (frame ? "in both" : "in neither") +
                          " the frame and the interior");
      }
      if (!frame) continue;
      for (std::int32_t v : {i, j, h_at(i, j), h_at(i - 1, j), h_at(i, j - 1)}) {
        f.e_cells.push_back(v);
      }
    }
  }
  return f;
}

}  // namespace clfdtd::engine
