// The energy tests' models and comparison, shared by the reference's (test_energy.cpp) and the
// GPU engine's (tests/engine/test_engine_energy.cpp): energy rows through the time loop, and the
// largest difference of two runs' rows.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/physics_helpers.hpp"
#include "solver/time_loop.hpp"

namespace clfdtd::test {

constexpr double kEnergyD = 1e-3;  // cell size, m

// A closed PEC box with a dielectric and a magnetic block (nz = 10: z padding lanes exist), rung
// by two Gaussian-moment dipoles that are done by step ~60.
inline RunConfig cavity_config(long steps) {
  RunConfig cfg = box_config({14, 12, 10}, kEnergyD, steps, BoundaryType::Pec);
  cfg.materials = {material("glass", 3, 1, 0), material("ferrite", 1.5, 2, 0)};
  cfg.objects = {box("block", "glass", {9, 5, 4}, {5, 4, 5}, kEnergyD),
                 box("core", "ferrite", {4, 8, 6}, {4, 3, 4}, kEnergyD)};
  cfg.sources = {point_source("a", SourceKind::Dipole, Axis::Z, {3.3e-3, 4.1e-3, 5.5e-3},
                              WaveformKind::Gaussian, 60e9, 1e-15),
                 point_source("b", SourceKind::Dipole, Axis::X, {10.5e-3, 9.2e-3, 3.1e-3},
                              WaveformKind::Gaussian, 60e9, 1e-15)};
  cfg.output.energy = true;
  return cfg;
}

// 30 x 31 x 77 cells: nz4 = 20, 18600 float4s, more than the 256 groups x 64 items of one pass,
// so work-items loop; uneven layers; a lossy block; a PEC plate. Not magnetic.
inline RunConfig many_groups_config() {
  RunConfig cfg = box_config({30, 31, 77}, kEnergyD, 120, BoundaryType::Upml);
  cfg.boundary.layers = {3, 4, 0, 2, 5, 3};
  cfg.materials = {material("glass", 4, 1, 0), material("lossy", 2, 1, 0.3)};
  cfg.objects = {box("glass", "glass", {15, 15, 40}, {10, 9, 30}, kEnergyD),
                 box("lossy", "lossy", {8, 22, 20}, {5, 5, 8}, kEnergyD),
                 box("plate", "pec", {20, 10, 55}, {6, 1, 6}, kEnergyD)};
  cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Y, {12.2e-3, 14.7e-3, 33.1e-3},
                              WaveformKind::Sine, 40e9, 1e-15)};
  cfg.output.energy = true;
  return cfg;
}

// Keeps the energy rows of a time-loop run.
class EnergySink final : public LoopSink {
public:
  void probe_rows(long, int, const std::vector<double>&) override {}
  void snapshot(long, const std::array<std::vector<float>, 6>&) override {}
  void energy_rows(const std::vector<EnergyRow>& rows) override {
    all.insert(all.end(), rows.begin(), rows.end());
  }
  std::vector<EnergyRow> all;
};

inline std::vector<EnergyRow> run_energy(const SimulationModel& m, Backend& b) {
  EnergySink sink;
  LoopOptions opt;
  opt.progress_interval_s = 1e9;
  run_time_loop(m, b, sink, nullptr, opt);
  return sink.all;
}

// The largest difference of a device's energy rows from the reference's over every step and term,
// relative to the largest reference energy; the steps must match row by row.
inline double worst_energy_difference(const std::vector<EnergyRow>& got,
                               const std::vector<EnergyRow>& want) {
  double scale = 0;
  for (const auto& r : want) scale = std::max({scale, r.total, r.naive});
  REQUIRE(scale > 0);
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].step == want[i].step);
    for (double d : {got[i].total - want[i].total, got[i].electric - want[i].electric,
                     got[i].magnetic - want[i].magnetic, got[i].naive - want[i].naive}) {
      worst = std::max(worst, std::abs(d) / scale);
    }
  }
  return worst;
}

}  // namespace clfdtd::test
