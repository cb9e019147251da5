// End-to-end: `clfdtd bench` writes its table, CSV and JSON; --tune stores a winner that a later
// `clfdtd run` with device.variant = auto picks up. Sizes are tiny: this checks the plumbing, not
// speed (timed assertions do not belong in tests). The CSV row writer is also checked directly.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "backends/tuning_cache.hpp"
#include "bench/bench_problems.hpp"
#include "bench/bench_runner.hpp"
#include "bench/roofline.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"
#include "cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

namespace {
bool no_opencl(const Ran& r) { return r.out.find("no OpenCL device") != std::string::npos; }

// The fields of one RFC 4180 record (quoted fields may hold commas, doubled quotes, line breaks).
std::vector<std::string> csv_fields(const std::string& record) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < record.size(); ++i) {
    const char ch = record[i];
    if (quoted && ch == '"' && i + 1 < record.size() && record[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  return fields;
}
}  // namespace

TEST_CASE("bench CSV rows quote every text field, so each row keeps the header's columns") {
  clfdtd::BenchRow r;
  r.device = "GPU \"A\", rev 2 (Platform, OpenCL 3.0)";
  r.driver = "1.2, beta";
  r.backend = "opencl";
  r.variant = "float4-tile 2x4x16";
  r.problem = "pec_cube";
  r.timer = "device";
  r.commit = "abc1234, \"dirty\"";
  const auto header = csv_fields(clfdtd::bench_csv_header());
  const auto row = csv_fields(clfdtd::bench_csv_row(r));
  REQUIRE(row.size() == header.size());
  CHECK(row.front() == r.device);
  CHECK(row[1] == r.driver);
  CHECK(row.back() == r.commit);
}

TEST_CASE("bench: a CLFDTD_COMMIT with line breaks and commas stays one CSV field on one line") {
  const std::string dir = scratch_dir("bench_commit");
  fs::create_directories(dir);
  ::setenv("CLFDTD_COMMIT", "  abc1234, dirty \nsecond line, more\n", 1);
  const auto r = run_clfdtd("bench --n=24 --repeats=1 --steps=2 --problem=pec_cube --variant=rows "
                            "--csv=" + dir + "/b.csv --json=" + dir + "/b.json");
  ::unsetenv("CLFDTD_COMMIT");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const std::string csv = read_text(dir + "/b.csv");
  REQUIRE(std::count(csv.begin(), csv.end(), '\n') == 2);  // header and one row
  const std::string row = csv.substr(csv.find('\n') + 1, csv.size() - csv.find('\n') - 2);
  const auto fields = csv_fields(row);
  REQUIRE(fields.size() == csv_fields(clfdtd::bench_csv_header()).size());
  CHECK(fields.back() == "abc1234, dirty");  // the first line, trimmed
  CHECK(nlohmann::json::parse(read_text(dir + "/b.json"))[0]["commit"] == "abc1234, dirty");
}

TEST_CASE("bench: table, CSV and JSON rows per problem and variant") {
  const std::string dir = scratch_dir("bench");
  fs::create_directories(dir);
  const auto r = run_clfdtd("bench --n=24 --repeats=2 --steps=3 --problem=vacuum_upml,pec_cube "
                            "--variant=tile,onepass,rows --outputs --monitors --csv=" + dir + "/b.csv --json=" +
                            dir + "/b.json");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("Gcells/s") != std::string::npos);
  const std::string csv = read_text(dir + "/b.csv");
  CHECK(csv.rfind("device,driver,backend,variant,problem,n,", 0) == 0);
  const auto rows = nlohmann::json::parse(read_text(dir + "/b.json"));
  // problems x variants, plus +loop, +probes, +snapshot and +flux
  REQUIRE(rows.size() == 2 * 3 + 4);
  CHECK(rows[6]["problem"] == "vacuum_upml+loop");
  CHECK(rows[9]["problem"] == "vacuum_upml+flux");
  for (const auto& row : rows) {
    CAPTURE(row.dump());
    CHECK(row["gcells_per_s"].get<double>() > 0);
    CHECK(row["copy_gbs"].get<double>() > 0);
    CHECK(row["roofline_ratio"].get<double>() > 0);
    CHECK(row["n"] == 24);
  }
  // 24^3 with 10 layers: 24^3 - 4^3 PML cells; the model's bytes per cell lie between the plain
  // 75 B and the PML 123 B.
  CHECK(rows[0]["pml_cells"] == 24 * 24 * 24 - 4 * 4 * 4);
  CHECK(rows[0]["bytes_per_cell"].get<double>() > 75);
  CHECK(rows[0]["bytes_per_cell"].get<double>() < 123);
  CHECK(rows[3]["bytes_per_cell"].get<double>() == doctest::Approx(75));  // pec_cube
  // A second run appends rows under the one header.
  REQUIRE(run_clfdtd("bench --n=24 --repeats=1 --steps=2 --problem=pec_cube --variant=rows --csv=" +
                     dir + "/b.csv").code == 0);
  const std::string csv2 = read_text(dir + "/b.csv");
  CHECK(csv2.find("device,driver", 1) == std::string::npos);
  CHECK(std::count(csv2.begin(), csv2.end(), '\n') == 1 + 10 + 1);
}

