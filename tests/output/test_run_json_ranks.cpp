// run.json's "ranks" and "decomposition": one box of the whole grid for a plain run; the parts
// and every rank's box for an MPI run (docs/MPI.md).
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/simulation_model.hpp"
#include "output/run_report.hpp"

namespace fs = std::filesystem;
using namespace clfdtd;

namespace {
nlohmann::json written(const RunReport& r, const std::string& name) {
  const fs::path path = fs::temp_directory_path() /
                        ("clfdtd_test_run_json_ranks_" + std::to_string(::getpid()) + name);
  write_run_json(path.string(), r);
  std::ifstream in(path);
  nlohmann::json j = nlohmann::json::parse(in);
  fs::remove(path);
  return j;
}
}  // namespace

TEST_CASE("run.json: ranks and decomposition") {
  SimulationModel m;
  m.grid.n = {10, 20, 30};
  const nlohmann::json one = written(report_from_model(m), "one.json");
  CHECK(one.at("ranks") == 1);
  CHECK(one.at("decomposition").at("parts") == nlohmann::json({1, 1, 1}));
  CHECK(one.at("decomposition").at("boxes") == nlohmann::json({{0, 0, 0, 10, 20, 30}}));

  RunReport r = report_from_model(m);
  r.ranks = 3;
  r.parts = {1, 1, 3};
  r.boxes = {{0, 0, 0, 10, 20, 10}, {0, 0, 10, 10, 20, 20}, {0, 0, 20, 10, 20, 30}};
  const nlohmann::json three = written(r, "three.json");
  CHECK(three.at("ranks") == 3);
  CHECK(three.at("decomposition").at("parts") == nlohmann::json({1, 1, 3}));
  REQUIRE(three.at("decomposition").at("boxes").size() == 3);
  CHECK(three["decomposition"]["boxes"][1] == nlohmann::json({0, 0, 10, 10, 20, 20}));
}
