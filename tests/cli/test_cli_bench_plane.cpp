// The 2D side of `clfdtd bench` (issue 19): seed 000's CPU loop (tools/plane_cpu_loop) computes the
// Yee tm answer, the 2D problems and their roofline bytes per cell, the bench options for 2D. Sizes
// are tiny and nothing is timed against a bound (timed assertions do not belong in tests).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../../tools/plane_cpu_loop/plane_loop.hpp"
#include "backends/backend.hpp"
#include "bench/bench_problems.hpp"
#include "bench/plane_problems.hpp"
#include "bench/roofline.hpp"
#include "cli_helpers.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd_test;

namespace {

// max |Ez - a_n mode| over the interior after `steps` steps from the lowest cavity mode.
template <class Real>
double cavity_mode_error(int nx, int ny, long steps) {
  plane_loop::PlaneTm<Real> g(nx, ny, 1e-3, plane_loop::PlaneTm<Real>::courant_dt(1e-3, 0.99));
  g.set_mode();
  for (long s = 0; s < steps; ++s) g.step();
  const double a = g.mode_amplitude(steps);
  double err = 0;
  for (int i = 0; i <= nx; ++i)
    for (int j = 0; j <= ny; ++j) {
      const double exact = a * std::sin(plane_loop::kPi * i / nx) * std::sin(plane_loop::kPi * j / ny);
      const double d = std::fabs(static_cast<double>(g.ez[g.at(i, j)]) - exact);
      if (!std::isfinite(d)) return d;  // a NaN would vanish in std::max
      err = std::max(err, d);
    }
  return err;
}

// A hand-made 2D model for the roofline counts (no model build needed): n x n cells, `layers`
// UPML cells on the four edges.
clfdtd::SimulationModel plane_model(clfdtd::PlaneMode mode, clfdtd::Equation eq, int n, int layers) {
  clfdtd::SimulationModel m;
  m.grid.dims = 2;
  m.grid.n = {n, n, 1};
  m.mode = mode;
  m.equation = eq;
  m.upml.layers = {layers, layers, layers, layers, 0, 0};
  m.upml.cells = static_cast<std::size_t>(n * n - (n - 2 * layers) * (n - 2 * layers));
  return m;
}

// Runs `steps` steps of the loop beside `backend` (a tm field in the x-y plane, one Ez line
// current in vacuum with PEC walls) and returns max |Ez_loop - Ez_backend| / max |Ez_loop|.
double loop_vs_backend(const clfdtd::SimulationModel& m, clfdtd::Backend& backend, long steps) {
  REQUIRE(m.sources.size() == 1);
  const auto& src = m.sources.front();
  REQUIRE(src.component == clfdtd::Component::Ez);
  const int nx = m.grid.n[0], ny = m.grid.n[1];
  plane_loop::PlaneTm<double> g(nx, ny, m.grid.d[0], m.grid.dt);
  const double cb = m.grid.dt / plane_loop::kEps0;  // vacuum: E -= cb J after the E update
  for (long s = 0; s < steps; ++s) {
    backend.step(s);
    g.step();
    g.add_ez(src.cell[0], src.cell[1], -cb * src.j[static_cast<std::size_t>(s)]);
  }
  std::vector<float> ez;
  backend.read_field(clfdtd::Component::Ez, ez);
  REQUIRE(ez.size() == static_cast<std::size_t>(nx) * ny * m.grid.n[2]);
  double peak = 0, diff = 0;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      const double loop = g.ez[g.at(i, j)];
      peak = std::max(peak, std::fabs(loop));
      // out[(i*ny + j)*nz + k], k = 0
      const double d = std::fabs(loop - ez[(static_cast<std::size_t>(i) * ny + j) * m.grid.n[2]]);
      if (!std::isfinite(d)) return d;  // a NaN would vanish in std::max
      diff = std::max(diff, d);
    }
  REQUIRE(peak > 0);
  return diff / peak;
}

}  // namespace

