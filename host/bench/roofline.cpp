// Roofline accounting: see roofline.hpp.
#include "bench/roofline.hpp"

namespace clfdtd {

CellBytes bytes_per_cell_update(const SimulationModel& m, bool one_pass) {
  const double f = 4;                          // float
  const double h = 3 * f * 3 + (m.magnetic ? 3 : 0);  // read H, read E, write H (+ H ids)
  const double e = 3 * f * 3 + 3;              // read E, read H, write E, E ids
  CellBytes b;
  // One pass: read E and H, write E and H, the ids.
  b.plain = one_pass ? 4 * 3 * f + 3 + (m.magnetic ? 3 : 0) : h + e;
  b.pml = b.plain + 6 * 2 * f;                 // D and B: read and written
  const double cells = static_cast<double>(m.grid.cells());
  const double pml = static_cast<double>(m.upml.cells);
  b.mean = cells > 0 ? (b.plain * (cells - pml) + b.pml * pml) / cells : b.plain;
  return b;
}

double storage_bytes_per_cell(const SimulationModel& m) {
  return 6 * 4 + (m.magnetic ? 6 : 3);
}

}  // namespace clfdtd
