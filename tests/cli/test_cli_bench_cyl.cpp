// The cylindrical side of `clfdtd bench` (issue 20): the problems cyl_cpml and cyl_pec, their rows
// (cell-mode counts, roofline bytes per cell-mode) on the reference engine and the OpenCL engine
// (PoCL here) at n = 24. Nothing is timed against a bound (timed assertions do not belong in tests).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_problems.hpp"
#include "bench/cyl_problems.hpp"
#include "bench/roofline.hpp"
#include "cli_helpers.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd_test;

namespace {

bool no_opencl_device(const Ran& r) { return r.out.find("no OpenCL device") != std::string::npos; }

// 24 x 24 (r, z), 10 layers on r = R and both z ends: the r slab 10 x 24 = 240 cells (403 B), the
// z slabs of the other 14 rows 14 x 20 = 280 cells (275 B), 14 x 4 = 56 plain cells (147 B).
constexpr double kCpml24 = (147.0 * 56 + 275.0 * 280 + 403.0 * 240) / 576.0;

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) out.emplace_back();
    else out.back() += ch;
  }
  return out;
}

}  // namespace

TEST_CASE("bench cylindrical problems: n x n (r, z), modes 0 1 2, CPML or PEC, an off-axis source") {
  const clfdtd::RunConfig cpml = clfdtd::bench_problem("cyl_cpml", 40, 10);
  CHECK(cpml.grid.coordinates == clfdtd::Coordinates::Cylindrical);
  CHECK(cpml.grid.modes == std::vector<int>{0, 1, 2});
  CHECK(cpml.boundary.type == clfdtd::BoundaryType::Upml);
  CHECK(cpml.boundary.layers == std::array<int, 6>{0, 10, 0, 0, 10, 10});
  REQUIRE(cpml.sources.size() == 1);
  CHECK(cpml.sources[0].position.x > 0);  // off the axis: every mode is driven
  const clfdtd::RunConfig pec = clfdtd::bench_problem("cyl_pec", 40, 10);
  CHECK(pec.boundary.type == clfdtd::BoundaryType::Pec);
  for (const auto& name : clfdtd::cyl_problem_names()) {
    const clfdtd::SimulationModel m = clfdtd::SimulationModel::build(clfdtd::bench_problem(name, 24, 10));
    CHECK(m.cylindrical());
    CHECK(m.grid.n == std::array<int, 3>{24, 1, 24});
  }
  const clfdtd::SimulationModel m =
      clfdtd::SimulationModel::build(clfdtd::bench_problem("cyl_cpml", 24, 10));
  CHECK(clfdtd::cyl_pml_cells_of(m) == 520u);
  CHECK(clfdtd::cyl_pml_cells_of(m, true) == 240u);
  const auto b = clfdtd::bytes_per_cell_update(m);
  CHECK(b.plain == doctest::Approx(147));
  CHECK(b.pml == doctest::Approx(403));
  CHECK(b.mean == doctest::Approx(kCpml24));
  CHECK(clfdtd::storage_bytes_per_cell(m) == doctest::Approx(51));
  CHECK_THROWS_AS(clfdtd::bench_problem("cyl_open", 40, 10), clfdtd::ConfigError);
}

TEST_CASE("bench cyl_cpml and cyl_pec rows: cell-modes, bytes per cell-mode, CSV and JSON") {
  const std::string dir = scratch_dir("bench_cyl");
  std::filesystem::create_directories(dir);
  for (const std::string backend : {"reference", "opencl"}) {
    CAPTURE(backend);
    const std::string csv = dir + "/" + backend + ".csv", json = dir + "/" + backend + ".json";
    const auto r = run_clfdtd("bench --n=24 --repeats=1 --steps=2 --backend=" + backend +
                              " --variant=auto --problem=cyl_cpml,cyl_pec --csv=" + csv +
                              " --json=" + json);
    if (backend == "opencl" && no_opencl_device(r)) continue;
    REQUIRE_MESSAGE(r.code == 0, r.out);
    CHECK(r.out.find("cyl_cpml") != std::string::npos);
    const auto rows = nlohmann::json::parse(read_text(json));
    REQUIRE(rows.size() == 2);
    for (const auto& row : rows) {
      CAPTURE(row.dump());
      CHECK(row["cells"] == 24 * 24 * 3);  // cells (r, z) x modes
      CHECK(row["gcells_per_s"].get<double>() > 0);
      CHECK(row["device_bytes"].get<double>() > 0);
      if (backend == "opencl") {
        CHECK(row["variant"].get<std::string>().rfind("cyl-", 0) == 0);
        CHECK(row["roofline_ratio"].get<double>() > 0);
      }
    }
    CHECK(rows[0]["problem"] == "cyl_cpml");
    CHECK(rows[0]["pml_cells"] == 520 * 3);
    CHECK(rows[0]["bytes_per_cell"].get<double>() == doctest::Approx(kCpml24));
    CHECK(rows[1]["pml_cells"] == 0);
    CHECK(rows[1]["bytes_per_cell"].get<double>() == doctest::Approx(147));
    // The CSV keeps the columns of the other problems: the header's count in every row.
    std::istringstream lines(read_text(csv));
    std::string header, line;
    std::getline(lines, header);
    const std::size_t columns = csv_fields(header).size();
    int n = 0;
    while (std::getline(lines, line)) {
      CHECK(csv_fields(line).size() == columns);
      CHECK(csv_fields(line)[4].rfind("cyl_", 0) == 0);
      ++n;
    }
    CHECK(n == 2);
  }
}

