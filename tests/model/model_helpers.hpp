// The small model the SimulationModel tests start from.
#pragma once
#include "config/run_config.hpp"

namespace clfdtd {

// 20^3 cells of 1 cm, 5 UPML layers, one source "feed" in the middle (1 GHz), 50 steps.
inline RunConfig small_dipole_config() {
  RunConfig cfg;
  cfg.source_file = "model.ini";
  cfg.grid.size_m = Vec3{0.2, 0.2, 0.2};
  cfg.grid.cell_size_m = Vec3{0.01, 0.01, 0.01};
  cfg.time.steps = 50;
  cfg.boundary.layers = {5, 5, 5, 5, 5, 5};
  SourceConfig s;
  s.name = "feed";
  s.position = Vec3{0.1, 0.1, 0.1};
  s.frequency_hz = 1e9;
  cfg.sources.push_back(s);
  return cfg;
}

}  // namespace clfdtd
