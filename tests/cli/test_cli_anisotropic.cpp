// Anisotropic materials end to end (docs/EQUATIONS.md "Anisotropic materials"): the birefringent
// slab runs and its model.vti carries the three values per cell; the wire medium slab (poles
// along x only) runs and reports them; what anisotropy is refused with
// (exit 2 naming the key, nothing written). The physics: tests/parallel/test_anisotropic.cpp and
// tools/validation/periodic_models.py.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_helpers.hpp"

using namespace clfdtd_test;
namespace fs = std::filesystem;

TEST_CASE("anisotropic: models/birefringent_slab.ini runs; model.vti has eps_r_xyz, mu_r_xyz, sigma_xyz") {
  const std::string dir = scratch_dir("birefringent_slab");
  const auto r = run_clfdtd("run models/birefringent_slab.ini --backend=reference --time.steps=30 --output.dir=" +
                            dir + " --quiet");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(nlohmann::json::parse(read_text(dir + "/run.json"))["status"] == "completed");
#ifdef CLFDTD_HAVE_VTK
  const std::string vti = read_text(dir + "/model.vti");
  for (const char* name : {"\"eps_r_xyz\"", "\"mu_r_xyz\"", "\"sigma_xyz\"", "anisotropic materials"})
    CHECK_MESSAGE(vti.find(name) != std::string::npos, name);
#endif
}

// Poles along one axis (material axes): the run header and run.json name the axis whose samples
// carry them; the material that axes names is not "used by no object".
TEST_CASE("anisotropic: models/wire_medium_slab.ini runs; its poles are reported along x") {
  const std::string dir = scratch_dir("wire_medium_slab");
  const auto r = run_clfdtd("run models/wire_medium_slab.ini --backend=reference --time.steps=30 --output.dir=" + dir);
  REQUIRE_MESSAGE(r.code == 0, r.out);
  CHECK(r.out.find("dispersive 'wires (x)': eps_inf 1; drude f_p 9e+09 Hz gamma 2e+08 Hz; 1472 E samples") !=
        std::string::npos);
  CHECK(r.out.find("used by no object") == std::string::npos);
  const auto run = nlohmann::json::parse(read_text(dir + "/run.json"));
  CHECK(run["status"] == "completed");
  const auto& d = run["dispersive_materials"];
  // The plasma (which holds no samples of its own), the wires along x (not y or z), and the slab
  // faces' mixtures.
  REQUIRE(d.size() == 3);
  CHECK(d[0]["name"] == "plasma");
  CHECK(d[0]["e_samples"] == 0);
  CHECK(d[1]["name"] == "wires (x)");
  CHECK(d[1]["e_samples"] == 1472);  // 8 x 8 x 23 Ex samples inside the 12 mm slab
  CHECK(d[1]["poles"][0]["kind"] == "drude");
  CHECK(d[1]["poles"][0]["f_p_hz"] == 9e9);
}

// A plane wave along z whose total-field box lies in the crystal: the wave travels in it, with
// E along x meeting eps_x (n = 2): the impedance eta0 / 2 gives the flux CSVs' cross section.
TEST_CASE("anisotropic: a plane wave along an axis travels in an anisotropic background") {
  for (const char* axis : {"x", "y"}) {
    CAPTURE(axis);
    const std::string dir = scratch_dir(std::string("aniso_background_") + axis);
    const auto r = run_clfdtd("run models/birefringent_slab.ini --object.slab.size=\"0.004 0.004 0.3\" --source.pw.axis=" +
                              std::string(axis) + " --backend=reference --time.steps=30 --output.dir=" + dir + " --quiet");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const auto run = nlohmann::json::parse(read_text(dir + "/run.json"));
    REQUIRE(run["plane_waves"].size() == 1);
    CHECK(run["plane_waves"][0]["background"] == "crystal");
    CHECK(read_text(dir + "/monitors/t.csv").find("cross_section_m2") != std::string::npos);
  }
}

TEST_CASE("anisotropic: refusals exit 2 naming the key, and write nothing") {
  struct Refusal {
    std::string model, args, key, expected;
  };
  const std::vector<Refusal> cases = {
      // An oblique wave whose total-field box lies in an anisotropic background (one along an
      // axis may: tests/backends/test_plane_wave_reference.cpp).
      {"models/scattering_sphere.ini", "--material.glass.eps_r=\"2 3 4\" --object.ball.radius=1 --source.wave.direction=\"1 0.3 0\"",
       "source.wave.direction", "which is anisotropic (a wave along an axis, +x .. -z, may travel in one"},
      {"models/waveguide_slab.ini", "--material.polystyrene.eps_r=\"2.56 2.56 3\" --object.slab.size=\"0.03 0.02 0.2\"",
       "source.in.position", "which is anisotropic (not offered yet at a waveguide port)"},
      {"models/cyl_lens.ini", "--material.glass.eps_r=\"2 2 3\"", "material.glass.eps_r",
       "one value in a cylindrical model"},
      {"models/cyl_lens.ini", "--material.wires.axes=\"glass vacuum vacuum\"", "material.wires.axes",
       "no axes in a cylindrical model"},
  };
  for (const Refusal& c : cases) {
    CAPTURE(c.args);
    const std::string out = scratch_dir("anisotropic_refused");
    const auto r = run_clfdtd("run " + c.model + " " + c.args + " --backend=reference --output.dir=" + out + " --quiet");
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(r.out.find("'" + c.key + "'") != std::string::npos);
    CHECK(r.out.find(c.expected) != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
}
