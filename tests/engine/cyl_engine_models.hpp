// Hand-built cylindrical models for the cylindrical engine's tests (test_cyl_engine*.cpp), in the
// contract's representation (docs/CYLINDRICAL.md): layout (nr, 1, nz), material ids per
// component sampled at each component's (r, z), Er/Ephi PEC at z = 0, padding PEC, CPML layers on
// r_hi and the z faces, sources with the contract's mode_factor, probes with phi.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"
#include "device/test_apis.hpp"
#include "engine/cyl/cyl_engine.hpp"
#include "model/grid_geometry.hpp"
#include "model/upml_profile.hpp"

namespace clfdtd::test {

using engine::CylEngine;

inline const double kPi = std::acos(-1.0);

// A region of one material over sample positions r0 <= r < r1, z0 <= z < z1 (cell units).
struct Region {
  std::string material;
  double r0, r1, z0, z1;
};
// A point current at the sample (i, k) of component c, at angle phi_deg: a Gaussian pulse
// (centre t0, width tau, in steps) or, with freq > 0, a sine.
struct Drive {
  Component c;
  int i, k;
  double phi_deg = 0;
  double amp = 1;
  double freq = 0;
};
struct Probe {
  Component c;
  int i, k;
  double phi_deg = 0;
};

struct CylSpec {
  int nr = 13, nz = 19;
  double dr = 1e-3, dz = 1e-3;
  std::vector<int> modes{0};
  long steps = 150;
  std::array<int, 3> layers{0, 0, 0};  // r_hi z_lo z_hi
  std::vector<MaterialConfig> materials;
  std::vector<Region> regions;
  std::vector<Drive> sources;
  std::vector<Probe> probes;
  bool energy = false;
};

// Sample position (cell units) of component c at (i, k): Er (i+1/2, k), Ephi (i, k),
// Ez (i, k+1/2), Hr (i, k+1/2), Hphi (i+1/2, k+1/2), Hz (i+1/2, k).
inline std::array<double, 2> sample_rz(Component c, int i, int k) {
  const auto o = yee_offset(c);
  return {i + o[0], k + o[2]};
}

// mode_factor of the contract: w_q exp(-i m phi) (dr dr dz) / V, V the ring through the sample,
// or the axis disc pi (dr/2)^2 dz (0 for m > 0).
inline std::complex<double> mode_factor(int m, double r_cells, double phi, double dr, double dz) {
  const double cell = dr * dr * dz;
  if (r_cells == 0) return m == 0 ? cell / (kPi * dr * dr / 4 * dz) : 0.0;
  const double w = m == 0 ? 1.0 : 2.0;
  return w * std::polar(1.0, -m * phi) * cell / (2 * kPi * r_cells * dr * dr * dz);
}

inline SimulationModel cyl_model(const CylSpec& s) {
  SimulationModel m;
  m.grid.dims = 3;
  m.grid.n = {s.nr, 1, s.nz};
  m.grid.d = {s.dr, 1.0, s.dz};
  m.grid.cylindrical = true;
  m.grid.modes = s.modes;
  m.grid.dt = 0.9 * m.grid.courant_limit_dt();
  m.grid.steps = s.steps;
  m.layout = FieldLayout(s.nr, 1, s.nz);
  m.materials = MaterialTable(s.materials);
  m.magnetic = m.materials.any_magnetic();
  const std::size_t cells = m.layout.cells();
  for (int c = 0; c < 6; ++c) {
    if (c >= 3 && !m.magnetic) continue;
    const auto comp = static_cast<Component>(c);
    auto& ids = m.ids[c];
    ids.assign(cells, MaterialTable::kPec);  // padding
    for (int i = 0; i < s.nr; ++i) {
      for (int k = 0; k < s.nz; ++k) {
        std::uint8_t id = MaterialTable::kVacuum;
        const auto p = sample_rz(comp, i, k);
        for (const Region& g : s.regions) {
          if (p[0] >= g.r0 && p[0] < g.r1 && p[1] >= g.z0 && p[1] < g.z1) {
            id = static_cast<std::uint8_t>(m.materials.find(g.material));
          }
        }
        // The z = 0 wall: tangential E (Er, Ephi) at k = 0.
        if (k == 0 && (comp == Component::Ex || comp == Component::Ey)) id = MaterialTable::kPec;
        ids[m.layout.index(i, 0, k)] = id;
      }
    }
  }
  m.cell_ids.assign(static_cast<std::size_t>(s.nr) * s.nz, MaterialTable::kVacuum);
  BoundaryConfig b;
  b.type = BoundaryType::Upml;
  b.layers = {0, s.layers[0], 0, 0, s.layers[1], s.layers[2]};
  m.upml = build_upml_profile(b, m.grid);
  const double dt = m.grid.dt;
  for (const Drive& v : s.sources) {
    SourceModel src;
    src.name = "s" + std::to_string(m.sources.size());
    src.component = v.c;
    src.cell = {v.i, 0, v.k};
    for (long t = 0; t < s.steps; ++t) {
      const double time = (t + 0.5) * dt;
      double w;
      if (v.freq > 0) {
        w = std::sin(2 * kPi * v.freq * time);
      } else {  // Gaussian derivative: no DC charge left behind
        const double t0 = 30 * dt, tau = 10 * dt, x = (time - t0) / tau;
        w = -2 * x * std::exp(-x * x);
      }
      src.j.push_back(v.amp * w);
    }
    const double phi = v.phi_deg * kPi / 180;
    for (int order : s.modes) {
      src.mode_factor.push_back(mode_factor(order, sample_rz(v.c, v.i, v.k)[0], phi, s.dr, s.dz));
    }
    m.sources.push_back(src);
  }
  for (const Probe& p : s.probes) {
    ProbeModel pm;
    pm.name = "p" + std::to_string(m.probes.probes.size());
    pm.n1 = 0;
    pm.n2 = s.steps;
    ProbeSample ps;
    ps.probe = static_cast<int>(m.probes.probes.size());
    ps.component = p.c;
    ps.cell = {p.i, 0, p.k};
    ps.phi_rad = p.phi_deg * kPi / 180;
    m.probes.probes.push_back(pm);
    m.probes.samples.push_back(ps);
  }
  m.probes.first_step = 0;
  m.probes.last_step = s.steps;
  m.energy = s.energy;
  return m;
}

inline const std::vector<device::Api>& apis() {
  static const std::vector<device::Api> out = test_apis();
  return out;
}

inline DeviceConfig config(KernelVariant v, std::optional<std::array<int, 3>> wg = std::nullopt) {
  DeviceConfig c;
  c.variant = v;
  c.workgroup = wg;
  return c;
}

inline std::unique_ptr<CylEngine> engine_on(device::Api api, const SimulationModel& m,
                                     const DeviceConfig& cfg) {
  auto b = engine::make_cyl_engine(api, m, cfg);
  return std::unique_ptr<CylEngine>(static_cast<CylEngine*>(b.release()));
}

inline void run(Backend& b, long steps) {
  for (long s = 0; s < steps; ++s) b.step(s);
  b.finish();
}

inline double max_abs(const std::vector<std::complex<float>>& v) {
  double out = 0;
  for (const auto& x : v) out = std::max(out, static_cast<double>(std::abs(x)));
  return out;
}
inline double max_abs(const std::vector<double>& v) {
  double out = 0;
  for (double x : v) out = std::max(out, std::abs(x));
  return out;
}

// Every component of every mode slot of a and b within rel_tol of the component's largest value.
inline void check_same_fields(const SimulationModel& m, CylEngine& a, CylEngine& b, double rel_tol) {
  for (std::size_t q = 0; q < m.grid.modes.size(); ++q) {
    for (int c = 0; c < 6; ++c) {
      const auto comp = static_cast<Component>(c);
      std::vector<std::complex<float>> fa, fb;
      a.read_mode_field(static_cast<int>(q), comp, fa);
      b.read_mode_field(static_cast<int>(q), comp, fb);
      REQUIRE(fa.size() == fb.size());
      const double scale = std::max(max_abs(fa), 1e-30);
      double worst = 0;
      for (std::size_t n = 0; n < fa.size(); ++n) {
        worst = std::max(worst, static_cast<double>(std::abs(fa[n] - fb[n])));
      }
      std::size_t at = 0;
      for (std::size_t n = 0; n < fa.size(); ++n) {
        if (std::abs(fa[n] - fb[n]) == worst) at = n;
      }
      INFO("mode m = " << m.grid.modes[q] << ", " << std::string(cyl_component_name(comp))
                       << " worst at i = " << at / m.grid.n[2] << ", k = " << at % m.grid.n[2]
                       << ": " << fa[at] << " vs " << fb[at]);
      CHECK(worst <= rel_tol * scale);
    }
  }
}

// A model with a bit of everything: three modes, CPML on r_hi and both z faces (different
// layers), a dielectric and a PEC ring, an off-axis Ephi and Ez source and an on-axis Ez source,
// nz not a multiple of 4.
inline CylSpec mixed_spec() {
  CylSpec s;
  s.nr = 17;
  s.nz = 23;
  s.modes = {0, 1, 2};
  s.steps = 120;
  s.layers = {5, 4, 6};
  s.materials = {MaterialConfig{"glass", 3.0, 1.0, 0.0, false},
                 MaterialConfig{"metal", 1.0, 1.0, 0.0, true}};
  s.regions = {{"glass", 3.0, 7.5, 8.0, 13.0}, {"metal", 8.0, 9.0, 14.0, 16.0}};
  s.sources = {{Component::Ez, 0, 11}, {Component::Ey, 4, 9, 30.0, 0.5},
               {Component::Ez, 6, 12, 75.0, 2.0}};
  s.probes = {{Component::Ez, 2, 11, 0.0}, {Component::Ey, 5, 10, 40.0},
              {Component::Hz, 3, 12, 200.0}};
  return s;
}

}  // namespace clfdtd::test
