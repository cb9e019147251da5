// Throughput of the OpenCL engine on a larger model (not part of the normal run: it is skipped
// unless asked for with  test_backends -tc='opencl benchmark*' --no-skip). Size and steps from
// CLFDTD_BENCH_N (cells per side, default 192) and CLFDTD_BENCH_STEPS (default 200); the device
// from CLFDTD_BENCH_DEVICE (device.select syntax). Prints Mcells/s and the implied DRAM traffic at
// ~75 bytes per cell and step (update_h 36 + update_e 39, see the kernel headers).
#include <doctest/doctest.h>

#ifdef CLFDTD_HAVE_OPENCL
#include <chrono>
#include <cstdlib>

#include "backends/test_opencl_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {
long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::atol(v) : fallback;
}
}  // namespace

TEST_CASE("opencl benchmark: vacuum cube with UPML" * doctest::skip()) {
  if (!opencl_available()) return;
  const int n = static_cast<int>(env_long("CLFDTD_BENCH_N", 192));
  const long steps = env_long("CLFDTD_BENCH_STEPS", 200);
  const double d = 1e-3;
  RunConfig cfg = box_config({n, n, n}, d, steps, BoundaryType::Upml, 10);
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z,
                              cells(n / 2.0, n / 2.0, n / 2.0, d), WaveformKind::GaussianPulse,
                              15e9, 1e-12)};
  const SimulationModel m = SimulationModel::build(cfg);
  const double cell_steps = static_cast<double>(m.grid.cells()) * steps;
  const std::optional<std::array<int, 3>> shapes[] = {std::nullopt,
                                                      std::array<int, 3>{1, 2, 32},
                                                      std::array<int, 3>{1, 4, 32},
                                                      std::array<int, 3>{1, 1, 64},
                                                      std::array<int, 3>{2, 4, 16},
                                                      std::array<int, 3>{1, 8, 16}};
  for (const auto& wg : shapes) {
    DeviceConfig dev;
    if (const char* sel = std::getenv("CLFDTD_BENCH_DEVICE")) dev.select = sel;
    dev.workgroup = wg;
    OpenClBackend b(m, dev);
    b.step(0);  // first launch pays for lazy driver work
    b.finish();
    const auto t0 = std::chrono::steady_clock::now();
    for (long s = 1; s < steps; ++s) b.step(s);
    b.finish();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double mcells = cell_steps * (steps - 1) / steps / sec / 1e6;
    MESSAGE(b.device_description()
            << " | " << n << "^3, " << m.upml.cells << " PML cells | " << b.kernel_variant() << ": "
            << mcells << " Mcells/s, ~" << mcells * 1e6 * 75 / 1e9 << " GB/s");
    CHECK(b.fields_finite());
  }
}
#endif  // CLFDTD_HAVE_OPENCL