TEST_CASE("plane CPU loop: the lowest PEC cavity mode follows the discrete leapfrog answer") {
  // a_n = cos((n + 1/2) theta) / cos(theta / 2) from H = 0 at -dt/2: 300 steps on 30 x 44 cells
  // (past a zero crossing of a_n); double to rounding, float to float rounding.
  CHECK(cavity_mode_error<double>(30, 44, 300) < 1e-11);
  CHECK(cavity_mode_error<float>(30, 44, 300) < 2e-5);
  // The loop does move the field: the answer after 300 steps is far from the start.
  plane_loop::PlaneTm<double> g(30, 44, 1e-3, plane_loop::PlaneTm<double>::courant_dt(1e-3, 0.99));
  CHECK(std::fabs(g.mode_amplitude(300) - 1) > 0.5);
}

TEST_CASE("plane CPU loop: Ez matches the 3D reference engine on one z layer (tm in the plane)") {
  // One cell along z between PEC walls: Ex and Ey stay zero (PEC on both z walls), so the 3D
  // update of Ez Hx Hy is the 2D tm one; the loop takes the model's dt and source table.
  clfdtd::RunConfig cfg = clfdtd::bench_problem("pec_cube", 32, 60);
  cfg.grid.size_m = clfdtd::Vec3{0.032, 0.024, 0.001};
  cfg.sources.front().kind = clfdtd::SourceKind::Current;
  cfg.sources.front().amplitude = 1;
  cfg.sources.front().position = clfdtd::Vec3{0.0125, 0.0105, 0.0005};
  const clfdtd::SimulationModel m = clfdtd::SimulationModel::build(cfg);
  REQUIRE(m.grid.n == std::array<int, 3>{32, 24, 1});
  clfdtd::DeviceConfig dev;
  dev.backend = clfdtd::BackendKind::Reference;
  auto ref = clfdtd::make_backend(m, dev);
  CHECK(loop_vs_backend(m, *ref, 60) < 1e-5);  // the reference hands back floats
}

TEST_CASE("plane CPU loop: Ez matches the 2D reference engine on plane_tm_pec") {
  const clfdtd::SimulationModel m =
      clfdtd::SimulationModel::build(clfdtd::bench_problem("plane_tm_pec", 32, 60));
  REQUIRE(m.two_d());
  clfdtd::DeviceConfig dev;
  dev.backend = clfdtd::BackendKind::Reference;
  auto ref = clfdtd::make_backend(m, dev);
  CHECK(loop_vs_backend(m, *ref, 60) < 1e-5);
}

TEST_CASE("bench 2D problems: n x n planes with the mode, equation, boundary and source asked for") {
  const clfdtd::RunConfig tm = clfdtd::bench_problem("plane_tm", 40, 10);
  CHECK(tm.grid.dims == 2);
  CHECK(tm.grid.mode == clfdtd::PlaneMode::Tm);
  CHECK(tm.grid.equation == clfdtd::Equation::Maxwell);
  CHECK(tm.grid.size_m.x == doctest::Approx(0.04));
  CHECK(tm.grid.size_m.y == doctest::Approx(0.04));
  CHECK(tm.boundary.type == clfdtd::BoundaryType::Upml);
  CHECK(tm.boundary.layers == std::array<int, 6>{10, 10, 10, 10, 0, 0});
  REQUIRE(tm.sources.size() == 1);
  CHECK(tm.sources[0].kind == clfdtd::SourceKind::Current);
  CHECK(tm.sources[0].axis == clfdtd::Axis::Z);
  const clfdtd::RunConfig te = clfdtd::bench_problem("plane_te_pec", 40, 10);
  CHECK(te.grid.mode == clfdtd::PlaneMode::Te);
  CHECK(te.boundary.type == clfdtd::BoundaryType::Pec);
  CHECK(te.boundary.layers == std::array<int, 6>{0, 0, 0, 0, 0, 0});
  CHECK(te.sources[0].axis == clfdtd::Axis::Y);  // in the plane
  const clfdtd::RunConfig wave = clfdtd::bench_problem("plane_wave", 40, 10);
  CHECK(wave.grid.mode == clfdtd::PlaneMode::Tm);
  CHECK(wave.grid.equation == clfdtd::Equation::Wave);
  CHECK(clfdtd::plane_problem_names().size() == 6);
  // Each builds as a 2D model at the smallest bench size (the wave source one cell inside the frame).
  for (const auto& name : clfdtd::plane_problem_names()) {
    CAPTURE(name);
    const clfdtd::SimulationModel m = clfdtd::SimulationModel::build(clfdtd::bench_problem(name, 24, 5));
    CHECK(m.two_d());
    CHECK(m.grid.cells() == 24 * 24);
    CHECK(m.upml.cells == (name.find("_pec") == std::string::npos ? 24u * 24 - 4 * 4 : 0u));
  }
  CHECK_THROWS_AS(clfdtd::bench_problem("plane_xy", 40, 10), clfdtd::ConfigError);
  CHECK_THROWS_AS(clfdtd::bench_problem("plane_tm+probes", 40, 10), clfdtd::ConfigError);
}

