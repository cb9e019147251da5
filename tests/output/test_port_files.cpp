// ports/<name>.csv and .time.csv (output/port_files.hpp): a stopped run's files keep to the steps
// done and say so; an undriven port writes what it received and S21 from the driven one; the one
// driven port gets a .s1p.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "config/load_config.hpp"
#include "model/simulation_model.hpp"
#include "output/port_files.hpp"

using namespace clfdtd;
namespace fs = std::filesystem;

namespace {

const std::string kTwoPorts = R"(
[grid]
size = 0.2 0.2 0.2
cell_size = 0.01
[time]
steps = 300
[boundary]
layers = 4
[source.tx]
type = port
position = 0.08 0.1 0.105
frequency = 2e9
[source.rx]
type = port
position = 0.12 0.1 0.105
frequency = 2e9
amplitude = 0
resistance = 100
)";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The warnings less the non-passive one (its own case below: these made-up series need not be
// passive).
std::vector<std::string> but_passivity(std::vector<std::string> w) {
  w.erase(std::remove_if(w.begin(), w.end(),
                         [](const std::string& t) { return t.find("resistance is negative") != std::string::npos; }),
          w.end());
  return w;
}

// The two gaps' E at steps 0 .. steps - 1: a made-up ringing that is zero from step 120 on, the
// undriven gap a tenth of the driven one.
std::vector<std::vector<double>> made_up_gaps(std::size_t steps) {
  std::vector<std::vector<double>> e(2, std::vector<double>(steps, 0.0));
  for (std::size_t s = 0; s < 120 && s < steps; ++s) {
    e[0][s] = -std::sin(0.2 * static_cast<double>(s)) * std::exp(-0.02 * static_cast<double>(s));
    e[1][s] = 0.1 * e[0][s];
  }
  return e;
}

long lines(const std::string& text) {
  long n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("port files: a stopped run keeps to its steps; an undriven port receives") {
  const SimulationModel m = SimulationModel::build(load_config_text(kTwoPorts, "ports.ini", {}));
  REQUIRE(m.ports.size() == 2);
  CHECK(m.ports[0].driven);
  CHECK_FALSE(m.ports[1].driven);
  CHECK(m.ports[1].s21_from == 0);
  CHECK(m.ports[1].frequencies_hz == m.ports[0].frequencies_hz);  // the driven port's band

  // E at steps 0 .. 300.
  std::vector<std::vector<double>> e = made_up_gaps(301);
  const fs::path dir = fs::temp_directory_path() / ("clfdtd_port_files_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  auto warnings = write_port_files(dir.string(), m, e, 150);
  CHECK(lines(slurp((dir / "ports/tx.time.csv").string())) == 1 + 150);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].find("port 'tx': the run stopped at step 150 of 300") != std::string::npos);
  const std::string rx = slurp((dir / "ports/rx.csv").string());
  CHECK(rx.rfind("frequency_hz,v_re_V_s,v_im_V_s,i_re_A_s,i_im_A_s,received_J_s,s21_re,s21_im,s21_db\n", 0) == 0);
  CHECK(lines(rx) == 1 + static_cast<long>(m.ports[1].frequencies_hz.size()));
  CHECK(slurp((dir / "ports/tx.csv").string()).rfind("frequency_hz,z_re_ohm,", 0) == 0);
  // The one driven port's S11 as a Touchstone file too; the port that receives has none.
  const std::string s1p = slurp((dir / "ports/tx.s1p").string());
  CHECK(s1p.find("\n# HZ S RI R 50\n") != std::string::npos);
  CHECK(lines(s1p) == 2 + static_cast<long>(m.ports[0].frequencies_hz.size()));
  CHECK_FALSE(fs::exists(dir / "ports/rx.s1p"));
  CHECK(sole_driven_port(m, 0));
  CHECK_FALSE(sole_driven_port(m, 1));

  // The whole run: no warning for these series (the current has died down by the end).
  warnings = but_passivity(write_port_files(dir.string(), m, e, 300));
  CHECK(warnings.empty());
  CHECK(lines(slurp((dir / "ports/tx.time.csv").string())) == 1 + 300);

  // A gap still ringing weakly at the end: its voltage has not died down, though against the
  // source's pulse the current has (the check of the current alone missed it). Both ports warn:
  // the undriven one's current is its voltage over R.
  auto ringing = e;
  for (int s = 200; s <= 300; ++s) {
    ringing[0][s] = 1e-3 * std::sin(0.2 * s);
    ringing[1][s] = 0.1 * ringing[0][s];
  }
  warnings = but_passivity(write_port_files(dir.string(), m, ringing, 300));
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].find("port 'tx' has not died down by the end of the run: over its last 5% of "
                         "steps it still reaches its voltage ") == 0);
  CHECK(warnings[0].find("its current") == std::string::npos);
  CHECK(warnings[0].find("raise time.steps (now 300)") != std::string::npos);
  CHECK(warnings[1].find("port 'rx' has not died down") == 0);
  CHECK(warnings[1].find("its voltage ") != std::string::npos);
  CHECK(warnings[1].find("its current ") != std::string::npos);
  // The level named: the tail's share of the peak, in % (here 1e-3 of the peak: 0.1%, past the
  // bound only where the sine's sample comes close to 1).
  CHECK(warnings[0].find("% of its peak (") != std::string::npos);
  // Just below the bound: the series pass, but the ring still moves the power at the ports'
  // frequencies near its own, which the per-frequency check says (kPortPowerMoved).
  for (int s = 200; s <= 300; ++s) {
    ringing[0][s] *= 0.5;
    ringing[1][s] *= 0.5;
  }
  warnings = but_passivity(write_port_files(dir.string(), m, ringing, 300));
  for (const std::string& w : warnings) {
    CHECK(w.find("has not died down") == std::string::npos);
    CHECK(w.find("power (ports/") != std::string::npos);
    CHECK(w.find("over the last 5% of the steps, above the 1% of a settled value") != std::string::npos);
  }
  CHECK_FALSE(warnings.empty());
  fs::remove_all(dir);
}

