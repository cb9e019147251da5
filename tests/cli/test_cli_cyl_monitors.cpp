// End-to-end: a cylindrical model with a flux monitor runs on the reference and the OpenCL
// engine and writes monitors/<name>.csv (frequency_hz,flux_J_s, as a 3D flux monitor) with the
// flux in run.json; a dft monitor in a cylindrical model is refused (exit 2) naming its key.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

using namespace clfdtd_test;

namespace {

// An on-axis z current pulse inside the ring section 0..12 mm x 18..42 mm.
std::string write_model(const std::string& dir, const std::string& monitor_type) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/flux.ini";
  std::ofstream(path) << "[grid]\ncoordinates = cylindrical\nsize = 0.03 0.06\ncell_size = 0.001\n"
                         "[time]\nsteps = 300\n[boundary]\nlayers = 8\n"
                         "[source.feed]\ntype = current\naxis = z\nposition = 0 0 0.03\n"
                         "frequency = 15e9\nbandwidth = 10e9\n"
                         "[monitor.box]\ntype = " << monitor_type << "\nbox = 0 0.018 0.012 0.042\n"
                         "frequencies = 10e9 15e9 20e9\n";
  return path;
}

}  // namespace

TEST_CASE("a cylindrical flux monitor writes monitors/<name>.csv and run.json's flux") {
  for (const char* backend : {"reference", "opencl"}) {
    CAPTURE(backend);
    const std::string dir = scratch_dir(std::string("cyl_flux_") + backend);
    const std::string model = write_model(dir + "_in", "flux");
    const auto r = run_clfdtd("run " + model + " --backend=" + backend + " --output.dir=" + dir + " --quiet");
    if (r.out.find("no OpenCL device found") != std::string::npos) continue;
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const std::string csv = read_text(dir + "/monitors/box.csv");
    CHECK(csv.rfind("frequency_hz,flux_J_s\n", 0) == 0);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);
    const auto report = nlohmann::json::parse(read_text(dir + "/run.json"));
    const auto& mon = report["monitors"][0];
    CHECK(mon["type"] == "flux");
    REQUIRE(mon["flux_J_s"].size() == 3);
    for (const auto& v : mon["flux_J_s"]) CHECK(v.get<double>() > 0);  // radiated outwards
  }
}

TEST_CASE("a dft monitor in a cylindrical model is refused naming its type") {
  const std::string dir = scratch_dir("cyl_dft_refused");
  const auto r = run_clfdtd("run " + write_model(dir + "_in", "dft") + " --output.dir=" + dir + " --quiet");
  CHECK(r.code == 2);
  CHECK(r.out.find("monitor.box.type") != std::string::npos);
  CHECK(r.out.find("flux in a cylindrical model") != std::string::npos);
}
