// The GPU monitor stages (engine/monitor_stages.hpp) on a 2D model's plane layout, as a 2D engine
// holds them: MonitorRunner over six field buffers (placeholders for the components the mode does
// not carry), fed the same fields as MonitorSums (the 2D reference engine's monitors) every step:
// dft, flux and modes monitors of tm, te and wave models agree to float accumulation; and the
// 2D engines themselves (PlaneEngine, WaveEngine) run their monitors as PlaneReference does.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>
#include <utility>

#include "backends/reference/monitor_sums.hpp"
#include "backends/reference/plane_reference.hpp"
#include "device/device.hpp"
#include "device/test_apis.hpp"
#include "engine/monitor_stages.hpp"
#include "engine/plane/plane_engine.hpp"
#include "engine/wave/wave_engine.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd;

namespace {

RunConfig plane_config(PlaneMode mode, Equation eq) {
  RunConfig cfg;
  cfg.source_file = "plane.ini";
  cfg.grid.dims = 2;
  cfg.grid.mode = mode;
  cfg.grid.equation = eq;
  cfg.grid.size_m = Vec3{0.13, 0.1, 1.0};  // 13 x 10 cells: rows padded to 12
  cfg.grid.cell_size_m = Vec3{0.01, 0.01, 1.0};
  cfg.time.steps = 70;
  cfg.boundary.layers = {2, 2, 2, 2, 0, 0};
  MonitorConfig dft;
  dft.name = "d";
  dft.kind = MonitorKind::Dft;
  dft.box_lo = Vec3{0.03, 0.02, 0};
  dft.box_hi = Vec3{0.09, 0.1, 0};  // up to the high y end (row 9, the last before padding)
  dft.frequencies_hz = {1e9, 2.5e9, 4e9};
  dft.decimation = 2;
  cfg.monitors.push_back(dft);
  if (eq == Equation::Maxwell) {
    MonitorConfig flux = dft;
    flux.name = "f";
    flux.kind = MonitorKind::Flux;
    flux.box_hi = Vec3{0.1, 0.08, 0};
    flux.decimation = 1;
    cfg.monitors.push_back(flux);
  }
  cfg.lines = {{"monitor.d.decimation", 6}, {"monitor.f.decimation", 7}};
  return cfg;
}

// A modes monitor of 3 modes with data in every component (the projection must count the
// carried E components only).
MonitorModel modes_monitor(const SimulationModel& m) {
  MonitorModel mon;
  mon.name = "p";
  mon.kind = MonitorKind::Modes;
  mon.nmodes = 3;
  const std::size_t cells = m.layout.cells();
  mon.modes.assign(3 * 3 * cells, 0.0f);
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < m.layout.nx; ++i)
        for (int j = 0; j < m.layout.ny; ++j)
          mon.modes[(static_cast<std::size_t>(k) * 3 + c) * cells + m.layout.index(i, j, 0)] =
              static_cast<float>(std::cos(0.3 * k + 0.2 * i - 0.1 * j + c));
  return mon;
}

double value_at(Component c, int i, int j, long n) {
  return std::sin(0.37 * n + 0.7 * i - 0.45 * j + static_cast<int>(c)) * (1 + 0.1 * i);
}

