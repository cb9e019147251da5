// run.json of a cylindrical model: "coordinates": "cylindrical", the modes, the probes'
// cylindrical field names and angles; a Cartesian model says "coordinates": "cartesian".
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
