// `clfdtd modes` end to end (docs/MODES.md): a metal guide's TE10 on the grid's dispersion, the
// same beta a waveguide port of a run reports; the silicon wire model's two guided modes, its
// table and fields; what it refuses (exit 2, nothing written) and how it treats existing files.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_helpers.hpp"

using namespace clfdtd_test;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kC0 = 299792458.0;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* kWire =
    "models/si_wire.ini --axis=z --position=\"1.51e-6 1.41e-6 1.2e-6\" --size=\"2.42e-6 2.22e-6\"";

}  // namespace

TEST_CASE("clfdtd modes: a metal guide's TE10 has the beta a run's waveguide port reports") {
  const std::string dir = scratch_dir("modes_guide");
  std::filesystem::create_directories(dir);
  // The run gives ports/a.csv's beta at its frequencies (10 steps: beta does not depend on them).
  const Ran run = run_clfdtd("run tests/data/waveguide_empty.ini --backend=reference --quiet "
                             "--time.steps=10 --output.dir=" + dir + "/run");
  REQUIRE_MESSAGE(run.code == 0, run.out);
  std::string header;
  const auto port = csv_rows(read_text(dir + "/run/ports/a.csv"), header);
  REQUIRE(port.size() > 100);
  // frequency_hz, beta_rad_per_m, ...: the row nearest 9.25 GHz (TE10 alone travels there)
  std::size_t nearest = 0;
  for (std::size_t k = 0; k < port.size(); ++k)
    if (std::abs(port[k][0] - 9.25e9) < std::abs(port[nearest][0] - 9.25e9)) nearest = k;
  const std::vector<double>& row = port[nearest];
  REQUIRE(std::abs(row[0] - 9.25e9) < 0.5e9);
  char freq[64];
  std::snprintf(freq, sizeof freq, "%.17g", row[0]);
  const Ran modes = run_clfdtd("modes tests/data/waveguide_empty.ini --axis=z --position=\"0.012 0.006 0.05\" "
                               "--count=3 --frequency=" + std::string(freq) + " --output=" + dir + "/guide.csv");
  REQUIRE_MESSAGE(modes.code == 0, modes.out);
  CHECK(has(modes.out, "window 16 x 8 cells"));
  CHECK(!has(modes.out, "warning"));
  const auto table = csv_rows(read_text(dir + "/guide.csv"), header);
  CHECK(header == "mode,frequency_hz,n_eff,beta_rad_per_m,beta_grid_rad_per_m,u_fraction,degenerate,residual");
  REQUIRE(table.size() == 1);  // TE20 and TE01 are cut off at 12.5 GHz
  CHECK(table[0][3] == doctest::Approx(row[1]).epsilon(1e-7));  // the port prints 9 digits
  // And the grid's formula: (2 sin(beta d / 2) / d)^2 = K0^2 - (2 sin(pi d / 2a) / d)^2.
  const double d = 0.0015, dt = 0.9 * d / (kC0 * std::sqrt(3.0));
  const double k0 = 2 * std::sin(kPi * row[0] * dt) / (kC0 * dt), ku = 2 / d * std::sin(kPi * d / (2 * 0.024));
  CHECK(table[0][4] == doctest::Approx(std::sqrt(k0 * k0 - ku * ku)).epsilon(1e-9));
  CHECK(table[0][5] < 1e-9);  // E along v (y) only
}

TEST_CASE("clfdtd modes: the silicon wire's TE0 and TM0, the table and the fields") {
  const std::string dir = scratch_dir("modes_wire");
  std::filesystem::create_directories(dir);
  const Ran r = run_clfdtd(std::string("modes ") + kWire + " --count=2 --output=" + dir + "/wire.csv");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  std::string header;
  const auto table = csv_rows(read_text(dir + "/wire.csv"), header);
  REQUIRE(table.size() == 2);
  // TE0: E along x, n_eff between silica's 1.444 and silicon's 3.476; TM0 below it, E along y.
  CHECK(table[0][2] > 2.3);
  CHECK(table[0][2] < 2.5);
  CHECK(table[0][5] > 0.9);
  CHECK(table[1][2] > 1.5);
  CHECK(table[1][2] < table[0][2]);
  CHECK(table[1][5] < 0.2);
  CHECK(table[0][6] == 1);     // no other mode of its beta
  CHECK(table[0][7] < 1e-9);
  CHECK(std::filesystem::exists(dir + "/wire.vti") == has(r.out, "fields: " + dir + "/wire.vti"));
  if (std::filesystem::exists(dir + "/wire.vti")) {
    const std::string vti = read_text(dir + "/wire.vti");
    for (const char* name : {"\"eps_r\"", "\"E_1\"", "\"H_2\"", "\"E_intensity_1\"", "\"n_eff\"",
                             "\"Ex_1\"", "\"Hy_2\""})
      CHECK_MESSAGE(has(vti, name), name);
  }
  // Without --output nothing is written; the table goes to stdout.
  const Ran quiet = run_clfdtd(std::string("modes ") + kWire + " --count=1");
  REQUIRE(quiet.code == 0);
  CHECK(has(quiet.out, "n_eff"));
}

