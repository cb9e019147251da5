// Small helpers shared by the backend tests: RunConfigs for box models built in code, a probe
// recorder that drives a backend's probe batches, and field energy sums.
#pragma once
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "config/run_config.hpp"
#include "model/grid_geometry.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::test {

inline MaterialConfig material(const std::string& name, double eps_r, double mu_r, double sigma,
                               bool pec = false) {
  MaterialConfig m;
  m.name = name;
  m.eps_r = eps_r;
  m.mu_r = mu_r;
  m.sigma = sigma;
  m.pec = pec;
  return m;
}

// A diagonal anisotropic material: eps_r, mu_r, sigma along x, y, z (the scalars the largest, as
// the loader sets them).
inline MaterialConfig anisotropic_material(const std::string& name, const std::array<double, 3>& eps,
                                           const std::array<double, 3>& mu, const std::array<double, 3>& sigma) {
  auto top = [](const std::array<double, 3>& v) { return std::max(v[0], std::max(v[1], v[2])); };
  MaterialConfig m = material(name, top(eps), top(mu), top(sigma));
  m.eps_axes = eps;
  m.mu_axes = mu;
  m.sigma_axes = sigma;
  return m;
}

// Centre and size in cells (cell size d) -> metres.
// A material with poles (eps_inf its eps_r) and one pole (kind, its numbers as the keys take them).
inline MaterialConfig dispersive(const std::string& name, double eps_inf, std::vector<PoleConfig> poles,
                                 double sigma = 0) {
  MaterialConfig m = material(name, eps_inf, 1, sigma);
  m.poles = std::move(poles);
  return m;
}

inline PoleConfig pole(PoleKind k, double a, double b, double c = 0) {
  PoleConfig p;
  p.kind = k;
  p.p = {a, b, c};
  return p;
}

inline ObjectConfig box(const std::string& name, const std::string& mat, const Vec3& centre,
                        const Vec3& size, double d) {
  ObjectConfig o;
  o.name = name;
  o.shape = ShapeKind::Box;
  o.center = Vec3{centre.x * d, centre.y * d, centre.z * d};
  o.size = Vec3{size.x * d, size.y * d, size.z * d};
  o.material = mat;
  return o;
}

inline ObjectConfig sphere(const std::string& name, const std::string& mat, const Vec3& centre,
                           double radius, double d) {
  ObjectConfig o;
  o.name = name;
  o.shape = ShapeKind::Sphere;
  o.center = Vec3{centre.x * d, centre.y * d, centre.z * d};
  o.radius = radius * d;
  o.material = mat;
  return o;
}

inline Vec3 cells(double x, double y, double z, double d) { return Vec3{x * d, y * d, z * d}; }

// A vacuum box of n cubic cells of size d (metres), `steps` time steps, Courant 0.9; with a UPML
// boundary every face gets `layers` layers (default grading), with a PEC boundary none.
inline RunConfig box_config(const std::array<int, 3>& n, double d, long steps, BoundaryType type,
                            int layers = 8) {
  RunConfig cfg;
  cfg.grid.size_m = Vec3{n[0] * d, n[1] * d, n[2] * d};
  cfg.grid.cell_size_m = Vec3{d, d, d};
  cfg.grid.max_frequency_hz = kC0 / (10 * d);
  cfg.time.steps = steps;
  cfg.boundary.type = type;
  cfg.boundary.layers = type == BoundaryType::Upml ? std::array<int, 6>{layers, layers, layers,
                                                                       layers, layers, layers}
                                                   : std::array<int, 6>{0, 0, 0, 0, 0, 0};
  cfg.snapshot.steps.clear();
  cfg.quiet = true;
  return cfg;
}

inline SourceConfig point_source(const std::string& name, SourceKind kind, Axis axis,
                                 const Vec3& position, WaveformKind waveform, double frequency_hz,
                                 double amplitude = 1) {
  SourceConfig s;
  s.name = name;
  s.kind = kind;
  s.axis = axis;
  s.position = position;
  s.waveform = waveform;
  s.frequency_hz = frequency_hz;
  s.amplitude = amplitude;
  return s;
}

// A plane wave (type plane_wave) with E along `axis`, travelling along sign * direction_axis,
// through the box `size` about `centre` (metres).
inline SourceConfig plane_wave(const std::string& name, Axis axis, int direction_axis, int sign,
                               const Vec3& centre, const Vec3& size, WaveformKind waveform,
                               double frequency_hz, double amplitude = 1) {
  SourceConfig s = point_source(name, SourceKind::PlaneWave, axis, centre, waveform, frequency_hz,
                                amplitude);
  s.direction_axis = direction_axis;
  s.direction_sign = sign;
  s.size_m = size;
  return s;
}

inline ProbeConfig point_probe(const std::string& name, const Vec3& position,
                               std::vector<Component> fields) {
  ProbeConfig p;
  p.name = name;
  p.position = position;
  p.fields = std::move(fields);
  return p;
}

// Position (metres) of component c's Yee sample at cell (i, j, k) of a grid with cubic cells d.
inline Vec3 yee_position(Component c, int i, int j, int k, double d) {
  return sample_position(c, {i, j, k}, {d, d, d});
}

// Collects every probe sample through the backend's probe batches, the way the time loop does:
// call at_state(s) for each state s = 0, 1, ... (after s steps), then take() the series.
class ProbeRecorder {
public:
  ProbeRecorder(Backend& b, const SimulationModel& m)
      : b_(b), m_(m), series_(m.probes.samples.size()) {}

