// Monitors on the GPU engine (cl_kernels/monitor_dft.cl, mode_projection.cl) against the
// reference's double loops: a closed flux box (one face on the domain wall, clipped), a dft
// monitor (a plane of two components and a small volume) and a modes monitor with random modes,
// on every API with a device and every variant (onepass swaps its field sets each step), through
// the time loop; runs whose sample count is not a multiple of the DFT ring; decimated monitors
// (D > 1: the same steps and weights D dt in both engines); the device-byte
// estimate and the memory refusal with the monitors' buffers.
#include <doctest/doctest.h>

#include <complex>

#include "backends/device_tables.hpp"
#include "backends/monitor_helpers.hpp"
#include "engine/engine_suite.hpp"
#include "engine/monitor_buffers.hpp"
#include "engine/monitor_stages.hpp"
#include "solver/time_loop.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;  // cell size, m

// 24 x 20 x 28 cells, 4 UPML layers, a dielectric box, a Gaussian dipole; `steps` steps.
SimulationModel monitor_model(long steps) {
  RunConfig cfg = box_config({24, 20, 28}, kD, steps, BoundaryType::Upml, 4);
  cfg.materials = {material("glass", 3, 1, 0)};
  cfg.objects = {box("glass", "glass", {13, 9, 15}, {5, 4, 6}, kD)};
  cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z, {11.3e-3, 10.2e-3, 13.6e-3},
                              WaveformKind::Gaussian, 20e9, 1e-15)};
  SimulationModel m = SimulationModel::build(cfg);
  const auto& n = m.grid.n;
  // The flux box's high z face lies on the domain's wall (plane 28 = nz): its E regions clip away.
  m.monitors.push_back(flux_box("box", {6, 5, 7}, {17, 14, 28}, n, {5e9, 12e9, 20e9, 27e9}));
  m.monitors.push_back(dft_monitor(
      "plane",
      {region(Component::Ex, {3, 2, 14}, {21, 18, 15}),
       region(Component::Hz, {3, 2, 14}, {21, 18, 15}),
       region(Component::Ey, {8, 6, 10}, {12, 10, 16})},
      {3e9, 8e9, 13e9, 18e9, 23e9, 28e9, 31e9, 35e9, 40e9, 45e9, 50e9, 55e9, 60e9, 65e9, 70e9, 75e9,
       80e9, 85e9}));  // 18 frequencies: two chunks of 16, the second partial
  m.monitors.push_back(random_modes("modes", m, 11, 3, 7));  // two blocks of 8, one partial
  return m;
}

struct MonitorRun {
  std::vector<std::vector<std::complex<double>>> dft;  // per monitor (empty for modes)
  ModeSink modes;
};

MonitorRun run_monitors(const SimulationModel& m, Backend& b) {
  MonitorRun r;
  LoopOptions opt;
  opt.progress_interval_s = 1e9;
  const LoopResult res = run_time_loop(m, b, r.modes, nullptr, opt);
  REQUIRE(res.finite);
  REQUIRE(res.steps_done == m.grid.steps);
  for (std::size_t i = 0; i < m.monitors.size(); ++i) {
    r.dft.emplace_back();
    if (m.monitors[i].kind != MonitorKind::Modes) b.read_dft(static_cast<int>(i), r.dft.back());
  }
  return r;
}

// The worst over the monitor's regions of max |got - want| / max |want| in that region (H is
// ~377 times smaller than E in SI units: a monitor-wide scale would hide an error in H).
double dft_error(const MonitorModel& mon, const std::vector<std::complex<double>>& got,
                 const std::vector<std::complex<double>>& want) {
  REQUIRE(got.size() == want.size());
  REQUIRE(want.size() == mon.points() * mon.frequencies_hz.size());
  const std::size_t nf = mon.frequencies_hz.size();
  double worst = 0;
  std::size_t first = 0;
  for (const DftRegion& r : mon.regions) {
    double scale = 0, diff = 0;
    for (std::size_t i = first * nf; i < (first + r.count()) * nf; ++i) {
      scale = std::max(scale, std::abs(want[i]));
      diff = std::max(diff, std::abs(got[i] - want[i]));
    }
    REQUIRE(scale > 0);
    worst = std::max(worst, diff / scale);
    first += r.count();
  }
  return worst;
}