TEST_CASE("clfdtd modes: a plane where the guide changes is solved with a warning") {
  // The loaded guide's block cut to end at z = 0.09 m (node plane 60): on that plane the block's
  // samples differ a cell before and after; a cell inside it they do not.
  const std::string base = "modes tests/data/mode_loaded_guide.ini --axis=z --frequency=7.5e9 "
                           "--object.block.center=\"0.0045 0.003 0.06\" --object.block.size=\"0.009 0.006 0.06\" ";
  const Ran edge = run_clfdtd(base + "--position=\"0.012 0.006 0.09\"");
  REQUIRE_MESSAGE(edge.code == 0, edge.out);
  CHECK(has(edge.out, "warning: the guide is not the same a cell before and after the plane (E"));
  const Ran inside = run_clfdtd(base + "--position=\"0.012 0.006 0.075\"");
  REQUIRE_MESSAGE(inside.code == 0, inside.out);
  CHECK(!has(inside.out, "warning"));
}

TEST_CASE("clfdtd modes: an existing output is kept unless --overwrite") {
  const std::string dir = scratch_dir("modes_files");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/m.csv") << "mine\n";
  const std::string args = std::string("modes ") + kWire + " --count=1 --output=" + dir + "/m.csv";
  const Ran refused = run_clfdtd(args);
  CHECK(refused.code == 2);
  CHECK(has(refused.out, "--overwrite"));
  CHECK(read_text(dir + "/m.csv") == "mine\n");
  CHECK(!std::filesystem::exists(dir + "/m.vti"));
  const Ran replaced = run_clfdtd(args + " --overwrite");
  REQUIRE_MESSAGE(replaced.code == 0, replaced.out);
  CHECK(has(read_text(dir + "/m.csv"), "mode,frequency_hz"));
  std::filesystem::create_directories(dir + "/folder.csv");
  CHECK(run_clfdtd(std::string("modes ") + kWire + " --output=" + dir + "/folder.csv --overwrite").code == 2);
}

TEST_CASE("clfdtd modes: what it refuses, with the option named (exit 2)") {
  struct Case {
    std::string args, says;
  };
  const std::string wire = "models/si_wire.ini ";
  const std::string at = " --position=\"1.51e-6 1.41e-6 1.5e-6\"";
  for (const Case& c : std::vector<Case>{
           {wire + at, "'--axis'"},
           {wire + "--axis=w" + at, "x, y or z"},
           {wire + "--axis=z", "'--position'"},
           {wire + "--axis=z --position=\"1e-6 1e-6\"", "3 numbers"},
           {wire + "--axis=z --position=\"1e-6 1e-6 9e-6\"", "inside the domain"},
           {wire + "--axis=z" + at + " --size=\"9e-6 1e-6\"", "a window inside the domain"},
           {wire + "--axis=z" + at + " --size=\"12884901.897 1e-6\"", "a window inside the domain"},
           {wire + "--axis=z" + at + " --frequency=1e18", "at most the highest frequency the grid carries"},
           {wire + "--axis=z" + at + " --size=\"1e-8 1e-6\"", "at least 2 cells wide along"},
           {wire + "--axis=z" + at + " --count=0", "1..100"},
           {wire + "--axis=z" + at + " --frequency=-1", "'--frequency'"},
           {wire + "--axis=z" + at + " --output=m.txt", "ending in .csv"},
           {wire + "--axis=z" + at + " --overwrite", "only with --output"},
           {wire + "--axis=z" + at + " --material.silicon.sigma=10", "in the mode window is lossy"},
           {"--axis=z" + at, "model file is missing"},
           {wire + "--axis=z" + at + " --bogus=1", "unknown option '--bogus=1'"},
       }) {
    CAPTURE(c.args);
    const Ran r = run_clfdtd("modes " + c.args);
    CHECK(r.code == 2);
    CHECK_MESSAGE(has(r.out, c.says), r.out);
  }
  const Ran help = run_clfdtd("modes --help");
  CHECK(help.code == 0);
  CHECK(has(help.out, "--position"));
  CHECK(has(run_clfdtd("--help").out, "clfdtd modes"));
}
