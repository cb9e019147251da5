// boundary.bloch_k end to end (docs/PERIODIC.md "Bloch-periodic boundaries"): the photonic crystal
// of models/bloch_square_rods.ini at the X point, its two lowest TM bands against a plane-wave
// expansion's, and the refusals (exit 2 naming the key, nothing written).
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

TEST_CASE("Bloch: models/bloch_square_rods.ini at X finds the crystal's two lowest TM bands there") {
  const std::string dir = scratch_dir("bloch_square_rods");
  const auto r = run_clfdtd("run models/bloch_square_rods.ini --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("bloch      k = 314.159 0 0 rad/m, phase per period 3.14159 0 0 rad") != std::string::npos);
  const auto report = nlohmann::json::parse(read_text(dir + "/run.json"));
  CHECK(report["bloch_k_rad_per_m"] == nlohmann::json::array({314.159, 0.0, 0.0}));
  CHECK(report["periodic"] == nlohmann::json::array({"x", "y", "z"}));
  // The frequencies (f a / c, a = 10 mm) every probe found.
  std::set<double> found;
  std::istringstream in(read_text(dir + "/resonances.csv"));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    const std::size_t a = line.find(',', line.find(',') + 1);
    found.insert(std::stod(line.substr(a + 1)) * 0.01 / 299792458.0);
  }
  std::vector<double> bands;  // one per band: the probes' values agree within rounding
  for (double f : found)
    if (bands.empty() || f > bands.back() * (1 + 1e-4)) bands.push_back(f);
  REQUIRE(bands.size() >= 2);
  // A plane-wave expansion of the round rod (441 waves, tools/validation/bloch_bands.py): 0.2747
  // and 0.4425 at X; the grid's a / 20 staircase puts clfdtd 1.7% higher.
  const double band1 = bands[0], band2 = bands[1];
  CHECK(band1 == doctest::Approx(0.2747).epsilon(0.025));
  CHECK(band2 == doctest::Approx(0.4425).epsilon(0.025));
}

TEST_CASE("Bloch: refusals exit 2 naming the key, and write nothing") {
  struct Refusal {
    std::string args, key, expected;
  };
  const std::string m = "models/bloch_square_rods.ini";
  const std::vector<Refusal> cases = {
      {"--boundary.periodic=\"x y\" --boundary.layers=\"0 0 0 0 0 0\" --boundary.bloch_k=\"0 0 5\"",
       "boundary.bloch_k", "0 along z, which is not periodic"},
      {"--device.variant=onepass", "device.variant", "auto, tile or rows"},
      {"--source.s1.type=port", "source.s1.type", "no lumped port in a Bloch-periodic model"},
      {"--material.alumina.debye=\"60 1e-11\"", "material.alumina.debye", "no dispersive material"},
  };
  for (const Refusal& c : cases) {
    CAPTURE(c.args);
    const std::string out = scratch_dir("bloch_refused");
    const auto r = run_clfdtd("run " + m + " " + c.args + " --output.dir=" + out + " --quiet");
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(r.out.find("'" + c.key + "'") != std::string::npos);
    CHECK(r.out.find(c.expected) != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
}
