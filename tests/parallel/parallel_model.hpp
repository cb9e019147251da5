// The model the split tests run (part model, halo exchange, distributed backend): 20 x 18 x 22
// cells of 1 mm (z not a multiple of 4), UPML of different depth on each face, a lossy magnetic
// dielectric and a PEC box that cross the cuts of 2- and 3-way splits, two dipoles (one on a cut
// plane of the 2-way x split), probes on and beside the cut planes, a flux box, a dft monitor, a
// modes monitor and energy.
#pragma once
#include <array>
#include <vector>

#include "backends/monitor_helpers.hpp"
#include "backends/physics_helpers.hpp"
#include "model/simulation_model.hpp"
#include "parallel/decomposition.hpp"

namespace clfdtd::test {

constexpr double kSplitD = 1e-3;

inline SimulationModel split_model(long steps) {
  RunConfig cfg = box_config({20, 18, 22}, kSplitD, steps, BoundaryType::Upml, 4);
  cfg.boundary.layers = {4, 3, 3, 4, 2, 5};
  cfg.materials = {material("glass", 3, 1.5, 0.02), material("metal", 1, 1, 0, true)};
  cfg.objects = {box("slab", "glass", {10, 9, 11}, {6, 10, 12}, kSplitD),
                 box("plate", "metal", {13, 6, 8}, {2, 4, 6}, kSplitD)};
  const double d = kSplitD;
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, cells(10.1, 9.2, 11.4, d),
                              WaveformKind::Gaussian, 40e9, 1e-15),
                 point_source("b", SourceKind::Dipole, Axis::X, cells(6.3, 12.2, 7.4, d),
                              WaveformKind::Gaussian, 30e9, 1e-15)};
  cfg.probes = {point_probe("cut", cells(10.0, 9.0, 11.0, d), {Component::Ex, Component::Hz}),
                point_probe("low", cells(9.2, 6.1, 14.6, d),
                            {Component::Ex, Component::Ey, Component::Ez, Component::Hx,
                             Component::Hy, Component::Hz}),
                point_probe("far", cells(16.4, 15.3, 3.2, d), {Component::Ez, Component::Hy})};
  cfg.output.energy = true;
  SimulationModel m = SimulationModel::build(cfg);
  const auto& n = m.grid.n;
  m.monitors.push_back(flux_box("box", {5, 4, 6}, {15, 14, 17}, n, {20e9, 40e9, 60e9}));
  m.monitors.push_back(dft_monitor("plane",
                                   {region(Component::Ez, {2, 3, 11}, {19, 16, 12}),
                                    region(Component::Hx, {8, 2, 4}, {13, 17, 9})},
                                   {25e9, 50e9}));
  m.monitors.push_back(random_modes("modes", m, 3, 2, 11));
  return m;
}

// The splits the tests cover: 2 and 3 along x (3: uneven), 2 2 1, and 1 1 3 (z, cut inside the
// float4 lanes).
inline const std::vector<std::pair<int, std::array<int, 3>>>& split_cases() {
  static const std::vector<std::pair<int, std::array<int, 3>>> cases{
      {2, {2, 1, 1}}, {3, {3, 1, 1}}, {4, {2, 2, 1}}, {3, {1, 1, 3}}};
  return cases;
}

}  // namespace clfdtd::test
