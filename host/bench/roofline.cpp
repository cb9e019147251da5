// Roofline accounting: see roofline.hpp.
#include "bench/roofline.hpp"

#include <algorithm>
#include <array>

#include "backends/device_tables.hpp"
#include "model/cyl_pml.hpp"

namespace clfdtd {

namespace {

constexpr double kFloat = 4;

double mean_over_cells(const SimulationModel& m, double plain, double pml, double pml_cells,
                       double other_cells = 0, double other = 0) {
  const double cells = static_cast<double>(m.grid.cells());
  if (cells <= 0) return plain;
  return (plain * (cells - pml_cells - other_cells) + pml * pml_cells + other * other_cells) / cells;
}

CellBytes plane_bytes(const SimulationModel& m) {
  const double f = kFloat;
  const bool te = m.mode == PlaneMode::Te;
  // Yee tm / te: H pass and E pass, as in roofline.hpp.
  const double h = te ? 4 * f + (m.magnetic ? 1 : 0) : 5 * f + (m.magnetic ? 2 : 0);
  const double e = te ? 5 * f + 2 : 4 * f + 1;
  const double yee_plain = h + e;
  const double yee_pml = yee_plain + 3 * 2 * f;  // 3 auxiliaries, read and written
  const double pml = static_cast<double>(m.upml.cells);
  CellBytes b;
  if (m.equation == Equation::Wave) {
    b.plain = 3 * f + 1;  // u, u_prev, u_next, Ez id
    b.pml = yee_pml;
    b.mean = mean_over_cells(m, b.plain, b.pml, pml, static_cast<double>(plane_frame_ring_cells(m)),
                             yee_plain);
  } else {
    b.plain = yee_plain;
    b.pml = yee_pml;
    b.mean = mean_over_cells(m, b.plain, b.pml, pml);
  }
  return b;
}

CellBytes cyl_bytes(const SimulationModel& m) {
  const double f = kFloat;
  const double h = 3 * 6 * f + (m.magnetic ? 3 : 0);  // read H, read E, write H: 6 floats each
  const double e = 3 * 6 * f + 3;                     // read E, read H, write E, the E ids
  const double psi = 8 * 2 * 2 * f;                   // 8 complex psi, read and written
  const double r_tilde = 16 * 2 * f;                  // 16 floats of 1/r~ state, read and written
  CellBytes b;
  b.plain = h + e;
  b.pml = b.plain + psi + r_tilde;
  const double all = static_cast<double>(cyl_pml_cells_of(m));
  const double r_slab = static_cast<double>(cyl_pml_cells_of(m, true));
  b.mean = mean_over_cells(m, b.plain, b.pml, r_slab, all - r_slab, b.plain + psi);
  return b;
}

}  // namespace

std::size_t cyl_pml_cells_of(const SimulationModel& m, bool r_slab_only) {
  const CylPml p = build_cyl_pml(m.upml, m.grid.n);
  if (!p.enabled()) return 0;
  const auto nr = static_cast<std::size_t>(m.grid.n[0]), nz = static_cast<std::size_t>(m.grid.n[2]);
  const auto rhi = static_cast<std::size_t>(p.layers_r);
  const std::size_t r_slab = rhi * nz;
  if (r_slab_only) return r_slab;
  return r_slab + (nr - rhi) * static_cast<std::size_t>(p.layers_z_lo + p.layers_z_hi);
}

std::size_t upml_face_cells(const SimulationModel& m) {
  if (!m.upml.enabled()) return 0;
  std::array<std::size_t, 3> inner{}, layers{};
  for (int a = 0; a < 3; ++a) {
    const int lo = m.upml.layers[2 * a], hi = m.upml.layers[2 * a + 1];
    inner[a] = static_cast<std::size_t>(std::max(0, m.grid.n[a] - lo - hi));
    layers[a] = static_cast<std::size_t>(std::min(lo + hi, m.grid.n[a]));
  }
  return layers[0] * inner[1] * inner[2] + inner[0] * layers[1] * inner[2] +
         inner[0] * inner[1] * layers[2];
}

namespace {

double mixed_share(const std::vector<std::uint8_t>& t) {
  if (t.empty()) return 0;
  return static_cast<double>(std::count(t.begin(), t.end(), kIdsMixed)) / static_cast<double>(t.size());
}

}  // namespace

double mixed_e_id_share(const SimulationModel& m) { return mixed_share(e_id_float4_table(m)); }

double mixed_h_id_share(const SimulationModel& m) {
  return m.magnetic ? mixed_share(h_id_float4_table(m)) : 0;
}

CellBytes bytes_per_cell_update(const SimulationModel& m, bool one_pass, double aux_bytes,
                                int steps_per_pass, bool face_one_aux, double mixed_e_ids,
                                double mixed_h_ids) {
  if (m.cylindrical()) return cyl_bytes(m);
  if (m.two_d()) return plane_bytes(m);
  const double f = kFloat;
  const double h = 3 * f * 3 + (m.magnetic ? 3 : 0);  // read H, read E, write H (+ H ids)
  const double e = 3 * f * 3 + 3;              // read E, read H, write E, E ids
  CellBytes b;
  // One pass: read E and H, write E and H, the E ids per float4 and, where they differ, per
  // component (the same for the H ids of a magnetic model).
  b.plain = one_pass ? 4 * 3 * f + 0.25 + 3 * mixed_e_ids + (m.magnetic ? 0.25 + 3 * mixed_h_ids : 0)
                     : h + e;
  b.plain /= std::max(1, steps_per_pass);
  b.pml = b.plain + 6 * 2 * aux_bytes;         // D and B: read and written
  if (face_one_aux && m.upml.cells > 0) {       // one D and one B in a face cell
    const double face = static_cast<double>(upml_face_cells(m));
    const double cells = static_cast<double>(m.upml.cells);
    b.pml = b.plain + 2 * aux_bytes * (2 * face + 6 * (cells - face)) / cells;
  }
  b.mean = mean_over_cells(m, b.plain, b.pml, static_cast<double>(m.upml.cells));
  return b;
}

std::size_t plane_frame_ring_cells(const SimulationModel& m) {
  if (!m.upml.enabled()) return 0;
  const auto& L = m.upml.layers;
  // The non-PML rectangle [L0, nx - L1) x [L2, ny - L3) less its part more than one cell away
  // from every edge that has a UPML slab.
  const long w = std::max(0, m.grid.n[0] - L[0] - L[1]);
  const long h = std::max(0, m.grid.n[1] - L[2] - L[3]);
  const long wi = std::max(0L, w - (L[0] > 0) - (L[1] > 0));
  const long hi = std::max(0L, h - (L[2] > 0) - (L[3] > 0));
  return static_cast<std::size_t>(w * h - wi * hi);
}

double storage_bytes_per_cell(const SimulationModel& m) {
  if (m.cylindrical()) return 12 * kFloat + (m.magnetic ? 6 : 3);
  if (!m.two_d()) return 6 * kFloat + (m.magnetic ? 6 : 3);
  if (m.equation == Equation::Wave) return 2 * kFloat + 1;
  const bool te = m.mode == PlaneMode::Te;
  return 3 * kFloat + (te ? 2 : 1) + (m.magnetic ? (te ? 1 : 2) : 0);
}

}  // namespace clfdtd
