// The scalar wave engine (equation = wave) against Yee tm with UPML in double precision
// (test_wave_engine_model.hpp), cell by cell and probe by probe, on every API with a device here, with each
// interior kernel (pair sums, plain cross, rows) and work-groups that do not divide the grid:
// the wave update plus its Yee frame must give Yee's Ez to float rounding, with UPML on four faces
// of different depths, a dielectric and a PEC box reaching into the UPML, a lossy disc and a
// sine line current. Then the frame's shape, the memory it reports and what it refuses.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "backends/reference/plane_reference.hpp"
#include "engine/engine_suite.hpp"
#include "engine/plane/plane_engine.hpp"
#include "engine/wave/wave_engine.hpp"
#include "engine/test_wave_engine_model.hpp"

#ifdef CLFDTD_HAVE_CUDA
#include "device/cuda/cuda_device.hpp"
#endif

using namespace clfdtd;
using namespace clfdtd::test;
using clfdtd::engine::WaveEngine;
using clfdtd::engine::WaveKernel;

namespace {

struct Shape {
  WaveKernel kernel;
  std::optional<std::array<int, 3>> wg;
};

std::vector<Shape> shapes_for(const SimulationModel& m) {
  std::vector<Shape> v;
  if (m.grid.d[0] == m.grid.d[1]) {
    v.push_back({WaveKernel::PairSum, std::nullopt});
    v.push_back({WaveKernel::PairSum, std::array<int, 3>{3, 5, 1}});
  }
  v.push_back({WaveKernel::Cross, std::array<int, 3>{4, 16, 1}});
  v.push_back({WaveKernel::Rows, std::nullopt});
  v.push_back({WaveKernel::Rows, std::array<int, 3>{3, 1, 1}});
  return v;
}

// Runs the engine and Yee tm side by side for the model's steps; Ez everywhere and every probe
// series within rel_tol of their largest |value|.
void compare_with_yee(WaveEngine& e, const SimulationModel& m, double rel_tol = 2e-5) {
  INFO("device: " << e.device_description() << ", kernel: " << e.kernel_variant());
  YeeTm yee(m);
  std::vector<std::vector<double>> want(m.probes.samples.size()), got(m.probes.samples.size());
  std::vector<double> batch;
  for (long s = 0; s < m.grid.steps; ++s) {
    yee.step(s);
    e.step(s);
    e.sample_probes(static_cast<int>(s % WaveEngine::kProbeBatchSteps));
    for (std::size_t p = 0; p < m.probes.samples.size(); ++p) {
      const auto& c = m.probes.samples[p].cell;
      want[p].push_back(yee.ez[yee.at(c[0], c[1])]);
    }
    if ((s + 1) % WaveEngine::kProbeBatchSteps == 0 || s + 1 == m.grid.steps) {
      const int slots = static_cast<int>(s % WaveEngine::kProbeBatchSteps) + 1;
      e.read_probe_batch(slots, batch);
      for (int t = 0; t < slots; ++t) {
        for (std::size_t p = 0; p < got.size(); ++p) {
          got[p].push_back(batch[static_cast<std::size_t>(t) * got.size() + p]);
        }
      }
    }
  }
  e.finish();
  CHECK(e.fields_finite());
  std::vector<float> ez;
  e.read_field(Component::Ez, ez);
  REQUIRE(ez.size() == yee.cells());
  double max_ref = 0, max_diff = 0;
  std::array<int, 2> worst{};
  for (int i = 0; i < m.grid.n[0]; ++i) {
    for (int j = 0; j < m.grid.n[1]; ++j) {
      const std::size_t c = yee.at(i, j);
      max_ref = std::max(max_ref, std::abs(yee.ez[c]));
      if (std::abs(ez[c] - yee.ez[c]) > max_diff) {
        max_diff = std::abs(ez[c] - yee.ez[c]);
        worst = {i, j};
      }
    }
  }
  INFO("Ez: max |ref| = " << max_ref << ", max |diff| = " << max_diff << " (ratio "
                          << max_diff / max_ref << ") at cell " << worst[0] << "," << worst[1]);
  CHECK(max_ref > 0);
  CHECK(max_diff <= rel_tol * max_ref);
  for (std::size_t p = 0; p < want.size(); ++p) {
    REQUIRE(got[p].size() == want[p].size());
    double r = 0, d = 0;
    for (std::size_t t = 0; t < want[p].size(); ++t) {
      r = std::max(r, std::abs(want[p][t]));
      d = std::max(d, std::abs(got[p][t] - want[p][t]));
    }
    INFO("probe " << p << ": max |ref| = " << r << ", max |diff| = " << d);
    CHECK(r > 0);
    CHECK(d <= rel_tol * r);
  }
  std::vector<float> hx;
  e.read_field(Component::Hx, hx);  // not carried: zeros
  CHECK(hx.size() == yee.cells());
  CHECK(std::all_of(hx.begin(), hx.end(), [](float v) { return v == 0.0f; }));
}

void wave_compare_everywhere(const SimulationModel& m) {
  for (device::Api api : engine_apis()) {
    for (const Shape& sh : shapes_for(m)) {
      DeviceConfig cfg;
      cfg.workgroup = sh.wg;
      auto e = engine::make_wave_engine(api, m, cfg, sh.kernel);
      CHECK(e->kernel() == sh.kernel);
      compare_with_yee(*e, m);
    }
  }
}

}  // namespace