TEST_CASE("bench: the +flux box samples at the decimation of a whole run, even over 98 steps") {
  // The pulse at c / (20 d), 10 monitor frequencies up to twice that, courant 0.9: D = 5 (the
  // sources reach 2.93 times the pulse frequency; 1 / (2.5 f_top dt) = 5.25). A 98-step run
  // stops while the pulse is on, which alone would give D = 1.
  for (int n : {32, 512}) {
    const clfdtd::RunConfig cfg = clfdtd::bench_problem("vacuum_upml+flux", n, 98);
    REQUIRE(cfg.monitors.size() == 1);
    CHECK(cfg.monitors[0].decimation == 5);
  }
  clfdtd::RunConfig automatic = clfdtd::bench_problem("vacuum_upml+flux", 32, 98);
  automatic.monitors[0].decimation = 0;
  CHECK(clfdtd::SimulationModel::build(automatic).monitors[0].dft_every == 1);
}

TEST_CASE("bench: the onepass variant counts its own bytes per cell") {
  const std::string dir = scratch_dir("bench_onepass");
  fs::create_directories(dir);
  const auto r = run_clfdtd("bench --n=24 --repeats=1 --steps=3 --problem=pec_cube,vacuum_upml "
                            "--variant=onepass --json=" + dir + "/b.json");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto rows = nlohmann::json::parse(read_text(dir + "/b.json"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["variant"].get<std::string>().rfind("onepass ", 0) == 0);
  // E and H read once and written once (48 B), the E ids per float4 (0.25 B) and, in the float4s
  // whose twelve E ids differ (the PEC walls'), the three per cell; PML cells add 16 B (face) or
  // 48 B (edge, corner) of auxiliaries.
  const double mixed = clfdtd::mixed_e_id_share(
      clfdtd::SimulationModel::build(clfdtd::bench_problem("pec_cube", 24, 3)));
  CHECK(mixed > 0.1);  // every row's first float4, and the walls' rows
  CHECK(mixed < 0.5);
  CHECK(rows[0]["bytes_per_cell"].get<double>() == doctest::Approx(48.25 + 3 * mixed));
  CHECK(rows[1]["bytes_per_cell"].get<double>() > 48.25 + 3 * mixed);
  CHECK(rows[1]["bytes_per_cell"].get<double>() < 99);
}

TEST_CASE("bench: ferrite is the sphere magnetic; onepass counts its H ids per float4") {
  const clfdtd::SimulationModel ferrite =
      clfdtd::SimulationModel::build(clfdtd::bench_problem("ferrite", 64, 3));
  const clfdtd::SimulationModel sphere =
      clfdtd::SimulationModel::build(clfdtd::bench_problem("sphere", 64, 3));
  REQUIRE(ferrite.magnetic);
  REQUIRE_FALSE(sphere.magnetic);
  CHECK(clfdtd::mixed_h_id_share(sphere) == 0);
  const double mixed_h = clfdtd::mixed_h_id_share(ferrite);
  CHECK(mixed_h > 0);  // the ball's surface
  CHECK(mixed_h < 0.5);
  CHECK(clfdtd::mixed_e_id_share(ferrite) == clfdtd::mixed_e_id_share(sphere));
  const std::string dir = scratch_dir("bench_ferrite");
  fs::create_directories(dir);
  const auto r = run_clfdtd("bench --n=64 --repeats=1 --steps=3 --problem=sphere,ferrite "
                            "--variant=onepass --json=" + dir + "/b.json");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto rows = nlohmann::json::parse(read_text(dir + "/b.json"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[1]["problem"] == "ferrite");
  // The H ids per float4 (0.25 B) and the three per cell where the H ids differ, on every cell.
  CHECK(rows[1]["bytes_per_cell"].get<double>() - rows[0]["bytes_per_cell"].get<double>() ==
        doctest::Approx(0.25 + 3 * mixed_h));
}

TEST_CASE("bench: tblock counts a pass's bytes over its two steps, with UPML too") {
  const std::string dir = scratch_dir("bench_tblock");
  fs::create_directories(dir);
  // N = 48: vacuum_upml's 10 layers leave an owned box of 24 x 24 x 16 cells past them.
  const auto r = run_clfdtd("bench --n=48 --repeats=1 --steps=4 --problem=pec_cube,vacuum_upml "
                            "--variant=tblock --json=" + dir + "/b.json");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto rows = nlohmann::json::parse(read_text(dir + "/b.json"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["variant"].get<std::string>().rfind("tblock ", 0) == 0);
  // onepass's count (above) over the pair's two steps.
  const double mixed = clfdtd::mixed_e_id_share(
      clfdtd::SimulationModel::build(clfdtd::bench_problem("pec_cube", 48, 4)));
  CHECK(rows[0]["bytes_per_cell"].get<double>() == doctest::Approx((48.25 + 3 * mixed) / 2));
  const std::string upml = rows[1]["variant"].get<std::string>();
  CHECK(upml.rfind("tblock ", 0) == 0);
  CHECK(upml.find("onepass steps") == std::string::npos);
  CHECK(rows[1]["bytes_per_cell"].get<double>() > (48.25 + 3 * mixed) / 2);  // the auxiliaries
  // N = 24: no owned box past the layers, so it steps as onepass and says so.
  const auto small = run_clfdtd("bench --n=24 --repeats=1 --steps=4 --problem=vacuum_upml "
                                "--variant=tblock --json=" + dir + "/s.json");
  REQUIRE_MESSAGE(small.code == 0, small.out);
  const auto srows = nlohmann::json::parse(read_text(dir + "/s.json"));
  REQUIRE(srows.size() == 1);
  CHECK(srows[0]["variant"].get<std::string>().find("(onepass steps: grid too small)") !=
        std::string::npos);
  CHECK(srows[0]["bytes_per_cell"].get<double>() > 51);  // onepass's count
}

TEST_CASE("bench: vacuum_upml@L, sphere@L and ferrite@L take L layers; other suffixes are refused") {
  for (const auto& [name, layers] :
       std::vector<std::pair<std::string, int>>{{"vacuum_upml", 10}, {"vacuum_upml@4", 4},
                                                {"sphere@20", 20}, {"vacuum_upml@3+probes", 3}}) {
    const clfdtd::RunConfig cfg = clfdtd::bench_problem(name, 64, 1);
    CHECK(cfg.boundary.layers == std::array<int, 6>{layers, layers, layers, layers, layers, layers});
  }
  CHECK(clfdtd::bench_problem("sphere@20", 64, 1).objects.size() == 1);
  CHECK(clfdtd::bench_problem("ferrite@5", 64, 1).boundary.layers[0] == 5);
  for (const char* bad : {"pec_cube@4", "vacuum_upml@", "vacuum_upml@x", "vacuum_upml@0",
                          "vacuum_upml@-2", "vacuum_upml@99999", "ferrite@0"})
    CHECK_THROWS_AS(clfdtd::bench_problem(bad, 64, 1), clfdtd::ConfigError);
  const std::string dir = scratch_dir("bench_layers");
  fs::create_directories(dir);
  const auto r = run_clfdtd("bench --n=24 --repeats=1 --steps=2 --problem=vacuum_upml@4 "
                            "--variant=rows --json=" + dir + "/b.json");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto rows = nlohmann::json::parse(read_text(dir + "/b.json"));
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["problem"] == "vacuum_upml@4");
  CHECK(rows[0]["pml_cells"] == 24 * 24 * 24 - 16 * 16 * 16);
  // The smallest grids: the sphere's and ferrite's source moves out of the 10 layers (it sat at
  // 0.2 n, in the layers below n = 50).
  for (int n : {24, 32, 48}) {
    for (const char* problem : {"sphere", "ferrite"}) {
      const clfdtd::RunConfig small = clfdtd::bench_problem(problem, n, 1);
      const double z_cells = small.sources.at(0).position.z / small.grid.cell_size_m->z;
      CHECK_MESSAGE(z_cells >= 12 - 1e-9, problem << " n = " << n);
    }
  }
  const auto s = run_clfdtd("bench --n=24 --repeats=1 --steps=2 --problem=sphere,ferrite --variant=rows");
  CHECK_MESSAGE(s.code == 0, s.out);
  // Layers the grid cannot hold: the model's own message, exit 2.
  CHECK(run_clfdtd("bench --n=24 --repeats=1 --steps=2 --problem=vacuum_upml@13 --variant=rows").code == 2);
}

TEST_CASE("bench: bad options exit 2") {
  CHECK(run_clfdtd("bench --problem=nonsense").code == 2);
  CHECK(run_clfdtd("bench --problem=pec_cube@4").code == 2);
  CHECK(run_clfdtd("bench --variant=fast").code == 2);
  CHECK(run_clfdtd("bench --frobnicate").code == 2);
  CHECK(run_clfdtd("bench --help").code == 0);
}

TEST_CASE("bench: bad options exit 2 on a machine without an OpenCL device too") {
  // The ICD loader reads its drivers from this empty folder: no platform, as on a machine without
  // OpenCL. Options are checked before the devices are looked for (exit 4 came first before).
  const std::string none = scratch_dir("no_icd_vendors");
  fs::create_directories(none);
  const char* before = std::getenv("OCL_ICD_VENDORS");
  const std::string saved = before ? before : "";
  ::setenv("OCL_ICD_VENDORS", none.c_str(), 1);
  const auto bad = run_clfdtd("bench --problem=nonsense");
  const auto form = run_clfdtd("bench --upml-form=half");
  const auto good = run_clfdtd("bench --n=24 --steps=1 --repeats=1 --problem=pec_cube");
  if (before) ::setenv("OCL_ICD_VENDORS", saved.c_str(), 1);
  else ::unsetenv("OCL_ICD_VENDORS");
  CHECK_MESSAGE(bad.code == 2, bad.out);
  CHECK_MESSAGE(form.code == 2, form.out);
  CHECK_MESSAGE(good.code == 4, good.out);  // a valid command: now the missing device
}

TEST_CASE("bench --tune stores the winners with and without UPML and run uses them") {
  const std::string dir = scratch_dir("tune");
  fs::create_directories(dir);
  ::setenv("CLFDTD_CACHE_DIR", dir.c_str(), 1);
  auto r = run_clfdtd("bench --tune --n=24 --repeats=1 --steps=2 --problem=pec_cube --variant=auto");
  if (no_opencl(r)) {
    ::unsetenv("CLFDTD_CACHE_DIR");
    return;
  }
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("tuned: ") != std::string::npos);
  CHECK(r.out.find("tuned without UPML: ") != std::string::npos);
  CHECK(r.out.find(" tblock ") != std::string::npos);  // measured on pec_cube
  const auto cache = nlohmann::json::parse(read_text(dir + "/tuning.json"));
  REQUIRE(cache.size() == 2);
  const std::string digest = clfdtd::kernel_sources_digest();
  nlohmann::json upml, plain;
  auto ends_with = [](const std::string& text, const std::string& end) {
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
  };
  for (auto it = cache.begin(); it != cache.end(); ++it) {
    if (ends_with(it.key(), "|3d without upml")) plain = it.value();
    if (ends_with(it.key(), "|kernels " + digest)) upml = it.value();
  }
  REQUIRE_MESSAGE(upml.is_object(), cache.dump());
  REQUIRE_MESSAGE(plain.is_object(), cache.dump());
  CHECK(upml["problem"] == "vacuum_upml");
  CHECK(plain["problem"] == "pec_cube");
  CHECK(upml["gcells_per_s"].get<double>() > 0);
  CHECK(plain["gcells_per_s"].get<double>() > 0);
  // tblock competes on both problems (on vacuum_upml at N = 24 it steps as onepass).
  bool tblock_upml = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.find(" tblock ") != std::string::npos && line.find("vacuum_upml") != std::string::npos)
      tblock_upml = true;
  CHECK_MESSAGE(tblock_upml, r.out);
  auto kernel_name = [](const nlohmann::json& entry) {
    const std::string v = entry["variant"];
    return v == "tile" ? std::string("float4-tile") : v;
  };

  // pec_cavity has no UPML: the pec_cube entry.
  r = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --output.dir=" + dir + "/run --quiet");
  CHECK_MESSAGE(r.code == 0, r.out);
  std::string variant = nlohmann::json::parse(read_text(dir + "/run/run.json"))["kernel_variant"];
  CHECK(variant.find("(tuned)") != std::string::npos);
  CHECK_MESSAGE(variant.rfind(kernel_name(plain) + " ", 0) == 0, variant);
  // dipole has UPML: the vacuum_upml entry.
  r = run_clfdtd("run models/dipole.ini --time.steps=5 --output.dir=" + dir + "/dipole --quiet");
  CHECK_MESSAGE(r.code == 0, r.out);
  variant = nlohmann::json::parse(read_text(dir + "/dipole/run.json"))["kernel_variant"];
  CHECK(variant.find("(tuned)") != std::string::npos);
  CHECK_MESSAGE(variant.rfind(kernel_name(upml) + " ", 0) == 0, variant);
  // An explicit variant wins over the cache.
  r = run_clfdtd("run models/pec_cavity.ini --time.steps=5 --variant=rows --output.dir=" + dir +
                 "/run2 --quiet");
  CHECK(nlohmann::json::parse(read_text(dir + "/run2/run.json"))["kernel_variant"].get<std::string>().rfind("rows", 0) == 0);
  ::unsetenv("CLFDTD_CACHE_DIR");
}