double values_error(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  double scale = 0, worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, std::abs(want[i]));
    worst = std::max(worst, std::abs(got[i] - want[i]));
  }
  REQUIRE(scale > 0);
  return worst / scale;
}

void compare_monitors(const MonitorRun& got, const MonitorRun& want, const SimulationModel& m,
                      double rel_tol) {
  for (std::size_t i = 0; i < m.monitors.size(); ++i) {
    const MonitorModel& mon = m.monitors[i];
    INFO("monitor " << mon.name);
    if (mon.kind == MonitorKind::Modes) {
      const int k = static_cast<int>(i);
      REQUIRE(got.modes.steps_.count(k) == 1);
      CHECK(got.modes.steps_.at(k) == want.modes.steps_.at(k));
      const double e = values_error(got.modes.values_.at(k), want.modes.values_.at(k));
      MESSAGE(mon.name << ": max |gpu - reference| / max |reference| = " << e);
      CHECK(e < rel_tol);
    } else {
      const double e = dft_error(mon, got.dft[i], want.dft[i]);
      MESSAGE(mon.name << ": max |gpu - reference| / max |reference| = " << e);
      CHECK(e < rel_tol);
    }
  }
}

}  // namespace

TEST_CASE("engine monitors match the reference: flux box, dft regions, modes, every variant") {
  // 75 steps: 76 DFT samples (n = 0 .. 75), not a multiple of the 32-slot ring; 26 mode rows.
  const SimulationModel m = monitor_model(75);
  REQUIRE(m.monitors[0].regions.size() == 22);  // 24 less the clipped high z face's E regions
  ReferenceBackend ref(m);
  const MonitorRun want = run_monitors(m, ref);
  REQUIRE(want.modes.steps_.at(2).size() == 26);
  CHECK(want.modes.steps_.at(2).back() == 75);
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    auto gpu = engine::make_gpu_engine(api, m, engine_config(v));
    INFO("variant " << gpu->kernel_variant());
    // Seen on PoCL: ~1e-6 (flux box), ~6e-6 (Hz on the dipole's plane, where it is small);
    // H's time taken as n dt instead of (n - 1/2) dt gives 0.1.
    compare_monitors(run_monitors(m, *gpu), want, m, 5e-5);
  });
}

TEST_CASE("engine decimated DFT monitors (D = 3 and 5) match the reference, every variant") {
  // 150 steps: the flux box samples n = 0, 3, .., 150 (51: a full ring of 32 and 19), the dft
  // monitor n = 0, 5, .., 150 (31); the modes monitor is not decimated.
  SimulationModel m = monitor_model(150);
  m.monitors[0].dft_every = 3;
  m.monitors[1].dft_every = 5;
  ReferenceBackend ref(m);
  const MonitorRun want = run_monitors(m, ref);
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    auto gpu = engine::make_gpu_engine(api, m, engine_config(v));
    INFO("variant " << gpu->kernel_variant());
    compare_monitors(run_monitors(m, *gpu), want, m, 5e-5);
  });
}

TEST_CASE("engine DFT read in the middle of a run (a partial ring), then accumulated further") {
  const SimulationModel m = monitor_model(50);
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    ReferenceBackend ref(m);
    auto gpu = engine::make_gpu_engine(api, m, engine_config(v));
    std::vector<std::complex<double>> got, want;
    for (Backend* b : {static_cast<Backend*>(&ref), static_cast<Backend*>(gpu.get())}) {
      b->accumulate_dft(0);
    }
    for (long s = 0; s < m.grid.steps; ++s) {
      ref.step(s);
      gpu->step(s);
      ref.accumulate_dft(s + 1);
      gpu->accumulate_dft(s + 1);
      if (s + 1 == 20 || s + 1 == 50) {  // 21 samples: 21 of 32 slots; then 51 = 32 + 19
        for (int mon : {0, 1}) {
          INFO("after step " << s + 1 << ", monitor " << mon);
          ref.read_dft(mon, want);
          gpu->read_dft(mon, got);
          CHECK(dft_error(m.monitors[static_cast<std::size_t>(mon)], got, want) < 5e-5);
        }
      }
    }
  });
}

