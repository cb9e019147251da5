// run.json of a cylindrical model: "coordinates": "cylindrical", the modes, the probes'
// cylindrical field names and angles, the rate in cell-mode updates, the devices with their
// modes; a Cartesian model says "coordinates": "cartesian" and counts cells.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/simulation_model.hpp"
#include "output/run_report.hpp"

namespace fs = std::filesystem;
using namespace clfdtd;

TEST_CASE("run.json: coordinates always, modes and probe angles for a cylindrical model") {
  RunConfig cfg;
  cfg.grid.coordinates = Coordinates::Cylindrical;
  cfg.grid.modes = {0, 3};
  cfg.grid.size_m = Vec3{0.1, 1.0, 0.2};
  cfg.grid.cell_size_m = Vec3{0.01, 1.0, 0.01};
  cfg.time.steps = 5;
  cfg.boundary.type = BoundaryType::Pec;
  cfg.boundary.layers.fill(0);
  ProbeConfig p;
  p.name = "p";
  p.position = Vec3{0.05, 30, 0.1};  // r, phi (degrees), z
  p.fields = {Component::Ey, Component::Hz};
  cfg.probes.push_back(p);
  const SimulationModel m = SimulationModel::build(cfg);

  const fs::path dir =
      fs::temp_directory_path() / ("clfdtd_test_run_json_cyl_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_run_json((dir / "cyl.json").string(), report_from_model(m));
  write_run_json((dir / "cube.json").string(), RunReport{});
  std::ifstream a(dir / "cyl.json"), b(dir / "cube.json");
  const auto cyl = nlohmann::json::parse(a), cube = nlohmann::json::parse(b);
  fs::remove_all(dir);

  CHECK(cyl["coordinates"] == "cylindrical");
  CHECK(cyl["modes"] == nlohmann::json::array({0, 3}));
  CHECK(cyl["dims"] == 3);
  CHECK(cyl["cells"] == nlohmann::json::array({10, 1, 20}));
  REQUIRE(cyl["probes"].size() == 2);
  CHECK(cyl["probes"][0]["field"] == "Ephi");
  CHECK(cyl["probes"][1]["field"] == "Hz");
  CHECK(cyl["probes"][0]["phi_deg"].get<double>() == doctest::Approx(30));
  CHECK(cyl["probes"][0]["position_m"][0].get<double>() == doctest::Approx(0.05));
  CHECK(cyl["probes"][0]["position_m"][1].get<double>() == 0);
  CHECK(cube["coordinates"] == "cartesian");
  CHECK_FALSE(cube.contains("modes"));
}

TEST_CASE("run.json: a cylindrical rate counts cell-mode updates; the devices with their modes") {
  SimulationModel m;
  m.grid.n = {40, 1, 60};
  m.grid.d = {1e-3, 1.0, 1e-3};
  m.grid.cylindrical = true;
  m.grid.modes = {0, 1, 2};
  CHECK(cell_updates_per_step(m) == 40 * 60 * 3);
  RunReport r = report_from_model(m);
  CHECK(r.cell_updates_per_step == 7200);
  r.devices = {{"gpu A", {0, 1}}, {"gpu B", {2}}};
  r.steps_done = 100;
  r.loop_seconds = 0.5;
  r.mcells_per_s = mcells_per_second(static_cast<double>(r.cell_updates_per_step), r.steps_done,
                                     r.loop_seconds);
  CHECK(r.mcells_per_s == doctest::Approx(7200.0 * 100 / 0.5 / 1e6));
  SimulationModel cube;
  cube.grid.n = {10, 20, 30};
  CHECK(cell_updates_per_step(cube) == 6000);
  RunReport c = report_from_model(cube);
  c.devices = {{"host CPU", {}}};

  const fs::path dir =
      fs::temp_directory_path() / ("clfdtd_test_run_json_rate_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_run_json((dir / "cyl.json").string(), r);
  write_run_json((dir / "cube.json").string(), c);
  std::ifstream a(dir / "cyl.json"), b(dir / "cube.json");
  const auto cyl = nlohmann::json::parse(a), cj = nlohmann::json::parse(b);
  fs::remove_all(dir);

  CHECK(cyl["cell_updates_per_step"] == 7200);
  CHECK(cyl["mcells_per_s"].get<double>() == doctest::Approx(1.44));
  REQUIRE(cyl["devices"].size() == 2);
  CHECK(cyl["devices"][0]["device"] == "gpu A");
  CHECK(cyl["devices"][0]["modes"] == nlohmann::json::array({0, 1}));
  CHECK(cyl["devices"][1]["modes"] == nlohmann::json::array({2}));
  CHECK(cj["cell_updates_per_step"] == 6000);
  REQUIRE(cj["devices"].size() == 1);
  CHECK(cj["devices"][0]["device"] == "host CPU");
  CHECK_FALSE(cj["devices"][0].contains("modes"));
}
