// Lumped elements end to end (docs/PORTS.md "Lumped elements"): models/salisbury_screen.ini runs,
// its header and run.json report the element, one with a pole is reported as an element and not
// as a dispersive material, and a misplaced element is refused (exit 2 naming the key, nothing
// written). The physics: tests/parallel/test_periodic.cpp (sheets of series and parallel R L C
// against their circuits) and tools/validation/periodic_models.py (the screen's reflectance).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
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

namespace {

// Two PEC plates 2 cells apart (z 0.09 .. 0.10 m), fed at one end by a port spanning the gap; at
// the other end `load`, a 75 ohm box 2 samples along z by 3 node lines along x.
std::string plates_model(const std::string& load) {
  return "[grid]\nsize = 0.2 0.15 0.2\ncell_size = 0.005\n[time]\nsteps = 400\n[boundary]\nlayers = 6\n"
         "[object.bottom]\nshape = box\nmaterial = pec\ncenter = 0.1 0.075 0.0875\nsize = 0.08 0.04 0.005\n"
         "[object.top]\nshape = box\nmaterial = pec\ncenter = 0.1 0.075 0.1025\nsize = 0.08 0.04 0.005\n"
         "[source.feed]\ntype = port\naxis = z\nposition = 0.07 0.075 0.095\nsize = 0 0 0.01\n"
         "waveform = gaussian_pulse\nfrequency = 1e9\nbandwidth = 1.5e9\nfrequencies = 0.5e9 1e9 1.5e9\n" +
         load;
}

std::vector<std::vector<double>> feed_z(const std::string& name, const std::string& load) {
  const std::string dir = scratch_dir(name);
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir + ".ini") << plates_model(load);
  }
  const auto r = run_clfdtd("run " + dir + ".ini --backend=reference --quiet --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  std::string header;
  return csv_rows(read_text(dir + "/ports/feed.csv"), header);
}

}  // namespace

// A port that only receives (amplitude 0) is a resistor across its samples, exactly as a lumped
// resistor over the same box: the driven port sees the same Z. This pins the element's box (its
// samples in series along the axis, its columns side by side) and its conductivity to the port's.
TEST_CASE("lumped: a resistor over a box loads a gap as a receiving port of that resistance does") {
  const std::string box = "axis = z\nposition = 0.13 0.075 0.095\nsize = 0.01 0 0.01\n";
  const auto as_port = feed_z("plates_port", "[source.load]\ntype = port\n" + box +
                                                 "resistance = 75\namplitude = 0\nfrequency = 1e9\n");
  const auto as_element = feed_z("plates_lumped", "[lumped.load]\n" + box + "resistance = 75\n");
  const auto open = feed_z("plates_open", "");
  REQUIRE(as_port.size() == 3);
  REQUIRE(as_element.size() == 3);
  REQUIRE(open.size() == 3);
  for (std::size_t f = 0; f < 3; ++f) {
    CAPTURE(f);
    for (int c : {1, 2}) {  // z_re_ohm, z_im_ohm
      CHECK(as_element[f][c] == doctest::Approx(as_port[f][c]).epsilon(1e-9));
    }
    // The load changes what the feed sees.
    CHECK(std::hypot(as_element[f][1] - open[f][1], as_element[f][2] - open[f][2]) >
          0.05 * std::hypot(open[f][1], open[f][2]));
  }
}
