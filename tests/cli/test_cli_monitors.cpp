// Monitors end to end: a run writes monitors/<name>.csv (flux, farfield, modes) and .vti (dft)
// with the documented headers, lists them in run.json, and the flux and pattern of a dipole come
// out near their analytic values even on this coarse grid (the tight bounds are the validation
// cases' job, tools/validation/monitors.py).
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "cli/cli_helpers.hpp"

using namespace clfdtd_test;

TEST_CASE("clfdtd run writes flux, farfield and dft monitors and lists them in run.json") {
  const std::string dir = scratch_dir("monitors");
  const Ran r = run_clfdtd("run tests/data/monitors_small.ini --quiet --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);

  std::string header;
  const auto flux = csv_rows(read_text(dir + "/monitors/box.csv"), header);
  CHECK(header == "frequency_hz,flux_J_s");
  REQUIRE(flux.size() == 3);
  for (const auto& row : flux) CHECK(row[1] > 0);

  const auto pattern = csv_rows(read_text(dir + "/monitors/pattern.csv"), header);
  CHECK(header == "frequency_hz,theta_deg,phi_deg,directivity_dbi,directivity_theta_dbi,directivity_phi_dbi");
  CHECK(pattern.size() == 2u * 19u * 12u);  // 2 frequencies, theta 0..180 by 10, phi 0..330 by 30
  for (const auto& row : pattern)
    if (row[1] == 90) CHECK(std::abs(row[3] - 1.76) < 0.3);  // a short dipole: 1.76 dBi
  // Its E is E_theta (the dipole lies along z): E_theta's share is the whole directivity and
  // E_phi's far below it; the two shares sum to it in power everywhere.
  for (const auto& row : pattern) {
    if (row[1] == 0 || row[1] == 180) continue;  // on the axis both are nulls
    CHECK(std::abs(row[4] - row[3]) < 0.01);
    CHECK(row[5] < row[3] - 30);
    CHECK(std::pow(10, row[3] / 10) ==
          doctest::Approx(std::pow(10, row[4] / 10) + std::pow(10, row[5] / 10)).epsilon(1e-6));
  }

  const auto report = nlohmann::json::parse(read_text(dir + "/run.json"));
  REQUIRE(report["monitors"].size() == 3);
  CHECK(report["monitors"][0]["name"] == "box");
  CHECK(report["monitors"][0]["file"] == "monitors/box.csv");
  CHECK(report["monitors"][0]["flux_J_s"].size() == 3);
  CHECK(report["monitors"][1]["type"] == "farfield");
  CHECK(report["monitors"][1]["radiated_power_J_s"].size() == 2);
  CHECK(report["monitors"][2]["frequencies_hz"][0] == 1.5e9);
  // The pulse has died away by step 500: each DFT monitor samples every D-th step, D > 1.
  for (int i = 0; i < 3; ++i) CHECK(report["monitors"][i]["decimation"].get<int>() > 1);
  // The farfield box is the flux box: the same power at the frequencies both have.
  CHECK(report["monitors"][1]["radiated_power_J_s"][0].get<double>() ==
        doctest::Approx(flux[0][1]).epsilon(1e-6));
  if (r.out.find("no VTK") == std::string::npos) {
    const std::string vti = read_text(dir + "/monitors/plane.vti");
    CHECK(vti.find("Ez_re_0") != std::string::npos);
    CHECK(vti.find("Hx_im_0") != std::string::npos);
  }
  // Settled by its end: no monitor warns.
  CHECK_MESSAGE(r.out.find("its transform still moved") == std::string::npos, r.out);
}

TEST_CASE("a run that ends before the fields die down says which monitors' spectra are cut off") {
  const std::string dir = scratch_dir("monitors_cut");
  const Ran r = run_clfdtd("run tests/data/monitors_small.ini --quiet --time.steps=100 --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  for (const char* name : {"box", "pattern"})
    CHECK_MESSAGE(r.out.find(std::string("warning: monitor '") + name + "': its transform still moved by ") !=
                      std::string::npos,
                  r.out);
  CHECK(r.out.find("over the last 5% of the run (steps 95 to 100)") != std::string::npos);
  const auto report = nlohmann::json::parse(read_text(dir + "/run.json"));
  std::size_t cut = 0;
  for (const auto& w : report["warnings"])
    cut += w.get<std::string>().find("its transform still moved") != std::string::npos;
  CHECK(cut >= 2);
  // A stopped run compares nothing (its checkpoint never came): the interrupted-run tests cover
  // that path; here the outputs are written in full.
  CHECK(read_text(dir + "/monitors/box.csv").find("frequency_hz") == 0);
}

TEST_CASE("a modes monitor writes one row per projected step") {
  const std::string dir = scratch_dir("modes");
  const Ran r = run_clfdtd("run models/cavity_modes.ini --quiet --time.steps=40 "
                           "--monitor.modes.every=4 --output.dir=" + dir);
  if (r.out.find("need") != std::string::npos && r.out.find("VTK") != std::string::npos) {
    CHECK(r.code == 2);  // a build without VTK cannot read the modes file and says so
    return;
  }
  REQUIRE_MESSAGE(r.code == 0, r.out);
  std::string header;
  const auto rows = csv_rows(read_text(dir + "/monitors/modes.csv"), header);
  CHECK(header.rfind("step,time_s,mode_0,mode_1,", 0) == 0);
  REQUIRE(rows.size() == 11);  // steps 0, 4, ..., 40
  CHECK(rows[10][0] == 40);
  CHECK(rows[10].size() == 2 + 10);
}
