// Patent steps 1-1-1 / 1-1-2: cell size, grid dimensions, time step and step count.
#include "model/grid_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace clfdtd {

double GridGeometry::courant_limit_dt() const {
  if (cylindrical) {
    const int m_max = modes.empty() ? 0 : modes.back();
    // The radial part of the spectral radius is a_m / dr with a_0 = 1.100 (the m = 0 axis cell's
    // 4 Hphi / dr), a_1 = 1.261, a_m < m + 0.13 for m >= 2 (eigenvalues of the discrete operator,
    // docs/CYLINDRICAL.md); (m_max + 1)^2 + 1/4 bounds a^2 of every listed mode.
    const double r2 = ((m_max + 1.0) * (m_max + 1.0) + 0.25) / (d[0] * d[0]);
    return 1.0 / (kC0 * std::sqrt(r2 + 1.0 / (d[2] * d[2])));
  }
  double s = 0;
  for (int a = 0; a < dims; ++a) s += 1.0 / (d[a] * d[a]);
  return 1.0 / (kC0 * std::sqrt(s));
}

GridGeometry derive_grid_geometry(const RunConfig& cfg) {
  GridGeometry g;
  g.dims = cfg.grid.dims;
  if (cfg.grid.cell_size_m) {
    for (int a = 0; a < 3; ++a) g.d[a] = (*cfg.grid.cell_size_m)[a];
  } else {
    // d = lambda_min / cells_per_wavelength, the same on every axis (cubic cells).
    const double d = kC0 / cfg.grid.max_frequency_hz / cfg.grid.cells_per_wavelength;
    g.d = {d, d, d};
  }
  // 2D: one cell of 1 m along z, so that per-volume quantities come out per metre of depth.
  if (g.dims == 2) g.d[2] = 1.0;
  // Cylindrical: phi is no grid axis; n = {nr, 1, nz}, d = {dr, 1, dz} (d[1] unused).
  g.cylindrical = cfg.grid.coordinates == Coordinates::Cylindrical;
  if (g.cylindrical) {
    g.modes = cfg.grid.modes;
    g.d[1] = 1.0;
  }
  for (int a = 0; a < 3; ++a) {
    // Rounded in double first: a huge ratio must not overflow the int (build() rejects it later
    // through the cell-count check, so saturate instead of wrapping).
    const double r = std::round(cfg.grid.size_m[a] / g.d[a]);
    const double capped = std::min(std::max(r, 1.0), 2147483647.0);
    g.n[a] = std::isfinite(r) ? static_cast<int>(capped) : 1;
  }
  if (g.dims == 2) g.n[2] = 1;
  if (g.cylindrical) g.n[1] = 1;
  g.periodic = cfg.boundary.periodic;
  g.pmc = cfg.boundary.pmc;
  for (int a = 0; a < 3; ++a)
    if (g.periodic[static_cast<std::size_t>(a)]) {
      g.bloch_k[static_cast<std::size_t>(a)] = cfg.boundary.bloch_k[static_cast<std::size_t>(a)];
      g.bloch_phase[static_cast<std::size_t>(a)] = g.bloch_k[static_cast<std::size_t>(a)] * g.n[a] * g.d[a];
    }
  g.dt = cfg.grid.courant * g.courant_limit_dt();
  if (cfg.time.steps) {
    g.steps = *cfg.time.steps;
  } else if (cfg.time.duration_s) {
    // Counted in double: a long duration must not overflow the conversion to long.
    const double n = std::ceil(*cfg.time.duration_s / g.dt);
    g.steps = n <= static_cast<double>(kMaxRunSteps) ? static_cast<long>(n) : kMaxRunSteps + 1;
    g.steps_from_duration = true;
  }
  return g;
}

std::string longer_run_advice(const GridGeometry& g) {
  if (!g.steps_from_duration) return "raise time.steps (now " + std::to_string(g.steps) + ")";
  char t[32];
  std::snprintf(t, sizeof t, "%.3g", static_cast<double>(g.steps) * g.dt);
  return std::string("raise time.duration (now ") + t + " s, " + std::to_string(g.steps) + " steps)";
}

}  // namespace clfdtd