TEST_CASE("bench roofline: bytes per cell of the 2D kernels") {
  using clfdtd::Equation;
  using clfdtd::PlaneMode;
  // PEC walls: the plain kernels alone.
  CHECK(clfdtd::bytes_per_cell_update(plane_model(PlaneMode::Tm, Equation::Maxwell, 30, 0)).mean ==
        doctest::Approx(37));
  CHECK(clfdtd::bytes_per_cell_update(plane_model(PlaneMode::Te, Equation::Maxwell, 30, 0)).mean ==
        doctest::Approx(38));
  CHECK(clfdtd::bytes_per_cell_update(plane_model(PlaneMode::Tm, Equation::Wave, 30, 0)).mean ==
        doctest::Approx(13));
  // 30 x 30 with 10 layers: 800 UPML cells (+24 B of auxiliaries), 100 plain.
  const auto tm = plane_model(PlaneMode::Tm, Equation::Maxwell, 30, 10);
  CHECK(clfdtd::bytes_per_cell_update(tm).pml == doctest::Approx(61));
  CHECK(clfdtd::bytes_per_cell_update(tm).mean == doctest::Approx((37 * 100 + 61 * 800) / 900.0));
  // The wave solver: its frame is the UPML plus one ring (10 x 10 less 8 x 8 = 36 cells) on Yee tm.
  const auto wave = plane_model(PlaneMode::Tm, Equation::Wave, 30, 10);
  CHECK(clfdtd::plane_frame_ring_cells(wave) == 36);
  std::size_t frame = 0;  // the model's own frame rule counts the same ring
  for (int i = 0; i < 30; ++i)
    for (int j = 0; j < 30; ++j) frame += wave.upml.in_wave_frame(i, j, wave.grid.n) ? 1 : 0;
  CHECK(frame == 800 + 36);
  CHECK(clfdtd::bytes_per_cell_update(wave).mean ==
        doctest::Approx((13 * 64 + 37 * 36 + 61 * 800) / 900.0));
  // Storage per plain cell: seed 001's third less memory than Yee tm.
  CHECK(clfdtd::storage_bytes_per_cell(wave) == 9);
  CHECK(clfdtd::storage_bytes_per_cell(tm) == 13);
  CHECK(clfdtd::storage_bytes_per_cell(plane_model(PlaneMode::Te, Equation::Maxwell, 30, 0)) == 14);
}

TEST_CASE("bench 2D options: onepass, 3D problems past 2048 and planes past 65536 refused") {
  const auto onepass = run_clfdtd("bench --problem=plane_tm --variant=onepass");
  CHECK(onepass.code == 2);
  CHECK(onepass.out.find("bench --variant") != std::string::npos);
  const auto big_cube = run_clfdtd("bench --problem=pec_cube,plane_tm --n=16000");
  CHECK(big_cube.code == 2);
  CHECK(big_cube.out.find("for the 3D problems") != std::string::npos);
  CHECK(run_clfdtd("bench --problem=plane_tm --n=70000").code == 2);
  CHECK(run_clfdtd("bench --problem=plane_tx").code == 2);
  const auto help = run_clfdtd("bench --help");
  CHECK(help.out.find("plane_wave_pec") != std::string::npos);
}

