// The wave solver's split of a 2D tm grid (contract2d.md, "Wave"): where the scalar wave update
// gives Yee's answer and where Yee tm itself must run.
//
// Eliminating H from Yee tm gives the wave update for Ez(i, j) only where the four H samples its
// E update reads, Hy(i, j), Hy(i-1, j), Hx(i, j), Hx(i, j-1), follow the plain H update, i.e. where
// cells (i, j), (i-1, j) and (i, j-1) are all outside the UPML. The other cells form the E frame
// (the UPML cells plus one ring inside each low face that has layers); their Ez is advanced by
// Yee tm with UPML, which needs Hx and Hy at every cell the E frame reads them from: the H frame
// (the UPML cells plus one ring inside every face that has layers). Only the frames carry H and
// the UPML auxiliaries, compactly; the interior carries Ez alone (u and u_prev).
#pragma once
#include <cstdint>
#include <vector>

#include "model/simulation_model.hpp"

namespace clfdtd::engine {

struct WaveFrame {
  // Cells [i0, i1) x [j0, j1) take the wave update (the complement of the E frame).
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  // H frame: (i, j) per cell, row-major (i, then j).
  std::vector<std::int32_t> h_cells;
  // E frame: (i, j, h, hxm, hym) per cell, row-major: h, hxm, hym index h_cells for cells (i, j),
  // (i-1, j), (i, j-1); -1 where that cell lies outside the grid (its H reads as zero).
  std::vector<std::int32_t> e_cells;
  int h_count() const { return static_cast<int>(h_cells.size() / 2); }
  int e_count() const { return static_cast<int>(e_cells.size() / 5); }
  long interior_cells() const {
    return static_cast<long>(i1 - i0) * static_cast<long>(j1 - j0);
  }
};

// The frames of a 2D model (m.two_d()); empty frames and the whole grid as interior when the
// model has no UPML layers.
WaveFrame build_wave_frame(const SimulationModel& m);

}  // namespace clfdtd::engine
