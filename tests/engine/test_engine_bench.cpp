// Throughput of the GPU engine on a larger model, every API with a device, every variant at its
// default and a few work-groups (not part of the normal run: skipped unless asked for with
//   test_engine -tc='engine benchmark*' --no-skip ).
// Size and steps from CLFDTD_BENCH_N (cells per side, default 192) and CLFDTD_BENCH_STEPS
// (default 200), the device from CLFDTD_BENCH_DEVICE (device.select syntax). Prints Gcells/s and
// the device-timed seconds; `clfdtd bench` is the tool for numbers that get recorded.
#include <doctest/doctest.h>

#include <cstdlib>

#include "engine/engine_suite.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {
long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::atol(v) : fallback;
}
}  // namespace

TEST_CASE("engine benchmark: vacuum cube with UPML" * doctest::skip()) {
  const int n = static_cast<int>(env_long("CLFDTD_BENCH_N", 192));
  const long steps = env_long("CLFDTD_BENCH_STEPS", 200);
  const double d = 1e-3;
  RunConfig cfg = box_config({n, n, n}, d, steps, BoundaryType::Upml, 10);
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z,
                              cells(n / 2.0, n / 2.0, n / 2.0, d), WaveformKind::GaussianPulse,
                              15e9, 1e-12)};
  const SimulationModel m = SimulationModel::build(cfg);
  const std::optional<std::array<int, 3>> shapes[] = {std::nullopt, std::array<int, 3>{2, 2, 30},
                                                      std::array<int, 3>{2, 4, 16},
                                                      std::array<int, 3>{8, 4, 32}};
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    for (const auto& wg : shapes) {
      DeviceConfig dev = engine_config(v, wg);
      if (const char* sel = std::getenv("CLFDTD_BENCH_DEVICE")) dev.select = sel;
      auto b = engine::make_gpu_engine(api, m, dev);
      b->timed_steps(0, 1);  // the first launches pay for lazy driver work
      const double sec = b->timed_steps(1, steps - 1);
      MESSAGE(b->device_description()
              << " | " << n << "^3, " << m.upml.cells << " PML cells | " << b->kernel_variant()
              << ": " << static_cast<double>(m.grid.cells()) * (steps - 1) / sec / 1e9
              << " Gcells/s (" << sec << " s)");
      CHECK(b->fields_finite());
    }
  });
}
