// Far-field monitors with symmetry walls (docs/MONITORS.md, "Walls and symmetry planes"): a
// quarter model with magnetic walls (boundary.pmc) gives its symmetric whole's pattern,
// directivity, radiated power and efficiency, alone (a half-wave dipole) and beside a PEC ground
// plane's images (a monopole).
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

using namespace clfdtd_test;

namespace {

struct Pattern {
  std::vector<std::vector<double>> rows;  // frequency, theta, phi, directivity, ..., gain, realized gain
  std::vector<double> radiated_power, efficiency;
};

Pattern run_pattern(const std::string& name, const std::string& args) {
  const std::string dir = scratch_dir(name);
  const Ran r = run_clfdtd("run " + args + " --quiet --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  Pattern p;
  std::string header;
  p.rows = csv_rows(read_text(dir + "/monitors/pattern.csv"), header);
  REQUIRE(header.rfind("frequency_hz,theta_deg,phi_deg,directivity_dbi", 0) == 0);
  const nlohmann::json run = nlohmann::json::parse(read_text(dir + "/run.json"));
  for (const auto& m : run.at("monitors")) {
    if (m.at("name") != "pattern") continue;
    p.radiated_power = m.at("radiated_power_J_s").get<std::vector<double>>();
    p.efficiency = m.at("radiation_efficiency").get<std::vector<double>>();
  }
  return p;
}

// The part's pattern is the whole's, row by row (directivity and gain in dBi, where the whole's
// is above -40 dBi: the nulls are float rounding), and so are its power and efficiency.
void check_same(const Pattern& part, const Pattern& whole) {
  REQUIRE(part.rows.size() == whole.rows.size());
  REQUIRE(!whole.rows.empty());
  int compared = 0;
  for (std::size_t i = 0; i < whole.rows.size(); ++i) {
    const std::vector<double>& a = part.rows[i];
    const std::vector<double>& b = whole.rows[i];
    REQUIRE(a.size() == b.size());
    CHECK(a[1] == b[1]);
    CHECK(a[2] == b[2]);
    CHECK(std::isnan(a[3]) == std::isnan(b[3]));
    if (!(b[3] > -40)) continue;
    CAPTURE(b[1]);
    CAPTURE(b[2]);
    CHECK(std::fabs(a[3] - b[3]) < 1e-4);
    CHECK(std::fabs(a[6] - b[6]) < 1e-4);
    ++compared;
  }
  CHECK(compared > static_cast<int>(whole.rows.size()) / 2);
  REQUIRE(part.radiated_power.size() == whole.radiated_power.size());
  for (std::size_t f = 0; f < whole.radiated_power.size(); ++f) {
    CHECK(whole.radiated_power[f] > 0);
    CHECK(part.radiated_power[f] == doctest::Approx(whole.radiated_power[f]).epsilon(1e-6));
    CHECK(part.efficiency[f] == doctest::Approx(whole.efficiency[f]).epsilon(1e-6));
  }
}

}  // namespace

TEST_CASE("a quarter dipole between two magnetic walls radiates its whole's pattern, all around") {
  const std::string common = " --time.steps=800 --monitor.pattern.frequencies=9.4e8 --monitor.pattern.theta_step=10 "
                             "--monitor.pattern.phi_step=20";
  const Pattern whole = run_pattern("farfield_dipole_whole", "models/dipole_impedance.ini" + common);
  const Pattern quarter =
      run_pattern("farfield_dipole_quarter", "models/dipole_quarter.ini" + common +
                                                 " --monitor.pattern.type=farfield --monitor.pattern.box=\"0 0 0.08 "
                                                 "0.07 0.07 0.32\"");
  check_same(quarter, whole);
  // Every direction has a value: the walls are symmetry planes, nothing lies behind them.
  for (const auto& row : quarter.rows) CHECK_FALSE(std::isnan(row[3]));
  // Broadside, a half-wave dipole's 2.15 dBi (the grid's wire: within 0.05 dB).
  double broadside = -1e9;
  for (const auto& row : quarter.rows)
    if (row[1] == 90) broadside = std::max(broadside, row[3]);
  CHECK(broadside == doctest::Approx(2.15).epsilon(0.05 / 2.15));
}

TEST_CASE("a quarter monopole on a ground plane: the magnetic walls' images beside the plane's") {
  const Pattern whole = run_pattern("farfield_monopole_whole", "tests/data/monopole_ground.ini");
  const Pattern quarter = run_pattern(
      "farfield_monopole_quarter",
      "tests/data/monopole_ground.ini --grid.size=\"0.15 0.15 0.2\" --boundary.pmc=\"x y\" "
      "--boundary.layers=\"0 10 0 10 0 10\" --object.wire.center=\"0 0 0.04\" --source.feed.position=\"0 0 0.0025\" "
      "--monitor.pattern.box=\"0 0 0 0.07 0.07 0.12\"");
  check_same(quarter, whole);
  // On the horizon, a quarter-wave monopole's 5.16 dBi (the grid's wire: within 0.1 dB).
  double horizon = -1e9;
  for (const auto& row : whole.rows)
    if (row[1] == 90) horizon = std::max(horizon, row[3]);
  CHECK(horizon == doctest::Approx(5.16).epsilon(0.1 / 5.16));
}

TEST_CASE("a half model whose dipole is clear of the magnetic wall: the whole's two ports drive it") {
  // The dipole of models/dipole_impedance.ini 8 cells from the wall x = 0: the whole holds it and
  // its image, so the driving power is twice the port's; a lossless wire's efficiency is then 1
  // and its gain its directivity.
  const Pattern half = run_pattern(
      "farfield_dipole_half",
      "models/dipole_impedance.ini --monitor.pattern.frequencies=9.4e8 --monitor.pattern.theta_step=10 "
      "--monitor.pattern.phi_step=20 --grid.size=\"0.2 0.3 0.4\" --boundary.pmc=x --boundary.layers=\"0 10 10 10 10 10\" "
      "--object.upper_arm.center=\"0.04 0.15 0.235\" --object.lower_arm.center=\"0.04 0.15 0.16\" "
      "--source.feed.position=\"0.04 0.15 0.1975\" --monitor.pattern.box=\"0 0.08 0.08 0.12 0.22 0.32\"");
  REQUIRE(half.efficiency.size() == 1);
  CHECK(half.efficiency[0] == doctest::Approx(1).epsilon(1e-3));
  for (const auto& row : half.rows)
    if (row[3] > -40) CHECK(std::fabs(row[6] - row[3]) < 5e-3);
  // A box clear of the wall would see the part alone in free space: refused.
  const Ran clear = run_clfdtd("run models/dipole_quarter.ini --time.steps=10 --quiet --output.dir=" +
                               scratch_dir("farfield_clear_of_wall") +
                               " --monitor.pattern.box=\"0.01 0 0.08 0.07 0.07 0.32\"");
  CHECK(clear.code == 2);
  CHECK(clear.out.find("a farfield box that reaches the magnetic wall at x = 0") != std::string::npos);
}