TEST_CASE("wave engine == Yee tm + UPML: materials, PEC objects, a source, odd grid") {
  wave_compare_everywhere(wave_model(WaveModelSpec{}));
}

TEST_CASE("wave engine == Yee tm: PEC walls, no frame") {
  WaveModelSpec s;
  s.layers = {0, 0, 0, 0};
  s.nx = 23;
  s.ny = 18;
  s.sources = {{11, 9}, {5, 12}};
  s.probes = {{3, 3}, {20, 16}};
  const SimulationModel m = wave_model(s);
  const engine::WaveFrame f = engine::build_wave_frame(m);
  CHECK(f.h_count() == 0);
  CHECK(f.e_count() == 0);
  CHECK(f.interior_cells() == 23L * 18);
  wave_compare_everywhere(m);
}

TEST_CASE("wave engine == Yee tm + UPML on two faces, dx != dy (cross stencil)") {
  WaveModelSpec s;
  s.dy = 1.4e-3;
  s.layers = {0, 6, 5, 0};
  s.ny = 31;
  const SimulationModel m = wave_model(s);
  for (device::Api api : engine_apis()) {
    auto e = engine::make_wave_engine(api, m, DeviceConfig{});
    CHECK(e->kernel_variant().rfind("wave-", 0) == 0);
  }
  CHECK(engine::choose_wave_kernel(m, KernelVariant::Tile, "gpu") == WaveKernel::Cross);
  wave_compare_everywhere(m);
}

TEST_CASE("wave engine == Yee tm on a model that SimulationModel::build made from a config") {
  RunConfig cfg;
  cfg.grid.dims = 2;
  cfg.grid.mode = PlaneMode::Tm;
  cfg.grid.equation = Equation::Wave;
  cfg.grid.size_m = Vec3{0.23, 0.17, 1.0};
  cfg.grid.cell_size_m = Vec3{0.01, 0.01, 1.0};
  cfg.time.steps = 120;
  cfg.boundary.layers = {4, 3, 5, 2, 0, 0};
  cfg.materials.push_back(MaterialConfig{"diel", 3.0, 1.0, 0.02, false});
  ObjectConfig rect;
  rect.name = "rect";
  rect.center = Vec3{0.19, 0.08, 0};  // reaches into the x-high UPML
  rect.size = Vec3{0.1, 0.04, 0};
  rect.material = "diel";
  cfg.objects.push_back(rect);
  ObjectConfig disc;
  disc.name = "disc";
  disc.shape = ShapeKind::Sphere;
  disc.center = Vec3{0.08, 0.11, 0};
  disc.radius = 0.025;
  disc.material = "pec";
  cfg.objects.push_back(disc);
  SourceConfig src;
  src.name = "line";
  src.kind = SourceKind::Current;
  src.axis = Axis::Z;
  src.position = Vec3{0.11, 0.075, 0};
  src.frequency_hz = 3e9;
  cfg.sources.push_back(src);
  ProbeConfig p;
  p.name = "p";
  p.position = Vec3{0.15, 0.1, 0};
  p.fields = {Component::Ez};
  cfg.probes.push_back(p);
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.two_d());
  REQUIRE(m.equation == Equation::Wave);
  // The model's frame (UpmlProfile::in_wave_frame) is the engine's H frame.
  const engine::WaveFrame f = engine::build_wave_frame(m);
  int model_frame = 0;
  for (int i = 0; i < m.grid.n[0]; ++i) {
    for (int j = 0; j < m.grid.n[1]; ++j) model_frame += m.upml.in_wave_frame(i, j, m.grid.n);
  }
  CHECK(model_frame == f.h_count());
  for (device::Api api : engine_apis()) {
    for (WaveKernel k : {WaveKernel::PairSum, WaveKernel::Rows}) {
      auto e = engine::make_wave_engine(api, m, DeviceConfig{}, k);
      compare_with_yee(*e, m);
    }
  }
}

