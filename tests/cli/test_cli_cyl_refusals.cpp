// End-to-end: what a cylindrical model refuses is refused by the program itself with exit 2, one
// line naming the key, and nothing written (tests/config checks the messages of load_config;
// these go through `clfdtd run`, the mesher's and the backend factory's refusals included).
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

namespace {

struct Refusal {
  const char* what;
  std::string grid;   // lines added to [grid]
  std::string extra;  // lines after [boundary] type = pec (keys of it, then other sections)
  std::string args;   // command-line overrides
  const char* key;
  const char* expected;  // part of the message
};

// A small cylindrical model (modes 0 1 unless `grid` says otherwise) with the case's additions.
std::string model_text(const Refusal& c) {
  const bool own_modes = c.grid.find("modes") != std::string::npos;
  return "[grid]\ncoordinates = cylindrical\nsize = 0.02 0.03\ncell_size = 0.001\n" +
         std::string(own_modes ? "" : "modes = 0 1\n") + c.grid +
         "[time]\nsteps = 10\n[boundary]\ntype = pec\n" + c.extra;
}

void check_refused(const std::string& file, const std::string& args, const char* key,
                   const char* expected) {
  const std::string out = scratch_dir(fs::path(file).stem().string() + "_out");
  const auto r = run_clfdtd("run " + file + " " + args + " --output.dir=" + out + " --quiet");
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(r.out.find(std::string("'") + key + "'") != std::string::npos);
  CHECK(r.out.find(expected) != std::string::npos);
  // One error line (the backend's refusals come after the model's summary lines).
  const std::size_t at = r.out.find("clfdtd: bad input: ");
  REQUIRE(at != std::string::npos);
  CHECK(r.out.find('\n', at) == r.out.size() - 1);
  CHECK(r.out.find(std::string("'") + key + "'", at) != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

}  // namespace

TEST_CASE("cylindrical refusals exit 2 naming the key, and write nothing") {
  const std::string src = "[source.s]\ntype = current\nfrequency = 3e9\n";
  const std::vector<Refusal> cases = {
      {"phi current on the axis", "", src + "axis = phi\nposition = 0 0 0.01\n", "",
       "source.s.axis", "z for a source on the axis"},
      {"r current on the axis", "", src + "axis = r\nposition = 0 30 0.01\n", "", "source.s.axis",
       "z for a source on the axis"},
      {"phi current whose Ephi sample is on the axis", "",
       src + "axis = phi\nposition = 0.0003 0 0.01\n", "", "source.s.position",
       "its nearest Ephi sample (0, 10) at (0, "},
      {"x as a source axis", "", src + "axis = x\nposition = 0.01 0 0.01\n", "", "source.s.axis",
       "r, phi or z in a cylindrical model"},
      {"Cartesian probe field", "", "[probe.p]\nposition = 0.01 0 0.01\nfields = Ex\n", "",
       "probe.p.fields", "Er Ephi Ez Hr Hphi Hz in a cylindrical model"},
      {"a dft monitor", "", "[monitor.f]\ntype = dft\nbox = 0 0 0.01 0.01\nfrequencies = 3e9\n", "",
       "monitor.f.type", "flux in a cylindrical model"},
      {"onepass", "", "[device]\nvariant = onepass\n", "", "device.variant",
       "auto, tile or rows in a cylindrical model"},
      {"2D mode key", "mode = te\n", "", "", "grid.mode", "no grid.mode in a cylindrical model"},
      {"2D equation key", "equation = wave\n", "", "", "grid.equation",
       "no grid.equation in a cylindrical model"},
      {"a negative m", "modes = -1\n", "", "", "grid.modes", "[0, 1000]"},
      {"a repeated m", "modes = 1 1\n", "", "", "grid.modes", "each angular order m once"},
      {"layers at the axis", "", "layers = 1 2 3 4\n", "--boundary.type=upml", "boundary.layers",
       "1 or 3 integers (r_hi z_lo z_hi)"},
      {"phi_samples below 0", "", "[snapshot]\nphi_samples = -1\n", "", "snapshot.phi_samples",
       "[0, 3600]"},
      {"more devices than modes", "", "", "--device=0,0,0", "device.select",
       "at most as many devices as modes (2 listed in grid.modes), got 3 devices"},
      {"a device list on the reference backend", "", "", "--backend=reference --device=0,0",
       "device.select", "a list of devices needs device.backend = opencl or cuda"},
  };
  const std::string dir = scratch_dir("cyl_refusals");
  fs::create_directories(dir);
  int n = 0;
  for (const Refusal& c : cases) {
    CAPTURE(c.what);
    const std::string file = dir + "/case" + std::to_string(n++) + ".ini";
    std::ofstream(file) << model_text(c);
    check_refused(file, c.args, c.key, c.expected);
  }
}

TEST_CASE("a device list for a 3D or 2D model is refused: it needs a cylindrical model or mpirun") {
  const std::string dir = scratch_dir("device_lists");
  fs::create_directories(dir);
  const std::string three_d = dir + "/cube.ini", two_d = dir + "/plane.ini";
  const std::string rest = "cell_size = 0.001\n[time]\nsteps = 4\n[boundary]\ntype = pec\n";
  std::ofstream(three_d) << "[grid]\nsize = 0.01 0.01 0.01\n" + rest;
  std::ofstream(two_d) << "[grid]\nsize = 0.01 0.01\n" + rest;
  for (const std::string& file : {three_d, two_d}) {
    CAPTURE(file);
    for (const std::string backend : {"opencl", "reference"}) {
      CAPTURE(backend);
      check_refused(file, "--backend=" + backend + " --device=0,0", "device.select",
                    "a list of devices needs a cylindrical model, or mpirun");
    }
  }
}
