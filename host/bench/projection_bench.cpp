// The projection benchmark: see projection_bench.hpp.
#include "bench/projection_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>

#include "backends/backend.hpp"
#include "backends/reference/reference_backend.hpp"
#include "bench/bench_problems.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {
namespace {

using Clock = std::chrono::steady_clock;

// Projects `repeats` times after the fields have had 20 steps to fill with the dipole's pulse;
// returns seconds per projection and the last batch's values.
double time_side(Backend& b, const SimulationModel& m, int repeats, std::vector<double>& values) {
  for (long s = 0; s < 20; ++s) b.step(s);
  b.sample_modes(0, 0);  // warm-up: first launches compile and touch memory
  b.finish();
  const int batch = b.probe_batch_steps();
  const auto t0 = Clock::now();
  for (int r = 0; r < repeats; ++r) b.sample_modes(0, r % batch);
  b.finish();
  const double s = std::chrono::duration<double>(Clock::now() - t0).count() / repeats;
  b.read_mode_batch(0, 1, values);
  (void)m;
  return s;
}

}  // namespace

ProjectionTiming time_projection(const DeviceConfig& device, int n, int modes, int repeats) {
  RunConfig cfg = bench_problem("vacuum_upml", n, 40);
  cfg.device = device;
  SimulationModel m = SimulationModel::build(cfg);
  MonitorModel mon;
  mon.name = "projection";
  mon.kind = MonitorKind::Modes;
  mon.nmodes = modes;
  mon.modes.assign(static_cast<std::size_t>(modes) * 3 * m.layout.cells(), 0.0f);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < modes; ++k)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < m.layout.nx; ++i)
        for (int j = 0; j < m.layout.ny; ++j)
          for (int l = 0; l < m.layout.nz; ++l)
            mon.modes[(static_cast<std::size_t>(k) * 3 + c) * m.layout.cells() +
                      m.layout.index(i, j, l)] = u(rng);
  m.monitors.push_back(std::move(mon));

  ProjectionTiming t;
  t.cells = m.grid.cells();
  t.modes = modes;
  std::vector<double> dev_values, host_values;
  {
    std::unique_ptr<Backend> gpu = make_backend(m, device);
    t.device = gpu->device_description();
    t.device_s = time_side(*gpu, m, std::max(1, repeats), dev_values);
  }
  ReferenceBackend host(m);
  t.host_s = time_side(host, m, std::max(1, std::min(repeats, 3)), host_values);
  double scale = 0, diff = 0;
  for (std::size_t k = 0; k < host_values.size() && k < dev_values.size(); ++k) {
    scale = std::max(scale, std::abs(host_values[k]));
    diff = std::max(diff, std::abs(host_values[k] - dev_values[k]));
  }
  t.max_rel_diff = scale > 0 ? diff / scale : 0;
  return t;
}

}  // namespace clfdtd
