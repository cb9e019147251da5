// The small model the SimulationModel tests start from.
#pragma once
#include <string>

#include "config/load_config.hpp"
#include "config/run_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"

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

// The model a model file's text describes (named `file` in messages).
inline SimulationModel build_text(const std::string& text, const std::string& file = "model.ini") {
  return SimulationModel::build(load_config_text(text, file, {}));
}

// The ConfigError's message building that text gives, or "no error".
inline std::string config_error_of(const std::string& text, const std::string& file = "model.ini") {
  try {
    build_text(text, file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

// The model's warnings less the one for a source silent during the run (model_warnings.hpp):
// most test models run too few steps for their pulse to arrive, which is beside their point.
inline std::vector<std::string> warnings_of(const SimulationModel& m) {
  std::vector<std::string> out;
  for (const auto& w : m.warnings)
    if (w.find("of its peak for the whole run") == std::string::npos) out.push_back(w);
  return out;
}

}  // namespace clfdtd