  void at_state(long s) {
    if (!m_.probes.active(s)) return;
    b_.sample_probes(slot_++);
    if (slot_ == b_.probe_batch_steps()) flush();
  }
  // series[sample][t], t counting the active states in order.
  std::vector<std::vector<double>> take() {
    flush();
    return series_;
  }

private:
  void flush() {
    if (slot_ == 0) return;
    b_.read_probe_batch(slot_, buf_);
    const std::size_t n = series_.size();
    for (int sl = 0; sl < slot_; ++sl) {
      for (std::size_t p = 0; p < n; ++p) series_[p].push_back(buf_[sl * n + p]);
    }
    slot_ = 0;
  }
  Backend& b_;
  const SimulationModel& m_;
  std::vector<std::vector<double>> series_;
  std::vector<double> buf_;
  int slot_ = 0;
};

// Cells [lo, hi) per axis (unpadded indices).
struct CellRange {
  std::array<int, 3> lo{}, hi{};
};

inline CellRange whole_grid(const SimulationModel& m) {
  return CellRange{{0, 0, 0}, {m.grid.n[0], m.grid.n[1], m.grid.n[2]}};
}

// The cells outside every UPML slab.
inline CellRange interior(const SimulationModel& m) {
  CellRange r;
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = m.upml.layers[2 * a];
    r.hi[a] = m.grid.n[a] - m.upml.layers[2 * a + 1];
  }
  return r;
}

// Sum over a cell range of w * a[c] * b[c] for one padded component array (w = eps0 or mu0).
inline double weighted_dot(const std::vector<double>& a, const std::vector<double>& b,
                           const SimulationModel& m, const CellRange& r) {
  double sum = 0;
  for (int i = r.lo[0]; i < r.hi[0]; ++i) {
    for (int j = r.lo[1]; j < r.hi[1]; ++j) {
      for (int k = r.lo[2]; k < r.hi[2]; ++k) {
        const std::size_t c = m.layout.index(i, j, k);
        sum += a[c] * b[c];
      }
    }
  }
  return sum;
}

// Electromagnetic energy (J) of vacuum fields over a cell range: dV * sum (eps0 E.E + mu0 H.H).
// E and H live half a step apart, so this is approximate (exact up to O(dt)).
template <class Fields>
double vacuum_energy(const Fields& b, const SimulationModel& m, const CellRange& r) {
  double e = 0, h = 0;
  for (int c = 0; c < 3; ++c) {
    const auto& f = b.field(static_cast<Component>(c));
    e += weighted_dot(f, f, m, r);
    const auto& g = b.field(static_cast<Component>(c + 3));
    h += weighted_dot(g, g, m, r);
  }
  return (kEps0 * e + kMu0 * h) * m.grid.d[0] * m.grid.d[1] * m.grid.d[2];
}

// Plain float4s next to every kind of UPML slab, for the backend comparisons: 13 x 12 x 19 cells
// (19 along z: 5 float4s, an odd count, the last with padding lanes) with `layers` (x_lo x_hi
// y_lo y_hi z_lo z_hi), a dielectric (and, when `magnetic`, mu_r = 2) block across the
// interior and into the slabs, a PEC plate, a dipole and a current source. The z-slab layout,
// the x/y-slab rows next to the plain ones and the onepass edges that read their H_new all
// change with the layer counts.
inline RunConfig slab_edge_config(const std::array<int, 6>& layers, bool magnetic, long steps) {
  const double d = 1e-3;
  RunConfig cfg = box_config({13, 12, 19}, d, steps, BoundaryType::Upml);
  cfg.boundary.layers = layers;
  cfg.materials = {material("block", 3, magnetic ? 2 : 1, 0.1)};
  cfg.objects = {box("slab", "block", {6.5, 6, 4}, {9, 14, 6}, d),
                 box("plate", "pec", {8, 4, 12}, {2, 2, 1}, d)};
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z, cells(6.2, 6.1, 9.3, d),
                              WaveformKind::Sine, 40e9, 2e-13),
                 point_source("cur", SourceKind::Current, Axis::Y, cells(4, 7, 14, d),
                              WaveformKind::Sine, 30e9, 2e7)};
  cfg.probes = {point_probe("p", cells(7, 5, 10, d), {Component::Ex, Component::Hz})};
  return cfg;
}

// The layer sets slab_edge_config is compared with: y_lo slab rows beside plain ones (an even
// y_lo puts the first plain row at the start of a 2-row tile, so its -y neighbour comes from
// another group; an odd one puts it inside the tile), a z face without layers, the z slabs only,
// the x/y slabs only.
inline const std::array<std::array<int, 6>, 4> kSlabEdgeLayers = {
    std::array<int, 6>{2, 1, 4, 0, 0, 2}, std::array<int, 6>{2, 1, 3, 1, 3, 2},
    std::array<int, 6>{0, 0, 0, 0, 3, 2}, std::array<int, 6>{2, 1, 2, 1, 0, 0}};

// Builds slab_edge_config for every layer set of kSlabEdgeLayers, magnetic and not, and runs
// check(model) on each, with the case named in doctest's log.
template <class Check>
void for_each_slab_edge_model(long steps, Check&& check) {
  for (const auto& layers : kSlabEdgeLayers) {
    for (bool magnetic : {false, true}) {
      const SimulationModel m = SimulationModel::build(slab_edge_config(layers, magnetic, steps));
      REQUIRE(m.layout.nz4 == 5);
      INFO("layers " << layers[0] << " " << layers[1] << " " << layers[2] << " " << layers[3]
                     << " " << layers[4] << " " << layers[5] << ", magnetic " << magnetic);
      check(m);
    }
  }
}

}  // namespace clfdtd::test