TEST_CASE("bench --projection: the device projection agrees with the reference and is timed") {
  const auto r = run_clfdtd("bench --n=24 --repeats=2 --projection=24,5");
  if (no_opencl(r)) return;
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto at = r.out.find("projection: 13824 cells on 5 modes: device ");
  REQUIRE_MESSAGE(at != std::string::npos, r.out);
  const auto vs = r.out.find("device vs reference ", at);
  REQUIRE(vs != std::string::npos);
  CHECK(std::stod(r.out.substr(vs + 20)) < 1e-4);
}

TEST_CASE("bench: a CSV or JSON file that cannot be written is exit 5 naming the path") {
  const std::string dir = scratch_dir("bench_unwritable");
  const std::string missing = dir + "/no/such/folder";
  const auto csv = run_clfdtd("bench --n=24 --repeats=1 --steps=1 --problem=pec_cube --variant=rows "
                              "--csv=" + missing + "/b.csv");
  if (no_opencl(csv)) return;
  CHECK(csv.code == 5);
  CHECK(csv.out.find(missing + "/b.csv") != std::string::npos);
  const auto json = run_clfdtd("bench --n=24 --repeats=1 --steps=1 --problem=pec_cube --variant=rows "
                               "--json=" + missing + "/b.json");
  CHECK(json.code == 5);
  CHECK(json.out.find(missing + "/b.json") != std::string::npos);
}