// Runs the wave engine and another backend side by side; Ez everywhere and the probe series
// within rel_tol of their largest |value|.
void compare_with_backend(Backend& e, Backend& other, const SimulationModel& m, double rel_tol) {
  INFO("wave: " << e.kernel_variant() << " on " << e.device_description() << "; other: "
                << other.name() << " " << other.kernel_variant());
  const std::size_t n = m.probes.samples.size();
  std::vector<double> a, b, got, want;
  for (long s = 0; s < m.grid.steps; ++s) {
    e.step(s);
    other.step(s);
    const int slot = static_cast<int>(s % 256);
    e.sample_probes(slot);
    other.sample_probes(slot);
    if (slot == 255 || s + 1 == m.grid.steps) {
      e.read_probe_batch(slot + 1, a);
      other.read_probe_batch(slot + 1, b);
      got.insert(got.end(), a.begin(), a.end());
      want.insert(want.end(), b.begin(), b.end());
    }
  }
  e.finish();
  other.finish();
  std::vector<float> ez_e, ez_o;
  e.read_field(Component::Ez, ez_e);
  other.read_field(Component::Ez, ez_o);
  REQUIRE(ez_e.size() == ez_o.size());
  double max_ref = 0, max_diff = 0;
  for (std::size_t c = 0; c < ez_e.size(); ++c) {
    max_ref = std::max(max_ref, std::abs(double(ez_o[c])));
    max_diff = std::max(max_diff, std::abs(double(ez_e[c]) - ez_o[c]));
  }
  INFO("Ez: max |other| = " << max_ref << ", max |diff| = " << max_diff);
  CHECK(max_ref > 0);
  CHECK(max_diff <= rel_tol * max_ref);
  REQUIRE(got.size() == want.size());
  REQUIRE(got.size() == n * static_cast<std::size_t>(m.grid.steps));
  double pr = 0, pd = 0;
  for (std::size_t t = 0; t < got.size(); ++t) {
    pr = std::max(pr, std::abs(want[t]));
    pd = std::max(pd, std::abs(got[t] - want[t]));
  }
  INFO("probes: max |other| = " << pr << ", max |diff| = " << pd);
  CHECK(pr > 0);
  CHECK(pd <= rel_tol * pr);
}

TEST_CASE("wave engine == PlaneReference's wave and its Yee tm, == PlaneEngine tm on the device") {
  const SimulationModel wave = wave_model(WaveModelSpec{});
  SimulationModel yee = wave;  // the same model solved by Yee tm (Ez Hx Hy)
  yee.equation = Equation::Maxwell;
  for (device::Api api : engine_apis()) {
    for (WaveKernel k : {WaveKernel::PairSum, WaveKernel::Cross, WaveKernel::Rows}) {
      auto e = engine::make_wave_engine(api, wave, DeviceConfig{}, k);
      PlaneReference ref(wave);
      compare_with_backend(*e, ref, wave, 2e-5);
    }
    auto e = engine::make_wave_engine(api, wave, DeviceConfig{}, WaveKernel::PairSum);
    PlaneReference ref_yee(yee);
    compare_with_backend(*e, ref_yee, wave, 2e-5);
    // Float against float: the two devices' roundings differ, not their equations.
    e = engine::make_wave_engine(api, wave, DeviceConfig{}, WaveKernel::Cross);
    auto plane = engine::make_plane_engine(api, yee, DeviceConfig{});
    compare_with_backend(*e, *plane, wave, 2e-5);
  }
}

TEST_CASE("wave kernel choice: tile = pair sums (equal cells), rows, auto by device type") {
  const SimulationModel m = wave_model(WaveModelSpec{});
  using engine::choose_wave_kernel;
  CHECK(choose_wave_kernel(m, KernelVariant::Tile, "gpu") == WaveKernel::PairSum);
  CHECK(choose_wave_kernel(m, KernelVariant::Tile, "cpu") == WaveKernel::PairSum);
  CHECK(choose_wave_kernel(m, KernelVariant::Rows, "gpu") == WaveKernel::Rows);
  CHECK(choose_wave_kernel(m, KernelVariant::Auto, "gpu") == WaveKernel::Cross);
  CHECK(choose_wave_kernel(m, KernelVariant::Auto, "cpu") == WaveKernel::Rows);
  CHECK_THROWS_AS(choose_wave_kernel(m, KernelVariant::OnePass, "gpu"), ConfigError);
}

