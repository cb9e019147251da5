// Throughput of the CUDA engine on a larger model, for every compiled tile shape and a few plain
// blocks (not part of the normal run: skipped unless asked for with
//   test_backends -tc='cuda benchmark*' --no-skip ).
// Size and steps from CLFDTD_BENCH_N (cells per side, default 192) and CLFDTD_BENCH_STEPS
// (default 200), the device from CLFDTD_BENCH_DEVICE (device.select syntax). Prints Mcells/s and
// the implied DRAM traffic at ~75 bytes per cell and step (update_h 36 + update_e 39).
#include <doctest/doctest.h>

#ifdef CLFDTD_HAVE_CUDA
#include <chrono>
#include <cstdlib>

#include "backends/test_cuda_helpers.hpp"

using namespace clfdtd;
using namespace clfdtd::cudatest;

namespace {
long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::atol(v) : fallback;
}
}  // namespace

TEST_CASE("cuda benchmark: vacuum cube with UPML" * doctest::skip()) {
  if (!cuda_available()) return;
  const int n = static_cast<int>(env_long("CLFDTD_BENCH_N", 192));
  const long steps = env_long("CLFDTD_BENCH_STEPS", 200);
  const double d = 1e-3;
  RunConfig cfg = box_config({n, n, n}, d, steps, BoundaryType::Upml, 10);
  cfg.sources = {point_source("dip", SourceKind::Dipole, Axis::Z,
                              cells(n / 2.0, n / 2.0, n / 2.0, d), WaveformKind::GaussianPulse,
                              15e9, 1e-12)};
  const SimulationModel m = SimulationModel::build(cfg);
  const double cell_steps = static_cast<double>(m.grid.cells()) * steps;
  std::vector<DeviceConfig> configs;
  for (const auto& t : cuda_tile_kernels()) {
    if (t.x * t.y * t.z4 >= 32) {
      configs.push_back(cuda_device(KernelVariant::Tile, std::array<int, 3>{t.x, t.y, t.z4}));
    }
  }
  for (const auto& b : {std::array<int, 3>{1, 1, 64}, std::array<int, 3>{1, 4, 64},
                        std::array<int, 3>{1, 2, 128}, std::array<int, 3>{1, 1, 256}}) {
    configs.push_back(cuda_device(KernelVariant::Plain, b));
  }
  for (auto dev : configs) {
    if (const char* sel = std::getenv("CLFDTD_BENCH_DEVICE")) dev.select = sel;
    CudaBackend b(m, dev);
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
#endif  // CLFDTD_HAVE_CUDA
