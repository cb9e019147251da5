// probes.csv, fields.pvd and run.json (the .vti files: test_vti.cpp; the folder: test_output_dir.cpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "output/probe_csv.hpp"
#include "output/pvd_writer.hpp"
#include "output/run_report.hpp"

namespace fs = std::filesystem;
using namespace clfdtd;

namespace {

// A fresh scratch folder per test case, unique to this process.
fs::path scratch(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() /
                     ("clfdtd_test_output_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Two probes: "a" records Ez and Hx for steps 0..10, "b" records Ex for steps 2..3.
ProbeSet two_probes() {
  ProbeSet ps;
  ps.probes = {{"a", 0, 10, {}, 0}, {"b", 2, 3, {}, 2}};
  ProbeSample s;
  s.probe = 0; s.component = Component::Ez; s.position_m = {0.1, 0.2, 0.35};
  ps.samples.push_back(s);
  s.component = Component::Hx; s.position_m = {0.1, 0.25, 0.35};
  ps.samples.push_back(s);
  s.probe = 1; s.component = Component::Ex; s.position_m = {0.05, 0.0, 0.1};
  ps.samples.push_back(s);
  ps.first_step = 0;
  ps.last_step = 10;
  return ps;
}

}  // namespace

TEST_CASE("ProbeCsvWriter: header, rows and empty cells outside a probe's window") {
  const fs::path root = scratch("csv");
  const std::string path = (root / "probes.csv").string();
  const ProbeSet ps = two_probes();
  {
    ProbeCsvWriter w(path, ps, 0.5e-9);
    CHECK(slurp(path) == "step,time_s,a.Ez_V_per_m,a.Hx_A_per_m,b.Ex_V_per_m\n");  // written and flushed at once
    // Steps 1..3: values[slot*3 + sample].
    const std::vector<double> v{1.5, -2.0, 9.0, 0.125, 1e-7, 3.0, 1.0 / 3.0, 0.0, -4.25};
    w.write_rows(1, 3, v);
    // Flushed after each call: readable while the writer is still open.
    CHECK(slurp(path) ==
          "step,time_s,a.Ez_V_per_m,a.Hx_A_per_m,b.Ex_V_per_m\n"
          "1,5e-10,1.5,-2,\n"
          "2,1e-09,0.125,1e-07,3\n"
          "3,1.5e-09,0.333333333,0,-4.25\n");
    w.write_rows(11, 1, {7, 8, 9});  // past every window: only step and time
    CHECK_THROWS_AS(w.write_rows(12, 2, {1, 2, 3}), std::invalid_argument);
  }
  const std::string all = slurp(path);
  const std::string last = "11,5.5e-09,,,\n";
  CHECK(all.substr(all.size() - last.size()) == last);
  fs::remove_all(root);
}

TEST_CASE("ProbeCsvWriter: names needing CSV quoting, and an unwritable path") {
  ProbeSet ps = two_probes();
  ps.probes[0].name = "x,\"y\"";
  CHECK(probe_column_name(ps, 0) == "\"x,\"\"y\"\".Ez_V_per_m\"");
  CHECK(probe_column_name(ps, 2) == "b.Ex_V_per_m");
  CHECK_THROWS_AS(ProbeCsvWriter("/nonexistent_dir_clfdtd/p.csv", ps, 1e-12), std::runtime_error);
}

TEST_CASE("PvdWriter: a valid collection after construction and after every add") {
  const fs::path root = scratch("pvd");
  const std::string path = (root / "fields.pvd").string();
  PvdWriter pvd(path);
  const std::string empty = slurp(path);
  CHECK(empty.find("<VTKFile type=\"Collection\"") != std::string::npos);
  CHECK(empty.find("<Collection>") != std::string::npos);
  CHECK(empty.find("</VTKFile>") != std::string::npos);
  pvd.add(0.0, "snapshots/fields_000000.vti");
  pvd.add(1.25e-9, "snapshots/fields_000100.vti");
  pvd.add(2.5e-9, "a&b.vti");
  CHECK(pvd.size() == 3);
  const std::string x = slurp(path);
  const auto p0 = x.find("timestep=\"0\" group=\"\" part=\"0\" file=\"snapshots/fields_000000.vti\"");
  const auto p1 = x.find("timestep=\"1.25e-09\" group=\"\" part=\"0\" file=\"snapshots/fields_000100.vti\"");
  const auto p2 = x.find("file=\"a&amp;b.vti\"");
  CHECK(p0 != std::string::npos);
  CHECK(p1 != std::string::npos);
  CHECK(p2 != std::string::npos);
  CHECK(p0 < p1);
  CHECK(p1 < p2);
  CHECK(x.rfind("</Collection>\n</VTKFile>\n") == x.size() - 25);
  CHECK_FALSE(fs::exists(path + ".part"));  // the temporary was renamed into place
  fs::remove_all(root);
}

TEST_CASE("run.json: written with units in key names and parses back") {
  const fs::path root = scratch("json");
  const std::string path = (root / "run.json").string();
  SimulationModel m;
  m.grid.n = {10, 20, 30};
  m.grid.d = {1e-3, 2e-3, 3e-3};
  m.grid.dt = 1.5e-12;
  m.grid.steps = 400;
  m.probes = two_probes();
  RunReport r = report_from_model(m);
  CHECK(r.probes.size() == 3);
  r.status = "non-finite at step 17";
  r.backend = "reference";
  r.device = "host CPU";
  r.kernel_variant = "double loops";
  r.model_file = "models/dipole.toml";
  r.steps_done = 17;
  r.loop_seconds = 0.5;
  r.mcells_per_s = mcells_per_second(r.n, r.steps_done, r.loop_seconds);
  CHECK(r.mcells_per_s == doctest::Approx(6000.0 * 17 / 0.5 / 1e6));
  CHECK(mcells_per_second(r.n, 5, 0.0) == 0.0);
  r.device_bytes = 123456789012ull;
  write_run_json(path, r);

  const auto j = nlohmann::json::parse(slurp(path));
  CHECK(j.at("program") == "clfdtd");  // the marker by which clfdtd recognises its outputs
  CHECK(j.at("version") == CLFDTD_VERSION);
  CHECK(j.at("status") == "non-finite at step 17");
  CHECK(j.at("backend") == "reference");
  CHECK(j.at("device") == "host CPU");
  CHECK(j.at("kernel_variant") == "double loops");
  CHECK(j.at("model_file") == "models/dipole.toml");
  CHECK(j.at("cells") == nlohmann::json({10, 20, 30}));
  CHECK(j.at("cells_total") == 6000);
  CHECK(j.at("cell_size_m")[2].get<double>() == 3e-3);
  CHECK(j.at("dt_s").get<double>() == 1.5e-12);
  CHECK(j.at("steps_planned") == 400);
  CHECK(j.at("steps_done") == 17);
  CHECK(j.at("loop_time_s").get<double>() == 0.5);
  CHECK(j.at("mcells_per_s").get<double>() == doctest::Approx(0.204));
  CHECK(j.at("device_bytes").get<unsigned long long>() == 123456789012ull);
  REQUIRE(j.at("probes").size() == 3);
  CHECK(j["probes"][1]["name"] == "a");
  CHECK(j["probes"][1]["field"] == "Hx");
  CHECK(j["probes"][1]["position_m"][1].get<double>() == 0.25);
  CHECK(j["probes"][2]["field"] == "Ex");
  CHECK(slurp(path).find("\n  \"") != std::string::npos);  // pretty printed
  CHECK_THROWS_AS(write_run_json((root / "missing" / "run.json").string(), r), OutputError);
  fs::remove_all(root);
}
