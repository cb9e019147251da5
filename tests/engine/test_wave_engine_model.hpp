// 2D tm models built directly in the contract's representation (contract2d.md), for the wave
// engine's tests, and Yee tm with UPML in double precision as docs/EQUATIONS.md writes it with
// d/dz = 0: the answer the wave engine must give to float rounding.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "model/grid_geometry.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::test {

struct WaveModelSpec {
  int nx = 37, ny = 29;
  double dx = 1e-3, dy = 1e-3;
  std::array<int, 4> layers{6, 5, 4, 7};  // x_lo x_hi y_lo y_hi; all 0: PEC walls
  long steps = 160;
  bool materials = true;                  // a dielectric box, a lossy disc, a PEC box
  std::vector<std::array<int, 2>> sources{{18, 13}};
  std::vector<std::array<int, 2>> probes{{20, 15}, {9, 8}};
};

inline SimulationModel wave_model(const WaveModelSpec& s) {
  SimulationModel m;
  m.grid.dims = 2;
  m.grid.n = {s.nx, s.ny, 1};
  m.grid.d = {s.dx, s.dy, 1.0};
  m.grid.dt = 0.95 * m.grid.courant_limit_dt();
  m.grid.steps = s.steps;
  m.layout = FieldLayout::xy_plane(s.nx, s.ny);
  m.mode = PlaneMode::Tm;
  m.equation = Equation::Wave;
  m.materials = MaterialTable({MaterialConfig{"glass", 4.0, 1.0, 0.0, false},
                               MaterialConfig{"lossy", 2.0, 1.0, 0.8, false}});
  const auto glass = static_cast<std::uint8_t>(m.materials.find("glass"));
  const auto lossy = static_cast<std::uint8_t>(m.materials.find("lossy"));
  auto& ez = m.ids[static_cast<int>(Component::Ez)];
  ez.assign(m.layout.cells(), MaterialTable::kPec);
  for (int i = 0; i < s.nx; ++i) {
    for (int j = 0; j < s.ny; ++j) {
      std::uint8_t id = MaterialTable::kVacuum;
      if (i == 0 || j == 0) id = MaterialTable::kPec;  // the outer wall's tangential E
      if (s.materials) {
        // Objects reach into the UPML (the x-high slab and the y-low slab) on purpose.
        if (i >= 24 && i < s.nx && j >= 10 && j < 16) id = glass;
        const double r2 = (i - 12.0) * (i - 12.0) + (j - 18.0) * (j - 18.0);
        if (r2 <= 9.0) id = lossy;
        if (i >= 14 && i < 17 && j >= 2 && j < 8) id = MaterialTable::kPec;
      }
      ez[m.layout.index(i, j, 0)] = id;
    }
  }
  m.cell_ids.assign(static_cast<std::size_t>(s.nx) * s.ny, MaterialTable::kVacuum);
  BoundaryConfig b;
  b.type = BoundaryType::Upml;
  b.layers = {s.layers[0], s.layers[1], s.layers[2], s.layers[3], 0, 0};
  m.upml = build_upml_profile(b, m.grid);
  int n = 0;
  for (const auto& c : s.sources) {
    SourceModel src;
    src.name = "feed" + std::to_string(n++);
    src.component = Component::Ez;
    src.cell = {c[0], c[1], 0};
    // A continuous sine (the compared state stays well above float noise), 30 GHz.
    for (long t = 0; t < s.steps; ++t) {
      src.j.push_back(1e6 * std::sin(2 * M_PI * 30e9 * (t + 0.5) * m.grid.dt + n));
    }
    m.sources.push_back(src);
  }
  n = 0;
  for (const auto& c : s.probes) {
    m.probes.probes.push_back(ProbeModel{"p" + std::to_string(n), 0, s.steps, {}, 0});
    ProbeSample smp;
    smp.probe = n++;
    smp.component = Component::Ez;
    smp.cell = {c[0], c[1], 0};
    m.probes.samples.push_back(smp);
  }
  m.probes.first_step = 0;
  m.probes.last_step = s.steps;
  return m;
}