TEST_CASE(
    "engine monitors: the device-byte estimate counts their buffers, the refusal names them") {
  SimulationModel m = monitor_model(10);
  const std::vector<MonitorModel> monitors = m.monitors;
  m.monitors.clear();
  std::array<std::size_t, 3> without{};
  const KernelVariant variants[3] = {KernelVariant::Tile, KernelVariant::OnePass,
                                     KernelVariant::Rows};
  for (int v = 0; v < 3; ++v) without[v] = variant_device_bytes(m, variants[v], 256);
  m.monitors = monitors;
  // By hand: flux 4 frequencies (padded to 16), dft 18 (padded to 32), both with 32 ring slots;
  // per DFT monitor 8 ints per region, 32 ring floats and 2 F accumulator floats per point,
  // 2 kinds x 32 slots x F_pad x 2 weight floats; modes 11 x 3 floats per padded cell and 256
  // slots x 11 modes x groups partial sums.
  const std::size_t p0 = m.monitors[0].points(), p1 = m.monitors[1].points();
  const std::size_t groups = static_cast<std::size_t>(engine::mode_groups(m));
  const std::size_t expected = 4 * (22 * 8 + 32 * p0 + 2 * 4 * p0 + 2 * 32 * 16 * 2) +
                               4 * (3 * 8 + 32 * p1 + 2 * 18 * p1 + 2 * 32 * 32 * 2) +
                               4 * (11 * 3 * m.layout.cells() + 256 * 11 * groups);
  CHECK(engine::monitor_device_bytes(m, 256) == expected);
  for (int v = 0; v < 3; ++v) {
    CHECK(variant_device_bytes(m, variants[v], 256) == without[v] + expected);
  }
  // The refusal before allocating names each monitor's share.
  device::DeviceInfo info;
  info.name = "Small GPU";
  info.global_mem_bytes = without[0] + expected / 2;
  info.max_alloc_bytes = info.global_mem_bytes;
  const std::size_t total = variant_device_bytes(m, KernelVariant::Tile, 256);
  CHECK_THROWS_WITH_AS(
      engine::check_device_memory(total, engine::yee_buffer_needs(m, KernelVariant::Tile, 256),
                                  info, info.global_mem_bytes),
      doctest::Contains("of which monitor box "), OutOfMemoryError);
  CHECK_THROWS_WITH_AS(
      engine::check_device_memory(total, engine::yee_buffer_needs(m, KernelVariant::Tile, 256),
                                  info, info.global_mem_bytes),
      doctest::Contains(", monitor modes "), OutOfMemoryError);
}

TEST_CASE("DFT ring slots: 32, fewer where the ring would dwarf the accumulators") {
  MonitorModel small = dft_monitor("s", {region(Component::Ex, {0, 0, 0}, {10, 10, 10})}, {1e9});
  CHECK(engine::dft_ring_slots(small) == 32);
  // 200^3 points, one frequency: 64 MB of accumulators; the ring may take 128 MB: 4 slots.
  MonitorModel volume =
      dft_monitor("v", {region(Component::Ex, {0, 0, 0}, {200, 200, 200})}, {1e9});
  CHECK(engine::dft_ring_slots(volume) == 4);
  // Ten frequencies: the 32-slot ring (128 B per point) is below twice the accumulators (160 B).
  volume.frequencies_hz.assign(10, 1e9);
  CHECK(engine::dft_ring_slots(volume) == 32);
}

TEST_CASE("DFT batch weights: e^(-i 2 pi f t) dt at E's and H's own times, zero past the batch") {
  std::vector<float> w;
  const double dt = 1e-12, f = 3e9;
  engine::dft_batch_weights({f}, {7, 8}, dt, 1, 4, 16, w);
  REQUIRE(w.size() == 2 * 4 * 16 * 2);
  const double pi = std::acos(-1.0);
  auto at = [&](int kind, int slot, int freq) {
    const std::size_t i = ((static_cast<std::size_t>(kind) * 4 + slot) * 16 + freq) * 2;
    return std::complex<double>(w[i], w[i + 1]);
  };
  const std::complex<double> e8 = std::polar(dt, -2 * pi * f * 8 * dt);
  const std::complex<double> h8 = std::polar(dt, -2 * pi * f * 7.5 * dt);
  CHECK(std::abs(at(0, 1, 0) - e8) < 1e-6 * dt);
  CHECK(std::abs(at(1, 1, 0) - h8) < 1e-6 * dt);
  CHECK(at(0, 2, 0) == std::complex<double>(0, 0));
  CHECK(at(0, 0, 1) == std::complex<double>(0, 0));
}