TEST_CASE("bench cylindrical options: onepass and unknown problems refused, help lists them") {
  const auto onepass = run_clfdtd("bench --problem=cyl_cpml --variant=onepass");
  CHECK(onepass.code == 2);
  CHECK(onepass.out.find("bench --variant") != std::string::npos);
  CHECK(run_clfdtd("bench --problem=cyl_open").code == 2);
  CHECK(run_clfdtd("bench --help").out.find("cyl_cpml") != std::string::npos);
}

namespace {

// CLFDTD_CACHE_DIR for this scope (ctest sets one for the whole executable: put it back after).
class CacheDir {
public:
  explicit CacheDir(const std::string& dir) {
    const char* before = std::getenv("CLFDTD_CACHE_DIR");
    had_ = before != nullptr;
    if (had_) saved_ = before;
    ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);
  }
  ~CacheDir() {
    if (had_) {
      ::setenv("CLFDTD_CACHE_DIR", saved_.c_str(), 1);
    } else {
      ::unsetenv("CLFDTD_CACHE_DIR");
    }
  }

private:
  bool had_ = false;
  std::string saved_;
};

}  // namespace

// The rows kernel keeps this fast on PoCL (one program for every shape); the tile kernels take
// the same path through tune_cyl and the engine's lookup (test_cyl_tile_choices.cpp: the engine
// side for cyl-tile-local).
TEST_CASE("bench --tune on a cylindrical problem: a kind cyl entry, taken by a cylindrical run") {
  const std::string dir = scratch_dir("tune_cyl");
  std::filesystem::create_directories(dir);
  const CacheDir cache_dir(dir);
  const auto r = run_clfdtd("bench --tune --problem=cyl_cpml --variant=rows --n=24 --repeats=1 "
                            "--steps=2");
  if (no_opencl_device(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("tuned cylindrical: cyl-rows") != std::string::npos);
  CHECK(r.out.find("tuned: ") == std::string::npos);  // no 3D search for a cylindrical problem
  const auto cache = nlohmann::json::parse(read_text(dir + "/tuning.json"));
  REQUIRE(cache.size() == 1);
  const std::string key = cache.begin().key();
  const std::string suffix = "|2d cyl|cyl-rows";
  REQUIRE(key.size() > suffix.size());
  CHECK(key.substr(key.size() - suffix.size()) == suffix);
  CHECK(cache.begin().value()["problem"] == "cyl_cpml");

  auto variant_of = [&](const std::string& name, const std::string& extra) {
    const auto run = run_clfdtd("run models/cyl_cavity.ini --time.steps=5 --quiet --output.dir=" +
                                dir + "/" + name + " " + extra);
    REQUIRE_MESSAGE(run.code == 0, run.out);
    return nlohmann::json::parse(read_text(dir + "/" + name + "/run.json"))["kernel_variant"]
        .get<std::string>();
  };
  const std::string tuned = variant_of("rows", "--variant=rows");
  CHECK_MESSAGE(tuned.rfind("cyl-rows ", 0) == 0, tuned);
  CHECK_MESSAGE(tuned.find("(tuned)") != std::string::npos, tuned);
  // Another kernel's entry is not this one's; a given work-group skips the cache.
  CHECK(variant_of("tile", "--variant=tile").find("(tuned)") == std::string::npos);
  CHECK(variant_of("rows_wg", "--variant=rows --workgroup=1,8,1").find("(tuned)") ==
        std::string::npos);
}
