// mode_expansion monitors end to end (docs/MONITORS.md): the loaded guide between its two solved
// ports, the monitors' forward wave equal to what port a launches and port b receives (moved by
// exp(-j beta L)), the backward wave and the guide's other modes empty; what it refuses.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>

#include "cli_helpers.hpp"

using namespace clfdtd_test;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string expansion(const std::string& name, double z, const std::string& extra = "") {
  const std::string sec = " --monitor." + name + ".";
  return sec + "type=mode_expansion" + sec + "box=\"0 0 " + std::to_string(z) + " 0.024 0.012 " + std::to_string(z) +
         "\"" + sec + "frequencies=\"7e9 7.5e9 8e9 9e9\"" + sec + "count=3" + extra;
}

}  // namespace

TEST_CASE("a mode_expansion monitor splits the run into the guide's modes as its ports do") {
  const std::string dir = scratch_dir("mode_expansion");
  const Ran run = run_clfdtd("run tests/data/mode_port_guide.ini --quiet --source.a.frequencies=\"7e9 7.5e9 8e9 9e9\"" +
                             expansion("mid", 0.075) + " --output.dir=" + dir);
  REQUIRE_MESSAGE(run.code == 0, run.out);
  CHECK(!has(run.out, "warning"));
  std::string header;
  const auto rows = csv_rows(read_text(dir + "/monitors/mid.csv"), header);
  CHECK(header == "frequency_hz,mode,n_eff,beta_rad_per_m,forward_re,forward_im,backward_re,backward_im,"
                  "forward_J_s,backward_J_s,u_fraction,degenerate");
  const auto a = csv_rows(read_text(dir + "/ports/a.csv"), header);  // frequency, beta, a, b, ...
  const auto b = csv_rows(read_text(dir + "/ports/b.csv"), header);
  REQUIRE(a.size() == 4);
  REQUIRE(b.size() == 4);
  // One mode travels to 8 GHz; at 9 GHz a second one (where the source's spectrum is 1e-4 of its
  // peak: only the rows are checked there).
  REQUIRE(rows.size() == 5);
  for (std::size_t f = 0; f < 3; ++f) {
    CAPTURE(f);
    const std::vector<double>& row = rows[f];
    REQUIRE(row[0] == doctest::Approx(a[f][0]).epsilon(1e-9));
    REQUIRE(row[1] == 1);
    const double beta = row[3];
    CHECK(beta == doctest::Approx(a[f][1]).epsilon(1e-8));
    const std::complex<double> forward(row[4], row[5]), backward(row[6], row[7]);
    const std::complex<double> launched(a[f][2], a[f][3]), received(b[f][4], b[f][5]);
    const std::complex<double> j(0, 1);
    // 52.5 mm after port a, 7.5 mm before port b; the transforms are float32.
    CHECK(std::abs(forward / (launched * std::exp(-j * beta * 0.0525)) - 1.0) < 2e-6);
    CHECK(std::abs(forward / (received * std::exp(j * beta * 0.0075)) - 1.0) < 2e-6);
    CHECK(row[8] == doctest::Approx(std::norm(forward)).epsilon(1e-6));
    CHECK(std::abs(backward) < 1e-4 * std::abs(forward));
  }
  CHECK(rows[3][0] == 9e9);
  CHECK(rows[3][1] == 1);
  CHECK(rows[4][0] == 9e9);
  CHECK(rows[4][1] == 2);
  CHECK(rows[4][3] < rows[3][3]);
}

TEST_CASE("a mode_expansion monitor: what it refuses") {
  const std::string dir = scratch_dir("mode_expansion_bad");
  const std::string base = "run tests/data/mode_port_guide.ini --quiet --time.steps=10 --output.dir=" + dir;
  struct Bad {
    std::string args, says;
  };
  const Bad bad[] = {
      {" --monitor.m.type=mode_expansion --monitor.m.box=\"0 0 0.03 0.024 0.012 0.06\" --monitor.m.frequencies=7e9",
       "a plane for a mode_expansion monitor"},
      {expansion("m", 0.01), "a plane outside the UPML layers along z"},
      {" --monitor.m.type=mode_expansion --monitor.m.box=\"0 0 0.06 0.0015 0.012 0.06\" --monitor.m.frequencies=7e9",
       "a window at least 2 cells wide along x"},
      {expansion("m", 0.06, " --monitor.m.count=0"), "monitor.m.count"},
      {expansion("m", 0.06, " --material.loading.sigma=0.1"), "a window the mode solver takes"},
      {" --monitor.m.type=flux --monitor.m.box=\"0 0 0.06 0.024 0.012 0.06\" --monitor.m.frequencies=7e9 "
       "--monitor.m.count=2",
       "no count for a flux monitor"},
      {expansion("m", 0.06, " --boundary.pmc=x"), "no mode_expansion monitor in a model with periodic axes or magnetic walls"},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.args);
    const Ran r = run_clfdtd(base + b.args);
    CHECK(r.code == 2);
    CHECK(has(r.out, b.says));
  }
}

TEST_CASE("a mode_expansion monitor at a driven port's plane is warned of") {
  // Port a's plane is z = 0.0225 m (node 15): the monitor on the next node plane reads H on the
  // port's side and E of both.
  const std::string dir = scratch_dir("mode_expansion_near_port");
  const Ran near = run_clfdtd("run tests/data/mode_port_guide.ini --quiet --time.steps=10" + expansion("m", 0.024) +
                              " --output.dir=" + dir);
  REQUIRE_MESSAGE(near.code == 0, near.out);
  CHECK(has(near.out, "monitor 'm' reaches within a cell of waveguide port 'a''s plane"));
  const Ran clear = run_clfdtd("run tests/data/mode_port_guide.ini --quiet --time.steps=10" + expansion("m", 0.03) +
                               " --output.dir=" + dir + " --output.overwrite=true");
  REQUIRE_MESSAGE(clear.code == 0, clear.out);
  CHECK_FALSE(has(clear.out, "reaches within a cell"));
}
