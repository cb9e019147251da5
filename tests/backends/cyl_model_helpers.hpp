// Cylindrical (body-of-revolution) models for the reference tests, built in code with the issue 20
// contract's representation (/docs/CYLINDRICAL.md): grid.dims = 3, cylindrical, n = {nr, 1, nz},
// d = {dr, 1, dz}, layout (nr, 1, nz), ids of all six components (H when magnetic) with the PEC
// wall samples (Er, Ephi at k = 0) and PEC padding, the UPML profile of the r_hi and z faces, and
// sources carrying the contract's mode_factor. Painted by a function of (r, z) instead of meshed
// objects. (Usable by the GPU engine's tests too: include "backends/cyl_model_helpers.hpp".)
#pragma once
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/probes.hpp"
#include "model/simulation_model.hpp"
#include "model/sources.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd::test {

struct CylSpec {
  int nr = 0, nz = 0;
  double dr = 1e-3, dz = 1e-3;
  std::vector<int> modes{0};
  double courant = 0.9;  // fraction of GridGeometry::courant_limit_dt()
  long steps = 0;
  std::array<int, 3> layers{};  // r_hi z_lo z_hi: a CPML when any is > 0, else PEC walls
  std::vector<MaterialConfig> materials;
  // Material name at a point (r, z in metres); "" for vacuum.
  std::function<std::string(double, double)> paint;
  bool energy = false;
};

inline SimulationModel cyl_model(const CylSpec& s) {
  SimulationModel m;
  GridGeometry& g = m.grid;
  g.dims = 3;
  g.cylindrical = true;
  g.modes = s.modes;
  g.n = {s.nr, 1, s.nz};
  g.d = {s.dr, 1.0, s.dz};
  g.steps = s.steps;
  g.dt = s.courant * g.courant_limit_dt();
  m.layout = FieldLayout(s.nr, 1, s.nz);
  m.materials = MaterialTable(s.materials);
  m.magnetic = m.materials.any_magnetic();
  auto id_at = [&](double r, double z) -> std::uint8_t {
    const std::string name = s.paint ? s.paint(r, z) : std::string();
    if (name.empty()) return MaterialTable::kVacuum;
    const int id = m.materials.find(name);
    REQUIRE(id >= 0);
    return static_cast<std::uint8_t>(id);
  };
  for (int ci = 0; ci < 6; ++ci) {
    const auto c = static_cast<Component>(ci);
    if (!is_electric(c) && !m.magnetic) continue;
    auto& ids = m.ids[ci];
    ids.assign(m.layout.cells(), MaterialTable::kPec);
    const auto o = yee_offset(c);
    for (int i = 0; i < s.nr; ++i) {
      for (int k = 0; k < s.nz; ++k) {
        const bool wall = (c == Component::Ex || c == Component::Ey) && k == 0;
        ids[m.layout.index(i, 0, k)] =
            wall ? MaterialTable::kPec : id_at((i + o[0]) * s.dr, (k + o[2]) * s.dz);
      }
    }
  }
  m.cell_ids.assign(static_cast<std::size_t>(s.nr) * s.nz, MaterialTable::kVacuum);
  for (int i = 0; i < s.nr; ++i)
    for (int k = 0; k < s.nz; ++k)
      m.cell_ids[static_cast<std::size_t>(i) * s.nz + k] = id_at((i + 0.5) * s.dr, (k + 0.5) * s.dz);
  BoundaryConfig b;
  const bool absorber = s.layers[0] + s.layers[1] + s.layers[2] > 0;
  b.type = absorber ? BoundaryType::Upml : BoundaryType::Pec;
  b.layers = absorber ? std::array<int, 6>{0, s.layers[0], 0, 0, s.layers[1], s.layers[2]}
                      : std::array<int, 6>{};
  m.upml = build_upml_profile(b, g);
  m.energy = s.energy;
  m.probes.first_step = 0;
  m.probes.last_step = s.steps;
  return m;
}

// The contract's projection of a point current at (r, phi, z) on mode slot q:
// w_q exp(-i m_q phi) (dr dr dz) / V, w = 1 (m = 0) or 2, V = 2 pi r_s dr dz at the sample's r_s,
// pi (dr/2)^2 dz on the axis (Ez and m = 0 only; m > 0 gives 0 there).
inline std::vector<std::complex<double>> cyl_mode_factor(const SimulationModel& m, Component c,
                                                         const std::array<int, 3>& cell,
                                                         double phi) {
  const double pi = std::acos(-1.0);
  const double dr = m.grid.d[0], dz = m.grid.d[2];
  const double rs = sample_position(c, cell, m.grid.d)[0];
  std::vector<std::complex<double>> out;
  for (int mq : m.grid.modes) {
    double v = 0;
    if (rs > 0) {
      v = 2 * pi * rs * dr * dz;
    } else {
      REQUIRE(c == Component::Ez);
      v = mq == 0 ? pi * 0.25 * dr * dr * dz : 0.0;
    }
    const double w = mq == 0 ? 1.0 : 2.0;
    out.push_back(v > 0 ? std::polar(w * dr * dr * dz / v, -mq * phi) : std::complex<double>());
  }
  return out;
}

// Adds a point current J(t) (A/m^2 over a cell dr dr dz) on component c at (r, phi, z), the
// table sampled at (s + 1/2) dt for the model's steps.
inline void add_cyl_source(SimulationModel& m, Component c, double r, double phi, double z,
                           const std::function<double(double)>& j) {
  SourceModel src;
  src.name = "s" + std::to_string(m.sources.size());
  src.component = c;
  src.cell = nearest_sample(c, Vec3{r, 0, z}, m.grid.n, m.grid.d);
  for (long s = 0; s < m.grid.steps; ++s) src.j.push_back(j((s + 0.5) * m.grid.dt));
  src.mode_factor = cyl_mode_factor(m, c, src.cell, phi);
  m.sources.push_back(src);
}

// Adds a probe sample of component c at (r, phi, z) (one probe per sample, the whole run).
inline void add_cyl_probe(SimulationModel& m, Component c, double r, double phi, double z) {
  ProbeModel p;
  p.name = "p" + std::to_string(m.probes.probes.size());
  p.n1 = 0;
  p.n2 = m.grid.steps;
  ProbeSample smp;
  smp.probe = static_cast<int>(m.probes.probes.size());
  smp.component = c;
  smp.cell = nearest_sample(c, Vec3{r, 0, z}, m.grid.n, m.grid.d);
  smp.position_m = sample_position(c, smp.cell, m.grid.d);
  smp.phi_rad = phi;
  m.probes.probes.push_back(p);
  m.probes.samples.push_back(smp);
}

// A differentiated Gaussian (no net charge left behind) centred at t0 with width tau.
inline std::function<double(double)> gauss_pulse(double t0, double tau, double amplitude = 1.0) {
  return [=](double t) {
    const double x = (t - t0) / tau;
    return amplitude * x * std::exp(-0.5 * x * x);
  };
}

}  // namespace clfdtd::test