TEST_CASE("wave frame: UPML cells, one E ring inside the low faces, one H ring inside all") {
  WaveModelSpec s;
  s.nx = 20;
  s.ny = 16;
  s.layers = {3, 2, 0, 4};
  const SimulationModel m = wave_model(s);
  const engine::WaveFrame f = engine::build_wave_frame(m);
  CHECK(f.i0 == 4);   // 3 layers + the ring
  CHECK(f.i1 == 18);  // 20 - 2: no ring on a high face
  CHECK(f.j0 == 0);   // no layers on y low: no ring
  CHECK(f.j1 == 12);
  CHECK(f.e_count() == 20 * 16 - 14 * 12);
  // H frame: the E frame plus the ring inside x high and y high.
  CHECK(f.h_count() == 20 * 16 - 13 * 11);
  // Each E frame cell's H neighbours are the cells (i, j), (i-1, j), (i, j-1).
  for (int e = 0; e < f.e_count(); ++e) {
    const int i = f.e_cells[5 * e], j = f.e_cells[5 * e + 1];
    const int h = f.e_cells[5 * e + 2], hxm = f.e_cells[5 * e + 3], hym = f.e_cells[5 * e + 4];
    REQUIRE(h >= 0);
    CHECK(f.h_cells[2 * h] == i);
    CHECK(f.h_cells[2 * h + 1] == j);
    if (i == 0) {
      CHECK(hxm == -1);
    } else {
      REQUIRE(hxm >= 0);
      CHECK(f.h_cells[2 * hxm] == i - 1);
    }
    if (j == 0) {
      CHECK(hym == -1);
    } else {
      REQUIRE(hym >= 0);
      CHECK(f.h_cells[2 * hym + 1] == j - 1);
    }
  }
}

TEST_CASE("wave engine memory: u, u_prev and the Ez id per cell, the frame on top") {
  WaveModelSpec s;
  s.nx = 300;
  s.ny = 201;  // padded to 204
  s.layers = {0, 0, 0, 0};
  s.sources = {};
  s.probes = {};
  s.materials = false;
  const SimulationModel pec = wave_model(s);
  const std::size_t cells = pec.layout.cells();
  const std::size_t bytes = engine::wave_device_bytes(pec, WaveEngine::kProbeBatchSteps);
  // 9 bytes a cell (Yee tm: Ez Hx Hy and the Ez id, 13), plus tables of a few KiB.
  CHECK(bytes >= 9 * cells);
  CHECK(bytes <= 9 * cells + 48 * 1024);
  s.layers = {10, 10, 10, 10};
  const SimulationModel upml = wave_model(s);
  const engine::WaveFrame f = engine::build_wave_frame(upml);
  const std::size_t frame_bytes = engine::wave_device_bytes(upml, WaveEngine::kProbeBatchSteps) -
                                  bytes;
  // Per H frame cell Hx Hy Bx By and (i, j); per E frame cell Dz and (i, j, h, hxm, hym).
  CHECK(frame_bytes == static_cast<std::size_t>(f.h_count()) * 24 +
                           static_cast<std::size_t>(f.e_count()) * 24 - 24 - 24);
  for (device::Api api : engine_apis()) {
    auto e = engine::make_wave_engine(api, upml, DeviceConfig{});
    CHECK(e->device_bytes(upml) == bytes + frame_bytes);
  }
}

TEST_CASE("wave engine refuses what it cannot run, naming the key") {
  auto refused_key = [](const SimulationModel& m, const DeviceConfig& cfg = {}) -> std::string {
    for (device::Api api : engine_apis()) {
      try {
        engine::make_wave_engine(api, m, cfg);
      } catch (const ConfigError& e) {
        return e.key();
      }
      return "(accepted)";
    }
    return "(no device)";
  };
  if (engine_apis().empty()) return;
  WaveModelSpec s;
  s.sources = {{6, 13}};  // in the ring inside x low (6 layers): Yee's frame, not the wave
  CHECK(refused_key(wave_model(s)) == "source.feed0.position");
  SimulationModel m = wave_model(WaveModelSpec{});
  m.probes.samples[0].component = Component::Hx;
  CHECK(refused_key(m) == "probe.p0.fields");
  m = wave_model(WaveModelSpec{});
  m.energy = true;
  CHECK(refused_key(m) == "output.energy");
  m = wave_model(WaveModelSpec{});
  m.mode = PlaneMode::Te;
  CHECK(refused_key(m) == "grid.mode");
  m = wave_model(WaveModelSpec{});
  DeviceConfig onepass;
  onepass.variant = KernelVariant::OnePass;
  CHECK(refused_key(m, onepass) == "device.variant");
  DeviceConfig bad_wg;
  bad_wg.workgroup = std::array<int, 3>{4, 4, 2};
  CHECK(refused_key(m, bad_wg) == "device.workgroup");
}

#ifdef CLFDTD_HAVE_CUDA
TEST_CASE("wave kernels: NVRTC compiles them with a pair-sum tile (no GPU needed)") {
  const std::string ptx =
      device::compile_cuda_program({{"WAVE_WX", 4}, {"WAVE_WY", 64}}, "compute_90");
  for (const char* k : {"wave_pairsum", "wave_cross", "wave_rows", "wave_frame_h", "wave_frame_e"}) {
    INFO(k);
    CHECK(ptx.find(std::string(".entry ") + k + "(") != std::string::npos);
  }
}
#endif