namespace {
bool no_opencl_device(const Ran& r) { return r.out.find("no OpenCL device") != std::string::npos; }

// The JSON rows of `clfdtd bench <args> --json=...` (REQUIREs exit 0).
nlohmann::json bench_rows(const std::string& name, const std::string& args, bool* skipped) {
  const std::string dir = scratch_dir(name);
  std::filesystem::create_directories(dir);
  const auto r = run_clfdtd("bench --n=24 --repeats=1 --steps=2 " + args + " --json=" + dir + "/b.json");
  *skipped = no_opencl_device(r);
  if (*skipped) return nlohmann::json::array();
  REQUIRE_MESSAGE(r.code == 0, r.out);
  return nlohmann::json::parse(read_text(dir + "/b.json"));
}

// 24 x 24 with 10 layers: 560 UPML cells, 16 plain; the wave frame's ring is 16 - 2 x 2 = 12.
constexpr double kTm24 = (37 * 16 + 61 * 560) / 576.0;
constexpr double kTe24 = (38 * 16 + 62 * 560) / 576.0;
constexpr double kWave24 = (13 * 4 + 37 * 12 + 61 * 560) / 576.0;
}  // namespace

TEST_CASE("bench 2D rows on the reference engine: sizes, bytes per cell, memory") {
  bool skipped = false;
  const auto rows = bench_rows("bench_plane_ref",
                               "--backend=reference --variant=auto "
                               "--problem=plane_tm,plane_te,plane_wave,plane_tm_pec,plane_wave_pec",
                               &skipped);
  REQUIRE(rows.size() == 5);
  for (const auto& row : rows) {
    CAPTURE(row.dump());
    CHECK(row["cells"] == 24 * 24);
    CHECK(row["gcells_per_s"].get<double>() > 0);
    CHECK(row["device_bytes"].get<double>() > 0);
  }
  CHECK(rows[0]["pml_cells"] == 560);
  CHECK(rows[0]["bytes_per_cell"].get<double>() == doctest::Approx(kTm24));
  CHECK(rows[1]["bytes_per_cell"].get<double>() == doctest::Approx(kTe24));
  CHECK(rows[2]["bytes_per_cell"].get<double>() == doctest::Approx(kWave24));
  CHECK(rows[3]["bytes_per_cell"].get<double>() == doctest::Approx(37));
  CHECK(rows[4]["bytes_per_cell"].get<double>() == doctest::Approx(13));
  CHECK(rows[0]["storage_bytes_per_cell"] == 13);
  CHECK(rows[1]["storage_bytes_per_cell"] == 14);
  CHECK(rows[4]["storage_bytes_per_cell"] == 9);
  // Between PEC walls the wave solver allocates less than Yee tm on the same grid.
  CHECK(rows[4]["device_bytes"].get<double>() < rows[3]["device_bytes"].get<double>());
}

TEST_CASE("bench 2D rows on the OpenCL plane engine: tile and rows, roofline against the copy rate") {
  bool skipped = false;
  const auto rows = bench_rows("bench_plane_gpu", "--problem=plane_tm,plane_te_pec --variant=tile,rows",
                               &skipped);
  if (skipped) return;
  REQUIRE(rows.size() == 4);
  for (const auto& row : rows) {
    CAPTURE(row.dump());
    CHECK(row["variant"].get<std::string>().rfind("plane-", 0) == 0);
    CHECK(row["gcells_per_s"].get<double>() > 0);
    CHECK(row["roofline_ratio"].get<double>() > 0);
  }
  CHECK(rows[0]["variant"].get<std::string>().rfind("plane-tile", 0) == 0);
  CHECK(rows[1]["variant"].get<std::string>().rfind("plane-rows", 0) == 0);
  CHECK(rows[0]["bytes_per_cell"].get<double>() == doctest::Approx(kTm24));
  CHECK(rows[2]["bytes_per_cell"].get<double>() == doctest::Approx(38));
}

TEST_CASE("bench 2D rows on the OpenCL wave engine: tile and rows, a third less memory than Yee tm") {
  bool skipped = false;
  const auto rows = bench_rows("bench_wave_gpu", "--problem=plane_wave,plane_wave_pec --variant=tile,rows",
                               &skipped);
  if (skipped) return;
  REQUIRE(rows.size() == 4);
  for (const auto& row : rows) {
    CAPTURE(row.dump());
    CHECK(row["variant"].get<std::string>().rfind("wave-", 0) == 0);
    CHECK(row["gcells_per_s"].get<double>() > 0);
    CHECK(row["roofline_ratio"].get<double>() > 0);
    CHECK(row["storage_bytes_per_cell"] == 9);
  }
  CHECK(rows[0]["bytes_per_cell"].get<double>() == doctest::Approx(kWave24));
  CHECK(rows[2]["bytes_per_cell"].get<double>() == doctest::Approx(13));
}
