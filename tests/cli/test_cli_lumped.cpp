// Lumped elements end to end (docs/PORTS.md "Lumped elements"): models/salisbury_screen.ini runs,
// its header and run.json report the element, one with a pole is reported as an element and not
// as a dispersive material, and a misplaced element is refused (exit 2 naming the key, nothing
// written). The physics: tests/parallel/test_periodic.cpp (sheets of series and parallel R L C
// against their circuits) and tools/validation/periodic_models.py (the screen's reflectance).
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

TEST_CASE("lumped: models/salisbury_screen.ini runs; the header and run.json report its sheet") {
  const std::string dir = scratch_dir("salisbury_screen");
  const auto r = run_clfdtd("run models/salisbury_screen.ini --backend=reference --time.steps=40 --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("lumped     sheet: 376.73 ohm across 8 x 8 Ex samples (8 in series, 8 side by side)") !=
        std::string::npos);
  const auto run = nlohmann::json::parse(read_text(dir + "/run.json"));
  CHECK(run["status"] == "completed");
  REQUIRE(run["lumped"].size() == 1);
  const auto& e = run["lumped"][0];
  CHECK(e["name"] == "sheet");
  CHECK(e["field"] == "Ex");
  CHECK(e["resistance_ohm"] == 376.73);
  CHECK(e["inductance_h"].is_null());
  CHECK(e["capacitance_f"].is_null());
  CHECK(e["samples_along"] == 8);
  CHECK(e["samples_across"] == 8);
  CHECK(e["position_m"][2].get<double>() == doctest::Approx(0.12));
}

TEST_CASE("lumped: an element with a pole is reported as the element, not as a dispersive material") {
  const std::string dir = scratch_dir("salisbury_rlc");
  const auto r = run_clfdtd("run models/salisbury_screen.ini --backend=reference --time.steps=40"
                            " --lumped.sheet.inductance=1e-9 --lumped.sheet.capacitance=2e-13"
                            " --lumped.sheet.circuit=series --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("lumped     sheet: 376.73 ohm, 1e-09 H, 2e-13 F in series across 8 x 8 Ex samples") !=
        std::string::npos);
  CHECK(r.out.find("dispersive") == std::string::npos);
  const auto run = nlohmann::json::parse(read_text(dir + "/run.json"));
  CHECK(run["lumped"][0]["circuit"] == "series");
  CHECK(run["lumped"][0]["inductance_h"] == 1e-9);
  CHECK(!run.contains("dispersive_materials"));
}

TEST_CASE("lumped: an element in the UPML, or with two values and no circuit, is refused before anything is written") {
  const std::string dir = scratch_dir("salisbury_refused");
  auto r = run_clfdtd("run models/salisbury_screen.ini --backend=reference --lumped.sheet.position=\"0.002 0.002 0.005\""
                      " --output.dir=" + dir);
  CHECK(r.code == 2);
  CHECK(r.out.find("'lumped.sheet.size': a box whose samples lie outside the UPML layers") != std::string::npos);
  CHECK(!fs::exists(dir));
  r = run_clfdtd("run models/salisbury_screen.ini --backend=reference --lumped.sheet.capacitance=1e-12 --output.dir=" + dir);
  CHECK(r.code == 2);
  CHECK(r.out.find("lumped.sheet.circuit") != std::string::npos);
  CHECK(!fs::exists(dir));
}