// Yee tm + UPML, double precision, whole nx x ny arrays (index i*ny + j).
class YeeTm {
public:
  explicit YeeTm(const SimulationModel& m)
      : m_(m), nx_(m.grid.n[0]), ny_(m.grid.n[1]), ez(cells()), hx(cells()), hy(cells()),
        dz_(cells()), bx_(cells()), by_(cells()) {}

  void step(long s) {
    const double dt = m_.grid.dt, db = dt / kMu0, dt_eps0 = dt / kEps0;
    const double idx = 1 / m_.grid.d[0], idy = 1 / m_.grid.d[1];
    const auto& p = m_.upml;
    for (int i = 0; i < nx_; ++i) {
      for (int j = 0; j < ny_; ++j) {
        const std::size_t c = at(i, j);
        const double cx = (value(ez, i, j + 1) - ez[c]) * idy;
        const double cy = -(value(ez, i + 1, j) - ez[c]) * idx;
        if (!pml(i, j)) {
          hx[c] -= db * cx;
          hy[c] -= db * cy;
          continue;
        }
        // Hx: v = y (half), w = z (neutral), u = x (integer); Hy: v = z, w = x (half), u = y.
        double b_new = p.half[1].a[j] * bx_[c] - p.half[1].b[j] * db * cx;
        hx[c] += (p.integer[0].cp[i] * b_new - p.integer[0].cm[i] * bx_[c]) / 2;
        bx_[c] = b_new;
        b_new = by_[c] - db * cy;
        hy[c] = p.half[0].a[i] * hy[c] +
                (p.integer[1].cp[j] * b_new - p.integer[1].cm[j] * by_[c]) * p.half[0].b[i] / 2;
        by_[c] = b_new;
      }
    }
    for (int i = 0; i < nx_; ++i) {
      for (int j = 0; j < ny_; ++j) {
        const std::size_t c = at(i, j);
        const ECoefficients e = coef(i, j);
        const double curl = (hy[c] - value(hy, i - 1, j)) * idx - (hx[c] - value(hx, i, j - 1)) * idy;
        if (!pml(i, j)) {
          ez[c] = e.ca * ez[c] + e.cb * curl;
          continue;
        }
        // Ez: v = x (integer), w = y (integer), u = z (neutral).
        const double d_new = p.integer[0].a[i] * dz_[c] + p.integer[0].b[i] * dt_eps0 * curl;
        ez[c] = p.integer[1].a[j] * ez[c] + e.inv_eps_r * (d_new - dz_[c]) * p.integer[1].b[j];
        dz_[c] = d_new;
      }
    }
    for (const SourceModel& src : m_.sources) {
      if (s < 0 || s >= static_cast<long>(src.j.size())) continue;
      ez[at(src.cell[0], src.cell[1])] -= coef(src.cell[0], src.cell[1]).cb * src.j[s];
    }
  }

  std::size_t at(int i, int j) const { return static_cast<std::size_t>(i) * ny_ + j; }
  std::size_t cells() const { return static_cast<std::size_t>(nx_) * ny_; }

private:
  bool pml(int i, int j) const { return m_.upml.in_pml(i, j, 0, m_.grid.n); }
  ECoefficients coef(int i, int j) const {
    return m_.materials.e_coefficients(m_.id(Component::Ez)[m_.layout.index(i, j, 0)], m_.grid.dt);
  }
  double value(const std::vector<double>& f, int i, int j) const {
    return i < 0 || j < 0 || i >= nx_ || j >= ny_ ? 0.0 : f[at(i, j)];
  }

  const SimulationModel& m_;
  int nx_, ny_;

public:
  std::vector<double> ez, hx, hy;

private:
  std::vector<double> dz_, bx_, by_;
};

}  // namespace clfdtd::test
