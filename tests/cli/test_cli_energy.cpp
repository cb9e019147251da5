// output.energy end to end: the run writes energy.csv (header, one row per step but the last) next
// to the other outputs; the energy is constant once the source is done in a lossless cavity.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "cli/cli_helpers.hpp"

using namespace clfdtd_test;

TEST_CASE("clfdtd run --output.energy=true writes energy.csv") {
  const std::string dir = scratch_dir("energy");
  const Ran r = run_clfdtd("run models/pec_cavity.ini --quiet --time.steps=300 "
                           "--output.energy=true --output.dir=" + dir);
  REQUIRE(r.code == 0);
  std::istringstream csv(read_text(dir + "/energy.csv"));
  std::string line;
  REQUIRE(std::getline(csv, line));
  CHECK(line == "step,time_s,energy_J,electric_J,magnetic_J,naive_J");
  std::vector<double> energy;
  long expect = 0;
  while (std::getline(csv, line)) {
    long step = -1;
    double t = 0, w = 0;
    REQUIRE(std::sscanf(line.c_str(), "%ld,%lf,%lf", &step, &t, &w) == 3);
    CHECK(step == expect++);
    energy.push_back(w);
  }
  CHECK(energy.size() == 300);  // steps 0 .. 299: the energy of step n needs H of step n + 1
  // pec_cavity.ini's Gaussian current leaves a static charge, whose field energy stays too.
  REQUIRE(energy.back() > 0);
  CHECK(std::abs(energy.back() / energy[200] - 1) < 1e-4);
}

TEST_CASE("without output.energy there is no energy.csv") {
  const std::string dir = scratch_dir("no_energy");
  const Ran r = run_clfdtd("run models/pec_cavity.ini --quiet --time.steps=3 --output.dir=" + dir);
  REQUIRE(r.code == 0);
  CHECK_FALSE(std::filesystem::exists(dir + "/energy.csv"));
}