TEST_CASE("DFT batch weights of a decimated monitor: e^(-i 2 pi f t) D dt") {
  std::vector<float> w;
  const double dt = 1e-12, f = 3e9;
  engine::dft_batch_weights({f}, {9, 12}, dt, 3, 4, 16, w);
  const double pi = std::acos(-1.0);
  const std::complex<double> e12 = std::polar(3 * dt, -2 * pi * f * 12 * dt);
  const std::complex<double> h12 = std::polar(3 * dt, -2 * pi * f * 11.5 * dt);
  CHECK(std::abs(std::complex<double>(w[(0 * 4 + 1) * 16 * 2], w[(0 * 4 + 1) * 16 * 2 + 1]) - e12) <
        3e-6 * dt);
  CHECK(std::abs(std::complex<double>(w[(1 * 4 + 1) * 16 * 2], w[(1 * 4 + 1) * 16 * 2 + 1]) - h12) <
        3e-6 * dt);
}

TEST_CASE("tiny monitor model (oclgrind)") {
  // Small enough for tools/oclgrind_check.sh (an interpreter): races and out-of-bounds in
  // monitor_dft.cl and mode_projection.cl, with padding lanes (nz = 7), two projection groups,
  // a partial second mode block, one full ring flush (34 samples) and a partial one.
  RunConfig cfg = box_config({9, 8, 7}, kD, 33, BoundaryType::Upml, 2);
  cfg.materials = {material("glass", 2, 1, 0)};
  cfg.objects = {box("glass", "glass", {4.5, 4, 3.5}, {3, 3, 3}, kD)};
  cfg.sources = {point_source("s", SourceKind::Dipole, Axis::Z, {4.2e-3, 3.9e-3, 3.4e-3},
                              WaveformKind::Gaussian, 40e9, 1e-15)};
  SimulationModel m = SimulationModel::build(cfg);
  m.monitors.push_back(flux_box("box", {2, 2, 1}, {7, 6, 7}, m.grid.n, {20e9, 35e9}));
  m.monitors.push_back(
      dft_monitor("plane", {region(Component::Ez, {0, 0, 3}, {9, 8, 4})}, {10e9, 20e9, 30e9}));
  m.monitors.push_back(random_modes("modes", m, 9, 2, 3));
  ReferenceBackend ref(m);
  const MonitorRun want = run_monitors(m, ref);
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    auto gpu = engine::make_gpu_engine(api, m, engine_config(v));
    INFO("variant " << gpu->kernel_variant());
    compare_monitors(run_monitors(m, *gpu), want, m, 5e-5);
  });
}

TEST_CASE("a monitor region outside the grid is refused by both engines, naming the monitor") {
  SimulationModel m = monitor_model(5);
  m.monitors = {dft_monitor("past", {region(Component::Ey, {0, 0, 0}, {25, 20, 28})}, {1e9})};
  CHECK_THROWS_WITH_AS(ReferenceBackend{m},
                       doctest::Contains("monitor past: a Ey region covers cells 0..24 along "
                                         "axis x, outside the grid's 0..23"),
                       DeviceError);
  for (device::Api api : engine_apis()) {
    CHECK_THROWS_WITH_AS(engine::make_gpu_engine(api, m, engine_config(KernelVariant::Rows)),
                         doctest::Contains("monitor past: a Ey region"), DeviceError);
  }
}

TEST_CASE("engine modes: a hundred modes at once (13 blocks of 8), every variant") {
  SimulationModel m = monitor_model(24);
  m.monitors = {random_modes("many", m, 100, 4, 11)};
  ReferenceBackend ref(m);
  const MonitorRun want = run_monitors(m, ref);
  REQUIRE(want.modes.values_.at(0).size() == 7 * 100);  // steps 0, 4, ..., 24
  for_each_api_variant([&](device::Api api, KernelVariant v) {
    auto gpu = engine::make_gpu_engine(api, m, engine_config(v));
    INFO("variant " << gpu->kernel_variant());
    compare_monitors(run_monitors(m, *gpu), want, m, 5e-5);
  });
}