TEST_CASE("port files: a negative resistance at a port that alone drives the model is warned about") {
  // E at steps 0 .. 300 with V and I made up so that Re Z < 0 somewhere: a port feeding a passive
  // model alone cannot give that, so the run is blamed, naming the key that set its length.
  std::vector<std::vector<double>> e = made_up_gaps(301);
  const fs::path dir = fs::temp_directory_path() / ("clfdtd_port_passive_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto negative = [](const std::vector<std::string>& w) {
    for (const std::string& t : w)
      if (t.find("resistance is negative at ") != std::string::npos) return t;
    return std::string();
  };
  const SimulationModel alone = SimulationModel::build(load_config_text(kTwoPorts, "ports.ini", {}));
  const std::string said = negative(write_port_files(dir.string(), alone, e, 300));
  CHECK_MESSAGE(said.rfind("port 'tx': its resistance is negative at ", 0) == 0, said);
  CHECK(said.find("raise time.steps (now 300)") != std::string::npos);
  CHECK(said.find("|S11| up to 1.") != std::string::npos);
  // Set by time.duration: that key is named.
  std::string by_duration = kTwoPorts;
  by_duration.replace(by_duration.find("steps = 300"), 11, "duration = 1.2e-9");
  const SimulationModel timed = SimulationModel::build(load_config_text(by_duration, "ports.ini", {}));
  REQUIRE(timed.grid.steps > 0);
  const auto et = made_up_gaps(static_cast<std::size_t>(timed.grid.steps) + 1);
  const std::string timed_said = negative(write_port_files(dir.string(), timed, et, timed.grid.steps));
  CHECK_MESSAGE(timed_said.find("raise time.duration (now 1.21e-09 s, 70 steps)") != std::string::npos, timed_said);
  // Another source drives too: power may flow back into the port, so nothing is said.
  const SimulationModel shared = SimulationModel::build(load_config_text(
      kTwoPorts + "[source.d]\ntype = dipole\naxis = z\nposition = 0.1 0.06 0.1\nfrequency = 2e9\n",
      "ports.ini", {}));
  CHECK(negative(write_port_files(dir.string(), shared, e, 300)).empty());
  fs::remove_all(dir);
}

TEST_CASE("port files: no Touchstone file where two ports are driven") {
  std::string text = kTwoPorts;
  text.replace(text.find("amplitude = 0"), 13, "amplitude = 1");
  const SimulationModel m = SimulationModel::build(load_config_text(text, "ports.ini", {}));
  REQUIRE(m.ports.size() == 2);
  CHECK_FALSE(sole_driven_port(m, 0));
  CHECK_FALSE(sole_driven_port(m, 1));
  std::vector<std::vector<double>> e(2, std::vector<double>(301, 0.0));
  for (int s = 0; s < 120; ++s) e[0][s] = e[1][s] = -std::sin(0.2 * s) * std::exp(-0.02 * s);
  const fs::path dir = fs::temp_directory_path() / ("clfdtd_port_files2_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_port_files(dir.string(), m, e, 300);
  CHECK(fs::exists(dir / "ports/tx.csv"));
  CHECK_FALSE(fs::exists(dir / "ports/tx.s1p"));
  CHECK_FALSE(fs::exists(dir / "ports/rx.s1p"));
  fs::remove_all(dir);
}