void check_model(device::Api api, PlaneMode mode, Equation eq) {
  SimulationModel m = SimulationModel::build(plane_config(mode, eq));
  m.monitors.push_back(modes_monitor(m));
  auto dev = device::open_device(api, 0);
  const device::Program program = dev->program({{"TILE_X", 2}, {"TILE_Y", 2}, {"TILE_Z4", 30}});
  const std::size_t cells = m.layout.cells();
  engine::FieldSet set;
  const device::Buffer placeholder = dev->alloc(0);
  for (int c = 0; c < 6; ++c) {
    set[static_cast<std::size_t>(c)] =
        m.is_active(static_cast<Component>(c)) ? dev->alloc(cells * sizeof(float)) : placeholder;
  }
  const int batch = 8;
  engine::MonitorRunner runner(engine::MonitorInputs{*dev, program, m, {set, set}}, batch,
                               [&](const engine::Stage& st, long value) {
                                 device::Kernel k = st.kernel[0];
                                 if (st.value_arg >= 0)
                                   k.set(static_cast<unsigned>(st.value_arg), static_cast<int>(value));
                                 dev->launch(k, st.global, st.local);
                               });
  std::array<std::vector<double>, 6> host;
  MonitorSums sums(m, batch, [&](Component c) -> const std::vector<double>* {
    return m.is_active(c) ? &host[static_cast<int>(c)] : nullptr;
  });
  std::vector<float> upload(cells);
  for (long n = 0; n <= m.grid.steps; ++n) {
    for (Component c : m.active_components()) {
      auto& h = host[static_cast<int>(c)];
      h.assign(cells, 0.0);
      for (int i = 0; i < m.layout.nx; ++i)
        for (int j = 0; j < m.layout.ny; ++j) h[m.layout.index(i, j, 0)] = value_at(c, i, j, n);
      for (std::size_t q = 0; q < cells; ++q) upload[q] = static_cast<float>(h[q]);
      dev->upload(set[static_cast<std::size_t>(c)], upload.data(), cells * sizeof(float));
    }
    runner.accumulate_dft(n);
    sums.accumulate_dft(n);
    if (n % 10 == 0 && n / 10 < batch) {
      const int mi = static_cast<int>(m.monitors.size()) - 1;
      runner.sample_modes(mi, static_cast<int>(n / 10));
      sums.sample_modes(mi, static_cast<int>(n / 10));
    }
  }
  for (std::size_t mi = 0; mi < m.monitors.size(); ++mi) {
    const MonitorModel& mon = m.monitors[mi];
    CAPTURE(mon.name);
    std::vector<double> got, want;
    if (mon.kind == MonitorKind::Modes) {
      runner.read_mode_batch(static_cast<int>(mi), batch, got);
      sums.read_mode_batch(static_cast<int>(mi), batch, want);
    } else {
      std::vector<std::complex<double>> a, b;
      runner.read_dft(static_cast<int>(mi), a);
      sums.read_dft(static_cast<int>(mi), b);
      for (const auto& v : a) got.insert(got.end(), {v.real(), v.imag()});
      for (const auto& v : b) want.insert(want.end(), {v.real(), v.imag()});
    }
    REQUIRE(got.size() == want.size());
    REQUIRE(!got.empty());
    double scale = 0, worst = 0;
    for (double v : want) scale = std::max(scale, std::abs(v));
    for (std::size_t q = 0; q < got.size(); ++q) worst = std::max(worst, std::abs(got[q] - want[q]));
    CHECK(scale > 0);
    CHECK(worst <= 2e-6 * scale);
  }
}

}  // namespace

TEST_CASE("monitor stages on a 2D plane layout match MonitorSums: tm, te, wave") {
  bool any = false;
  for (device::Api api : {device::Api::OpenCL, device::Api::Cuda}) {
    if (!test::has_device(api)) continue;
    any = true;
    const std::string api_name = device::api_name(api);
    CAPTURE(api_name);
    for (auto [mode, eq] : {std::pair{PlaneMode::Tm, Equation::Maxwell},
                            std::pair{PlaneMode::Te, Equation::Maxwell},
                            std::pair{PlaneMode::Tm, Equation::Wave}}) {
      CAPTURE(static_cast<int>(mode));
      CAPTURE(static_cast<int>(eq));
      check_model(api, mode, eq);
    }
  }
  if (!any) MESSAGE("no OpenCL or CUDA device: the 2D monitor stages were not run");
}

namespace {

// A 40 x 40 plane of 1 cm cells, 6 UPML layers, a Gaussian-pulse line current at 1 GHz at the
// centre (along z in tm and wave, along x in te), a flux rectangle (not in wave), a dft
// rectangle of the model's components and a modes monitor; 120 steps.
SimulationModel run_model(PlaneMode mode, Equation eq) {
  RunConfig cfg = plane_config(mode, eq);
  cfg.grid.size_m = Vec3{0.4, 0.4, 1.0};
  cfg.time.steps = 120;
  cfg.boundary.layers = {6, 6, 6, 6, 0, 0};
  SourceConfig s;
  s.name = "line";
  s.kind = SourceKind::Current;
  s.axis = mode == PlaneMode::Tm ? Axis::Z : Axis::X;
  s.position = Vec3{0.2, 0.2, 0};
  s.frequency_hz = 1e9;
  cfg.sources.push_back(s);
  for (MonitorConfig& mon : cfg.monitors) {
    mon.box_lo = Vec3{0.1, 0.12, 0};
    mon.box_hi = Vec3{0.3, 0.27, 0};
    mon.frequencies_hz = {0.8e9, 1e9, 1.3e9};
  }
  SimulationModel m = SimulationModel::build(cfg);
  m.monitors.push_back(modes_monitor(m));
  return m;
}

// Every monitor's values of `engine` against the reference's, relative to the largest.
void compare_runs(Backend& engine, Backend& ref, const SimulationModel& m) {
  const int every = 10;
  const int mi_modes = static_cast<int>(m.monitors.size()) - 1;
  for (long n = 0; n <= m.grid.steps; ++n) {
    if (n > 0) {
      engine.step(n - 1);
      ref.step(n - 1);
    }
    engine.accumulate_dft(n);
    ref.accumulate_dft(n);
    if (n % every == 0) {
      engine.sample_modes(mi_modes, static_cast<int>(n / every));
      ref.sample_modes(mi_modes, static_cast<int>(n / every));
    }
  }
  const int slots = static_cast<int>(m.grid.steps / every) + 1;
  for (std::size_t mi = 0; mi < m.monitors.size(); ++mi) {
    const MonitorModel& mon = m.monitors[mi];
    CAPTURE(mon.name);
    std::vector<double> got, want;
    if (mon.kind == MonitorKind::Modes) {
      engine.read_mode_batch(static_cast<int>(mi), slots, got);
      ref.read_mode_batch(static_cast<int>(mi), slots, want);
    } else {
      std::vector<std::complex<double>> a, b;
      engine.read_dft(static_cast<int>(mi), a);
      ref.read_dft(static_cast<int>(mi), b);
      for (const auto& v : a) got.insert(got.end(), {v.real(), v.imag()});
      for (const auto& v : b) want.insert(want.end(), {v.real(), v.imag()});
    }
    REQUIRE(got.size() == want.size());
    double scale = 0, worst = 0;
    for (double v : want) scale = std::max(scale, std::abs(v));
    for (std::size_t q = 0; q < got.size(); ++q) worst = std::max(worst, std::abs(got[q] - want[q]));
    CHECK(scale > 0);
    MESSAGE(mon.name << ": largest difference " << worst / scale << " of the largest value");
    CHECK(worst <= 1e-5 * scale);  // float fields and accumulators against double (seen 2e-7)
  }
}

}  // namespace

TEST_CASE("2D engines run monitors: PlaneEngine (tm, te) and WaveEngine against PlaneReference") {
  for (device::Api api : {device::Api::OpenCL, device::Api::Cuda}) {
    if (!test::has_device(api)) continue;
    const std::string api_name = device::api_name(api);
    CAPTURE(api_name);
    for (auto [mode, eq] : {std::pair{PlaneMode::Tm, Equation::Maxwell},
                            std::pair{PlaneMode::Te, Equation::Maxwell},
                            std::pair{PlaneMode::Tm, Equation::Wave}}) {
      CAPTURE(static_cast<int>(mode));
      CAPTURE(static_cast<int>(eq));
      const SimulationModel m = run_model(mode, eq);
      PlaneReference ref(m);
      DeviceConfig cfg;
      std::unique_ptr<Backend> engine = eq == Equation::Wave ? engine::make_wave_engine(api, m, cfg)
                                                             : engine::make_plane_engine(api, m, cfg);
      CHECK(engine->device_bytes(m) > engine::monitor_device_bytes(m, engine->probe_batch_steps()));
      compare_runs(*engine, ref, m);
    }
  }
}

TEST_CASE("2D engines' device bytes count the monitors' buffers as they are allocated") {
  bool any = false;
  for (device::Api api : {device::Api::OpenCL, device::Api::Cuda}) {
    if (!test::has_device(api)) continue;
    any = true;
    const std::string api_name = device::api_name(api);
    CAPTURE(api_name);
    for (auto [mode, eq] : {std::pair{PlaneMode::Tm, Equation::Maxwell},
                            std::pair{PlaneMode::Te, Equation::Maxwell},
                            std::pair{PlaneMode::Tm, Equation::Wave}}) {
      CAPTURE(static_cast<int>(mode));
      CAPTURE(static_cast<int>(eq));
      const SimulationModel with = run_model(mode, eq);
      SimulationModel without = with;
      without.monitors.clear();
      const int batch = engine::DeviceEngine::kProbeBatchSteps;
      const std::size_t monitors = engine::monitor_device_bytes(with, batch);
      REQUIRE(monitors > 0);
      DeviceConfig cfg;
      if (eq == Equation::Wave) {
        auto a = engine::make_wave_engine(api, with, cfg, engine::WaveKernel::Cross);
        auto b = engine::make_wave_engine(api, without, cfg, engine::WaveKernel::Cross);
        CHECK(a->device_bytes(with) - b->device_bytes(without) == monitors);
        CHECK(a->monitor_bytes_allocated() == monitors);
        CHECK(b->monitor_bytes_allocated() == 0);
      } else {
        engine::PlaneEngine a(with, cfg, device::open_device(api, 0));
        engine::PlaneEngine b(without, cfg, device::open_device(api, 0));
        CHECK(a.device_bytes(with) - b.device_bytes(without) == monitors);
        // What was allocated, the monitors' buffers included, is what device_bytes reports.
        CHECK(a.allocated_bytes() == a.device_bytes(with));
        CHECK(b.allocated_bytes() == b.device_bytes(without));
        CHECK(a.monitor_bytes_allocated() == monitors);
      }
    }
  }
  if (!any) MESSAGE("no OpenCL or CUDA device: the 2D engines' device bytes were not checked");
}
